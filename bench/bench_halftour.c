/* SPDX-License-Identifier: MIT */
/*
 * bench_halftour: McKay's half-tour figures for 8x8 and the closed-tour
 * count by joining half-tour path structures.
 *
 *   bench_halftour [THREADS]                 8x8 lower half-tours, checked
 *                                            against McKay 1997's figures
 *                                            (THREADS 0 = all cores)
 *   bench_halftour join W H SPLIT [THREADS [SHARDS [FIRST LAST]]]
 *                                            closed tours of W x H by McKay's
 *                                            join (upper half SPLIT rows), run
 *                                            as SHARDS shards one after another
 *                                            (only FIRST..LAST when given)
 *   bench_halftour half W D OTHER [THREADS [BUDGET]]
 *                                            one half (W columns, D rows, the
 *                                            other half OTHER rows): its states
 *                                            after each cell and its closed-tour
 *                                            path structures; BUDGET (states
 *                                            in a layer, 0 = none) stops a half
 *                                            too large for the machine
 *   bench_halftour open W H SPLIT [THREADS [SHARDS [FIRST LAST]]]
 *                                            open tours of W x H by half-tours
 *                                            with tour ends
 *                                            (kt_halftours_count_open), shard
 *                                            by shard; each shard enumerates
 *                                            the halves again
 *
 * Prints wall and CPU seconds and the peak resident memory.
 */
#include <knight/knight.h>

#include "bench_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int check(const char *what, uint64_t got, uint64_t want)
{
    printf("  %-34s %15llu  (McKay: %llu) %s\n", what, (unsigned long long)got,
           (unsigned long long)want, got == want ? "ok" : "MISMATCH");
    return got == want ? 0 : 1;
}

static void print_u128(kt_u128 v)
{
    char buf[48];
    kt_u128_to_string(&v, buf, sizeof buf);
    printf("%s", buf);
}

/* Run settings with this many threads (0 = all cores); NULL on failure. */
static kt_options *run_with(unsigned threads)
{
    kt_options *o = NULL;
    if (kt_options_new(&o, NULL) != KT_OK) return NULL;
    if (kt_options_set_threads(o, threads) != KT_OK) {
        kt_options_free(o);
        return NULL;
    }
    return o;
}

static int bench_enum(unsigned threads)
{
    kt_options *run = run_with(threads);
    if (run == NULL) {
        fprintf(stderr, "bad thread count %u\n", threads);
        return 1;
    }
    printf("8x8 lower half-tours, %u threads\n", kt_options_thread_count(run));
    double w0 = bench_now(), c0 = bench_cpu();
    kt_halftours *h = NULL;
    kt_status st = kt_halftours_enumerate(&h, 8, 4, 4, run);
    double w1 = bench_now(), c1 = bench_cpu();
    kt_options_free(run);
    if (st != KT_OK) {
        fprintf(stderr, "enumerate: %s\n", kt_strerror(st));
        return 1;
    }
    kt_halftour_stats s;
    kt_halftours_stats(h, &s);
    int bad = 0;
    bad += check("half-tours", s.halftours, 70433448);
    bad += check("path structures", s.structures, 7934470);
    bad += check("fewest half-tours per structure", s.min_count, 1);
    bad += check("most half-tours per structure", s.max_count, 5680);
    bad += check("types", s.types, 453741);
    bad += check("values of a", s.a_values, 6357);
    bad += check("values of b", s.b_values, 1296);
    printf("  %-34s %15llu  (expected: at most 2,296)\n", "most structures per type",
           (unsigned long long)s.max_per_type);
    /* McKay's Figure I: {a4-b3, b4, c4-d3, f4, g4-f3, h4}, type
     * ((1,2,1,0,0,2,1,2),(0,1,0,1,0,1,0,0)). */
    uint8_t p[16];
    memset(p, KT_HALFTOUR_INTERIOR, sizeof p);
    p[0] = 9, p[9] = 0, p[1] = 1, p[2] = 11, p[11] = 2, p[5] = 5, p[6] = 13, p[13] = 6, p[7] = 7;
    static const uint8_t fig_type[16] = {1, 2, 1, 0, 0, 2, 1, 2, 0, 1, 0, 1, 0, 1, 0, 0};
    size_t idx = 0;
    uint64_t c = 0;
    if (kt_halftours_find(h, p, &idx, &c) == KT_OK) {
        kt_halftour_structure fs;
        kt_halftours_at(h, idx, &fs);
        int same = memcmp(fs.type, fig_type, 16) == 0;
        printf("  Figure I structure: %llu half-tours, type %s McKay's\n", (unsigned long long)c,
               same ? "equal to" : "DIFFERENT FROM");
        bad += !same;
    } else {
        printf("  Figure I structure: NOT FOUND\n");
        bad++;
    }
    printf("  time: %.2f s wall, %.2f s CPU; peak RSS %.0f MiB\n", w1 - w0, c1 - c0, bench_peak_rss_mib());
    kt_halftours_free(h);
    return bad ? 1 : 0;
}

