/* SPDX-License-Identifier: MIT */
/* Rails, switching, join, shatter and obfuscate. */
#include <knight/knight.h>

#include "check.h"
#include "rails_boards.h"

#include <stdlib.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------- */

static uint8_t *pairs_of(const kt_tourney *t)
{
    size_t n = kt_graph_cell_count(kt_tourney_graph(t));
    uint8_t *mv = malloc(n);
    if (mv != NULL && kt_tourney_move_pairs(t, mv, n) != KT_OK) {
        free(mv);
        return NULL;
    }
    return mv;
}

/* Size by an independent rebuild (full validation and recount). */
static size_t recount(const kt_tourney *t)
{
    const kt_graph *g = kt_tourney_graph(t);
    size_t n = kt_graph_cell_count(g);
    uint8_t *mv = pairs_of(t);
    kt_tourney *u = NULL;
    size_t size = 0;
    if (mv != NULL && kt_tourney_from_move_pairs(&u, g, mv, n, NULL) == KT_OK)
        size = kt_tourney_size(u);
    kt_tourney_free(u);
    free(mv);
    return size;
}

static bool is_valid_tour(const kt_tourney *t)
{
    return kt_tourney_shape(t) == KT_SHAPE_CYCLES && kt_tourney_size(t) == 1 && recount(t) == 1;
}

static int has_edge(const uint8_t *mv, const kt_graph *g, kt_cell c, kt_cell d)
{
    int m = kt_graph_move(g, c, d);
    if (m < 0) return 0;
    return (mv[c] & 15) == m || (mv[c] >> 4) == m;
}

/* Rails by brute force: every unordered pair of disjoint tourney edges
 * {p,q}, {r,s} whose other two sides p-r, q-s (or p-s, q-r) are knight
 * edges not in the tourney is one rail (a knight 4-cycle alternating
 * between tourney edges and non-edges). */
static uint64_t brute_rails(const kt_tourney *t)
{
    const kt_graph *g = kt_tourney_graph(t);
    size_t n = kt_graph_cell_count(g);
    uint8_t *mv = pairs_of(t);
    kt_cell (*e)[2] = malloc(n * sizeof *e);
    size_t ne = 0;
    for (kt_cell c = 0; c < n; c++) {
        kt_cell a, b;
        if (kt_tourney_neighbors(t, c, &a, &b) != KT_OK) continue;
        if (a != KT_CELL_NONE && a > c) e[ne][0] = c, e[ne][1] = a, ne++;
        if (b != KT_CELL_NONE && b > c) e[ne][0] = c, e[ne][1] = b, ne++;
    }
    uint64_t count = 0;
    for (size_t i = 0; i < ne; i++)
        for (size_t j = i + 1; j < ne; j++) {
            kt_cell p = e[i][0], q = e[i][1], r = e[j][0], s = e[j][1];
            if (p == r || p == s || q == r || q == s) continue;
            for (int k = 0; k < 2; k++) {
                kt_cell x = k ? s : r, y = k ? r : s; /* p-x and q-y */
                if (kt_graph_move(g, p, x) >= 0 && kt_graph_move(g, q, y) >= 0 &&
                    !has_edge(mv, g, p, x) && !has_edge(mv, g, q, y))
                    count++;
            }
        }
    free(e);
    free(mv);
    return count;
}

static kt_tourney *block_tour(uint32_t w, uint32_t h)
{
    kt_graph *g = NULL;
    kt_tourney *t = NULL;
    CHECK_OK(kt_graph_new(&g, w, h));
    CHECK_OK(kt_block_tourney(&t, g));
    kt_graph_free(g);
    if (t == NULL) return NULL;
    CHECK_OK(kt_rails_join(t, 12345, NULL));
    CHECK(is_valid_tour(t));
    return t;
}

static kt_tourney *from_pairs(uint32_t w, uint32_t h, const uint8_t *mv)
{
    kt_graph *g = NULL;
    kt_tourney *t = NULL;
    CHECK_OK(kt_graph_new(&g, w, h));
    CHECK_OK(kt_tourney_from_move_pairs(&t, g, mv, (size_t)w * h, NULL));
    kt_graph_free(g);
    return t;
}

/* ---- tests ---------------------------------------------------------- */

/* Rail counts: the O(cells) scan, the handle and a brute force agree. */
static void test_counts(void)
{
    static const uint32_t boards[][2] = {{6, 6}, {8, 8}, {6, 8}, {8, 6}, {10, 10}, {12, 6}};
    for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
        uint32_t w = boards[b][0], h = boards[b][1];
        kt_graph *g = NULL;
        kt_tourney *blk = NULL;
        CHECK_OK(kt_graph_new(&g, w, h));
        CHECK_OK(kt_block_tourney(&blk, g));
        kt_tourney *tour = block_tour(w, h);
        for (int variant = 0; variant < 12; variant++) {
            kt_tourney *t = NULL;
            CHECK_OK(kt_tourney_copy(&t, variant == 0 ? blk : tour));
            if (variant >= 2) CHECK_OK(kt_rails_shatter(t, (uint64_t)variant * 77));
            if (variant >= 6) CHECK_OK(kt_rails_obfuscate(t, 3, (uint64_t)variant, NULL));
            uint64_t fast = 0;
            CHECK_OK(kt_rails_count_tourney(t, &fast));
            uint64_t brute = brute_rails(t);
            CHECK_EQ_U64(fast, brute);
            kt_rails *r = NULL;
            CHECK_OK(kt_rails_new(&r, t));
            CHECK_EQ_U64(kt_rails_count(r), brute);
            uint64_t by[4][4], sum = 0;
            CHECK_OK(kt_rails_counts(r, by));
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) {
                    sum += by[i][j];
                    if (i == j) CHECK_EQ_U64(by[i][j], 0);
                }
            CHECK_EQ_U64(sum, brute);
            for (size_t i = 0; i < kt_rails_count(r); i++) {
                kt_rail rl;
                kt_cell cells[4];
                CHECK_OK(kt_rails_get(r, i, &rl));
                CHECK(kt_rails_is_rail(t, rl));
                CHECK_OK(kt_rails_cells(g, rl, cells));
                CHECK(kt_tourney_has_edge(t, cells[0], cells[1]));
                CHECK(kt_tourney_has_edge(t, cells[3], cells[2]));
                CHECK(!kt_tourney_has_edge(t, cells[0], cells[3]));
                CHECK(!kt_tourney_has_edge(t, cells[1], cells[2]));
            }
            kt_rails_free(r);
            kt_tourney_free(t);
        }
        kt_tourney_free(blk);
        kt_tourney_free(tour);
        kt_graph_free(g);
    }
}

