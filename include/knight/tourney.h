/* SPDX-License-Identifier: MIT */
/**
 * @file tourney.h
 * @brief Tourneys (vertex-disjoint cycle covers), closed tours and open tours.
 *
 * A kt_tourney stores, for every vertex of its graph, its (at most two)
 * neighbours along the cover, as move numbers: one byte per cell.  It is
 * either
 *  - a *cycle cover*: every vertex has two neighbours; the components are
 *    cycles and their number is the size (a closed tour has size 1), or
 *  - an *open tour*: a single Hamiltonian path; its two ends have one
 *    neighbour each.
 * The 1x1 board's single cell, with no neighbour, counts as both a closed
 * and an open tour.
 *
 * Every constructor validates its input: an invalid cover is never built.
 * A rejected input is explained in an optional ::kt_diag (the rule broken
 * and the cell where).
 *
 * Every getter accepts NULL and then returns 0, NULL or an empty answer.
 *
 * Thread safety: a tourney is used by one thread at a time; distinct
 * tourneys, even on one graph, are independent.
 */
#ifndef KNIGHT_TOURNEY_H
#define KNIGHT_TOURNEY_H

#include <knight/common.h>
#include <knight/graph.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Opaque tourney or open tour. */
typedef struct kt_tourney kt_tourney;


/**
 * @brief Build from a successor array.
 *
 * @p succ has kt_graph_cell_count() entries; for each vertex, the next cell
 * along its cycle or path; ::KT_CELL_NONE at the end of an open tour and
 * at holes.  Cycles may have any orientation.  If exactly one vertex has
 * no successor the array must describe one open tour; otherwise every
 * vertex must be entered exactly once (a cycle cover).
 * @param[out] out   Receives the tourney; NULL on failure.
 * @param g          The board.
 * @param succ       The successors.
 * @param n          Length of @p succ; must equal kt_graph_cell_count().
 * @param[out] diag  Optional: on ::KT_EBADTOUR the rule broken and the cell
 *                   where (line and column do not apply: 0); cleared on
 *                   success and on other errors.
 * @return ::KT_OK; ::KT_EBADTOUR; ::KT_EINVAL; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_tourney_from_successors(kt_tourney **out, const kt_graph *g,
                                               const kt_cell *succ, size_t n, kt_diag *diag);

/**
 * @brief Build a tour from a visit order.
 * @param[out] out   Receives the tour; NULL on failure.
 * @param g          The board.
 * @param order      Every vertex exactly once, in visiting order.
 * @param n          Length of @p order; must equal kt_graph_vertex_count().
 * @param shape      ::KT_SHAPE_CYCLES for a closed tour (the last cell must
 *                   be a move from the first) or ::KT_SHAPE_PATH for an open one.
 * @param[out] diag  Optional: on ::KT_EBADTOUR the rule broken and the cell
 *                   where (line and column do not apply: 0); cleared on
 *                   success and on other errors.
 * @return ::KT_OK; ::KT_EBADTOUR; ::KT_EINVAL; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_tourney_from_order(kt_tourney **out, const kt_graph *g,
                                          const kt_cell *order, size_t n, kt_shape shape,
                                          kt_diag *diag);

/**
 * @brief Build from per-cell move pairs.
 *
 * The representation of Parberry 2020 ("Tourneys and the Fast Generation
 * and Obfuscation of Closed Knight's Tours", arXiv:2001.06044): for each cell,
 * @p moves holds its two neighbours as move numbers (see graph.h), one per
 * nibble (low and high); 0xF in a nibble means "no neighbour" (a path
 * end, or a hole with 0xFF).  The relation must be symmetric.
 * @param[out] out   Receives the tourney; NULL on failure.
 * @param g          The board.
 * @param moves      kt_graph_cell_count() bytes.
 * @param n          Length of @p moves.
 * @param[out] diag  Optional: on ::KT_EBADTOUR the rule broken and the cell
 *                   where (line and column do not apply: 0); cleared on
 *                   success and on other errors.
 * @return ::KT_OK; ::KT_EBADTOUR; ::KT_EINVAL; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_tourney_from_move_pairs(kt_tourney **out, const kt_graph *g,
                                               const uint8_t *moves, size_t n, kt_diag *diag);

/**
 * @brief Release a tourney.  NULL is harmless.
 * @param t The tourney.
 */
KT_EXPORT void kt_tourney_free(kt_tourney *t);

/**
 * @brief Deep copy.
 * @param[out] out Receives the copy.
 * @param t        The tourney.
 * @return ::KT_OK; ::KT_EINVAL; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_tourney_copy(kt_tourney **out, const kt_tourney *t);

/**
 * @brief Whether two tourneys have the same board and the same edge set.
 * @param t First.
 * @param u Second.
 * @return 1 when equal (orientation and start do not matter), else 0 (also
 *         when either is NULL).
 */
KT_EXPORT int kt_tourney_equal(const kt_tourney *t, const kt_tourney *u);

/**
 * @brief The board (a borrowed reference, valid while @p t lives).
 * @param t The tourney.
 * @return The graph; NULL for NULL.
 */
KT_EXPORT const kt_graph *kt_tourney_graph(const kt_tourney *t);

/** @brief Cycle cover or open tour. @param t The tourney. @return The shape (::KT_SHAPE_CYCLES for NULL). */
KT_EXPORT kt_shape kt_tourney_shape(const kt_tourney *t);

/**
 * @brief Number of cycles (1 for an open tour: its single path).
 *
 * Exact and O(1): every operation that edits a tourney keeps it up to date.
 * @param t The tourney.
 * @return The size; 0 for NULL.
 */
