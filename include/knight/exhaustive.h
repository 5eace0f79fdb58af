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
#include <knight/tourney.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Search for a closed or open tour.
 * @param[out] out   Receives the tour; NULL when none is returned.
 * @param g          The board (any leaper, holes allowed).
 * @param shape      ::KT_SHAPE_CYCLES for a closed tour, ::KT_SHAPE_PATH for an open one.
 * @param start      Open tours: the first cell, or ::KT_CELL_NONE for any.
 *                   Ignored for closed tours.
 * @param end        Open tours: the last cell, or ::KT_CELL_NONE for any.
 * @param max_nodes  Search nodes allowed; 0 means no limit.
 * @param progress   Optional progress callback (may cancel).
 * @param user       Passed to @p progress.
 * @return ::KT_OK; ::KT_ENOTOUR (proved: none exists); ::KT_ELIMIT (budget
 *         spent, undecided); ::KT_ECANCELED; ::KT_EINVAL; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_exhaustive_tour(kt_tourney **out, const kt_graph *g, kt_shape shape,
                                       kt_cell start, kt_cell end, uint64_t max_nodes,
                                       kt_progress_fn progress, void *user);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_EXHAUSTIVE_H */
