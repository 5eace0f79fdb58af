/* SPDX-License-Identifier: MIT */
/**
 * @file count.h
 * @brief Exact counts of closed and open knight's tours by the frontier
 *        (transfer-matrix) method.
 *
 * The board is processed cell by cell along its narrow side.  The state is
 * the *frontier*: the cells already processed that still have unprocessed
 * neighbours (2w+1 cells for a board w cells wide), each with its degree in
 * the partial tour so far and, for the end of a partial path, which
 * frontier cell is its other end.  A layer maps every reachable frontier
 * state to the number of partial tours that produce it, and processing one
 * cell turns a layer into the next.  This is the transfer-matrix method
 * with connectivity states that Enting introduced for self-avoiding
 * polygons (I. G. Enting, "Generating functions for enumerating
 * self-avoiding rings on the square lattice", J. Phys. A 13, 1980), here
 * on the knight's graph; a table of the degree demands the rest of the
 * board can still meet (for open tours, with the number of path ends still
 * to come) drops hopeless states early.
 *
 * The 8x8 board has 13,267,364,410,532 undirected closed tours, the number
 * found by B. D. McKay ("Knight's tours of an 8x8 chessboard", Tech. Rep.
 * TR-CS-97-03, Australian National University, 1997) with a different
 * method (half-tours joined across the middle, see halftour.h); an earlier
 * count with binary decision diagrams (M. Löbbing and I. Wegener, "The
 * number of knight's tours equals 33,439,123,484,294 - counting with binary
 * decision diagrams", Electronic J. Combinatorics 3, 1996) was wrong.
 * This module reproduces McKay's number (the run needs about 10 GiB; see
 * kt_count_tours()).  Counts are exact unsigned 128-bit integers
 * (::kt_u128).
 *
 * What can be counted (any leaper graph, with or without holes, as long as
 * its frontier fits the state encoding: at most 17 cells, which means every
 * full knight board whose smaller side is at most 8, and the other side any
 * length; since 1.1 open tours too, whose 17-cell frontiers take a packed
 * key, although the open layers of a full board 8 wide outgrow 20 GiB even
 * with both ends given, so only boards with holes gain from it there):
 * - closed tours (Hamiltonian cycles), undirected or directed;
 * - open tours (Hamiltonian paths), undirected or directed;
 * - closed tours invariant under the 180-degree rotation of the board,
 *   counted through the quotient of the board by the rotation;
 * - classes of closed tours (or of symmetric closed tours) under the
 *   symmetries of the board (4 for a rectangle, 8 for a square), by
 *   Burnside's lemma: the number of tours fixed by each symmetry is counted
 *   exactly through the quotient graph of that symmetry (a symmetry that
 *   fixes a cell fixes no closed tour).
 *
 * Small knight boards (no holes, both sides at least 3, at most 32 cells,
 * or when both sides are at least 5 at most 36 cells for open tours and
 * 40 for closed: of Peter Luschny's benchmark set, all boards but the
 * open tours of 3 x 11, 3 x 12, 4 x 9, 4 x 10 and 5 x 8 and the closed
 * tours of 3 x 12) are counted by a second method where it is faster: a depth-first
 * search over 64-bit cell sets that drops a partial path as soon as the
 * degrees of the cells left show that it cannot be finished (a cell with no
 * way in, two cells that could only end the path, cells next to the head
 * that would all have to come next), one search per class of start cells
 * under the board's symmetries.  The count chooses it by itself when the
 * run asks for none of the frontier's own settings (a budget, a
 * checkpoint, a trace or shards); it gives the same numbers (the tests
 * compare the two on every board it takes) and reports progress and
 * cancels as the frontier count does, and its statistics are zero (it
 * keeps no layers).
 *
 * Since 1.1, on the same conditions, knight boards 5 to 8 cells wide whose
 * halves (the narrow side times half the long side, rounded up) hold at
 * most 32 cells and that the search does not take (5 x 8 to 5 x 12, 6 x 7
 * to 6 x 10, 7 x 7, 7 x 8, and 8 x 8 closed) are counted by McKay's
 * half-tours (halftour.h: kt_halftours_count_closed(),
 * kt_halftours_count_open()), which are faster there: 5 x 8 open 4 times,
 * 6 x 8 open 5 times, 8 x 8 closed 3 times (and in 1.4 GiB instead of 10).
 * Closed tours of 8 x 9 and 8 x 10, beyond the frontier's reach in 20
 * GiB, go to half-tours as well (a half of 8 x 5: about 15 GiB at the
 * peak of its enumeration).
 * The two methods share no code; ::KT_COUNT_FRONTIER keeps a count on the
 * frontier, for a check of one against the other.  Statistics are zero
 * then too, and progress is that of the half-tour count.
 *
 * Long runs take the shared run settings (options.h): threads, a progress
 * callback that can cancel, a shard (count only shard i of N: the N
 * partial counts sum exactly to the total, so the shards can run as a
 * cluster job array), a budget on the states of one layer, a checkpoint
 * file (the state layer is saved every few minutes; a call with the same
 * file resumes where it stopped, and a finished run leaves a file from
 * which the same call returns at once), and a trace of the layer sizes.
 *
 * Thread safety: all functions are reentrant; concurrent calls on the same
 * graph are safe (graphs are immutable).  A call starts its own worker
 * threads as the run settings allow and joins them before it returns.
 */
