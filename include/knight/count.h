/* SPDX-License-Identifier: MIT */
/**
 * @file count.h
 * @brief Exact counts of closed and open knight's tours by a frontier
 *        (transfer-matrix) dynamic programme.
 *
 * The board is processed cell by cell along its narrow side; the state is
 * the connectivity of the cells that still have unprocessed neighbours
 * (the "frontier": 2w+1 cells for a board w cells wide).  Counts are exact
 * unsigned 128-bit integers, returned as two 64-bit halves.
 *
 * What can be counted (any leaper graph, with or without holes, as long as
 * its frontier fits the state encoding: at most 17 cells for closed tours,
 * 16 for the rest, which means every full knight board whose smaller side
 * is at most 8, and the other side any length, for closed tours; smaller
 * side at most 7 for open tours; 8 for symmetric tours):
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
 * Long runs: every call takes a progress callback that can cancel, a
 * thread count, a shard (count only shard i of N: the N partial counts sum
 * exactly to the total, so the shards can run as a cluster job array), and
 * a checkpoint file (the state layer is saved every few minutes; a call
 * with the same file resumes where it stopped, and a finished run leaves a
 * file from which the same call returns at once).
 *
 * Thread safety: all functions are reentrant; concurrent calls on the same
 * graph are safe (graphs are immutable).  A call uses up to
 * kt_count_options::threads threads of its own, joined before it returns.
 */
#ifndef KNIGHT_COUNT_H
#define KNIGHT_COUNT_H

#include <knight/common.h>
#include <knight/graph.h>

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
 * @brief Options of a count.  Initialise with kt_count_options_init() and
 *        then set the fields you need; new fields are only ever appended.
 */
typedef struct kt_count_options {
    unsigned flags;              /**< KT_COUNT_* bits; 0 = undirected closed tours. */
    unsigned threads;            /**< Threads to use; 0 or 1 = the calling thread only. */
    uint32_t shard_index;        /**< Count shard shard_index of shard_count (0-based). */
    uint32_t shard_count;        /**< 0 or 1: the whole count; N: one of N shards. */
    const char *checkpoint;      /**< NULL, or a file to save the run to and resume it from. */
    double checkpoint_interval;  /**< Seconds between saves (default 300; 0 = after every cell). */
    kt_progress_fn progress;     /**< NULL, or called from the calling thread; non-zero cancels. */
    void *progress_user;         /**< Passed to @p progress. */
    uint64_t max_states;         /**< 0, or stop with ::KT_ELIMIT when a layer holds more states. */
    /** NULL, or called after each cell with the number of frontier states kept (for measurements). */
    void (*layer)(void *user, uint64_t cell, uint64_t states);
    void *layer_user;            /**< Passed to @p layer. */
} kt_count_options;

/**
 * @brief Statistics of the last count, filled in when a pointer is given.
 */
typedef struct kt_count_stats {
    uint64_t peak_states;        /**< Most frontier states held in one layer. */
    uint64_t peak_bytes;         /**< Most bytes held by the state layers at once. */
    uint32_t frontier;           /**< Largest frontier (cells) of the processing order. */
} kt_count_stats;

/**
 * @brief Set @p opt to the defaults (undirected closed tours, one thread,
 *        no shard, no checkpoint, no progress).
 * @param opt Options to initialise; NULL is ignored.
 */
KT_EXPORT void kt_count_options_init(kt_count_options *opt);

/**
 * @brief Count the tours of a board exactly.
 *
 * Undirected closed tours by default; see the KT_COUNT_* flags.  With
 * ::KT_COUNT_CLASSES the result is the number of classes of tours (with
 * ::KT_COUNT_SYMMETRIC: of symmetric tours) under the rotations and
 * reflections of the board; classes need a hole-free knight board whose
 * symmetries are those of the rectangle, cannot be combined with shards
 * or ::KT_COUNT_OPEN, and ignore ::KT_COUNT_DIRECTED.
 *
 * Memory: two layers of 16 bytes per state (see kt_count_stats), plus,
 * for closed tours, the lookahead bitsets that let the count drop states
 * the rest of the board cannot finish: about 1.6 * 3^f bits per cell for a frontier of
 * f cells, for the last cells only, at most 1 GiB (8x8: 1 GiB; 6x8:
 * about 11 MB).  The 8x8 closed count peaks at 10.3 GiB.
 *
 * A checkpoint file belongs to one board, one kind of count and one
 * shard; with several counts (classes) the file name gets a suffix per
 * symmetry (".r180", ".mirx", ...).
 *
 * @param g    The board (any leaper, holes allowed unless symmetric or classes).
 * @param opt  Options, or NULL for the defaults.
 * @param[out] out   The count; unchanged on failure.
 * @param[out] stats NULL, or receives statistics of the run.
 * @return ::KT_OK; ::KT_EINVAL for NULL @p g or @p out, a shard index out of
 *         range or an invalid flag combination; ::KT_EUNSUPPORTED when the
 *         frontier does not fit the state encoding (board too wide), the
 *         symmetry does not apply, or ::KT_COUNT_OPEN comes with
 *         ::KT_COUNT_SYMMETRIC or ::KT_COUNT_CLASSES; ::KT_ECANCELED; ::KT_ENOMEM; ::KT_ETHREAD;
 *         ::KT_EOVERFLOW if the count (or an intermediate count) needs more
 *         than 128 bits; ::KT_EIO, ::KT_EPARSE or ::KT_EMISMATCH for a
 *         checkpoint that cannot be written, is corrupt, or belongs to another
 *         count; ::KT_ELIMIT when kt_count_options::max_states is exceeded.
 */
KT_EXPORT kt_status kt_count_tours(const kt_graph *g, const kt_count_options *opt,
                                   kt_u128 *out, kt_count_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_COUNT_H */
