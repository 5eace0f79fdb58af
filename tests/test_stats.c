/* SPDX-License-Identifier: MIT */
/* The exact move and relative-move distributions of bench/exact_stats.c
 * (issue 17): enumeration and the weighted frontier count agree on every
 * figure, the counts are the published ones, and the total-variation
 * distance is right on known inputs. */
#include <knight/knight.h>

#include "check.h"
#include "../bench/exact_stats.h"

#include <math.h>
#include <string.h>

static void check_same(const es_totals *a, const es_totals *b)
{
    CHECK_EQ_U64(a->tours, b->tours);
    for (int k = 0; k < 8; k++) {
        CHECK_EQ_U64(a->moves[k], b->moves[k]);
        CHECK_EQ_U64(a->relative[k], b->relative[k]);
    }
}

/* Facts every set of directed closed tours has: n moves and n relative
 * moves per direction, never a move straight back, and r and 8 - r equally
 * often (a tour walked backwards turns the other way). */
static void check_shape(const es_totals *t, uint32_t cells)
{
    uint64_t sm = 0, sr = 0;
    for (int k = 0; k < 8; k++) {
        sm += t->moves[k];
        sr += t->relative[k];
        CHECK_EQ_U64(t->moves[k], t->moves[(k + 4) & 7]);
        CHECK_EQ_U64(t->relative[k], t->relative[(8 - k) & 7]);
    }
    CHECK_EQ_U64(sm, 2 * t->tours * cells);
    CHECK_EQ_U64(sr, 2 * t->tours * cells);
    CHECK_EQ_U64(t->relative[4], 0);
}

typedef struct per_tour {
    uint64_t tours;
    double mean[2][8];
} per_tour;

static void each_tour(void *ctx, const uint64_t mv[8], const uint64_t rl[8])
{
    per_tour *P = ctx;
    P->tours++;
    for (int k = 0; k < 8; k++) {
        P->mean[0][k] += (double)mv[k];
        P->mean[1][k] += (double)rl[k];
    }
}

static void test_6x6(void)
{
    es_totals a, b;
    per_tour P;
    memset(&P, 0, sizeof P);
    CHECK(es_enumerate(6, 6, &a, each_tour, &P) == 0);
    CHECK(es_weighted_count(6, 6, 0, &b, NULL) == 0);
    CHECK_EQ_U64(a.tours, 9862);
    CHECK_EQ_U64(P.tours, 9862);
    check_same(&a, &b);
    check_shape(&a, 36);
    /* on a square board the 8 symmetries take any move to any other */
    for (int k = 0; k < 8; k++) CHECK_EQ_U64(a.moves[k], 2 * 9862 * 36 / 8);
    /* the per-tour callback sees the same totals */
    for (int k = 0; k < 8; k++) {
        CHECK(P.mean[0][k] == (double)a.moves[k]);
        CHECK(P.mean[1][k] == (double)a.relative[k]);
    }
    double mv[8], rl[8], sum = 0;
    es_frequencies(&a, 36, mv, rl);
    for (int k = 0; k < 8; k++) sum += rl[k];
    CHECK(fabs(sum - 1.0) < 1e-12);
    CHECK(fabs(mv[3] - 0.125) < 1e-15);
}

/* Smaller and oblong boards: both methods, and the frontier count of
 * kt_count_tours() (a third, independent program) for the number of tours. */
