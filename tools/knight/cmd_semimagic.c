/* SPDX-License-Identifier: MIT */
/* knight semimagic: semimagic / nested / magic numbered tours, puzzle
 * completion, and puzzles with a unique solution (--make-puzzle). */
#include "cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The largest side and the most cells of a board (kt_semimagic_opts_new_rect). */
#define SM_MAXS 16
#define SM_MAXC (SM_MAXS * SM_MAXS)

/* A grid being read: the cells so far (row-major, rows of SM_MAXS). */
typedef struct grid_reader {
    const char *path;
    uint32_t *out;
    uint32_t rows, cols;
    size_t line;
} grid_reader;

static bool blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r';
}

/* One cell at text[*i] (a number 1..256 or '.'): 0 on success, else 1 after a message. */
static int grid_cell(const grid_reader *g, const char *text, size_t len, size_t *i, size_t col, uint32_t *v)
{
    *v = 0;
    if (text[*i] == '.') {
        ++*i;
        return 0;
    }
    if (!isdigit((unsigned char)text[*i])) return cli_fail("%s:%zu:%zu: expected a number or '.'", g->path, g->line, col);
    for (; *i < len && isdigit((unsigned char)text[*i]); ++*i) {
        *v = *v * 10 + (uint32_t)(text[*i] - '0');
        if (*v > SM_MAXC) return cli_fail("%s:%zu:%zu: number too large", g->path, g->line, col);
    }
    if (*v == 0) return cli_fail("%s:%zu:%zu: numbers start at 1 (use '.' for a free cell)", g->path, g->line, col);
    return 0;
}

/* The line starting at text[*i]; *i ends on its newline (or len). */
static int grid_line(grid_reader *g, const char *text, size_t len, size_t *i)
{
    uint32_t c = 0, v;
    size_t start = *i;
    while (*i < len && blank(text[*i])) ++*i;
    /* A comment line (--make-puzzle writes one above its grid). */
    if (*i < len && text[*i] == '#')
        while (*i < len && text[*i] != '\n') ++*i;
    while (*i < len && text[*i] != '\n') {
        size_t col = *i - start + 1;
        if (blank(text[*i])) {
            ++*i;
            continue;
        }
        if (grid_cell(g, text, len, i, col, &v)) return 1;
        if (*i < len && !blank(text[*i]) && text[*i] != '\n')
            return cli_fail("%s:%zu:%zu: expected a space after a cell", g->path, g->line, *i - start + 1);
        if (g->rows >= SM_MAXS || c >= SM_MAXS)
            return cli_fail("%s:%zu:%zu: the board has at most %d rows and columns", g->path, g->line, col, SM_MAXS);
        g->out[g->rows * SM_MAXS + c++] = v;
    }
    if (c == 0) return 0;
    if (g->rows > 0 && c != g->cols)
        return cli_fail("%s:%zu:%zu: row has %u cells, expected %u", g->path, g->line, *i - start + 1, c, g->cols);
    g->cols = c;
    g->rows++;
    return 0;
}

/* Parse a grid: one board row per line, a number or '.' per cell, into
 * *w columns and *h rows (1..16 each); 0, or 1 after a diagnostic. */
static int parse_grid(const char *path, const char *text, size_t len, uint32_t *out, uint32_t *w,
                      uint32_t *h)
{
    grid_reader g = {path, out, 0, 0, 1};
    for (size_t i = 0; i < len; i++, g.line++)
        if (grid_line(&g, text, len, &i)) return 1;
    if (g.rows == 0) return cli_fail("%s: no rows", path);
    /* compact to cols x rows */
    for (uint32_t y = 0; y < g.rows; y++)
        for (uint32_t x = 0; x < g.cols; x++) out[y * g.cols + x] = out[y * SM_MAXS + x];
    *w = g.cols;
    *h = g.rows;
    return 0;
}

