/* SPDX-License-Identifier: MIT */
/**
 * @file halftour.h
 * @brief McKay's half-tours: enumeration of the path structures of one half
 *        of a board, their types, type compatibility, and the count of
 *        closed tours by joining the halves across the middle.
 *
 * The method, the terms (half-tour, path structure, type, compatibility)
 * and the figures for 8x8 follow B. D. McKay, "Knight's tours of an 8x8
 * chessboard", Technical Report TR-CS-97-03, Department of Computer
 * Science, Australian National University, 1997 (McKay 1997), which
 * counted the 13,267,364,410,532 undirected closed tours of 8x8 this way.
 *
 * A board of @c width columns is cut between two rows into two *halves*.
 * A half is described in its own coordinates: local row 0 is the row next
 * to the cut (McKay's rank 4 for the lower half of 8x8), local row 1 the
 * next one (rank 3), and so on away from the cut; columns are numbered from
 * the left (file a = column 0).  The half's *depth* is its number of rows,
 * and the *other depth* the number of rows of the half across the cut.
 *
 * A *half-tour* is a set of vertex-disjoint paths (a single cell is a
 * trivial path) that covers the half using knight moves inside it, with
 * every path end and every trivial path in local rows 0 and 1, and (the
 * condition McKay's figures imply) every path end with at least one knight
 * move across the cut, every trivial path with at least two.
 *
 * The *boundary cells* are the cells of local rows 0 and 1, numbered
 * `i = row * width + x` (0 .. 2*width-1).  The *path structure* of a
 * half-tour pairs the two ends of each path (a trivial path pairs a cell
 * with itself); its *type* gives each boundary cell 0 (interior), 1 (end of
 * a non-trivial path) or 2 (trivial path).  McKay's `a` is the type of
 * local row 0, `b` of local row 1.  The upper half of a board is a half
 * whose local rows run upward from the cut, so the upper half-tours of an
 * 8x8 board are the lower ones turned upside down.
 *
 * Widths 1 to 8 are supported (a path structure is then a 64-bit key).
 *
 * Open tours (kt_halftours_count_open()) use the same halves with tour
 * ends allowed inside them; see that function.
 *
 * Run settings (knight/options.h): the three long calls take a
 * `const kt_options *run` (NULL = defaults) and read these settings:
 * | setting    | kt_halftours_enumerate() | kt_halftours_join() | kt_halftours_count_closed() |
 * |------------|--------------------------|---------------------|-----------------------------|
 * | threads    | yes                      | yes                 | yes                         |
 * | progress   | yes (one step a cell)    | yes                 | yes (both)                  |
 * | shard      | rejected (N > 1: ::KT_EINVAL) | yes (upper types) | yes (the join's shard) |
 * | budget     | states of one layer      | pairings of one upper type | both bounds           |
 * | trace      | states after each cell   | not used            | states after each cell      |
 * | allocator  | yes; the set keeps it    | yes                 | yes                         |
 * | checkpoint | not used                 | not used (run shard by shard) | not used          |
 * The results never depend on the number of threads.
 *
 * Thread safety: a kt_halftours object is immutable once made; any number of
 * threads may query it and join it at once.  Every function here is
 * reentrant.  The long calls start their own worker threads (the thread
 * setting) and join them before they return.
 */
#ifndef KNIGHT_HALFTOUR_H
#define KNIGHT_HALFTOUR_H

#include <knight/common.h>
#include <knight/options.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Opaque set of the path structures of one half, with their counts. */
typedef struct kt_halftours kt_halftours;

/** @brief Largest supported width (columns along the cut). */
#define KT_HALFTOUR_MAX_WIDTH 8

/** @brief Number of boundary cells of the widest half (2 rows of 8). */
#define KT_HALFTOUR_MAX_CELLS 16

/** @brief kt_halftour_structure::partner value of an interior cell. */
#define KT_HALFTOUR_INTERIOR 0xFFu

/** @brief One path structure and the number of half-tours that have it.
 *  The layout is frozen (its size is fixed by ::KT_HALFTOUR_MAX_CELLS). */
