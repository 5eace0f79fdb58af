/* SPDX-License-Identifier: MIT */
/*
 * Open tours by McKay's half-tours with tour ends (kt_halftours_count_open)
 * against independent counts:
 *  - a plain depth-first search over all Hamiltonian paths of small
 *    boards, by start and end cell: every split, every start, every pair
 *    of ends, undirected and directed;
 *  - the frontier method of knight/count.h (kt_count_tours() with
 *    KT_COUNT_OPEN, kt_count_open_tours()) on boards too large for the
 *    search, with every start cell and a spread of end cells;
 *  - published numbers: OEIS A390833 (undirected open tours), the 6x6
 *    directed count 6,637,920, and boards cut along 7 and 8 columns;
 *  - run settings: threads, shards summing to the whole, cancellation,
 *    the budget, and argument checks;
 *  - large halves enumerated in shards by type digits (the 8x4 halves of
 *    8x8), forced on small ones: the published counts, the same as one
 *    pass with given ends.
 */
#include <knight/knight.h>

#include "check.h"
#include "halftour/halftour_internal.h" /* kti_halftours_count_open_shards */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE KT_CELL_NONE

static kt_options *with_threads(unsigned threads)
{
    kt_options *o = NULL;
    CHECK(kt_options_new(&o, NULL) == KT_OK);
    if (o != NULL) CHECK(kt_options_set_threads(o, threads) == KT_OK);
    return o;
}

/* kt_halftours_count_open as a number (UINT64_MAX on failure, reported). */
static uint64_t halves(uint32_t w, uint32_t h, uint32_t split, kt_cell s, kt_cell e,
                       unsigned flags, unsigned threads)
{
    kt_options *o = with_threads(threads);
    kt_u128 v = {7, 7};
    kt_status st = kt_halftours_count_open(w, h, split, s, e, flags, o, &v);
    kt_options_free(o);
    if (st != KT_OK || v.hi != 0) {
        fprintf(stderr, "%ux%u split %u ends %u %u: %s\n", w, h, split, s, e, kt_strerror(st));
        CHECK(st == KT_OK && v.hi == 0);
        return UINT64_MAX;
    }
    return v.lo;
}

/* ---- brute force: every Hamiltonian path by depth-first search ---- */

#define MAXN 32

typedef struct bboard {
    int w, h, n;
    int nadj[MAXN], adj[MAXN][8];
    uint64_t ends[MAXN][MAXN];   /* directed paths by (first, last) cell */
} bboard;

static void bdfs(bboard *b, int start, int c, int depth, uint32_t seen)
{
    if (depth == b->n) {
        b->ends[start][c]++;
        return;
    }
    for (int k = 0; k < b->nadj[c]; k++) {
        int d = b->adj[c][k];
        if (!((seen >> d) & 1u)) bdfs(b, start, d, depth + 1, seen | 1u << d);
    }
}

static void brute(bboard *b, int w, int h)
{
    static const int mv[8][2] = {{2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}, {2, -1}};
    memset(b, 0, sizeof *b);
    b->w = w;
    b->h = h;
    b->n = w * h;
    for (int c = 0; c < b->n; c++)
        for (int m = 0; m < 8; m++) {
            int x = c % w + mv[m][0], y = c / w + mv[m][1];
            if (x >= 0 && y >= 0 && x < w && y < h) b->adj[c][b->nadj[c]++] = y * w + x;
        }
    for (int s = 0; s < b->n; s++) bdfs(b, s, s, 1, 1u << s);
}

/* Every split, every start, every pair of ends, against the search. */
static void test_vs_brute(int w, int h)
{
    bboard b;
    brute(&b, w, h);
    uint64_t directed = 0;
    for (int s = 0; s < b.n; s++)
        for (int e = 0; e < b.n; e++) directed += b.ends[s][e];
    for (uint32_t split = 1; split < (uint32_t)h; split++) {
        CHECK_EQ_U64(halves(w, h, split, NONE, NONE, 0, 1 + split % 2), directed / 2);
        CHECK_EQ_U64(halves(w, h, split, NONE, NONE, KT_HALFTOUR_DIRECTED, 2), directed);
    }
    uint32_t split = (uint32_t)h / 2;
    for (int s = 0; s < b.n; s++) {
        uint64_t from = 0;
        for (int e = 0; e < b.n; e++) {
            from += b.ends[s][e];
            if (e != s) CHECK_EQ_U64(halves(w, h, split, s, e, 0, 1), b.ends[s][e]);
        }
        CHECK_EQ_U64(halves(w, h, split, s, NONE, 0, 2), from);
        /* An end alone is the same count, and the flag changes nothing. */
        CHECK_EQ_U64(halves(w, h, split, NONE, s, KT_HALFTOUR_DIRECTED, 1), from);
    }
    printf("%dx%d: %llu open tours, by every split and pair of ends\n", w, h,
           (unsigned long long)(directed / 2));
}

