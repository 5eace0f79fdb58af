/* SPDX-License-Identifier: MIT */
/*
 * Core throughput on large boards: validation (from successors), canonical
 * successors, cycle counting, writing and reading the move-digit and
 * visit-number formats.  The input is a tourney of 6x6 closed tours tiled
 * over an n x n board (n a multiple of 6).
 *   bench_core [n ...]     (default: 516 1026 2052)
 */
#include <knight/knight.h>

#include "bench_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct sink {
    char *buf;
    size_t len, cap;
} sink;

static int to_sink(void *user, const char *data, size_t len)
{
    sink *s = user;
    if (s->len + len > s->cap) {
        size_t cap = (s->len + len) * 2;
        char *b = realloc(s->buf, cap);
        if (b == NULL) return 1;
        s->buf = b;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, data, len);
    s->len += len;
    return 0;
}

static void report(const char *what, double secs, size_t cells)
{
    printf("  %-34s %8.3f s %8.2f ns/cell\n", what, secs, secs * 1e9 / (double)cells);
}

int main(int argc, char **argv)
{
    uint32_t sizes[16] = {516, 1026, 2052};
    int nsizes = 3;
    if (argc > 1) {
        nsizes = 0;
        for (int i = 1; i < argc && nsizes < 16; i++) sizes[nsizes++] = (uint32_t)strtoul(argv[i], NULL, 10) / 6 * 6;
    }
    kt_graph *g6 = NULL;
    kt_tourney *t6 = NULL;
    kt_cell s6[36];
    if (kt_graph_new(&g6, 6, 6) || kt_exhaustive_tour(&t6, g6, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL) ||
        kt_tourney_successors(t6, s6, 36))
        return 1;
    for (int k = 0; k < nsizes; k++) {
        uint32_t n = sizes[k];
        size_t cells = (size_t)n * n;
        printf("%ux%u (%zu cells, tourney of %zu 6x6 tours)\n", n, n, cells, cells / 36);
        kt_graph *g = NULL;
        if (kt_graph_new(&g, n, n)) return 1;
        kt_cell *succ = malloc(cells * sizeof *succ);
        for (uint32_t y = 0; y < n; y++)
            for (uint32_t x = 0; x < n; x++) {
                kt_cell s = s6[(y % 6) * 6 + x % 6];
                succ[(size_t)y * n + x] = (y - y % 6 + s / 6) * n + (x - x % 6 + s % 6);
            }
        kt_tourney *t = NULL;
        double t0 = bench_now();
        kt_status st = kt_tourney_from_successors(&t, g, succ, cells, NULL);
        report("validate + build (from successors)", bench_now() - t0, cells);
        if (st != KT_OK || kt_tourney_size(t) != cells / 36) return 1;
        t0 = bench_now();
        kt_tourney_successors(t, succ, cells);
        report("canonical successors", bench_now() - t0, cells);
        uint64_t mc[8];
        t0 = bench_now();
        kt_tourney_move_counts(t, mc);
        report("move counts", bench_now() - t0, cells);
        sink s = {NULL, 0, 0};
        t0 = bench_now();
        st = kt_io_write(t, KT_IO_MOVES, 0, KT_CELL_NONE, to_sink, &s);
        report("write move digits", bench_now() - t0, cells);
        kt_tourney *u = NULL;
        t0 = bench_now();
        st = kt_io_parse(&u, g, s.buf, s.len, KT_IO_MOVES, 0, NULL, NULL);
        report("parse move digits", bench_now() - t0, cells);
        if (st != KT_OK || !kt_tourney_equal(t, u)) return 1;
        kt_tourney_free(u);
        free(s.buf);
        kt_tourney_free(t);
        free(succ);
        kt_graph_free(g);
    }
    kt_tourney_free(t6);
    kt_graph_free(g6);
    return 0;
}
