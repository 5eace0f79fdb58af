/* SPDX-License-Identifier: MIT */
/* knight count: exact numbers of closed or open tours (frontier DP or McKay's half-tours). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double t_start;

static void trace_layer(void *user, uint64_t cell, uint64_t states)
{
    (void)user;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    fprintf(stderr, "cell %llu states %llu t %.1f s\n", (unsigned long long)cell,
            (unsigned long long)states, (double)ts.tv_sec + ts.tv_nsec * 1e-9 - t_start);
}

/* The command line of `knight count`, read before either method runs. */
typedef struct count_args {
    unsigned flags;              /* KT_COUNT_* */
    unsigned threads;            /* 0: one per core */
    uint32_t shard_index, shard_count;
    const char *checkpoint;
    const char *result;          /* --result FILE: the shard result (cmd_reduce.c) */
    double checkpoint_interval;  /* negative: the library's default */
    uint64_t max_states;         /* the frontier count's budget (states of a layer) */
    bool trace;
    bool verbose;                /* --stats */
    bool by_start;               /* --by-start: the table of open tours by start cell */
    const char *method;
    const char *start, *end;     /* --start / --end: open tours with given ends */
    uint32_t w, h;
} count_args;

/* The run settings of the frontier count. */
static kt_status frontier_options(const count_args *a, kt_options **out)
{
    kt_options *run = NULL;
    kt_status st = kt_options_new(&run, NULL);
    if (st == KT_OK) st = kt_options_set_threads(run, a->threads);
    if (st == KT_OK) st = kt_options_set_shard(run, a->shard_index, a->shard_count);
    if (st == KT_OK) st = kt_options_set_budget(run, a->max_states);
    if (st == KT_OK) st = kt_options_set_checkpoint(run, a->checkpoint, a->checkpoint_interval);
    if (st == KT_OK) st = kt_options_set_progress(run, cli_progress, NULL);
    if (st == KT_OK && a->trace) st = kt_options_set_trace(run, trace_layer, NULL);
    if (st != KT_OK) {
        kt_options_free(run);
        run = NULL;
    }
    *out = run;
    return st;
}

/* --shard i/N; 0 or the usage status. */
static int parse_shard(const char *v, count_args *a)
{
    unsigned long i, n;
    char *end;
    if (v == NULL) return cli_usage("--shard wants i/N (0 <= i < N)");
    i = strtoul(v, &end, 10);
    if (end == v || *end != '/') return cli_usage("--shard wants i/N (0 <= i < N), not '%s'", v);
    n = strtoul(end + 1, &end, 10);
    if (*end != '\0' || n == 0 || i >= n || n > UINT32_MAX)
        return cli_usage("--shard wants i/N (0 <= i < N), not '%s'", v);
    a->shard_index = (uint32_t)i;
    a->shard_count = (uint32_t)n;
    return 0;
}

/* The switches of `knight count`; whether argv[*i] was one. */
static bool switch_opt(int argc, char **argv, int *i, count_args *a)
{
    static const struct { const char *name; unsigned flag; } flags[] = {
        {"--open", KT_COUNT_OPEN}, {"--directed", KT_COUNT_DIRECTED},
        {"--symmetric", KT_COUNT_SYMMETRIC}, {"--classes", KT_COUNT_CLASSES},
    };
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
        if (cli_opt(argc, argv, i, flags[k].name, NULL)) {
            a->flags |= flags[k].flag;
            return true;
        }
    if (cli_opt(argc, argv, i, "--stats", NULL)) {
        a->verbose = true;
    } else if (cli_opt(argc, argv, i, "--by-start", NULL)) {
        a->by_start = true;
        a->flags |= KT_COUNT_OPEN;
    } else if (cli_opt(argc, argv, i, "--trace", NULL)) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        t_start = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
        a->trace = true;
    } else {
        return false;
    }
    return true;
}

