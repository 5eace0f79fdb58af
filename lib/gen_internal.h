/* SPDX-License-Identifier: MIT */
/* Internal interfaces between the generation modules (lib/gen_*.c). */
#ifndef KNIGHT_GEN_INTERNAL_H
#define KNIGHT_GEN_INTERNAL_H

#include "internal.h"
#include "rng.h"

/* Whether g is a full knight's board (no holes, (2,1)-leaper). */
static inline bool kti_gen_plain(const kt_graph *g)
{
    return g->mask == NULL && g->a == 2 && g->b == 1;
}

/* Move number from a to b (knight-adjacent cells of g). */
static inline int kti_knight_move_of(const kt_graph *g, kt_cell a, kt_cell b)
{
    static const int8_t tab[5][5] = {
        {-1, 2, -1, 1, -1}, {3, -1, -1, -1, 0}, {-1, -1, -1, -1, -1}, {4, -1, -1, -1, 7}, {-1, 5, -1, 6, -1},
    };
    int64_t dx = (int64_t)(b % g->width) - (int64_t)(a % g->width);
    int64_t dy = (int64_t)(b / g->width) - (int64_t)(a / g->width);
    if (dx < -2 || dx > 2 || dy < -2 || dy > 2) return -1;
    return tab[dy + 2][dx + 2];
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

#endif /* KNIGHT_GEN_INTERNAL_H */
