/* SPDX-License-Identifier: MIT */
/* Generation: closed tours on every admissible board (Schwenk's theorem),
 * open tours with and without ends (the open-tour table, the colour
 * conditions, exhaustive search on small boards), Warnsdorff's tie-breaks,
 * and every tourney generator; every result is re-validated from its move
 * pairs, and seeds are reproducible.  The run settings: progress and
 * cancellation, shards refused, and the budgets of Warnsdorff's rule
 * (walks) and of exhaustive search (nodes). */
#include <knight/knight.h>

#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Rebuild t from its move pairs (full validation) and return the copy. */
static kt_tourney *revalidate(const kt_tourney *t)
{
    const kt_graph *g = kt_tourney_graph(t);
    size_t n = kt_graph_cell_count(g);
    uint8_t *mv = malloc(n);
    CHECK(mv != NULL);
    CHECK_OK(kt_tourney_move_pairs(t, mv, n));
    kt_tourney *u = NULL;
    kt_diag d;
    kt_status st = kt_tourney_from_move_pairs(&u, g, mv, n, &d);
    if (st != KT_OK)
        fprintf(stderr, "invalid %ux%u: %s at cell %u\n", kt_graph_width(g), kt_graph_height(g),
                kt_rule_describe(d.rule), d.cell);
    CHECK_OK(st);
    free(mv);
    if (u != NULL) {
        CHECK_EQ_U64(kt_tourney_size(u), kt_tourney_size(t)); /* size bookkeeping exact */
        CHECK(kt_tourney_shape(u) == kt_tourney_shape(t));
    }
    return u;
}

/* Run settings with a budget (a unit per call; 0 = the call's default). */
static kt_options *budget_run(uint64_t budget)
{
    kt_options *o = NULL;
    CHECK_OK(kt_options_new(&o, NULL));
    CHECK_OK(kt_options_set_budget(o, budget));
    return o;
}

/* Schwenk's theorem, written out independently of graph.c. */
static bool schwenk(uint32_t w, uint32_t h)
{
    uint32_t m = w < h ? w : h, n = w < h ? h : w;
    if (m == 1 && n == 1) return true;
    if ((m & 1) && (n & 1)) return false;
    if (m == 1 || m == 2 || m == 4) return false;
    if (m == 3 && (n == 4 || n == 6 || n == 8)) return false;
    return true;
}

static bool open_table(uint32_t w, uint32_t h)
{
    uint32_t m = w < h ? w : h, n = w < h ? h : w;
    if (m == 1) return n == 1;
    if (m == 2) return false;
    if (m == 3) return n == 4 || n >= 7;
    if (m == 4) return n >= 5;
    return true;
}

static void test_closed(void)
{
    for (uint32_t w = 1; w <= 40; w++)
        for (uint32_t h = 1; h <= 40; h++) {
            kt_graph *g = NULL;
            CHECK_OK(kt_graph_new(&g, w, h));
            bool want = schwenk(w, h);
            CHECK(want == (kt_graph_board_has_closed_tour(w, h) != 0));
            int seeds = (w <= 16 && h <= 16) ? 3 : 1;
            for (int s = 0; s < seeds; s++) {
                kt_tourney *t = (kt_tourney *)1;
                kt_status st = kt_generate_closed_tour(&t, g, (uint64_t)s * 7919u, NULL);
                CHECK_ST(st, want ? KT_OK : KT_ENOTOUR);
                if (st != KT_OK) {
                    CHECK(t == NULL);
                    continue;
                }
                CHECK(kt_tourney_is_closed_tour(t));
                kt_tourney *u = revalidate(t);
                CHECK(kt_tourney_is_closed_tour(u));
                kt_tourney_free(u);
                kt_tourney_free(t);
            }
            kt_graph_free(g);
        }
    /* divide-and-conquer, joined: every admissible board up to 24x24 */
    for (uint32_t w = 1; w <= 24; w++)
        for (uint32_t h = 1; h <= 24; h++) {
            kt_graph *gd = NULL;
            CHECK_OK(kt_graph_new(&gd, w, h));
            kt_tourney *t = NULL, *t2 = NULL;
            kt_status st = kt_generate_divide_tour(&t, gd, 0, NULL);
            CHECK_ST(st, schwenk(w, h) ? KT_OK : KT_ENOTOUR);
            if (st == KT_OK) {
                kt_tourney *u = revalidate(t);
                CHECK(kt_tourney_is_closed_tour(u));
                kt_tourney_free(u);
                CHECK_OK(kt_generate_divide_tour(&t2, gd, 0, NULL));
                CHECK(kt_tourney_equal(t, t2)); /* seed 0: the canonical structured tour */
            }
            kt_tourney_free(t);
            kt_tourney_free(t2);
            kt_graph_free(gd);
        }
    /* seeds: reproducible, and different seeds give different tours */
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 60, 46));
    kt_tourney *a = NULL, *b = NULL, *c = NULL;
    CHECK_OK(kt_generate_closed_tour(&a, g, 42, NULL));
    CHECK_OK(kt_generate_closed_tour(&b, g, 42, NULL));
    CHECK_OK(kt_generate_closed_tour(&c, g, 43, NULL));
    CHECK(kt_tourney_equal(a, b));
    CHECK(!kt_tourney_equal(a, c));
    kt_tourney_free(a);
    kt_tourney_free(b);
    kt_tourney_free(c);
    kt_graph_free(g);
    /* a few large and odd-shaped boards */
    static const uint32_t big[][2] = {{3, 1000}, {1002, 3}, {5, 998}, {513, 70}, {301, 300}, {1000, 1000}};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        CHECK_OK(kt_graph_new(&g, big[i][0], big[i][1]));
        kt_tourney *t = NULL;
        CHECK_OK(kt_generate_closed_tour(&t, g, i, NULL));
        kt_tourney *u = revalidate(t);
        CHECK(kt_tourney_is_closed_tour(u));
        kt_tourney_free(u);
        kt_tourney_free(t);
        kt_graph_free(g);
    }
}

