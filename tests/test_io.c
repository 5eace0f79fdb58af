/* SPDX-License-Identifier: MIT */
/* Formats: round trips of every format, strict parsing with positions,
 * and random corruption that must never crash or build a partial object. */
#include <knight/knight.h>

#include <string.h>

#include "check.h"

static char *write_all(const kt_tourney *t, kt_io_format f, unsigned flags, size_t *len)
{
    size_t need = 0;
    kt_status st = kt_io_write_buffer(t, f, flags, KT_CELL_NONE, NULL, 0, &need);
    CHECK(st == KT_ERANGE);
    char *buf = malloc(need + 1);
    CHECK_OK(kt_io_write_buffer(t, f, flags, KT_CELL_NONE, buf, need + 1, len));
    CHECK(*len == need && strlen(buf) == need);
    return buf;
}

static void round_trip(const kt_tourney *t, kt_io_format f, unsigned wflags, unsigned rflags)
{
    size_t len;
    char *text = write_all(t, f, wflags, &len);
    kt_tourney *u = NULL;
    kt_diag d;
    kt_status st = kt_io_parse(&u, NULL, text, len, f, rflags, NULL, &d);
    if (st != KT_OK)
        fprintf(stderr, "format %d: %s at %llu:%llu\n", (int)f, kt_status_name(st),
                (unsigned long long)d.line, (unsigned long long)d.column);
    CHECK_OK(st);
    CHECK(d.line == 0 && d.column == 0 && d.rule == KT_RULE_NONE && d.cell == KT_CELL_NONE);
    CHECK(kt_tourney_equal(t, u));
    kt_tourney_free(u);
    /* Auto-detection finds the same format. */
    CHECK_OK(kt_io_parse(&u, NULL, text, len, KT_IO_AUTO, rflags, NULL, NULL));
    CHECK(kt_tourney_equal(t, u));
    kt_tourney_free(u);
    /* With the graph given, too. */
    CHECK_OK(kt_io_parse(&u, kt_tourney_graph(t), text, len, f, rflags, NULL, NULL));
    CHECK(kt_tourney_equal(t, u));
    kt_tourney_free(u);
    free(text);
}

/* Corrupt text at random: parsing must fail cleanly or give a valid object. */
static void mutate(const kt_tourney *t, kt_io_format f)
{
    size_t len;
    char *text = write_all(t, f, 0, &len);
    uint64_t x = 88172645463325252u;
    const char alphabet[] = "0123456789 .-\n<>\"xZM,#";
    for (int round = 0; round < 3000; round++) {
        char *m = malloc(len + 1);
        memcpy(m, text, len + 1);
        size_t ml = len;
        int edits = 1 + round % 3;
        for (int e = 0; e < edits; e++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            size_t at = (size_t)(x % ml);
            switch ((x >> 32) % 3) {
            case 0: m[at] = alphabet[(x >> 40) % (sizeof alphabet - 1)]; break;
            case 1: ml = at; break; /* truncate */
            default: if (at + 1 < ml) { memmove(m + at, m + at + 1, ml - at - 1); ml--; } break;
            }
            if (ml == 0) break;
        }
        kt_tourney *u = (kt_tourney *)&m;
        kt_diag d;
        kt_status st = kt_io_parse(&u, NULL, m, ml, f, 0, NULL, &d);
        if (st == KT_OK) {
            CHECK(u != NULL);
            size_t n = kt_graph_cell_count(kt_tourney_graph(u));
            kt_cell *succ = malloc(n * sizeof *succ);
            CHECK_OK(kt_tourney_successors(u, succ, n));
            CHECK_OK(kt_tourney_validate_successors(kt_tourney_graph(u), succ, n, NULL));
            free(succ);
            kt_tourney_free(u);
        } else {
            CHECK(u == NULL);
            CHECK(st == KT_EPARSE || st == KT_EBADTOUR);
            if (st == KT_EPARSE) CHECK(d.line >= 1 && d.column >= 1 && d.rule == KT_RULE_NONE);
            if (st == KT_EBADTOUR) CHECK(d.rule != KT_RULE_NONE && d.cell != KT_CELL_NONE);
        }
        free(m);
    }
    free(text);
}

