/* SPDX-License-Identifier: MIT */
/**
 * @file rails.h
 * @brief Rails, the rail graph, and Parberry's join, shatter and obfuscate.
 *
 * Rails and the three operations on them are those of Parberry 2020
 * ("Tourneys and the Fast Generation and Obfuscation of Closed Knight's
 * Tours", arXiv:2001.06044, and its published code), who joins the cycles of a tourney into a closed tour
 * and obfuscates a tour by shattering and joining it again.
 *
 * A *rail* of a tourney is a parallelogram of leaper moves
 * u, v = u+a, w = u+a+b, x = u+b (Parberry's u') whose two *primary*
 * edges u-v and x-w (move a) are in the tourney while neither *cross*
 * edge u-x, v-w (move b) is.  It is written canonically by its topmost vertex
 * @c u, a primary move in 4-7 and a cross move in 4-7 other than the
 * primary (::kt_rail).  *Switching* a rail replaces its primary edges by
 * its cross edges: two cycles merge into one, or one cycle stays one, or
 * it splits in two.  Switching rail (u, a, b) and then rail (u, b, a)
 * restores the tourney.
 *
 * The *rail graph* has a vertex per cycle and an edge per rail whose two
 * primary edges lie on different cycles.
 *
 * - kt_rails_join() turns a tourney into one closed tour.  It switches rails
 *   joining different cycles (a spanning forest of the rail graph, each
 *   rail checked when its turn comes) until one cycle remains.  Unlike
 *   Parberry's join it never loops: when no rail joins two cycles
 *   it perturbs the neighbourhood of the stuck cycles (a local shatter)
 *   and joins again, a bounded number of times.  Where cycles still
 *   remain on a board whose narrow side is small (3 and 5 rows, where
 *   rails rarely join the cycles of a Warnsdorff tourney), an exact
 *   dynamic programme finds, among all closed tours of the board, one that
 *   keeps the most moves of the tourney; on small boards a bounded exact
 *   search follows.  On a full knight board that has a closed tour, when
 *   all of that gave up, the very last resort is the construction of
 *   kt_generate_closed_tour().
 * - kt_rails_shatter() switches a random set of pairwise vertex-disjoint rails.
 * - kt_rails_obfuscate() shatters a closed tour several times and joins it.
 *
 * Memory: join and obfuscate work on a copy and need about 10 bytes per
 * cell; a ::kt_rails handle about 8 bytes per cell plus 8 per rail.
 *
 * Every call that fails leaves its tourney unchanged, and
 * kt_tourney_size() is exact whenever a call returns.
 *
 * Run settings (::kt_options): kt_rails_join() and kt_rails_obfuscate()
 * can run long (many perturbation rounds, an exact search on small
 * boards), so they take a `const kt_options *run` and honour its progress
 * callback and budget; they run on the calling thread only (the thread
 * count, checkpoint and trace are ignored) and reject more than one shard
 * with ::KT_EINVAL.  The other calls are linear or faster in the number of
 * cells and take no run settings.
 *
 * Thread safety: a tourney and a ::kt_rails handle attached to it are
 * used by one thread at a time; calls on distinct tourneys are
 * independent.  All randomness comes from the explicit @c seed arguments,
 * so results are reproducible on every platform, and a budget or progress
 * callback never changes a result, only whether it is returned.
 */
#ifndef KNIGHT_RAILS_H
#define KNIGHT_RAILS_H

#include <knight/common.h>
#include <knight/graph.h>
#include <knight/options.h>
#include <knight/tourney.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief A rail in canonical form. */
typedef struct kt_rail {
    kt_cell top;      /**< The topmost vertex u. */
    uint8_t primary;  /**< Primary move a, 4-7 (u to v and x to w). */
    uint8_t cross;    /**< Cross move b, 4-7, not equal to @c primary (u to x and v to w). */
} kt_rail;

/** @brief What switching a rail did to the cycles of the tourney. */
typedef enum kt_rails_effect {
    KT_RAILS_MERGE = 0,  /**< Two cycles became one (size decreased by 1). */
    KT_RAILS_SPLIT = 1,  /**< One cycle became two (size increased by 1). */
    KT_RAILS_KEEP = 2    /**< One cycle stayed one cycle, rewired. */
} kt_rails_effect;

/** @brief Default number of shatters done by kt_rails_obfuscate() (Parberry's 16). */
#define KT_RAILS_OBFUSCATE_ROUNDS 16u