static unsigned colour(uint32_t w, kt_cell c) { return (c % w + c / w) & 1u; }

/* Check an open tour with the given ends (KT_CELL_NONE: any). */
static void check_open(const kt_tourney *t, kt_cell s, kt_cell e)
{
    kt_tourney *u = revalidate(t);
    if (u == NULL) return;
    CHECK(kt_tourney_is_open_tour(u));
    if (kt_graph_cell_count(kt_tourney_graph(u)) > 1) {
        kt_cell a, b;
        CHECK_OK(kt_tourney_ends(u, &a, &b));
        if (s != KT_CELL_NONE) CHECK(a == s || b == s);
        if (e != KT_CELL_NONE) CHECK(a == e || b == e);
    }
    kt_tourney_free(u);
}

static void test_open(void)
{
    /* no ends: exactly the table, on every board up to 16x16 */
    for (uint32_t w = 1; w <= 16; w++)
        for (uint32_t h = 1; h <= 16; h++) {
            kt_graph *g = NULL;
            CHECK_OK(kt_graph_new(&g, w, h));
            bool want = open_table(w, h);
            CHECK(want == (kt_graph_board_has_open_tour(w, h) != 0));
            kt_tourney *t = NULL;
            kt_status st = kt_generate_open_tour(&t, g, KT_CELL_NONE, KT_CELL_NONE, w * 31u + h, NULL);
            CHECK_ST(st, want ? KT_OK : KT_ENOTOUR);
            if (st == KT_OK) check_open(t, KT_CELL_NONE, KT_CELL_NONE);
            kt_tourney_free(t);
            kt_graph_free(g);
        }
    /* every start cell, up to 12x12: a tour from it, or a proof that none exists */
    size_t found = 0, none = 0, gaveup = 0;
    for (uint32_t w = 3; w <= 12; w++)
        for (uint32_t h = w; h <= 12; h++) {
            if (!open_table(w, h)) continue;
            kt_graph *g = NULL;
            CHECK_OK(kt_graph_new(&g, w, h));
            size_t n = (size_t)w * h;
            for (kt_cell s = 0; s < n; s++) {
                kt_tourney *t = NULL;
                kt_status st = kt_generate_open_tour(&t, g, s, KT_CELL_NONE, s, NULL);
                if (st == KT_OK) {
                    check_open(t, s, KT_CELL_NONE);
                    found++;
                } else if (st == KT_ENOTOUR) {
                    none++;
                    /* with both sides >= 5 the only obstruction is colour (Conrad et
                     * al.), except on boards small enough for exhaustive search */
                    if (w >= 5 && n > 30) CHECK((n & 1) && colour(w, s));
                } else {
                    CHECK_ST(st, KT_ENOTFOUND);
                    if (w > 4) fprintf(stderr, "undecided: %ux%u from %u\n", w, h, s);
                    CHECK(w <= 4); /* only thin boards may stay undecided */
                    gaveup++;
                }
                kt_tourney_free(t);
            }
            kt_graph_free(g);
        }
    printf("open tours by start: %zu found, %zu proved impossible, %zu undecided (3/4-row boards)\n", found,
           none, gaveup);
    /* start and end on boards with both sides >= 5 */
    size_t pairs = 0, pfail = 0, pnone = 0;
    for (uint32_t w = 5; w <= 12; w++)
        for (uint32_t h = w; h <= 12; h++) {
            kt_graph *g = NULL;
            CHECK_OK(kt_graph_new(&g, w, h));
            size_t n = (size_t)w * h;
            for (kt_cell s = 0; s < n; s += 3)
                for (kt_cell e = (s * 7u + 1) % (kt_cell)n; e < n; e += 11) {
                    if (e == s) continue;
                    kt_tourney *t = NULL;
                    kt_status st = kt_generate_open_tour(&t, g, s, e, s + e, NULL);
                    bool possible = (n & 1) ? (!colour(w, s) && !colour(w, e)) : colour(w, s) != colour(w, e);
                    if (!possible) CHECK_ST(st, KT_ENOTOUR);
                    else if (st == KT_OK) check_open(t, s, e);
                    else if (st == KT_ENOTOUR) {
                        /* proved by the frontier DP; the colour rule is the whole
                         * story from 6x6 up, not on 5-wide boards */
                        CHECK(w == 5);
                        possible = false;
                        pnone++;
                    } else {
                        CHECK_ST(st, KT_ENOTFOUND);
                        pfail++;
                    }
                    pairs += possible;
                    kt_tourney_free(t);
                }
            kt_graph_free(g);
        }
    printf("open tours by start and end: %zu possible pairs, %zu proved impossible on 5-wide boards, "
           "%zu undecided\n", pairs, pnone, pfail);
    CHECK(pfail == 0); /* every pair settled: a tour or a proof */
    /* every pair of 5x8: the proofs of impossibility agree with exhaustive search */
    {
        kt_graph *g = NULL;
        CHECK_OK(kt_graph_new(&g, 5, 8));
        size_t ok = 0, none = 0;
        for (kt_cell s = 0; s < 40; s++)
            for (kt_cell e = s + 1; e < 40; e++) {
                if (colour(5, s) == colour(5, e)) continue;
                kt_tourney *t = NULL;
                kt_status st = kt_generate_open_tour(&t, g, s, e, 7, NULL);
                if (st == KT_OK) {
                    check_open(t, s, e);
                    ok++;
                } else {
                    CHECK_ST(st, KT_ENOTOUR);
                    kt_tourney *x = NULL;
                    CHECK_ST(kt_exhaustive_tour(&x, g, KT_SHAPE_PATH, s, e, NULL), KT_ENOTOUR);
                    kt_tourney_free(x);
                    none++;
                }
                kt_tourney_free(t);
            }
        printf("5x8 pairs: %zu tours, %zu proved impossible (and by exhaustive search)\n", ok, none);
        CHECK(none > 0 && ok > 0);
        kt_graph_free(g);
    }
    /* every pair of 3x12 and 5x7 (past the exhaustive-only sizes, so the
     * rotations and the DP fallback answer) against exhaustive search */
    kt_options *nodes2m = budget_run(2000000); /* search nodes */
    for (int b = 0; b < 2; b++) {
        uint32_t w = b ? 5 : 3, h = b ? 7 : 12, n = w * h;
        kt_graph *g = NULL;
        CHECK_OK(kt_graph_new(&g, w, h));
        size_t agree = 0;
        for (kt_cell s = 0; s < n; s++)
            for (kt_cell e = s + 1; e < n; e++) {
                kt_tourney *t = NULL, *x = NULL;
                kt_status st = kt_generate_open_tour(&t, g, s, e, 3, NULL);
                kt_status sx = kt_exhaustive_tour(&x, g, KT_SHAPE_PATH, s, e, nodes2m);
                if (st == KT_OK) check_open(t, s, e);
                if (sx != KT_ELIMIT) {
                    CHECK_ST(st, sx);
                    agree++;
                }
                kt_tourney_free(t);
                kt_tourney_free(x);
            }
        printf("%ux%u pairs: %zu agree with exhaustive search\n", w, h, agree);
        CHECK(agree > n * (n - 1) / 4);
        kt_graph_free(g);
    }
    kt_options_free(nodes2m);
    /* small boards against exhaustive search (kt_exhaustive_tour) */
    for (uint32_t w = 1; w <= 6; w++)
        for (uint32_t h = 1; h <= 6 && w * h <= 30; h++) {
            kt_graph *g = NULL;
            CHECK_OK(kt_graph_new(&g, w, h));
            kt_tourney *x = NULL, *t = NULL;
            kt_status sx = kt_exhaustive_tour(&x, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL);
            kt_tourney_free(x);
            kt_status sc = kt_generate_closed_tour(&t, g, 1, NULL);
            kt_tourney_free(t);
            CHECK_ST(sc, sx);
            size_t n = (size_t)w * h;
            for (kt_cell s = 0; s < n; s++)
                for (kt_cell e = 0; e < n; e += (n > 12 ? 5 : 1)) {
                    kt_cell ee = e == s ? KT_CELL_NONE : e;
                    if (ee == KT_CELL_NONE && n > 1 && e != s) continue;
                    x = NULL;
                    sx = kt_exhaustive_tour(&x, g, KT_SHAPE_PATH, s, ee, NULL);
                    kt_tourney_free(x);
                    t = NULL;
                    kt_status so = kt_generate_open_tour(&t, g, s, ee, 7, NULL);
                    if (so == KT_OK) check_open(t, s, ee);
                    kt_tourney_free(t);
                    if (n == 1 && ee == KT_CELL_NONE) continue;
                    CHECK_ST(so, sx);
                }
            kt_graph_free(g);
        }
    /* large boards: linear constructions with a start */
    static const uint32_t big[][3] = {{201, 199, 0}, {4, 500, 3}, {3, 501, 0}, {400, 300, 777}};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        kt_graph *g = NULL;
        CHECK_OK(kt_graph_new(&g, big[i][0], big[i][1]));
        kt_tourney *t = NULL;
        kt_cell s = big[i][2];
        CHECK_OK(kt_generate_open_tour(&t, g, s, KT_CELL_NONE, i, NULL));
        if (t) check_open(t, s, KT_CELL_NONE);
        kt_tourney_free(t);
        kt_graph_free(g);
    }
}