static void test_errors(void)
{
    kt_tourney *u = NULL;
    kt_diag d;
    /* Line 2, column 4: a letter in a numbers file. */
    const char *t1 = "1 2\n3 x\n";
    CHECK_ST(kt_io_parse(&u, NULL, t1, strlen(t1), KT_IO_NUMBERS, 0, NULL, &d), KT_EPARSE);
    CHECK(d.line == 2 && d.column == 3);
    /* Ragged rows. */
    const char *t2 = "1 2 3\n4 5\n";
    CHECK_ST(kt_io_parse(&u, NULL, t2, strlen(t2), KT_IO_NUMBERS, 0, NULL, &d), KT_EPARSE);
    CHECK(d.line == 2 && d.column == 4);
    /* A number out of range. */
    const char *t3 = "1 2\n3 9\n";
    CHECK_ST(kt_io_parse(&u, NULL, t3, strlen(t3), KT_IO_NUMBERS, 0, NULL, &d), KT_EPARSE);
    CHECK(d.line == 2 && d.column == 3);
    /* A valid grid that is not a tour: consecutive numbers not a knight move apart;
     * the offending cell's position is reported. */
    const char *t4 = "1 2 3\n4 5 6\n7 8 9\n";
    CHECK_ST(kt_io_parse(&u, NULL, t4, strlen(t4), KT_IO_NUMBERS, 0, NULL, &d), KT_EBADTOUR);
    CHECK(d.rule == KT_RULE_NOT_A_MOVE && d.cell == 0 && d.line == 1 && d.column == 1);
    /* Moves: a digit 8 is not a move. */
    const char *t5 = "012\n845\n";
    CHECK_ST(kt_io_parse(&u, NULL, t5, strlen(t5), KT_IO_MOVES, 0, NULL, &d), KT_EPARSE);
    CHECK(d.line == 2 && d.column == 1);
    /* Moves: off the board. */
    const char *t6 = "0-\n--\n";
    CHECK_ST(kt_io_parse(&u, NULL, t6, strlen(t6), KT_IO_MOVES, 0, NULL, &d), KT_EBADTOUR);
    CHECK(d.rule == KT_RULE_NOT_A_MOVE && d.line == 1 && d.column == 1);
    /* Empty input. */
    CHECK_ST(kt_io_parse(&u, NULL, "", 0, KT_IO_NUMBERS, 0, NULL, &d), KT_EPARSE);
    CHECK(u == NULL);
    /* A graph of another size. */
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 5, 5));
    const char *one = "1\n";
    CHECK_ST(kt_io_parse(&u, g, one, strlen(one), KT_IO_NUMBERS, 0, NULL, NULL), KT_EMISMATCH);
    kt_graph_free(g);
    CHECK_OK(kt_io_parse(&u, NULL, one, strlen(one), KT_IO_AUTO, 0, NULL, NULL));
    CHECK(kt_tourney_is_closed_tour(u));
    kt_tourney_free(u);
}

static void test_numbers_direction(void)
{
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_new(&g, 6, 6));
    kt_tourney *t = NULL;
    CHECK_OK(kt_exhaustive_tour(&t, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL));
    char a[256], b[256];
    size_t la, lb;
    CHECK_OK(kt_io_write_buffer(t, KT_IO_NUMBERS, 0, 14, a, sizeof a, &la));
    CHECK_OK(kt_io_write_buffer(t, KT_IO_NUMBERS, KT_IO_WRITE_REVERSE, 14, b, sizeof b, &lb));
    /* Cell 14 (row 2, column 2) is 1 in both; the numberings differ. */
    CHECK(strncmp(a + 2 * 18 + 2 * 3, " 1", 2) == 0);
    CHECK(strncmp(b + 2 * 18 + 2 * 3, " 1", 2) == 0);
    CHECK(strcmp(a, b) != 0);
    kt_tourney_free(t);
    kt_graph_free(g);
}