/* One option with a value: 0 (matched or not, see *matched) or the usage status. */
static int value_opt(int argc, char **argv, int *i, count_args *a, bool *matched)
{
    const char *v;
    uint64_t t;
    *matched = true;
    if (cli_opt(argc, argv, i, "--max-states", &v)) {
        if (!cli_parse_u64(v, &a->max_states)) return cli_usage("--max-states wants a number");
    } else if (cli_opt(argc, argv, i, "--method", &v)) {
        if (v == NULL || (strcmp(v, "auto") != 0 && strcmp(v, "frontier") != 0 && strcmp(v, "halftours") != 0))
            return cli_usage("--method wants auto, frontier or halftours");
        a->method = v;
    } else if (cli_opt(argc, argv, i, "--threads", &v)) {
        return cli_parse_threads(v, &a->threads);
    } else if (cli_opt(argc, argv, i, "--shard", &v)) {
        return parse_shard(v, a);
    } else if (cli_opt(argc, argv, i, "--checkpoint", &v)) {
        if (v == NULL) return cli_usage("--checkpoint wants a file");
        a->checkpoint = v;
    } else if (cli_opt(argc, argv, i, "--start", &v)) {
        if (v == NULL) return cli_usage("--start wants X,Y or a chess square");
        a->start = v;
        a->flags |= KT_COUNT_OPEN;
    } else if (cli_opt(argc, argv, i, "--end", &v)) {
        if (v == NULL) return cli_usage("--end wants X,Y or a chess square");
        a->end = v;
        a->flags |= KT_COUNT_OPEN;
    } else if (cli_opt(argc, argv, i, "--result", &v)) {
        if (v == NULL) return cli_usage("--result wants a file");
        a->result = v;
    } else if (cli_opt(argc, argv, i, "--checkpoint-interval", &v)) {
        if (!cli_parse_u64(v, &t)) return cli_usage("--checkpoint-interval wants seconds");
        a->checkpoint_interval = (double)t;
    } else {
        *matched = false;
    }
    return 0;
}

static int parse(int argc, char **argv, count_args *a)
{
    const char *size = NULL;
    memset(a, 0, sizeof *a);
    a->checkpoint_interval = -1.0;
    a->method = "auto";
    for (int i = 1; i < argc; i++) {
        bool matched;
        int rc = value_opt(argc, argv, &i, a, &matched);
        if (rc) return rc;
        if (matched || switch_opt(argc, argv, &i, a)) continue;
        if (size == NULL && cli_operand(argv, i)) size = argv[i];
        else return cli_usage("count: unexpected argument '%s'", argv[i]);
    }
    if (size == NULL) return cli_usage("count: board size WxH required");
    if (!cli_parse_size(size, &a->w, &a->h)) return cli_usage("count: bad board size '%s' (want WxH)", size);
    /* a shard result names the board and flags, not the ends: refused
     * rather than mixed with the results of other ends by knight reduce */
    if ((a->start != NULL || a->end != NULL) && a->result != NULL)
        return cli_usage("count: --result does not record --start or --end");
    return 0;
}

/* Print the count; with --result, also write the shard result. */
static int print_count(const count_args *a, kt_u128 n)
{
    char buf[48];
    if (a->result != NULL) {
        /* shards keep the library's choice on the frontier (count.h), so
         * shards of auto and frontier runs are parts of one count */
        const char *method = strcmp(a->method, "halftours") == 0 ? "halftours" : "frontier";
        int rc = shard_result_write(a->result, a->w, a->h, method, a->flags & ~KT_COUNT_FRONTIER, a->shard_index,
                                    a->shard_count ? a->shard_count : 1, n);
        if (rc) return rc;
    }
    kt_u128_to_string(&n, buf, sizeof buf);
    printf("%s\n", buf);
    return 0;
}

/* The run settings of McKay's method: --max-states bounds the states of
 * one layer (and the pairings of one type). */
static kt_status halftour_options(const count_args *a, kt_options **out)
{
    kt_options *run = NULL;
    kt_status st = kt_options_new(&run, NULL);
    if (st == KT_OK) st = kt_options_set_threads(run, a->threads);
    if (st == KT_OK) st = kt_options_set_progress(run, cli_progress, NULL);
    if (st == KT_OK) st = kt_options_set_shard(run, a->shard_index, a->shard_count);
    if (st == KT_OK) st = kt_options_set_budget(run, a->max_states);
    if (st == KT_OK && a->trace) st = kt_options_set_trace(run, trace_layer, NULL);
    if (st != KT_OK) {
        kt_options_free(run);
        run = NULL;
    }
    *out = run;
    return st;
}