/* Squirrel and Cull's W+: the open tour from the corner of n x n ends
 * where their published program's tour ends (1-based x, y as it prints
 * them, for n = 5..40), and W+ fails on 74 x 74 as that program does (it
 * stops after 5432 of 5476 cells), while its rules carry it through every
 * other n up to 100 (plain Warnsdorff, ties to the first move, fails from
 * 61 on). */
static void test_warnsdorff_wplus(void)
{
    static const uint8_t end[36][2] = {
        {3, 3},   {5, 2},   {6, 6},   {5, 8},   {4, 4},   {6, 7},   {6, 10},  {8, 9},   {7, 3},
        {7, 12},  {3, 11},  {7, 10},  {12, 10}, {10, 15}, {16, 12}, {4, 13},  {16, 8},  {9, 10},
        {12, 16}, {14, 7},  {16, 14}, {19, 16}, {26, 18}, {4, 23},  {17, 17}, {18, 15}, {25, 27},
        {22, 7},  {26, 16}, {17, 14}, {26, 32}, {9, 28},  {23, 21}, {9, 20},  {29, 35}, {31, 8}};
    unsigned first_fails = 0;
    for (uint32_t n = 5; n <= 100; n++) {
        kt_graph *g = NULL;
        CHECK_OK(kt_graph_new(&g, n, n));
        kt_tourney *t = NULL;
        kt_status st = kt_generate_warnsdorff_tour(&t, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_GENERATE_TIE_WPLUS, n, NULL);
        if (n == 74) {
            CHECK_ST(st, KT_ELIMIT);
        } else {
            CHECK_OK(st);
            if (t) check_open(t, 0, KT_CELL_NONE);
        }
        if (t && n <= 40) {
            kt_cell a = KT_CELL_NONE, b = KT_CELL_NONE;
            CHECK_OK(kt_tourney_ends(t, &a, &b));
            kt_cell want = (kt_cell)((end[n - 5][1] - 1) * n + (end[n - 5][0] - 1u));
            CHECK(a == 0 ? b == want : a == want && b == 0);
        }
        kt_tourney_free(t);
        t = NULL;
        st = kt_generate_warnsdorff_tour(&t, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_GENERATE_TIE_FIRST, n, NULL);
        first_fails += st != KT_OK;
        if (n <= 60) CHECK_OK(st);
        kt_tourney_free(t);
        kt_graph_free(g);
    }
    CHECK(first_fails >= 10);
}

