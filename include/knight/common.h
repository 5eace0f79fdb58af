/* SPDX-License-Identifier: MIT */
/**
 * @file common.h
 * @brief Status codes, cell indices, allocator hooks, progress callbacks and
 *        export macros shared by every libknight module.
 *
 * Thread safety: every function declared here is safe to call from any
 * thread at any time; none touches shared state.
 */
#ifndef KNIGHT_COMMON_H
#define KNIGHT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @cond KT_INTERNAL */
#if defined(_WIN32) && defined(KT_BUILDING_LIBRARY) && !defined(KT_STATIC)
#define KT_EXPORT __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define KT_EXPORT __attribute__((visibility("default")))
#else
#define KT_EXPORT
#endif
/** @endcond */

/**
 * @brief Result of every fallible libknight call.
 *
 * The numeric values are part of the ABI and never change; new codes are
 * only ever appended.  Zero is success, every other value is an error.
 */
typedef enum kt_status {
    KT_OK = 0,              /**< Success. */
    KT_EINVAL = 1,          /**< An argument is invalid (NULL, out of range, wrong combination). */
    KT_ENOMEM = 2,          /**< Memory allocation failed. */
    KT_ETOOBIG = 3,         /**< A size overflows the index type or addressable memory. */
    KT_EPARSE = 4,          /**< Text input is malformed; the position is reported separately. */
    KT_EBADTOUR = 5,        /**< The cells or edges given do not form a valid tour or tourney. */
    KT_ENOTOUR = 6,         /**< No tour of the requested kind exists on this board (a proof, not a failure to find one). */
    KT_ENOTFOUND = 7,       /**< A bounded or heuristic search ended without a result. */
    KT_ECANCELED = 8,       /**< A progress callback asked the operation to stop. */
    KT_EOVERFLOW = 9,       /**< An exact count does not fit its integer type. */
    KT_EIO = 10,            /**< Reading or writing through a callback or stream failed. */
    KT_EUNSUPPORTED = 11,   /**< The operation does not apply to this board, leaper or object. */
    KT_EMISMATCH = 12,      /**< Two objects belong to different boards. */
    KT_ERANGE = 13,         /**< An output buffer is too small; the size needed is reported. */
    KT_ETHREAD = 14,        /**< A worker thread could not be started. */
    KT_ELIMIT = 15          /**< An iteration or time budget given by the caller was exhausted. */
} kt_status;

/** @brief Number of status codes defined by this version (one past the largest). */
#define KT_STATUS_COUNT 16

/**
 * @brief A short English description of @p status ("invalid argument", ...).
 * @param status Any value; unknown values give "unknown status".
 * @return A static NUL-terminated string; never NULL.
 */
KT_EXPORT const char *kt_strerror(kt_status status);

/**
 * @brief The symbolic name of @p status ("KT_EINVAL", ...).
 * @param status Any value; unknown values give "KT_UNKNOWN".
 * @return A static NUL-terminated string; never NULL.
 */
KT_EXPORT const char *kt_status_name(kt_status status);

/**
 * @brief Whether @p status denotes an error.
 * @param status A value returned by a libknight call.
 * @return 1 if @p status is not ::KT_OK, otherwise 0.
 */
KT_EXPORT int kt_is_error(kt_status status);

/**
 * @brief Index of a board cell: `y * width + x`, x from the left, y from the top.
 *
 * Boards hold fewer than 2^32 - 1 cells, so every cell index fits.
 */
typedef uint32_t kt_cell;

/** @brief The "no cell" sentinel (no neighbour, end of an open path, not given). */
#define KT_CELL_NONE ((kt_cell)0xFFFFFFFFu)

/** @brief Number of move directions of a leaper. */
#define KT_MOVE_COUNT 8

/** @brief The "no move" sentinel returned by kt_graph_move(). */
#define KT_MOVE_NONE (-1)

/** @brief Which validation rule an input broke (reported with the cell). */
typedef enum kt_rule {
    KT_RULE_NONE = 0,          /**< No rule broken. */
    KT_RULE_NOT_A_CELL = 1,    /**< A value is not a cell of the board, or is a hole. */
    KT_RULE_NOT_A_MOVE = 2,    /**< Two consecutive cells are not a leaper move apart. */
    KT_RULE_REPEATED = 3,      /**< A cell is visited (entered) more than once. */
    KT_RULE_MISSING = 4,       /**< A cell is never visited. */
    KT_RULE_NOT_CLOSED = 5,    /**< The last cell is not a move away from the first. */
    KT_RULE_DEGREE = 6,        /**< A cell does not have the two (path end: one) neighbours required. */
    KT_RULE_NOT_A_PATH = 7,    /**< An open tour is not one single path covering every cell. */
    KT_RULE_HOLE = 8           /**< A hole is given as visited. */
} kt_rule;

