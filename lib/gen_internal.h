/* SPDX-License-Identifier: MIT */
/* Internal interfaces between the generation modules (lib/gen_*.c). */
#ifndef KNIGHT_GEN_INTERNAL_H
#define KNIGHT_GEN_INTERNAL_H

#include "internal.h"

/* Whether g is a full knight's board (no holes, (2,1)-leaper). */
static inline bool kti_gen_plain(const kt_graph *g)
{
    return g->mask == NULL && g->a == 2 && g->b == 1;
}

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
