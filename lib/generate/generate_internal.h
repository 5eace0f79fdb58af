/* SPDX-License-Identifier: MIT */
/* Internal interfaces between the generation modules (lib/generate/). */
#ifndef KNIGHT_GENERATE_INTERNAL_H
#define KNIGHT_GENERATE_INTERNAL_H

#include "internal.h"
#include <knight/generate.h>
#include "util/util.h"

/* Whether g is a full knight's board (no holes, (2,1)-leaper). */
static inline bool kti_gen_plain(const kt_graph *g)
{
    return g->mask == NULL && g->a == 2 && g->b == 1;
}

/* ---- progress: every generator takes the caller's throttle (NULL for
 * none) and ticks it in its main loops ---- */

/* Whether the caller asks to stop.  Costs a test when no callback is set;
 * otherwise reads the clock, so callers tick every few thousand units of
 * work.  The callback runs about ten times a second, also when the
 * total is unknown (0), which kti_progress_tick alone would not ensure. */
static inline bool kti_gen_tick(kti_progress *p, uint64_t done, uint64_t total)
{
    if (p == NULL || p->fn == NULL) return false;
    if (kti_now() - p->last < KTI_PROGRESS_PERIOD) return false;
    return kti_progress_tick(p, done, total);
}

/* An array of count elements, not zeroed (NULL when the size overflows or
 * the allocation fails): large boards' arrays that are written before they
 * are read, so that no setup phase spends long before its first tick. */
static inline void *kti_gen_alloc(const kt_allocator *al, size_t count, size_t size)
{
    size_t bytes;
    return kti_mul_ok(count, size, &bytes) ? kti_alloc(al, bytes) : NULL;
}

/* Zero bytes at p a mebibyte at a time, ticking in between (unknown
 * total); true when the callback asked to stop. */
static inline bool kti_gen_zero(void *p, size_t bytes, kti_progress *pr, uint64_t done, uint64_t total)
{
    unsigned char *q = p;
    for (size_t i = 0; i < bytes; i += (size_t)1 << 20) {
        if (kti_gen_tick(pr, done, total)) return true;
        size_t k = bytes - i < ((size_t)1 << 20) ? bytes - i : (size_t)1 << 20;
        memset(q + i, 0, k);
    }
    return false;
}

/* Posa rotations on the Hamiltonian path ord[0..n-1] (pos = its inverse):
 * move the last end until it is a move from `target` (exact: equals it).
 * The first cell stays fixed.  At most about `work` cells are reversed.
 * Returns KT_OK on success, KT_ENOTFOUND when the work ran out, or
 * KT_ECANCELED (ord and pos are updated either way). */
KTI_HIDDEN kt_status kti_rotate_end(const kt_graph *g, kt_cell *ord, uint32_t *pos, size_t n,
                                    kt_cell target, bool exact, uint64_t work, kti_rng *rng,
                                    kti_progress *pr);

/* The generators behind the public calls (generate.c checks the arguments
 * and the settings, then calls these with the budget resolved). */

/* Warnsdorff's rule (warnsdorff.c): `attempts` walks (>= 1); KT_ELIMIT
 * when every one failed.  g is a full board with a tour of this shape. */
KTI_HIDDEN kt_status kti_warnsdorff_tour(kt_tourney **out, const kt_graph *g, kt_shape shape,
                                         kt_cell start, kt_generate_tiebreak tie, uint64_t seed,
                                         uint64_t attempts, kti_progress *pr);
/* Parberry's tourney variant of Warnsdorff (warnsdorff.c); restarts >= 1. */
KTI_HIDDEN kt_status kti_warnsdorff_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed,
                                            uint64_t restarts, kti_progress *pr);
/* The Takefuji-Lee network (neural.c); sweeps >= 1. */
KTI_HIDDEN kt_status kti_neural_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed,
                                        uint64_t sweeps, kti_progress *pr);
/* Open tours (open.c); g is a full board, start and end not yet checked. */
KTI_HIDDEN kt_status kti_open_tour(kt_tourney **out, const kt_graph *g, kt_cell start,
                                   kt_cell end, uint64_t seed, kti_progress *pr);
