/* SPDX-License-Identifier: MIT */
/* kt_tourney: construction, validation rules, traversal, copies, statistics. */
#include <knight/knight.h>

#include <string.h>

#include "check.h"

/* A closed tour of 6x6 found by search, and its visit order. */
static kt_tourney *tour_of(kt_graph *g, kt_shape shape)
{
    kt_tourney *t = NULL;
    CHECK_OK(kt_exhaustive_tour(&t, g, shape, KT_CELL_NONE, KT_CELL_NONE, NULL));
    return t;
}

static void test_round_trips(void)
{
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 6, 6));
    kt_tourney *t = tour_of(g, KT_SHAPE_CYCLES);
    CHECK(kt_tourney_is_closed_tour(t) && !kt_tourney_is_open_tour(t));
    CHECK(kt_tourney_size(t) == 1 && kt_tourney_shape(t) == KT_SHAPE_CYCLES);

    kt_cell order[36], order2[36], succ[36];
    size_t len = 0;
    CHECK_OK(kt_tourney_order(t, 7, 0, order, 36, &len));
    CHECK(len == 36 && order[0] == 7);
    CHECK_ST(kt_tourney_order(t, 7, 0, order2, 10, &len), KT_ERANGE);
    CHECK(len == 36);
    /* The other direction is the reverse cycle. */
    CHECK_OK(kt_tourney_order(t, 7, 1, order2, 36, &len));
    for (int i = 1; i < 36; i++) CHECK(order2[i] == order[36 - i]);
    for (int i = 0; i < 36; i++) {
        CHECK(kt_graph_move(g, order[i], order[(i + 1) % 36]) != KT_MOVE_NONE);
        CHECK(kt_tourney_has_edge(t, order[i], order[(i + 1) % 36]));
    }

    kt_tourney *u = NULL;
    CHECK_OK(kt_tourney_from_order(&u, g, order, 36, KT_SHAPE_CYCLES, NULL));
    CHECK(kt_tourney_equal(t, u));
    kt_tourney_free(u);

    CHECK_OK(kt_tourney_successors(t, succ, 36));
    /* Canonical orientation: from cell 0 towards its first neighbour. */
    kt_cell a, b;
    CHECK_OK(kt_tourney_neighbors(t, 0, &a, &b));
    CHECK(succ[0] == a);
    CHECK_OK(kt_tourney_from_successors(&u, g, succ, 36, NULL));
    CHECK(kt_tourney_equal(t, u));
    kt_tourney_free(u);

    uint8_t pairs[36];
    CHECK_OK(kt_tourney_move_pairs(t, pairs, 36));
    CHECK_OK(kt_tourney_from_move_pairs(&u, g, pairs, 36, NULL));
    CHECK(kt_tourney_equal(t, u));
    kt_tourney *c = NULL;
    CHECK_OK(kt_tourney_copy(&c, t));
    CHECK(kt_tourney_equal(c, t));
    kt_tourney_free(c);
    kt_tourney_free(u);

    /* Move counts: 36 moves, a move and its reverse... relative 4 never. */
    uint64_t mc[8], rc[8], sum = 0, rsum = 0;
    CHECK_OK(kt_tourney_move_counts(t, mc));
    CHECK_OK(kt_tourney_relative_move_counts(t, rc));
    for (int i = 0; i < 8; i++) {
        sum += mc[i];
        rsum += rc[i];
    }
    CHECK_EQ_U64(sum, 36);
    CHECK_EQ_U64(rsum, 36);
    CHECK_EQ_U64(rc[4], 0);
    /* Counting by hand from the canonical successor array. */
    uint64_t hand[8] = {0};
    for (int i = 0; i < 36; i++) hand[kt_graph_move(g, (kt_cell)i, succ[i])]++;
    for (int i = 0; i < 8; i++) CHECK_EQ_U64(mc[i], hand[i]);
    double f[8], fs = 0;
    CHECK_OK(kt_stats_move_distribution(t, f));
    for (int i = 0; i < 8; i++) fs += f[i];
    CHECK(fs > 0.999999 && fs < 1.000001);

    kt_tourney_free(t);
    kt_graph_free(g);
}

