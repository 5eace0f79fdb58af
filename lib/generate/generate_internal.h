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


/* Posa rotations on the Hamiltonian path ord[0..n-1] (pos = its inverse):
 * move the last end until it is a move from `target` (exact: equals it).
 * The first cell stays fixed.  At most about `work` cells are reversed.
 * Returns true on success (ord and pos updated either way). */
KTI_HIDDEN bool kti_rotate_end(const kt_graph *g, kt_cell *ord, uint32_t *pos, size_t n,
                               kt_cell target, bool exact, uint64_t work, kti_rng *rng);

/* Warnsdorff (gen_warnsdorff.c). */
KTI_HIDDEN kt_status kti_warnsdorff_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed,
                                            uint64_t budget);
/* Neural network (gen_neural.c). */
KTI_HIDDEN kt_status kti_neural_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed,
                                        uint64_t budget);
/* Structured tourneys (gen_tourneys.c). */
KTI_HIDDEN kt_status kti_blocks_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed,
                                        bool divide);
KTI_HIDDEN kt_status kti_braid_tourney(kt_tourney **out, const kt_graph *g);
KTI_HIDDEN kt_status kti_four_cover_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed);

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

/* Fill t->mv (t already allocated on a full knight board of w x h) with a
 * closed tour when kt_graph_board_has_closed_tour(w, h); sets shape and size.
 * Linear time, no allocation beyond O(w + h). */
KTI_HIDDEN kt_status kti_blocks_closed(kt_tourney *t, uint64_t seed);
/* The same; divide: the partition is Parberry-style recursive halving and,
 * with seed 0, every block takes its first (canonical) tour. */
KTI_HIDDEN kt_status kti_blocks_closed_ex(kt_tourney *t, uint64_t seed, bool divide);

/* Fill t->mv with an open tour for the boards that have an open tour but no
 * closed one and that the tilings cover (odd x odd >= 5, 3 x n); start, when
 * not KT_CELL_NONE, is made an end if the construction allows it.  Returns
 * KT_ENOTFOUND when this board or start is not covered. */
KTI_HIDDEN kt_status kti_blocks_open(kt_tourney *t, kt_cell start, uint64_t seed);

/* Replace move `from` by move `to` in the pair byte of cell c. */
static inline void kti_pair_replace(uint8_t *mv, size_t c, unsigned from, unsigned to)
{
    unsigned p = mv[c], lo = p & 0xF, hi = p >> 4;
    if (lo == from) lo = to;
    else hi = to;
    mv[c] = (uint8_t)(lo < hi ? (hi << 4 | lo) : (lo << 4 | hi));
}


#endif /* KNIGHT_GENERATE_INTERNAL_H */