/* Switching every rail and back restores the tourney, with the size exact
 * and the effect right; a long random walk of switches keeps the size and
 * the cycle ids exact. */
static void test_switch(void)
{
    static const uint32_t boards[][2] = {{6, 6}, {8, 8}, {10, 12}, {30, 32}};
    for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
        uint32_t w = boards[b][0], h = boards[b][1];
        kt_tourney *tour = block_tour(w, h);
        for (int variant = 0; variant < 3; variant++) {
            kt_tourney *t = NULL, *orig = NULL;
            CHECK_OK(kt_tourney_copy(&t, tour));
            if (variant) CHECK_OK(kt_rails_shatter(t, (uint64_t)variant));
            CHECK_OK(kt_tourney_copy(&orig, t));
            kt_rails *r = NULL;
            CHECK_OK(kt_rails_new(&r, t));
            size_t n = kt_rails_count(r);
            for (size_t i = 0; i < n; i++) {
                kt_rail rl, back;
                CHECK_OK(kt_rails_get(r, i, &rl));
                size_t before = kt_tourney_size(t);
                int joins = -1;
                CHECK_OK(kt_rails_joins(r, rl, &joins, NULL, NULL));
                CHECK(joins == 0 || joins == 1);
                kt_rails_effect eff;
                CHECK_OK(kt_rails_switch(r, rl, &eff));
                size_t after = kt_tourney_size(t);
                CHECK_EQ_U64(after, recount(t));
                if (eff == KT_RAILS_MERGE) CHECK(joins == 1 && after + 1 == before);
                if (eff == KT_RAILS_SPLIT) CHECK(joins == 0 && after == before + 1);
                if (eff == KT_RAILS_KEEP) CHECK(joins == 0 && after == before);
                CHECK(!kt_rails_is_rail(t, rl));
                back = (kt_rail){rl.top, rl.cross, rl.primary};
                CHECK(kt_rails_is_rail(t, back));
                CHECK_OK(kt_rails_switch(r, back, NULL));
                CHECK(kt_tourney_equal(t, orig));
                CHECK_EQ_U64(kt_tourney_size(t), before);
            }
            /* not a rail any more: refused, nothing changes */
            if (n > 0) {
                kt_rail rl;
                CHECK_OK(kt_rails_get(r, 0, &rl));
                kt_rail bogus = {rl.top, rl.cross, rl.primary};
                CHECK_ST(kt_rails_switch(r, bogus, NULL), KT_EINVAL);
                CHECK(kt_tourney_equal(t, orig));
            }
            /* random walk */
            uint64_t x = 0x9E3779B97F4A7C15u * (b + 1) + (uint64_t)variant;
            size_t gcells = (size_t)w * h;
            uint32_t *lab = malloc(gcells * sizeof *lab);
            for (int step = 0; step < 600; step++) {
                CHECK_OK(kt_rails_refresh(r));
                size_t k = kt_rails_count(r);
                if (k == 0) break;
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                kt_rail rl;
                CHECK_OK(kt_rails_get(r, (size_t)(x % k), &rl));
                /* several switches between refreshes exercise the lazy numbering */
                for (int rep = 0; rep < 4; rep++) {
                    if (kt_rails_is_rail(t, rl)) CHECK_OK(kt_rails_switch(r, rl, NULL));
                    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                    CHECK_OK(kt_rails_get(r, (size_t)(x % k), &rl));
                }
                CHECK_EQ_U64(kt_tourney_size(t), recount(t));
                if (step % 50 == 0) {
                    /* cycle ids agree with the labels */
                    CHECK_OK(kt_tourney_cycle_labels(t, lab, gcells));
                    for (kt_cell c = 0; c + 1 < gcells; c++) {
                        uint32_t i1, i2;
                        CHECK_OK(kt_rails_cycle(r, c, &i1));
                        CHECK_OK(kt_rails_cycle(r, c + 1, &i2));
                        CHECK((i1 == i2) == (lab[c] == lab[c + 1]));
                    }
                }
            }
            /* long runs of switches inside cycles (no merges), refreshing
             * rarely: the numbering kept across splits and rewirings */
            for (int round = 0; round < 20; round++) {
                CHECK_OK(kt_rails_refresh(r));
                size_t k = kt_rails_count(r);
                for (int step = 0; step < 60 && k > 0; step++) {
                    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                    kt_rail rl;
                    CHECK_OK(kt_rails_get(r, (size_t)(x % k), &rl));
                    int joins = 0;
                    if (kt_rails_joins(r, rl, &joins, NULL, NULL) != KT_OK || joins) continue;
                    size_t before = kt_tourney_size(t);
                    kt_rails_effect eff;
                    CHECK_OK(kt_rails_switch(r, rl, &eff));
                    size_t after = recount(t);
                    CHECK_EQ_U64(kt_tourney_size(t), after);
                    CHECK(eff == KT_RAILS_SPLIT ? after == before + 1 : after == before);
                }
            }
            free(lab);
            kt_rails_free(r);
            kt_tourney_free(orig);
            kt_tourney_free(t);
        }
        kt_tourney_free(tour);
    }
}

