/* SPDX-License-Identifier: MIT */
/* The uniform sampler: its totals against the frontier count and against
 * each other (open tours summed over their ends), rank and unrank as
 * inverse bijections onto distinct valid tours, every drawn tour
 * validated, and chi-square tests of uniformity over all 9,862 closed
 * tours of 6x6 and all open tours of 5x5 (any ends, one end, both ends;
 * and by open half-tours, the path of 7x7 open: any ends, one end). */
#include <knight/knight.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sample/sample_internal.h" /* kti_sampler_new_halftours: the 8x8 path on small boards */

static uint64_t u128_lo(kt_u128 v)
{
    CHECK(v.hi == 0);
    return v.lo;
}

static uint64_t total_of(const kt_sampler *s)
{
    kt_u128 t;
    CHECK_OK(kt_sampler_total(s, &t));
    return u128_lo(t);
}

/* A canonical name of a tour: a hash of its move pairs, which list each
 * cell's two neighbours in a fixed order, so equal edge sets hash equal. */
static uint64_t tour_hash(const kt_tourney *t)
{
    const kt_graph *g = kt_tourney_graph(t);
    size_t n = kt_graph_cell_count(g);
    uint8_t mv[64];
    uint64_t h = 0xcbf29ce484222325u;
    if (n > sizeof mv || kt_tourney_move_pairs(t, mv, n) != KT_OK) return 0;
    for (size_t i = 0; i < n; i++) h = (h ^ mv[i]) * 0x100000001B3u;
    return h;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Whether t is one of the sampler's kind: closed, or open with the ends asked. */
static bool valid_kind(const kt_tourney *t, kt_shape shape, kt_cell start, kt_cell end)
{
    if (shape == KT_SHAPE_CYCLES) return kt_tourney_is_closed_tour(t);
    if (!kt_tourney_is_open_tour(t)) return false;
    kt_cell a, b;
    if (kt_tourney_ends(t, &a, &b) != KT_OK) return false;
    if (start != KT_CELL_NONE && a != start && b != start) return false;
    if (end != KT_CELL_NONE && a != end && b != end) return false;
    return true;
}

/* Every rank unranks to a valid tour of the kind, the tours are distinct,
 * and rank inverts unrank.  Returns the n pairs (hash, rank) sorted by
 * hash: the cells of the chi-square test. */
static uint64_t *all_tours(const kt_sampler *s, uint64_t n, kt_shape shape, kt_cell start,
                           kt_cell end)
{
    /* hash and rank side by side, sorted by hash */
    uint64_t *h = malloc(n * 2 * sizeof *h);
    if (h == NULL) return NULL;
    for (uint64_t r = 0; r < n; r++) {
        kt_tourney *t = NULL;
        kt_u128 rank = {r, 0}, back = {0, 0};
        CHECK_OK(kt_sampler_unrank(&t, s, &rank));
        h[2 * r] = t ? tour_hash(t) : 0;
        h[2 * r + 1] = r;
        CHECK(t != NULL && valid_kind(t, shape, start, end));
        CHECK_OK(kt_sampler_rank(s, t, &back));
        CHECK(back.lo == r && back.hi == 0);
        kt_tourney_free(t);
    }
    qsort(h, n, 2 * sizeof *h, cmp_u64);
    for (uint64_t i = 1; i < n; i++) CHECK(h[2 * i] != h[2 * i - 2]);
    return h;
}

/* The upper p = 1e-4 point of chi-square with df degrees of freedom
 * (the Wilson-Hilferty approximation, good to a few percent from
 * df = 10 on: the smallest case here has df = 15). */
static double chi2_crit(double df)
{
    const double z = 3.719; /* standard normal upper 1e-4 point */
    double a = 2.0 / (9.0 * df);
    return df * pow(1.0 - a + z * sqrt(a), 3.0);
}

/*
 * Draw ndraw tours, validate each, and test the counts per tour by
 * chi-square over all n tours.  Power: with E = ndraw / n per cell, a
 * sampler that gives half of the tours probability (1 + d) / n and the
 * other half (1 - d) / n shifts the statistic by ndraw * d^2 (the
 * noncentrality) on a spread of sqrt(2 n); 50 draws per tour on 6x6
 * (493,100 draws) make that shift 4.4 spreads (power above 0.9 at the
 * p = 1e-4 threshold) for d = 4%, and 1.1 x the threshold margin at 3%.
 * A second test over 64 groups of consecutive ranks catches a bias that
 * follows the ranking (a carry lost in the counts, say) far more
 * sharply.  The seed is fixed, so the test is deterministic; a correct
 * sampler passes it with probability 1 - 1e-4 per statistic over seeds.
 * Checked by mutation: a draw that moves 3% of the upper half of the ranks
 * to the lower half (d = 3%) gives chi2 10380.6 on 6x6 (just under the
 * 10391.9 threshold, as the power estimate says) and 538.2 over the 64
 * groups (threshold 113.7): caught.
 */
static void uniformity_from(const kt_sampler *s, const uint64_t *hash, uint64_t n, uint64_t ndraw,
                            uint64_t seed, kt_shape shape, kt_cell start, kt_cell end, kt_cell from);

static void uniformity(const kt_sampler *s, const uint64_t *hash, uint64_t n, uint64_t ndraw,
                       uint64_t seed, kt_shape shape, kt_cell start, kt_cell end)
{
    uniformity_from(s, hash, n, ndraw, seed, shape, start, end, KT_CELL_NONE);
}

/* The same for the tours kt_sampler_draw_from() draws with an end at
 * `from` (KT_CELL_NONE: kt_sampler_draw()). */
static void uniformity_from(const kt_sampler *s, const uint64_t *hash, uint64_t n, uint64_t ndraw,
                            uint64_t seed, kt_shape shape, kt_cell start, kt_cell end, kt_cell from)
{
    uint64_t *cnt = calloc(n, sizeof *cnt);
    uint64_t grp[64] = {0}, ng = n < 64 ? n : 64;
    if (cnt == NULL) {
        CHECK(!"out of memory");
        return;
    }
    uint64_t bad = 0;
    for (uint64_t i = 0; i < ndraw; i++) {
        kt_tourney *t = NULL;
        kt_status st = from == KT_CELL_NONE ? kt_sampler_draw(&t, s, seed, i)
                                            : kt_sampler_draw_from(&t, s, from, seed, i, NULL);
        if (st != KT_OK || !valid_kind(t, shape, start, end)) {
            bad++;
            kt_tourney_free(t);
            continue;
        }
        uint64_t h = tour_hash(t);
        /* the tour by its canonical name, independent of the ranking */
        const uint64_t *at = bsearch(&h, hash, n, 2 * sizeof *hash, cmp_u64);
        if (at == NULL) {
            bad++;
        } else {
            cnt[(at - hash) / 2]++;
            grp[at[1] * ng / n]++;
        }
        kt_tourney_free(t);
    }
    CHECK_EQ_U64(bad, 0);
    double e = (double)ndraw / (double)n, x2 = 0;
    for (uint64_t i = 0; i < n; i++) x2 += ((double)cnt[i] - e) * ((double)cnt[i] - e) / e;
    double g2 = 0;
    for (unsigned k = 0; k < ng; k++) {
        /* ranks r with r * ng / n == k */
        double m = (double)(((k + 1) * n + ng - 1) / ng - (k * n + ng - 1) / ng);
        double eg = (double)ndraw * m / (double)n;
        g2 += ((double)grp[k] - eg) * ((double)grp[k] - eg) / eg;
    }
    printf("  %llu tours, %llu draws: chi2 %.1f (df %llu, threshold %.1f); %llu groups %.1f (threshold %.1f)\n",
           (unsigned long long)n, (unsigned long long)ndraw, x2, (unsigned long long)(n - 1),
           chi2_crit((double)(n - 1)), (unsigned long long)ng, g2, chi2_crit((double)(ng - 1)));
    CHECK(x2 < chi2_crit((double)(n - 1)));
    CHECK(g2 < chi2_crit((double)(ng - 1)));
    free(cnt);
}

/* The sampler's paths: its frontier programme; McKay's half-tours, cut
 * below row h / 2 (open tours: the larger half above, as kt_sampler_new()
 * cuts them); the same with no half listed (each half-tour through its
 * structure's own count, the path of halves too large to list). */
enum { BY_FRONTIER, BY_HALVES, BY_HALVES_UNLISTED, BY_HALVES_MERGED };

/* The flags of the unlisted samplers: merged or not; proposals from
 * small blocks, or from large ones on every type. */
static unsigned hs_flags(bool merged, bool small_blocks)
{
    return KTI_HS_UNLISTED | (merged ? KTI_HS_MERGED : 0u) |
           (small_blocks ? KTI_HS_SMALL_BLOCKS : KTI_HS_ALWAYS_PROPOSE);
}

static void case_uniform_by(int by, uint32_t w, uint32_t h, kt_shape shape, kt_cell start,
                            kt_cell end, uint64_t expect, unsigned per_tour, uint64_t seed)
{
    kt_graph *g = NULL;
    kt_sampler *s = NULL;
    bool halftours = by != BY_FRONTIER;
    CHECK_OK(kt_graph_new(&g, w, h));
    if (by == BY_HALVES_UNLISTED || by == BY_HALVES_MERGED)
        CHECK_OK(kti_sampler_new_halftours_flags(&s, g, shape == KT_SHAPE_PATH ? h - h / 2 : h / 2,
                                                 shape == KT_SHAPE_PATH, hs_flags(by == BY_HALVES_MERGED, true),
                                                 start, end, NULL));
    else if (halftours && shape == KT_SHAPE_PATH)
        CHECK_OK(kti_sampler_new_halftours_open(&s, g, h - h / 2, start, end, NULL));
    else if (halftours)
        CHECK_OK(kti_sampler_new_halftours(&s, g, h / 2, NULL));
    else
        CHECK_OK(kt_sampler_new(&s, g, shape, start, end, NULL));
    if (s == NULL) {
        kt_graph_free(g);
        return;
    }
    uint64_t n = total_of(s);
    if (expect) CHECK_EQ_U64(n, expect);
    uint64_t *hash = all_tours(s, n, shape, start, end);
    if (hash != NULL) uniformity(s, hash, n, n * per_tour, seed, shape, start, end);
    free(hash);
    kt_sampler_free(s);
    kt_graph_free(g);
}

/* Whether u is t mapped by one of the board's symmetries (bit 0 mirrors
 * x, bit 1 mirrors y, bit 2 then transposes, square boards only): each
 * edge of t, its cells mapped, is an edge of u.  Written here on the
 * public API, apart from the library's own mapping. */
static bool symmetric_image(const kt_tourney *t, const kt_tourney *u)
{
    const kt_graph *g = kt_tourney_graph(t);
    uint32_t W = kt_graph_width(g), H = kt_graph_height(g);
    size_t n = (size_t)W * H;
    uint8_t mt[64], mu[64];
    if (n > sizeof mt || kt_tourney_move_pairs(t, mt, n) != KT_OK ||
        kt_tourney_move_pairs(u, mu, n) != KT_OK)
        return false;
    for (unsigned sym = 0; sym < (W == H ? 8u : 4u); sym++) {
        bool all = true;
        for (size_t c = 0; c < n && all; c++) {
            for (unsigned k = 0; k < 2 && all; k++) {
                unsigned m = k ? mt[c] >> 4 : mt[c] & 0xFu;
                if (m == 0xFu) continue;
                kt_cell d = kt_graph_neighbor(g, (kt_cell)c, (int)m), im[2];
                kt_cell ends[2] = {(kt_cell)c, d};
                for (int i = 0; i < 2; i++) {
                    uint32_t x = (uint32_t)(ends[i] % W), y = (uint32_t)(ends[i] / W);
                    if (sym & 1) x = W - 1 - x;
                    if (sym & 2) y = H - 1 - y;
                    im[i] = (sym & 4) ? (kt_cell)x * W + y : (kt_cell)y * W + x;
                }
                int mm = kt_graph_move(g, im[0], im[1]);
                all = mm != KT_MOVE_NONE && ((mu[im[0]] & 0xFu) == (unsigned)mm || mu[im[0]] >> 4 == (unsigned)mm);
            }
        }
        if (all) return true;
    }
    return false;
}

/* kt_sampler_draw_from: a sampler of every open tour (or of those with
 * one given end), drawn from until a tour of its try serves `from`,
 * against the sampler prepared for those ends alone: the same tours,
 * every one of them as often (chi-square over all of them).  A try serves
 * when it has an end that a symmetry of the board keeping the sampler's
 * tours takes to `from`: with a budget of one try, draw_from gives
 * KT_ELIMIT or kt_sampler_draw's tour mapped by a symmetry, with an end
 * at `from`, and the tries served from other cells of the orbit are
 * counted (so the symmetries are not left unused).  mask: holes or NULL;
 * expect: the tours, or 0 to take the prepared sampler's total. */
static void case_draw_from(int by, uint32_t w, uint32_t h, const uint8_t *mask, kt_cell given,
                           kt_cell from, uint64_t expect, unsigned per_tour, uint64_t seed)
{
    kt_graph *g = NULL;
    kt_sampler *s = NULL, *r = NULL;
    kt_options *one = NULL;
    CHECK_OK(kt_graph_new_custom(&g, w, h, 2, 1, mask, NULL));
    CHECK_OK(kt_options_new(&one, NULL));
    CHECK_OK(kt_options_set_budget(one, 1));
    if (by == BY_HALVES_MERGED)
        CHECK_OK(kti_sampler_new_halftours_flags(&s, g, h - h / 2, true, hs_flags(true, true),
                                                 given, KT_CELL_NONE, NULL));
    else if (by == BY_HALVES)
        CHECK_OK(kti_sampler_new_halftours_open(&s, g, h - h / 2, given, KT_CELL_NONE, NULL));
    else
        CHECK_OK(kt_sampler_new(&s, g, KT_SHAPE_PATH, given, KT_CELL_NONE, NULL));
    CHECK_OK(kt_sampler_new(&r, g, KT_SHAPE_PATH, from, given, NULL));
    if (s != NULL && r != NULL) {
        uint64_t n = total_of(r), mapped = 0;
        if (expect) CHECK_EQ_U64(n, expect);
        for (uint64_t i = 0; i < 200; i++) {
            kt_tourney *t = NULL, *u = NULL;
            kt_cell a = KT_CELL_NONE, b = KT_CELL_NONE;
            CHECK_OK(kt_sampler_draw(&t, s, seed, i));
            kt_status st = kt_sampler_draw_from(&u, s, from, seed, i, one);
            CHECK(st == KT_OK || (st == KT_ELIMIT && u == NULL));
            if (st == KT_OK) {
                CHECK(u != NULL && kt_tourney_ends(u, &a, &b) == KT_OK && (a == from || b == from));
                CHECK(symmetric_image(t, u));
                CHECK_OK(kt_tourney_ends(t, &a, &b));
                mapped += a != from && b != from;
            }
            kt_tourney_free(t);
            kt_tourney_free(u);
        }
        CHECK(mapped > 0);
        uint64_t *hash = all_tours(r, n, KT_SHAPE_PATH, from, given);
        if (hash != NULL)
            uniformity_from(s, hash, n, n * per_tour, seed, KT_SHAPE_PATH, from, given, from);
        free(hash);
    }
    kt_options_free(one);
    kt_sampler_free(s);
    kt_sampler_free(r);
    kt_graph_free(g);
}

/* The half-tour sampler of a shard of the join's upper types (the 8x8
 * benchmark's sample of draws): the shards' totals add up to the whole,
 * and their draws are tours. */
static void halftour_shards(void)
{
    kt_graph *g = NULL;
    kt_options *run = NULL;
    CHECK_OK(kt_graph_new(&g, 8, 5));
    CHECK_OK(kt_options_new(&run, NULL));
    uint64_t sum = 0;
    for (uint32_t i = 0; i < 3; i++) {
        kt_sampler *s = NULL;
        kt_tourney *t = NULL;
        CHECK_OK(kt_options_set_shard(run, i, 3));
        CHECK_OK(kti_sampler_new_halftours(&s, g, 2, run));
        sum += s != NULL ? total_of(s) : 0;
        if (s != NULL) CHECK_OK(kt_sampler_draw(&t, s, 1, i));
        CHECK(t != NULL && kt_tourney_is_closed_tour(t));
        kt_tourney_free(t);
        kt_sampler_free(s);
    }
    CHECK_EQ_U64(sum, 44202);
    kt_options_free(run);
    kt_graph_free(g);
}

static void case_uniform(uint32_t w, uint32_t h, kt_shape shape, kt_cell start, kt_cell end,
                         uint64_t expect, unsigned per_tour, uint64_t seed)
{
    case_uniform_by(BY_FRONTIER, w, h, shape, start, end, expect, per_tour, seed);
}

/* Draws of sampler s: each a valid tour of the kind, rank inverts unrank
 * on it and on ranks spread over all n. */
static void draws_round_trip(const kt_sampler *s, uint64_t n, uint64_t draws, kt_shape shape,
                             kt_cell start, kt_cell end)
{
    for (uint64_t k = 0; k < draws; k++) {
        kt_tourney *d = NULL, *e = NULL;
        kt_u128 r = {0, 0}, spread = {n / draws * k + k % 7, 0}, back = {0, 0};
        CHECK_OK(kt_sampler_draw(&d, s, 5, k));
        CHECK(d != NULL && valid_kind(d, shape, start, end));
        if (d != NULL) CHECK_OK(kt_sampler_rank(s, d, &r));
        CHECK(r.hi == 0 && r.lo < n);
        CHECK_OK(kt_sampler_unrank(&e, s, &r));
        CHECK(e != NULL && d != NULL && kt_tourney_equal(d, e));
        kt_tourney_free(e);
        e = NULL;
        if (spread.lo >= n) spread.lo = n - 1;
        CHECK_OK(kt_sampler_unrank(&e, s, &spread));
        CHECK(e != NULL && valid_kind(e, shape, start, end));
        if (e != NULL) CHECK_OK(kt_sampler_rank(s, e, &back));
        CHECK(back.lo == spread.lo && back.hi == 0);
        kt_tourney_free(d);
        kt_tourney_free(e);
    }
}

/* The half-tour sampler (the path of 8x8) against two other methods on
 * boards both reach: its total equals the frontier sampler's, or the
 * frontier count's where that sampler takes long; every drawn tour is a
 * closed tour; rank inverts unrank on draws and on spread ranks.  Light
 * (valgrind): the two slowest boards left out, a tenth of the draws. */
static void halftours_agree(bool light)
{
    /* width, height, split, compare with the frontier sampler; the slow
     * boards last */
    static const uint32_t boards[][4] = {{6, 6, 3, 1}, {6, 5, 2, 1}, {8, 5, 3, 1}, {8, 5, 2, 1},
                                         {6, 8, 4, 0}, {7, 6, 3, 1}, {8, 6, 3, 0}};
    size_t nb = sizeof boards / sizeof boards[0] - (light ? 2 : 0);
    uint64_t draws = light ? 30 : 300;
    for (size_t i = 0; i < nb; i++) {
        kt_graph *g = NULL;
        kt_sampler *s = NULL, *f = NULL;
        kt_u128 c = {0, 0}, t = {1, 1};
        CHECK_OK(kt_graph_new(&g, boards[i][0], boards[i][1]));
        CHECK_OK(kti_sampler_new_halftours(&s, g, boards[i][2], NULL));
        if (boards[i][3]) {
            CHECK_OK(kt_sampler_new(&f, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL));
            if (f != NULL) CHECK_OK(kt_sampler_total(f, &c));
        } else {
            CHECK_OK(kt_count_tours(g, KT_COUNT_FRONTIER, NULL, &c, NULL));
        }
        if (s != NULL) CHECK_OK(kt_sampler_total(s, &t));
        CHECK(t.lo == c.lo && t.hi == c.hi && c.lo > 0);
        uint64_t n = s != NULL ? total_of(s) : 0;
        if (s != NULL)
            draws_round_trip(s, n, draws, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE);
        kt_u128 over = {n, 0};
        kt_tourney *none = NULL;
        if (s != NULL) CHECK_ST(kt_sampler_unrank(&none, s, &over), KT_ERANGE);
        /* Halves of equal height: without the flip (every type pair
         * joined) the same total, and its own ranks */
        if (boards[i][1] == 2 * boards[i][2]) {
            kt_sampler *nf = NULL;
            CHECK_OK(kti_sampler_new_halftours_flags(&nf, g, boards[i][2], false, KTI_HS_NOFLIP,
                                                     KT_CELL_NONE, KT_CELL_NONE, NULL));
            CHECK(nf != NULL && total_of(nf) == n);
            if (nf != NULL)
                draws_round_trip(nf, n, draws / 10, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE);
            kt_sampler_free(nf);
        }
        kt_sampler_free(s);
        kt_sampler_free(f);
        kt_graph_free(g);
    }
}

/* The open half-tour sampler (the path of 7x7 open) against the frontier
 * sampler on small boards both reach, with and without given ends, and
 * against the counting module's count (its own choice of method; half the
 * directed count without given ends; 6x6: 3,318,960, published) where the
 * frontier sampler is slow (the half-tour count of 8x6 cut as the sampler
 * cuts it, 8 columns, took 7.5 s of the test's 80; the count's own choice
 * 0.9 s):
 * equal totals; draws valid and round trips exact.  Light (valgrind): the
 * slow boards left out, fewer draws. */
static void open_halftours_agree(bool light)
{
    /* width, height, start, end (N: none), compare with the frontier sampler */
    const uint32_t N = KT_CELL_NONE;
    /* 8 columns between two given cells: the path of 8x8 with both ends.
     * One given end: above the cut (the join keeps the lower half's
     * mirror, the upper structures turned to one side of it), on the
     * mirror's axis (both halves keep the mirror) and below the cut
     * (turned above it); and one given end on each side (the join goes
     * without the mirror). */
    const uint32_t boards[][5] = {{5, 5, N, N, 1}, {5, 6, N, N, 1}, {6, 5, 0, N, 1},
                                  {5, 5, 0, 12, 1}, {5, 7, 0, N, 1}, {8, 5, 0, 39, 1},
                                  {5, 5, 2, N, 1},  {5, 5, 20, N, 1}, {5, 5, 0, 24, 1},
                                  {6, 6, 1, N, 0},  {6, 6, 34, N, 0},
                                  {6, 6, N, N, 0},  {6, 6, 0, 5, 0}, {7, 5, N, N, 0},
                                  {8, 6, 0, 46, 0}};
    size_t nb = sizeof boards / sizeof boards[0] - (light ? 6 : 0);
    uint64_t draws = light ? 20 : 200;
    for (size_t i = 0; i < nb; i++) {
        uint32_t w = boards[i][0], h = boards[i][1];
        kt_cell start = boards[i][2], end = boards[i][3];
        kt_graph *g = NULL;
        kt_sampler *s = NULL, *f = NULL;
        kt_u128 c = {0, 0}, t = {1, 1};
        CHECK_OK(kt_graph_new(&g, w, h));
        CHECK_OK(kti_sampler_new_halftours_open(&s, g, h - h / 2, start, end, NULL));
        if (boards[i][4]) {
            CHECK_OK(kt_sampler_new(&f, g, KT_SHAPE_PATH, start, end, NULL));
            if (f != NULL) CHECK_OK(kt_sampler_total(f, &c));
        } else {
            CHECK_OK(kt_count_open_tours(g, start, end, 0, NULL, &c, NULL));
        }
        if (s != NULL) CHECK_OK(kt_sampler_total(s, &t));
        CHECK(t.lo == c.lo && t.hi == c.hi && c.lo > 0);
        if (w == 6 && h == 6 && start == N) CHECK_EQ_U64(t.lo, 3318960);
        if (s != NULL) draws_round_trip(s, total_of(s), draws, KT_SHAPE_PATH, start, end);
        kt_sampler_free(s);
        kt_sampler_free(f);
        kt_graph_free(g);
    }
}

/* The sampler's totals equal kt_count_tours (the counting module's own
 * engine), closed and open. */
static void totals_agree(void)
{
    static const uint32_t boards[][3] = {{5, 6, 0}, {6, 6, 0}, {3, 10, 0}, {3, 12, 0}, {6, 5, 0},
                                         {4, 5, 1}, {5, 5, 1}, {3, 8, 1}, {4, 6, 1}};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        kt_graph *g = NULL;
        kt_sampler *s = NULL;
        kt_u128 c = {0, 0}, t = {1, 1};
        bool open = boards[i][2] != 0;
        CHECK_OK(kt_graph_new(&g, boards[i][0], boards[i][1]));
        CHECK_OK(kt_count_tours(g, open ? KT_COUNT_OPEN : 0, NULL, &c, NULL));
        kt_status st = kt_sampler_new(&s, g, open ? KT_SHAPE_PATH : KT_SHAPE_CYCLES, KT_CELL_NONE,
                                      KT_CELL_NONE, NULL);
        if (c.lo == 0 && c.hi == 0) {
            CHECK_ST(st, KT_ENOTOUR);
        } else {
            CHECK_OK(st);
            CHECK_OK(kt_sampler_total(s, &t));
            CHECK(t.lo == c.lo && t.hi == c.hi);
        }
        kt_sampler_free(s);
        kt_graph_free(g);
    }
}