/* ---- the frontier method ---- */

static uint64_t frontier(uint32_t w, uint32_t h, kt_cell s, kt_cell e)
{
    kt_graph *g = NULL;
    kt_u128 v = {7, 7};
    kt_status st = kt_graph_new(&g, w, h);
    kt_options *o = with_threads(2);
    if (st == KT_OK) st = kt_count_open_tours(g, s, e, KT_COUNT_OPEN | KT_COUNT_FRONTIER, o, &v, NULL);
    kt_options_free(o);
    kt_graph_free(g);
    CHECK(st == KT_OK && v.hi == 0);
    return st == KT_OK ? v.lo : UINT64_MAX;
}

/* The two methods agree on the whole count, from every `sstep`-th start
 * cell, and between those and every `step`-th other cell (0: none). */
/* KT_TEST_LIGHT (valgrind): fewer starts and ends, no 6x6, 5x7, 7x4 or
 * brute-force 5x5 (a few seconds instead of half a minute natively). */
static bool light;

static void test_vs_frontier(uint32_t w, uint32_t h, uint32_t sstep, uint32_t step)
{
    if (light) {
        sstep *= 5;
        step *= 3;
    }
    uint64_t all = frontier(w, h, NONE, NONE);
    CHECK_EQ_U64(halves(w, h, h / 2, NONE, NONE, 0, 2), all);
    if (h > 3) CHECK_EQ_U64(halves(w, h, h / 2 - 1, NONE, NONE, 0, 1), all);
    for (kt_cell s = 0; s < w * h; s += sstep) {
        CHECK_EQ_U64(halves(w, h, h / 2, s, NONE, 0, 2), frontier(w, h, s, NONE));
        for (kt_cell e = s + 1 + s % (step ? step : 1); step && e < w * h; e += step)
            CHECK_EQ_U64(halves(w, h, h / 2, s, e, 0, 2), frontier(w, h, s, e));
    }
    printf("%ux%u: %llu open tours, as the frontier method counts them\n", w, h,
           (unsigned long long)all);
}

/* ---- published numbers ---- */

static void test_published(void)
{
    /* OEIS A390833, undirected open tours of k x n boards; the cut runs
     * along the first side, so 7 and 8 columns are cut too. */
    static const struct { uint32_t w, h; uint64_t n; } a390833[] = {
        {3, 4, 8}, {4, 3, 8}, {3, 7, 52}, {7, 3, 52}, {8, 3, 396}, {3, 10, 3048}, {3, 12, 57248},
        {4, 5, 82}, {4, 6, 744}, {7, 4, 6378}, {8, 4, 31088}, {4, 10, 1213112}, {5, 5, 864},
        {5, 6, 18784}, {6, 5, 18784}, {5, 7, 622868}, {7, 5, 622868}};
    for (size_t i = 0; i < sizeof a390833 / sizeof a390833[0]; i++)
        if (!light || a390833[i].n < 100000)
            CHECK_EQ_U64(halves(a390833[i].w, a390833[i].h, a390833[i].h / 2, NONE, NONE, 0, 2),
                     a390833[i].n);
    /* 6x6: 3,318,960 undirected (A390833), 6,637,920 directed. */
    if (!light) {
        CHECK_EQ_U64(halves(6, 6, 3, NONE, NONE, 0, 2), 3318960);
        CHECK_EQ_U64(halves(6, 6, 2, NONE, NONE, KT_HALFTOUR_DIRECTED, 2), 6637920);
    }
    /* Boards with no open tour: 4x4, 3x5 (and 3x3, whose centre is isolated). */
    CHECK_EQ_U64(halves(4, 4, 2, NONE, NONE, 0, 1), 0);
    CHECK_EQ_U64(halves(3, 5, 2, NONE, NONE, 0, 1), 0);
    CHECK_EQ_U64(halves(3, 3, 1, NONE, NONE, 0, 1), 0);
}