/* The Warnsdorff tourney past TILE_ABOVE (200): tiles with their own
 * restarts (1.0 ended in KT_ELIMIT after 47-110 s on 600 x 600); every
 * result a valid tourney, both the even and the odd-sided tilings. */
static void test_warnsdorff_tourney_large(void)
{
    static const uint32_t sizes[][2] = {{600, 600}, {601, 400}, {202, 203}};
    for (size_t i = 0; i < 3; i++) {
        kt_graph *g = NULL;
        CHECK_OK(kt_graph_new(&g, sizes[i][0], sizes[i][1]));
        kt_tourney *t = NULL;
        CHECK_OK(kt_generate_tourney(&t, g, KT_GENERATE_WARNSDORFF, i + 1, NULL));
        if (t) {
            kt_tourney *u = revalidate(t);
            CHECK(u != NULL && kt_tourney_size(u) == kt_tourney_size(t) && kt_tourney_size(t) > 1);
            kt_tourney_free(u);
        }
        kt_tourney_free(t);
        kt_graph_free(g);
    }
}

static void test_warnsdorff(void)
{
    for (uint32_t n = 5; n <= 40; n++) {
        kt_graph *g = NULL;
        CHECK_OK(kt_graph_new(&g, n, n));
        for (int tie = 0; tie < KT_GENERATE_TIE_COUNT; tie++) {
            kt_tourney *t = NULL;
            kt_status st = kt_generate_warnsdorff_tour(&t, g, KT_SHAPE_PATH, KT_CELL_NONE, (kt_generate_tiebreak)tie, n, NULL);
            if (tie >= KT_GENERATE_TIE_POHL) CHECK_OK(st); /* Pohl and Roth never fail this small */
            if (st == KT_OK) check_open(t, 0, KT_CELL_NONE);
            else CHECK_ST(st, KT_ELIMIT); /* the default attempts all failed */
            kt_tourney_free(t);
            t = NULL;
            st = kt_generate_warnsdorff_tour(&t, g, KT_SHAPE_CYCLES, KT_CELL_NONE, (kt_generate_tiebreak)tie, n, NULL);
            if (n & 1) CHECK_ST(st, KT_ENOTOUR);
            /* first and W+ are single deterministic walks (W+ from the
             * corner does not close on 12 x 12) */
            else if (tie != KT_GENERATE_TIE_FIRST && tie != KT_GENERATE_TIE_WPLUS) CHECK_OK(st);
            if (st == KT_OK) {
                kt_tourney *u = revalidate(t);
                CHECK(kt_tourney_is_closed_tour(u));
                kt_tourney_free(u);
            }
            kt_tourney_free(t);
        }
        kt_graph_free(g);
    }
    /* Roth's tie-break far beyond where plain Warnsdorff fails (~50-64) */
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 300, 300));
    kt_tourney *t = NULL, *u = NULL;
    CHECK_OK(kt_generate_warnsdorff_tour(&t, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_GENERATE_TIE_ROTH, 5, NULL));
    if (t) check_open(t, 0, KT_CELL_NONE);
    CHECK_OK(kt_generate_warnsdorff_tour(&u, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_GENERATE_TIE_ROTH, 5, NULL));
    CHECK(kt_tourney_equal(t, u)); /* reproducible */
    kt_tourney_free(t);
    kt_tourney_free(u);
    kt_graph_free(g);
}