/* A board with holes: the same agreement, closed and open, and every
 * tour of it drawn by rank valid. */
static void holes_agree(void)
{
    static const char mask[] = "oooooo\noooooo\noo..oo\noooooo\noooooo\noooooo\n";
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_parse_mask(&g, mask, sizeof mask - 1, 2, 1, NULL, NULL));
    for (int open = 0; open < 2 && g != NULL; open++) {
        kt_sampler *s = NULL;
        kt_u128 c = {0, 0}, t = {1, 1};
        CHECK_OK(kt_count_tours(g, open ? KT_COUNT_OPEN : 0, NULL, &c, NULL));
        CHECK_OK(kt_sampler_new(&s, g, open ? KT_SHAPE_PATH : KT_SHAPE_CYCLES, KT_CELL_NONE,
                                KT_CELL_NONE, NULL));
        CHECK_OK(kt_sampler_total(s, &t));
        CHECK(t.lo == c.lo && t.hi == c.hi && c.lo > 0);
        for (uint64_t i = 0; i < 50 && s != NULL; i++) {
            kt_tourney *d = NULL;
            CHECK_OK(kt_sampler_draw(&d, s, 3, i));
            CHECK(d != NULL && (open ? kt_tourney_is_open_tour(d) : kt_tourney_is_closed_tour(d)));
            kt_tourney_free(d);
        }
        kt_sampler_free(s);
    }
    kt_graph_free(g);
}