#ifndef KNIGHT_COUNT_H
#define KNIGHT_COUNT_H

#include <knight/common.h>
#include <knight/graph.h>
#include <knight/options.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Count Hamiltonian paths (open tours) instead of cycles (closed tours). */
#define KT_COUNT_OPEN 0x1u
/** @brief Count directed tours (each undirected tour twice, for boards of 2+ cells). */
#define KT_COUNT_DIRECTED 0x2u
/** @brief Count only the closed tours invariant under a 180-degree rotation of the board. */
#define KT_COUNT_SYMMETRIC 0x4u
/** @brief Count classes under the symmetries of the board (Burnside) instead of tours. */
#define KT_COUNT_CLASSES 0x8u
/**
 * @brief Count by the frontier method only: neither the small-board search
 *        nor half-tours, whichever would be faster (since 1.1).
 *
 * For a check of one method against another, or for the frontier's
 * statistics (kt_count_stats) on any board.
 */
#define KT_COUNT_FRONTIER 0x10u

/**
 * @brief Statistics of a count, filled in when a pointer is given; a
 *        count that fails part-way reports the figures reached so far.
 *
 * The layout is frozen: later versions add functions, never fields.
 */
typedef struct kt_count_stats {
    uint64_t peak_states;        /**< Most frontier states held in one layer (0 from the small-board search). */
    uint64_t peak_bytes;         /**< Most bytes held by the state layers at once. */
    uint32_t frontier;           /**< Largest frontier (cells) of the processing order. */
} kt_count_stats;

