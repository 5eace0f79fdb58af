/* SPDX-License-Identifier: MIT */
/*
 * Rails benchmarks (issue 4).  Usage:
 *   bench_rails speed [MAXSIDE]      tourney + join and obfuscate, 64^2 .. MAXSIDE^2 (default 4096)
 *   bench_rails tables [TOURS [SIDE [paper]]] the paper's Tables 1 and 2 on SIDE x SIDE (default
 *                                    1000 tours per generator, 8x8); "paper": obfuscate with
 *                                    kt_rails_shatter_sequential (the paper's code) instead of kt_rails_shatter
 *   bench_rails sizes [TOURS]        Warnsdorff's relative moves, generated and obfuscated, by board
 *                                    side 8..64, against the paper's Figure 4 and Table 2 (default 200)
 *   bench_rails conjecture [MAXSIDE] rails per cell, tours and obfuscated tours, n = 8 .. MAXSIDE (default 512)
 *   bench_rails stress [RUNS]        join/obfuscate runs over every even n 6..32 and rectangles (default 100000)
 *   bench_rails uniform6 [CHAIN]     all 6x6 closed tours vs CHAIN successive obfuscations (minutes)
 *   bench_rails handle [SIDE]        kt_rails_new and kt_rails_switch costs on a shattered tour (default 256)
 *   bench_rails all                  everything with the defaults but uniform6
 * Figures and the commands used are in BENCHMARKS.md, section "Rails (issue 4)".
 */
#include <knight/knight.h>

#include "bench_clock.h"

#include "../tests/rails_boards.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- generators ---------------------------------------------------------
 * A generator makes a closed tour of the board from a seed (or returns an
 * error when it cannot, e.g. ::KT_EUNSUPPORTED for that size).  The paper's
 * five come from knight/generate.h (issue 3): random Warnsdorff closed
 * tours, and the Takefuji-Lee, divide-and-conquer, braid and four-cover
 * tourneys joined by kt_rails_join().  Add more rows to `generators[]`.
 */
typedef kt_status (*gen_fn)(kt_tourney **out, const kt_graph *g, uint64_t seed);

typedef struct generator {
    const char *name;
    gen_fn make;
    bool deterministic; /* the same tour for every seed: made once, then copied */
} generator;

static kt_status join_or_free(kt_tourney **out, kt_status st, uint64_t seed)
{
    if (st == KT_OK) st = kt_rails_join(*out, seed, NULL);
    if (st != KT_OK) {
        kt_tourney_free(*out);
        *out = NULL;
    }
    return st;
}

static kt_status gen_warnsdorff(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    return kt_generate_warnsdorff_tour(out, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_GENERATE_TIE_RANDOM, seed, NULL);
}

static kt_status gen_method(kt_tourney **out, const kt_graph *g, kt_generate_method m, uint64_t seed)
{
    return join_or_free(out, kt_generate_tourney(out, g, m, seed, NULL), seed);
}

static kt_status gen_neural(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    return gen_method(out, g, KT_GENERATE_NEURAL, seed);
}

/* The paper's divide-and-conquer is deterministic: seed 0 (canonical blocks). */
static kt_status gen_divide(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    (void)seed;
    return gen_method(out, g, KT_GENERATE_DIVIDE, 0);
}

static kt_status gen_braid(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    return gen_method(out, g, KT_GENERATE_BRAID, seed);
}

static kt_status gen_four_cover(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    return gen_method(out, g, KT_GENERATE_FOUR_COVER, seed);
}

/* Fixed 4x4/4x6/6x6 block cycle covers joined by kt_rails_join(). */
static kt_status gen_block_join(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    kt_status st = kt_block_tourney(out, g);
    if (st != KT_OK) return st;
    st = kt_rails_join(*out, seed, NULL);
    if (st != KT_OK) {
        kt_tourney_free(*out);
        *out = NULL;
    }
    return st;
}

/* The foundation's exact search (deterministic; small boards only). */
static kt_status gen_exhaustive(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    (void)seed;
    if (kt_graph_vertex_count(g) > 144) return KT_EUNSUPPORTED;
    kt_options *run = NULL;
    kt_status st = kt_options_new(&run, NULL);
    if (st == KT_OK) st = kt_options_set_budget(run, 50000000u); /* search nodes */
    if (st == KT_OK) st = kt_exhaustive_tour(out, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, run);
    kt_options_free(run);
    return st;
}

