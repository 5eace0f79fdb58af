/* SPDX-License-Identifier: MIT */
/**
 * @file generate.h
 * @brief Generation of closed tours, open tours and tourneys.
 *
 * - kt_generate_closed_tour(): a closed tour on every board Schwenk's
 *   theorem allows, in linear time and one byte per cell (precomputed
 *   blocks tiled and merged by rail switches).
 * - kt_generate_open_tour(): an open tour, optionally from a given start
 *   and/or to a given end cell.
 * - kt_generate_warnsdorff_tour(): Warnsdorff's rule with a choice of tie-breaks.
 * - kt_generate_tourney(): the tourney generators of Parberry's paper and
 *   of the encyclopedia seed (Warnsdorff's tourney variant, the
 *   Takefuji-Lee neural network, divide-and-conquer, concentric braids,
 *   the four-cover), each by its ::kt_generate_method.
 *
 * Every function takes an explicit seed; the same seed and arguments give
 * the same result on every platform.  Results are allocated with the
 * graph's allocator and are validated tourneys.  These functions work on
 * full knight's boards (no holes, the (2,1)-leaper); other graphs give
 * ::KT_EUNSUPPORTED.
 *
 * Thread safety: every function only reads its graph; concurrent calls are
 * independent.
 */
#ifndef KNIGHT_GENERATE_H
#define KNIGHT_GENERATE_H

#include <knight/common.h>
#include <knight/graph.h>
#include <knight/tourney.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief How Warnsdorff's rule breaks ties between equally accessible cells. */
typedef enum kt_generate_tiebreak {
    KT_GENERATE_TIE_FIRST = 0,  /**< The lowest move number (the plain rule; fails on large boards). */
    KT_GENERATE_TIE_RANDOM = 1, /**< Uniformly at random (the paper's random Warnsdorff). */
    KT_GENERATE_TIE_POHL = 2,   /**< Pohl (1967): the smallest sum of the candidates' onward accessibilities, then random. */
    KT_GENERATE_TIE_ROTH = 3    /**< Roth: the candidate farthest from the board's centre, then Pohl's rule; keeps working on large boards. */
} kt_generate_tiebreak;

/** @brief Number of tie-break rules. */
#define KT_GENERATE_TIE_COUNT 4

/** @brief The tourney (and tour) generators. */
typedef enum kt_generate_method {
    KT_GENERATE_BLOCKS = 0,      /**< The random block tiling of kt_generate_closed_tour(), blocks not merged: one cycle per block. */
    KT_GENERATE_WARNSDORFF = 1,  /**< The paper's tourney variant of random Warnsdorff: a walk is closed when it lands a move away from its start. */
    KT_GENERATE_NEURAL = 2,      /**< The Takefuji-Lee neural network, one neuron per edge. */
    KT_GENERATE_DIVIDE = 3,      /**< Divide-and-conquer after Parberry (1997): the board halved recursively down to sides 5..10, each base block a structured tour (seed 0: always the first precomputed tour of its size), not joined; kt_generate_divide_tour() joins them. */
    KT_GENERATE_BRAID = 4,       /**< Concentric braided tourney: n x n, n even >= 4; rings two cells wide (each ring's 2-factor is forced: interwoven zig-zag strands) around a 4x4 (n = 0 mod 4) or 6x6 centre. */
    KT_GENERATE_FOUR_COVER = 5   /**< Four-cover tourney (Parberry's generator): both sides multiples of 4, every 4x4 block covered by its four 4-cycles. */
} kt_generate_method;

/** @brief Number of generator methods. */
#define KT_GENERATE_METHOD_COUNT 6

/**
 * @brief A closed knight's tour, in linear time.
 *
 * Exists exactly when kt_graph_board_has_closed_tour() says so (Schwenk's
 * theorem).  Different seeds give different tours (random block partitions
 * and block tours), the same seed the same tour.
 * @param[out] out Receives the tour; set to NULL on failure.
 * @param g        A full knight's board.
 * @param seed     Any value.
 * @return ::KT_OK; ::KT_ENOTOUR when the board has no closed tour;
 *         ::KT_EUNSUPPORTED for holes or another leaper; ::KT_EINVAL;
 *         ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_generate_closed_tour(kt_tourney **out, const kt_graph *g, uint64_t seed);

/**
 * @brief A closed tour by divide-and-conquer in the style of Parberry (1997).
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
 * @return As kt_generate_closed_tour().
 */
