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

int cmd_halftours(int argc, char **argv)
{
    uint64_t width = 8, depth = 4, other = 4;
    unsigned threads = 0;
    bool join = false, have_other = false;
    const char *v;
    for (int i = 1; i < argc; i++) {
        if (cli_opt(argc, argv, &i, "--width", &v)) {
            if (!cli_parse_u64(v, &width) || width == 0 || width > KT_HALFTOUR_MAX_WIDTH)
                return cli_usage("--width wants 1 to %d", KT_HALFTOUR_MAX_WIDTH);
        } else if (cli_opt(argc, argv, &i, "--depth", &v)) {
            if (!cli_parse_u64(v, &depth) || depth == 0 || depth > 1000)
                return cli_usage("--depth wants a number of rows");
        } else if (cli_opt(argc, argv, &i, "--other", &v)) {
            if (!cli_parse_u64(v, &other) || other == 0 || other > 1000)
                return cli_usage("--other wants a number of rows");
            have_other = true;
        } else if (cli_opt(argc, argv, &i, "--threads", &v)) {
            int rc = cli_parse_threads(v, &threads);
            if (rc) return rc;
        } else if (cli_opt(argc, argv, &i, "--join", NULL)) {
            join = true;
        } else {
            return cli_usage("halftours: unexpected argument '%s'", argv[i]);
        }
    }
    if (!have_other) other = depth;
    kt_options *run = NULL;
    kt_status st = kt_options_new(&run, NULL);
    if (st == KT_OK) st = kt_options_set_threads(run, threads);
    if (st == KT_OK) st = kt_options_set_progress(run, cli_progress, NULL);
    if (st != KT_OK) {
        kt_options_free(run);
        return cli_fail_status("halftours", st);
    }
    double t0 = now();
    kt_halftours *h = NULL;
    st = kt_halftours_enumerate(&h, (uint32_t)width, (uint32_t)depth, (uint32_t)other, run);
    cli_progress_done();
    if (st != KT_OK) {
        kt_options_free(run);
        return cli_fail_status("halftours", st);
    }
    double t1 = now();
    kt_halftour_stats s;
    kt_halftours_stats(h, &s);
    printf("half: %llu columns, %llu rows (other half %llu rows)\n", (unsigned long long)width,
           (unsigned long long)depth, (unsigned long long)other);
    printf("half-tours: %llu\n", (unsigned long long)s.halftours);
    printf("path structures: %llu\n", (unsigned long long)s.structures);
    printf("half-tours per structure: %llu to %llu\n", (unsigned long long)s.min_count,
           (unsigned long long)s.max_count);
    printf("types: %llu (values of a: %llu, of b: %llu; at most %llu structures per type)\n",
           (unsigned long long)s.types, (unsigned long long)s.a_values,
           (unsigned long long)s.b_values, (unsigned long long)s.max_per_type);
    if (width == 8 && depth == 4 && other == 4) {
        /* McKay's Figure I: {a4-b3, b4-b4, c4-d3, f4-f4, g4-f3, h4-h4}.
         * Boundary cell i = row * 8 + file, row 0 = rank 4, row 1 = rank 3. */
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
        if (kt_halftours_find(h, p, &idx, &c) == KT_OK) {
            kt_halftour_structure fs;
            kt_halftours_at(h, idx, &fs);
            printf("Figure I structure {a4-b3, b4, c4-d3, f4, g4-f3, h4}: %llu half-tours, type ",
                   (unsigned long long)c);
            print_type(&fs, 8, 2);
            printf("\n");
        }
    }
    fflush(stdout);
    cli_info("enumeration: %.2f s with %u threads\n", t1 - t0,
            kt_options_thread_count(run));
    if (join) {
        kt_halftours *u = NULL;
        if (other != depth) {
            st = kt_halftours_enumerate(&u, (uint32_t)width, (uint32_t)other, (uint32_t)depth, run);
            cli_progress_done();
            if (st != KT_OK) {
                kt_halftours_free(h);
                kt_options_free(run);
                return cli_fail_status("halftours (other half)", st);
            }
        }
        kt_u128 n;
        double t2 = now();
        st = kt_halftours_join(h, u ? u : h, run, &n);
        cli_progress_done();
        kt_halftours_free(u);
        if (st != KT_OK) {
            kt_halftours_free(h);
            kt_options_free(run);
            return cli_fail_status("join", st);
        }
        fflush(stdout);
        cli_info("join: %.2f s\n", now() - t2);
        printf("closed tours of %llux%llu (McKay's join):\n", (unsigned long long)width,
               (unsigned long long)(depth + other));
        char buf[48];
        kt_u128_to_string(&n, buf, sizeof buf);
        printf("%s\n", buf);
    }
    kt_halftours_free(h);
    kt_options_free(run);
    return 0;
}