/* --start / --end of an open count by half-tours, as cells of the board
 * turned so that its rows run along the cut (transposed when turned). */
static int halftour_ends(const count_args *a, bool transposed, kt_cell *start, kt_cell *end)
{
    kt_graph *g = NULL;
    kt_status st = kt_graph_new(&g, a->w, a->h);
    if (st != KT_OK) return cli_fail_status("board", st);
    kt_cell c[2] = {KT_CELL_NONE, KT_CELL_NONE};
    int rc = cli_cell_arg(g, "--start", a->start, &c[0]);
    if (rc == 0) rc = cli_cell_arg(g, "--end", a->end, &c[1]);
    if (rc == 0 && c[0] != KT_CELL_NONE && c[0] == c[1]) rc = cli_usage("count: --start and --end are the same cell");
    for (int i = 0; i < 2 && transposed; i++)
        if (c[i] != KT_CELL_NONE) c[i] = (c[i] % a->w) * a->h + c[i] / a->w;
    kt_graph_free(g);
    *start = c[0];
    *end = c[1];
    return rc;
}

/* McKay's method (halftour.h): closed or open tours, cut across the
 * middle; the rows must be at most KT_HALFTOUR_MAX_WIDTH wide. */
static int count_halftours(const count_args *a)
{
    uint32_t w = a->w, h = a->h;
    bool open = (a->flags & KT_COUNT_OPEN) != 0;
    if (a->flags & (KT_COUNT_SYMMETRIC | KT_COUNT_CLASSES))
        return cli_usage("count: --method halftours counts all closed or open tours (no --symmetric, --classes)");
    if (a->checkpoint != NULL)
        return cli_usage("count: --method halftours has no --checkpoint (run it in --shard parts)");
    bool transposed = false;
    if (w > KT_HALFTOUR_MAX_WIDTH || (h < w && h >= 2)) {
        w = a->h;
        h = a->w;
        transposed = true;
    }
    if (w > KT_HALFTOUR_MAX_WIDTH || h < 2)
        return cli_fail("count: --method halftours counts boards whose narrow side is at most %d (and at least 2), "
                        "not %ux%u", KT_HALFTOUR_MAX_WIDTH, a->w, a->h);
    kt_cell start = KT_CELL_NONE, end = KT_CELL_NONE;
    int rc = open ? halftour_ends(a, transposed, &start, &end) : 0;
    if (rc) return rc;
    kt_options *run = NULL;
    kt_status st = halftour_options(a, &run);
    kt_u128 n = {0, 0};
    if (st == KT_OK && open)
        st = kt_halftours_count_open(w, h, h / 2, start, end,
                                     (a->flags & KT_COUNT_DIRECTED) ? KT_HALFTOUR_DIRECTED : 0, run, &n);
    else if (st == KT_OK)
        st = kt_halftours_count_closed(w, h, h / 2, run, &n);
    kt_options_free(run);
    cli_progress_done();
    if (st != KT_OK) return cli_fail_status("count", st);
    if (!open && (a->flags & KT_COUNT_DIRECTED)) {
        if (n.hi >> 63) return cli_fail_status("count", KT_EOVERFLOW);
        n.hi = n.hi << 1 | n.lo >> 63;
        n.lo <<= 1;
    }
    return print_count(a, n);
}

/* The frontier method's limit (count.h): the narrow side at most 8. */
static int frontier_limit(const count_args *a)
{
    uint32_t narrow = a->w < a->h ? a->w : a->h;
    if (narrow <= 8) return 0;
    return cli_fail("count: %ux%u is too large: the frontier method counts boards whose narrow side is at most 8; "
                    "the other side may be any length", a->w, a->h);
}