static bool applies(kt_generate_method m, uint32_t w, uint32_t h)
{
    switch (m) {
    case KT_GENERATE_BLOCKS:
    case KT_GENERATE_DIVIDE: return schwenk(w, h) && w * h > 1;
    case KT_GENERATE_BRAID: return w == h && !(w & 1) && w >= 4;
    case KT_GENERATE_FOUR_COVER: return w % 4 == 0 && h % 4 == 0;
    default: return !((w * h) & 1) && w >= 3 && h >= 3;
    }
}

static void test_tourneys(void)
{
    for (int m = 0; m < KT_GENERATE_METHOD_COUNT; m++) {
        kt_generate_method parsed;
        CHECK_OK(kt_generate_method_parse(kt_generate_method_name((kt_generate_method)m), &parsed));
        CHECK(parsed == (kt_generate_method)m);
        for (uint32_t n = 3; n <= 40; n++) {
            uint32_t shapes[3][2] = {{n, n}, {n, n + 2}, {n + 4, n}};
            for (int k = 0; k < 3; k++) {
                uint32_t w = shapes[k][0], h = shapes[k][1];
                if (k > 0 && (m == KT_GENERATE_NEURAL || m == KT_GENERATE_WARNSDORFF) && n > 24) continue;
                kt_graph *g = NULL;
                CHECK_OK(kt_graph_new(&g, w, h));
                kt_tourney *t = NULL;
                kt_status st = kt_generate_tourney(&t, g, (kt_generate_method)m, n, NULL);
                bool ok = applies((kt_generate_method)m, w, h);
                /* 4-row boards have tourneys only sometimes; the heuristics may give up there */
                if (ok && (m == KT_GENERATE_NEURAL || m == KT_GENERATE_WARNSDORFF) && (w == 4 || h == 4 || w == 3 || h == 3)) {
                    if (st == KT_ELIMIT) ok = false, st = KT_EUNSUPPORTED;
                }
                CHECK_ST(st, ok ? KT_OK : KT_EUNSUPPORTED);
                if (st == KT_OK) {
                    CHECK(kt_tourney_shape(t) == KT_SHAPE_CYCLES);
                    kt_tourney *u = revalidate(t);
                    kt_tourney_free(u);
                    if (m == KT_GENERATE_FOUR_COVER) CHECK_EQ_U64(kt_tourney_size(t), w * h / 4);
                    kt_tourney *v = NULL;
                    CHECK_OK(kt_generate_tourney(&v, g, (kt_generate_method)m, n, NULL));
                    CHECK(kt_tourney_equal(t, v)); /* reproducible */
                    kt_tourney_free(v);
                }
                kt_tourney_free(t);
                kt_graph_free(g);
            }
        }
    }
    /* the braid's size: 4 cycles per ring of side 8 mod... as measured; the
     * rings are forced, so the count is a property of n alone */
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 8, 8));
    kt_tourney *t = NULL;
    CHECK_OK(kt_generate_tourney(&t, g, KT_GENERATE_BRAID, 0, NULL));
    CHECK_EQ_U64(kt_tourney_size(t), 8); /* one braid of 4 cycles around the 4x4 four-cover */
    kt_tourney_free(t);
    kt_graph_free(g);
}