KT_EXPORT size_t kt_tourney_size(const kt_tourney *t);

/**
 * @brief Whether @p t is a closed tour (a cycle cover of size 1).
 *
 * The empty tourney of a board without cells (all holes) is not a tour.
 * @param t The tourney.
 * @return 1 or 0 (0 for NULL and for a board without cells).
 */
KT_EXPORT int kt_tourney_is_closed_tour(const kt_tourney *t);
/** @brief Whether @p t is an open tour. @param t The tourney. @return 1 or 0 (0 for NULL). */
KT_EXPORT int kt_tourney_is_open_tour(const kt_tourney *t);

/**
 * @brief The neighbours of @p cell along the cover.
 * @param t      The tourney.
 * @param cell   A vertex.
 * @param[out] a Optional: the first neighbour (lower move number), or ::KT_CELL_NONE.
 * @param[out] b Optional: the second neighbour, or ::KT_CELL_NONE.
 * @return ::KT_OK, or ::KT_EINVAL when @p t is NULL or @p cell is not a
 *         vertex (both neighbours are then ::KT_CELL_NONE).
 */
KT_EXPORT kt_status kt_tourney_neighbors(const kt_tourney *t, kt_cell cell, kt_cell *a, kt_cell *b);

/**
 * @brief Whether cells @p u and @p v are consecutive along the cover.
 * @param t The tourney.
 * @param u A cell.
 * @param v A cell.
 * @return 1 or 0 (0 for NULL).
 */
KT_EXPORT int kt_tourney_has_edge(const kt_tourney *t, kt_cell u, kt_cell v);

/**
 * @brief The cells of the cycle or path through @p start, in order.
 *
 * A cycle is walked from @p start towards its first neighbour when
 * @p direction is 0, its second when 1.  An open tour must start at one
 * of its ends (direction is then ignored).
 * @param t          The tourney.
 * @param start      A vertex (for an open tour, an end).
 * @param direction  0 or 1.
 * @param[out] out   Receives up to @p cap cells; may be NULL when @p cap is 0.
 * @param cap        Capacity of @p out.
 * @param[out] len   Receives the component length.
 * @return ::KT_OK; ::KT_ERANGE when @p cap is too small (nothing written
 *         beyond @p cap, @p len says what is needed); ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_tourney_order(const kt_tourney *t, kt_cell start, int direction,
                                     kt_cell *out, size_t cap, size_t *len);

/**
 * @brief The two ends of an open tour.
 * @param t      The tourney.
 * @param[out] a Optional: the end with the smaller index.
 * @param[out] b Optional: the other end.
 * @return ::KT_OK, or ::KT_EINVAL for a cycle cover or NULL (both ends are
 *         then ::KT_CELL_NONE).
 */
KT_EXPORT kt_status kt_tourney_ends(const kt_tourney *t, kt_cell *a, kt_cell *b);

/**
 * @brief A successor array, in the canonical orientation.
 *
 * Each cycle is oriented from its smallest cell towards that cell's first
 * neighbour; an open tour from its smaller end.  Holes and the last cell
 * of an open tour get ::KT_CELL_NONE.
 * @param t        The tourney.
 * @param[out] succ kt_graph_cell_count() entries.
 * @param n        Length of @p succ.
 * @return ::KT_OK; ::KT_ERANGE if @p n is too small; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_tourney_successors(const kt_tourney *t, kt_cell *succ, size_t n);

/**
 * @brief Per-cell move pairs, as accepted by kt_tourney_from_move_pairs().
 * @param t          The tourney.
 * @param[out] moves kt_graph_cell_count() bytes.
 * @param n          Length of @p moves.
 * @return ::KT_OK; ::KT_ERANGE; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_tourney_move_pairs(const kt_tourney *t, uint8_t *moves, size_t n);

/**
 * @brief Label every cell with the index of its cycle (0 .. size-1).
 *
 * Cycles are numbered in order of their smallest cell; holes get UINT32_MAX.
 * @param t          The tourney.
 * @param[out] label kt_graph_cell_count() entries.
 * @param n          Length of @p label.
 * @return ::KT_OK; ::KT_ERANGE; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_tourney_cycle_labels(const kt_tourney *t, uint32_t *label, size_t n);

/**
 * @brief Check a successor array without building anything.
 * @param g          The board.
 * @param succ       As for kt_tourney_from_successors().
 * @param n          Its length.
 * @param[out] diag  Optional: on ::KT_EBADTOUR the rule broken and the cell
 *                   where (line and column do not apply: 0); cleared on
 *                   success and on other errors.
 * @return ::KT_OK if valid; ::KT_EBADTOUR; ::KT_EINVAL; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_tourney_validate_successors(const kt_graph *g, const kt_cell *succ,
                                                   size_t n, kt_diag *diag);

/**
 * @brief Move frequencies along the cover.
 *
 * counts[k] is how often move k is used, each cycle walked in the
 * canonical orientation (see kt_tourney_successors()).
 * @param t           The tourney.
 * @param[out] counts 8 entries.
 * @return ::KT_OK; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_tourney_move_counts(const kt_tourney *t, uint64_t counts[8]);

/**
 * @brief Relative-move frequencies: counts[r] for r = (next - previous) mod 8.
 *
 * Along cycles every consecutive pair counts (including the wrap-around);
 * along an open tour the n - 2 interior pairs.  counts[4] is always 0.
 * @param t           The tourney.
 * @param[out] counts 8 entries.
 * @return ::KT_OK; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_tourney_relative_move_counts(const kt_tourney *t, uint64_t counts[8]);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_TOURNEY_H */