/* A numbering, one board row per line ('.' for 0). */
static void print_grid(const uint32_t *num, uint32_t w, uint32_t h)
{
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint32_t k = num[y * w + x];
            /* width 3 once numbers reach 100 */
            int wd = w * h > 99 ? 3 : 2;
            if (k) printf("%s%*u", x ? " " : "", wd, k);
            else printf("%s%*s", x ? " " : "", wd, ".");
        }
        printf("\n");
    }
}

typedef struct sm_print {
    uint64_t shown;
} sm_print;

static int print_solution(void *user, const kt_semimagic_solution *s)
{
    sm_print *p = user;
    const uint32_t *num = kt_semimagic_solution_numbers(s);
    cli_progress_done();
    uint64_t rev = kt_semimagic_solution_reverse_class(s);
    printf("# class %llu (%u images, %u satisfying the constraints)",
           (unsigned long long)kt_semimagic_solution_class(s), kt_semimagic_solution_class_size(s),
           kt_semimagic_solution_class_satisfying(s));
    if (kt_semimagic_solution_member(s) > 0)
        printf(", member %u%s", kt_semimagic_solution_member(s),
               kt_semimagic_solution_satisfies(s) ? "" : " (fails the constraints)");
    if (rev == kt_semimagic_solution_class(s)) printf("; reversal: same class\n");
    else if (rev != KT_SEMIMAGIC_NO_CLASS) printf("; reversal: class %llu\n", (unsigned long long)rev);
    else printf("; reversal: %s\n", kt_semimagic_solution_reverse_satisfies(s) ? "not yet reported" : "fails the constraints");
    print_grid(num, kt_semimagic_solution_width(s), kt_semimagic_solution_height(s));
    printf("\n");
    fflush(stdout);
    p->shown++;
    return 0;
}

/* The command line of `knight semimagic`. */
typedef struct sm_args {
    unsigned flags;
    bool any_start, first, make_puzzle;
    unsigned threads;    /* 0 = one thread per core */
    uint32_t w, h;       /* --size */
    uint64_t shard, nshards;
    uint64_t seed, check_budget; /* --make-puzzle */
    const char *gridpath;
    kt_semimagic_symmetry sym;
    const char *checkpoint;
    const char *result; /* --result FILE: a shard result for knight reduce */
    uint64_t budget;    /* --budget: search nodes, 0 = unlimited */
    double seconds;     /* --seconds: wall time, 0 = unlimited */
} sm_args;

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* --seconds: the progress bar, and a cancel once the time is up. */
typedef struct sm_clock {
    double deadline; /* 0 = none */
} sm_clock;

static int timed_progress(void *user, uint64_t done, uint64_t total)
{
    const sm_clock *c = user;
    cli_progress(NULL, done, total);
    return c->deadline > 0 && wall_now() > c->deadline;
}

/* The switches; whether argv[*i] was one. */
static bool switch_opt(int argc, char **argv, int *i, sm_args *a)
{
    if (cli_opt(argc, argv, i, "--nested", NULL)) a->flags |= KT_SEMIMAGIC_NESTED;
    else if (cli_opt(argc, argv, i, "--magic", NULL)) a->flags |= KT_SEMIMAGIC_MAGIC;
    else if (cli_opt(argc, argv, i, "--closed", NULL)) a->flags |= KT_SEMIMAGIC_CLOSED;
    else if (cli_opt(argc, argv, i, "--halfturn", NULL)) a->flags |= KT_SEMIMAGIC_HALFTURN;
    else if (cli_opt(argc, argv, i, "--any-start", NULL)) a->any_start = true;
    else if (cli_opt(argc, argv, i, "--first", NULL)) a->first = true;
    else if (cli_opt(argc, argv, i, "--members", NULL)) a->sym = KT_SEMIMAGIC_MEMBERS;
    else if (cli_opt(argc, argv, i, "--all", NULL)) a->sym = KT_SEMIMAGIC_ALL;
    else if (cli_opt(argc, argv, i, "--make-puzzle", NULL)) a->make_puzzle = true;
    else if (cli_opt(argc, argv, i, "--rows", NULL)) a->flags = (a->flags & ~(unsigned)KT_SEMIMAGIC_LINES) | KT_SEMIMAGIC_ROWS;
    else if (cli_opt(argc, argv, i, "--columns", NULL)) a->flags = (a->flags & ~(unsigned)KT_SEMIMAGIC_LINES) | KT_SEMIMAGIC_COLUMNS;
    else return false;
    return true;
}

