/* SPDX-License-Identifier: MIT */
/*
 * The join's exact step on narrow boards (lib/rails/narrow.c) against brute
 * force: on small boards every closed tour is enumerated by a plain
 * depth-first search, and for several tourneys the dynamic programme's tour
 * must be a closed tour that keeps exactly as many of the tourney's moves
 * as the best of all tours.  Boards without a closed tour must give
 * KT_ENOTOUR, holes included, and the number of tours found must match the
 * published counts (3 x 10: 16, 3 x 12: 176, 3 x 14: 1,536, 5 x 6: 8).
 */
#include "rails/rails_internal.h"

#include <knight/knight.h>

#include "check.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TOURS 8192

typedef struct board {
    const kt_graph *g;
    uint8_t *tours; /* MAX_TOURS rows of ncells move pairs */
    size_t ntours;
    uint8_t *seen;
    kt_cell *path;
    kt_cell start;
} board;

static bool has_move(uint8_t p, int m)
{
    return (p & 15) == m || (p >> 4) == m;
}

/* Store the cycle path[0..n-1] once (the direction with path[1] < path[n-1]). */
static void store(board *B, size_t n)
{
    if (B->path[1] > B->path[n - 1] || B->ntours == MAX_TOURS) return;
    uint8_t *mv = B->tours + B->ntours++ * B->g->ncells;
    memset(mv, 0xFF, B->g->ncells);
    for (size_t i = 0; i < n; i++) {
        kt_cell c = B->path[i], d = B->path[(i + 1) % n];
        for (int m = 0; m < KT_MOVE_COUNT; m++)
            if (kti_step(B->g, c, m) == d) {
                kti_pair_add(mv, c, m);
                kti_pair_add(mv, d, (m + 4) & 7);
            }
    }
}

/* Whether unvisited x still has two possible tour neighbours once the path
 * ends at `end` (unvisited vertices, the end and the start). */
static bool alive(const board *B, kt_cell x, kt_cell end)
{
    int k = 0;
    for (int m = 0; m < KT_MOVE_COUNT; m++) {
        kt_cell y = kti_step(B->g, x, m);
        if (y != KT_CELL_NONE && (!B->seen[y] || y == end || y == B->start)) k++;
    }
    return k >= 2;
}

static void dfs(board *B, size_t len)
{
    const kt_graph *g = B->g;
    kt_cell c = B->path[len - 1];
    for (int m = 0; m < KT_MOVE_COUNT; m++) {
        kt_cell d = kti_step(g, c, m);
        if (d == KT_CELL_NONE) continue;
        if (d == B->start && len == g->nverts) store(B, len);
        if (B->seen[d]) continue;
        B->seen[d] = 1;
        B->path[len] = d;
        bool ok = true; /* c's other neighbours just lost c as a way in */
        for (int k = 0; k < KT_MOVE_COUNT && ok; k++) {
            kt_cell x = kti_step(g, c, k);
            if (x != KT_CELL_NONE && !B->seen[x]) ok = alive(B, x, d);
        }
        if (ok) dfs(B, len + 1);
        B->seen[d] = 0;
    }
}

/* Symmetric weights: tour a with about a third of its edges taken out,
 * then the edges of tour b whose ends both have room. */
static void spoil(const kt_graph *g, uint8_t *mv, const uint8_t *a, const uint8_t *b, uint64_t seed)
{
    size_t n = g->ncells;
    for (kt_cell c = 0; c < n; c++)
        for (int m = 0; m < KT_MOVE_COUNT; m++) {
            kt_cell d = kti_step(g, c, m);
            if (d == KT_CELL_NONE || d < c || !has_move(a[c], m)) continue;
            if ((c + seed) % 3 != 0) {
                kti_pair_add(mv, c, m);
                kti_pair_add(mv, d, (m + 4) & 7);
            }
        }
    for (kt_cell c = 0; c < n; c++)
        for (int m = 0; m < KT_MOVE_COUNT; m++) {
            kt_cell d = kti_step(g, c, m);
            if (d == KT_CELL_NONE || d < c || !has_move(b[c], m) || has_move(mv[c], m)) continue;
            if ((mv[c] >> 4) == 15 && (mv[d] >> 4) == 15) {
                kti_pair_add(mv, c, m);
                kti_pair_add(mv, d, (m + 4) & 7);
            }
        }
}

/* Edges of tour t that the move pairs mv also have. */
static size_t overlap(const kt_graph *g, const uint8_t *t, const uint8_t *mv)
{
    size_t k = 0;
    for (kt_cell c = 0; c < g->ncells; c++)
        for (int m = 0; m < KT_MOVE_COUNT; m++)
            if (t[c] != 0xFF && has_move(t[c], m) && has_move(mv[c], m)) k++;
    return k / 2;
}

