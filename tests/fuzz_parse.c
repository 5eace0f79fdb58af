/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for every text reader (tours in each format, board masks).
 * Built with -fsanitize=fuzzer it is a libFuzzer target
 * (meson -Dfuzz=true, clang); otherwise main() replays the corpus files
 * given on the command line, plus many corruptions of each, as a plain
 * regression test.  Whatever the input, a reader must return a status and
 * either a valid object or none.
 */
#include <knight/knight.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_valid(const kt_tourney *t)
{
    const kt_graph *g = kt_tourney_graph(t);
    size_t n = kt_graph_cell_count(g);
    kt_cell *succ = malloc(n * sizeof *succ);
    if (succ == NULL) return;
    if (kt_tourney_successors(t, succ, n) != KT_OK ||
        kt_tourney_validate_successors(g, succ, n, NULL) != KT_OK)
        abort();
    /* Writing and reading back is the identity. */
    size_t len = 0;
    if (kt_io_write_buffer(t, KT_IO_MOVES, 0, KT_CELL_NONE, NULL, 0, &len) != KT_ERANGE) abort();
    char *text = malloc(len + 1);
    kt_tourney *u = NULL;
    if (text == NULL ||
        kt_io_write_buffer(t, KT_IO_MOVES, 0, KT_CELL_NONE, text, len + 1, &len) != KT_OK ||
        kt_io_parse(&u, g, text, len, KT_IO_MOVES, 0, NULL, NULL) != KT_OK ||
        !kt_tourney_equal(t, u))
        abort();
    kt_tourney_free(u);
    free(text);
    free(succ);
}

static bool diag_clear(const kt_diag *d)
{
    return d->line == 0 && d->column == 0 && d->rule == KT_RULE_NONE && d->cell == KT_CELL_NONE;
}

/* A parse error's position lies in the text (or just past its end). */
static bool in_text(const char *text, size_t size, const kt_diag *d)
{
    uint64_t lines = 1, col = 1, maxcol = 1;
    for (size_t i = 0; i < size; i++) {
        if (text[i] == '\n') {
            if (lines == d->line) maxcol = col;
            lines++;
            col = 1;
        } else {
            col++;
        }
    }
    if (lines == d->line) maxcol = col;
    return d->line >= 1 && d->line <= lines && d->column >= 1 && d->column <= maxcol;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    for (int f = KT_IO_AUTO; f <= KT_IO_SVG; f++) {
        for (unsigned flags = 0; flags <= KT_IO_READ_OPEN; flags++) {
            kt_tourney *t = NULL;
            kt_diag d;
            kt_status st = kt_io_parse(&t, NULL, text, size, (kt_io_format)f, flags, NULL, &d);
            if (st == KT_OK) {
                if (t == NULL || !diag_clear(&d)) abort();
                check_valid(t);
                kt_tourney_free(t);
            } else {
                if (t != NULL) abort();
                if (st == KT_EPARSE && (!in_text(text, size, &d) || d.rule != KT_RULE_NONE)) abort();
                if (st == KT_EBADTOUR && (d.rule == KT_RULE_NONE || d.cell == KT_CELL_NONE)) abort();
            }
        }
    }
    kt_graph *g = NULL;
    kt_diag d;
    kt_status st = kt_graph_parse_mask(&g, text, size, 2, 1, NULL, &d);
    if (st == KT_OK) {
        if (kt_graph_cell_count(g) == 0 || !diag_clear(&d)) abort();
        kt_graph_free(g);
    } else if (g != NULL) {
        abort();
    } else if (st == KT_EPARSE && (!in_text(text, size, &d) || d.rule != KT_RULE_NONE)) {
        abort();
    }
    return 0;
}

#ifndef KT_FUZZING
int main(int argc, char **argv)
{
    uint64_t x = 0x2545F4914F6CDD1Du;
    size_t runs = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (f == NULL) {
            perror(argv[i]);
            return 1;
        }
        static char buf[1 << 16];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        LLVMFuzzerTestOneInput((const uint8_t *)buf, n);
        runs++;
        /* Deterministic corruptions of each corpus file. */
        char *m = malloc(n + 1);
        for (int r = 0; r < 400 && n > 0; r++) {
            memcpy(m, buf, n);
            size_t ml = n;
            for (int e = 0; e <= r % 4; e++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                size_t at = x % ml;
                if ((x >> 60) == 0) ml = at + 1;
                else m[at] = (char)(x >> 24);
            }
            LLVMFuzzerTestOneInput((const uint8_t *)m, ml);
            runs++;
        }
        free(m);
    }
    printf("fuzz_parse: %zu inputs, no failure\n", runs);
    return 0;
}
#endif