static void test_errors(void)
{
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 8, 8));
    kt_tourney *t = NULL;
    CHECK_ST(kt_generate_closed_tour(NULL, g, 0, NULL), KT_EINVAL);
    CHECK_ST(kt_generate_closed_tour(&t, NULL, 0, NULL), KT_EINVAL);
    CHECK_ST(kt_generate_open_tour(&t, g, 64, KT_CELL_NONE, 0, NULL), KT_EINVAL);
    CHECK_ST(kt_generate_open_tour(&t, g, 5, 5, 0, NULL), KT_EINVAL);
    CHECK_ST(kt_generate_open_tour(&t, g, 0, 9, 0, NULL), KT_ENOTOUR); /* same colour on an even board */
    CHECK_ST(kt_generate_warnsdorff_tour(&t, g, KT_SHAPE_PATH, KT_CELL_NONE, (kt_generate_tiebreak)9, 0, NULL), KT_EINVAL);
    CHECK_ST(kt_generate_tourney(&t, g, (kt_generate_method)99, 0, NULL), KT_EINVAL);
    CHECK(t == NULL);
    kt_graph_free(g);
    uint8_t mask[64];
    memset(mask, 1, sizeof mask);
    mask[27] = 0;
    CHECK_OK(kt_graph_new_custom(&g, 8, 8, 2, 1, mask, NULL));
    CHECK_ST(kt_generate_closed_tour(&t, g, 0, NULL), KT_EUNSUPPORTED);
    CHECK_ST(kt_generate_tourney(&t, g, KT_GENERATE_NEURAL, 0, NULL), KT_EUNSUPPORTED);
    kt_graph_free(g);
    CHECK_OK(kt_graph_new_custom(&g, 8, 8, 3, 1, NULL, NULL));
    CHECK_ST(kt_generate_open_tour(&t, g, KT_CELL_NONE, KT_CELL_NONE, 0, NULL), KT_EUNSUPPORTED);
    kt_graph_free(g);
    /* the budget is honoured */
    CHECK_OK(kt_graph_new(&g, 40, 40));
    kt_options *one = budget_run(1);
    CHECK_ST(kt_generate_tourney(&t, g, KT_GENERATE_NEURAL, 1, one), KT_ELIMIT);
    CHECK(t == NULL);
    kt_options_free(one);
    kt_graph_free(g);
}

/* A progress callback that counts its calls, keeps the last report and
 * cancels from call number cancel_at on (0: never). */
typedef struct prog {
    unsigned calls, cancel_at;
    uint64_t done, total;
    bool over; /* a report with done > total (a known total) */
} prog;

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    prog *p = user;
    p->calls++;
    p->done = done;
    p->total = total;
    if (total != 0 && done > total) p->over = true;
    return p->cancel_at != 0 && p->calls >= p->cancel_at;
}

static kt_options *progress_run(prog *p, unsigned cancel_at, uint64_t budget)
{
    memset(p, 0, sizeof *p);
    p->cancel_at = cancel_at;
    kt_options *o = budget_run(budget);
    CHECK_OK(kt_options_set_progress(o, on_progress, p));
    return o;
}

/* Every entry point of generate.h and exhaustive.h on a board where it
 * succeeds (8x8, 9x9 for the odd-board open construction). */
enum { CALLS = 16 };
static kt_status call_one(int k, kt_tourney **t, const kt_graph *g8, const kt_graph *g9,
                          const kt_options *run)
{
    switch (k) {
    case 0: return kt_generate_closed_tour(t, g8, 1, run);
    case 1: return kt_generate_divide_tour(t, g8, 0, run);
    case 2: return kt_generate_open_tour(t, g8, KT_CELL_NONE, KT_CELL_NONE, 1, run);
    case 3: return kt_generate_open_tour(t, g8, 0, 7, 1, run);
    case 4: return kt_generate_open_tour(t, g9, 0, KT_CELL_NONE, 1, run);
    case 5: return kt_generate_warnsdorff_tour(t, g8, KT_SHAPE_PATH, 0, KT_GENERATE_TIE_ROTH, 1, run);
    case 6: return kt_generate_warnsdorff_tour(t, g8, KT_SHAPE_CYCLES, 0, KT_GENERATE_TIE_RANDOM, 1, run);
    case 7: return kt_exhaustive_tour(t, g8, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, run);
    case 8: return kt_exhaustive_tour(t, g9, KT_SHAPE_PATH, 0, KT_CELL_NONE, run);
    case 9: return kt_generate_open_tour(t, g9, 0, 80, 1, run);
    default: return kt_generate_tourney(t, g8, (kt_generate_method)(k - 10), 1, run);
    }
}

