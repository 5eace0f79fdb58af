/* SPDX-License-Identifier: MIT */
/*
 * Benchmark of the semimagic search (issue 6).
 *
 *   bench_semimagic [rule|any|magic|complete|all] [threads]
 *   bench_semimagic estimate-rule|estimate-any [threads]
 *   bench_semimagic estimate-full [threads] [budget] [shard] [nshards]
 *   bench_semimagic puzzles [threads] [check-budget]
 *   bench_semimagic big N semimagic|magic|nested|nested-magic [threads] [budget] [seconds]
 *   bench_semimagic grid [threads] [k] [seed]
 *
 * rule:     nested semimagic 8x8 tours, 1 in the leftmost column and 64 in
 *           the rightmost (the Knight Errant puzzle); expects 8 classes.
 * any:      the same without the start/end rule; expects 8 classes.
 * magic:    nested + magic (both diagonals) under the puzzle rule: none.
 * complete: every seed solution with only 8 numbers kept, completed.
 * estimate-rule, estimate-any: the nested searches (rule, any) run to the
 *           end: the progress estimate of their size (Knuth's estimator,
 *           the total of the first progress call) against the search
 *           nodes they really spend (the trace: nodes per work unit).
 * estimate-full: every semimagic 8x8 tour (any start and end, the 2003
 *           enumeration): the estimated size of the tree, then the first
 *           `budget` nodes (default 10^9) of shard i/N (default 0/1) to
 *           measure the rate, and the time the whole would take at it.
 * puzzles:  a puzzle with a unique solution from each of the 8 seed tours
 *           (nested, puzzle rule; and rows and columns only, puzzle rule),
 *           seeds 1-3: given numbers, difficulty (nodes) and time.
 * grid:     a whole search of the general kind (rows and columns, any
 *           start and end) small enough to finish: seed tour #seed
 *           (default 1) with only 1..k and 65-k..64 kept (default k = 4),
 *           completed; its node count is exact, so it compares pruning
 *           rules (fewer nodes) and kernels (nodes per CPU second).
 * big:      boards past 8 x 8 (N = 9..16; Awani Kumar published four
 *           diagonally magic 12x12 tours in 2003): a search for every
 *           class, any start and end, bounded by `budget` nodes (default
 *           10^9) and `seconds` of wall time (default 600; the progress
 *           callback cancels): the estimated size of the tree, the
 *           classes found (the first ones printed) and the rate.
 * Prints wall and CPU time (CPU time is the fairer figure on a loaded
 * machine) and which of the seed's 8 solutions' classes were found.
 */
#include <knight/knight.h>

#include "bench_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tests/semimagic_data.h"

static void image(int t, const uint32_t *num, uint32_t *img)
{
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            int a = x, b = y;
            if (t & 4) {
                int s = a;
                a = b;
                b = s;
            }
            if (t & 1) a = 7 - a;
            if (t & 2) b = 7 - b;
            img[b * 8 + a] = num[y * 8 + x];
        }
}

static int seed_class(const uint32_t *num)
{
    uint32_t s[64], img[64];
    for (int i = 0; i < 8; i++) {
        for (int p = 0; p < 64; p++) s[p] = kt_test_nested8[i][p];
        for (int t = 0; t < 8; t++) {
            image(t, s, img);
            if (memcmp(img, num, sizeof img) == 0) return i;
        }
    }
    return -1;
}

typedef struct found {
    int seed_hit[8];
    int verbose;
    double t0;
} found;

static int on_solution(void *user, const kt_semimagic_solution *s)
{
    found *f = user;
    const uint32_t *num = kt_semimagic_solution_numbers(s);
    int which = seed_class(num);
    if (which >= 0) f->seed_hit[which] = 1;
    uint64_t rev = kt_semimagic_solution_reverse_class(s);
    printf("  %6.1f s  class %llu: %u images, %u satisfy the rule, reversal class %lld, seed #%d\n",
           bench_now() - f->t0, (unsigned long long)kt_semimagic_solution_class(s),
           kt_semimagic_solution_class_size(s), kt_semimagic_solution_class_satisfying(s),
           rev == KT_SEMIMAGIC_NO_CLASS ? -1LL : (long long)rev, which + 1);
    if (f->verbose)
        for (int y = 0; y < 8; y++) {
            printf("   ");
            for (int x = 0; x < 8; x++) printf(" %2u", num[y * 8 + x]);
            printf("\n");
        }
    fflush(stdout);
    return 0;
}

