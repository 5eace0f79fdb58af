/* SPDX-License-Identifier: MIT */
/**
 * @file graph.h
 * @brief The leaper graph of a rectangular board, optionally with holes.
 *
 * A kt_graph is immutable once made.  Vertices are the board's cells that
 * are not holes; edges join cells a leaper move apart.  Moves are numbered
 * 0-7 as in Parberry 2020 ("Tourneys and the Fast Generation and
 * Obfuscation of Closed Knight's Tours", arXiv:2001.06044, and its code), dx to the right and dy down;
 * for the knight:
 *
 * | move | 0  | 1  | 2  | 3  | 4  | 5  | 6  | 7  |
 * |------|----|----|----|----|----|----|----|----|
 * | dx   | +2 | +1 | -1 | -2 | -2 | -1 | +1 | +2 |
 * | dy   | -1 | -2 | -2 | -1 | +1 | +2 | +2 | +1 |
 *
 * An (a,b)-leaper replaces 2 by a and 1 by b.  Move (k+4) mod 8 reverses
 * move k.
 *
 * Every getter accepts NULL and then returns 0 (or ::KT_CELL_NONE,
 * ::KT_MOVE_NONE), so a failed constructor's NULL result is safe to query.
 *
 * Thread safety: a graph is immutable, so any number of threads may query
 * one graph at once.  Creation and kt_graph_free() follow the usual rule:
 * a graph is freed by one thread once nobody uses it.  Objects made from a
 * graph keep their own reference, so the graph may be freed before them.
 */
#ifndef KNIGHT_GRAPH_H
#define KNIGHT_GRAPH_H

#include <knight/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Opaque leaper graph of a board. */
typedef struct kt_graph kt_graph;


/**
 * @brief Make the knight's graph of a full @p width x @p height board.
 * @param[out] out    Receives the new graph; set to NULL on failure.
 * @param width       Columns, at least 1.
 * @param height      Rows, at least 1.
 * @return ::KT_OK; ::KT_EINVAL for a zero side or NULL @p out;
 *         ::KT_ETOOBIG when width * height is 2^32 - 1 or more;
 *         ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_graph_new(kt_graph **out, uint32_t width, uint32_t height);

/**
 * @brief Make the graph of an (a,b)-leaper on a board with optional holes.
 * @param[out] out Receives the new graph; set to NULL on failure.
 * @param width    Columns, at least 1.
 * @param height   Rows, at least 1.
 * @param a        Long leg of the move (2 for the knight).
 * @param b        Short leg of the move (1 for the knight); a and b must be
 *                 positive and different, so that the 8 moves are distinct.
 * @param mask     NULL for a full board, otherwise width * height bytes in
 *                 cell order, non-zero for a cell and zero for a hole.  Copied.
 * @param alloc    NULL for malloc/free, otherwise hooks used by this graph
 *                 and by every object made from it.  Copied.
 * @return ::KT_OK; ::KT_EINVAL; ::KT_ETOOBIG; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_graph_new_custom(kt_graph **out, uint32_t width, uint32_t height,
                                        uint32_t a, uint32_t b, const uint8_t *mask,
                                        const kt_allocator *alloc);

/**
 * @brief Parse a board mask from text and make the graph of an (a,b)-leaper on it.
 *
 * One line per row, one character per cell: `.` or `#` is a hole, any
 * other printable character (`o`, `x`, a letter or digit) is a cell.
 * All rows must have the same length.  A `\r` before a line break is
 * ignored; blank lines may only end the text.
 *
 * On ::KT_EPARSE, @p diag names the line and column (1-based, in bytes) of
 * the first byte that cannot be accepted: a character that is neither a
 * cell nor a hole, the first character past the width of a long row, the
 * line end of a short row, or the first non-blank byte after a blank
 * line (1:1 for a text with no row at all).
 * @param[out] out     Receives the new graph; NULL on failure.
 * @param text         The text (need not be NUL-terminated).
 * @param len          Its length in bytes.
 * @param a            Long leg of the move.
 * @param b            Short leg of the move.
 * @param alloc        Allocator hooks or NULL.
 * @param[out] diag    Optional: the position of a parse error (rule and
 *                     cell do not apply); cleared on success.
 * @return ::KT_OK; ::KT_EPARSE; ::KT_EINVAL; ::KT_ETOOBIG; ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_graph_parse_mask(kt_graph **out, const char *text, size_t len,
                                        uint32_t a, uint32_t b, const kt_allocator *alloc,
                                        kt_diag *diag);

/**
 * @brief Release a graph reference.  NULL is harmless.
 * @param g The graph.
 */
KT_EXPORT void kt_graph_free(kt_graph *g);

/** @brief Board columns. @param g The graph. @return Width; 0 for NULL. */
KT_EXPORT uint32_t kt_graph_width(const kt_graph *g);
/** @brief Board rows. @param g The graph. @return Height; 0 for NULL. */
KT_EXPORT uint32_t kt_graph_height(const kt_graph *g);
/**
 * @brief Number of board positions, width * height, holes included.
 * @param g The graph.
 * @return The size of per-cell arrays; 0 for NULL.
 */
KT_EXPORT size_t kt_graph_cell_count(const kt_graph *g);
/**
 * @brief Number of vertices: cells that are not holes.
 * @param g The graph.
 * @return Vertex count; 0 for NULL.
 */
KT_EXPORT size_t kt_graph_vertex_count(const kt_graph *g);
/**
 * @brief Number of undirected edges.
 * @param g The graph.
 * @return Edge count; 0 for NULL.
 */
