/* SPDX-License-Identifier: MIT */
/* Public entry points of the generation module (include/knight/generate.h). */
#include "generate_internal.h"

#include <string.h>

/* A tourney whose bytes the caller will overwrite entirely: no memset, and
 * on Linux the large array is advised into transparent huge pages, since
 * first-touch page faults dominate the cost of a linear construction. */
static kt_status alloc_for_overwrite(kt_tourney **out, const kt_graph *g)
{
    kt_tourney *t = kti_alloc(&g->alloc, sizeof *t);
    if (t == NULL) return KT_ENOMEM;
    t->mv = kti_alloc(&g->alloc, g->ncells);
    if (t->mv == NULL) {
        kti_free(&g->alloc, t);
        return KT_ENOMEM;
    }
    kti_advise_huge(t->mv, g->ncells);
    t->g = kti_graph_ref(g);
    t->shape = KT_SHAPE_CYCLES;
    t->size = 0;
    *out = t;
    return KT_OK;
}

static const char *const method_names[KT_GENERATE_METHOD_COUNT] = {
    "blocks", "warnsdorff", "neural", "divide", "braid", "four-cover",
};
static const char *const tie_names[KT_GENERATE_TIE_COUNT] = {"first", "random", "pohl", "roth"};

const char *kt_generate_method_name(kt_generate_method method)
{
    unsigned m = (unsigned)method;
    return m < KT_GENERATE_METHOD_COUNT ? method_names[m] : "unknown";
}

kt_status kt_generate_method_parse(const char *name, kt_generate_method *method)
{
    if (name == NULL || method == NULL) return KT_EINVAL;
    for (unsigned m = 0; m < KT_GENERATE_METHOD_COUNT; m++)
        if (strcmp(name, method_names[m]) == 0) {
            *method = (kt_generate_method)m;
            return KT_OK;
        }
    return KT_EINVAL;
}

const char *kt_generate_tiebreak_name(kt_generate_tiebreak tie)
{
    unsigned t = (unsigned)tie;
    return t < KT_GENERATE_TIE_COUNT ? tie_names[t] : "unknown";
}

static kt_status closed_common(kt_tourney **out, const kt_graph *g, uint64_t seed, bool divide);

kt_status kt_generate_closed_tour(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    return closed_common(out, g, seed, false);
}

kt_status kt_generate_divide_tour(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    return closed_common(out, g, seed, true);
}

static kt_status closed_common(kt_tourney **out, const kt_graph *g, uint64_t seed, bool divide)
{
    if (out) *out = NULL;
    if (out == NULL || g == NULL) return KT_EINVAL;
    if (!kti_gen_plain(g)) return KT_EUNSUPPORTED;
    if (!kt_graph_board_has_closed_tour(g->width, g->height)) return KT_ENOTOUR;
    kt_tourney *t = NULL;
    kt_status st = alloc_for_overwrite(&t, g);
    if (st != KT_OK) return st;
    st = kti_blocks_closed_ex(t, seed, divide); /* writes every cell */
    if (st != KT_OK) {
        kt_tourney_free(t);
        return st;
    }
    *out = t;
    return KT_OK;
}

kt_status kt_generate_tourney(kt_tourney **out, const kt_graph *g, kt_generate_method method,
                              uint64_t seed, uint64_t budget)
{
    if (out) *out = NULL;
    if (out == NULL || g == NULL) return KT_EINVAL;
    if (!kti_gen_plain(g)) return KT_EUNSUPPORTED;
    switch (method) {
    case KT_GENERATE_BLOCKS:
        return kti_blocks_tourney(out, g, seed, false);
    case KT_GENERATE_DIVIDE:
        return kti_blocks_tourney(out, g, seed, true);
    case KT_GENERATE_WARNSDORFF:
        return kti_warnsdorff_tourney(out, g, seed, budget);
    case KT_GENERATE_NEURAL:
        return kti_neural_tourney(out, g, seed, budget);
    case KT_GENERATE_BRAID:
        return kti_braid_tourney(out, g);
    case KT_GENERATE_FOUR_COVER:
        return kti_four_cover_tourney(out, g, seed);
    default:
        return KT_EINVAL;
    }
}