static double last_report, bench_t0;

/* The first progress call's non-zero total (the estimated nodes of the
 * search) and when it came (after the plan and the estimate). */
static uint64_t est_total;
static double est_time, est_cpu;

/* Progress on stderr every 30 s (estimated search nodes done of total). */
static int bench_progress(void *user, uint64_t done, uint64_t total)
{
    (void)user;
    double t = bench_now();
    if (total == 0) return 0; /* the estimate is being made */
    if (est_time == 0) {
        est_total = total;
        est_time = t - bench_t0;
        est_cpu = bench_cpu();
    }
    if (t - last_report >= 30.0 || done == total) {
        fprintf(stderr, "  progress %.1f%% of %.3g estimated nodes, %.0f s, cpu %.0f s\n",
                total ? 100.0 * (double)done / (double)total : 0.0, (double)total, t - bench_t0,
                bench_cpu());
        last_report = t;
    }
    return 0;
}

/* The trace of a semimagic search: the nodes of each work unit. */
static void sum_nodes(void *user, uint64_t step, uint64_t size)
{
    (void)step;
    *(uint64_t *)user += size;
}

static kt_semimagic_opts *opts(unsigned flags, int rule)
{
    kt_semimagic_opts *o = NULL;
    if (kt_semimagic_opts_new(&o, 8, NULL) != KT_OK) exit(1);
    kt_semimagic_opts_set_flags(o, flags);
    if (rule) kt_semimagic_opts_set_puzzle_rule(o);
    bench_t0 = last_report = bench_now();
    return o;
}

/* Run settings: the thread count and the progress report on stderr. */
static kt_options *run_opts(unsigned threads)
{
    kt_options *r = NULL;
    if (kt_options_new(&r, NULL) != KT_OK || kt_options_set_threads(r, threads) != KT_OK ||
        kt_options_set_progress(r, bench_progress, NULL) != KT_OK)
        exit(1);
    return r;
}

static int run_nested(int rule, unsigned threads)
{
    kt_semimagic_opts *o = opts(KT_SEMIMAGIC_NESTED, rule);
    kt_options *r = run_opts(threads);
    found f;
    memset(&f, 0, sizeof f);
    f.verbose = getenv("BENCH_VERBOSE") != NULL;
    uint64_t classes = 0, sols = 0;
    printf("nested 8x8, %s, %u thread(s):\n", rule ? "puzzle rule" : "any start and end", threads);
    fflush(stdout);
    double c0 = bench_cpu();
    f.t0 = bench_now();
    kt_status st = kt_semimagic_search(o, r, on_solution, &f, &classes, &sols);
    double wall = bench_now() - f.t0, c = bench_cpu() - c0;
    int hits = 0;
    for (int i = 0; i < 8; i++) hits += f.seed_hit[i];
    printf("  status %s: %llu classes, %llu numberings satisfying the constraints, "
           "classes of %d of the seed's 8 solutions; wall %.1f s, cpu %.1f s\n",
           kt_status_name(st), (unsigned long long)classes, (unsigned long long)sols, hits, wall, c);
    kt_options_free(r);
    kt_semimagic_opts_free(o);
    return st != KT_OK || classes != 8 || hits != 8;
}

static int run_magic(unsigned threads)
{
    kt_semimagic_opts *o = opts(KT_SEMIMAGIC_NESTED | KT_SEMIMAGIC_MAGIC, 1);
    kt_options *r = run_opts(threads);
    int exists = -1;
    double c0 = bench_cpu(), t0 = bench_now();
    kt_status st = kt_semimagic_exists(o, r, &exists, NULL);
    printf("magic nested 8x8, puzzle rule, %u thread(s): status %s, %s; wall %.1f s, cpu %.1f s\n",
           threads, kt_status_name(st), exists ? "one exists" : "none exists", bench_now() - t0, bench_cpu() - c0);
    kt_options_free(r);
    kt_semimagic_opts_free(o);
    return st != KT_OK || exists != 0;
}

