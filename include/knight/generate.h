/* SPDX-License-Identifier: MIT */
/**
 * @file generate.h
 * @brief Generation of closed tours, open tours and tourneys.
 *
 * - kt_generate_closed_tour(): a closed tour on every board that has one
 *   (Schwenk 1991, "Which rectangular chessboards have a knight's tour?",
 *   Math. Magazine 64), in linear time and one byte per cell: precomputed
 *   blocks tiled and merged by rail switches, in the manner of the
 *   linear-time construction of Parberry 1997 ("An efficient algorithm for
 *   the Knight's tour problem", Discrete Applied Mathematics 73).
 * - kt_generate_divide_tour(): Parberry's divide-and-conquer itself.
 * - kt_generate_open_tour(): an open tour, optionally from a given start
 *   and/or to a given end cell (Conrad et al. 1994, "Solution of the
 *   knight's Hamiltonian path problem on chessboards", Discrete Applied
 *   Math. 50, for which ends are possible).
 * - kt_generate_warnsdorff_tour(): Warnsdorff's rule with the tie-breaks of
 *   Pohl 1967 ("A method for finding Hamilton paths and knight's tours",
 *   CACM 10), Roth, and W+ and W2 of Squirrel and Cull 1996 ("A
 *   Warnsdorff-rule algorithm for knight's tours on square chessboards"),
 *   who show why ties matter on large boards.
 * - kt_generate_tourney(): the tourney (cycle cover) generators compared by
 *   Parberry 2020 ("Tourneys and the Fast Generation and Obfuscation of
 *   Closed Knight's Tours", arXiv:2001.06044): random Warnsdorff's tourney variant, the neural network
 *   of Takefuji and Lee 1992 ("Neural network computing for knight's tour
 *   problems", Neurocomputing 4), divide-and-conquer, concentric braids and
 *   the four-cover, each by its ::kt_generate_method.
 *
 * Every function takes an explicit seed; the same seed and arguments give
 * the same result on every platform.  Results are allocated with the
 * graph's allocator and are validated tourneys.  These functions work on
 * full knight's boards (no holes, the (2,1)-leaper); other graphs give
 * ::KT_EUNSUPPORTED.
 *
 * Run settings (`const kt_options *run`, NULL for the defaults; see
 * options.h): these calls run on the calling thread only, whatever the
 * thread setting.  The progress callback is called on the calling thread
 * at most a few times a second while the call works, and once more with
 * done == total just before it returns a result; a non-zero return makes
 * the call return ::KT_ECANCELED with `*out` NULL.  The budget's unit and
 * its default are given by each call.  The calls cannot be sharded (a
 * shard count above 1 gives ::KT_EINVAL); checkpoints and the trace
 * callback are not used.
 *
 * Thread safety: every function only reads its graph and its settings;
 * concurrent calls are independent.
 */
#ifndef KNIGHT_GENERATE_H
#define KNIGHT_GENERATE_H

#include <knight/common.h>
#include <knight/graph.h>
#include <knight/options.h>
#include <knight/tourney.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief How Warnsdorff's rule breaks ties between equally accessible cells. */
typedef enum kt_generate_tiebreak {
    KT_GENERATE_TIE_FIRST = 0,  /**< The lowest move number (the plain rule; fails on large boards). */
    KT_GENERATE_TIE_RANDOM = 1, /**< Uniformly at random (Parberry's random Warnsdorff). */
    KT_GENERATE_TIE_POHL = 2,   /**< Pohl 1967: the smallest sum of the candidates' onward accessibilities, then random. */
    KT_GENERATE_TIE_ROTH = 3,   /**< Roth: the candidate farthest from the board's centre, then Pohl's rule; keeps working on large boards. */
    KT_GENERATE_TIE_WPLUS = 4,  /**< W+ of Squirrel and Cull 1996: the first move in a fixed ordering of the moves, the ordering changing at given cells of an n x n board (rules per n mod 8, walk from a corner); deterministic.  Other boards use the first ordering throughout.  Since 1.1. */
    KT_GENERATE_TIE_W2 = 5      /**< W2: the rule applied twice: the candidate whose least accessible unvisited neighbour is least accessible, then random.  Since 1.1. */
} kt_generate_tiebreak;

