/* SPDX-License-Identifier: MIT */
/**
 * @file walks.h
 * @brief Counting leaper walks on any board, with a limit on visits to a
 *        marked class of cells (for example: sequences of keys on a phone
 *        keypad typed by knight moves, with at most two vowels).
 *
 * A walk of length L is a sequence of L cells (L - 1 moves), cells may
 * repeat.  Visits to marked cells are counted with multiplicity, the first
 * cell included; walks with more than @p max_marked such visits are not
 * counted.  Dynamic programming over (cell, marked visits so far), one
 * step per cell of the walk after the first: time
 * O(L * edges * (max_marked + 1)), memory O(cells * (max_marked + 1)).
 *
 * Thread safety: reads the graph only; any number of calls may run at once.
 */
#ifndef KNIGHT_WALKS_H
#define KNIGHT_WALKS_H

#include <knight/common.h>
#include <knight/graph.h>
#include <knight/options.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Count walks of @p length cells, per starting cell.
 *
 * Run settings used (options.h; NULL @p run = the defaults):
 * - progress: called on the calling thread with done and total in steps
 *   (length - 1 in all); non-zero cancels (::KT_ECANCELED);
 * - budget: the most steps the call may take, one per cell of the walk
 *   after the first (a call needs length - 1); a longer walk returns
 *   ::KT_ELIMIT at once (0 = no bound);
 * - shards: not supported (N > 1 is ::KT_EINVAL).
 * Threads, checkpoints and the trace are not used (the call runs on the
 * calling thread); memory comes from the graph's allocator.
 *
 * @param g              The board.
 * @param length         Cells per walk, at least 1.
 * @param marked         NULL (no marked cells) or kt_graph_cell_count() bytes,
 *                       non-zero for a marked cell.
 * @param max_marked     Largest number of visits to marked cells allowed.
 * @param run            Run settings, or NULL for the defaults.
 * @param[out] per_start Optional: kt_graph_cell_count() counts, the walks
 *                       starting at each cell (0 at holes).
 * @param n              Length of @p per_start (ignored when it is NULL).
 * @param[out] total     Optional: the sum over all starts.
 * @return ::KT_OK; ::KT_EOVERFLOW when a count passes 2^64 - 1;
 *         ::KT_ERANGE if @p n is too small; ::KT_EINVAL for NULL @p g, a
 *         zero @p length or shards; ::KT_ECANCELED; ::KT_ELIMIT;
 *         ::KT_ETOOBIG; ::KT_ENOMEM.  On failure @p per_start and @p total
 *         are unchanged.
 */
KT_EXPORT kt_status kt_walks_count(const kt_graph *g, uint32_t length, const uint8_t *marked,
                                   uint32_t max_marked, const kt_options *run,
                                   uint64_t *per_start, size_t n, uint64_t *total);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_WALKS_H */