/**
 * @brief The four cells of a rail, whether or not it is a rail of any tourney.
 * @param g         The board.
 * @param rail      The parallelogram (canonical form).
 * @param[out] cells u, v = u+a, w = u+a+b, x = u+b.
 * @return ::KT_OK; ::KT_EINVAL when a cell is off the board or a hole or the
 *         moves are not 4-7 and distinct.
 */
KT_EXPORT kt_status kt_rails_cells(const kt_graph *g, kt_rail rail, kt_cell cells[4]);

/**
 * @brief Whether @p rail is a rail of @p t now.
 *
 * A predicate, like kt_graph_is_cell(): it cannot fail, so any argument
 * answers 1 or 0.
 * @param t    A tourney, or NULL.
 * @param rail Any value.
 * @return 1 when both primary edges are in @p t and neither cross edge is;
 *         0 otherwise, including NULL @p t and a @p rail that is not a
 *         parallelogram of the board (see kt_rails_cells()).
 */
KT_EXPORT int kt_rails_is_rail(const kt_tourney *t, kt_rail rail);

/**
 * @brief Count the rails of a tourney, O(cells), no allocation.
 * @param t          A tourney (cycle cover or open tour).
 * @param[out] count Receives the number of rails.
 * @return ::KT_OK; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_rails_count_tourney(const kt_tourney *t, uint64_t *count);

/** @brief Opaque handle: the rails of one tourney and its cycle structure. */
typedef struct kt_rails kt_rails;

/**
 * @brief Find all rails of @p t (O(cells)) and attach a handle to it.
 *
 * The handle keeps a list of the rails found (a snapshot, in order of top
 * cell, then primary, then cross move) and every cycle as a sequence of
 * its cells (about 17 bytes per cell, plus the rails).
 * While the handle lives, @p t must only be edited through
 * kt_rails_switch() (or kt_rails_refresh() called after other edits).
 * The handle borrows @p t; free the handle first.
 * @param[out] out Receives the handle; NULL on failure.
 * @param t        A cycle cover (an open tour gives ::KT_EUNSUPPORTED).
 * @return ::KT_OK; ::KT_EINVAL; ::KT_EUNSUPPORTED; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_rails_new(kt_rails **out, kt_tourney *t);

/**
 * @brief Release a handle (the tourney is untouched).  NULL is harmless.
 * @param r The handle.
 */
KT_EXPORT void kt_rails_free(kt_rails *r);

/**
 * @brief Find the rails and cycles again, O(cells): after the tourney was
 *        edited other than through the handle, or to list the rails that
 *        switching created.
 * @param r The handle.
 * @return ::KT_OK; ::KT_EINVAL; ::KT_ENOMEM (the handle is then unchanged).
 */
KT_EXPORT kt_status kt_rails_refresh(kt_rails *r);

/**
 * @brief Number of rails in the snapshot.
 * @param r The handle.
 * @return The count (0 for NULL).
 */
KT_EXPORT size_t kt_rails_count(const kt_rails *r);

/**
 * @brief Rail @p index of the snapshot.
 *
 * A rail of the snapshot may have stopped being a rail after switches
 * (check with kt_rails_is_rail()).
 * @param r         The handle.
 * @param index     Below kt_rails_count().
 * @param[out] rail Receives the rail.
 * @return ::KT_OK; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_rails_get(const kt_rails *r, size_t index, kt_rail *rail);

/**
 * @brief Snapshot rails counted by primary and cross move.
 * @param r           The handle.
 * @param[out] counts counts[a-4][b-4] rails with primary a and cross b
 *                    (the diagonal is 0).
 * @return ::KT_OK; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_rails_counts(const kt_rails *r, uint64_t counts[4][4]);

/**
 * @brief The cycle of @p cell: an id shared by exactly the cells of one
 *        cycle, valid until the next switch or refresh.
 * @param r         The handle.
 * @param cell      A vertex.
 * @param[out] cycle Receives the id.
 * @return ::KT_OK; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_rails_cycle(kt_rails *r, kt_cell cell, uint32_t *cycle);

/**
 * @brief The rail-graph edge of @p rail: the cycles of its two primary edges.
 * @param r          The handle.
 * @param rail       A rail of the tourney now (kt_rails_is_rail()).
 * @param[out] joins Receives 1 when the cycles differ (an edge of the rail
 *                   graph: switching it merges them), 0 when they are equal
 *                   (switching it splits or rewires that cycle).
 * @param[out] c1    Optional: cycle of the primary edge at u.
 * @param[out] c2    Optional: cycle of the primary edge at x = u+b.
 * @return ::KT_OK; ::KT_EINVAL for NULL @p r or @p joins, or when @p rail
 *         is not a rail of the tourney now (as kt_rails_switch()); the
 *         outputs are then untouched.
 */