static const generator generators[] = {
    {"Warnsdorff", gen_warnsdorff, false},
    {"Takefuji-Lee", gen_neural, false},
    {"Div-and-Conq", gen_divide, true},
    {"Braid", gen_braid, false},
    {"Four-Cover", gen_four_cover, false},
    {"Block-Join", gen_block_join, true},
    {"Exhaustive", gen_exhaustive, true},
};
#define NGEN (sizeof generators / sizeof generators[0])

/* ---- speed ------------------------------------------------------------- */

/* The join on narrow boards (issue 14): Warnsdorff tourneys on every 3 x n
 * (n = 10..200) and 5 x n (n = 6..100) board, even n, three seeds each;
 * how many joins end in a closed tour and how much of the tourney each
 * tour keeps (shared moves / cells). */
static void bench_narrow(void)
{
    printf("join of Warnsdorff tourneys on narrow boards (seeds 1-3)\n");
    printf("%-6s %6s %8s %10s %10s %8s\n", "rows", "joins", "closed", "mean kept", "worst kept", "s");
    for (uint32_t rows = 3; rows <= 5; rows += 2) {
        unsigned joins = 0, closed = 0;
        double kept = 0, worst = 1, t0 = bench_now();
        for (uint32_t n = rows == 3 ? 10 : 6; n <= (rows == 3 ? 200u : 100u); n += 2)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                kt_graph *g = NULL;
                kt_tourney *t = NULL, *c = NULL;
                if (kt_graph_new(&g, n, rows) != KT_OK) continue;
                if (kt_generate_tourney(&t, g, KT_GENERATE_WARNSDORFF, seed, NULL) == KT_OK &&
                    kt_tourney_copy(&c, t) == KT_OK) {
                    joins++;
                    if (kt_rails_join(c, seed, NULL) == KT_OK && kt_tourney_is_closed_tour(c)) {
                        size_t shared = 0, cells = (size_t)n * rows;
                        for (kt_cell u = 0; u < cells; u++) {
                            kt_cell a, b;
                            kt_tourney_neighbors(c, u, &a, &b);
                            shared += (size_t)(kt_tourney_has_edge(t, u, a) + kt_tourney_has_edge(t, u, b));
                        }
                        double f = (double)shared / 2.0 / (double)cells;
                        closed++;
                        kept += f;
                        if (f < worst) worst = f;
                    }
                }
                kt_tourney_free(c);
                kt_tourney_free(t);
                kt_graph_free(g);
            }
        printf("%-6u %6u %8u %10.3f %10.3f %8.2f\n", rows, joins, closed, closed ? kept / closed : 0.0,
               worst, bench_now() - t0);
    }
}

static void bench_speed(uint32_t maxside)
{
    printf("== speed: tourney + join, and obfuscate (16 shatters + join) ==\n");
    printf("%6s %10s %12s %12s %12s %12s %12s\n", "side", "cells", "tourney us/c", "join us/c",
           "tny+join", "obf s", "obf us/c");
    for (uint32_t n = 64; n <= maxside; n *= 2) {
        kt_graph *g = NULL;
        if (kt_graph_new(&g, n, n) != KT_OK) break;
        double cells = (double)n * n;
        unsigned reps = n <= 256 ? 8 : n <= 1024 ? 2 : 1;
        double best_t = 1e30, best_j = 1e30, best_o = 1e30;
        kt_tourney *tour = NULL;
        for (unsigned r = 0; r < reps; r++) {
            kt_tourney *t = NULL;
            double c0 = bench_cpu();
            kt_status st = kt_block_tourney(&t, g);
            double c1 = bench_cpu();
            if (st == KT_OK) st = kt_rails_join(t, r, NULL);
            double c2 = bench_cpu();
            if (st != KT_OK || kt_tourney_size(t) != 1) {
                printf("join failed at %u: %s\n", n, kt_status_name(st));
                kt_tourney_free(t);
                break;
            }
            if (c1 - c0 < best_t) best_t = c1 - c0;
            if (c2 - c1 < best_j) best_j = c2 - c1;
            kt_tourney_free(tour);
            tour = t;
        }
        for (unsigned r = 0; r < reps && tour != NULL; r++) {
            kt_tourney *t = NULL;
            if (kt_tourney_copy(&t, tour) != KT_OK) break;
            double c0 = bench_cpu();
            kt_status st = kt_rails_obfuscate(t, 0, 1000 + r, NULL);
            double c1 = bench_cpu();
            if (st != KT_OK || kt_tourney_size(t) != 1) printf("obfuscate failed at %u: %s\n", n, kt_status_name(st));
            if (c1 - c0 < best_o) best_o = c1 - c0;
            kt_tourney_free(t);
        }
        printf("%6u %10.0f %12.4f %12.4f %12.4f %12.3f %12.4f\n", n, cells, best_t * 1e6 / cells,
               best_j * 1e6 / cells, (best_t + best_j) * 1e6 / cells, best_o, best_o * 1e6 / cells);
        fflush(stdout);
        kt_tourney_free(tour);
        kt_graph_free(g);
    }
    printf("(CPU seconds of one thread, best of 8/2/1 repetitions by size)\n\n");
}