static int parse(int argc, char **argv, sm_args *a)
{
    const char *v;
    *a = (sm_args){.flags = KT_SEMIMAGIC_LINES, .w = 8, .h = 8, .nshards = 1, .check_budget = 1000000,
                   .sym = KT_SEMIMAGIC_CLASSES};
    for (int i = 1; i < argc; i++) {
        if (switch_opt(argc, argv, &i, a)) continue;
        if (cli_opt(argc, argv, &i, "--threads", &v)) {
            int rc = cli_parse_threads(v, &a->threads);
            if (rc) return rc;
        } else if (cli_opt(argc, argv, &i, "--size", &v)) {
            uint64_t n = 0;
            if (v != NULL && cli_parse_u64(v, &n) && n >= 3 && n <= SM_MAXS) a->w = a->h = (uint32_t)n;
            else if (v == NULL || !cli_parse_size(v, &a->w, &a->h) || a->w < 1 || a->h < 1 || a->w > SM_MAXS ||
                     a->h > SM_MAXS)
                return cli_usage("--size wants N (3 to 16) or WxH (1 to 16 each)");
        } else if (cli_opt(argc, argv, &i, "--shard", &v)) {
            /* i/N: the two numbers on either side of the slash */
            char head[24];
            const char *slash = v != NULL ? strchr(v, '/') : NULL;
            size_t hl = slash != NULL ? (size_t)(slash - v) : 0;
            if (hl > 0 && hl < sizeof head) {
                memcpy(head, v, hl);
                head[hl] = '\0';
            }
            if (hl == 0 || hl >= sizeof head || !cli_parse_u64(head, &a->shard) ||
                !cli_parse_u64(slash + 1, &a->nshards) || a->nshards == 0 || a->shard >= a->nshards ||
                a->nshards > UINT32_MAX)
                return cli_usage("--shard wants i/N (0 <= i < N)");
        } else if (cli_opt(argc, argv, &i, "--seed", &v)) {
            if (v == NULL || !cli_parse_u64(v, &a->seed)) return cli_usage("--seed wants a number");
        } else if (cli_opt(argc, argv, &i, "--check-budget", &v)) {
            if (v == NULL || !cli_parse_u64(v, &a->check_budget))
                return cli_usage("--check-budget wants a number of search nodes (0 = unlimited)");
        } else if (cli_opt(argc, argv, &i, "--result", &v)) {
            if (v == NULL) return cli_usage("--result wants a file");
            a->result = v;
        } else if (cli_opt(argc, argv, &i, "--budget", &v)) {
            if (v == NULL || !cli_parse_u64(v, &a->budget)) return cli_usage("--budget wants a number of search nodes");
        } else if (cli_opt(argc, argv, &i, "--seconds", &v)) {
            char *end = NULL;
            a->seconds = v != NULL ? strtod(v, &end) : -1;
            if (v == NULL || end == v || *end != '\0' || !(a->seconds > 0)) return cli_usage("--seconds wants a time in seconds");
        } else if (cli_opt(argc, argv, &i, "--checkpoint", &v)) {
            if (v == NULL) return cli_usage("--checkpoint wants a file");
            a->checkpoint = v;
        } else if (cli_opt(argc, argv, &i, "--grid", &v)) {
            if (v == NULL) return cli_usage("--grid wants a file");
            a->gridpath = v;
        } else {
            return cli_usage("semimagic: unexpected argument '%s'", argv[i]);
        }
    }
    if (a->result != NULL && (a->first || a->make_puzzle))
        return cli_usage("semimagic: --result records a whole search, not --first or --make-puzzle");
    return 0;
}