static void test_boards(void)
{
    static const uint32_t sizes[][2] = {{5, 6}, {6, 5}, {3, 10}, {10, 3}, {3, 12}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t w = sizes[i][0], h = sizes[i][1];
        es_totals a, b;
        CHECK(es_enumerate(w, h, &a, NULL, NULL) == 0);
        CHECK(es_weighted_count(w, h, 0, &b, NULL) == 0);
        check_same(&a, &b);
        check_shape(&a, w * h);
        kt_graph *g = NULL;
        kt_u128 n = {0, 0};
        CHECK_ST(kt_graph_new(&g, w, h), KT_OK);
        CHECK_ST(kt_count_tours(g, 0, NULL, &n, NULL), KT_OK);
        CHECK_EQ_U64(a.tours, n.lo);
        kt_graph_free(g);
    }
    es_totals t;
    CHECK(es_weighted_count(5, 6, 0, &t, NULL) == 0);
    CHECK_EQ_U64(t.tours, 8);
    /* a bound on the states is honoured; boards beyond the methods refused */
    CHECK(es_weighted_count(6, 6, 10, &t, NULL) == -1);
    CHECK(es_weighted_count(16, 4, 0, &t, NULL) == -1);
    CHECK(es_enumerate(9, 9, &t, NULL, NULL) == -1);
    /* boards without a closed tour: none by either method */
    CHECK(es_enumerate(5, 5, &t, NULL, NULL) == 0);
    CHECK_EQ_U64(t.tours, 0);
    CHECK(es_weighted_count(4, 6, 0, &t, NULL) == 0);
    CHECK_EQ_U64(t.tours, 0);
}

/* One tour read both ways, against the library's own counts of the
 * tour and of its reversal. */
static void test_both_directions(void)
{
    kt_graph *g = NULL;
    kt_tourney *t = NULL;
    CHECK_ST(kt_graph_new(&g, 8, 8), KT_OK);
    CHECK_ST(kt_generate_closed_tour(&t, g, 3, NULL), KT_OK);
    uint64_t mv[8], rl[8];
    CHECK_ST(kt_tourney_move_counts(t, mv), KT_OK);
    CHECK_ST(kt_tourney_relative_move_counts(t, rl), KT_OK);
    double fm[8], fr[8], one[8];
    es_both_directions(mv, rl, fm, fr);
    CHECK_ST(kt_stats_move_distribution(t, one), KT_OK);
    for (int k = 0; k < 8; k++) {
        CHECK(fabs(fm[k] - (one[k] + one[(k + 4) & 7]) / 2) < 1e-12);
        CHECK(fm[k] == fm[(k + 4) & 7]);
        CHECK(fr[k] == fr[(8 - k) & 7]);
    }
    CHECK(fr[4] == 0.0);
    kt_tourney_free(t);
    kt_graph_free(g);
}

/* The premise of "1/8 per move on every square board" (doc/statistics.md):
 * the 8 symmetries of a square, acting on the move vectors, take move 0 to
 * every move, so over all tours (a set each symmetry maps onto itself)
 * every move is used equally often. */
static void test_square_symmetry(void)
{
    kt_graph *g = NULL;
    CHECK_ST(kt_graph_new(&g, 8, 8), KT_OK);
    int dx[8], dy[8], seen = 0;
    for (int m = 0; m < 8; m++) {
        dx[m] = kt_graph_move_dx(g, m);
        dy[m] = kt_graph_move_dy(g, m);
    }
    for (int sym = 0; sym < 8; sym++) {
        int x = sym & 4 ? dy[0] : dx[0], y = sym & 4 ? dx[0] : dy[0];
        if (sym & 1) x = -x;
        if (sym & 2) y = -y;
        for (int m = 0; m < 8; m++)
            if (dx[m] == x && dy[m] == y) seen |= 1 << m;
    }
    CHECK(seen == 0xff);
    kt_graph_free(g);
}

static void test_tv(void)
{
    const double a[2] = {1, 0}, b[2] = {0, 1}, c[2] = {0.5, 0.5}, d[2] = {0.25, 0.75};
    CHECK(es_tv(a, b, 2) == 1.0);
    CHECK(es_tv(a, a, 2) == 0.0);
    CHECK(es_tv(c, d, 2) == 0.25);
    CHECK(es_tv(d, c, 2) == 0.25);
    const double u[8] = {0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125};
    const double v[8] = {0.25, 0.0, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125};
    CHECK(es_tv(u, v, 8) == 0.125);
}

int main(void)
{
    test_tv();
    test_square_symmetry();
    test_both_directions();
    test_6x6();
    test_boards();
    return check_failures ? 1 : 0;
}