static int count_frontier(const count_args *a)
{
    int rc = frontier_limit(a);
    if (rc) return rc;
    kt_graph *g = NULL;
    kt_status st = kt_graph_new(&g, a->w, a->h);
    if (st != KT_OK) return cli_fail_status("board", st);
    kt_cell start = KT_CELL_NONE, end = KT_CELL_NONE;
    rc = cli_cell_arg(g, "--start", a->start, &start);
    if (rc == 0) rc = cli_cell_arg(g, "--end", a->end, &end);
    if (rc == 0 && start != KT_CELL_NONE && start == end) rc = cli_usage("count: --start and --end are the same cell");
    if (rc) {
        kt_graph_free(g);
        return rc;
    }
    kt_options *run = NULL;
    kt_u128 n;
    kt_count_stats stats;
    st = frontier_options(a, &run);
    if (st == KT_OK && (start != KT_CELL_NONE || end != KT_CELL_NONE))
        st = kt_count_open_tours(g, start, end, a->flags, run, &n, &stats);
    else if (st == KT_OK)
        st = kt_count_tours(g, a->flags, run, &n, &stats);
    cli_progress_done();
    kt_options_free(run);
    kt_graph_free(g);
    if (st == KT_EUNSUPPORTED) return cli_fail("count: %ux%u with these options is beyond the frontier method "
                                               "(see knight count --help for its limits)", a->w, a->h);
    if (st != KT_OK) return cli_fail_status("count", st);
    if (a->verbose && stats.frontier == 0)
        fprintf(stderr, "no frontier layers (a small board's depth-first search, half-tours, or no tour by the rules)\n");
    else if (a->verbose)
        fprintf(stderr, "frontier %u cells, peak %llu states, %llu bytes of layers\n", stats.frontier,
                (unsigned long long)stats.peak_states, (unsigned long long)stats.peak_bytes);
    return print_count(a, n);
}

/* --by-start: the directed open tours from each cell as the board's rows
 * (top row first, as cells are numbered), then their total. */
static int count_by_start(const count_args *a)
{
    if (a->start != NULL || a->end != NULL || a->result != NULL || strcmp(a->method, "halftours") == 0 ||
        (a->flags & (KT_COUNT_SYMMETRIC | KT_COUNT_CLASSES)))
        return cli_usage("count: --by-start counts all open tours, one count per class of start cells "
                         "(no --start, --end, --symmetric, --classes, --result or --method halftours)");
    int rc = frontier_limit(a);
    if (rc) return rc;
    kt_graph *g = NULL;
    kt_options *run = NULL;
    size_t n = (size_t)a->w * a->h;
    kt_u128 *t = n <= SIZE_MAX / sizeof *t ? malloc(n * sizeof *t) : NULL;
    kt_status st = t == NULL ? KT_ENOMEM : kt_graph_new(&g, a->w, a->h);
    if (st == KT_OK) st = frontier_options(a, &run);
    if (st == KT_OK) st = kt_count_open_by_start(g, a->flags, run, t, n);
    cli_progress_done();
    kt_options_free(run);
    kt_graph_free(g);
    char buf[48];
    size_t width = 1;
    kt_u128 sum = {0, 0};
    for (size_t c = 0; st == KT_OK && c < n; c++) {
        uint64_t lo = sum.lo + t[c].lo;
        sum.hi += t[c].hi + (lo < sum.lo);
        sum.lo = lo;
        kt_u128_to_string(&t[c], buf, sizeof buf);
        if (strlen(buf) > width) width = strlen(buf);
    }
    for (size_t c = 0; st == KT_OK && c < n; c++) {
        kt_u128_to_string(&t[c], buf, sizeof buf);
        printf("%*s%s", (int)width, buf, (c + 1) % a->w == 0 ? "\n" : " ");
    }
    free(t);
    if (st != KT_OK) return cli_fail_status("count", st);
    kt_u128_to_string(&sum, buf, sizeof buf);
    printf("total %s\n", buf);
    return 0;
}

int cmd_count(int argc, char **argv)
{
    count_args a;
    int rc = parse(argc, argv, &a);
    if (rc) return rc;
    if (strcmp(a.method, "frontier") == 0) a.flags |= KT_COUNT_FRONTIER;
    if (a.by_start) return count_by_start(&a);
    if (strcmp(a.method, "halftours") == 0) return count_halftours(&a);
    return count_frontier(&a);
}