/* Open tours with given ends, summed: over the ends b of tours from a, the
 * tours from a; over the starts a, twice the open tours. */
static void ends_agree(uint32_t w, uint32_t h)
{
    kt_graph *g = NULL;
    kt_sampler *s = NULL;
    CHECK_OK(kt_graph_new(&g, w, h));
    CHECK_OK(kt_sampler_new(&s, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, NULL));
    uint64_t all = s ? total_of(s) : 0, sum_from = 0;
    kt_sampler_free(s);
    s = NULL;
    size_t n = kt_graph_cell_count(g);
    for (kt_cell a = 0; a < n; a++) {
        uint64_t from = 0, sum_to = 0;
        kt_status st = kt_sampler_new(&s, g, KT_SHAPE_PATH, a, KT_CELL_NONE, NULL);
        CHECK(st == KT_OK || st == KT_ENOTOUR);
        if (st == KT_OK) from = total_of(s);
        kt_sampler_free(s);
        s = NULL;
        for (kt_cell b = 0; b < n; b++) {
            if (b == a) continue;
            st = kt_sampler_new(&s, g, KT_SHAPE_PATH, b, a, NULL);
            CHECK(st == KT_OK || st == KT_ENOTOUR);
            if (st == KT_OK) sum_to += total_of(s);
            kt_sampler_free(s);
            s = NULL;
        }
        CHECK_EQ_U64(sum_to, from);
        sum_from += from;
    }
    CHECK_EQ_U64(sum_from, 2 * all);
    kt_graph_free(g);
}

