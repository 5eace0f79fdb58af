/* SPDX-License-Identifier: MIT */
/* knight semimagic: semimagic / nested / magic numbered tours, puzzle completion. */
#include "cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Parse a grid: one board row per line, a number or '.' per cell.  Returns
 * the side n (rows == columns, 3..8) or 0 after printing a diagnostic. */
static uint32_t parse_grid(const char *path, const char *text, size_t len, uint32_t *out)
{
    uint32_t rows = 0, cols = 0;
    size_t line = 1, i = 0;
    while (i < len) {
        /* one line */
        uint32_t c = 0;
        size_t start = i;
        bool blank = true;
        while (i < len && text[i] != '\n') {
            char ch = text[i];
            size_t col = i - start + 1;
            if (ch == ' ' || ch == '\t' || ch == '\r') {
                i++;
                continue;
            }
            blank = false;
            uint32_t v = 0;
            if (ch == '.') {
                i++;
            } else if (isdigit((unsigned char)ch)) {
                while (i < len && isdigit((unsigned char)text[i])) {
                    v = v * 10 + (uint32_t)(text[i] - '0');
                    if (v > 64) {
                        cli_fail("%s:%zu:%zu: number too large", path, line, col);
                        return 0;
                    }
                    i++;
                }
                if (v == 0) {
                    cli_fail("%s:%zu:%zu: numbers start at 1 (use '.' for a free cell)", path, line, col);
                    return 0;
                }
            } else {
                cli_fail("%s:%zu:%zu: expected a number or '.'", path, line, col);
                return 0;
            }
            if (i < len && text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '\n') {
                cli_fail("%s:%zu:%zu: expected a space after a cell", path, line, i - start + 1);
                return 0;
            }
            if (rows >= 8 || c >= 8) {
                cli_fail("%s:%zu:%zu: the board has at most 8 rows and columns", path, line, col);
                return 0;
            }
            out[rows * 8 + c++] = v;
        }
        if (!blank) {
            if (rows > 0 && c != cols) {
                cli_fail("%s:%zu:%zu: row has %u cells, expected %u", path, line, i - start + 1, c, cols);
                return 0;
            }
            cols = c;
            rows++;
        }
        if (i < len) i++; /* newline */
        line++;
    }
    if (rows != cols || rows < 3) {
        cli_fail("%s: the grid must be square with 3 to 8 rows (got %u x %u)", path, cols, rows);
        return 0;
    }
    /* compact to n x n */
    for (uint32_t y = 0; y < rows; y++)
        for (uint32_t x = 0; x < rows; x++) out[y * rows + x] = out[y * 8 + x];
    return rows;
}

typedef struct sm_print {
    uint64_t shown;
} sm_print;

static int print_solution(void *user, const kt_semimagic_solution *s)
{
    sm_print *p = user;
    uint32_t n = kt_semimagic_solution_size(s);
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
    for (uint32_t y = 0; y < n; y++) {
        for (uint32_t x = 0; x < n; x++) printf("%s%2u", x ? " " : "", num[y * n + x]);
        printf("\n");
    }
    printf("\n");
    fflush(stdout);
    p->shown++;
    return 0;
}

