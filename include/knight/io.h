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
 *  - ::KT_IO_MOVES: the move digits of Parberry 2020 ("Tourneys and
 *    the Fast Generation and Obfuscation of Closed Knight's Tours",
 *    arXiv:2001.06044, and its code): one character per cell, the move (0-7, numbered as
 *    in graph.h) to the cell's successor in the canonical orientation;
 *    `-` for a cell with no successor (the last cell of an open tour, the
 *    single cell of the 1x1 board), `.` for a hole.  Describes any
 *    tourney.
 *  - ::KT_IO_SVG: a picture; each cycle is a polyline in its own
 *    colour.  The reader accepts the SVG this library writes.
 *
 * Readers are strict: any malformed input gives ::KT_EPARSE with a 1-based
 * line and column, or ::KT_EBADTOUR with the rule and cell, and never a
 * partial object.  Both are reported in a ::kt_diag.
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
    KT_IO_MOVES = 2,    /**< Move digits (Parberry 2020). */
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
 * The board size is read from the text (and holes from `.` cells; the
 * leaper too from SVG).  When @p g is given the text must match its
 * dimensions, holes (and leaper), and the result uses @p g (so a numbers
 * or moves text of a leaper other than the knight can be read); otherwise
 * a graph is made for the text with @p alloc, and the tourney lives on it.
 *
 * ::KT_IO_AUTO tells SVG by its leading `<`; a text whose first line has
 * blanks between tokens or a digit 8 or 9 is numbers; a one-character
 * first line is numbers unless the text has a `-` (so the 1x1 tour, `1`
 * in numbers and `-` in moves, reads back in both); anything else is
 * moves.
 * @param[out] out     Receives the tourney; NULL on failure.
 * @param g            Optional board.
 * @param text         The text (need not be NUL-terminated).
 * @param len          Its length.
 * @param format       A format, or ::KT_IO_AUTO.
 * @param flags        KT_IO_READ_* flags.
 * @param alloc        The allocator of the graph made when @p g is NULL
 *                     (NULL: malloc); ignored when @p g is given, whose
 *                     allocator is used.
 * @param[out] diag    Optional.  On ::KT_EPARSE: the 1-based line and
 *                     column (in bytes) of the first byte that cannot be
 *                     accepted.  On ::KT_EBADTOUR: the rule broken and the
 *                     cell, and in the numbers and moves formats the line
 *                     and column of that cell's text (0 for SVG).  Cleared
 *                     on success and on other errors.
 * @return ::KT_OK; ::KT_EPARSE; ::KT_EBADTOUR; ::KT_EMISMATCH (text and
 *         @p g disagree on size, holes or leaper); ::KT_ETOOBIG;
 *         ::KT_ENOMEM; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_io_parse(kt_tourney **out, const kt_graph *g, const char *text,
                                size_t len, kt_io_format format, unsigned flags,
                                const kt_allocator *alloc, kt_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_IO_H */