static int cancel_now(void *user, uint64_t done, uint64_t total)
{
    (void)user;
    (void)done;
    (void)total;
    return 1;
}

static void errors(void)
{
    kt_graph *g = NULL, *g8 = NULL, *g5 = NULL;
    kt_sampler *s = NULL;
    kt_options *run = NULL;
    CHECK_OK(kt_graph_new(&g, 6, 6));
    CHECK_OK(kt_graph_new(&g5, 5, 5));
    /* 9 columns: too wide for half-tours, and the frontier would need 17 cells */
    CHECK_OK(kt_graph_new(&g8, 9, 10));
    CHECK_ST(kt_sampler_new(NULL, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL), KT_EINVAL);
    CHECK_ST(kt_sampler_new(&s, NULL, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL), KT_EINVAL);
    CHECK_ST(kt_sampler_new(&s, g, KT_SHAPE_CYCLES, 0, KT_CELL_NONE, NULL), KT_EINVAL);
    CHECK_ST(kt_sampler_new(&s, g, KT_SHAPE_PATH, 3, 3, NULL), KT_EINVAL);
    CHECK_ST(kt_sampler_new(&s, g, KT_SHAPE_PATH, 36, KT_CELL_NONE, NULL), KT_EINVAL);
    CHECK_ST(kt_sampler_new(&s, g8, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL), KT_EUNSUPPORTED);
    /* 8x8 open with an end free is taken by half-tours (hours): a budget
     * of states stops its first half at once.  8x9 open is not: too tall
     * for that path, and its frontier would need 17 cells. */
    kt_graph *g88 = NULL, *g89 = NULL;
    CHECK_OK(kt_graph_new(&g88, 8, 8));
    CHECK_OK(kt_graph_new(&g89, 8, 9));
    CHECK_OK(kt_options_new(&run, NULL));
    CHECK_OK(kt_options_set_budget(run, 1000));
    CHECK_ST(kt_sampler_new(&s, g88, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, run), KT_ELIMIT);
    CHECK_ST(kt_sampler_new(&s, g88, KT_SHAPE_PATH, 0, KT_CELL_NONE, run), KT_ELIMIT);
    CHECK_ST(kt_sampler_new(&s, g88, KT_SHAPE_PATH, KT_CELL_NONE, 63, run), KT_ELIMIT);
    kt_options_free(run);
    run = NULL;
    CHECK(s == NULL);
    CHECK_ST(kt_sampler_new(&s, g89, KT_SHAPE_PATH, 0, KT_CELL_NONE, NULL), KT_EUNSUPPORTED);
    /* kt_sampler_draw_from: open samplers only, a vertex, an end the
     * colours allow (5x5: the 12 cells of the smaller colour end no tour) */
    {
        kt_sampler *c = NULL, *o = NULL;
        kt_tourney *t = NULL;
        CHECK_OK(kt_sampler_new(&c, g5, KT_SHAPE_PATH,
                                KT_CELL_NONE, KT_CELL_NONE, NULL));
        CHECK_OK(kt_sampler_new(&o, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL));
        CHECK_ST(kt_sampler_draw_from(NULL, c, 0, 1, 0, NULL), KT_EINVAL);
        CHECK_ST(kt_sampler_draw_from(&t, NULL, 0, 1, 0, NULL), KT_EINVAL);
        CHECK_ST(kt_sampler_draw_from(&t, o, 0, 1, 0, NULL), KT_EINVAL); /* closed tours */
        CHECK_ST(kt_sampler_draw_from(&t, c, 25, 1, 0, NULL), KT_EINVAL);
        CHECK_ST(kt_sampler_draw_from(&t, c, 1, 1, 0, NULL), KT_ENOTOUR);
        CHECK(t == NULL);
        CHECK_OK(kt_sampler_draw_from(&t, c, 12, 1, 0, NULL));
        kt_cell a = KT_CELL_NONE, b = KT_CELL_NONE;
        CHECK(t != NULL && kt_tourney_is_open_tour(t) && kt_tourney_ends(t, &a, &b) == KT_OK &&
              (a == 12 || b == 12));
        kt_tourney_free(t);
        kt_sampler_free(c);
        kt_sampler_free(o);
    }
    CHECK_ST(kt_sampler_new(&s, g89, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, NULL), KT_EUNSUPPORTED);
    kt_graph_free(g89);
    /* ends of one colour on a board of as many of each: no tour, said at
     * once (by half-tours it would take the whole preparation) */
    CHECK_ST(kt_sampler_new(&s, g88, KT_SHAPE_PATH, 0, 9, NULL), KT_ENOTOUR);
    /* 5x5: no closed tour (odd), and no open tour between two cells of the minority colour */
    CHECK_ST(kt_sampler_new(&s, g5, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL), KT_ENOTOUR);
    CHECK_ST(kt_sampler_new(&s, g5, KT_SHAPE_PATH, 1, 3, NULL), KT_ENOTOUR);
    CHECK_ST(kt_sampler_new(&s, g5, KT_SHAPE_PATH, KT_CELL_NONE, 1, NULL), KT_ENOTOUR);
    CHECK(s == NULL);
    CHECK_OK(kt_options_new(&run, NULL));
    CHECK_OK(kt_options_set_budget(run, 50));
    CHECK_ST(kt_sampler_new(&s, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, run), KT_ELIMIT);
    CHECK_OK(kt_options_set_budget(run, 0));
    CHECK_OK(kt_options_set_progress(run, cancel_now, NULL));
    /* the first report comes after about 50 ms: 6x7 takes longer than that */
    kt_graph *g67 = NULL;
    CHECK_OK(kt_graph_new(&g67, 6, 7));
    CHECK_ST(kt_sampler_new(&s, g67, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, run), KT_ECANCELED);
    kt_graph_free(g67);
    /* 8x8 open between two given cells is prepared (by half-tours: 20
     * minutes, so cancelled here) */
    CHECK_ST(kt_sampler_new(&s, g88, KT_SHAPE_PATH, 0, 62, run), KT_ECANCELED);
    /* ... and with both ends free (merged halves in shards: hours) */
    CHECK_ST(kt_sampler_new(&s, g88, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, run), KT_ECANCELED);
    kt_graph_free(g88);
    CHECK(s == NULL);
    kt_sampler_free(NULL);

    CHECK_OK(kt_sampler_new(&s, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL));
    kt_tourney *t = NULL, *u = NULL;
    kt_u128 r = {9862, 0};
    CHECK_ST(kt_sampler_unrank(&t, s, &r), KT_ERANGE);
    CHECK(t == NULL);
    CHECK_ST(kt_sampler_draw(NULL, s, 1, 0), KT_EINVAL);
    CHECK_ST(kt_sampler_draw(&t, NULL, 1, 0), KT_EINVAL);
    /* reproducible: the same seed and index give the same tour */
    CHECK_OK(kt_sampler_draw(&t, s, 42, 7));
    CHECK_OK(kt_sampler_draw(&u, s, 42, 7));
    CHECK(t && u && kt_tourney_equal(t, u));
    kt_tourney_free(u);
    u = NULL;
    /* a tour of another board, and a cycle cover that is not a tour */
    kt_sampler *s5 = NULL;
    CHECK_OK(kt_sampler_new(&s5, g5, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, NULL));
    CHECK_ST(kt_sampler_rank(s5, t, &r), KT_EMISMATCH);
    kt_u128 zero = {0, 0};
    CHECK_OK(kt_sampler_unrank(&u, s5, &zero));
    kt_graph *g5b = NULL;
    kt_sampler *s5b = NULL;
    CHECK_OK(kt_graph_new(&g5b, 5, 5));
    CHECK_OK(kt_sampler_new(&s5b, g5b, KT_SHAPE_PATH, 12, KT_CELL_NONE, NULL));
    kt_cell a = 0, b = 0;
    CHECK_OK(kt_tourney_ends(u, &a, &b));
    if (a != 12 && b != 12) CHECK_ST(kt_sampler_rank(s5b, u, &r), KT_EBADTOUR);
    kt_sample_stats st;
    CHECK_OK(kt_sampler_stats(s, &st));
    CHECK(st.states > 36 && st.bytes == 24 * st.states && st.peak_bytes > 0 && st.peak_states > 0);
    CHECK_ST(kt_sampler_stats(s, NULL), KT_EINVAL);
    kt_sampler_free(s5b);
    kt_graph_free(g5b);
    kt_tourney_free(t);
    kt_tourney_free(u);
    kt_sampler_free(s5);
    kt_sampler_free(s);
    kt_options_free(run);
    kt_graph_free(g);
    kt_graph_free(g5);
    kt_graph_free(g8);
}

