/* SPDX-License-Identifier: MIT */
/**
 * @file exhaustive.h
 * @brief Exact backtracking search for a tour on small or irregular boards.
 *
 * A depth-first search with Warnsdorff ordering and dead-end pruning.  It
 * settles existence exactly (a found tour, or ::KT_ENOTOUR after the whole
 * space is searched) on boards of a few dozen cells, and finds tours fast
 * on most larger ones.  The node budget bounds the work: when it runs out
 * the result is ::KT_ELIMIT, never a wrong answer.
 *
 * Thread safety: reads the graph only; concurrent calls are independent.
 */
#ifndef KNIGHT_EXHAUSTIVE_H
#define KNIGHT_EXHAUSTIVE_H

#include <knight/common.h>
#include <knight/graph.h>
#include <knight/options.h>
#include <knight/tourney.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Search for a closed or open tour.
 *
 * Runs on the calling thread only (the thread setting is not used); cannot
 * be sharded (a shard count above 1 gives ::KT_EINVAL).  The progress
 * callback is called at most a few times a second with done = the search
 * nodes so far and total = the budget (0 when unlimited), and once more
 * with done == total just before a tour is returned; a non-zero return
 * stops the search with ::KT_ECANCELED.
 * @param[out] out   Receives the tour; NULL when none is returned.
 * @param g          The board (any leaper, holes allowed).
 * @param shape      ::KT_SHAPE_CYCLES for a closed tour, ::KT_SHAPE_PATH for an open one.
 * @param start      Open tours: the first cell, or ::KT_CELL_NONE for any.
 *                   Ignored for closed tours, whose start is immaterial.
 * @param end        Open tours: the last cell, or ::KT_CELL_NONE for any.
 *                   Ignored for closed tours.
 * @param run        Run settings or NULL.  Budget: the search nodes (cells
 *                   placed on the path) allowed, summed over every start
 *                   tried; 0 (the default) means no limit.
 * @return ::KT_OK; ::KT_ENOTOUR (proved: none exists); ::KT_ELIMIT (the
 *         budget was spent before the question was settled; never a wrong
 *         answer); ::KT_ECANCELED; ::KT_ETOOBIG; ::KT_EINVAL; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_exhaustive_tour(kt_tourney **out, const kt_graph *g, kt_shape shape,
                                       kt_cell start, kt_cell end, const kt_options *run);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_EXHAUSTIVE_H */