/* ---- tables ------------------------------------------------------------ */

/* The paper's Table 2 (relative moves 0-3, 5-7 of obfuscated tours) and its
 * Figure 4 (relative moves of random Warnsdorff tours, as quoted in its text). */
static const double paper_table2[5][7] = {
    {0.1444, 0.1591, 0.1345, 0.1334, 0.1339, 0.1361, 0.1587},
    {0.1514, 0.1488, 0.1359, 0.1406, 0.1390, 0.1353, 0.1490},
    {0.1494, 0.1527, 0.1379, 0.1356, 0.1350, 0.1368, 0.1527},
    {0.1570, 0.1485, 0.1355, 0.1374, 0.1387, 0.1352, 0.1477},
    {0.1444, 0.1591, 0.1345, 0.1334, 0.1339, 0.1361, 0.1587},
};
static const double paper_figure4[7] = {0.272, 0.145, 0.09, 0.129, 0.129, 0.09, 0.145};

static void print_row(const char *name, const double *v, bool rel)
{
    printf("%-14s", name);
    for (int i = 0; i < 8; i++)
        if (!(rel && i == 4)) printf(" %.4f", v[i]);
    putchar('\n');
}

/* Obfuscate: ours (kt_rails_obfuscate), or 16 of the paper's shatters
 * (kt_rails_shatter_sequential) then kt_rails_join. */
static kt_status obfuscate_as(kt_tourney *t, uint64_t seed, bool paper)
{
    if (!paper) return kt_rails_obfuscate(t, 0, seed, NULL);
    for (unsigned r = 0; r < 16; r++) {
        kt_status st = kt_rails_shatter_sequential(t, seed * 16 + r);
        if (st != KT_OK) return st;
    }
    return kt_rails_join(t, seed, NULL);
}