static void test_tourney_of_two_cycles(void)
{
    /* Two tours of disjoint 3x4... use a 6x12 board made of two 6x6 tours side by side. */
    kt_graph *g6 = NULL, *g = NULL;
    CHECK_OK(kt_graph_new(&g6, 6, 6));
    CHECK_OK(kt_graph_new(&g, 12, 6));
    kt_tourney *t6 = tour_of(g6, KT_SHAPE_CYCLES);
    kt_cell s6[36], succ[72];
    CHECK_OK(kt_tourney_successors(t6, s6, 36));
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 6; x++) {
            kt_cell s = s6[y * 6 + x];
            uint32_t sx = s % 6, sy = s / 6;
            succ[y * 12 + x] = sy * 12 + sx;
            succ[y * 12 + x + 6] = sy * 12 + sx + 6;
        }
    kt_tourney *t = NULL;
    CHECK_OK(kt_tourney_from_successors(&t, g, succ, 72, NULL));
    CHECK(kt_tourney_size(t) == 2 && !kt_tourney_is_closed_tour(t));
    uint32_t lab[72];
    CHECK_OK(kt_tourney_cycle_labels(t, lab, 72));
    CHECK(lab[0] == 0 && lab[6] == 1 && lab[71] == 1 && lab[60] == 0);
    kt_tourney_free(t);
    kt_tourney_free(t6);
    kt_graph_free(g6);
    kt_graph_free(g);
}

static void test_open_tours(void)
{
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 5, 5));
    kt_tourney *t = NULL;
    CHECK_ST(kt_exhaustive_tour(&t, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL), KT_ENOTOUR);
    CHECK(t == NULL);
    CHECK_OK(kt_exhaustive_tour(&t, g, KT_SHAPE_PATH, 0, KT_CELL_NONE, NULL));
    CHECK(kt_tourney_is_open_tour(t) && kt_tourney_size(t) == 1);
    kt_cell a, b, order[25];
    size_t len;
    CHECK_OK(kt_tourney_ends(t, &a, &b));
    CHECK(a == 0);
    CHECK_ST(kt_tourney_order(t, 12, 0, order, 25, &len), b == 12 ? KT_OK : KT_EINVAL);
    CHECK_OK(kt_tourney_order(t, a, 0, order, 25, &len));
    CHECK(len == 25 && order[24] == b);
    kt_tourney *u = NULL;
    CHECK_OK(kt_tourney_from_order(&u, g, order, 25, KT_SHAPE_PATH, NULL));
    CHECK(kt_tourney_equal(t, u));
    kt_cell succ[25];
    CHECK_OK(kt_tourney_successors(t, succ, 25));
    CHECK(succ[b] == KT_CELL_NONE && succ[a] == order[1]);
    uint64_t rc[8], rs = 0;
    CHECK_OK(kt_tourney_relative_move_counts(t, rc));
    for (int i = 0; i < 8; i++) rs += rc[i];
    CHECK_EQ_U64(rs, 23); /* n - 2 interior pairs */
    kt_tourney_free(u);
    kt_tourney_free(t);
    /* Fixed start and end: 5x5 open tours from a corner to the centre exist? Colour rule:
     * both ends on the majority colour; (0,0) and (1,0) differ: proved impossible. */
    CHECK_ST(kt_exhaustive_tour(&t, g, KT_SHAPE_PATH, 0, 1, NULL), KT_ENOTOUR);
    CHECK_OK(kt_exhaustive_tour(&t, g, KT_SHAPE_PATH, 0, 24, NULL));
    CHECK_OK(kt_tourney_ends(t, &a, &b));
    CHECK(a == 0 && b == 24);
    kt_tourney_free(t);
    kt_graph_free(g);

    /* 1x1: a single cell is both a closed and an open tour. */
    CHECK_OK(kt_graph_new(&g, 1, 1));
    kt_cell only = 0;
    CHECK_OK(kt_tourney_from_order(&t, g, &only, 1, KT_SHAPE_CYCLES, NULL));
    CHECK(kt_tourney_is_closed_tour(t) && kt_tourney_is_open_tour(t));
    kt_tourney_free(t);
    kt_graph_free(g);
}