typedef struct kt_halftour_structure {
    /** Canonical 64-bit key: 4 bits per boundary cell (0 trivial path,
     *  1 interior, 2.. path labels numbered in cell order). */
    uint64_t key;
    /** Number of half-tours with this path structure. */
    uint64_t count;
    /** For boundary cell i (< 2*width): the other end of its path (i itself
     *  for a trivial path), or ::KT_HALFTOUR_INTERIOR.  Unused entries are
     *  ::KT_HALFTOUR_INTERIOR. */
    uint8_t partner[KT_HALFTOUR_MAX_CELLS];
    /** For boundary cell i: McKay's type value 0, 1 or 2 (unused entries 0). */
    uint8_t type[KT_HALFTOUR_MAX_CELLS];
} kt_halftour_structure;

/** @brief McKay's summary figures of a kt_halftours set (the figures of
 *  McKay 1997's section on half-tours).  The layout is frozen. */
typedef struct kt_halftour_stats {
    uint64_t halftours;      /**< Number of half-tours. */
    uint64_t structures;     /**< Number of distinct path structures. */
    uint64_t min_count;      /**< Fewest half-tours of one structure (0 if none). */
    uint64_t max_count;      /**< Most half-tours of one structure. */
    uint64_t types;          /**< Number of distinct types (a, b). */
    uint64_t a_values;       /**< Number of distinct values of a (local row 0). */
    uint64_t b_values;       /**< Number of distinct values of b (local row 1). */
    uint64_t max_per_type;   /**< Most path structures sharing one type. */
} kt_halftour_stats;

/**
 * @brief Enumerate the half-tours of one half, grouped by path structure.
 *
 * A frontier dynamic programme over the cells of the half, from the row
 * farthest from the cut towards it; the states of the last row are the
 * path structures.  McKay's lower half of 8x8 is (8, 4, 4): 70,433,448
 * half-tours in 7,934,470 path structures of 453,741 types (McKay 1997).
 *
 * Settings read from @p run: threads; progress (one step per cell of the
 * half; may cancel); budget, in states of one layer (the states kept
 * after one cell; more gives ::KT_ELIMIT, found as soon as one thread
 * holds more); trace (the states kept after each cell: from the end of
 * the first row on, one of each state and its left-right mirror image,
 * so about half of them); allocator (every allocation, and the set keeps
 * it for kt_halftours_free()).  Shards are rejected: one half cannot be
 * split into parts that sum.
 * @param[out] out      Receives the new set; NULL on failure.
 * @param width         Columns, 1 to ::KT_HALFTOUR_MAX_WIDTH.
 * @param depth         Rows of this half, at least 1.
 * @param other_depth   Rows of the half across the cut, at least 1 (decides
 *                      which cells have moves across the cut).
 * @param run           Run settings, or NULL for the defaults.
 * @return ::KT_OK; ::KT_EINVAL (NULL @p out, a zero size, or a shard count
 *         above 1); ::KT_EUNSUPPORTED for a width above 8 or a frontier
 *         that does not fit the state encoding; ::KT_ETOOBIG for more than
 *         2^20 cells; ::KT_EOVERFLOW when a count passes 2^64 - 1;
 *         ::KT_ELIMIT; ::KT_ECANCELED; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_halftours_enumerate(kt_halftours **out, uint32_t width, uint32_t depth,
                                           uint32_t other_depth, const kt_options *run);

/**
 * @brief Release a set.  NULL is harmless.
 * @param h The set.
 */
KT_EXPORT void kt_halftours_free(kt_halftours *h);

/**
 * @brief The geometry a set was made for (all 0 for NULL @p h).
 * @param h                The set, or NULL.
 * @param[out] width       Optional: columns.
 * @param[out] depth       Optional: rows of the half.
 * @param[out] other_depth Optional: rows of the half across the cut.
 */
KT_EXPORT void kt_halftours_geometry(const kt_halftours *h, uint32_t *width, uint32_t *depth,
                                     uint32_t *other_depth);

/**
 * @brief Number of distinct path structures.
 * @param h The set, or NULL.
 * @return The count (structures are indexed 0 .. count-1 in key order);
 *         0 for NULL @p h.
 */
KT_EXPORT size_t kt_halftours_count(const kt_halftours *h);