/* No half listed against both listed: the same totals (the join is the
 * same), every draw a tour of the kind, ranks inverting unranks; merged
 * (the last column): the halves' structures merged, in shards where a
 * half has 4 rows, which must not change the total either (5x8 from a
 * corner: 6x8 took a quarter of the test, 16 s of it listing its halves). */
static void unlisted_agree(bool light)
{
    const uint32_t N = KT_CELL_NONE;
    /* width, height, open, start, end, merged */
    const uint32_t boards[][6] = {{6, 6, 0, N, N, 0},  {5, 6, 1, N, N, 0},  {6, 5, 1, 0, N, 0},
                                  {5, 6, 1, N, N, 1},  {6, 5, 1, 0, N, 1},  {6, 6, 1, N, N, 0},
                                  {8, 5, 1, 0, 39, 0}, {5, 8, 1, N, N, 1}, {5, 8, 1, 0, N, 1}};
    size_t nb = sizeof boards / sizeof boards[0] - (light ? 4 : 0);
    for (size_t i = 0; i < nb; i++) {
        uint32_t w = boards[i][0], h = boards[i][1];
        bool open = boards[i][2] != 0, merged = boards[i][5] != 0;
        kt_cell start = boards[i][3], end = boards[i][4];
        uint32_t split = open ? h - h / 2 : h / 2;
        kt_graph *g = NULL;
        kt_sampler *s = NULL, *l = NULL;
        kt_u128 a = {0, 0}, b = {1, 1};
        CHECK_OK(kt_graph_new(&g, w, h));
        CHECK_OK(kti_sampler_new_halftours_flags(&s, g, split, open, hs_flags(merged, true), start,
                                                 end, NULL));
        if (open) CHECK_OK(kti_sampler_new_halftours_open(&l, g, split, start, end, NULL));
        else CHECK_OK(kti_sampler_new_halftours(&l, g, split, NULL));
        if (s != NULL) CHECK_OK(kt_sampler_total(s, &a));
        if (l != NULL) CHECK_OK(kt_sampler_total(l, &b));
        CHECK(a.lo == b.lo && a.hi == b.hi && a.lo > 0);
        if (s != NULL)
            draws_round_trip(s, total_of(s), light ? 10 : 100, open ? KT_SHAPE_PATH : KT_SHAPE_CYCLES,
                             start, end);
        /* A draw's proposals find the partner at a weight in the order of
         * the type's search, however the blocks cut it: blocks of 4 pairs
         * (each search resumed mid-type) and of 65,536 (one block a type,
         * here) give the same tours (on the boards of up to 36 cells: a
         * second sampler of the larger ones would double the test's time). */
        kt_sampler *u = NULL;
        if (open && s != NULL && w * h <= 36)
            CHECK_OK(kti_sampler_new_halftours_flags(&u, g, split, open, hs_flags(merged, false),
                                                     start, end, NULL));
        for (uint64_t k = 0; u != NULL && k < (light ? 20u : 200u); k++) {
            kt_tourney *d = NULL, *e = NULL;
            CHECK_OK(kt_sampler_draw(&d, s, 77, k));
            CHECK_OK(kt_sampler_draw(&e, u, 77, k));
            CHECK(d != NULL && e != NULL && kt_tourney_equal(d, e));
            kt_tourney_free(d);
            kt_tourney_free(e);
        }
        kt_sampler_free(u);
        kt_sampler_free(s);
        kt_sampler_free(l);
        kt_graph_free(g);
    }
}