/* Join and obfuscate over every even n from 6 to 32 and rectangles. */
static void test_join_many(void)
{
    const char *env = getenv("KT_RAILS_RUNS");
    unsigned scale = env ? (unsigned)strtoul(env, NULL, 10) : 5;
    if (scale == 0) scale = 1;
    uint32_t boards[64][2];
    size_t nb = 0;
    for (uint32_t n = 6; n <= 32; n += 2) boards[nb][0] = boards[nb][1] = n, nb++;
    static const uint32_t rect[][2] = {{6, 8},  {8, 6},   {6, 10}, {10, 6},  {8, 10},
                                       {6, 12}, {12, 8},  {10, 14}, {6, 20}, {20, 6},
                                       {16, 30}, {8, 32}};
    for (size_t i = 0; i < sizeof rect / sizeof rect[0]; i++)
        boards[nb][0] = rect[i][0], boards[nb][1] = rect[i][1], nb++;
    unsigned long runs = 0, ok = 0;
    for (size_t b = 0; b < nb; b++) {
        uint32_t w = boards[b][0], h = boards[b][1];
        kt_tourney *tour = block_tour(w, h);
        unsigned reps = (w * h <= 64 ? 600 : w * h <= 256 ? 60 : 12) * scale;
        for (unsigned s = 0; s < reps; s++) {
            kt_tourney *t = NULL;
            CHECK_OK(kt_tourney_copy(&t, tour));
            kt_status st;
            if (s % 3 == 0) {
                st = kt_rails_shatter(t, s);
                CHECK(st == KT_OK);
                CHECK_EQ_U64(kt_tourney_size(t), recount(t));
                st = kt_rails_join(t, s + 1, NULL);
            } else {
                st = kt_rails_obfuscate(t, s % 3 == 1 ? 0 : 1 + s % 5, s, NULL);
            }
            runs++;
            if (st == KT_OK && is_valid_tour(t)) ok++;
            else fprintf(stderr, "join/obfuscate failed on %ux%u seed %u: %s\n", w, h, s, kt_status_name(st));
            kt_tourney_free(t);
        }
        kt_tourney_free(tour);
    }
    CHECK_EQ_U64(ok, runs);
    printf("join/obfuscate: %lu runs, %lu valid closed tours\n", runs, ok);
}

/* Tourneys whose rail graph has no edge: the original join never ends on
 * them.  Found by search with this library (random joins and simulated
 * annealing over rail switches) and frozen here. */
static const uint8_t stuck_6x6[36] = { /* an 8-cycle and a 28-cycle */
    0x76, 0x76, 0x76, 0x76, 0x64, 0x54, 0x76, 0x65, 0x30, 0x30, 0x53, 0x53,
    0x76, 0x52, 0x32, 0x72, 0x21, 0x52, 0x61, 0x52, 0x32, 0x71, 0x61, 0x53,
    0x71, 0x72, 0x74, 0x74, 0x41, 0x43, 0x10, 0x20, 0x30, 0x30, 0x31, 0x32,
};
static const uint8_t stuck_8x8[64] = { /* a 4-cycle and a 60-cycle */
    0x76, 0x65, 0x76, 0x64, 0x76, 0x76, 0x64, 0x54, 0x76, 0x60, 0x73, 0x64, 0x30, 0x40,
    0x63, 0x53, 0x71, 0x20, 0x32, 0x20, 0x32, 0x42, 0x21, 0x52, 0x76, 0x52, 0x32, 0x40,
    0x42, 0x75, 0x41, 0x42, 0x76, 0x50, 0x30, 0x65, 0x70, 0x40, 0x61, 0x43, 0x61, 0x52,
    0x63, 0x60, 0x71, 0x60, 0x63, 0x54, 0x71, 0x72, 0x41, 0x74, 0x42, 0x70, 0x43, 0x42,
    0x10, 0x20, 0x30, 0x32, 0x20, 0x30, 0x21, 0x32,
};

static const uint8_t stuck_8x8_32[64] = { /* two interleaved 32-cycles */
    0x76, 0x65, 0x64, 0x65, 0x75, 0x65, 0x64, 0x54, 0x60, 0x65, 0x43, 0x76, 0x50, 0x60,
    0x63, 0x54, 0x10, 0x52, 0x21, 0x21, 0x21, 0x30, 0x21, 0x42, 0x71, 0x72, 0x72, 0x71,
    0x72, 0x50, 0x21, 0x52, 0x61, 0x65, 0x43, 0x43, 0x53, 0x53, 0x63, 0x54, 0x60, 0x50,
    0x65, 0x65, 0x71, 0x50, 0x61, 0x54, 0x71, 0x72, 0x42, 0x71, 0x71, 0x70, 0x31, 0x42,
    0x10, 0x21, 0x31, 0x32, 0x21, 0x30, 0x31, 0x32,
};