static void test_run_settings(void)
{
    kt_graph *g8 = NULL, *g9 = NULL;
    CHECK_OK(kt_graph_new(&g8, 8, 8));
    CHECK_OK(kt_graph_new(&g9, 9, 9));
    prog p;
    for (int k = 0; k < CALLS; k++) {
        /* the progress reaches done == total before a result is returned */
        kt_options *run = progress_run(&p, 0, 0);
        kt_tourney *t = NULL;
        CHECK_OK(call_one(k, &t, g8, g9, run));
        CHECK(t != NULL && p.calls >= 1 && p.done == p.total && !p.over);
        kt_tourney_free(t);
        kt_options_free(run);
        /* a cancelled call returns KT_ECANCELED and no result */
        run = progress_run(&p, 1, 0);
        t = (kt_tourney *)&p;
        CHECK_ST(call_one(k, &t, g8, g9, run), KT_ECANCELED);
        CHECK(t == NULL && p.calls == 1);
        kt_options_free(run);
        /* one search, one construction: nothing to shard */
        run = budget_run(0);
        CHECK_OK(kt_options_set_shard(run, 1, 2));
        t = (kt_tourney *)&p;
        CHECK_ST(call_one(k, &t, g8, g9, run), KT_EINVAL);
        CHECK(t == NULL);
        kt_options_free(run);
    }
    /* cancelled in the middle of a long search: the closed tours of 4x14
     * (there are none; the proof takes minutes) and Warnsdorff's plain
     * rule, which fails on 64x64 at every attempt of a huge budget */
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 4, 14));
    kt_options *run = progress_run(&p, 1, 0);
    kt_tourney *t = (kt_tourney *)&p;
    CHECK_ST(kt_exhaustive_tour(&t, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, run), KT_ECANCELED);
    CHECK(t == NULL && p.calls == 1 && p.total == 0 && p.done > 0);
    kt_options_free(run);
    kt_graph_free(g);
    CHECK_OK(kt_graph_new(&g, 64, 64));
    run = progress_run(&p, 1, UINT64_MAX);
    CHECK_ST(kt_generate_warnsdorff_tour(&t, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_GENERATE_TIE_FIRST, 0, run),
             KT_ECANCELED);
    CHECK(t == NULL && p.calls == 1 && p.total == UINT64_MAX && !p.over);
    kt_options_free(run);
    kt_graph_free(g);
    kt_graph_free(g8);
    kt_graph_free(g9);
}

/* The budget of kt_generate_warnsdorff_tour counts walks: 0 is the
 * default (1 for the deterministic plain rule, 64 otherwise), and a
 * larger budget only adds walks after the same first ones. */
static void test_warnsdorff_budget(void)
{
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 64, 64));
    kt_options *three = budget_run(3);
    kt_tourney *t = (kt_tourney *)g;
    /* the plain rule gets stuck on 64x64 from the corner */
    CHECK_ST(kt_generate_warnsdorff_tour(&t, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_GENERATE_TIE_FIRST, 0, NULL),
             KT_ELIMIT);
    CHECK(t == NULL);
    CHECK_ST(kt_generate_warnsdorff_tour(&t, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_GENERATE_TIE_FIRST, 0, three),
             KT_ELIMIT);
    CHECK(t == NULL);
    kt_options_free(three);
    kt_graph_free(g);
    /* random ties on 60x60: one walk succeeds about 3 times in 4 */
    CHECK_OK(kt_graph_new(&g, 60, 60));
    kt_options *one = budget_run(1), *many = budget_run(KT_GENERATE_WARNSDORFF_ATTEMPTS);
    unsigned first_ok = 0, first_failed = 0;
    for (uint64_t seed = 0; seed < 24; seed++) {
        kt_tourney *a = NULL, *b = NULL, *c = NULL;
        kt_status sa = kt_generate_warnsdorff_tour(&a, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_GENERATE_TIE_RANDOM, seed, one);
        CHECK_OK(kt_generate_warnsdorff_tour(&b, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_GENERATE_TIE_RANDOM, seed, NULL));
        CHECK_OK(kt_generate_warnsdorff_tour(&c, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_GENERATE_TIE_RANDOM, seed, many));
        CHECK(kt_tourney_equal(b, c)); /* budget 0 = the default number of walks */
        if (sa == KT_OK) {
            CHECK(kt_tourney_equal(a, b)); /* the same first walk */
            first_ok++;
        } else {
            CHECK_ST(sa, KT_ELIMIT);
            CHECK(a == NULL);
            first_failed++;
        }
        kt_tourney_free(a);
        kt_tourney_free(b);
        kt_tourney_free(c);
    }
    CHECK(first_ok > 0 && first_failed > 0);
    kt_options_free(one);
    kt_options_free(many);
    kt_graph_free(g);
}