/**
 * @brief Count the tours of a board exactly by the frontier method (or,
 *        on knight boards where they are faster, by a depth-first search
 *        or McKay's half-tours).
 *
 * Undirected closed tours by default; see the KT_COUNT_* flags.  With
 * ::KT_COUNT_CLASSES the result is the number of classes of tours (with
 * ::KT_COUNT_SYMMETRIC: of symmetric tours) under the rotations and
 * reflections of the board; classes need a hole-free knight board whose
 * symmetries are those of the rectangle, cannot be combined with shards
 * or ::KT_COUNT_OPEN, and ignore ::KT_COUNT_DIRECTED.
 *
 * A knight board without holes that has no tour by the colouring or by the
 * existence theorems (closed tours: A. J. Schwenk, "Which rectangular
 * chessboards have a knight's tour?", Math. Magazine 64, 1991; open tours:
 * A. Conrad, T. Hindrichs, H. Morsy and I. Wegener, Discrete Applied Math.
 * 50, 1994) answers 0 at once, without a frontier count.
 *
 * Run settings used (options.h; NULL @p run = the defaults):
 * - threads: the worker threads that expand a layer (0 = one per core);
 *   the count is the same for any number (the small-board search runs on
 *   the calling thread);
 * - progress: called on the calling thread, in units of 1/1024 of a cell
 *   over all the cells of the count, also while the lookahead is built
 *   (done = 0 then); non-zero cancels (::KT_ECANCELED);
 * - shard i of N: the count of shard i; the N shard counts sum exactly
 *   to the whole count (not with ::KT_COUNT_CLASSES);
 * - budget, checkpoint, trace, shards: any of them keeps the count on the
 *   frontier method (they describe its layers), also on a board that the
 *   search or half-tours would take;
 * - budget: the most frontier states one layer may hold; a layer that
 *   would hold more stops the call with ::KT_ELIMIT (0 = no bound).  A
 *   budget of B states also bounds the lookahead below to 64 B bytes, so
 *   a small budget fails in milliseconds instead of after building the
 *   lookahead (a smaller lookahead keeps more states per layer);
 * - checkpoint path and interval: the layer is saved to the file every
 *   interval seconds and after the last cell, and a call with the same
 *   file resumes from it.  A file belongs to one board, one kind of count
 *   and one shard; with several counts (classes, symmetric tours) the file
 *   name gets a suffix per symmetry (".r180", ".mirx", ...).  The file is
 *   written to "<path>.tmp", flushed to disk and renamed over @p path, so
 *   a crash leaves the previous file whole.  Reading it trusts nothing:
 *   its length must be what its header announces (checked before any
 *   allocation), a 64-bit checksum covers all of it, and every state is
 *   decoded and checked; a damaged file gives ::KT_EPARSE (never a wrong
 *   count), a path that cannot be read (a directory) ::KT_EIO, and a sound
 *   file of another board, count kind or shard ::KT_EMISMATCH;
 * - trace: called after each cell with the cell's index in the processing
 *   order (per quotient count) and the number of states kept.
 * The allocator of @p run is not used: memory comes from the graph's
 * (half-tours too).
 *
 * Memory: two layers of 16 bytes per state (see kt_count_stats), plus
 * the lookahead that lets the count drop states the rest of the board
 * cannot finish: on frontiers of at most 13 cells (boards up to 6 wide) 2
 * bits per demand vector met, in a table of 2 * 3^f bits per cell (3 times
 * that for open tours); on wider ones bitsets of about 1.6 * 3^f bits per
 * cell (3 times for open tours), for the last cells only, at most 1 GiB
 * (8x8: 1 GiB; 7x7 open: about 0.3 GiB).  The 8x8 closed count peaks at
 * 10.3 GiB.
 *
 * @param g      The board (any leaper, holes allowed unless symmetric or classes).
 * @param flags  KT_COUNT_* bits; 0 counts undirected closed tours.
 * @param run    Run settings, or NULL for the defaults.
 * @param[out] out   The count; unchanged on failure.
 * @param[out] stats NULL, or receives statistics of the run.
 * @return ::KT_OK; ::KT_EINVAL for NULL @p g or @p out, an unknown flag,
 *         or shards with ::KT_COUNT_CLASSES; ::KT_EUNSUPPORTED when the
 *         frontier does not fit the state encoding (board too wide;
 *         decided from the size alone, before any allocation, for a board
 *         without holes whose smaller side exceeds 17 plus twice the
 *         longer leap), the
 *         symmetry does not apply, or ::KT_COUNT_OPEN comes with
 *         ::KT_COUNT_SYMMETRIC or ::KT_COUNT_CLASSES; ::KT_ECANCELED;
 *         ::KT_ELIMIT when a layer passes the budget; ::KT_ENOMEM;
 *         ::KT_EOVERFLOW if the count (or an intermediate count) needs more
 *         than 128 bits; ::KT_EIO, ::KT_EPARSE or ::KT_EMISMATCH for a
 *         checkpoint that cannot be written, is corrupt, or belongs to
 *         another count.
 */
KT_EXPORT kt_status kt_count_tours(const kt_graph *g, unsigned flags, const kt_options *run,
                                   kt_u128 *out, kt_count_stats *stats);

/**
 * @brief Count the open tours of a board with a given start cell, end
 *        cell, or both, exactly by the frontier method (or, on small
 *        knight boards, by a depth-first search from the given cell).
 *
 * With @p start given, the count is of the directed open tours that begin
 * on @p start (and end on @p end if that is given too); with only @p end
 * given, of those that end on @p end.  Each such tour is a different
 * undirected tour with that end, so ::KT_COUNT_DIRECTED changes nothing
 * here.  Both ::KT_CELL_NONE: the same as kt_count_tours() with
 * ::KT_COUNT_OPEN (all open tours, doubled with ::KT_COUNT_DIRECTED).
 *
 * How: one given end becomes a pendant vertex joined to it (every open
 * tour of the board so extended ends there); two become an apex joined to
 * both, whose closed tours are the open tours from one to the other, so
 * the closed count's lookahead applies.  The frontier is the same as for
 * the whole board, except that the apex keeps the earlier end in it until
 * the later one: where that passes 17 cells (boards 8 wide), two given
 * ends are counted in open mode instead, with only those two cells
 * allowed to end a path (one lookahead set per cell instead of three).  On the small boards of kt_count_tours() the search
 * runs from the given start (or from the given end, the tours reversed)
 * instead, under the same conditions, and on the boards of half-tours
 * kt_halftours_count_open() with the same ends.  Run settings (threads, progress, shard, budget,
 * checkpoint, trace) as for kt_count_tours(); a checkpoint file belongs to
 * one pair of ends.
 *
 * @param g      The board (any leaper, holes allowed).
 * @param start  The first cell of the tours, or ::KT_CELL_NONE.
 * @param end    The last cell of the tours, or ::KT_CELL_NONE.
 * @param flags  ::KT_COUNT_OPEN and ::KT_COUNT_DIRECTED are accepted (and
 *               implied or ignored as above); 0 is the same.
 * @param run    Run settings, or NULL for the defaults.
 * @param[out] out   The count; unchanged on failure.
 * @param[out] stats NULL, or receives statistics of the run.
 * @return ::KT_OK; ::KT_EINVAL for NULL @p g or @p out, an unknown flag, a
 *         given cell that is not a cell of the board (or is a hole), or
 *         @p start equal to @p end; ::KT_EUNSUPPORTED with
 *         ::KT_COUNT_SYMMETRIC or ::KT_COUNT_CLASSES, or when the frontier
 *         does not fit; otherwise as kt_count_tours().
 */