static void check_stuck(uint32_t w, uint32_t h, const uint8_t *mv)
{
    kt_tourney *t = from_pairs(w, h, mv);
    if (t == NULL) return;
    CHECK_EQ_U64(kt_tourney_size(t), 2);
    kt_rails *r = NULL;
    CHECK_OK(kt_rails_new(&r, t));
    size_t edges = 99, comps = 99;
    CHECK_OK(kt_rails_graph(r, &edges, &comps));
    CHECK_EQ_U64(edges, 0);
    CHECK_EQ_U64(comps, 2);
    CHECK(kt_rails_count(r) > 0);
    kt_rails_free(r);
    for (uint64_t s = 0; s < 200; s++) {
        kt_tourney *u = NULL;
        CHECK_OK(kt_tourney_copy(&u, t));
        CHECK_OK(kt_rails_join(u, s, NULL));
        CHECK(is_valid_tour(u));
        kt_tourney_free(u);
    }
    kt_tourney_free(t);
}

static void test_stuck(void)
{
    check_stuck(6, 6, stuck_6x6);
    check_stuck(8, 8, stuck_8x8);
    check_stuck(8, 8, stuck_8x8_32);
    /* its cycles have 32 cells each */
    kt_tourney *t = from_pairs(8, 8, stuck_8x8_32);
    uint32_t lab[64];
    size_t n0 = 0;
    CHECK_OK(kt_tourney_cycle_labels(t, lab, 64));
    for (int i = 0; i < 64; i++) n0 += lab[i] == 0;
    CHECK_EQ_U64(n0, 32);
    kt_tourney_free(t);
}

static void test_no_tour(void)
{
    /* 4x8: tourneys exist, closed tours do not (Schwenk). */
    kt_graph *g = NULL;
    kt_tourney *t = NULL, *orig = NULL;
    CHECK_OK(kt_graph_new(&g, 8, 4));
    CHECK_OK(kt_block_tourney(&t, g));
    CHECK_OK(kt_tourney_copy(&orig, t));
    CHECK_ST(kt_rails_join(t, 1, NULL), KT_ENOTOUR);
    CHECK(kt_tourney_equal(t, orig));
    CHECK_EQ_U64(kt_tourney_size(t), kt_tourney_size(orig));
    CHECK_ST(kt_rails_obfuscate(t, 0, 1, NULL), KT_ENOTOUR);
    CHECK(kt_tourney_equal(t, orig));
    CHECK_OK(kt_rails_shatter(t, 3)); /* shattering is fine */
    CHECK_EQ_U64(kt_tourney_size(t), recount(t));
    kt_tourney_free(t);
    kt_tourney_free(orig);
    kt_graph_free(g);

    /* 12x8 with the middle four columns removed: two separate 4x8 halves. */
    uint8_t mask[96], mv[96];
    kt_graph *full = NULL;
    kt_tourney *ft = NULL;
    CHECK_OK(kt_graph_new(&full, 12, 8));
    CHECK_OK(kt_block_tourney(&ft, full));
    CHECK_OK(kt_tourney_move_pairs(ft, mv, 96));
    for (int c = 0; c < 96; c++) {
        int x = c % 12;
        mask[c] = (uint8_t)(x < 4 || x >= 8);
        if (!mask[c]) mv[c] = 0xFF;
    }
    CHECK_OK(kt_graph_new_custom(&g, 12, 8, 2, 1, mask, NULL));
    CHECK_OK(kt_tourney_from_move_pairs(&t, g, mv, 96, NULL));
    CHECK_OK(kt_tourney_copy(&orig, t));
    CHECK_ST(kt_rails_join(t, 1, NULL), KT_ENOTOUR);
    CHECK(kt_tourney_equal(t, orig));
    kt_tourney_free(t);
    kt_tourney_free(orig);
    kt_graph_free(g);

    /* 20x4 given through a mask (80 vertices: too many for the exact
     * search, and Schwenk's rule is not applied to masked boards): the
     * frontier DP proves there is no tour. */
    {
        uint8_t ones[80], mv4[80];
        kt_graph *plain = NULL, *mg = NULL;
        kt_tourney *pt = NULL, *mt = NULL, *mo = NULL;
        memset(ones, 1, sizeof ones);
        CHECK_OK(kt_graph_new(&plain, 20, 4));
        CHECK_OK(kt_block_tourney(&pt, plain));
        CHECK_OK(kt_tourney_move_pairs(pt, mv4, 80));
        CHECK_OK(kt_graph_new_custom(&mg, 20, 4, 2, 1, ones, NULL));
        CHECK_OK(kt_tourney_from_move_pairs(&mt, mg, mv4, 80, NULL));
        CHECK_OK(kt_tourney_copy(&mo, mt));
        CHECK_ST(kt_rails_join(mt, 1, NULL), KT_ENOTOUR);
        CHECK(kt_tourney_equal(mt, mo));
        CHECK_ST(kt_rails_obfuscate(mt, 0, 2, NULL), KT_ENOTOUR);
        CHECK(kt_tourney_equal(mt, mo));
        kt_tourney_free(mo);
        kt_tourney_free(mt);
        kt_tourney_free(pt);
        kt_graph_free(mg);
        kt_graph_free(plain);
    }

    /* 12x12 with the central 4x4 removed: joins into a closed tour. */
    kt_tourney_free(ft);
    kt_graph_free(full);
    uint8_t mask2[144], mv2[144];
    CHECK_OK(kt_graph_new(&full, 12, 12));
    CHECK_OK(kt_block_tourney(&ft, full));
    CHECK_OK(kt_tourney_move_pairs(ft, mv2, 144));
    for (int c = 0; c < 144; c++) {
        int x = c % 12, y = c / 12;
        mask2[c] = (uint8_t)!(x >= 4 && x < 8 && y >= 4 && y < 8);
        if (!mask2[c]) mv2[c] = 0xFF;
    }
    CHECK_OK(kt_graph_new_custom(&g, 12, 12, 2, 1, mask2, NULL));
    CHECK_OK(kt_tourney_from_move_pairs(&t, g, mv2, 144, NULL));
    for (uint64_t s = 0; s < 50; s++) {
        kt_tourney *u = NULL;
        CHECK_OK(kt_tourney_copy(&u, t));
        CHECK_OK(kt_rails_obfuscate(u, 0, s, NULL));
        CHECK(is_valid_tour(u));
        kt_tourney_free(u);
    }
    kt_tourney_free(t);
    kt_graph_free(g);
    kt_tourney_free(ft);
    kt_graph_free(full);
}

