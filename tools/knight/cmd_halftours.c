/* SPDX-License-Identifier: MIT */
/* knight halftours: McKay's half-tour statistics, optionally the closed-tour
 * count by joining the halves. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_type(const kt_halftour_structure *s, uint32_t w, uint32_t rows)
{
    printf("(");
    for (uint32_t r = 0; r < rows; r++) {
        printf("%s(", r ? "; " : "");
        for (uint32_t x = 0; x < w; x++) printf("%s%u", x ? "," : "", s->type[r * w + x]);
        printf(")");
    }
    printf(")");
}

/* The command line of `knight halftours`. */
typedef struct ht_args {
    uint64_t width, depth, other;
    unsigned threads;
    bool join;
} ht_args;

static int parse(int argc, char **argv, ht_args *a)
{
    const char *v;
    bool have_other = false;
    *a = (ht_args){8, 4, 4, 0, false};
    for (int i = 1; i < argc; i++) {
        if (cli_opt(argc, argv, &i, "--width", &v)) {
            if (!cli_parse_u64(v, &a->width) || a->width == 0 || a->width > KT_HALFTOUR_MAX_WIDTH)
                return cli_usage("--width wants 1 to %d", KT_HALFTOUR_MAX_WIDTH);
        } else if (cli_opt(argc, argv, &i, "--depth", &v)) {
            if (!cli_parse_u64(v, &a->depth) || a->depth == 0 || a->depth > 1000)
                return cli_usage("--depth wants a number of rows (1 to 1000)");
        } else if (cli_opt(argc, argv, &i, "--other", &v)) {
            if (!cli_parse_u64(v, &a->other) || a->other == 0 || a->other > 1000)
                return cli_usage("--other wants a number of rows (1 to 1000)");
            have_other = true;
        } else if (cli_opt(argc, argv, &i, "--threads", &v)) {
            int rc = cli_parse_threads(v, &a->threads);
            if (rc) return rc;
        } else if (cli_opt(argc, argv, &i, "--join", NULL)) {
            a->join = true;
        } else {
            return cli_usage("halftours: unexpected argument '%s'", argv[i]);
        }
    }
    if (!have_other) a->other = a->depth;
    return 0;
}

/* McKay's Figure I: {a4-b3, b4-b4, c4-d3, f4-f4, g4-f3, h4-h4}.
 * Boundary cell i = row * 8 + file, row 0 = rank 4, row 1 = rank 3. */
static void print_figure_one(const kt_halftours *h)
{
    uint8_t p[KT_HALFTOUR_MAX_CELLS];
    memset(p, KT_HALFTOUR_INTERIOR, sizeof p);
    p[0] = 9, p[9] = 0;   /* a4-b3 */
    p[1] = 1;             /* b4 */
    p[2] = 11, p[11] = 2; /* c4-d3 */
    p[5] = 5;             /* f4 */
    p[6] = 13, p[13] = 6; /* g4-f3 */
    p[7] = 7;             /* h4 */
    size_t idx = 0;
    uint64_t c = 0;
    if (kt_halftours_find(h, p, &idx, &c) != KT_OK) return;
    kt_halftour_structure fs;
    kt_halftours_at(h, idx, &fs);
    printf("Figure I structure {a4-b3, b4, c4-d3, f4, g4-f3, h4}: %llu half-tours, type ", (unsigned long long)c);
    print_type(&fs, 8, 2);
    printf("\n");
}

static void print_stats(const kt_halftours *h, const ht_args *a)
{
    kt_halftour_stats s;
    kt_halftours_stats(h, &s);
    printf("half: %llu columns, %llu rows (other half %llu rows)\n", (unsigned long long)a->width,
           (unsigned long long)a->depth, (unsigned long long)a->other);
    printf("half-tours: %llu\n", (unsigned long long)s.halftours);
    printf("path structures: %llu\n", (unsigned long long)s.structures);
    printf("half-tours per structure: %llu to %llu\n", (unsigned long long)s.min_count,
           (unsigned long long)s.max_count);
    printf("types: %llu (values of a: %llu, of b: %llu; at most %llu structures per type)\n",
           (unsigned long long)s.types, (unsigned long long)s.a_values,
           (unsigned long long)s.b_values, (unsigned long long)s.max_per_type);
    if (a->width == 8 && a->depth == 4 && a->other == 4) print_figure_one(h);
    fflush(stdout);
}

/* --join: the closed tours of width x (depth + other). */
static int join(const kt_halftours *h, const ht_args *a, const kt_options *run)
{
    kt_halftours *u = NULL;
    kt_status st = KT_OK;
    if (a->other != a->depth) {
        st = kt_halftours_enumerate(&u, (uint32_t)a->width, (uint32_t)a->other, (uint32_t)a->depth, run);
        cli_progress_done();
        if (st != KT_OK) return cli_fail_status("halftours (other half)", st);
    }
    kt_u128 n;
    double t = now();
    st = kt_halftours_join(h, u ? u : h, run, &n);
    cli_progress_done();
    kt_halftours_free(u);
    if (st != KT_OK) return cli_fail_status("join", st);
    fflush(stdout);
    cli_info("join: %.2f s\n", now() - t);
    printf("closed tours of %llux%llu (McKay's join):\n", (unsigned long long)a->width,
           (unsigned long long)(a->depth + a->other));
    char buf[48];
    kt_u128_to_string(&n, buf, sizeof buf);
    printf("%s\n", buf);
    return 0;
}

int cmd_halftours(int argc, char **argv)
{
    ht_args a;
    int rc = parse(argc, argv, &a);
    if (rc) return rc;
    kt_options *run = NULL;
    kt_halftours *h = NULL;
    kt_status st = kt_options_new(&run, NULL);
    if (st == KT_OK) st = kt_options_set_threads(run, a.threads);
    if (st == KT_OK) st = kt_options_set_progress(run, cli_progress, NULL);
    double t0 = now();
    if (st == KT_OK) st = kt_halftours_enumerate(&h, (uint32_t)a.width, (uint32_t)a.depth, (uint32_t)a.other, run);
    cli_progress_done();
    if (st == KT_OK) {
        double t1 = now();
        print_stats(h, &a);
        cli_info("enumeration: %.2f s with %u threads\n", t1 - t0, kt_options_thread_count(run));
        if (a.join) rc = join(h, &a, run);
    } else {
        rc = cli_fail_status("halftours", st);
    }
    kt_halftours_free(h);
    kt_options_free(run);
    return rc;
}