static void bench_tables(unsigned tours, uint32_t side, bool paper)
{
    printf("== Tables 1 and 2: %u tours per generator on %ux%u%s ==\n", tours, side, side,
           paper ? ", the paper's shatter" : "");
    kt_graph *g = NULL;
    if (kt_graph_new(&g, side, side) != KT_OK) return;
    for (int obf = 1; obf >= 0; obf--) {
        kt_stats *st[NGEN] = {0};
        for (size_t k = 0; k < NGEN; k++) {
            if (kt_stats_new(&st[k], NULL) != KT_OK) return;
            kt_tourney *base = NULL;
            if (generators[k].deterministic && generators[k].make(&base, g, 0) != KT_OK) continue;
            /* a generator that gives up on a seed (the network may not
             * converge) is asked again with the next one, 3 x tours at most */
            for (unsigned i = 0, made = 0; made < tours && i < 3 * tours; i++) {
                kt_tourney *t = NULL;
                if (base != NULL) {
                    if (kt_tourney_copy(&t, base) != KT_OK) break;
                } else if (generators[k].make(&t, g, i) != KT_OK) {
                    continue;
                }
                made++;
                if (obf && obfuscate_as(t, 0x5EED0000u + i, paper) != KT_OK)
                    printf("obfuscate failed (%s, %u)\n", generators[k].name, i);
                kt_stats_add(st[k], t);
                kt_tourney_free(t);
            }
            kt_tourney_free(base);
        }
        double mean[8], sd[8], maxsd;
        printf("\nTable 1%s: move distribution (%s tours)\n", obf ? "" : " (un-obfuscated)",
               obf ? "obfuscated" : "generated");
        printf("%-14s      0      1      2      3      4      5      6      7   max sd   max se  tours\n", "Algorithm");
        for (size_t k = 0; k < NGEN; k++) {
            if (kt_stats_count(st[k]) == 0) continue;
            kt_stats_moves(st[k], mean, sd);
            maxsd = 0;
            for (int i = 0; i < 8; i++) maxsd = sd[i] > maxsd ? sd[i] : maxsd;
            printf("%-14s", generators[k].name);
            for (int i = 0; i < 8; i++) printf(" %.4f", mean[i]);
            printf("   %.4f   %.4f %6zu\n", maxsd, maxsd / sqrt((double)kt_stats_count(st[k])),
                   (size_t)kt_stats_count(st[k]));
        }
        printf("\nTable 2%s: relative move distribution\n", obf ? "" : " (un-obfuscated)");
        printf("%-14s      0      1      2      3      5      6      7   max sd   max se  tours\n", "Algorithm");
        for (size_t k = 0; k < NGEN; k++) {
            if (kt_stats_count(st[k]) == 0) continue;
            kt_stats_relative(st[k], mean, sd);
            maxsd = 0;
            for (int i = 0; i < 8; i++) maxsd = sd[i] > maxsd ? sd[i] : maxsd;
            printf("%-14s", generators[k].name);
            for (int i = 0; i < 8; i++)
                if (i != 4) printf(" %.4f", mean[i]);
            printf("   %.4f   %.4f %6zu\n", maxsd, maxsd / sqrt((double)kt_stats_count(st[k])),
                   (size_t)kt_stats_count(st[k]));
        }
        for (size_t k = 0; k < NGEN; k++) kt_stats_free(st[k]);
    }
    printf("\nPaper, Table 2, obfuscated (for comparison):\n");
    static const char *pn[5] = {"Warnsdorff", "Takefuji-Lee", "Div-and-Conq", "Braid", "Four-Cover"};
    for (int k = 0; k < 5; k++) {
        double v[8];
        for (int i = 0, j = 0; i < 8; i++) v[i] = i == 4 ? 0 : paper_table2[k][j++];
        print_row(pn[k], v, true);
    }
    putchar('\n');
    kt_graph_free(g);
}

/* ---- relative moves by board size ------------------------------------------
 * The paper does not say on which board its statistics were taken.  Random
 * Warnsdorff tours repeat moves more often the larger the board (they run in
 * parallel lines away from the edges), so the side at which our figures meet
 * the paper's Figure 4 tells its board; the obfuscated tours are then compared
 * with its Table 2 at that side.  dist = largest absolute difference. */

static double max_diff(const double *rel8, const double *paper7)
{
    double d = 0;
    for (int i = 0, j = 0; i < 8; i++) {
        if (i == 4) continue;
        double e = fabs(rel8[i] - paper7[j++]);
        if (e > d) d = e;
    }
    return d;
}

static void bench_sizes(unsigned tours)
{
    printf("== Random Warnsdorff tours by board side: relative moves (%u tours each) ==\n", tours);
    printf("%5s %-10s      0      1      2      3      5      6      7   dist  (vs)\n", "side",
           "tours");
    for (uint32_t n = 8; n <= 64; n += n < 32 ? 4 : 8) {
        kt_graph *g = NULL;
        if (kt_graph_new(&g, n, n) != KT_OK) break;
        kt_stats *st[2] = {NULL, NULL};
        if (kt_stats_new(&st[0], NULL) != KT_OK || kt_stats_new(&st[1], NULL) != KT_OK) break;
        unsigned failed = 0;
        for (unsigned i = 0; i < tours; i++) {
            kt_tourney *t = NULL;
            if (gen_warnsdorff(&t, g, i) != KT_OK) {
                failed++;
                continue;
            }
            kt_stats_add(st[0], t);
            if (kt_rails_obfuscate(t, 0, 0x5EED0000u + i, NULL) == KT_OK) kt_stats_add(st[1], t);
            kt_tourney_free(t);
        }
        for (int o = 0; o < 2; o++) {
            double mean[8], sd[8];
            kt_stats_relative(st[o], mean, sd);
            printf("%5u %-10s", n, o ? "obfuscated" : "generated");
            for (int i = 0; i < 8; i++)
                if (i != 4) printf(" %.4f", mean[i]);
            printf(" %.4f  (%s)", max_diff(mean, o ? paper_table2[0] : paper_figure4),
                   o ? "Table 2" : "Figure 4");
            if (!o && failed) printf("  %u failed", failed);
            putchar('\n');
            kt_stats_free(st[o]);
        }
        fflush(stdout);
        kt_graph_free(g);
    }
    printf("paper %-10s", "Figure 4");
    for (int i = 0; i < 7; i++) printf(" %.4f", paper_figure4[i]);
    printf("\npaper %-10s", "Table 2");
    for (int i = 0; i < 7; i++) printf(" %.4f", paper_table2[0][i]);
    printf("\n\n");
}