/**
 * @brief McKay's summary figures.
 * @param h       The set.
 * @param[out] st Receives the figures.
 * @return ::KT_OK or ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_halftours_stats(const kt_halftours *h, kt_halftour_stats *st);

/**
 * @brief Path structure number @p index (in increasing key order).
 * @param h          The set.
 * @param index      Below kt_halftours_count().
 * @param[out] out   Receives the structure, its count and its type.
 * @return ::KT_OK or ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_halftours_at(const kt_halftours *h, size_t index,
                                    kt_halftour_structure *out);

/**
 * @brief Look a path structure up.
 * @param h           The set.
 * @param partner     2*width entries as in kt_halftour_structure::partner.
 * @param[out] index  Optional: its index.
 * @param[out] count  Optional: its number of half-tours (0 when absent).
 * @return ::KT_OK; ::KT_ENOTFOUND when no half-tour has this structure;
 *         ::KT_EINVAL when @p partner is not a valid pairing.
 */
KT_EXPORT kt_status kt_halftours_find(const kt_halftours *h, const uint8_t *partner,
                                      size_t *index, uint64_t *count);

/**
 * @brief Call @p fn for every path structure, in key order.
 * @param h    The set.
 * @param fn   Callback; return non-zero to stop (the call then returns ::KT_ECANCELED).
 * @param user Passed to @p fn.
 * @return ::KT_OK, ::KT_EINVAL or ::KT_ECANCELED.
 */
KT_EXPORT kt_status kt_halftours_foreach(const kt_halftours *h,
                                         int (*fn)(void *user, const kt_halftour_structure *s),
                                         void *user);

/**
 * @brief McKay's compatibility of the types (aL, bU).
 *
 * All of @p b_upper (the type of the upper half's local row 1, McKay's
 * rank 6) must be met by knight steps to local row 0 of the lower half
 * (rank 4), which takes at most @p a_lower[x] steps at column x.
 * @param width    Columns, 1 to ::KT_HALFTOUR_MAX_WIDTH.
 * @param a_lower  @p width values 0-2: the lower half's row next to the cut.
 * @param b_upper  @p width values 0-2: the upper half's second row.
 * @param[out] compatible Receives 1 when some set of steps meets the
 *                 demand, 0 when none does; unchanged on failure.
 * @return ::KT_OK, or ::KT_EINVAL for NULL pointers, a width out of range
 *         or a value above 2.
 */
KT_EXPORT kt_status kt_halftours_types_compatible(uint32_t width, const uint8_t *a_lower,
                                                  const uint8_t *b_upper, int *compatible);

/**
 * @brief Count undirected closed tours by McKay's method: join the lower
 *        and upper path structures across the cut.
 *
 * One upper type at a time: every set of crossing steps that gives each
 * upper boundary cell its type's number of steps and leaves the lower
 * cells a lower type; for each lower structure of that type, the pairing
 * of the upper path ends that it realises with the steps, summed in a
 * table; each upper structure of the type is then matched against the
 * table (a tour exactly when the two pairings form one cycle).  The
 * board's symmetries share the work: a type and its mirror image (the
 * left-right reflection) are counted together, and when both halves are
 * the same set (@p upper is @p lower) so are the type pairs (lower, upper)
 * and (upper, lower) (the up-down flip).
 * Memory: the two halves and one small table per thread (1.4 GiB for
 * 8x8).
 *
 * Settings read from @p run: threads; progress (may cancel); shard i of N
 * (the upper types, one of each mirror pair, are dealt round-robin into N
 * parts of about equal work; the counts of shards 0 .. N-1 sum exactly to
 * the whole, so a long count can run shard by shard, be resumed after the
 * last finished shard, or run on several machines); budget, in pairings
 * of one upper type (the entries of the table above; more gives
 * ::KT_ELIMIT, whatever the number of threads); allocator (every
 * allocation of the join).  No trace, no checkpoint.
 * @param lower     The lower half (width W, depth DL, other depth DU).
 * @param upper     The upper half (width W, depth DU, other depth DL); may
 *                  be @p lower when DL == DU.
 * @param run       Run settings, or NULL for the defaults.
 * @param[out] count The number of tours (of this shard); unchanged on failure.
 * @return ::KT_OK; ::KT_EINVAL for a NULL argument; ::KT_EMISMATCH when
 *         the halves do not fit together; ::KT_EOVERFLOW; ::KT_ELIMIT;
 *         ::KT_ECANCELED; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_halftours_join(const kt_halftours *lower, const kt_halftours *upper,
                                      const kt_options *run, kt_u128 *count);

/**
 * @brief Count the undirected closed knight's tours of a @p width x
 *        @p height board by McKay's method, cutting it below row @p split.
 *
 * Enumerates both halves (once when they are equal) with
 * kt_halftours_enumerate() and joins them with kt_halftours_join().  6x6
 * has 9,862 closed tours, 8x8 13,267,364,410,532 (McKay 1997).  When the
 * halves differ in depth, the board is turned upside down if that puts the
 * deeper half above (the join costs less that way; the count is the same),
 * so @p split and @p height - @p split give the same run.
 *
 * Settings read from @p run: threads; progress (the enumerations' cells,
 * then the join; may cancel); shard i of N (the join's shard: both halves
 * are enumerated whole, and the shards' counts sum to the whole count);
 * budget (states of one layer in the enumerations, pairings of one upper
 * type in the join); trace (the enumerations' layers); allocator.
 * @param width     Columns, 1 to ::KT_HALFTOUR_MAX_WIDTH.
 * @param height    Rows, at least 2.
 * @param split     Rows of the upper half, 1 to height-1.
 * @param run       Run settings, or NULL for the defaults.
 * @param[out] count The number of tours (of this shard); unchanged on failure.
 * @return As kt_halftours_enumerate() and kt_halftours_join();
 *         ::KT_EINVAL for a NULL @p count or a bad size or split.
 */