/* ---- threads ---- */

/* One thread and two or three give the published count on boards of odd
 * area (whose tour ends the enumeration keeps to one colour class) and
 * with halves of depth 3 or less (taken column by column at the cut); a
 * given end on the smaller colour class of an odd board has no tour. */
static void test_threads_agree(void)
{
    static const struct { uint32_t w, h, split; uint64_t n; } b[] = {
        {5, 7, 3, 622868}, {5, 7, 4, 622868}, {6, 5, 2, 18784}, {7, 4, 2, 6378},
        {5, 5, 2, 864},    {5, 5, 3, 864},    {4, 5, 2, 82}};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        if (light && b[i].n > 100000) continue;
        uint64_t one = halves(b[i].w, b[i].h, b[i].split, NONE, NONE, 0, 1);
        CHECK_EQ_U64(one, b[i].n);
        CHECK_EQ_U64(halves(b[i].w, b[i].h, b[i].split, NONE, NONE, 0, 2 + i % 2), one);
    }
    if (light) return;
    /* 5x7: cell 1 is on the smaller class, cell 2 on the larger one. */
    CHECK_EQ_U64(halves(5, 7, 3, 1, NONE, 0, 1), 0);
    CHECK_EQ_U64(halves(5, 7, 3, 1, NONE, 0, 2), 0);
    CHECK_EQ_U64(halves(5, 7, 4, 2, 1, 0, 2), 0);
    uint64_t from2 = frontier(5, 7, 2, NONE);
    CHECK(from2 > 0);
    CHECK_EQ_U64(halves(5, 7, 3, 2, NONE, 0, 1), from2);
    CHECK_EQ_U64(halves(5, 7, 4, 2, NONE, 0, 2), from2);
    CHECK_EQ_U64(halves(5, 7, 3, 2, 34, 0, 2), frontier(5, 7, 2, 34));
    printf("threads agree\n");
}

/* ---- run settings and arguments ---- */

static int cancel_at_once(void *user, uint64_t done, uint64_t total)
{
    (void)user;
    (void)done;
    (void)total;
    return 1;
}

static void test_settings(void)
{
    /* Shards of the join add up to the whole, whatever the threads. */
    kt_options *o = with_threads(2);
    uint64_t sum = 0;
    for (uint32_t i = 0; i < 4; i++) {
        kt_u128 v = {0, 0};
        CHECK(kt_options_set_shard(o, i, 4) == KT_OK);
        CHECK(kt_halftours_count_open(6, 5, 2, NONE, NONE, 0, o, &v) == KT_OK);
        sum += v.lo;
    }
    CHECK_EQ_U64(sum, 18784);
    sum = 0;
    for (uint32_t i = 0; i < 3; i++) {
        kt_u128 v = {0, 0};
        CHECK(kt_options_set_shard(o, i, 3) == KT_OK);
        CHECK(kt_halftours_count_open(5, 6, 3, 2, NONE, 0, o, &v) == KT_OK);
        sum += v.lo;
    }
    CHECK_EQ_U64(sum, frontier(5, 6, 2, NONE));
    kt_options_free(o);
    /* Threads: 0 (one per core), 1 and 3 give the same count. */
    CHECK_EQ_U64(halves(5, 7, 3, NONE, NONE, 0, 0), 622868);
    CHECK_EQ_U64(halves(5, 7, 3, NONE, NONE, 0, 3), 622868);
    /* Cancel, budget: the count is left as it was. */
    kt_u128 v = {5, 6};
    o = with_threads(2);
    CHECK(kt_options_set_progress(o, cancel_at_once, NULL) == KT_OK);
    CHECK_ST(kt_halftours_count_open(6, 6, 3, NONE, NONE, 0, o, &v), KT_ECANCELED);
    kt_options_free(o);
    o = with_threads(1);
    CHECK(kt_options_set_budget(o, 100) == KT_OK);
    CHECK_ST(kt_halftours_count_open(6, 6, 3, 0, NONE, 0, o, &v), KT_ELIMIT);
    kt_options_free(o);
    CHECK(v.lo == 5 && v.hi == 6);
    /* Arguments. */
    CHECK_ST(kt_halftours_count_open(5, 5, 2, NONE, NONE, 0, NULL, NULL), KT_EINVAL);
    CHECK_ST(kt_halftours_count_open(5, 5, 0, NONE, NONE, 0, NULL, &v), KT_EINVAL);
    CHECK_ST(kt_halftours_count_open(5, 5, 5, NONE, NONE, 0, NULL, &v), KT_EINVAL);
    CHECK_ST(kt_halftours_count_open(5, 1, 1, NONE, NONE, 0, NULL, &v), KT_EINVAL);
    CHECK_ST(kt_halftours_count_open(0, 5, 2, NONE, NONE, 0, NULL, &v), KT_EINVAL);
    CHECK_ST(kt_halftours_count_open(5, 5, 2, NONE, NONE, 0x1u, NULL, &v), KT_EINVAL);
    CHECK_ST(kt_halftours_count_open(5, 5, 2, 25, NONE, 0, NULL, &v), KT_EINVAL);
    CHECK_ST(kt_halftours_count_open(5, 5, 2, NONE, 25, 0, NULL, &v), KT_EINVAL);
    CHECK_ST(kt_halftours_count_open(5, 5, 2, 3, 3, 0, NULL, &v), KT_EINVAL);
    CHECK_ST(kt_halftours_count_open(9, 5, 2, NONE, NONE, 0, NULL, &v), KT_EUNSUPPORTED);
    CHECK(v.lo == 5 && v.hi == 6);
}

