/* SPDX-License-Identifier: MIT */
/* kt_graph: geometry, move numbering, holes, leapers, overflow, existence rules. */
#include <knight/knight.h>

#include <string.h>

#include "check.h"

/* The spec's table of knight moves. */
static const int spec_dx[8] = {2, 1, -1, -2, -2, -1, 1, 2};
static const int spec_dy[8] = {-1, -2, -2, -1, 1, 2, 2, 1};

static void test_moves(void)
{
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 8, 8));
    for (int m = 0; m < 8; m++) {
        CHECK(kt_graph_move_dx(g, m) == spec_dx[m]);
        CHECK(kt_graph_move_dy(g, m) == spec_dy[m]);
        /* (k+4) mod 8 reverses k */
        CHECK(kt_graph_move_dx(g, (m + 4) % 8) == -spec_dx[m]);
    }
    /* Every neighbour agrees with kt_graph_move, both ways. */
    uint64_t degsum = 0;
    for (kt_cell c = 0; c < 64; c++) {
        unsigned deg = 0;
        for (int m = 0; m < 8; m++) {
            kt_cell d = kt_graph_neighbor(g, c, m);
            uint32_t x, y;
            CHECK_OK(kt_graph_coords(g, c, &x, &y));
            int nx = (int)x + spec_dx[m], ny = (int)y + spec_dy[m];
            bool on = nx >= 0 && ny >= 0 && nx < 8 && ny < 8;
            CHECK((d != KT_CELL_NONE) == on);
            if (d == KT_CELL_NONE) continue;
            deg++;
            CHECK(d == (kt_cell)(ny * 8 + nx));
            CHECK(kt_graph_move(g, c, d) == m);
            CHECK(kt_graph_move(g, d, c) == (m + 4) % 8);
        }
        CHECK(deg == kt_graph_degree(g, c));
        degsum += deg;
    }
    CHECK_EQ_U64(kt_graph_edge_count(g), 168); /* the 8x8 knight's graph has 168 edges */
    CHECK_EQ_U64(degsum, 2 * 168);
    CHECK(kt_graph_degree(g, 0) == 2 && kt_graph_degree(g, 27) == 8);
    CHECK(kt_graph_neighbor(g, 0, 8) == KT_CELL_NONE);
    CHECK(kt_graph_neighbor(g, 64, 0) == KT_CELL_NONE);
    CHECK(kt_graph_move(g, 0, 1) == KT_MOVE_NONE);
    CHECK(kt_graph_cell(g, 8, 0) == KT_CELL_NONE);
    CHECK(kt_graph_cell(g, 3, 2) == 19);
    CHECK_ST(kt_graph_coords(g, 64, NULL, NULL), KT_EINVAL);
    kt_graph_free(g);
}

static void test_edges_formula(void)
{
    /* Closed form 4mn - 6(m+n) + 8 for m, n >= 2 (knight). */
    for (uint32_t m = 1; m <= 9; m++)
        for (uint32_t n = 1; n <= 9; n++) {
            kt_graph *g = NULL;
            CHECK_OK(kt_graph_new(&g, n, m));
            uint64_t want = 0;
            for (kt_cell c = 0; c < m * n; c++) want += kt_graph_degree(g, c);
            CHECK_EQ_U64(kt_graph_edge_count(g) * 2, want);
            if (m >= 2 && n >= 2) CHECK_EQ_U64(kt_graph_edge_count(g), 4 * m * n - 6 * (m + n) + 8);
            kt_graph_free(g);
        }
}

static void test_errors(void)
{
    kt_graph *g = (kt_graph *)&g;
    CHECK_ST(kt_graph_new(&g, 0, 5), KT_EINVAL);
    CHECK(g == NULL);
    CHECK_ST(kt_graph_new(NULL, 5, 5), KT_EINVAL);
    CHECK_ST(kt_graph_new(&g, 65536, 65536), KT_ETOOBIG);
    CHECK_ST(kt_graph_new(&g, UINT32_MAX, UINT32_MAX), KT_ETOOBIG);
    CHECK_ST(kt_graph_new_custom(&g, 5, 5, 2, 2, NULL, NULL), KT_EINVAL);
    CHECK_ST(kt_graph_new_custom(&g, 5, 5, 0, 1, NULL, NULL), KT_EINVAL);
    kt_allocator bad = {NULL, NULL, NULL};
    CHECK_ST(kt_graph_new_custom(&g, 5, 5, 2, 1, NULL, &bad), KT_EINVAL);
    kt_graph_free(NULL);
    CHECK(kt_graph_width(NULL) == 0);
}

