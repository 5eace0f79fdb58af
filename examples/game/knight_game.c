/* SPDX-License-Identifier: MIT */
/*
 * A game-style use of libknight: a seeded closed tour (the same seed gives
 * the same tour on every machine and thread count), walked move by move as
 * a game would animate it, then drawn as SVG.
 *
 *   knight_game [WIDTH HEIGHT [SEED [OUT.svg]]]    (default 8 8 42 tour.svg)
 *
 * Prints one line per move ("move 1: a1 (0,0) -> c2 (2,1)") and ends with
 * "closed tour of W x H: valid, N moves, back to the start"; exit status 0
 * only when every move is a knight's move, every cell is visited once and
 * the last move returns to the first cell.
 */
#include <knight/knight.h>

#include <stdio.h>
#include <stdlib.h>

static int to_file(void *user, const char *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)user) == len ? 0 : 1;
}

/* A cell in chess notation (files a.., ranks 1..); boards up to 26 wide. */
static void cell_name(const kt_graph *g, kt_cell c, char buf[16])
{
    uint32_t x = 0, y = 0;
    kt_graph_coords(g, c, &x, &y);
    if (x < 26)
        snprintf(buf, 16, "%c%u", 'a' + (int)x, (unsigned)(y + 1));
    else
        snprintf(buf, 16, "?%u", (unsigned)(y + 1));
}

static int fail(const char *what, kt_status st)
{
    fprintf(stderr, "knight_game: %s: %s\n", what, kt_strerror(st));
    return 1;
}

int main(int argc, char **argv)
{
    uint32_t w = argc > 2 ? (uint32_t)strtoul(argv[1], NULL, 10) : 8;
    uint32_t h = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 8;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 42;
    const char *svg = argc > 4 ? argv[4] : "tour.svg";

    kt_graph *g = NULL;
    kt_tourney *tour = NULL, *again = NULL;
    kt_options *run = NULL;
    kt_status st = kt_graph_new(&g, w, h);
    if (st != KT_OK)
        return fail("board", st);
    if (!kt_graph_board_has_closed_tour(w, h)) {
        fprintf(stderr, "knight_game: %u x %u has no closed tour (Schwenk)\n", (unsigned)w, (unsigned)h);
        kt_graph_free(g);
        return 1;
    }

    /* One thread: a game gets its answer on the calling thread. */
    st = kt_options_new(&run, NULL);
    if (st == KT_OK)
        st = kt_options_set_threads(run, 1);
    if (st == KT_OK)
        st = kt_generate_closed_tour(&tour, g, seed, run);
    /* Determinism: the same seed gives the same tour. */
    if (st == KT_OK)
        st = kt_generate_closed_tour(&again, g, seed, run);
    if (st != KT_OK) {
        kt_options_free(run);
        kt_graph_free(g);
        return fail("closed tour", st);
    }
    int same = kt_tourney_equal(tour, again);

    size_t n = kt_graph_cell_count(g), len = 0;
    kt_cell *order = malloc(n * sizeof *order);
    unsigned char *seen = calloc(n, 1);
    int ok = order != NULL && seen != NULL && kt_tourney_is_closed_tour(tour) && same;
    if (ok)
        ok = kt_tourney_order(tour, 0, 0, order, n, &len) == KT_OK && len == n;

    /* Step through the tour as a game would: one move per frame. */
    for (size_t i = 0; ok && i < n; i++) {
        kt_cell from = order[i], to = order[(i + 1) % n];
        uint32_t fx, fy, tx, ty;
        char a[16], b[16];
        kt_graph_coords(g, from, &fx, &fy);
        kt_graph_coords(g, to, &tx, &ty);
        cell_name(g, from, a);
        cell_name(g, to, b);
        int move = kt_graph_move(g, from, to);
        if (move == KT_MOVE_NONE || seen[from]) {
            ok = 0;
            break;
        }
        seen[from] = 1;
        printf("move %zu: %s (%u,%u) -> %s (%u,%u)%s\n", i + 1, a, (unsigned)fx, (unsigned)fy, b,
               (unsigned)tx, (unsigned)ty, i + 1 == n ? " (back to the start)" : "");
    }

    FILE *f = ok ? fopen(svg, "w") : NULL;
    if (ok && f == NULL) {
        perror(svg);
        ok = 0;
    }
    if (f != NULL) {
        st = kt_io_write(tour, KT_IO_SVG, KT_IO_WRITE_SVG_NUMBERS, KT_CELL_NONE, to_file, f);
        if (fclose(f) != 0 || st != KT_OK) {
            fprintf(stderr, "knight_game: writing %s failed\n", svg);
            ok = 0;
        }
    }
    if (ok)
        printf("closed tour of %u x %u: valid, %zu moves, back to the start; seed %llu reproduces it; %s written\n",
               (unsigned)w, (unsigned)h, n, (unsigned long long)seed, svg);
    else
        fprintf(stderr, "knight_game: the tour did not validate\n");

    free(order);
    free(seen);
    kt_tourney_free(again);
    kt_tourney_free(tour);
    kt_options_free(run);
    kt_graph_free(g);
    return ok ? 0 : 1;
}
