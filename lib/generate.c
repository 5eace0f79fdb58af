/* SPDX-License-Identifier: MIT */
/* Public entry points of the generation module (include/knight/generate.h). */
#include "gen_blocks.h"
#include "gen_internal.h"

#include <string.h>

static const char *const method_names[KT_METHOD_COUNT] = {
    "blocks", "warnsdorff", "neural", "divide", "braid", "four-cover",
};
static const char *const tie_names[KT_TIE_COUNT] = {"first", "random", "pohl", "roth"};

const char *kt_gen_method_name(kt_gen_method method)
{
    unsigned m = (unsigned)method;
    return m < KT_METHOD_COUNT ? method_names[m] : "unknown";
}

kt_status kt_gen_method_parse(const char *name, kt_gen_method *method)
{
    if (name == NULL || method == NULL) return KT_EINVAL;
    for (unsigned m = 0; m < KT_METHOD_COUNT; m++)
        if (strcmp(name, method_names[m]) == 0) {
            *method = (kt_gen_method)m;
            return KT_OK;
        }
    return KT_EINVAL;
}

const char *kt_tiebreak_name(kt_tiebreak tie)
{
    unsigned t = (unsigned)tie;
    return t < KT_TIE_COUNT ? tie_names[t] : "unknown";
}

kt_status kt_generate_closed_tour(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    if (out) *out = NULL;
    if (out == NULL || g == NULL) return KT_EINVAL;
    if (!kti_gen_plain(g)) return KT_EUNSUPPORTED;
    if (!kt_board_has_closed_tour(g->width, g->height)) return KT_ENOTOUR;
    kt_tourney *t = NULL;
    kt_status st = kti_tourney_alloc(&t, g);
    if (st != KT_OK) return st;
    st = kti_blocks_closed(t, seed);
    if (st != KT_OK) {
        kt_tourney_free(t);
        return st;
    }
    *out = t;
    return KT_OK;
}

kt_status kt_generate_tourney(kt_tourney **out, const kt_graph *g, kt_gen_method method,
                              uint64_t seed, uint64_t budget)
{
    if (out) *out = NULL;
    if (out == NULL || g == NULL) return KT_EINVAL;
    if (!kti_gen_plain(g)) return KT_EUNSUPPORTED;
    switch (method) {
    case KT_METHOD_BLOCKS:
        return kti_blocks_tourney(out, g, seed, false);
    case KT_METHOD_DIVIDE:
        return kti_blocks_tourney(out, g, seed, true);
    case KT_METHOD_WARNSDORFF:
        return kti_warnsdorff_tourney(out, g, seed, budget);
    case KT_METHOD_NEURAL:
        return kti_neural_tourney(out, g, seed, budget);
    case KT_METHOD_BRAID:
        return kti_braid_tourney(out, g);
    case KT_METHOD_FOUR_COVER:
        return kti_four_cover_tourney(out, g, seed);
    default:
        return KT_EINVAL;
    }
}