/* ---- rail conjecture ------------------------------------------------------ */

static void bench_conjecture(uint32_t maxside)
{
    printf("== Rail conjecture: rails per cell ==\n");
    printf("%6s %-15s %10s %12s %12s\n", "n", "generator", "tour", "obfuscated", "obf (min)");
    for (uint32_t n = 8; n <= maxside; n *= 2) {
        kt_graph *g = NULL;
        if (kt_graph_new(&g, n, n) != KT_OK) break;
        double cells = (double)n * n;
        for (size_t k = 0; k < NGEN; k++) {
            kt_tourney *t = NULL;
            /* the network exhausts its budget from 64 (41 s to give up at 128): skip it */
            if (generators[k].make == gen_neural && n > 64) continue;
            /* random ties close Warnsdorff's walks ever more slowly beyond 128 (minutes at 256, not
             * at all at 512 in 10 minutes): Roth's rule there */
            bool roth = generators[k].make == gen_warnsdorff && n > 128;
            kt_status made = roth ? kt_generate_warnsdorff_tour(&t, g, KT_SHAPE_CYCLES, KT_CELL_NONE,
                                                       KT_GENERATE_TIE_ROTH, 1, NULL)
                                  : generators[k].make(&t, g, 1);
            if (made != KT_OK) continue;
            uint64_t r0 = 0;
            kt_rails_count_tourney(t, &r0);
            unsigned reps = n <= 64 ? 20 : 3;
            double sum = 0, mn = 1e30;
            for (unsigned s = 0; s < reps; s++) {
                kt_tourney *u = NULL;
                kt_tourney_copy(&u, t);
                if (kt_rails_obfuscate(u, 0, s, NULL) == KT_OK) {
                    uint64_t r = 0;
                    kt_rails_count_tourney(u, &r);
                    sum += (double)r / cells;
                    if ((double)r / cells < mn) mn = (double)r / cells;
                }
                kt_tourney_free(u);
            }
            printf("%6u %-15s %10.4f %12.4f %12.4f\n", n,
                   roth ? "Warnsdorff-Roth" : generators[k].name, (double)r0 / cells, sum / reps, mn);
            kt_tourney_free(t);
        }
        fflush(stdout);
        kt_graph_free(g);
    }
    putchar('\n');
}

/* ---- the kt_rails handle ------------------------------------------------ */