static void test_masks_and_leapers(void)
{
    const char *text = "ABCDE\nFGHIJ\nKLMNO\n.123.\n";
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_parse_mask(&g, text, strlen(text), 2, 1, NULL, NULL));
    CHECK(kt_graph_width(g) == 5 && kt_graph_height(g) == 4);
    CHECK(kt_graph_vertex_count(g) == 18 && kt_graph_cell_count(g) == 20);
    CHECK(kt_graph_has_holes(g));
    CHECK(!kt_graph_is_cell(g, 15) && !kt_graph_is_cell(g, 19) && kt_graph_is_cell(g, 16));
    /* A (0,0) reaches H (2,1) by move 7 and L (1,2) by move 6: the seed's A -> H, L. */
    CHECK(kt_graph_neighbor(g, 0, 7) == 7 && kt_graph_neighbor(g, 0, 6) == 11);
    CHECK(kt_graph_degree(g, 0) == 2);
    /* Holes are not neighbours: M (2,2) -> (0,3) is a hole. */
    CHECK(kt_graph_neighbor(g, 12, 4) == KT_CELL_NONE);
    kt_graph_free(g);

    kt_diag d;
    const char *ragged = "ooo\noo\n";
    CHECK_ST(kt_graph_parse_mask(&g, ragged, strlen(ragged), 2, 1, NULL, &d), KT_EPARSE);
    CHECK(d.line == 2 && d.column == 3);
    const char *ctrl = "oo\no\to\n";
    CHECK_ST(kt_graph_parse_mask(&g, ctrl, strlen(ctrl), 2, 1, NULL, &d), KT_EPARSE);
    CHECK(d.line == 2 && d.column == 2);

    /* The (3,1)-leaper (camel... the "camel" is (3,1)). */
    CHECK_OK(kt_graph_new_custom(&g, 10, 10, 3, 1, NULL, NULL));
    CHECK(kt_graph_move_dx(g, 0) == 3 && kt_graph_move_dy(g, 0) == -1);
    CHECK(kt_graph_move_dx(g, 5) == -1 && kt_graph_move_dy(g, 5) == 3);
    uint32_t a, b;
    kt_graph_leaper(g, &a, &b);
    CHECK(a == 3 && b == 1);
    uint64_t sum = 0;
    for (kt_cell c = 0; c < 100; c++) sum += kt_graph_degree(g, c);
    CHECK_EQ_U64(sum, 2 * kt_graph_edge_count(g));
    kt_graph_free(g);
}

static void test_existence_rules(void)
{
    /* The spec's tables, literally. */
    for (uint32_t w = 1; w <= 12; w++)
        for (uint32_t h = 1; h <= 12; h++) {
            uint32_t m = w < h ? w : h, n = w < h ? h : w;
            bool closed = !((m & 1) && (n & 1)) && m != 1 && m != 2 && m != 4 &&
                          !(m == 3 && (n == 4 || n == 6 || n == 8));
            if (m == 1 && n == 1) closed = true;
            bool open = (m == 1 && n == 1) || (m == 3 && (n == 4 || n >= 7)) ||
                        (m == 4 && n >= 5) || m >= 5;
            CHECK(kt_graph_board_has_closed_tour(w, h) == closed);
            CHECK(kt_graph_board_has_open_tour(w, h) == open);
        }
    /* ...and against exhaustive search on every board of at most 40 cells. */
    for (uint32_t w = 1; w <= 40; w++)
        for (uint32_t h = 1; h <= w && w * h <= 40; h++) {
            kt_graph *g = NULL;
            CHECK_OK(kt_graph_new(&g, w, h));
            for (int shape = 0; shape < 2; shape++) {
                kt_tourney *t = NULL;
                kt_status st = kt_exhaustive_tour(&t, g, (kt_shape)shape, KT_CELL_NONE,
                                                  KT_CELL_NONE, NULL);
                int want = shape ? kt_graph_board_has_open_tour(w, h) : kt_graph_board_has_closed_tour(w, h);
                if (!(st == (want ? KT_OK : KT_ENOTOUR)))
                    fprintf(stderr, "%ux%u shape %d: %s\n", w, h, shape, kt_status_name(st));
                CHECK(st == (want ? KT_OK : KT_ENOTOUR));
                if (st == KT_OK) {
                    CHECK(shape ? kt_tourney_is_open_tour(t) : kt_tourney_is_closed_tour(t));
                }
                kt_tourney_free(t);
            }
            kt_graph_free(g);
        }
}