static int run_complete(void)
{
    int bad = 0;
    double worst = 0;
    for (int i = 0; i < 8; i++) {
        uint32_t grid[64];
        for (int p = 0; p < 64; p++)
            grid[p] = kt_test_nested8[i][p] % 8 == 1 ? kt_test_nested8[i][p] : 0;
        kt_semimagic_opts *o = opts(KT_SEMIMAGIC_NESTED, 1);
        kt_options *r = run_opts(1);
        kt_semimagic_opts_set_grid(o, grid, 64);
        uint64_t classes = 0, sols = 0;
        double t0 = bench_now();
        kt_status st = kt_semimagic_search(o, r, NULL, NULL, &classes, &sols);
        double t = bench_now() - t0;
        if (t > worst) worst = t;
        printf("complete seed #%d from 8 numbers: %s, %llu completion(s), %.3f s\n", i + 1,
               kt_status_name(st), (unsigned long long)sols, t);
        bad |= st != KT_OK || sols < 1;
        kt_options_free(r);
        kt_semimagic_opts_free(o);
    }
    printf("slowest completion %.3f s\n", worst);
    return bad;
}

/* The estimate of a nested search against the nodes it really spends. */
static int run_estimate_nested(int rule, unsigned threads)
{
    kt_semimagic_opts *o = opts(KT_SEMIMAGIC_NESTED, rule);
    kt_options *r = run_opts(threads);
    uint64_t nodes = 0, classes = 0;
    kt_options_set_trace(r, sum_nodes, &nodes);
    est_time = 0;
    double c0 = bench_cpu(), t0 = bench_now();
    kt_status st = kt_semimagic_search(o, r, NULL, NULL, &classes, NULL);
    double wall = bench_now() - t0, c = bench_cpu() - c0;
    printf("nested 8x8, %s, %u thread(s): %s, %llu classes; estimated %.4g nodes (in %.2f s), "
           "searched %.4g nodes: estimate/actual %.2f; wall %.1f s, cpu %.1f s, %.3g nodes/cpu s\n",
           rule ? "puzzle rule" : "any start and end", threads, kt_status_name(st),
           (unsigned long long)classes, (double)est_total, est_time, (double)nodes,
           (double)est_total / (double)nodes, wall, c, (double)nodes / c);
    kt_options_free(r);
    kt_semimagic_opts_free(o);
    return st != KT_OK || classes != 8;
}

/* The whole 8x8 enumeration: its estimated size and the rate on a part. */
static int run_estimate_full(int argc, char **argv, unsigned threads)
{
    uint64_t budget = argc > 3 ? strtoull(argv[3], NULL, 10) : 1000000000u;
    uint32_t shard = argc > 4 ? (uint32_t)atoi(argv[4]) : 0, nshards = argc > 5 ? (uint32_t)atoi(argv[5]) : 1;
    kt_semimagic_opts *o = opts(KT_SEMIMAGIC_LINES, 0);
    kt_options *r = run_opts(threads);
    uint64_t nodes = 0, classes = 0, sols = 0;
    kt_options_set_trace(r, sum_nodes, &nodes);
    kt_options_set_budget(r, budget);
    kt_options_set_shard(r, shard, nshards);
    est_time = 0;
    double c0 = bench_cpu(), t0 = bench_now();
    kt_status st = kt_semimagic_search(o, r, NULL, NULL, &classes, &sols);
    double wall = bench_now() - t0, c = bench_cpu() - c0;
    /* the budget's nodes were spent after the estimate, at the search's rate */
    double cs = c - (est_cpu - c0), rate = (double)budget / cs;
    printf("semimagic 8x8, any start and end, shard %u/%u, %u thread(s): estimated %.4g nodes "
           "(plan and estimate %.1f s wall)\n", shard, nshards, threads, (double)est_total, est_time);
    printf("  first %.3g nodes: %s, %llu classes (%llu numberings) in finished units, %.4g nodes "
           "in finished units; wall %.1f s, cpu %.1f s, %.3g nodes/cpu s\n", (double)budget,
           kt_status_name(st), (unsigned long long)classes, (unsigned long long)sols, (double)nodes,
           wall, c, rate);
    printf("  estimated whole shard: %.3g cpu hours (%.3g h wall on %u cores)\n",
           (double)est_total / rate / 3600, (double)est_total / rate / 3600 / threads, threads);
    kt_options_free(r);
    kt_semimagic_opts_free(o);
    return st != KT_OK && st != KT_ELIMIT;
}