/* Structured tourneys (blocks.c for blocks and divide, tourneys.c). */
KTI_HIDDEN kt_status kti_blocks_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed,
                                        bool divide, kti_progress *pr);
KTI_HIDDEN kt_status kti_braid_tourney(kt_tourney **out, const kt_graph *g, kti_progress *pr);
KTI_HIDDEN kt_status kti_four_cover_tourney(kt_tourney **out, const kt_graph *g, kti_progress *pr);

/*
 * Precomputed block tours (lib/generate/blocks_data.c, written by
 * tools/gen_blocks.c) and the linear tilers built on them (lib/generate/blocks.c).
 * Internal; see tools/gen_blocks.c for the exact meaning of each kind.
 */

enum {
    KTI_BLK_CYCLE = 0, /* w,h in 5..10: closed tour with rail edges L, R, U, D */
    KTI_BLK_CYC3 = 1,  /* 3 x k closed tour */
    KTI_BLK_PATH3 = 2, /* 3 x k path ending at (k-1,1), other end (k-1,2) or (k-2,1) */
    KTI_BLK_ODD = 3,   /* odd x odd path from cell param to column 0 */
    KTI_BLK_OPEN = 4,  /* a small board's open tour */
    KTI_BLK_KINDS = 5
};

typedef struct kti_block {
    uint8_t kind, w, h;
    int16_t param;
    const uint8_t *mv; /* w*h move-pair bytes, row-major, local coordinates */
} kti_block;

KTI_HIDDEN extern const kti_block kti_blocks[];
KTI_HIDDEN extern const size_t kti_block_count;

/* Fill t->mv (t allocated on a full knight board of w x h, bytes not yet
 * written) with a closed tour when kt_graph_board_has_closed_tour(w, h);
 * sets shape and size.  divide: the partition is Parberry-style recursive
 * halving and, with seed 0, every block takes its first (canonical) tour.
 * Linear time, no allocation beyond O(w + h).  KT_OK or KT_ECANCELED. */
KTI_HIDDEN kt_status kti_blocks_closed(kt_tourney *t, uint64_t seed, bool divide,
                                       kti_progress *pr);

/* Vary the closed tour on t (from kti_blocks_closed) on boards of up to
 * 4096 cells: a seeded symmetry of the board, then seeded moves that keep
 * one cycle (2-opt moves, and switches that split the tour followed by
 * switches that merge it again; boards over 256 cells take only 8 2-opt
 * moves).  Larger boards are left as they are.  At most about 2^17 cells
 * of work in all.  KT_OK or KT_ENOMEM (t is
 * unchanged then). */
KTI_HIDDEN kt_status kti_blocks_shuffle(kt_tourney *t, uint64_t seed);

/* Fill t->mv with an open tour for the boards that have an open tour but no
 * closed one and that the tilings cover (odd x odd >= 5, 3 x n).  start,
 * when not KT_CELL_NONE, is made an end when the construction allows it:
 * on odd x odd boards when start, or its mirror image in one of the
 * board's axes, lies in the corner block that holds the path's end, and on
 * any board when start is the mirror image of an end.  Returns
 * KT_ENOTFOUND when this board is not covered. */
KTI_HIDDEN kt_status kti_blocks_open(kt_tourney *t, kt_cell start, uint64_t seed,
                                     kti_progress *pr);

/* Replace move `from` by move `to` in the pair byte of cell c (either may
 * be KTI_NOMOVE); `from` must be in the pair. */
static inline void kti_pair_replace(uint8_t *mv, size_t c, unsigned from, unsigned to)
{
    unsigned p = mv[c], lo = p & 0xF, hi = p >> 4;
    KTI_ASSERT((from < 8 || from == KTI_NOMOVE) && (to < 8 || to == KTI_NOMOVE));
    KTI_ASSERT(lo == from || hi == from);
    if (lo == from) lo = to;
    else hi = to;
    mv[c] = (uint8_t)(lo < hi ? (hi << 4 | lo) : (lo << 4 | hi));
}

#endif /* KNIGHT_GENERATE_INTERNAL_H */