/* Mask parse errors name the line and column of the first byte the
 * reader cannot accept; success clears the diagnostics. */
static void test_mask_positions(void)
{
    static const struct {
        const char *text;
        uint64_t line, column;
    } bad[] = {
        {"ooo\nooo\nooo\noo\n", 4, 3},             /* short row: its line end */
        {"ooo\nooo\nooo\noo", 4, 3},                /* short last row, no newline */
        {"ooo\nooo\nooo\noooo\n", 4, 4},           /* long row: first extra cell */
        {"ooo\r\nooo\r\nooo\r\nooo.o\r\n", 4, 4}, /* the same with CRLF */
        {"ooo\nooo\nooo\no o\n", 4, 2},            /* a blank inside a row */
        {"ooo\nooo\nooo\noo\x01\n", 4, 3},        /* a control character */
        {"ooo\nooo\n\nooo\n", 4, 1},              /* a row after a blank line */
        {"ooo\nooo\nooo\n\n  \n oo\n", 6, 2},    /* the same, blanks before it */
        {"\n\n", 1, 1},                            /* no row at all */
        {"", 1, 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        kt_graph *g = (kt_graph *)&bad;
        kt_diag d = {0, 0, KT_RULE_HOLE, 5};
        CHECK_ST(kt_graph_parse_mask(&g, bad[i].text, strlen(bad[i].text), 2, 1, NULL, &d),
                 KT_EPARSE);
        if (d.line != bad[i].line || d.column != bad[i].column)
            fprintf(stderr, "mask %zu: %llu:%llu, expected %llu:%llu\n", i,
                    (unsigned long long)d.line, (unsigned long long)d.column,
                    (unsigned long long)bad[i].line, (unsigned long long)bad[i].column);
        CHECK(d.line == bad[i].line && d.column == bad[i].column);
        CHECK(d.rule == KT_RULE_NONE && d.cell == KT_CELL_NONE && g == NULL);
    }
    /* Trailing blank lines and CRLF are fine; the diagnostics are cleared. */
    const char *ok = "o.o\r\nooo\r\n\r\n\n";
    kt_graph *g = NULL;
    kt_diag d = {3, 4, KT_RULE_MISSING, 9};
    CHECK_OK(kt_graph_parse_mask(&g, ok, strlen(ok), 2, 1, NULL, &d));
    CHECK(d.line == 0 && d.column == 0 && d.rule == KT_RULE_NONE && d.cell == KT_CELL_NONE);
    CHECK(kt_graph_width(g) == 3 && kt_graph_height(g) == 2 && kt_graph_vertex_count(g) == 5);
    kt_graph_free(g);
    /* A leaper with equal legs is an argument error, not a parse error. */
    d.line = 9;
    CHECK_ST(kt_graph_parse_mask(&g, ok, strlen(ok), 2, 2, NULL, &d), KT_EINVAL);
    CHECK(d.line == 0 && d.column == 0 && g == NULL);
}

/* Every getter answers NULL with 0, NULL or "none". */
static void test_null_getters(void)
{
    uint32_t a = 9, b = 9, x = 9, y = 9;
    CHECK(kt_graph_width(NULL) == 0 && kt_graph_height(NULL) == 0);
    CHECK(kt_graph_cell_count(NULL) == 0 && kt_graph_vertex_count(NULL) == 0);
    CHECK(kt_graph_edge_count(NULL) == 0 && !kt_graph_has_holes(NULL));
    kt_graph_leaper(NULL, &a, &b);
    CHECK(a == 0 && b == 0);
    CHECK(!kt_graph_is_cell(NULL, 0) && kt_graph_cell(NULL, 0, 0) == KT_CELL_NONE);
    CHECK_ST(kt_graph_coords(NULL, 0, &x, &y), KT_EINVAL);
    CHECK(x == 9 && y == 9);
    CHECK(kt_graph_move_dx(NULL, 0) == 0 && kt_graph_move_dy(NULL, 0) == 0);
    CHECK(kt_graph_neighbor(NULL, 0, 0) == KT_CELL_NONE && kt_graph_move(NULL, 0, 7) == KT_MOVE_NONE);
    CHECK(kt_graph_degree(NULL, 0) == 0 && kt_graph_move_mask(NULL, 0) == 0);
    CHECK(!kt_graph_equal(NULL, NULL));
}

int main(void)
{
    test_moves();
    test_edges_formula();
    test_errors();
    test_masks_and_leapers();
    test_existence_rules();
    test_mask_positions();
    test_null_getters();
    return check_done("test_graph");
}