static void bench_handle(uint32_t n)
{
    printf("== kt_rails handle on an obfuscated %ux%u tour ==\n", n, n);
    kt_graph *g = NULL;
    kt_tourney *t = NULL;
    if (kt_graph_new(&g, n, n) != KT_OK || gen_block_join(&t, g, 1) != KT_OK) return;
    kt_rails_obfuscate(t, 0, 1, NULL);
    kt_rails_shatter(t, 2);
    printf("shattered tour: %zu cycles\n", kt_tourney_size(t));
    kt_rails *r = NULL;
    double c0 = bench_cpu();
    if (kt_rails_new(&r, t) != KT_OK) return;
    double c1 = bench_cpu();
    size_t nr = kt_rails_count(r);
    printf("kt_rails_new: %zu rails, %.4f us/cell\n", nr, (c1 - c0) * 1e6 / ((double)n * n));
    /* switch every snapshot rail that is still a rail, in a random order */
    uint64_t x = 0x9E3779B97F4A7C15u;
    size_t cnt[3] = {0, 0, 0};
    double tm[3] = {0, 0, 0};
    for (size_t i = 0; i < nr; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        kt_rail rl;
        kt_rails_get(r, (size_t)(x % nr), &rl);
        if (!kt_rails_is_rail(t, rl)) continue;
        kt_rails_effect e;
        double a = bench_cpu();
        if (kt_rails_switch(r, rl, &e) != KT_OK) break;
        tm[e] += bench_cpu() - a;
        cnt[e]++;
    }
    static const char *nm[3] = {"merge", "split", "keep"};
    for (int e = 0; e < 3; e++)
        printf("%-6s %9zu switches, %10.3f us each\n", nm[e], cnt[e], cnt[e] ? tm[e] * 1e6 / (double)cnt[e] : 0.0);
    printf("size now %zu\n", kt_tourney_size(t));
    /* then only switches inside cycles (no merges) */
    kt_rails_refresh(r);
    nr = kt_rails_count(r);
    memset(cnt, 0, sizeof cnt);
    memset(tm, 0, sizeof tm);
    for (size_t i = 0; i < nr; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        kt_rail rl;
        kt_rails_get(r, (size_t)(x % nr), &rl);
        int joins = 0;
        if (kt_rails_joins(r, rl, &joins, NULL, NULL) != KT_OK || joins) continue;
        kt_rails_effect e;
        double a = bench_cpu();
        if (kt_rails_switch(r, rl, &e) != KT_OK) break;
        tm[e] += bench_cpu() - a;
        cnt[e]++;
    }
    printf("within cycles only:\n");
    for (int e = 1; e < 3; e++)
        printf("%-6s %9zu switches, %10.3f us each\n", nm[e], cnt[e], cnt[e] ? tm[e] * 1e6 / (double)cnt[e] : 0.0);
    printf("size now %zu\n\n", kt_tourney_size(t));
    kt_rails_free(r);
    kt_tourney_free(t);
    kt_graph_free(g);
}

/* ---- uniform 6x6 --------------------------------------------------------
 * Every closed tour of 6x6 (9,862) by plain depth-first search, each in
 * its canonical orientation (leaving cell 0 by its lower move), against a
 * long run of successive obfuscations: how close the obfuscation chain
 * comes to the uniform distribution over tours. */

typedef struct enum6 {
    int used[36], mv[36];
    uint64_t tours;
    double mov[8], rel[8];
} enum6;

static int step6(int c, int m)
{
    static const int dx[8] = {2, 1, -1, -2, -2, -1, 1, 2}, dy[8] = {-1, -2, -2, -1, 1, 2, 2, 1};
    int x = c % 6 + dx[m], y = c / 6 + dy[m];
    return (x >= 0 && x < 6 && y >= 0 && y < 6) ? y * 6 + x : -1;
}

static void enum6_rec(enum6 *E, int c, int len)
{
    if (len == 36) {
        for (int m = 0; m < 8; m++)
            if (step6(c, m) == 0) {
                E->mv[35] = m;
                if (E->mv[0] > ((m + 4) & 7)) return; /* the other orientation */
                E->tours++;
                for (int k = 0; k < 36; k++) {
                    E->mov[E->mv[k]] += 1.0 / 36;
                    E->rel[(E->mv[(k + 1) % 36] - E->mv[k] + 8) % 8] += 1.0 / 36;
                }
            }
        return;
    }
    for (int m = 0; m < 8; m++) {
        int d = step6(c, m);
        if (d < 0 || E->used[d]) continue;
        E->used[d] = 1;
        E->mv[len - 1] = m;
        enum6_rec(E, d, len + 1);
        E->used[d] = 0;
    }
}

static void bench_uniform6(unsigned long chain)
{
    printf("== 6x6: all closed tours vs %lu successive obfuscations ==\n", chain);
    static enum6 E;
    memset(&E, 0, sizeof E);
    E.used[0] = 1;
    double w0 = bench_now();
    enum6_rec(&E, 0, 1);
    printf("closed tours: %llu (%.1f s)\n", (unsigned long long)E.tours, bench_now() - w0);
    double v[8];
    for (int i = 0; i < 8; i++) v[i] = E.mov[i] / (double)E.tours;
    print_row("uniform moves", v, false);
    for (int i = 0; i < 8; i++) v[i] = E.rel[i] / (double)E.tours;
    print_row("uniform rel", v, true);
    kt_graph *g = NULL;
    kt_tourney *t = NULL;
    kt_stats *s = NULL;
    if (kt_graph_new(&g, 6, 6) != KT_OK || gen_block_join(&t, g, 1) != KT_OK || kt_stats_new(&s, NULL) != KT_OK)
        return;
    double mean[8], sd[8];
    for (unsigned long i = 0; i < chain; i++) {
        kt_rails_obfuscate(t, 0, i, NULL);
        kt_stats_add(s, t);
    }
    kt_stats_moves(s, mean, sd);
    print_row("chain moves", mean, false);
    kt_stats_relative(s, mean, sd);
    print_row("chain rel", mean, true);
    putchar('\n');
    kt_stats_free(s);
    kt_tourney_free(t);
    kt_graph_free(g);
}