/* One cycle through every vertex, two moves each, consistent both ways. */
static bool is_closed_tour(const kt_graph *g, const uint8_t *t)
{
    size_t len = 0;
    kt_cell first = 0;
    while (!kti_is_vertex(g, first)) first++;
    kt_cell prev = KT_CELL_NONE, c = first;
    do {
        int lo = t[c] & 15, hi = t[c] >> 4;
        if (lo >= KT_MOVE_COUNT || hi >= KT_MOVE_COUNT) return false;
        kt_cell a = kti_step(g, c, lo), b = kti_step(g, c, hi);
        if (a == KT_CELL_NONE || b == KT_CELL_NONE) return false;
        if (!has_move(t[a], (lo + 4) & 7) || !has_move(t[b], (hi + 4) & 7)) return false;
        kt_cell next = a != prev ? a : b;
        prev = c, c = next;
        len++;
    } while (c != first && len <= g->nverts);
    return c == first && len == g->nverts;
}

/* mask: NULL, or h rows of w characters, '#' a cell and '.' a hole */
static void check_board(const char *mask, uint32_t w, uint32_t h, size_t tours)
{
    kt_graph *g = NULL;
    uint8_t bytes[64];
    for (size_t i = 0; mask != NULL && i < (size_t)w * h; i++) bytes[i] = mask[i] == '#';
    CHECK_ST(kt_graph_new_custom(&g, w, h, 2, 1, mask != NULL ? bytes : NULL, NULL), KT_OK);
    if (g == NULL) return;
    size_t n = g->ncells;
    board B = {.g = g, .tours = malloc(MAX_TOURS * n), .seen = calloc(n, 1), .path = malloc(n * sizeof(kt_cell))};
    uint8_t *out = malloc(n), *mv = malloc(n);
    CHECK(B.tours != NULL && B.seen != NULL && B.path != NULL && out != NULL && mv != NULL);
    while (!kti_is_vertex(g, B.start)) B.start++;
    B.seen[B.start] = 1;
    B.path[0] = B.start;
    dfs(&B, 1);
    if (tours != SIZE_MAX) CHECK_EQ_U64(B.ntours, tours);
    CHECK(B.ntours < MAX_TOURS); /* all of them, or the brute force is not one */
    if (getenv("NEAREST_VERBOSE")) fprintf(stderr, "%ux%u: %zu tours\n", w, h, B.ntours);
    for (uint64_t seed = 0; seed < 12; seed++) {
        /* the weights: a Warnsdorff tourney, or an enumerated tour spoiled by
         * a few rail switches' worth of random moves */
        kt_tourney *t = NULL;
        memset(mv, 0xFF, n);
        if (kt_generate_tourney(&t, g, KT_GENERATE_WARNSDORFF, seed, NULL) == KT_OK) {
            memcpy(mv, t->mv, n);
        } else if (B.ntours > 1) {
            spoil(g, mv, B.tours + (seed % B.ntours) * n, B.tours + ((seed * 7 + 1) % B.ntours) * n, seed);
        }
        kt_tourney_free(t);
        kt_status st = kti_rails_nearest_tour(g, mv, out, (size_t)1 << 22, NULL, 0, 0);
        if (B.ntours == 0) {
            CHECK_ST(st, KT_ENOTOUR);
            continue;
        }
        if (st != KT_OK) fprintf(stderr, "%ux%u seed %llu\n", w, h, (unsigned long long)seed);
        CHECK_ST(st, KT_OK);
        if (st != KT_OK) continue;
        CHECK(is_closed_tour(g, out));
        size_t best = 0;
        for (size_t i = 0; i < B.ntours; i++) {
            size_t k = overlap(g, B.tours + i * n, mv);
            if (k > best) best = k;
        }
        CHECK_EQ_U64(overlap(g, out, mv), best);
    }
    free(B.tours), free(B.seen), free(B.path), free(out), free(mv);
    kt_graph_free(g);
}

int main(void)
{
    check_board(NULL, 10, 3, 16);  /* Schwenk: 3 x n has tours for even n >= 10 */
    check_board(NULL, 3, 10, 16);  /* the same board along the other side */
    check_board(NULL, 12, 3, 176);
    check_board(NULL, 14, 3, 1536);
    check_board(NULL, 6, 5, 8);
    check_board(NULL, 5, 6, 8);
    check_board(NULL, 8, 3, 0);    /* too short */
    check_board(NULL, 6, 4, 0);    /* 4 rows never (Schwenk) */
    check_board(NULL, 5, 5, 0);    /* odd */
    /* holes: boards with and without tours (counted by the search itself) */
    check_board("##.###"
                "######"
                ".####."
                "######"
                "###.##"
                "######", 6, 6, 0);
    check_board("########"
                "###.####"
                "########"
                "####.###"
                "########", 8, 5, SIZE_MAX);
    check_board("#####.#"
                "###.###"
                "#######"
                "#######"
                ".######", 7, 5, SIZE_MAX);
    return check_done("nearest");
}
