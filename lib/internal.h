/* SPDX-License-Identifier: MIT */
/*
 * The private header of lib/'s top folder: the layout of the core objects
 * (graph, tourney) and the graph-level helpers every module shares (the
 * move between two cells, colour balance, the tourney walker, the text
 * writer).  Never installed.  Every non-static function here is named
 * kti_* and has hidden visibility, so it is neither exported from the
 * shared library nor left global in the static archive.  It includes only
 * the public headers of the core (common, options, graph, tourney); a
 * module includes the public headers it uses itself, so what depends on
 * what is visible in each file (lib/README.md).
 */
#ifndef KNIGHT_INTERNAL_H
#define KNIGHT_INTERNAL_H

#include <knight/common.h>
#include <knight/graph.h>
#include <knight/options.h>
#include <knight/tourney.h>

#include "util/util.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

/* Largest board: cell indices must stay below KT_CELL_NONE. */
#define KTI_MAX_CELLS ((uint64_t)KT_CELL_NONE - 1u)

/* A nibble value meaning "no neighbour"; a byte of two such is a hole or an isolated cell. */
#define KTI_NOMOVE 0xFu
#define KTI_PAIR_EMPTY 0xFFu

struct kt_graph {
    atomic_uint refs;
    uint32_t width, height;
    uint32_t a, b;            /* leaper legs */
    size_t ncells;            /* width * height */
    size_t nverts;            /* cells that are not holes */
    uint64_t nedges;
    int32_t dx[8], dy[8];
    int64_t off[8];           /* dy * width + dx */
    uint8_t *mask;            /* NULL: no holes; else 1 = cell, 0 = hole */
    kt_allocator alloc;
};

struct kt_tourney {
    kt_graph *g;              /* holds a reference */
    uint8_t *mv;              /* per cell: low nibble <= high nibble; 0xF = none */
    kt_shape shape;
    size_t size;              /* cycles (1 for a path); always exact at API boundaries */
};

/* ---- diagnostics: every parser and validator reports through a kt_diag ---- */
/* The "nothing to report" state: what a successful call leaves. */
static inline void kti_diag_clear(kt_diag *d)
{
    if (d == NULL) return;
    d->line = 0;
    d->column = 0;
    d->rule = KT_RULE_NONE;
    d->cell = KT_CELL_NONE;
}
/* A validation failure: the rule broken and where. */
static inline kt_status kti_diag_bad(kt_diag *d, kt_rule rule, size_t cell)
{
    if (d != NULL) {
        d->rule = rule;
        d->cell = (kt_cell)cell;
    }
    return KT_EBADTOUR;
}
/* The 1-based line and column (in bytes) of offset at of s: readers keep
 * offsets while scanning and convert once, so no scanner has to track
 * line breaks itself (and none can get them wrong). */