/* The 1-based line and column of offset at, counted independently of the library. */
static void pos_of(const char *s, size_t at, uint64_t *line, uint64_t *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < at; i++) {
        if (s[i] == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

/* Replace the first occurrence of from (same length as to) in text. */
static size_t patch(char *text, const char *from, const char *to)
{
    char *at = strstr(text, from);
    CHECK(at != NULL && strlen(from) == strlen(to));
    if (at == NULL) return 0;
    memcpy(at, to, strlen(to));
    return (size_t)(at - text);
}

static bool diag_clear(const kt_diag *d)
{
    return d->line == 0 && d->column == 0 && d->rule == KT_RULE_NONE && d->cell == KT_CELL_NONE;
}

/* kt_diag from the readers: positions of bad tokens and of a bad SVG
 * header, the rule and cell of a bad tour, cleared on success. */
static void test_diag(void)
{
    const kt_diag junk = {5, 6, KT_RULE_MISSING, 7};
    kt_tourney *u = NULL;
    kt_diag d = junk;
    /* CRLF lines: the position still counts bytes of the line. */
    const char *t1 = "1 2\r\n3 x\r\n";
    CHECK_ST(kt_io_parse(&u, NULL, t1, strlen(t1), KT_IO_NUMBERS, 0, NULL, &d), KT_EPARSE);
    CHECK(d.line == 2 && d.column == 3 && d.rule == KT_RULE_NONE && d.cell == KT_CELL_NONE);
    /* A numbers grid that repeats 5: the second 5 (cell 4) is named, with its position. */
    const char *t2 = "1 2 3\n4 5 5\n7 8 9\n";
    d = junk;
    CHECK_ST(kt_io_parse(&u, NULL, t2, strlen(t2), KT_IO_NUMBERS, 0, NULL, &d), KT_EBADTOUR);
    CHECK(d.rule == KT_RULE_REPEATED && d.cell == 5 && d.line == 2 && d.column == 5);
    /* Moves: move 0 (+2, -1) from cell 7, (1, 2), leaves the 3x3 board: the rule, the
     * cell and its position. */
    const char *t3 = "---\n---\n-0-\n";
    d = junk;
    CHECK_ST(kt_io_parse(&u, NULL, t3, strlen(t3), KT_IO_MOVES, 0, NULL, &d), KT_EBADTOUR);
    CHECK(d.rule == KT_RULE_NOT_A_MOVE && d.cell == 7 && d.line == 3 && d.column == 2);
    /* Moves: a row too long on line 3. */
    const char *t4 = "---\n---\n----\n";
    d = junk;
    CHECK_ST(kt_io_parse(&u, NULL, t4, strlen(t4), KT_IO_AUTO, 0, NULL, &d), KT_EPARSE);
    CHECK(d.line == 3 && d.column == 4 && d.rule == KT_RULE_NONE);

    kt_graph *g = NULL;
    kt_tourney *t = NULL;
    CHECK_OK(kt_graph_new(&g, 6, 6));
    CHECK_OK(kt_exhaustive_tour(&t, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL));
    size_t len;
    char *svg = write_all(t, KT_IO_SVG, 0, &len);
    /* Success clears. */
    d = junk;
    CHECK_OK(kt_io_parse(&u, NULL, svg, len, KT_IO_AUTO, 0, NULL, &d));
    CHECK(diag_clear(&d) && kt_tourney_equal(t, u));
    kt_tourney_free(u);
    /* A leaper with equal legs, or a zero leg, is a parse error at its value. */
    static const char *const leapers[] = {"\"2,2\"", "\"0,1\""};
    for (int k = 0; k < 2; k++) {
        size_t at = patch(svg, k ? "\"2,2\"" : "\"2,1\"", leapers[k]) + 1;
        uint64_t line, col;
        pos_of(svg, at, &line, &col);
        d = junk;
        u = (kt_tourney *)&d;
        CHECK_ST(kt_io_parse(&u, NULL, svg, len, KT_IO_SVG, 0, NULL, &d), KT_EPARSE);
        CHECK(u == NULL && d.line == line && d.column == col && d.rule == KT_RULE_NONE);
    }
    free(svg);
    /* A height of zero: at the height's value. */
    svg = write_all(t, KT_IO_SVG, 0, &len);
    size_t at = patch(svg, "data-kt-height=\"6\"", "data-kt-height=\"0\"") + strlen("data-kt-height=\"");
    uint64_t line, col;
    pos_of(svg, at, &line, &col);
    d = junk;
    CHECK_ST(kt_io_parse(&u, NULL, svg, len, KT_IO_SVG, 0, NULL, &d), KT_EPARSE);
    CHECK(d.line == line && d.column == col && line == 1 && col > 1);
    free(svg);
    /* Mismatched graph: not a parse error; cleared. */
    char *moves = write_all(t, KT_IO_MOVES, 0, &len);
    kt_graph *h = NULL;
    CHECK_OK(kt_graph_new(&h, 6, 5));
    d = junk;
    CHECK_ST(kt_io_parse(&u, h, moves, len, KT_IO_MOVES, 0, NULL, &d), KT_EMISMATCH);
    CHECK(diag_clear(&d));
    kt_graph_free(h);
    free(moves);
    kt_tourney_free(t);
    kt_graph_free(g);
}

/* The 1x1 board's tour (a single cell, no move) in every format, read
 * back by name and by auto-detection ("1" in numbers, "-" in moves). */
static void test_one_cell(void)
{
    kt_graph *g = NULL;
    kt_tourney *t = NULL;
    kt_cell only = 0;
    CHECK_OK(kt_graph_new(&g, 1, 1));
    CHECK_OK(kt_tourney_from_order(&t, g, &only, 1, KT_SHAPE_CYCLES, NULL));
    CHECK(kt_tourney_is_closed_tour(t) && kt_tourney_is_open_tour(t));
    size_t len;
    char *moves = write_all(t, KT_IO_MOVES, 0, &len);
    CHECK(strcmp(moves, "-\n") == 0);
    free(moves);
    for (kt_io_format f = KT_IO_NUMBERS; f <= KT_IO_SVG; f++) round_trip(t, f, 0, 0);
    kt_tourney_free(t);
    kt_graph_free(g);
}

int main(void)
{
    kt_graph *g = NULL;
    kt_tourney *t = NULL;

    /* A closed tour. */
    CHECK_OK(kt_graph_new(&g, 8, 6));
    CHECK_OK(kt_exhaustive_tour(&t, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL));
    for (kt_io_format f = KT_IO_NUMBERS; f <= KT_IO_SVG; f++) round_trip(t, f, 0, 0);
    round_trip(t, KT_IO_SVG, KT_IO_WRITE_SVG_NUMBERS, 0);
    round_trip(t, KT_IO_SVG, KT_IO_WRITE_SVG_NO_BOARD, 0);
    mutate(t, KT_IO_NUMBERS);
    mutate(t, KT_IO_MOVES);
    mutate(t, KT_IO_SVG);
    kt_tourney_free(t);
    kt_graph_free(g);

    /* An open tour (read back as open). */
    CHECK_OK(kt_graph_new(&g, 5, 5));
    CHECK_OK(kt_exhaustive_tour(&t, g, KT_SHAPE_PATH, 0, KT_CELL_NONE, NULL));
    for (kt_io_format f = KT_IO_NUMBERS; f <= KT_IO_SVG; f++) round_trip(t, f, 0, KT_IO_READ_OPEN);
    kt_tourney_free(t);
    kt_graph_free(g);

    /* A tourney with holes: the keypad-like board 5x4 ... use a 6x6 board with
     * a closed tour on a masked 6x7 (a hole row) via search. */
    uint8_t mask[42];
    memset(mask, 1, sizeof mask);
    mask[0] = mask[41] = 0;
    CHECK_OK(kt_graph_new_custom(&g, 7, 6, 2, 1, mask, NULL));
    kt_status st = kt_exhaustive_tour(&t, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL);
    CHECK_OK(st);
    if (st == KT_OK) {
        for (kt_io_format f = KT_IO_NUMBERS; f <= KT_IO_SVG; f++) round_trip(t, f, 0, 0);
        mutate(t, KT_IO_MOVES);
        kt_tourney_free(t);
    }
    kt_graph_free(g);

    /* A (3,1)-leaper tour survives the SVG round trip with its leaper. */
    CHECK_OK(kt_graph_new_custom(&g, 6, 6, 3, 1, NULL, NULL));
    kt_options *run = NULL;
    CHECK_OK(kt_options_new(&run, NULL));
    CHECK_OK(kt_options_set_budget(run, 2000000)); /* search nodes */
    st = kt_exhaustive_tour(&t, g, KT_SHAPE_PATH, KT_CELL_NONE, KT_CELL_NONE, run);
    kt_options_free(run);
    if (st == KT_OK) {
        size_t len;
        char *text = write_all(t, KT_IO_SVG, 0, &len);
        kt_tourney *u = NULL;
        CHECK_OK(kt_io_parse(&u, NULL, text, len, KT_IO_SVG, 0, NULL, NULL));
        CHECK(kt_tourney_equal(t, u));
        kt_tourney_free(u);
        free(text);
        kt_tourney_free(t);
    }
    kt_graph_free(g);

    test_errors();
    test_numbers_direction();
    test_diag();
    test_one_cell();
    return check_done("test_io");
}