int cmd_semimagic(int argc, char **argv)
{
    unsigned flags = KT_SEMIMAGIC_LINES;
    bool any_start = false, first = false;
    uint64_t size = 8;
    unsigned threads = 0; /* 0 = one thread per core */
    const char *gridpath = NULL, *v;
    kt_semimagic_symmetry sym = KT_SEMIMAGIC_CLASSES;
    for (int i = 1; i < argc; i++) {
        if (cli_opt(argc, argv, &i, "--nested", NULL)) {
            flags |= KT_SEMIMAGIC_NESTED;
        } else if (cli_opt(argc, argv, &i, "--magic", NULL)) {
            flags |= KT_SEMIMAGIC_MAGIC;
        } else if (cli_opt(argc, argv, &i, "--closed", NULL)) {
            flags |= KT_SEMIMAGIC_CLOSED;
        } else if (cli_opt(argc, argv, &i, "--any-start", NULL)) {
            any_start = true;
        } else if (cli_opt(argc, argv, &i, "--first", NULL)) {
            first = true;
        } else if (cli_opt(argc, argv, &i, "--members", NULL)) {
            sym = KT_SEMIMAGIC_MEMBERS;
        } else if (cli_opt(argc, argv, &i, "--all", NULL)) {
            sym = KT_SEMIMAGIC_ALL;
        } else if (cli_opt(argc, argv, &i, "--threads", &v)) {
            int rc = cli_parse_threads(v, &threads);
            if (rc) return rc;
        } else if (cli_opt(argc, argv, &i, "--size", &v)) {
            if (v == NULL || !cli_parse_u64(v, &size) || size < 3 || size > 8)
                return cli_usage("--size wants a number from 3 to 8");
        } else if (cli_opt(argc, argv, &i, "--grid", &v)) {
            if (v == NULL) return cli_usage("--grid wants a file");
            gridpath = v;
        } else {
            return cli_usage("semimagic: unexpected argument '%s'", argv[i]);
        }
    }
    uint32_t grid[64];
    memset(grid, 0, sizeof grid);
    uint32_t n = (uint32_t)size;
    if (gridpath != NULL) {
        size_t len = 0;
        char *text = cli_read_file(gridpath, &len);
        if (text == NULL) return 1;
        n = parse_grid(gridpath, text, len, grid);
        free(text);
        if (n == 0) return 1;
    }
    kt_semimagic_opts *o = NULL;
    kt_status st = kt_semimagic_opts_new(&o, n, NULL);
    if (st != KT_OK) return cli_fail_status("semimagic", st);
    st = kt_semimagic_opts_set_flags(o, flags);
    if (st == KT_EUNSUPPORTED) {
        kt_semimagic_opts_free(o);
        return cli_usage("--nested needs a board side divisible by 4");
    }
    if (st == KT_OK && !any_start) st = kt_semimagic_opts_set_puzzle_rule(o);
    if (st == KT_OK && gridpath != NULL) {
        st = kt_semimagic_opts_set_grid(o, grid, (size_t)n * n);
        if (st == KT_EINVAL) {
            kt_semimagic_opts_free(o);
            return cli_fail("%s: a number is repeated or larger than %u", gridpath, n * n);
        }
    }
    if (st == KT_OK) st = kt_semimagic_opts_set_symmetry(o, sym);
    kt_options *run = NULL;
    if (st == KT_OK) st = kt_options_new(&run, NULL);
    if (st == KT_OK) st = kt_options_set_threads(run, threads);
    if (st == KT_OK) st = kt_options_set_progress(run, cli_progress, NULL);
    if (st != KT_OK) {
        kt_options_free(run);
        kt_semimagic_opts_free(o);
        return cli_fail_status("semimagic", st);
    }
    sm_print p = {0};
    uint64_t classes = 0, sols = 0;
    if (first) {
        int exists = 0;
        uint32_t w[64];
        st = kt_semimagic_exists(o, run, &exists, w);
        cli_progress_done();
        if (st == KT_OK && exists) {
            for (uint32_t y = 0; y < n; y++) {
                for (uint32_t x = 0; x < n; x++) printf("%s%2u", x ? " " : "", w[y * n + x]);
                printf("\n");
            }
        } else if (st == KT_OK) {
            printf("none exists\n");
        }
    } else {
        st = kt_semimagic_search(o, run, print_solution, &p, &classes, &sols);
        cli_progress_done();
        if (st == KT_OK)
            printf("%llu symmetry class%s, %llu numbering%s satisfying the constraints\n",
                   (unsigned long long)classes, classes == 1 ? "" : "es", (unsigned long long)sols,
                   sols == 1 ? "" : "s");
    }
    kt_options_free(run);
    kt_semimagic_opts_free(o);
    if (st != KT_OK) return cli_fail_status("semimagic", st);
    return 0;
}
