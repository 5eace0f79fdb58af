/* SPDX-License-Identifier: MIT */
/**
 * @file options.h
 * @brief The settings every long computation shares: threads, progress and
 *        cancellation, shards, a work budget, checkpoints, the allocator.
 *
 * A ::kt_options object is opaque and grows only by new setters, so a
 * program built against this header keeps working with any later 1.x
 * library.  Every call that can run long takes a `const kt_options *run`
 * as its last settings argument; NULL means the defaults below.  One
 * object may be reused for any number of calls, and by several threads at
 * once as long as none of them changes it.
 *
 * The shared rules, the same in every module:
 * - **Threads**: 0 (the default) means one thread per online core, 1 the
 *   calling thread only, N at most N threads in all (the calling thread
 *   counts as one).  Values above ::KT_THREADS_MAX are rejected.  A worker
 *   thread that the system refuses to start is not an error: its share of
 *   the work is done by the calling thread, so the result never depends on
 *   how many threads started.  Worker threads are joined before the call
 *   returns.
 * - **Progress**: the callback runs on the calling thread, never on a
 *   worker, about ten times a second (the first call within about 100 ms
 *   of the start, setup phases included); returning non-zero stops the
 *   call, which then returns ::KT_ECANCELED promptly and leaves its inputs
 *   as they were.
 * - **Shards**: shard i of N computes a part of the answer such that the
 *   N parts sum exactly to the whole (counts), so shards can run as a
 *   cluster job array; calls that cannot be sharded reject N > 1 with
 *   ::KT_EINVAL.
 * - **Budget**: 0 means unlimited; otherwise a bound on the call's work in
 *   the unit its documentation names (search nodes, iterations, attempts,
 *   states of one layer); a call that reaches it returns ::KT_ELIMIT.
 * - **Allocator**: calls on a graph allocate through the graph's
 *   allocator; calls without a graph (half-tours) allocate through the
 *   allocator this object was made with.
 *
 * Thread safety: the setters change the object and need exclusive use;
 * the getters and the calls that read the object may run concurrently.
 */
#ifndef KNIGHT_OPTIONS_H
#define KNIGHT_OPTIONS_H

#include <knight/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Opaque run settings; see the file description for the rules. */
typedef struct kt_options kt_options;

/** @brief The most threads a call uses (a larger request is rejected). */
#define KT_THREADS_MAX 256u

/**
 * @brief Called after each step of a layered computation with the size of
 *        its state (frontier states after each cell of a count), for
 *        measurements.  Runs on the calling thread.
 * @param user  The pointer given with the callback.
 * @param step  The step just finished (0-based).
 * @param size  The number of states kept after it.
 */
typedef void (*kt_trace_fn)(void *user, uint64_t step, uint64_t size);

/**
 * @brief Make a settings object holding the defaults (all cores, no
 *        progress, the whole computation, no budget, no checkpoint).
 * @param[out] out Receives the object; NULL on failure.
 * @param alloc    The allocator for this object and for the calls that
 *                 have no graph; NULL for malloc and free.  Copied.
 * @return ::KT_OK, ::KT_EINVAL for NULL @p out or an allocator without
 *         both hooks, or ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_options_new(kt_options **out, const kt_allocator *alloc);

/**
 * @brief Release a settings object.  NULL is harmless.
 * @param o The object.
 */
KT_EXPORT void kt_options_free(kt_options *o);

/**
 * @brief Copy a settings object (the checkpoint path is copied too).
 * @param[out] out Receives the copy; NULL on failure.
 * @param o        The object to copy.
 * @return ::KT_OK, ::KT_EINVAL or ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_options_copy(kt_options **out, const kt_options *o);

/**
 * @brief Set the number of threads: 0 = one per online core, 1 = the
 *        calling thread only, N = at most N in all.
 * @param o       The object.
 * @param threads 0 to ::KT_THREADS_MAX.
 * @return ::KT_OK, or ::KT_EINVAL for NULL @p o or more than ::KT_THREADS_MAX.
 */
KT_EXPORT kt_status kt_options_set_threads(kt_options *o, unsigned threads);

/**
 * @brief The thread setting as given (0 = one per online core).
 * @param o The object, or NULL for the defaults.
 * @return The value set.
 */
KT_EXPORT unsigned kt_options_threads(const kt_options *o);

/**
 * @brief The number of threads a call will use: the setting with 0
 *        resolved to the number of online cores, capped at ::KT_THREADS_MAX.
 * @param o The object, or NULL for the defaults.
 * @return At least 1.
 */
KT_EXPORT unsigned kt_options_thread_count(const kt_options *o);

/**
 * @brief Set the progress callback, or remove it with NULL @p fn.
 * @param o    The object.
 * @param fn   Called on the calling thread; non-zero cancels.
 * @param user Passed to @p fn.
 * @return ::KT_OK or ::KT_EINVAL for NULL @p o.
 */
KT_EXPORT kt_status kt_options_set_progress(kt_options *o, kt_progress_fn fn, void *user);

/**
 * @brief Compute shard @p index of @p count (0-based; count 0 or 1 = the
 *        whole computation).
 * @param o     The object.
 * @param index Below @p count (0 when @p count is 0 or 1).
 * @param count Number of shards.
 * @return ::KT_OK, or ::KT_EINVAL for NULL @p o or @p index out of range.
 */
KT_EXPORT kt_status kt_options_set_shard(kt_options *o, uint32_t index, uint32_t count);

/**
 * @brief The shard setting.
 * @param o           The object, or NULL for the defaults.
 * @param[out] index  Optional: the shard index (0 by default).
 * @param[out] count  Optional: the number of shards (1 by default).
 */
KT_EXPORT void kt_options_shard(const kt_options *o, uint32_t *index, uint32_t *count);

/**
 * @brief Bound the work of a call (0 = unlimited); the unit is named by
 *        each call's documentation.  A call that reaches it returns ::KT_ELIMIT.
 * @param o      The object.
 * @param budget The bound.
 * @return ::KT_OK or ::KT_EINVAL for NULL @p o.
 */
KT_EXPORT kt_status kt_options_set_budget(kt_options *o, uint64_t budget);

/**
 * @brief The budget (0 = unlimited).
 * @param o The object, or NULL for the defaults.
 * @return The value set.
 */
KT_EXPORT uint64_t kt_options_budget(const kt_options *o);

/**
 * @brief Save the state of a long call to @p path every @p interval
 *        seconds and resume from it (calls that support checkpoints say so).
 * @param o        The object.
 * @param path     A file name (copied), or NULL for no checkpoint.
 * @param interval Seconds between saves; 0 = after every step, negative =
 *                 the default (300).
 * @return ::KT_OK, ::KT_EINVAL for NULL @p o, or ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_options_set_checkpoint(kt_options *o, const char *path, double interval);

/**
 * @brief The checkpoint file.
 * @param o The object, or NULL for the defaults.
 * @return The path (owned by @p o), or NULL when none is set.
 */
KT_EXPORT const char *kt_options_checkpoint(const kt_options *o);

/**
 * @brief Set a trace callback (see ::kt_trace_fn), or remove it with NULL.
 * @param o    The object.
 * @param fn   The callback.
 * @param user Passed to @p fn.
 * @return ::KT_OK or ::KT_EINVAL for NULL @p o.
 */
KT_EXPORT kt_status kt_options_set_trace(kt_options *o, kt_trace_fn fn, void *user);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_OPTIONS_H */