/* A complete general search: a seed tour's first and last k numbers kept. */
static int run_grid(int argc, char **argv, unsigned threads)
{
    int k = argc > 3 ? atoi(argv[3]) : 4, seed = argc > 4 ? atoi(argv[4]) : 1;
    if (k < 1 || k > 32 || seed < 1 || seed > 8) return 2;
    uint32_t grid[64];
    for (int p = 0; p < 64; p++) {
        int v = kt_test_nested8[seed - 1][p];
        grid[p] = v <= k || v > 64 - k ? (uint32_t)v : 0;
    }
    kt_semimagic_opts *o = opts(KT_SEMIMAGIC_LINES, 0);
    kt_options *r = run_opts(threads);
    kt_semimagic_opts_set_grid(o, grid, 64);
    uint64_t nodes = 0, classes = 0, sols = 0;
    kt_options_set_trace(r, sum_nodes, &nodes);
    double c0 = bench_cpu(), t0 = bench_now();
    kt_status st = kt_semimagic_search(o, r, NULL, NULL, &classes, &sols);
    double wall = bench_now() - t0, c = bench_cpu() - c0;
    printf("semimagic 8x8 from seed #%d's 1..%d and %d..64, %u thread(s): %s, %llu numberings; "
           "%llu nodes, wall %.2f s, cpu %.2f s, %.3g nodes/cpu s\n", seed, k, 65 - k, threads,
           kt_status_name(st), (unsigned long long)sols, (unsigned long long)nodes, wall, c,
           (double)nodes / c);
    kt_options_free(r);
    kt_semimagic_opts_free(o);
    return st != KT_OK || sols < 1;
}

/* kt_semimagic_make_puzzle on every seed tour: sizes, difficulty, time. */
static int run_puzzles(int argc, char **argv, unsigned threads)
{
    uint64_t check = argc > 3 ? strtoull(argv[3], NULL, 10) : 1000000u;
    static const unsigned flags[2] = {KT_SEMIMAGIC_NESTED, KT_SEMIMAGIC_LINES};
    int bad = 0;
    for (int f = 0; f < 2; f++) {
        kt_semimagic_opts *o = opts(flags[f], 1);
        kt_options *r = NULL;
        if (kt_options_new(&r, NULL) != KT_OK || kt_options_set_threads(r, threads) != KT_OK) exit(1);
        uint32_t gmin = 64, gmax = 0;
        uint64_t dmax = 0;
        double worst = 0, c0 = bench_cpu(), t0 = bench_now();
        for (int i = 0; i < 8; i++)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                uint32_t sol[64], puz[64], g = 0;
                uint64_t d = 0;
                for (int p = 0; p < 64; p++) sol[p] = kt_test_nested8[i][p];
                double t = bench_now();
                kt_status st = kt_semimagic_make_puzzle(puz, o, sol, 64, seed, check, r, &g, &d);
                t = bench_now() - t;
                bad |= st != KT_OK;
                if (t > worst) worst = t;
                if (g < gmin) gmin = g;
                if (g > gmax) gmax = g;
                if (d > dmax) dmax = d;
                printf("  %s tour #%d seed %llu: %s, %u givens, difficulty %llu nodes, %.2f s\n",
                       f ? "semimagic" : "nested", i + 1, (unsigned long long)seed, kt_status_name(st), g,
                       (unsigned long long)d, t);
            }
        printf("%s, puzzle rule, check budget %llu, %u thread(s): 24 puzzles with %u to %u givens, "
               "difficulty up to %llu nodes; slowest %.2f s; total wall %.1f s, cpu %.1f s\n",
               f ? "rows and columns" : "nested", (unsigned long long)check, threads, gmin, gmax,
               (unsigned long long)dmax, worst, bench_now() - t0, bench_cpu() - c0);
        kt_options_free(r);
        kt_semimagic_opts_free(o);
    }
    return bad;
}

/* ---- boards past 8 x 8 ---- */

typedef struct big_run {
    double t0, seconds;
    uint64_t found;
} big_run;

static int big_progress(void *user, uint64_t done, uint64_t total)
{
    big_run *b = user;
    bench_progress(NULL, done, total);
    return bench_now() - b->t0 > b->seconds;
}