KT_EXPORT kt_status kt_generate_divide_tour(kt_tourney **out, const kt_graph *g, uint64_t seed);

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
 * @return ::KT_OK; ::KT_ENOTOUR when no such tour exists; ::KT_ENOTFOUND
 *         when the bounded search gave up (both ends given, rare; never
 *         seen from 5x5 to 12x12); ::KT_EUNSUPPORTED; ::KT_EINVAL (a cell off the
 *         board, or start == end on a board of more than one cell);
 *         ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_generate_open_tour(kt_tourney **out, const kt_graph *g, kt_cell start,
                                          kt_cell end, uint64_t seed);

/**
 * @brief Warnsdorff's rule: always move to the unvisited cell with the
 *        fewest unvisited neighbours, ties broken by @p tie.
 *
 * For an open tour, the walk is restarted (with the next seeded random
 * stream) when it gets stuck.  For a closed tour, a complete walk whose end
 * is not a move from its start is closed by Posa rotations (bounded).  The
 * walk starts at @p start, or at a corner when not given.
 * @param[out] out     Receives the tour; NULL on failure.
 * @param g            A full knight's board.
 * @param shape        ::KT_SHAPE_PATH (open) or ::KT_SHAPE_CYCLES (closed).
 * @param start        First cell or ::KT_CELL_NONE.
 * @param tie          The tie-break rule.
 * @param seed         Seeds the random choices.
 * @param attempts     Walks allowed; 0 means 1 for ::KT_GENERATE_TIE_FIRST (it is
 *                     deterministic) and 64 otherwise.
 * @return ::KT_OK; ::KT_ENOTFOUND when every attempt failed; ::KT_ENOTOUR
 *         when the board has no tour of that shape; ::KT_EUNSUPPORTED;
 *         ::KT_EINVAL; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_generate_warnsdorff_tour(kt_tourney **out, const kt_graph *g, kt_shape shape,
                                       kt_cell start, kt_generate_tiebreak tie, uint64_t seed,
                                       uint32_t attempts);

/**
 * @brief A tourney (cycle cover) made by one of the generators.
 *
 * Boards where a method does not apply give ::KT_EUNSUPPORTED: blocks and
 * divide need a board with a closed tour (other than 1x1); braid a square
 * board with an even side >= 4; four-cover both sides multiples of 4;
 * Warnsdorff and neural a board with an even number of cells and both
 * sides >= 3 (a tourney's cycles are even), and they give ::KT_ELIMIT when
 * @p budget runs out (e.g. on 4 x n boards, which often have no tourney).
 * @param[out] out Receives the tourney; NULL on failure.
 * @param g        A full knight's board.
 * @param method   The generator.
 * @param seed     Seeds the random choices (and the block variants of the
 *                 structured methods; seed 0 gives the canonical picture).
 * @param budget   Work bound: restarts from scratch for Warnsdorff
 *                 (default 100; stuck walks are first repaired locally),
 *                 sweeps over all neurons for neural (default 100000, in
 *                 runs of 400); 0 for the default.  Ignored by the linear
 *                 methods.
 * @return ::KT_OK; ::KT_EUNSUPPORTED; ::KT_ELIMIT; ::KT_EINVAL; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_generate_tourney(kt_tourney **out, const kt_graph *g, kt_generate_method method,
                                        uint64_t seed, uint64_t budget);

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
 * @brief The name of a tie-break rule ("first", "random", "pohl", "roth").
 * @param tie A rule.
 * @return A static string; "unknown" for other values.
 */
KT_EXPORT const char *kt_generate_tiebreak_name(kt_generate_tiebreak tie);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_GENERATE_H */