static inline void kti_diag_at(kt_diag *d, const char *s, size_t at)
{
    uint64_t line = 1, col = 1;
    for (size_t i = 0; i < at; i++) {
        if (s[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    if (d != NULL) {
        d->line = line;
        d->column = col;
    }
}

/* ---- graph helpers (graph.c) ---- */
KTI_HIDDEN kt_graph *kti_graph_ref(const kt_graph *g);
static inline bool kti_is_vertex(const kt_graph *g, size_t c)
{
    return c < g->ncells && (g->mask == NULL || g->mask[c]);
}
/* Neighbour by move or KT_CELL_NONE, with no argument checks beyond the board. */
static inline kt_cell kti_step(const kt_graph *g, kt_cell c, int m)
{
    KTI_ASSERT(m >= 0 && m < KT_MOVE_COUNT);
    int64_t x = (int64_t)(c % g->width) + g->dx[m];
    int64_t y = (int64_t)(c / g->width) + g->dy[m];
    if (x < 0 || y < 0 || x >= (int64_t)g->width || y >= (int64_t)g->height) return KT_CELL_NONE;
    kt_cell d = (kt_cell)(y * (int64_t)g->width + x);
    if (g->mask != NULL && !g->mask[d]) return KT_CELL_NONE;
    return d;
}

/* The move from vertex c to cell d, or KT_MOVE_NONE; one division, for hot
 * loops (d must be a vertex for the answer to be a graph edge). */
static inline int kti_move_between(const kt_graph *g, kt_cell c, kt_cell d)
{
    int64_t diff = (int64_t)d - (int64_t)c;
    int64_t x = (int64_t)(c % g->width);
    for (int m = 0; m < 8; m++) {
        if (g->off[m] != diff) continue;
        int64_t nx = x + g->dx[m];
        if (nx >= 0 && nx < (int64_t)g->width && d < g->ncells) return m;
    }
    return KT_MOVE_NONE;
}

/* The knight move number (as in Parberry's numbering, graph.c) of the
 * displacement (dx, dy), or -1: for coordinates without a graph. */
static inline int kti_knight_move(int dx, int dy)
{
    static const int8_t tab[5][5] = {
        /* dy=-2 */ {-1, 2, -1, 1, -1},
        /* dy=-1 */ {3, -1, -1, -1, 0},
        /* dy= 0 */ {-1, -1, -1, -1, -1},
        /* dy=+1 */ {4, -1, -1, -1, 7},
        /* dy=+2 */ {-1, 5, -1, 6, -1},
    };
    if (dx < -2 || dx > 2 || dy < -2 || dy > 2) return -1;
    return tab[dy + 2][dx + 2];
}

/* The colour of a cell (0 for the corner colour (0,0)); a knight-like
 * leaper (a + b odd) alternates colours, which decides many existence
 * questions (open-tour ends, bipartite cycle covers). */
static inline unsigned kti_colour(const kt_graph *g, kt_cell c)
{
    return (unsigned)((c % g->width + c / g->width) & 1u);
}
/* Vertices of each colour: counts[0] on the corner colour, counts[1] on the other. */
KTI_HIDDEN void kti_colour_counts(const kt_graph *g, size_t counts[2]);
/* Whether the colouring alone rules out every tour: closed, or open with
 * ends a, b (KT_CELL_NONE: free); false for leapers that keep a colour. */
KTI_HIDDEN bool kti_colour_excludes(const kt_graph *g, bool open, kt_cell a, kt_cell b);

/* ---- exact search (exhaustive.c) ---- */
/* kt_exhaustive_tour for the modules that search on their way: the budget
 * (search nodes, 0 = unlimited) and the caller's progress throttle (NULL
 * for none) given directly, no final report; *nodes (optional) receives
 * the nodes searched. */
KTI_HIDDEN kt_status kti_exhaustive_tour(kt_tourney **out, const kt_graph *g, kt_shape shape,
                                         kt_cell start, kt_cell end, uint64_t budget,
                                         kti_progress *pr, uint64_t *nodes);

/* ---- tourney helpers (tourney.c) ---- */
/* Allocate an empty tourney (all cells KTI_PAIR_EMPTY) on g. */
KTI_HIDDEN kt_status kti_tourney_alloc(kt_tourney **out, const kt_graph *g);
/* Check symmetry, degrees and connectivity of t->mv, set shape and size;
 * on KT_EBADTOUR the rule and cell go to diag (may be NULL). */
KTI_HIDDEN kt_status kti_tourney_finish(kt_tourney *t, kt_diag *diag);
/* Debug builds: whether t's pairs are well formed (moves 0-7 or none, in
 * order, symmetric, holes empty) and its size is its component count.
 * O(cells); for KTI_ASSERT only. */
KTI_HIDDEN bool kti_tourney_consistent(const kt_tourney *t);
/* Recount components (cycles, or 1 for a path) in O(cells) and store the
 * size.  A module that edits mv must leave size exact before it returns,
 * by bookkeeping or by calling this. */
KTI_HIDDEN kt_status kti_tourney_recount(kt_tourney *t);
/* Walk every component once in the canonical orientation (cycles from
 * their smallest cell towards its first neighbour, the path from its
 * smaller end): edge() per move, end() per component. */
typedef struct kti_walker {
    void (*edge)(void *ctx, kt_cell from, int move);
    void (*end)(void *ctx, bool cycle);
    void *ctx;
} kti_walker;
KTI_HIDDEN kt_status kti_tourney_walk(const kt_tourney *t, const kti_walker *w);
/* Add the undirected edge c --m--> d to the move pairs; false if c or d is full. */
static inline bool kti_pair_add(uint8_t *mv, kt_cell c, int m)
{
    KTI_ASSERT(m >= 0 && m < KT_MOVE_COUNT);
    uint8_t p = mv[c];
    uint8_t lo = p & 0xF, hi = p >> 4;
    if (lo == KTI_NOMOVE) { mv[c] = (uint8_t)(0xF0u | (unsigned)m); return true; }
    if (hi != KTI_NOMOVE) return false;
    if ((unsigned)m < lo) mv[c] = (uint8_t)((lo << 4) | (unsigned)m);
    else mv[c] = (uint8_t)(((unsigned)m << 4) | lo);
    return true;
}
/* ---- the board's symmetries (tourney.c) ----
 * A symmetry is a number 0-7: bit 0 mirrors x, bit 1 mirrors y, bit 2 then
 * swaps x and y (square boards only); 0 is the identity.  A leaper's moves
 * are the same set under each, so a symmetry maps tours onto tours of the
 * board when it maps its holes onto holes (kti_sym_keeps). */
static inline kt_cell kti_sym_cell(const kt_graph *g, unsigned sym, kt_cell c)
{
    size_t W = g->width, H = g->height, x = c % W, y = c / W;
    if (sym & 1) x = W - 1 - x;
    if (sym & 2) y = H - 1 - y;
    return (kt_cell)((sym & 4) ? x * W + y : y * W + x);
}
/* Whether symmetry sym applies to g: a square board for bit 2, and every
 * vertex mapped onto a vertex. */
KTI_HIDDEN bool kti_sym_keeps(const kt_graph *g, unsigned sym);
/* Map the tour or cover on t by symmetry sym (kti_sym_keeps must hold);
 * tmp: ncells bytes of scratch. */
KTI_HIDDEN void kti_tourney_map_sym(kt_tourney *t, unsigned sym, uint8_t *tmp);

/* The key of a frontier of the dynamic programmes (half-tours, the join's
 * narrow step): 4 bits per cell, 0 and 1 as they are, path-end labels (2
 * and up, the two ends of a path alike) renumbered 2, 3, ... in order of
 * first appearance, so that equal frontiers get equal keys; n <= 16. */
static inline uint64_t kti_pack_codes(const uint8_t *code, unsigned n)
{
    uint8_t map[256] = {0};
    unsigned next = 2;
    uint64_t key = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned v = code[i];
        if (v >= 2) {
            if (map[v] == 0) map[v] = (uint8_t)next++;
            v = map[v];
        }
        key |= (uint64_t)v << (4 * i);
    }
    return key;
}
/* The neighbour of c other than prev along t (KT_CELL_NONE at a path end). */
static inline kt_cell kti_next(const kt_tourney *t, kt_cell c, kt_cell prev)
{
    uint8_t p = t->mv[c];
    unsigned lo = p & 0xF, hi = p >> 4;
    KTI_ASSERT((lo < KT_MOVE_COUNT || lo == KTI_NOMOVE) && (hi < KT_MOVE_COUNT || hi == KTI_NOMOVE));
    kt_cell a = lo == KTI_NOMOVE ? KT_CELL_NONE : (kt_cell)((int64_t)c + t->g->off[lo]);
    if (a != prev) return a;
    return hi == KTI_NOMOVE ? KT_CELL_NONE : (kt_cell)((int64_t)c + t->g->off[hi]);
}

/* ---- writer helpers (io.c) ---- */
/* A growable text buffer that flushes to a kt_write_fn. */
typedef struct kti_out {
    kt_write_fn fn;
    void *user;
    char buf[8192];
    size_t len;
    bool failed;
} kti_out;
KTI_HIDDEN void kti_out_bytes(kti_out *o, const char *s, size_t n);
KTI_HIDDEN void kti_out_str(kti_out *o, const char *s);
KTI_HIDDEN void kti_out_u64(kti_out *o, uint64_t v);
KTI_HIDDEN kt_status kti_out_flush(kti_out *o);

#endif /* KNIGHT_INTERNAL_H */