/* Two parts, run as two tests so that the suite's longest test is split
 * over both cores (under valgrind it was 4 minutes alone); no argument
 * runs both. */
int main(int argc, char **argv)
{
    /* KT_TEST_LIGHT (valgrind): a tenth of the draws, the same tests at
     * lower power; every draw is still validated. */
    unsigned k = getenv("KT_TEST_LIGHT") != NULL ? 10 : 1;
    const char *part = argc > 1 ? argv[1] : "all";
    bool counts = strcmp(part, "uniform") != 0, uniform = strcmp(part, "counts") != 0;
    if (strcmp(part, "all") != 0 && strcmp(part, "counts") != 0 && strcmp(part, "uniform") != 0) {
        fprintf(stderr, "usage: test_sample [counts|uniform]\n");
        return 2;
    }
    if (counts) {
        /* The samplers' totals and tours against the counts, and the
         * paths that list no half against those that do */
        totals_agree();
        holes_agree();
        ends_agree(4, 5);
        ends_agree(3, 7);
        errors();
        halftours_agree(k > 1);
        halftour_shards();
        unlisted_agree(k > 1);
    }
    if (!uniform) return check_done("sample counts");
    /* Open tours by half-tours against the counts, then the chi-square tests */
    open_halftours_agree(k > 1);
    /* 6x6 closed: all 9,862, by the frontier and by half-tours */
    case_uniform(6, 6, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, 9862, 50 / k, 2026);
    case_uniform_by(BY_HALVES, 6, 6, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, 9862, 50 / k, 2027);
    /* 5x5 open: any ends; from the corner; from the corner to the centre */
    case_uniform(5, 5, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, 0, 100 / k, 7);
    case_uniform(5, 5, KT_SHAPE_PATH, 0, KT_CELL_NONE, 304, 200 / k, 8);
    case_uniform(5, 5, KT_SHAPE_PATH, 0, 12, 0, 500 / k, 9);
    /* 5x5 open by half-tours (the path of 7x7 open): all 864, and from the corner */
    case_uniform_by(BY_HALVES, 5, 5, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, 864, 100 / k, 10);
    case_uniform_by(BY_HALVES, 5, 5, KT_SHAPE_PATH, 0, KT_CELL_NONE, 304, 200 / k, 11);
    /* The same with no half listed: all 864 and all 304 again */
    case_uniform_by(BY_HALVES_UNLISTED, 5, 5, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, 864,
                    40 / k, 12);
    case_uniform_by(BY_HALVES_UNLISTED, 5, 5, KT_SHAPE_PATH, 0, KT_CELL_NONE, 304, 60 / k, 13);
    /* The same merged, as the halves of open 8x8 are */
    case_uniform_by(BY_HALVES_MERGED, 5, 5, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, 864,
                    30 / k, 14);
    case_uniform_by(BY_HALVES_MERGED, 5, 5, KT_SHAPE_PATH, 0, KT_CELL_NONE, 304, 40 / k, 15);
    /* Halves of equal height, no given end: the join keeps one of each two
     * partners the up-down flip swaps and draws flip half of the others'
     * tours (6x6 closed above too): all 744 open tours of 6x4 (listed
     * halves, draws by the proposals) and of 4x6 (merged, unlisted) */
    case_uniform_by(BY_HALVES, 6, 4, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, 744, 60 / k, 16);
    case_uniform_by(BY_HALVES_MERGED, 4, 6, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, 744,
                    40 / k, 17);
    /* Open tours with a given end drawn from a sampler of every open tour
     * (kt_sampler_draw_from): all 304 of 5x5 from the corner and 56 from
     * (1,1), and the 220 of 4x6 from (0,5) by merged half-tours (the path
     * of 8x8) */
    case_draw_from(BY_FRONTIER, 5, 5, NULL, KT_CELL_NONE, 0, 304, 100 / k, 18);
    case_draw_from(BY_FRONTIER, 5, 5, NULL, KT_CELL_NONE, 6, 56, 200 / k, 19);
    case_draw_from(BY_HALVES_MERGED, 4, 6, NULL, KT_CELL_NONE, 20, 220, 60 / k, 20);
    /* The symmetries that keep the sampler's tours, only: with one given
     * end (the corner of 5x5, kept by the transposition alone; the tours
     * from it to (2,0)) and with a hole (5x5 without its corner: again
     * the transposition; the tours from (1,2)) */
    case_draw_from(BY_FRONTIER, 5, 5, NULL, 0, 2, 0, 200 / k, 21);
    {
        uint8_t holed[25];
        memset(holed, 1, sizeof holed);
        holed[0] = 0;
        case_draw_from(BY_FRONTIER, 5, 5, holed, KT_CELL_NONE, 11, 0, 100 / k, 22);
    }
    return check_done(counts ? "sample" : "sample uniform");
}