static void trace_layer(void *user, uint64_t step, uint64_t size)
{
    const double *w0 = user;
    printf("  cell %2llu: %12llu states  %8.1f s\n", (unsigned long long)step, (unsigned long long)size,
           bench_now() - *w0);
    fflush(stdout);
}

/* One half with its layer sizes: how a deeper half grows (8x5, the lower
 * half of 8x9) before it is enumerated whole. */
static int bench_half(uint32_t w, uint32_t d, uint32_t other, unsigned threads, uint64_t budget)
{
    kt_options *run = run_with(threads);
    double w0 = bench_now(), c0 = bench_cpu();
    if (run == NULL || kt_options_set_budget(run, budget) != KT_OK ||
        kt_options_set_trace(run, trace_layer, &w0) != KT_OK) {
        fprintf(stderr, "bad thread count %u or budget\n", threads);
        kt_options_free(run);
        return 1;
    }
    printf("%ux%u half (other half %u rows), %u threads, budget %llu states\n", w, d, other,
           kt_options_thread_count(run), (unsigned long long)budget);
    kt_halftours *h = NULL;
    kt_status st = kt_halftours_enumerate(&h, w, d, other, run);
    double w1 = bench_now(), c1 = bench_cpu();
    kt_options_free(run);
    kt_halftour_stats s = {0};
    if (st == KT_OK) kt_halftours_stats(h, &s);
    printf("  %s: %llu path structures, %llu half-tours, %llu types\n", kt_strerror(st),
           (unsigned long long)s.structures, (unsigned long long)s.halftours, (unsigned long long)s.types);
    printf("  time: %.2f s wall, %.2f s CPU; peak RSS %.0f MiB\n", w1 - w0, c1 - c0, bench_peak_rss_mib());
    kt_halftours_free(h);
    return st == KT_OK ? 0 : 1;
}

static int bench_join(uint32_t w, uint32_t hgt, uint32_t split, unsigned threads,
                      uint32_t shards, uint32_t first, uint32_t last)
{
    kt_options *run = run_with(threads);
    if (run == NULL) {
        fprintf(stderr, "bad thread count %u\n", threads);
        return 1;
    }
    printf("closed tours of %ux%u by McKay's join, upper half %u rows, %u threads\n", w, hgt,
           split, kt_options_thread_count(run));
    uint32_t DU = split, DL = hgt - split;
    double w0 = bench_now(), c0 = bench_cpu();
    kt_halftours *lo_h = NULL, *up_h = NULL;
    kt_status st = kt_halftours_enumerate(&lo_h, w, DL, DU, run);
    if (st == KT_OK && DL != DU) st = kt_halftours_enumerate(&up_h, w, DU, DL, run);
    if (st != KT_OK) {
        fprintf(stderr, "enumerate: %s\n", kt_strerror(st));
        kt_halftours_free(lo_h);
        kt_options_free(run);
        return 1;
    }
    double w1 = bench_now(), c1 = bench_cpu();
    printf("  halves: %zu lower and %zu upper path structures, %.2f s wall, %.2f s CPU\n",
           kt_halftours_count(lo_h), kt_halftours_count(up_h ? up_h : lo_h), w1 - w0, c1 - c0);
    __extension__ typedef unsigned __int128 u128;
    u128 sum = 0;
    for (uint32_t i = first; i <= last && i < shards; i++) {
        kt_u128 n = {0, 0};
        double ws = bench_now(), cs = bench_cpu();
        st = kt_options_set_shard(run, i, shards);
        if (st == KT_OK) st = kt_halftours_join(lo_h, up_h ? up_h : lo_h, run, &n);
        if (st != KT_OK) {
            fprintf(stderr, "join: %s\n", kt_strerror(st));
            kt_halftours_free(lo_h);
            kt_halftours_free(up_h);
            kt_options_free(run);
            return 1;
        }
        sum += ((u128)n.hi << 64) | n.lo;
        if (shards > 1) {
            printf("  shard %u/%u: ", i, shards);
            print_u128(n);
            printf("  (%.2f s wall, %.2f s CPU, peak RSS so far %.0f MiB)\n", bench_now() - ws,
                   bench_cpu() - cs, bench_peak_rss_mib());
            fflush(stdout);
        }
    }
    double w2 = bench_now(), c2 = bench_cpu();
    kt_halftours_free(lo_h);
    kt_halftours_free(up_h);
    kt_options_free(run);
    printf("  join: %.2f s wall, %.2f s CPU; peak RSS %.0f MiB\n", w2 - w1, c2 - c1, bench_peak_rss_mib());
    printf("  closed tours%s: ", first == 0 && last + 1 >= shards ? "" : " (these shards)");
    kt_u128 total = {(uint64_t)sum, (uint64_t)(sum >> 64)};
    print_u128(total);
    printf("\n");
    return 0;
}