/** @brief Number of tie-break rules. */
#define KT_GENERATE_TIE_COUNT 6

/** @brief The tourney (and tour) generators. */
typedef enum kt_generate_method {
    KT_GENERATE_BLOCKS = 0,      /**< The random block tiling of kt_generate_closed_tour(), blocks not merged: one cycle per block. */
    KT_GENERATE_WARNSDORFF = 1,  /**< Parberry's tourney variant of random Warnsdorff: a walk is closed when it lands a move away from its start.  Boards with a side above 200 are built tile by tile (tiles of side 100..200, each with its own restarts; no cycle crosses a tile border), where the walks on the whole board thrash. */
    KT_GENERATE_NEURAL = 2,      /**< The neural network of Takefuji and Lee 1992, one neuron per edge; its result is the set of active edges once every cell has two, a tourney of many cycles (not a tour).  Updates only the neurons at cells whose degree is not 2 (the others would not change), in random order, and restarts the neurons of a cell that stays unsatisfied (its local freezes otherwise stop large boards converging): about 3 ms at 64 x 64, 70 ms at 256 x 256. */
    KT_GENERATE_DIVIDE = 3,      /**< Divide-and-conquer after Parberry 1997: the board halved recursively down to sides 5..10, each base block a structured tour (with seed 0 always the first precomputed tour of its size), not joined; kt_generate_divide_tour() joins them. */
    KT_GENERATE_BRAID = 4,       /**< Concentric braided tourney (Parberry 2020): n x n, n even >= 4; rings two cells wide (each ring's 2-factor is forced: interwoven zig-zag strands) around a 4x4 (n = 0 mod 4) or 6x6 centre. */
    KT_GENERATE_FOUR_COVER = 5   /**< Four-cover tourney (Parberry 2020): both sides multiples of 4, every 4x4 block covered by its four 4-cycles. */
} kt_generate_method;

/** @brief Number of generator methods. */
#define KT_GENERATE_METHOD_COUNT 6

/** @brief Walks kt_generate_warnsdorff_tour() allows with a budget of 0 and
 *         ::KT_GENERATE_TIE_FIRST or ::KT_GENERATE_TIE_WPLUS (the rule is
 *         then deterministic). */
#define KT_GENERATE_WARNSDORFF_FIRST_ATTEMPTS 1u
/** @brief Walks kt_generate_warnsdorff_tour() allows with a budget of 0 and
 *         the other tie-breaks. */
#define KT_GENERATE_WARNSDORFF_ATTEMPTS 64u
/** @brief Restarts kt_generate_tourney() allows ::KT_GENERATE_WARNSDORFF with a budget of 0. */
#define KT_GENERATE_TOURNEY_RESTARTS 100u
/** @brief Sweeps kt_generate_tourney() allows ::KT_GENERATE_NEURAL with a budget of 0
 *         (1.0: 100000, which could run for minutes; the network now
 *         converges within a few sweeps, 0.07 s at 256 x 256). */
#define KT_GENERATE_NEURAL_SWEEPS 2000u