static void test_validation(void)
{
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 6, 6));
    kt_tourney *t = tour_of(g, KT_SHAPE_CYCLES), *u = (kt_tourney *)&g;
    kt_cell order[36], succ[36];
    size_t len;
    CHECK_OK(kt_tourney_order(t, 0, 0, order, 36, &len));
    kt_diag d;

    kt_cell bad[36];
    memcpy(bad, order, sizeof bad);
    bad[5] = bad[9]; /* repeated */
    CHECK_ST(kt_tourney_from_order(&u, g, bad, 36, KT_SHAPE_CYCLES, &d), KT_EBADTOUR);
    CHECK(u == NULL);
    CHECK(d.rule == KT_RULE_REPEATED || d.rule == KT_RULE_NOT_A_MOVE);
    memcpy(bad, order, sizeof bad);
    bad[3] = 99;
    CHECK_ST(kt_tourney_from_order(&u, g, bad, 36, KT_SHAPE_CYCLES, &d), KT_EBADTOUR);
    CHECK(d.rule == KT_RULE_NOT_A_CELL && d.cell == 99);
    memcpy(bad, order, sizeof bad);
    kt_cell tmp = bad[10]; /* swap two cells: breaks adjacency */
    bad[10] = bad[20];
    bad[20] = tmp;
    CHECK_ST(kt_tourney_from_order(&u, g, bad, 36, KT_SHAPE_CYCLES, &d), KT_EBADTOUR);
    CHECK(d.rule == KT_RULE_NOT_A_MOVE);
    /* As an open path it is valid; closing it needs last->first. */
    CHECK_OK(kt_tourney_from_order(&u, g, order, 36, KT_SHAPE_PATH, NULL));
    CHECK(kt_tourney_is_open_tour(u));
    kt_tourney_free(u);
    CHECK_ST(kt_tourney_from_order(&u, g, order, 35, KT_SHAPE_PATH, NULL), KT_EINVAL);

    CHECK_OK(kt_tourney_successors(t, succ, 36));
    kt_cell s2[36];
    memcpy(s2, succ, sizeof s2);
    s2[order[7]] = order[9]; /* not a move, or entered twice */
    CHECK_ST(kt_tourney_from_successors(&u, g, s2, 36, &d), KT_EBADTOUR);
    memcpy(s2, succ, sizeof s2);
    s2[order[4]] = KT_CELL_NONE; /* an open path ending at order[4] */
    CHECK_OK(kt_tourney_from_successors(&u, g, s2, 36, &d));
    CHECK(kt_tourney_is_open_tour(u));
    kt_tourney_free(u);
    s2[order[20]] = KT_CELL_NONE; /* two ends */
    CHECK_ST(kt_tourney_from_successors(&u, g, s2, 36, &d), KT_EBADTOUR);
    CHECK(d.rule == KT_RULE_DEGREE);
    memcpy(s2, succ, sizeof s2);
    s2[0] = 4000000000u;
    CHECK_ST(kt_tourney_from_successors(&u, g, s2, 36, &d), KT_EBADTOUR);
    CHECK(d.rule == KT_RULE_NOT_A_CELL && d.cell == 0);
    CHECK_ST(kt_tourney_validate_successors(g, succ, 36, &d), KT_OK);

    uint8_t pairs[36];
    CHECK_OK(kt_tourney_move_pairs(t, pairs, 36));
    pairs[0] = 0xF0 | (pairs[0] & 0xF); /* drop one side of an edge */
    CHECK_ST(kt_tourney_from_move_pairs(&u, g, pairs, 36, &d), KT_EBADTOUR);
    CHECK(d.rule == KT_RULE_DEGREE);

    kt_tourney_free(t);
    kt_tourney_free(NULL);
    kt_graph_free(g);
}