/* 12x12 with 4x4 blocks removed: one block removed leaves boards with
 * closed tours (joined every time); removing the three blocks next to a
 * corner block but one diagonal one leaves none (the corner block would
 * need a Hamiltonian path of 4x4), which join must report without
 * hanging and without touching the tourney. */
static void test_masks(void)
{
    kt_graph *full = NULL;
    kt_tourney *ft = NULL;
    uint8_t base[144], mask[144], mv[144];
    CHECK_OK(kt_graph_new(&full, 12, 12));
    CHECK_OK(kt_block_tourney(&ft, full));
    CHECK_OK(kt_tourney_move_pairs(ft, base, 144));
    for (unsigned m = 0; m <= 9; m++) {
        unsigned removed = m < 9 ? 1u << m : 0xE0u; /* 0xE0: blocks 5, 6, 7 */
        for (int c = 0; c < 144; c++) {
            unsigned b = (unsigned)((c / 12 / 4) * 3 + (c % 12) / 4);
            mask[c] = (uint8_t)!((removed >> b) & 1u);
            mv[c] = mask[c] ? base[c] : 0xFF;
        }
        kt_graph *g = NULL;
        kt_tourney *t = NULL;
        CHECK_OK(kt_graph_new_custom(&g, 12, 12, 2, 1, mask, NULL));
        CHECK_OK(kt_tourney_from_move_pairs(&t, g, mv, 144, NULL));
        if (t == NULL) {
            kt_graph_free(g);
            continue;
        }
        for (uint64_t s = 0; s < (m < 9 ? 8u : 1u); s++) {
            kt_tourney *u = NULL;
            CHECK_OK(kt_tourney_copy(&u, t));
            kt_status st = kt_rails_obfuscate(u, 0, s, NULL);
            if (m < 9) {
                CHECK_OK(st);
                CHECK(is_valid_tour(u));
            } else {
                CHECK(st == KT_ENOTFOUND || st == KT_ENOTOUR);
                CHECK(kt_tourney_equal(u, t));
                CHECK_EQ_U64(kt_tourney_size(u), kt_tourney_size(t));
            }
            kt_tourney_free(u);
        }
        kt_tourney_free(t);
        kt_graph_free(g);
    }
    kt_tourney_free(ft);
    kt_graph_free(full);
}

static void test_reproducible(void)
{
    kt_tourney *tour = block_tour(16, 16);
    kt_tourney *a = NULL, *b = NULL, *c = NULL;
    CHECK_OK(kt_tourney_copy(&a, tour));
    CHECK_OK(kt_tourney_copy(&b, tour));
    CHECK_OK(kt_tourney_copy(&c, tour));
    CHECK_OK(kt_rails_obfuscate(a, 0, 42, NULL));
    CHECK_OK(kt_rails_obfuscate(b, 0, 42, NULL));
    CHECK_OK(kt_rails_obfuscate(c, 0, 43, NULL));
    CHECK(kt_tourney_equal(a, b));
    CHECK(!kt_tourney_equal(a, c));
    CHECK(!kt_tourney_equal(a, tour));
    CHECK_OK(kt_rails_shatter(a, 7));
    CHECK_OK(kt_rails_shatter(b, 7));
    CHECK(kt_tourney_equal(a, b));
    kt_tourney_free(a);
    kt_tourney_free(b);
    kt_tourney_free(c);
    kt_tourney_free(tour);
}

/* The shatter of Parberry's code: a valid cycle cover of exact size,
 * reproducible, different from the start; 16 of them then a join give a
 * closed tour; an open tour is refused. */
static void test_sequential(void)
{
    static const uint32_t boards[][2] = {{6, 6}, {8, 8}, {10, 12}, {32, 32}, {16, 40}};
    for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
        kt_tourney *tour = block_tour(boards[b][0], boards[b][1]);
        for (uint64_t seed = 0; seed < 20; seed++) {
            kt_tourney *t = NULL, *u = NULL;
            CHECK_OK(kt_tourney_copy(&t, tour));
            CHECK_OK(kt_tourney_copy(&u, tour));
            CHECK_OK(kt_rails_shatter_sequential(t, seed));
            CHECK_OK(kt_rails_shatter_sequential(u, seed));
            CHECK(kt_tourney_equal(t, u));
            CHECK_EQ_U64(kt_tourney_size(t), recount(t));
            CHECK(!kt_tourney_equal(t, tour));
            for (int r = 1; r < 16; r++) CHECK_OK(kt_rails_shatter_sequential(t, seed * 16 + (uint64_t)r));
            CHECK_EQ_U64(kt_tourney_size(t), recount(t));
            CHECK_OK(kt_rails_join(t, seed, NULL));
            CHECK(is_valid_tour(t));
            kt_tourney_free(t);
            kt_tourney_free(u);
        }
        kt_tourney_free(tour);
    }
    /* an open tour is refused and left alone */
    kt_graph *g = NULL;
    kt_tourney *p = NULL;
    CHECK_OK(kt_graph_new(&g, 5, 5));
    CHECK_OK(kt_generate_open_tour(&p, g, 0, KT_CELL_NONE, 1, NULL));
    kt_tourney *q = NULL;
    CHECK_OK(kt_tourney_copy(&q, p));
    CHECK_ST(kt_rails_shatter_sequential(p, 1), KT_EUNSUPPORTED);
    CHECK(kt_tourney_equal(p, q));
    CHECK_ST(kt_rails_shatter_sequential(NULL, 1), KT_EINVAL);
    kt_tourney_free(p);
    kt_tourney_free(q);
    kt_graph_free(g);
}