/* ---- halves in shards by type digits ---- */

static uint64_t sharded(uint32_t w, uint32_t h, uint32_t split, kt_cell start, kt_cell end,
                        unsigned flags, unsigned threads)
{
    kt_options *o = with_threads(threads);
    kt_u128 n = {0, 0};
    CHECK(kti_halftours_count_open_shards(w, h, split, start, end, 1, flags, o, &n) == KT_OK);
    kt_options_free(o);
    CHECK(n.hi == 0);
    return n.lo;
}

/* Halves of 8x4 are enumerated in shards, each keeping the states whose
 * first cells of the row at the cut have its type digits (too large for
 * the tests); forced on every half of 4 rows or more, the counts equal the
 * published ones, directed and undirected, with one and two threads, and
 * the counts with given ends equal those of one pass. */
static void test_digit_shards(void)
{
    static const struct { uint32_t w, h, split; uint64_t n; } b[] = {
        {5, 7, 4, 622868}, {5, 7, 3, 622868}, {3, 10, 5, 3048}, {4, 10, 5, 1213112},
        {3, 12, 6, 57248}, {4, 8, 4, 0}};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        if (light && b[i].n > 100000) continue;
        uint64_t n = sharded(b[i].w, b[i].h, b[i].split, NONE, NONE, 0, 1 + i % 2);
        if (b[i].n != 0) CHECK_EQ_U64(n, b[i].n);
        else CHECK_EQ_U64(n, halves(b[i].w, b[i].h, b[i].split, NONE, NONE, 0, 2));
        CHECK_EQ_U64(sharded(b[i].w, b[i].h, b[i].split, NONE, NONE, KT_HALFTOUR_DIRECTED, 2),
                     2 * n);
    }
    /* Given ends: a start, an end, both (cells of the larger colour of 5x7
     * in either half, and one on the smaller colour: no tour). */
    static const kt_cell ends[][2] = {{0, NONE}, {NONE, 34}, {2, 32}, {16, 22}, {10, 1}};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        if (light && i > 1) break;
        CHECK_EQ_U64(sharded(5, 7, 3, ends[i][0], ends[i][1], 0, 2),
                     halves(5, 7, 3, ends[i][0], ends[i][1], 0, 2));
    }
    printf("halves in shards by type digits: the same counts\n");
}

int main(void)
{
    light = getenv("KT_TEST_LIGHT") != NULL;
    test_vs_brute(3, 4);
    test_vs_brute(4, 3);
    test_vs_brute(4, 4);
    test_vs_brute(4, 5);
    test_vs_brute(5, 4);
    test_vs_brute(3, 7);
    if (!light) test_vs_brute(5, 5);
    test_vs_frontier(6, 5, 3, 9);
    test_vs_frontier(5, 6, 1, 7);
    test_vs_frontier(4, 8, 1, 3);
    if (!light) test_vs_frontier(7, 4, 3, 0);
    if (!light) test_vs_frontier(5, 7, 4, 0);
    test_published();
    test_threads_agree();
    test_settings();
    test_digit_shards();
    return check_failures ? 1 : 0;
}