/* The shard result of a search: the constraints that define it go into
 * the record's flags (and so into its run id), the grid as a hash, so
 * knight reduce refuses shards of different searches. */
static int write_result(const sm_args *a, const uint32_t *grid, uint32_t w, uint32_t h, uint64_t classes,
                        uint64_t sols)
{
    static const char *const modes[] = {"classes", "members", "all"};
    char board[32], flags[160], g[32] = "";
    if (a->gridpath != NULL)
        snprintf(g, sizeof g, " grid %016llx", (unsigned long long)cli_fnv1a(grid, sizeof *grid * w * h));
    snprintf(board, sizeof board, "%ux%u", w, h);
    snprintf(flags, sizeof flags, "%s%s%s%s%s%s %s%s", (a->flags & KT_SEMIMAGIC_ROWS) ? "rows" : "",
             (a->flags & KT_SEMIMAGIC_COLUMNS) ? "columns" : "", (a->flags & KT_SEMIMAGIC_LINES) ? "lines" : "",
             (a->flags & KT_SEMIMAGIC_NESTED) ? " nested" : "", (a->flags & KT_SEMIMAGIC_MAGIC) ? " magic" : "",
             (a->flags & KT_SEMIMAGIC_CLOSED) ? " closed" : "", a->any_start ? "any-start" : "puzzle-rule",
             g);
    size_t len = strlen(flags);
    snprintf(flags + len, sizeof flags - len, " %s", modes[a->sym]);
    kt_u128 n = {0}, c = {0};
    n.lo = sols;
    c.lo = classes;
    return shard_result_write_record(a->result, board, "semimagic", flags, (uint32_t)a->shard,
                                     a->nshards ? (uint32_t)a->nshards : 1, n, &c);
}

/* The constraints: 0, or the exit status after a message. */
static int make_opts(const sm_args *a, const uint32_t *grid, uint32_t w, uint32_t h, kt_semimagic_opts **out)
{
    kt_semimagic_opts *o = NULL;
    kt_status st = kt_semimagic_opts_new_rect(&o, w, h, NULL);
    if (st == KT_OK) st = kt_semimagic_opts_set_flags(o, a->flags);
    int rc = st == KT_EUNSUPPORTED ? cli_usage("these constraints do not apply to a %ux%u board (--nested needs a square "
                                               "side divisible by 4, --magic a square; a line of k cells must sum to the "
                                               "integer k(N+1)/2: try --rows or --columns)", w, h)
                                   : 0;
    if (st == KT_OK && !a->any_start) st = kt_semimagic_opts_set_puzzle_rule(o);
    if (st == KT_OK && a->gridpath != NULL) {
        st = kt_semimagic_opts_set_grid(o, grid, (size_t)w * h);
        if (st == KT_EINVAL) rc = cli_fail("%s: a number is repeated or larger than %u", a->gridpath, w * h);
    }
    if (st == KT_OK) st = kt_semimagic_opts_set_symmetry(o, a->sym);
    if (st != KT_OK && rc == 0) rc = cli_fail_status("semimagic", st);
    if (rc) {
        kt_semimagic_opts_free(o);
        o = NULL;
    }
    *out = o;
    return rc;
}

/* --first: one numbering or "none exists". */
static kt_status find_first(const kt_semimagic_opts *o, const kt_options *run, uint32_t w, uint32_t h)
{
    int exists = 0;
    uint32_t tour[SM_MAXC];
    kt_status st = kt_semimagic_exists(o, run, &exists, tour);
    cli_progress_done();
    if (st != KT_OK) return st;
    if (!exists) printf("none exists\n");
    else print_grid(tour, w, h);
    return KT_OK;
}