KT_EXPORT kt_status kt_rails_joins(kt_rails *r, kt_rail rail, int *joins, uint32_t *c1,
                                   uint32_t *c2);

/**
 * @brief The rail graph of the current tourney, summarised.
 *
 * Counts the snapshot rails that are still rails and join two cycles
 * (the edges of the rail graph), and the connected components of the rail
 * graph (cycles linked through such rails).  Parberry's join can reach
 * one cycle only when @p components is 1.  O(snapshot + cycles).
 * @param r               The handle.
 * @param[out] edges      Optional: rail graph edges.
 * @param[out] components Optional: its connected components.
 * @return ::KT_OK; ::KT_EINVAL; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_rails_graph(kt_rails *r, size_t *edges, size_t *components);

/**
 * @brief Switch @p rail, keeping kt_tourney_size() exact.
 *
 * Four nibble updates plus the cycle bookkeeping: the handle keeps each
 * cycle as a balanced sequence of its cells (a treap with lazy reversal,
 * 17 bytes per cell), so a merge, a split and a rewiring within a cycle
 * each cost O(log cells) expected, whatever was switched before; the
 * effect, and so kt_tourney_size(), is exact after every call.  (No
 * structure can answer split-or-not in O(1): Fredman, Johnson, McGeoch
 * and Ostheimer (1995) prove an Omega(log n / log log n) bound for this
 * "between" query under segment reversals.)  The switched rail comes back
 * as rail (top, cross, primary): switching that one restores the tourney.
 * @param r           The handle.
 * @param rail        A rail of the tourney now.
 * @param[out] effect Optional: merge, split or keep.
 * @return ::KT_OK; ::KT_EINVAL when @p rail is not a rail now (nothing
 *         changes).  It allocates nothing.
 */
KT_EXPORT kt_status kt_rails_switch(kt_rails *r, kt_rail rail, kt_rails_effect *effect);

/**
 * @brief Join a tourney into one closed tour (Parberry 2020's join,
 *        made to terminate).
 *
 * 1. Rail passes (Parberry's join): the cycles are labelled, then the
 *    cells are scanned (in a random one of the four directions) and every
 *    rail whose primary edges lie on two cycles not yet merged is switched
 *    at once, so the switched rails form a spanning forest of the rail
 *    graph and each is checked to be a rail when its turn comes.  Passes
 *    repeat while they merge anything.  O(cells) per pass, usually 1-3.
 * 2. When cycles remain with no rail between them (Parberry's join loops
 *    forever there), rounds of perturbation: the rails near every cycle
 *    but the largest are shattered locally and rail passes run again; a
 *    round that leaves more cycles is undone.  At most
 *    64 + 4*10^6 / cells rounds, each O(cells).
 * 3. Where the vertices in order along the long side keep a frontier of
 *    at most 16 (the knight on boards up to 7 wide) and at most 2^22
 *    states in all: the closed tour that keeps the most of the tourney's
 *    moves, by a frontier dynamic programme linear in the cells (3 x 10^4
 *    cells in about 0.5 s), which also proves that none exists.  This is
 *    what joins the stuck tourneys of 3-row and 5-row boards.
 * 4. On boards of at most 64 vertices, a last resort: an exact search for
 *    any closed tour (kt_exhaustive_tour(), at most 2*10^7 nodes), which
 *    also proves that none exists.  On larger boards whose narrow side is
 *    at most 8 (holes allowed), the frontier DP of the count module
 *    decides whether a closed tour exists (at most 2^22 states per layer),
 *    so a board without one gets ::KT_ENOTOUR.
 *
 * Before any work, boards that cannot have a closed tour are refused:
 * Schwenk 1991 ("Which rectangular chessboards have a knight's tour?",
 * Mathematics Magazine 64) for full knight boards; unequal colour classes
 * or a disconnected board otherwise.  A tourney of size 1 is returned as
 * is.  Measured: every one of 10^5 seeded runs over every even n from 6
 * to 32 and rectangles ends in a closed tour (see BENCHMARKS.md).
 *
 * Run settings used:
 * - progress: one unit per perturbation round of step 2, plus one for
 *   step 3 (total = 65 + 4000000 / (kt_graph_cell_count() + 1), the
 *   division rounded down); reported on the calling
 *   thread at most a few times a second, during the exact search too, and
 *   always once with done == total just before a successful call stores
 *   its result.  A non-zero answer gives ::KT_ECANCELED.  The existence
 *   decision of step 3 on boards of more than 64 vertices is bounded (see
 *   above) but neither interruptible nor counted in the budget.
 * - budget: in *work units*: one per rail switched (by the rail passes and
 *   the perturbations, including rounds that are undone) plus one per
 *   node of the exact search.  A join that needs more gives ::KT_ELIMIT;
 *   one that needs at most the budget returns the same tour as without it.
 * - shards: more than one gives ::KT_EINVAL.  Threads, checkpoint and
 *   trace are not used (one thread, no state worth saving).
 * @param t    A cycle cover; replaced by a closed tour on success.
 * @param seed Seed of the scan directions, rail choices and perturbations
 *             (the result is reproducible).
 * @param run  Run settings, or NULL for the defaults (no progress, no budget).
 * @return ::KT_OK; ::KT_ENOTOUR when the board has no closed tour
 *         (also a board without cells: its empty tourney is no tour);
 *         ::KT_ENOTFOUND when the built-in bounds above ran out;
 *         ::KT_ELIMIT when the budget ran out; ::KT_ECANCELED;
 *         ::KT_EUNSUPPORTED for an open tour; ::KT_EINVAL; ::KT_ENOMEM.
 *         On any error @p t is unchanged (the join works on a copy).
 */