/**
 * @brief A closed knight's tour, in linear time.
 *
 * Exists exactly when kt_graph_board_has_closed_tour() says so (Schwenk
 * 1991).  The columns and rows are cut at random into parts of 5..10,
 * every block takes one of several precomputed closed tours, and
 * neighbouring blocks are merged by switching two parallel edges (as the
 * blocks of Parberry 1997 are joined); 3 x n boards are built from 3 x k
 * paths inserted into a cycle.  Boards of up to 4096 cells then take a
 * seeded symmetry of the board and seeded moves that keep one cycle (2-opt
 * moves and edge exchanges; at most about 2^17 cells of work), so small
 * boards vary too.  Different seeds give different tours (on boards with
 * few tours, as many as there are: all 8 of 5 x 6), the same seed the
 * same tour.  Progress is reported per band of block rows.
 * @param[out] out Receives the tour; set to NULL on failure.
 * @param g        A full knight's board.
 * @param seed     Any value.
 * @param run      Run settings or NULL; the budget is not used (the work is
 *                 linear).
 * @return ::KT_OK; ::KT_ENOTOUR when the board has no closed tour;
 *         ::KT_EUNSUPPORTED for holes or another leaper; ::KT_ECANCELED;
 *         ::KT_EINVAL (also for a shard count above 1); ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_generate_closed_tour(kt_tourney **out, const kt_graph *g, uint64_t seed,
                                            const kt_options *run);

/**
 * @brief A closed tour by the divide-and-conquer of Parberry 1997.
 *
 * The board is halved recursively (each side into two near-equal parts
 * that can again be tiled) down to blocks with sides 5..10, each carrying a
 * structured precomputed tour, and the blocks are joined by rail switches
 * as in kt_generate_closed_tour().  Seed 0 gives the canonical structured
 * tour (the first precomputed tour of every block size); other seeds vary
 * the block tours.  kt_generate_tourney() with ::KT_GENERATE_DIVIDE returns
 * the same blocks unjoined.  Linear time.
 * @param[out] out Receives the tour; set to NULL on failure.
 * @param g        A full knight's board.
 * @param seed     Any value.
 * @param run      Run settings or NULL; the budget is not used.
 * @return As kt_generate_closed_tour().
 */
KT_EXPORT kt_status kt_generate_divide_tour(kt_tourney **out, const kt_graph *g, uint64_t seed,
                                            const kt_options *run);