KT_EXPORT uint64_t kt_graph_edge_count(const kt_graph *g);
/**
 * @brief The leaper's legs.
 * @param g      The graph.
 * @param[out] a Optional: long leg (0 for a NULL graph).
 * @param[out] b Optional: short leg (0 for a NULL graph).
 */
KT_EXPORT void kt_graph_leaper(const kt_graph *g, uint32_t *a, uint32_t *b);
/**
 * @brief Whether the board has holes.
 * @param g The graph.
 * @return 1 if made with a mask that has at least one hole, else 0 (also for NULL).
 */
KT_EXPORT int kt_graph_has_holes(const kt_graph *g);
/**
 * @brief Whether @p cell is a vertex (on the board and not a hole).
 * @param g    The graph.
 * @param cell Any value.
 * @return 1 or 0 (0 for a NULL graph).
 */
KT_EXPORT int kt_graph_is_cell(const kt_graph *g, kt_cell cell);
/**
 * @brief Cell index of column @p x, row @p y.
 * @param g The graph.
 * @param x Column.
 * @param y Row.
 * @return The index, or ::KT_CELL_NONE when off the board or @p g is NULL.
 *         Holes have an index too.
 */
KT_EXPORT kt_cell kt_graph_cell(const kt_graph *g, uint32_t x, uint32_t y);
/**
 * @brief Column and row of @p cell.
 * @param g      The graph.
 * @param cell   A cell index below kt_graph_cell_count().
 * @param[out] x Optional: column.
 * @param[out] y Optional: row.
 * @return ::KT_OK, or ::KT_EINVAL when @p g is NULL or @p cell is out of
 *         range (@p x and @p y are then unchanged).
 */
KT_EXPORT kt_status kt_graph_coords(const kt_graph *g, kt_cell cell, uint32_t *x, uint32_t *y);
/**
 * @brief Horizontal displacement of move @p move (0-7) for this graph's leaper.
 * @param g    The graph.
 * @param move Move number; anything else (or a NULL graph) gives 0.
 * @return dx.
 */
KT_EXPORT int32_t kt_graph_move_dx(const kt_graph *g, int move);
/**
 * @brief Vertical displacement of move @p move (0-7), downward positive.
 * @param g    The graph.
 * @param move Move number; anything else (or a NULL graph) gives 0.
 * @return dy.
 */
KT_EXPORT int32_t kt_graph_move_dy(const kt_graph *g, int move);
/**
 * @brief The cell reached from @p cell by move @p move.
 * @param g    The graph.
 * @param cell A vertex.
 * @param move Move number 0-7.
 * @return The neighbour, or ::KT_CELL_NONE when the move leaves the board,
 *         lands on a hole, or the arguments are invalid.
 */
KT_EXPORT kt_cell kt_graph_neighbor(const kt_graph *g, kt_cell cell, int move);
/**
 * @brief The move that takes a leaper from @p from to @p to.
 * @param g    The graph.
 * @param from A vertex.
 * @param to   A vertex.
 * @return The move number 0-7, or ::KT_MOVE_NONE if they are not adjacent
 *         (or @p g is NULL).
 */
KT_EXPORT int kt_graph_move(const kt_graph *g, kt_cell from, kt_cell to);
/**
 * @brief Number of neighbours of @p cell.
 * @param g    The graph.
 * @param cell A cell index.
 * @return The degree (0-8); 0 for holes, invalid cells and a NULL graph.
 */
KT_EXPORT unsigned kt_graph_degree(const kt_graph *g, kt_cell cell);
/**
 * @brief Bit k set when move k from @p cell stays on the board and off holes.
 * @param g    The graph.
 * @param cell A cell index.
 * @return The move mask; 0 for holes, invalid cells and a NULL graph.
 */
KT_EXPORT unsigned kt_graph_move_mask(const kt_graph *g, kt_cell cell);
/**
 * @brief Whether two graphs describe the same board and leaper.
 * @param g First graph.
 * @param h Second graph.
 * @return 1 when dimensions, leaper and holes are equal, else 0 (also when
 *         either is NULL).
 */
KT_EXPORT int kt_graph_equal(const kt_graph *g, const kt_graph *h);

/**
 * @brief Whether a full @p width x @p height board has a closed knight's tour.
 *
 * Schwenk 1991 ("Which rectangular chessboards have a knight's tour?",
 * Mathematics Magazine 64): with m <= n the sides, there is none exactly
 * when m and n are both odd;
 * or m is 1, 2 or 4 (except the 1x1 board, counted as a trivial tour);
 * or m = 3 and n is 4, 6 or 8.
 * @param width  Columns.
 * @param height Rows.
 * @return 1 if a closed tour exists, else 0 (also for a zero side).
 */
KT_EXPORT int kt_graph_board_has_closed_tour(uint32_t width, uint32_t height);

/**
 * @brief Whether a full @p width x @p height board has an open knight's tour
 *        (a Hamiltonian path).
 *
 * Conrad et al. 1994 ("Solution of the knight's Hamiltonian path problem
 * on chessboards", Discrete Applied Mathematics 50): with m <= n, exactly
 * the 1x1 board; m = 3 and n = 4 or n >= 7; m = 4 and n >= 5;
 * every m >= 5.
 * @param width  Columns.
 * @param height Rows.
 * @return 1 or 0.
 */
KT_EXPORT int kt_graph_board_has_open_tour(uint32_t width, uint32_t height);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_GRAPH_H */