KT_EXPORT kt_status kt_rails_join(kt_tourney *t, uint64_t seed, const kt_options *run);

/**
 * @brief Switch a random set of pairwise vertex-disjoint rails.
 *
 * The cells are visited row by row in a random one of the four
 * directions; each, with probability 1/2, switches one of the rails it is
 * the top of, chosen uniformly, unless one of that rail's four cells is
 * already used by a switched rail.  Since the chosen rails are disjoint,
 * the result is the same as switching them all at once.  O(cells), one
 * pass, so it takes no run settings (nothing to report, cancel or bound).
 * Shattering a closed tour gives a tourney of many cycles.
 * @param t    A cycle cover; its size is recounted exactly (O(cells)).
 * @param seed Seed of the random choices (the result is reproducible).
 * @return ::KT_OK; ::KT_EUNSUPPORTED for an open tour; ::KT_EINVAL;
 *         ::KT_ENOMEM (then unchanged).
 */
KT_EXPORT kt_status kt_rails_shatter(kt_tourney *t, uint64_t seed);

/**
 * @brief Shatter as Parberry's published code does: switch, in a uniformly
 *        random order, every rail that is still a rail when its turn comes.
 *
 * Unlike kt_rails_shatter(), the switched rails may share cells (a switch can
 * make or break the rails around it), so each switch sees the tourney left
 * by the ones before.  Sixteen of these followed by kt_rails_join() reproduce
 * the relative-move statistics of Table 2 of Parberry 2020 (BENCHMARKS.md).
 * O(cells + rails), one pass, so it takes no run settings.
 * @param t    A cycle cover; its size is recounted exactly (O(cells)).
 * @param seed Seed of the order (the result is reproducible).
 * @return ::KT_OK; ::KT_EUNSUPPORTED for an open tour; ::KT_EINVAL;
 *         ::KT_ENOMEM (then unchanged).
 */
KT_EXPORT kt_status kt_rails_shatter_sequential(kt_tourney *t, uint64_t seed);

/**
 * @brief Obfuscate (Parberry 2020): shatter @p rounds times with
 *        kt_rails_shatter(), then join with kt_rails_join().
 *
 * Run settings used: as kt_rails_join(), with the shatters first on the
 * progress scale (total = @p rounds + the join's total) and the rails
 * they switch counted in the budget too.
 * @param t      A cycle cover, usually a closed tour; a closed tour on success.
 * @param rounds Number of shatters; 0 means ::KT_RAILS_OBFUSCATE_ROUNDS.
 * @param seed   Seed (the result is reproducible).
 * @param run    Run settings, or NULL for the defaults.
 * @return As kt_rails_join(); on any error @p t is unchanged.
 */
KT_EXPORT kt_status kt_rails_obfuscate(kt_tourney *t, unsigned rounds, uint64_t seed,
                                       const kt_options *run);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_RAILS_H */