/* --make-puzzle: from the first tour that completes the --grid (a
 * complete grid is its own), a puzzle whose completion is unique; written
 * as a grid that --grid reads back, under a comment with its size and
 * difficulty. */
static kt_status make_puzzle(const sm_args *a, kt_semimagic_opts *o, const kt_options *run, uint32_t w,
                             uint32_t h)
{
    int exists = 0;
    uint32_t tour[SM_MAXC], puz[SM_MAXC], givens = 0;
    uint64_t difficulty = 0;
    kt_status st = kt_semimagic_exists(o, run, &exists, tour);
    if (st == KT_OK && !exists) {
        cli_progress_done();
        printf("none exists\n");
        return KT_OK;
    }
    if (st == KT_OK)
        st = kt_semimagic_make_puzzle(puz, o, tour, (size_t)w * h, a->seed, a->check_budget, run,
                                      &givens, &difficulty);
    cli_progress_done();
    if (st != KT_OK) return st;
    printf("# %u given numbers, difficulty %llu search nodes (seed %llu)\n", givens,
           (unsigned long long)difficulty, (unsigned long long)a->seed);
    print_grid(puz, w, h);
    return KT_OK;
}

static kt_status search_all(const sm_args *a, const kt_semimagic_opts *o, const kt_options *run,
                            const uint32_t *grid, uint32_t w, uint32_t h)
{
    sm_print p = {0};
    uint64_t classes = 0, sols = 0;
    kt_status st = kt_semimagic_search(o, run, print_solution, &p, &classes, &sols);
    cli_progress_done();
    if (st == KT_OK && a->result != NULL && write_result(a, grid, w, h, classes, sols) != 0) return KT_EIO;
    /* A bounded search that stops says what it found before the stop. */
    if (st == KT_OK || st == KT_ELIMIT || st == KT_ECANCELED)
        printf("%s%llu symmetry class%s, %llu numbering%s satisfying the constraints\n",
               st == KT_OK ? "" : st == KT_ELIMIT ? "stopped by --budget: " : "stopped: ",
               (unsigned long long)classes, classes == 1 ? "" : "es", (unsigned long long)sols,
               sols == 1 ? "" : "s");
    return st;
}

int cmd_semimagic(int argc, char **argv)
{
    sm_args a;
    int rc = parse(argc, argv, &a);
    if (rc) return rc;
    uint32_t grid[SM_MAXC] = {0};
    uint32_t w = a.w, h = a.h;
    if (a.gridpath != NULL) {
        size_t len = 0;
        char *text = cli_read_file(a.gridpath, &len);
        if (text == NULL) return CLI_FAIL;
        int bad = parse_grid(a.gridpath, text, len, grid, &w, &h);
        free(text);
        if (bad) return CLI_FAIL;
    }
    kt_semimagic_opts *o = NULL;
    if ((rc = make_opts(&a, grid, w, h, &o)) != 0) return rc;
    kt_options *run = NULL;
    kt_status st = kt_options_new(&run, NULL);
    if (st == KT_OK) st = kt_options_set_threads(run, a.threads);
    sm_clock clock = {a.seconds > 0 ? wall_now() + a.seconds : 0};
    if (st == KT_OK) st = kt_options_set_progress(run, timed_progress, &clock);
    if (st == KT_OK) st = kt_options_set_budget(run, a.budget);
    if (st == KT_OK) st = kt_options_set_shard(run, (uint32_t)a.shard, (uint32_t)a.nshards);
    if (st == KT_OK && a.checkpoint != NULL) st = kt_options_set_checkpoint(run, a.checkpoint, -1);
    if (st == KT_OK)
        st = a.make_puzzle ? make_puzzle(&a, o, run, w, h) : a.first ? find_first(o, run, w, h) : search_all(&a, o, run, grid, w, h);
    kt_options_free(run);
    kt_semimagic_opts_free(o);
    return st == KT_OK ? 0 : cli_fail_status("semimagic", st);
}