KT_EXPORT kt_status kt_count_open_tours(const kt_graph *g, kt_cell start, kt_cell end, unsigned flags,
                                        const kt_options *run, kt_u128 *out, kt_count_stats *stats);

/**
 * @brief Count the directed open tours of a board by their start cell:
 *        the table of tours by start cell, all cells at once.
 *
 * @p counts[c] receives the number of directed open tours that begin on
 * cell c (c = y * width + x; 0 on holes), the count that
 * kt_count_open_tours() gives with start c and no end.  Each directed open
 * tour is counted once, at its start, so the table sums to the directed
 * open count of kt_count_tours() (::KT_COUNT_OPEN | ::KT_COUNT_DIRECTED).
 * The 5 x 5 board's table has 304 at each corner and 64 at the centre, and
 * sums to 1,728.
 *
 * Cheaper than a count per cell: the symmetries of the board (the 4 of a
 * rectangle, the 8 of a square, those of them that map the holes onto
 * holes) map tours starting on a cell to tours starting on its images, so
 * one count per class of start cells fills the table; and on a board
 * whose colours differ by one (a knight-like leaper, a + b odd) the cells
 * of the smaller colour start no tour and are not counted (a difference
 * of two or more: no tour at all).  Each class is counted as by
 * kt_count_open_tours(); on the small boards where that runs the
 * single-threaded search, the classes are shared out among the run's
 * threads.
 *
 * Run settings (options.h; NULL @p run = the defaults), as for
 * kt_count_open_tours(), over the whole table:
 * - threads: the worker threads of each frontier count, or on small
 *   boards the threads that take classes in turn; the table is the same
 *   for any number;
 * - progress: called on the calling thread, in equal shares per class of
 *   start cells; non-zero cancels (::KT_ECANCELED);
 * - shard i of N: each entry is shard i's part of its count; the N tables
 *   sum exactly to the whole table;
 * - budget: per count of a class, as for kt_count_open_tours();
 * - checkpoint: each class's count has its own file, the given path with
 *   ".s" and the start cell's number appended, so a stopped table resumes
 *   class by class;
 * - trace: called for each class's count in turn.
 *
 * @param g       The board (any leaper, holes allowed).
 * @param flags   ::KT_COUNT_OPEN and ::KT_COUNT_DIRECTED are accepted (the
 *                table is of directed open tours either way); 0 is the same;
 *                ::KT_COUNT_FRONTIER keeps each count on the frontier.
 * @param run     Run settings, or NULL for the defaults.
 * @param[out] counts  At least width * height entries; unchanged on failure.
 * @param ncounts The number of entries of @p counts.
 * @return ::KT_OK; ::KT_EINVAL for NULL @p g or @p counts, an unknown flag,
 *         or @p ncounts below width * height; ::KT_EUNSUPPORTED with
 *         ::KT_COUNT_SYMMETRIC or ::KT_COUNT_CLASSES, or when the frontier
 *         does not fit (for a board without holes decided from its size,
 *         before any allocation, as by kt_count_tours()); ::KT_ENOMEM;
 *         otherwise as kt_count_open_tours().
 */
KT_EXPORT kt_status kt_count_open_by_start(const kt_graph *g, unsigned flags, const kt_options *run,
                                           kt_u128 *counts, size_t ncounts);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_COUNT_H */