/**
 * @brief A short English description of @p rule.
 * @param rule Any value.
 * @return A static string, never NULL.
 */
KT_EXPORT const char *kt_rule_describe(kt_rule rule);

/** @brief What a kt_tourney holds. */
typedef enum kt_shape {
    KT_SHAPE_CYCLES = 0,  /**< A cycle cover (a closed tour when its size is 1). */
    KT_SHAPE_PATH = 1     /**< An open tour. */
} kt_shape;

/**
 * @brief Where and why an input was rejected: the position in a text (for
 *        parsers) and the rule and cell (for validators).
 *
 * Every parser and validator takes an optional `kt_diag *` and fills it on
 * failure (fields that do not apply are 0, ::KT_RULE_NONE or
 * ::KT_CELL_NONE); on success it is cleared the same way.  A text reader
 * that rejects a tour also gives the position of the offending cell's
 * text when its format has one.  The layout is frozen: later versions add
 * functions, never fields.
 */
typedef struct kt_diag {
    uint64_t line;   /**< 1-based line of a parse error (or of a rejected cell's text), or 0. */
    uint64_t column; /**< 1-based column (byte) likewise, or 0. */
    kt_rule rule;    /**< The rule an input breaks, or ::KT_RULE_NONE. */
    kt_cell cell;    /**< The cell where it breaks it, or ::KT_CELL_NONE. */
} kt_diag;

/**
 * @brief An exact unsigned 128-bit count: value = hi * 2^64 + lo.
 *
 * Every exact count of the library (tours, half-tour joins) has this type.
 * The layout is frozen.
 */
typedef struct kt_u128 {
    uint64_t lo; /**< Low 64 bits. */
    uint64_t hi; /**< High 64 bits. */
} kt_u128;

/**
 * @brief Convert a count to uint64_t.
 * @param v        The count.
 * @param[out] out Receives the value; unchanged on failure.
 * @return ::KT_OK, ::KT_EINVAL if @p v or @p out is NULL, or ::KT_EOVERFLOW
 *         if the count needs more than 64 bits.
 */
KT_EXPORT kt_status kt_u128_to_u64(const kt_u128 *v, uint64_t *out);

/**
 * @brief Write a count in decimal (up to 39 digits and a NUL).
 * @param v    The count.
 * @param buf  Output buffer.
 * @param size Size of @p buf; 40 always suffices.
 * @return ::KT_OK, ::KT_EINVAL if @p v or @p buf is NULL, or ::KT_ERANGE if
 *         @p size is too small (the buffer then holds an empty string if
 *         size > 0).
 */
KT_EXPORT kt_status kt_u128_to_string(const kt_u128 *v, char *buf, size_t size);

/**
 * @brief Memory hooks for programs that embed the library.
 *
 * Pass one when creating a graph; every object derived from that graph
 * allocates through it.  The layout of this struct is frozen.
 * @p alloc returns memory aligned for any type (like malloc) or NULL;
 * @p free accepts NULL.
 */
typedef struct kt_allocator {
    /** Allocate @p size bytes; return NULL on failure. */
    void *(*alloc)(void *opaque, size_t size);
    /** Release memory returned by @p alloc; NULL is allowed. */
    void (*free)(void *opaque, void *ptr);
    /** Passed unchanged to both hooks. */
    void *opaque;
} kt_allocator;

/**
 * @brief Progress report for long computations.
 *
 * Called from the thread that started the work (never from workers), about
 * ten times per second, the first time within about 100 ms of the start.
 * @param user  The pointer given with the callback.
 * @param done  Work finished so far, in units of @p total.
 * @param total Total work; 0 when unknown.
 * @return 0 to continue, non-zero to stop: the call then returns ::KT_ECANCELED.
 */
typedef int (*kt_progress_fn)(void *user, uint64_t done, uint64_t total);

/**
 * @brief Sink for text output.
 * @param user The pointer given with the callback.
 * @param data Bytes to write (not NUL-terminated).
 * @param len  Number of bytes.
 * @return 0 on success, non-zero on failure (the call then returns ::KT_EIO).
 */
typedef int (*kt_write_fn)(void *user, const char *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_COMMON_H */