/* ---- run settings ---------------------------------------------------- */

typedef struct progress_log {
    unsigned calls;
    int cancel_at;      /* cancel on this call (1-based); 0 = never */
    uint64_t done, total;
    bool monotone;
} progress_log;

static int log_progress(void *user, uint64_t done, uint64_t total)
{
    progress_log *p = user;
    if (p->calls > 0 && done < p->done) p->monotone = false;
    p->calls++;
    p->done = done;
    p->total = total;
    return p->cancel_at != 0 && (int)p->calls >= p->cancel_at;
}

/* One join (obfuscate when rounds > 0) of a copy of t with this budget. */
static kt_status run_with_budget(const kt_tourney *t, unsigned rounds, uint64_t seed, kt_options *run,
                                 uint64_t budget)
{
    kt_tourney *u = NULL;
    CHECK_OK(kt_tourney_copy(&u, t));
    CHECK_OK(kt_options_set_budget(run, budget));
    kt_status st = rounds ? kt_rails_obfuscate(u, rounds, seed, run) : kt_rails_join(u, seed, run);
    if (st != KT_OK) CHECK(kt_tourney_equal(u, t));
    kt_tourney_free(u);
    return st;
}

/* The smallest budget with which join (obfuscate when rounds > 0) returns
 * `want`, by doubling then bisection; every smaller one gives KT_ELIMIT. */
static uint64_t least_budget(const kt_tourney *t, unsigned rounds, uint64_t seed, kt_options *run,
                             kt_status want)
{
    uint64_t lo = 0, hi = 1; /* lo gives KT_ELIMIT, hi gives want */
    for (;;) {
        kt_status st = run_with_budget(t, rounds, seed, run, hi);
        if (st == want) break;
        CHECK_ST(st, KT_ELIMIT);
        if (st != KT_ELIMIT || hi > ((uint64_t)1 << 40)) return 0;
        lo = hi;
        hi *= 2;
    }
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        kt_status st = run_with_budget(t, rounds, seed, run, mid);
        CHECK(st == want || st == KT_ELIMIT);
        if (st == want) hi = mid;
        else lo = mid;
    }
    return hi;
}

/* Progress cancels and the budget bounds join and obfuscate; either way
 * the tourney is left exactly as it was, and neither setting changes a
 * result that is returned. */
static void test_run_settings(void)
{
    kt_tourney *tour = block_tour(16, 16);
    kt_tourney *t = NULL, *orig = NULL, *ref = NULL, *ref_obf = NULL;
    kt_options *run = NULL;
    CHECK_OK(kt_options_new(&run, NULL));
    CHECK_OK(kt_tourney_copy(&t, tour));
    CHECK_OK(kt_rails_shatter(t, 5));
    CHECK(kt_tourney_size(t) > 1);
    CHECK_OK(kt_tourney_copy(&orig, t));
    CHECK_OK(kt_tourney_copy(&ref, t));
    CHECK_OK(kt_rails_join(ref, 7, NULL));
    CHECK(is_valid_tour(ref));
    CHECK_OK(kt_tourney_copy(&ref_obf, tour));
    CHECK_OK(kt_rails_obfuscate(ref_obf, 4, 7, NULL));
    CHECK(is_valid_tour(ref_obf));

    /* a progress callback that lets the call finish: called at least once,
     * ending at done == total, and the result is the same */
    progress_log log = {0, 0, 0, 0, true};
    CHECK_OK(kt_options_set_progress(run, log_progress, &log));
    CHECK_OK(kt_rails_join(t, 7, run));
    CHECK(kt_tourney_equal(t, ref));
    CHECK(log.calls >= 1 && log.monotone && log.total > 0 && log.done == log.total);

    /* cancelled: KT_ECANCELED and the tourney unchanged */
    kt_tourney_free(t);
    t = NULL;
    CHECK_OK(kt_tourney_copy(&t, orig));
    log = (progress_log){0, 1, 0, 0, true};
    CHECK_ST(kt_rails_join(t, 7, run), KT_ECANCELED);
    CHECK(log.calls == 1);
    CHECK(kt_tourney_equal(t, orig));
    CHECK_EQ_U64(kt_tourney_size(t), kt_tourney_size(orig));
    log = (progress_log){0, 1, 0, 0, true};
    CHECK_ST(kt_rails_obfuscate(t, 0, 7, run), KT_ECANCELED);
    CHECK(kt_tourney_equal(t, orig));
    CHECK_EQ_U64(kt_tourney_size(t), kt_tourney_size(orig));
    {
        /* a closed tour is already joined, but the callback still decides */
        kt_tourney *c = NULL;
        CHECK_OK(kt_tourney_copy(&c, tour));
        log = (progress_log){0, 1, 0, 0, true};
        CHECK_ST(kt_rails_join(c, 1, run), KT_ECANCELED);
        CHECK(kt_tourney_equal(c, tour));
        kt_tourney_free(c);
    }
    CHECK_OK(kt_options_set_progress(run, NULL, NULL));

    /* budget: one rail switch is too few; the tourney is unchanged */
    CHECK_OK(kt_options_set_budget(run, 1));
    CHECK_ST(kt_rails_join(t, 7, run), KT_ELIMIT);
    CHECK(kt_tourney_equal(t, orig));
    CHECK_EQ_U64(kt_tourney_size(t), kt_tourney_size(orig));
    CHECK_ST(kt_rails_obfuscate(t, 0, 7, run), KT_ELIMIT);
    CHECK(kt_tourney_equal(t, orig));
    /* the least budget that suffices gives the unbounded result; one less
     * gives KT_ELIMIT (checked by the bisection) */
    uint64_t need = least_budget(orig, 0, 7, run, KT_OK);
    CHECK(need >= kt_tourney_size(orig) - 1); /* a merge per cycle at least */
    CHECK_OK(kt_options_set_budget(run, need));
    CHECK_OK(kt_rails_join(t, 7, run));
    CHECK(kt_tourney_equal(t, ref));
    uint64_t need_obf = least_budget(tour, 4, 7, run, KT_OK);
    kt_tourney *u = NULL;
    CHECK_OK(kt_tourney_copy(&u, tour));
    CHECK_OK(kt_options_set_budget(run, need_obf - 1));
    CHECK_ST(kt_rails_obfuscate(u, 4, 7, run), KT_ELIMIT);
    CHECK(kt_tourney_equal(u, tour));
    CHECK_OK(kt_options_set_budget(run, need_obf));
    CHECK_OK(kt_rails_obfuscate(u, 4, 7, run));
    CHECK(kt_tourney_equal(u, ref_obf));
    kt_tourney_free(u);

    /* a join cannot be sharded */
    CHECK_OK(kt_options_set_budget(run, 0));
    CHECK_OK(kt_options_set_shard(run, 1, 2));
    CHECK_ST(kt_rails_join(orig, 7, run), KT_EINVAL);
    CHECK_ST(kt_rails_obfuscate(orig, 0, 7, run), KT_EINVAL);

    kt_options_free(run);
    kt_tourney_free(t);
    kt_tourney_free(orig);
    kt_tourney_free(ref);
    kt_tourney_free(ref_obf);
    kt_tourney_free(tour);
}