KT_EXPORT kt_status kt_halftours_count_closed(uint32_t width, uint32_t height, uint32_t split,
                                              const kt_options *run, kt_u128 *count);

/** @brief kt_halftours_count_open() flag: count each tour in both
 *  directions (the value of ::KT_COUNT_DIRECTED in knight/count.h). */
#define KT_HALFTOUR_DIRECTED 0x2u

/**
 * @brief Count the open knight's tours (Hamiltonian paths) of a @p width x
 *        @p height board by McKay's method extended to paths with free
 *        ends, cutting it below row @p split.
 *
 * A half-tour of an open tour may hold zero, one or two of the tour's
 * ends, anywhere in the half: its paths then include paths that end at a
 * tour end on one side and cross the cut on the other.  Both halves are
 * enumerated with their tour ends (kt_halftours_enumerate()'s frontier
 * pass, with cells allowed to end the tour), grouped by type as for closed
 * tours, and joined across the cut; a join counts when the halves' tour
 * ends number two in all and the whole is one path.  This is independent
 * of the frontier count of knight/count.h (kt_count_tours() with
 * ::KT_COUNT_OPEN, kt_count_open_tours()), and the two agree: 5x5 has 864
 * undirected open tours, 6x6 3,318,960 (OEIS A390833).
 *
 * Cells are numbered as ::kt_cell (`y * width + x`, y from the top row);
 * the upper half is rows 0 .. @p split - 1.  With @p start given, the
 * count is of the tours that begin on @p start (and end on @p end if that
 * is given too); with only @p end given, of those that end on @p end; each
 * is counted once, so ::KT_HALFTOUR_DIRECTED changes nothing then, as in
 * kt_count_open_tours().
 *
 * Settings read from @p run: threads; progress (the enumerations' cells,
 * then the join; may cancel); shard i of N (the join's shard, as in
 * kt_halftours_count_closed()); budget (states of one layer in the
 * enumerations, pairings of one upper type in the join); trace (the
 * enumerations' layers); allocator.  No checkpoint.
 * Memory: the open halves hold many more structures than the closed ones
 * (a structure also says which path ends lead to a tour end).
 * @param width     Columns, 1 to ::KT_HALFTOUR_MAX_WIDTH.
 * @param height    Rows, at least 2.
 * @param split     Rows of the upper half, 1 to height-1.
 * @param start     The first cell of the tours, or ::KT_CELL_NONE.
 * @param end       The last cell of the tours, or ::KT_CELL_NONE.
 * @param flags     0 (undirected) or ::KT_HALFTOUR_DIRECTED.
 * @param run       Run settings, or NULL for the defaults.
 * @param[out] count The number of tours (of this shard); unchanged on failure.
 * @return As kt_halftours_count_closed(); ::KT_EINVAL also for an unknown
 *         flag, a given cell off the board, or @p start equal to @p end.
 */
KT_EXPORT kt_status kt_halftours_count_open(uint32_t width, uint32_t height, uint32_t split,
                                            kt_cell start, kt_cell end, unsigned flags,
                                            const kt_options *run, kt_u128 *count);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_HALFTOUR_H */