/* The budget of kt_exhaustive_tour counts search nodes: the nodes a
 * search took (its last progress report) are exactly enough, one fewer
 * gives KT_ELIMIT; an unsettled proof is KT_ELIMIT, a settled one
 * KT_ENOTOUR. */
static void test_exhaustive_budget(void)
{
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 6, 6));
    prog p;
    kt_options *run = progress_run(&p, 0, 0);
    kt_tourney *t = NULL, *u = NULL;
    CHECK_OK(kt_exhaustive_tour(&t, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, run));
    uint64_t nodes = p.done;
    CHECK(nodes >= 35 && p.total == nodes); /* at least one node per cell after the first */
    kt_options_free(run);
    run = budget_run(nodes);
    CHECK_OK(kt_exhaustive_tour(&u, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, run));
    CHECK(kt_tourney_equal(t, u));
    kt_tourney_free(u);
    kt_options_free(run);
    run = budget_run(nodes - 1);
    u = t;
    CHECK_ST(kt_exhaustive_tour(&u, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, run), KT_ELIMIT);
    CHECK(u == NULL);
    kt_options_free(run);
    kt_tourney_free(t);
    kt_graph_free(g);
    /* 4x4 has no open tour, but only a search shows it */
    CHECK_OK(kt_graph_new(&g, 4, 4));
    run = budget_run(10);
    CHECK_ST(kt_exhaustive_tour(&t, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, run), KT_ELIMIT);
    CHECK_ST(kt_exhaustive_tour(&t, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, NULL), KT_ENOTOUR);
    CHECK(t == NULL);
    kt_options_free(run);
    kt_graph_free(g);
}

/* FNV-1a of a tour's move-pair bytes: the bytes of a tour on a given board
 * are canonical (each cell's two moves, sorted), so equal tours hash alike. */
static uint64_t tour_hash(const kt_tourney *t, uint8_t *buf, size_t n)
{
    CHECK_OK(kt_tourney_move_pairs(t, buf, n));
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++) h = (h ^ buf[i]) * 0x100000001b3u;
    return h;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* How many distinct closed tours seeds 0..nseeds-1 give on w x h; every
 * tour is checked, and seed s run twice gives the same tour. */
static size_t distinct_tours(uint32_t w, uint32_t h, size_t nseeds)
{
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, w, h));
    size_t n = (size_t)w * h, k = 0;
    uint8_t *buf = malloc(n);
    uint64_t *hs = malloc(nseeds * sizeof *hs);
    CHECK(buf != NULL && hs != NULL);
    for (size_t s = 0; s < nseeds; s++) {
        kt_tourney *t = NULL, *u = NULL;
        CHECK_OK(kt_generate_closed_tour(&t, g, s, NULL));
        CHECK(kt_tourney_is_closed_tour(t));
        if (s % 50 == 0) { /* reproducible */
            CHECK_OK(kt_generate_closed_tour(&u, g, s, NULL));
            CHECK(kt_tourney_equal(t, u));
            kt_tourney_free(u);
        }
        hs[s] = tour_hash(t, buf, n);
        kt_tourney_free(t);
    }
    qsort(hs, nseeds, sizeof *hs, cmp_u64);
    for (size_t s = 0; s < nseeds; s++) k += s == 0 || hs[s] != hs[s - 1];
    free(hs);
    free(buf);
    kt_graph_free(g);
    return k;
}

/* Issue 17: a different tour for (nearly) every seed, on small boards too. */
static void test_closed_seeds(void)
{
    static const uint32_t boards[][2] = {{6, 6},   {6, 8},   {8, 8},   {10, 10}, {12, 12},
                                         {7, 10},  {16, 16}, {32, 32}, {64, 64}};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        size_t k = distinct_tours(boards[i][0], boards[i][1], 200);
        /* 6 x 6 has only 9862 closed tours: even uniform draws repeat about
         * twice in 200 (birthday bound; 7 or more repeats: p < 0.005), so allow
         * a few repeats there */
        size_t want = boards[i][0] == 6 && boards[i][1] == 6 ? 194 : 199;
        if (k < want) printf("%ux%u: %zu distinct tours of 200 seeds\n", boards[i][0], boards[i][1], k);
        CHECK(k >= want);
    }
    /* 5 x 6 and 3 x 10 have 8 and 16 closed tours in all: 200 seeds reach
     * every one */
    CHECK(distinct_tours(5, 6, 200) == 8);
    CHECK(distinct_tours(3, 10, 200) == 16);
}

int main(void)
{
    test_closed();
    test_closed_seeds();
    test_open();
    test_warnsdorff();
    test_warnsdorff_wplus();
    test_warnsdorff_tourney_large();
    test_tourneys();
    test_errors();
    test_run_settings();
    test_warnsdorff_budget();
    test_exhaustive_budget();
    return check_done("generate");
}