/* The exact search of the join's last resort counts against the budget:
 * 4x8 given as a 9x4 board whose last column is holes has no closed tour
 * (Schwenk 1991; his rule is not applied to boards with holes), so the
 * join ends in the exact search, which proves it.  The least budget that
 * lets it finish covers the rail switches and the search nodes; with one
 * unit less the search stops on the budget. */
static void test_run_exact(void)
{
    uint8_t mask[36], mv[36], mv8[32];
    kt_graph *plain = NULL, *mg = NULL;
    kt_tourney *pt = NULL, *t = NULL, *orig = NULL;
    kt_options *run = NULL;
    CHECK_OK(kt_graph_new(&plain, 8, 4));
    CHECK_OK(kt_block_tourney(&pt, plain));
    CHECK_OK(kt_tourney_move_pairs(pt, mv8, 32));
    for (int c = 0; c < 36; c++) {
        int x = c % 9, y = c / 9;
        mask[c] = (uint8_t)(x < 8);
        mv[c] = x < 8 ? mv8[y * 8 + x] : 0xFF;
    }
    CHECK_OK(kt_graph_new_custom(&mg, 9, 4, 2, 1, mask, NULL));
    CHECK_OK(kt_tourney_from_move_pairs(&t, mg, mv, 36, NULL));
    CHECK_OK(kt_tourney_copy(&orig, t));
    CHECK_OK(kt_options_new(&run, NULL));
    progress_log log = {0, 0, 0, 0, true};
    CHECK_OK(kt_options_set_progress(run, log_progress, &log));
    CHECK_ST(kt_rails_join(t, 3, run), KT_ENOTOUR);
    CHECK(kt_tourney_equal(t, orig));
    CHECK(log.monotone);
    CHECK_OK(kt_options_set_progress(run, NULL, NULL));
    uint64_t need = least_budget(orig, 0, 3, run, KT_ENOTOUR);
    CHECK(need > 0);
    CHECK_ST(run_with_budget(orig, 0, 3, run, need - 1), KT_ELIMIT);
    kt_options_free(run);
    kt_tourney_free(orig);
    kt_tourney_free(t);
    kt_tourney_free(pt);
    kt_graph_free(mg);
    kt_graph_free(plain);
}