/**
 * @brief An open knight's tour, optionally with given ends.
 *
 * With neither end given, exists exactly when kt_graph_board_has_open_tour().
 * With a start (or an end) only, the tour begins (ends) there.  With both,
 * the tour runs from @p start to @p end.  Boards of up to 30 cells are
 * settled by exhaustive search.  On larger boards the colour conditions
 * (proofs on every board; sufficient when both sides are >= 5, Conrad et
 * al. 1994) decide existence, a linear construction gives a tour with one
 * end fixed where the board has a closed tour or both sides are odd, and
 * Posa rotations (bounded work) move the other end, trying both ends
 * first.  The colour rule is not the whole story on boards with a side of
 * 5 (on 5x8 the cells (2,1) and (2,6) end hardly any tour): when the
 * rotations give up on a board with a side of at most 5 and at most 1000
 * cells, the frontier DP of kt_count_tours() decides exactly whether a
 * tour between the two cells exists and, up to 120 cells, builds one (a
 * few DP runs per cell); elsewhere, on boards of at most 100 cells, a
 * bounded exhaustive search does.
 * @param[out] out Receives the tour (an open tour, shape ::KT_SHAPE_PATH,
 *                 or the 1x1 board's single cell); NULL on failure.
 * @param g        A full knight's board.
 * @param start    First cell or ::KT_CELL_NONE.
 * @param end      Last cell or ::KT_CELL_NONE.
 * @param seed     Any value.
 * @param run      Run settings or NULL; the budget is not used (every
 *                 search inside is bounded by itself).
 * @return ::KT_OK; ::KT_ENOTOUR when no such tour exists; ::KT_ENOTFOUND
 *         when the bounded search gave up (both ends given, rare; never
 *         seen from 5x5 to 12x12); ::KT_EUNSUPPORTED; ::KT_ECANCELED;
 *         ::KT_EINVAL (a cell off the board, start == end on a board of
 *         more than one cell, or a shard count above 1); ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_generate_open_tour(kt_tourney **out, const kt_graph *g, kt_cell start,
                                          kt_cell end, uint64_t seed, const kt_options *run);

/**
 * @brief Warnsdorff's rule: always move to the unvisited cell with the
 *        fewest unvisited neighbours, ties broken by @p tie.
 *
 * For an open tour, the walk is restarted (with the next seeded random
 * stream) when it gets stuck.  For a closed tour, a complete walk whose end
 * is not a move from its start is closed by Posa rotations (bounded; each
 * reverses the shorter part of the path).  The walk starts at @p start;
 * when not given, at a corner, except closed tours by ::KT_GENERATE_TIE_ROTH,
 * which start at the centre cell (the walks then end next to their start,
 * so closing costs almost nothing and the whole call is linear: about
 * 60 ns per cell up to 2048 x 2048).
 * Progress is reported during the walks (done and total in attempts).
 * @param[out] out     Receives the tour; NULL on failure.
 * @param g            A full knight's board.
 * @param shape        ::KT_SHAPE_PATH (open) or ::KT_SHAPE_CYCLES (closed).
 * @param start        First cell or ::KT_CELL_NONE.
 * @param tie          The tie-break rule.
 * @param seed         Seeds the random choices.
 * @param run          Run settings or NULL.  Budget: the walks (attempts)
 *                     allowed; 0 means ::KT_GENERATE_WARNSDORFF_FIRST_ATTEMPTS
 *                     (1) for ::KT_GENERATE_TIE_FIRST and
 *                     ::KT_GENERATE_TIE_WPLUS, which are deterministic, and
 *                     ::KT_GENERATE_WARNSDORFF_ATTEMPTS (64) otherwise.
 * @return ::KT_OK; ::KT_ELIMIT when every attempt the budget allows failed
 *         (the board has such a tour, the rule did not find it);
 *         ::KT_ENOTOUR when the board has no tour of that shape;
 *         ::KT_EUNSUPPORTED; ::KT_ECANCELED; ::KT_EINVAL; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_generate_warnsdorff_tour(kt_tourney **out, const kt_graph *g, kt_shape shape,
                                                kt_cell start, kt_generate_tiebreak tie,
                                                uint64_t seed, const kt_options *run);

/**
 * @brief A tourney (cycle cover) made by one of the generators.
 *
 * Boards where a method does not apply give ::KT_EUNSUPPORTED: blocks and
 * divide need a board with a closed tour (other than 1x1); braid a square
 * board with an even side >= 4; four-cover both sides multiples of 4;
 * Warnsdorff and neural a board with an even number of cells and both
 * sides >= 3 (a tourney's cycles are even), and they give ::KT_ELIMIT when
 * the budget runs out (e.g. on 4 x n boards, which often have no tourney).
 * @param[out] out Receives the tourney; NULL on failure.
 * @param g        A full knight's board.
 * @param method   The generator.
 * @param seed     Seeds the random choices (and the block variants of the
 *                 structured methods; seed 0 gives the canonical picture).
 * @param run      Run settings or NULL.  Budget, 0 for the default:
 *                 restarts from scratch for Warnsdorff (default
 *                 ::KT_GENERATE_TOURNEY_RESTARTS, per tile on large boards;
 *                 stuck walks are first repaired locally), for neural, sweeps' worth of neuron
 *                 updates (one sweep = as many updates as neurons; default
 *                 ::KT_GENERATE_NEURAL_SWEEPS, in runs of 400);
 *                 not used by the linear methods.  Progress is reported
 *                 in those units (rows for the linear methods).
 * @return ::KT_OK; ::KT_EUNSUPPORTED; ::KT_ELIMIT; ::KT_ECANCELED;
 *         ::KT_EINVAL; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_generate_tourney(kt_tourney **out, const kt_graph *g, kt_generate_method method,
                                        uint64_t seed, const kt_options *run);

/**
 * @brief The name of a method ("blocks", "warnsdorff", "neural", "divide",
 *        "braid", "four-cover").
 * @param method A method.
 * @return A static string; "unknown" for other values.
 */
KT_EXPORT const char *kt_generate_method_name(kt_generate_method method);

/**
 * @brief Look a method up by name.
 * @param name       A name as returned by kt_generate_method_name().
 * @param[out] method Receives the method.
 * @return ::KT_OK or ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_generate_method_parse(const char *name, kt_generate_method *method);

/**
 * @brief The name of a tie-break rule ("first", "random", "pohl", "roth",
 *        "wplus", "w2").
 * @param tie A rule.
 * @return A static string; "unknown" for other values.
 */
KT_EXPORT const char *kt_generate_tiebreak_name(kt_generate_tiebreak tie);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_GENERATE_H */