static int big_solution(void *user, const kt_semimagic_solution *s)
{
    big_run *b = user;
    uint32_t w = kt_semimagic_solution_width(s), h = kt_semimagic_solution_height(s);
    const uint32_t *num = kt_semimagic_solution_numbers(s);
    if (b->found++ < 4) {
        printf("  %.1f s: class %llu\n", bench_now() - b->t0, (unsigned long long)kt_semimagic_solution_class(s));
        for (uint32_t y = 0; y < h; y++) {
            printf("   ");
            for (uint32_t x = 0; x < w; x++) printf(" %3u", num[y * w + x]);
            printf("\n");
        }
        fflush(stdout);
    }
    return 0;
}

static int run_big(int argc, char **argv)
{
    uint32_t n = argc > 2 ? (uint32_t)atoi(argv[2]) : 12;
    const char *what = argc > 3 ? argv[3] : "magic";
    unsigned threads = argc > 4 ? (unsigned)atoi(argv[4]) : 2;
    uint64_t budget = argc > 5 ? strtoull(argv[5], NULL, 10) : 1000000000u;
    double seconds = argc > 6 ? atof(argv[6]) : 600;
    /* "magic", "nested", "nested-magic" or "semimagic", each optionally
     * with "-halfturn" (numberings symmetric under the half-turn). */
    unsigned flags = KT_SEMIMAGIC_LINES;
    if (strstr(what, "magic") && strncmp(what, "semimagic", 9)) flags |= KT_SEMIMAGIC_MAGIC;
    if (strstr(what, "nested")) flags |= KT_SEMIMAGIC_NESTED;
    if (strstr(what, "halfturn")) flags |= KT_SEMIMAGIC_HALFTURN;
    kt_semimagic_opts *o = NULL;
    if (kt_semimagic_opts_new(&o, n, NULL) != KT_OK || kt_semimagic_opts_set_flags(o, flags) != KT_OK) {
        fprintf(stderr, "%ux%u %s: not supported\n", n, n, what);
        return 1;
    }
    big_run b = {bench_now(), seconds, 0};
    bench_t0 = last_report = b.t0;
    est_time = 0;
    kt_options *r = NULL;
    if (kt_options_new(&r, NULL) != KT_OK || kt_options_set_threads(r, threads) != KT_OK ||
        kt_options_set_progress(r, big_progress, &b) != KT_OK || kt_options_set_budget(r, budget) != KT_OK)
        exit(1);
    printf("%ux%u %s, any start and end, %u thread(s), budget %.3g nodes, %.0f s:\n", n, n, what, threads,
           (double)budget, seconds);
    fflush(stdout);
    uint64_t classes = 0, sols = 0;
    double c0 = bench_cpu();
    kt_status st = kt_semimagic_search(o, r, big_solution, &b, &classes, &sols);
    double wall = bench_now() - b.t0, c = bench_cpu() - c0, cs = c - (est_cpu - c0);
    printf("  %s: %llu classes (%llu numberings); estimated tree %.3g nodes (estimate %.1f s wall); "
           "wall %.1f s, cpu %.1f s",
           kt_status_name(st), (unsigned long long)classes, (unsigned long long)sols, (double)est_total,
           est_time, wall, c);
    /* the rate is known when the node budget stopped the search */
    if (st == KT_ELIMIT && cs > 0) printf(", %.3g nodes/cpu s after the estimate", (double)budget / cs);
    printf("\n");
    kt_options_free(r);
    kt_semimagic_opts_free(o);
    return st != KT_OK && st != KT_ELIMIT && st != KT_ECANCELED;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "rule";
    unsigned threads = argc > 2 ? (unsigned)atoi(argv[2]) : 2;
    int all = !strcmp(what, "all"), rc = 0;
    if (all || !strcmp(what, "complete")) rc |= run_complete();
    if (all || !strcmp(what, "rule")) rc |= run_nested(1, threads);
    if (all || !strcmp(what, "magic")) rc |= run_magic(threads);
    if (all || !strcmp(what, "any")) rc |= run_nested(0, threads);
    if (!strcmp(what, "estimate-rule")) rc |= run_estimate_nested(1, threads);
    if (!strcmp(what, "estimate-any")) rc |= run_estimate_nested(0, threads);
    if (!strcmp(what, "estimate-full")) rc |= run_estimate_full(argc, argv, threads);
    if (!strcmp(what, "puzzles")) rc |= run_puzzles(argc, argv, threads);
    if (!strcmp(what, "big")) rc |= run_big(argc, argv);
    if (!strcmp(what, "grid")) rc |= run_grid(argc, argv, threads);
    return rc;
}