static void test_errors(void)
{
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 8, 8));
    kt_rails *r = NULL;
    uint64_t cnt;
    CHECK_ST(kt_rails_join(NULL, 1, NULL), KT_EINVAL);
    CHECK_ST(kt_rails_shatter(NULL, 1), KT_EINVAL);
    CHECK_ST(kt_rails_obfuscate(NULL, 0, 1, NULL), KT_EINVAL);
    CHECK_ST(kt_rails_new(NULL, NULL), KT_EINVAL);
    CHECK_ST(kt_rails_new(&r, NULL), KT_EINVAL);
    CHECK(r == NULL);
    CHECK_ST(kt_rails_count_tourney(NULL, &cnt), KT_EINVAL);
    kt_rails_free(NULL);
    CHECK_EQ_U64(kt_rails_count(NULL), 0);
    kt_cell cells[4];
    CHECK_ST(kt_rails_cells(g, (kt_rail){0, 3, 5}, cells), KT_EINVAL);
    CHECK_ST(kt_rails_cells(g, (kt_rail){0, 5, 5}, cells), KT_EINVAL);
    CHECK_ST(kt_rails_cells(g, (kt_rail){7, 7, 6}, cells), KT_EINVAL); /* off the right edge */
    CHECK_OK(kt_rails_cells(g, (kt_rail){0, 6, 7}, cells));
    CHECK_EQ_U64(cells[1], 17);  /* (1,2) */
    CHECK_EQ_U64(cells[3], 10);  /* (2,1) */
    CHECK_EQ_U64(cells[2], 27);  /* (3,3) */
    /* open tour: unsupported */
    kt_tourney *open = NULL;
    CHECK_OK(kt_exhaustive_tour(&open, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, NULL));
    if (open != NULL) {
        CHECK_ST(kt_rails_join(open, 1, NULL), KT_EUNSUPPORTED);
        CHECK_ST(kt_rails_shatter(open, 1), KT_EUNSUPPORTED);
        CHECK_ST(kt_rails_new(&r, open), KT_EUNSUPPORTED);
        CHECK_OK(kt_rails_count_tourney(open, &cnt));
        CHECK_EQ_U64(cnt, brute_rails(open));
    }
    kt_tourney_free(open);
    /* the 1x1 board: a trivial closed tour with no rail */
    {
        kt_graph *g1 = NULL;
        kt_tourney *t1 = NULL;
        kt_cell c0 = 0;
        CHECK_OK(kt_graph_new(&g1, 1, 1));
        CHECK_OK(kt_tourney_from_order(&t1, g1, &c0, 1, KT_SHAPE_CYCLES, NULL));
        if (t1 != NULL) {
            CHECK_OK(kt_rails_shatter(t1, 1));
            CHECK_OK(kt_rails_obfuscate(t1, 0, 1, NULL));
            CHECK_OK(kt_rails_join(t1, 1, NULL));
            CHECK_EQ_U64(kt_tourney_size(t1), 1);
            CHECK_OK(kt_rails_new(&r, t1));
            CHECK_EQ_U64(kt_rails_count(r), 0);
            CHECK_EQ_U64(kt_tourney_size(t1), 1);
            kt_rails_free(r);
            r = NULL;
        }
        kt_tourney_free(t1);
        kt_graph_free(g1);
    }
    /* a closed tour joins to itself */
    kt_tourney *t = block_tour(8, 8), *u = NULL;
    CHECK_OK(kt_tourney_copy(&u, t));
    CHECK_OK(kt_rails_join(u, 9, NULL));
    CHECK(kt_tourney_equal(t, u));
    /* kt_rails_joins: KT_EINVAL for bad arguments and for a value that is
     * not a rail now, outputs untouched; kt_rails_is_rail answers 0 */
    CHECK_OK(kt_rails_new(&r, u));
    CHECK(kt_rails_count(r) > 0);
    {
        kt_rail rl, bogus;
        int joins = 7;
        uint32_t c1 = 99, c2 = 99;
        CHECK_OK(kt_rails_get(r, 0, &rl));
        CHECK_OK(kt_rails_joins(r, rl, &joins, &c1, &c2));
        CHECK(joins == 0 && c1 == c2); /* one cycle: no rail joins two */
        joins = 7;
        CHECK_ST(kt_rails_joins(NULL, rl, &joins, NULL, NULL), KT_EINVAL);
        CHECK_ST(kt_rails_joins(r, rl, NULL, NULL, NULL), KT_EINVAL);
        bogus = (kt_rail){rl.top, rl.cross, rl.primary}; /* a parallelogram, not a rail */
        CHECK(!kt_rails_is_rail(u, bogus));
        CHECK_ST(kt_rails_joins(r, bogus, &joins, &c1, &c2), KT_EINVAL);
        bogus = (kt_rail){rl.top, 3, 5}; /* not canonical */
        CHECK(!kt_rails_is_rail(u, bogus));
        CHECK_ST(kt_rails_joins(r, bogus, &joins, NULL, NULL), KT_EINVAL);
        bogus = (kt_rail){KT_CELL_NONE, 4, 5}; /* off the board */
        CHECK(!kt_rails_is_rail(u, bogus));
        CHECK_ST(kt_rails_joins(r, bogus, &joins, NULL, NULL), KT_EINVAL);
        CHECK(joins == 7 && c1 == c2);
        CHECK(!kt_rails_is_rail(NULL, rl));
    }
    /* the getters answer NULL with 0 or KT_EINVAL */
    {
        kt_rail rl;
        uint64_t by[4][4];
        uint32_t cyc;
        size_t e, c;
        CHECK_ST(kt_rails_get(NULL, 0, &rl), KT_EINVAL);
        CHECK_ST(kt_rails_get(r, kt_rails_count(r), &rl), KT_EINVAL);
        CHECK_ST(kt_rails_counts(NULL, by), KT_EINVAL);
        CHECK_ST(kt_rails_cycle(NULL, 0, &cyc), KT_EINVAL);
        CHECK_ST(kt_rails_graph(NULL, &e, &c), KT_EINVAL);
        CHECK_ST(kt_rails_refresh(NULL), KT_EINVAL);
        CHECK_ST(kt_rails_switch(NULL, rl, NULL), KT_EINVAL);
    }
    kt_rails_free(r);
    r = NULL;
    kt_tourney_free(t);
    kt_tourney_free(u);
    kt_graph_free(g);
}

int main(void)
{
    test_errors();
    test_counts();
    test_switch();
    test_stuck();
    test_no_tour();
    test_masks();
    test_reproducible();
    test_sequential();
    test_run_settings();
    test_run_exact();
    test_join_many();
    return check_done("test_rails");
}
