/* SPDX-License-Identifier: MIT */
/*
 * Exact move and relative-move distributions over ALL closed tours of a
 * board (issue 17), by two independent methods, and the total-variation
 * distance.  Shared by bench/bench_stats.c and tests/test_stats.c; built on
 * the public API only (the move numbering comes from kt_graph_move_dx/dy).
 *
 * Every undirected tour is counted in both directions, so the totals are
 * those of the uniform distribution over directed tours: a tour walked
 * one way uses move m where the other way uses m+4, and has relative move
 * r where the other way has 8-r.  The frequencies are the totals divided
 * by 2 * tours * cells (every tour has as many moves, and as many relative
 * moves, as cells), which is also the mean of the per-tour distributions.
 */
#ifndef KNIGHT_BENCH_EXACT_STATS_H
#define KNIGHT_BENCH_EXACT_STATS_H

#include <stddef.h>
#include <stdint.h>

typedef struct es_totals {
    uint64_t tours;       /* undirected closed tours */
    uint64_t moves[8];    /* uses of each move, over both directions of every tour */
    uint64_t relative[8]; /* occurrences of each relative move, likewise (4 is always 0) */
} es_totals;

/* Called once per undirected tour with its counts summed over both directions. */
typedef void (*es_tour_fn)(void *ctx, const uint64_t moves[8], const uint64_t relative[8]);

/* Method 1: every closed tour of a W x H knight's board (at most 64 cells),
 * by depth-first search from cell 0 with dead-end pruning.  0 on success,
 * -1 when the board is too big or memory runs out. */
int es_enumerate(uint32_t width, uint32_t height, es_totals *out, es_tour_fn each, void *ctx);

/* Method 2: the same totals without listing a tour: a frontier dynamic
 * programme over the cells in row-major order whose values are "dual
 * numbers" (tours, and the sum of the statistic over them).  max_states
 * bounds a layer (0 = no bound).  0 on success, -1 when a layer passes
 * the bound, the width is above 15, or memory runs out. */
int es_weighted_count(uint32_t width, uint32_t height, size_t max_states, es_totals *out,
                      size_t *peak_states);

/* Frequencies (each summing to 1) from totals; all 0 for no tour. */
void es_frequencies(const es_totals *t, uint32_t cells, double moves[8], double relative[8]);

/* One tour's distributions read in both directions (its counts in one
 * direction, as kt_tourney_move_counts() gives them): what a uniformly
 * random direction gives on average. */
void es_both_directions(const uint64_t moves[8], const uint64_t relative[8], double mfreq[8],
                        double rfreq[8]);

/* Total-variation distance 1/2 sum |p_i - q_i|. */
double es_tv(const double *p, const double *q, size_t n);

#endif