typedef struct counts {
    long live, total;
} counts;

static void *count_alloc(void *opaque, size_t size)
{
    counts *c = opaque;
    c->live++;
    c->total++;
    return malloc(size);
}

static void count_free(void *opaque, void *ptr)
{
    counts *c = opaque;
    if (ptr) c->live--;
    free(ptr);
}

static void test_allocator_and_refs(void)
{
    counts cnt = {0, 0};
    kt_allocator al = {count_alloc, count_free, &cnt};
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new_custom(&g, 6, 6, 2, 1, NULL, &al));
    kt_tourney *t = tour_of(g, KT_SHAPE_CYCLES);
    /* The tourney keeps the graph alive. */
    kt_graph_free(g);
    CHECK(kt_graph_width(kt_tourney_graph(t)) == 6);
    char buf[512];
    size_t len;
    CHECK_OK(kt_io_write_buffer(t, KT_IO_MOVES, 0, KT_CELL_NONE, buf, sizeof buf, &len));
    kt_tourney_free(t);
    CHECK(cnt.total > 3);
    CHECK(cnt.live == 0);
}

/* An accumulator allocates and frees through the allocator it is given. */
static void test_stats_allocator(void)
{
    counts cnt = {0, 0};
    kt_allocator al = {count_alloc, count_free, &cnt};
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 6, 6));
    kt_tourney *t = tour_of(g, KT_SHAPE_CYCLES);
    kt_stats *s = NULL;
    CHECK_OK(kt_stats_new(&s, &al));
    CHECK(cnt.total == 1 && cnt.live == 1);
    CHECK_OK(kt_stats_add(s, t));
    CHECK_OK(kt_stats_add(s, t));
    CHECK(kt_stats_count(s) == 2);
    double mean[8], sd[8], f[8];
    CHECK_OK(kt_stats_moves(s, mean, sd));
    CHECK_OK(kt_stats_move_distribution(t, f));
    for (int i = 0; i < 8; i++) CHECK(mean[i] == f[i] && sd[i] == 0.0);
    kt_stats_free(s);
    CHECK(cnt.total == 1 && cnt.live == 0);
    kt_allocator bad = {NULL, NULL, NULL};
    s = (kt_stats *)&cnt;
    CHECK_ST(kt_stats_new(&s, &bad), KT_EINVAL);
    CHECK(s == NULL && kt_stats_count(NULL) == 0);
    kt_stats_free(NULL);
    kt_tourney_free(t);
    kt_graph_free(g);
}

/* kt_diag: the rule and cell of a rejected tour, no text position, and
 * cleared on success and on argument errors. */
static bool diag_clear(const kt_diag *d)
{
    return d->line == 0 && d->column == 0 && d->rule == KT_RULE_NONE && d->cell == KT_CELL_NONE;
}