/* ---- stress --------------------------------------------------------------- */

static bool valid_tour(const kt_tourney *t)
{
    const kt_graph *g = kt_tourney_graph(t);
    size_t n = kt_graph_cell_count(g);
    uint8_t *mv = malloc(n);
    kt_tourney *u = NULL;
    bool ok = mv && kt_tourney_move_pairs(t, mv, n) == KT_OK &&
              kt_tourney_from_move_pairs(&u, g, mv, n, NULL) == KT_OK &&
              kt_tourney_size(u) == 1 && kt_tourney_size(t) == 1;
    kt_tourney_free(u);
    free(mv);
    return ok;
}

static void bench_stress(unsigned long runs)
{
    printf("== stress: %lu seeded join/obfuscate runs ==\n", runs);
    uint32_t boards[64][2];
    size_t nb = 0;
    for (uint32_t n = 6; n <= 32; n += 2) boards[nb][0] = boards[nb][1] = n, nb++;
    static const uint32_t rect[][2] = {{6, 8},  {8, 6},  {6, 10}, {10, 6}, {8, 10}, {6, 12},
                                       {12, 8}, {10, 14}, {6, 20}, {20, 6}, {16, 30}, {8, 32}};
    for (size_t i = 0; i < sizeof rect / sizeof rect[0]; i++)
        boards[nb][0] = rect[i][0], boards[nb][1] = rect[i][1], nb++;
    unsigned long per = runs / nb + 1, done = 0, bad = 0;
    double w0 = bench_now();
    for (size_t b = 0; b < nb; b++) {
        kt_graph *g = NULL;
        kt_tourney *tour = NULL;
        kt_graph_new(&g, boards[b][0], boards[b][1]);
        if (gen_block_join(&tour, g, 1) != KT_OK) {
            printf("%ux%u: no start tour\n", boards[b][0], boards[b][1]);
            bad += per;
            continue;
        }
        unsigned long bad_here = 0;
        double b0 = bench_now();
        for (unsigned long s = 0; s < per && done < runs; s++, done++) {
            kt_tourney *t = NULL;
            kt_tourney_copy(&t, tour);
            kt_status st;
            if (s % 2 == 0) st = kt_rails_obfuscate(t, 0, s, NULL);
            else {
                kt_rails_shatter(t, s);
                st = kt_rails_join(t, s, NULL);
            }
            if (st != KT_OK || !valid_tour(t)) bad_here++;
            kt_tourney_free(t);
        }
        printf("%3ux%-3u %7lu runs, %lu failed, %.1f us/run\n", boards[b][0], boards[b][1], per,
               bad_here, (bench_now() - b0) * 1e6 / (double)per);
        bad += bad_here;
        kt_tourney_free(tour);
        kt_graph_free(g);
    }
    printf("total %lu runs, %lu failed, %.1f s\n\n", done, bad, bench_now() - w0);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    unsigned long arg = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;
    bool all = strcmp(what, "all") == 0;
    if (all || strcmp(what, "tables") == 0)
        bench_tables(arg ? (unsigned)arg : 1000, argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 8,
                     argc > 4 && strcmp(argv[4], "paper") == 0);
    if (all || strcmp(what, "sizes") == 0) bench_sizes(arg ? (unsigned)arg : 200);
    if (all || strcmp(what, "conjecture") == 0) bench_conjecture(arg ? (uint32_t)arg : 512);
    if (all || strcmp(what, "stress") == 0) bench_stress(arg ? arg : 100000);
    if (strcmp(what, "uniform6") == 0) bench_uniform6(arg ? arg : 20000);
    if (all || strcmp(what, "handle") == 0) bench_handle(arg ? (uint32_t)arg : 256);
    if (all || strcmp(what, "speed") == 0) bench_speed(arg ? (uint32_t)arg : 4096);
    if (all || strcmp(what, "narrow") == 0) bench_narrow();
    return 0;
}
