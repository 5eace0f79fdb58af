/* SPDX-License-Identifier: MIT */
/*
 * Exact counts by the frontier DP: times, peak states and layer memory.
 *   bench_count                 the standard set (6x6, 7x8, 8x8 symmetric
 *                               tours and classes, small open counts)
 *   bench_count WxH [open|directed|symmetric|classes|symclasses] [threads]
 *                               one count (8x8 closed: the long run)
 *   bench_count bystart WxH [threads] [naive]
 *                               the table of directed open tours by start
 *                               cell (kt_count_open_by_start), its time
 *                               beside the open count's; with "naive",
 *                               also a count per cell, compared entry by
 *                               entry
 *   bench_count luschny         Luschny's set (every k x n board, 3 <= k, n
 *                               <= 12, k n <= 40), open and closed tours, one
 *                               thread: a line "k n kind count cpu wall" per
 *                               count, the times in seconds per call (small
 *                               boards repeated); bench/luschny.sh puts
 *                               them beside his programs
 * Peak resident memory: run under /usr/bin/time -v.
 */
#include <knight/knight.h>

#include "bench_clock.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void layer(void *user, uint64_t cell, uint64_t states)
{
    double *t0 = user;
    fprintf(stderr, "  cell %3llu: %12llu states  %8.1f s\n", (unsigned long long)cell,
            (unsigned long long)states, bench_now() - *t0);
}

static int one(uint32_t w, uint32_t h, const char *kind, unsigned threads, int trace)
{
    kt_graph *g = NULL;
    if (kt_graph_new(&g, w, h) != KT_OK) return 1;
    kt_options *run = NULL;
    if (kt_options_new(&run, NULL) != KT_OK || kt_options_set_threads(run, threads) != KT_OK) {
        kt_options_free(run);
        kt_graph_free(g);
        return 1;
    }
    unsigned flags = 0;
    if (strcmp(kind, "open") == 0) flags = KT_COUNT_OPEN;
    else if (strcmp(kind, "directed") == 0) flags = KT_COUNT_DIRECTED;
    else if (strcmp(kind, "symmetric") == 0) flags = KT_COUNT_SYMMETRIC;
    else if (strcmp(kind, "classes") == 0) flags = KT_COUNT_CLASSES;
    else if (strcmp(kind, "symclasses") == 0) flags = KT_COUNT_CLASSES | KT_COUNT_SYMMETRIC;
    double t0 = bench_now();
    if (trace) kt_options_set_trace(run, layer, &t0);
    kt_u128 v;
    kt_count_stats st;
    kt_status s = kt_count_tours(g, flags, run, &v, &st);
    double t = bench_now() - t0;
    kt_options_free(run);
    kt_graph_free(g);
    if (s != KT_OK) {
        printf("%ux%u %-10s %s\n", w, h, kind, kt_strerror(s));
        return 1;
    }
    char buf[48];
    kt_u128_to_string(&v, buf, sizeof buf);
    printf("%ux%u %-10s %24s  %8.2f s  threads %u  frontier %u  peak states %llu  layers %.1f MiB\n", w, h,
           kind, buf, t, threads, st.frontier, (unsigned long long)st.peak_states,
           (double)st.peak_bytes / 1048576.0);
    fflush(stdout);
    return 0;
}

/* One count of Luschny's set, repeated for at least 20 ms of CPU so that
 * the microsecond ones are measured, not the clock. */
static int luschny_one(const kt_graph *g, const kt_options *run, unsigned k, unsigned n, bool open)
{
    kt_u128 v = {0, 0};
    unsigned reps = 0;
    double c0 = bench_cpu(), w0 = bench_now(), c1;
    do {
        kt_status s = kt_count_tours(g, open ? KT_COUNT_OPEN : 0, run, &v, NULL);
        if (s != KT_OK) {
            printf("%u %u %s error %s\n", k, n, open ? "open" : "closed", kt_strerror(s));
            return 1;
        }
        reps++;
        c1 = bench_cpu();
    } while (c1 - c0 < 0.02 && reps < 100000);
    char buf[48];
    kt_u128_to_string(&v, buf, sizeof buf);
    printf("%u %u %s %s %.3e %.3e\n", k, n, open ? "open" : "closed", buf, (c1 - c0) / reps,
           (bench_now() - w0) / reps);
    fflush(stdout);
    return 0;
}