static void test_diag(void)
{
    const kt_diag junk = {7, 7, KT_RULE_HOLE, 3};
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 6, 6));
    kt_tourney *t = tour_of(g, KT_SHAPE_CYCLES), *u = NULL;
    kt_cell order[36], bad[36], succ[36];
    size_t len;
    CHECK_OK(kt_tourney_order(t, 0, 0, order, 36, &len));

    /* Cell order[3] entered again at position 5. */
    memcpy(bad, order, sizeof bad);
    bad[5] = order[3];
    kt_diag d = junk;
    CHECK_ST(kt_tourney_from_order(&u, g, bad, 36, KT_SHAPE_CYCLES, &d), KT_EBADTOUR);
    CHECK(d.rule == KT_RULE_REPEATED && d.cell == order[3] && d.line == 0 && d.column == 0);
    /* Cells 0 and 1 are not a knight move apart: the move from cell 0 breaks. */
    bad[0] = 0;
    bad[1] = 1;
    d = junk;
    CHECK_ST(kt_tourney_from_order(&u, g, bad, 36, KT_SHAPE_PATH, &d), KT_EBADTOUR);
    CHECK(d.rule == KT_RULE_NOT_A_MOVE && d.cell == 0);
    /* Cleared on success and on an argument error. */
    d = junk;
    CHECK_OK(kt_tourney_from_order(&u, g, order, 36, KT_SHAPE_CYCLES, &d));
    CHECK(diag_clear(&d));
    kt_tourney_free(u);
    d = junk;
    CHECK_ST(kt_tourney_from_order(&u, g, order, 35, KT_SHAPE_CYCLES, &d), KT_EINVAL);
    CHECK(diag_clear(&d) && u == NULL);

    /* Successors: a cell pointing off the board, then a clean validation. */
    CHECK_OK(kt_tourney_successors(t, succ, 36));
    kt_cell keep = succ[17];
    succ[17] = 36;
    d = junk;
    CHECK_ST(kt_tourney_validate_successors(g, succ, 36, &d), KT_EBADTOUR);
    CHECK(d.rule == KT_RULE_NOT_A_CELL && d.cell == 17 && d.line == 0);
    succ[17] = keep;
    d = junk;
    CHECK_OK(kt_tourney_validate_successors(g, succ, 36, &d));
    CHECK(diag_clear(&d));
    d = junk;
    CHECK_OK(kt_tourney_from_successors(&u, g, succ, 36, &d));
    CHECK(diag_clear(&d) && kt_tourney_equal(t, u));
    kt_tourney_free(u);

    /* Move pairs: a hole given a move. */
    uint8_t mask[36], pairs[36];
    memset(mask, 1, sizeof mask);
    mask[0] = 0;
    kt_graph *h = NULL;
    CHECK_OK(kt_graph_new_custom(&h, 6, 6, 2, 1, mask, NULL));
    memset(pairs, 0xFF, sizeof pairs);
    pairs[0] = 0xF7;
    d = junk;
    CHECK_ST(kt_tourney_from_move_pairs(&u, h, pairs, 36, &d), KT_EBADTOUR);
    CHECK(d.rule == KT_RULE_HOLE && d.cell == 0 && d.line == 0 && d.column == 0);
    kt_graph_free(h);

    /* NULL-safe getters. */
    kt_cell a = 1, b = 2;
    CHECK(kt_tourney_size(NULL) == 0 && kt_tourney_graph(NULL) == NULL);
    CHECK(!kt_tourney_is_closed_tour(NULL) && !kt_tourney_is_open_tour(NULL));
    CHECK(kt_tourney_shape(NULL) == KT_SHAPE_CYCLES && !kt_tourney_has_edge(NULL, 0, 1));
    CHECK(!kt_tourney_equal(NULL, NULL));
    CHECK_ST(kt_tourney_neighbors(NULL, 0, &a, &b), KT_EINVAL);
    CHECK(a == KT_CELL_NONE && b == KT_CELL_NONE);
    a = b = 1;
    CHECK_ST(kt_tourney_ends(t, &a, &b), KT_EINVAL); /* a cycle has no ends */
    CHECK(a == KT_CELL_NONE && b == KT_CELL_NONE);
    kt_tourney_free(t);
    kt_graph_free(g);
}

int main(void)
{
    test_round_trips();
    test_tourney_of_two_cycles();
    test_open_tours();
    test_validation();
    test_allocator_and_refs();
    test_stats_allocator();
    test_diag();
    return check_done("test_tourney");
}
