/* SPDX-License-Identifier: MIT */
/**
 * @file io.h
 * @brief Text formats and SVG pictures of tours and tourneys.
 *
 * Formats:
 *  - ::KT_IO_NUMBERS: one board row per line, the visit number (1..N)
 *    of each cell, separated by spaces (the writer right-aligns them), `.`
 *    for a hole.  Describes a
 *    tour: closed when N and 1 are a move apart (unless the reader is told
 *    ::KT_IO_READ_OPEN), open otherwise.
 *  - ::KT_IO_MOVES: Parberry's move digits: one character per cell, the
 *    move (0-7) to the cell's successor in the canonical orientation;
 *    `-` for the last cell of an open tour, `.` for a hole.  Describes any
 *    tourney.
 *  - ::KT_IO_SVG: a picture; each cycle is a polyline in its own
 *    colour.  The reader accepts the SVG this library writes.
 *
 * Readers are strict: any malformed input gives ::KT_EPARSE with a 1-based
 * line and column, or ::KT_EBADTOUR with the rule and cell, and never a
 * partial object.
 *
 * Thread safety: these functions only read their tourney argument; one
 * tourney may be written from several threads at once.
 */
#ifndef KNIGHT_IO_H
#define KNIGHT_IO_H

#include <knight/common.h>
#include <knight/graph.h>
#include <knight/tourney.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Text formats. */
typedef enum kt_io_format {
    KT_IO_AUTO = 0,     /**< Reading only: guess from the content. */
    KT_IO_NUMBERS = 1,  /**< Visit numbers, a board row per line. */
    KT_IO_MOVES = 2,    /**< Parberry's move digits. */
    KT_IO_SVG = 3       /**< Scalable Vector Graphics. */
} kt_io_format;

/** @brief Writer flag: numbers/SVG: start the numbering at the given start cell (else at the canonical start). */
#define KT_IO_WRITE_DEFAULT 0u
/** @brief Writer flag (SVG): draw the visit number in each cell (tours only). */
#define KT_IO_WRITE_SVG_NUMBERS 1u
/** @brief Writer flag (SVG): omit the chequered board (smaller files). */
#define KT_IO_WRITE_SVG_NO_BOARD 2u
/** @brief Writer flag (numbers, SVG numbers): walk the tour in the other direction. */
#define KT_IO_WRITE_REVERSE 4u

/** @brief Reader flag: a numbers file describes an open tour even if N and 1 are a move apart. */
#define KT_IO_READ_OPEN 1u

/**
 * @brief Write @p t in @p format through @p fn.
 *
 * Numbers: cell @p start gets 1 (::KT_CELL_NONE: the canonical start, the
 * smallest cell of a closed tour or the smaller end of an open one).  The
 * numbers format needs a tour (size 1).
 * @param t      The tourney.
 * @param format ::KT_IO_NUMBERS, ::KT_IO_MOVES or ::KT_IO_SVG.
 * @param flags  KT_IO_WRITE_* flags.
 * @param start  First cell for the numbering, or ::KT_CELL_NONE.
 * @param fn     The sink.
 * @param user   Passed to @p fn.
 * @return ::KT_OK; ::KT_EIO when @p fn fails; ::KT_EUNSUPPORTED for numbers
 *         of a tourney of size > 1; ::KT_EINVAL; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_io_write(const kt_tourney *t, kt_io_format format, unsigned flags,
                                     kt_cell start, kt_write_fn fn, void *user);

/**
 * @brief Write @p t into a caller's buffer (snprintf style).
 *
 * The text is NUL-terminated when it fits.
 * @param t        The tourney.
 * @param format   The format.
 * @param flags    KT_IO_WRITE_* flags.
 * @param start    As for kt_io_write().
 * @param buf      The buffer (may be NULL when @p cap is 0).
 * @param cap      Its size.
 * @param[out] len Receives the text length, without the NUL.
 * @return ::KT_OK; ::KT_ERANGE when @p cap <= length (buffer content
 *         unspecified); other errors as kt_io_write().
 */
KT_EXPORT kt_status kt_io_write_buffer(const kt_tourney *t, kt_io_format format, unsigned flags,
                                            kt_cell start, char *buf, size_t cap, size_t *len);

/**
 * @brief Parse a tour or tourney.
 *
 * The board size is read from the text (and holes from `.` cells).  When
 * @p g is given the text must match its dimensions and holes, and the
 * result uses @p g (so a leaper other than the knight can be read);
 * otherwise a knight's graph is made with @p alloc.
 * @param[out] out     Receives the tourney; NULL on failure.
 * @param g            Optional board.
 * @param text         The text (need not be NUL-terminated).
 * @param len          Its length.
 * @param format       A format, or ::KT_IO_AUTO.
 * @param flags        KT_READ_* flags.
 * @param alloc        Allocator when @p g is NULL (NULL: malloc).
 * @param[out] line    Optional: 1-based line of a parse error, or of the
 *                     offending cell on ::KT_EBADTOUR (numbers and moves
 *                     formats); 0 when there is no position.
 * @param[out] column  Optional: 1-based column, likewise.
 * @param[out] rule    Optional: the rule broken on ::KT_EBADTOUR.
 * @param[out] cell    Optional: the cell where it broke.
 * @return ::KT_OK; ::KT_EPARSE; ::KT_EBADTOUR; ::KT_EMISMATCH (text and
 *         @p g disagree on size or holes); ::KT_ETOOBIG; ::KT_ENOMEM; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_io_parse(kt_tourney **out, const kt_graph *g, const char *text,
                                     size_t len, kt_io_format format, unsigned flags,
                                     const kt_allocator *alloc, size_t *line, size_t *column,
                                     kt_rule *rule, kt_cell *cell);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_IO_H */