/* The enumerations' layers: the largest one, and when the last one ended. */
typedef struct layers {
    uint64_t peak, calls;
    double last;
} layers;

static void on_layer(void *user, uint64_t step, uint64_t states)
{
    layers *l = user;
    (void)step;
    if (states > l->peak) l->peak = states;
    l->calls++;
    l->last = bench_now();
}

static int bench_open(uint32_t w, uint32_t hgt, uint32_t split, unsigned threads,
                      uint32_t shards, uint32_t first, uint32_t last)
{
    kt_options *run = run_with(threads);
    layers ly = {0, 0, 0.0};
    if (run == NULL || kt_options_set_trace(run, on_layer, &ly) != KT_OK) {
        fprintf(stderr, "bad thread count %u\n", threads);
        kt_options_free(run);
        return 1;
    }
    printf("open tours of %ux%u by half-tours with tour ends, upper half %u rows, %u threads\n",
           w, hgt, split, kt_options_thread_count(run));
    __extension__ typedef unsigned __int128 u128;
    u128 sum = 0;
    double w0 = bench_now(), c0 = bench_cpu();
    for (uint32_t i = first; i <= last && i < shards; i++) {
        kt_u128 n = {0, 0};
        double ws = bench_now(), cs = bench_cpu();
        kt_status st = kt_options_set_shard(run, i, shards);
        if (st == KT_OK)
            st = kt_halftours_count_open(w, hgt, split, KT_CELL_NONE, KT_CELL_NONE, 0, run, &n);
        if (st != KT_OK) {
            fprintf(stderr, "count: %s\n", kt_strerror(st));
            kt_options_free(run);
            return 1;
        }
        sum += ((u128)n.hi << 64) | n.lo;
        printf("  shard %u/%u: ", i, shards);
        print_u128(n);
        printf(" undirected (%.2f s wall, %.2f s CPU, halves %.2f s wall, largest layer %llu; "
               "peak RSS so far %.0f MiB)\n",
               bench_now() - ws, bench_cpu() - cs, ly.last - ws, (unsigned long long)ly.peak,
               bench_peak_rss_mib());
        fflush(stdout);
    }
    kt_options_free(run);
    printf("  total: %.2f s wall, %.2f s CPU; peak RSS %.0f MiB\n", bench_now() - w0,
           bench_cpu() - c0, bench_peak_rss_mib());
    printf("  open tours%s, directed: ", first == 0 && last + 1 >= shards ? "" : " (these shards)");
    sum *= 2;
    kt_u128 total = {(uint64_t)sum, (uint64_t)(sum >> 64)};
    print_u128(total);
    printf("\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[1], "open") == 0) {
        unsigned threads = argc >= 6 ? (unsigned)atoi(argv[5]) : 2;
        uint32_t shards = argc >= 7 ? (uint32_t)atoi(argv[6]) : 1;
        uint32_t first = argc >= 9 ? (uint32_t)atoi(argv[7]) : 0;
        if (shards == 0) shards = 1;
        uint32_t last = argc >= 9 ? (uint32_t)atoi(argv[8]) : shards - 1;
        return bench_open((uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]),
                          (uint32_t)atoi(argv[4]), threads, shards, first, last);
    }
    if (argc >= 5 && strcmp(argv[1], "half") == 0) {
        unsigned threads = argc >= 6 ? (unsigned)atoi(argv[5]) : 2;
        uint64_t budget = argc >= 7 ? strtoull(argv[6], NULL, 10) : 0;
        return bench_half((uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]), (uint32_t)atoi(argv[4]),
                          threads, budget);
    }
    if (argc >= 5 && strcmp(argv[1], "join") == 0) {
        unsigned threads = argc >= 6 ? (unsigned)atoi(argv[5]) : 2;
        uint32_t shards = argc >= 7 ? (uint32_t)atoi(argv[6]) : 1;
        uint32_t first = argc >= 9 ? (uint32_t)atoi(argv[7]) : 0;
        uint32_t last = argc >= 9 ? (uint32_t)atoi(argv[8]) : shards - 1;
        if (shards == 0) shards = 1;
        return bench_join((uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]),
                          (uint32_t)atoi(argv[4]), threads, shards, first, last);
    }
    unsigned threads = argc >= 2 ? (unsigned)atoi(argv[1]) : 2;
    return bench_enum(threads);
}