static int luschny(void)
{
    kt_options *run = NULL;
    if (kt_options_new(&run, NULL) != KT_OK || kt_options_set_threads(run, 1) != KT_OK) return 1;
    int rc = 0;
    for (unsigned k = 3; k <= 12; k++)
        for (unsigned n = 3; n <= 12; n++) {
            if (k * n > 40) continue;
            kt_graph *g = NULL;
            if (kt_graph_new(&g, k, n) != KT_OK) return 1;
            rc |= luschny_one(g, run, k, n, true);
            rc |= luschny_one(g, run, k, n, false);
            kt_graph_free(g);
        }
    kt_options_free(run);
    return rc;
}

__extension__ typedef unsigned __int128 wide;

/* The whole table of one count per cell, for the naive column. */
static int naive_table(const kt_graph *g, const kt_options *run, const kt_u128 *t, size_t n)
{
    int rc = 0;
    for (size_t c = 0; c < n && rc == 0; c++) {
        kt_u128 v;
        if (kt_count_open_tours(g, (kt_cell)c, KT_CELL_NONE, 0, run, &v, NULL) != KT_OK ||
            v.lo != t[c].lo || v.hi != t[c].hi)
            rc = 1;
    }
    return rc;
}

static int bystart(int argc, char **argv)
{
    uint32_t w, h;
    if (argc < 3 || sscanf(argv[2], "%ux%u", &w, &h) != 2) {
        fprintf(stderr, "usage: bench_count bystart WxH [threads] [naive]\n");
        return 2;
    }
    unsigned threads = argc > 3 ? (unsigned)atoi(argv[3]) : 2;
    size_t n = (size_t)w * h;
    kt_graph *g = NULL;
    kt_options *run = NULL;
    kt_u128 *t = calloc(n, sizeof *t), all;
    if (t == NULL || kt_graph_new(&g, w, h) != KT_OK || kt_options_new(&run, NULL) != KT_OK ||
        kt_options_set_threads(run, threads) != KT_OK)
        return 1;
    double t0 = bench_now(), c0 = bench_cpu();
    kt_status s = kt_count_open_by_start(g, 0, run, t, n);
    double t1 = bench_now(), c1 = bench_cpu();
    if (s == KT_OK) s = kt_count_tours(g, KT_COUNT_OPEN | KT_COUNT_DIRECTED, run, &all, NULL);
    double t2 = bench_now(), c2 = bench_cpu();
    int rc = s != KT_OK;
    char buf[48];
    wide sum = 0;
    for (size_t c = 0; c < n && rc == 0; c++) {
        sum += (wide)t[c].hi << 64 | t[c].lo;
        kt_u128_to_string(&t[c], buf, sizeof buf);
        printf("%s%s", buf, (c + 1) % w == 0 ? "\n" : " ");
    }
    kt_u128_to_string(&all, buf, sizeof buf);
    if (rc == 0 && sum != ((wide)all.hi << 64 | all.lo)) {
        printf("the table does not sum to the directed open count\n");
        rc = 1;
    }
    if (rc == 0)
        printf("%ux%u by start: %.4f s wall, %.4f s CPU, threads %u; directed open count %s: %.4f s wall, "
               "%.4f s CPU\n", w, h, t1 - t0, c1 - c0, threads, buf, t2 - t1, c2 - c1);
    if (rc == 0 && argc > 4 && strcmp(argv[4], "naive") == 0) {
        rc = naive_table(g, run, t, n);
        printf("count per cell: %.4f s wall, %.4f s CPU, %s\n", bench_now() - t2, bench_cpu() - c2,
               rc ? "DIFFERS" : "the same table");
    }
    kt_options_free(run);
    kt_graph_free(g);
    free(t);
    if (s != KT_OK) printf("%ux%u bystart %s\n", w, h, kt_strerror(s));
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "luschny") == 0) return luschny();
    if (argc >= 2 && strcmp(argv[1], "bystart") == 0) return bystart(argc, argv);
    if (argc >= 2) {
        uint32_t w, h;
        if (sscanf(argv[1], "%ux%u", &w, &h) != 2) {
            fprintf(stderr, "usage: bench_count [WxH [kind] [threads]]\n");
            return 2;
        }
        return one(w, h, argc > 2 ? argv[2] : "closed", argc > 3 ? (unsigned)atoi(argv[3]) : 2, 1);
    }
    int rc = 0;
    rc |= one(6, 6, "closed", 1, 0);
    rc |= one(6, 6, "classes", 1, 0);
    rc |= one(5, 5, "open", 1, 0);
    rc |= one(6, 6, "open", 2, 0);
    rc |= one(3, 40, "closed", 1, 0);
    rc |= one(6, 8, "closed", 2, 0);
    rc |= one(8, 8, "symmetric", 2, 0);
    rc |= one(8, 8, "symclasses", 2, 0);
    rc |= one(7, 8, "closed", 2, 0);
    return rc;
}
