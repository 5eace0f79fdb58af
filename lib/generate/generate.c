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
static const char *const tie_names[KT_GENERATE_TIE_COUNT] = {"first", "random", "pohl", "roth", "wplus", "w2"};

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

/* The settings of a call, read once at its start.  Generation runs on the
 * calling thread only and cannot be split into shards. */
static kt_status run_start(const kt_options *run, kti_run *r, kti_progress *pr)
{
    kti_run_resolve(r, run);
    if (r->nshards > 1) return KT_EINVAL;
    kti_progress_init(pr, r->progress, r->progress_user);
    return KT_OK;
}

#ifndef NDEBUG
/* Debug builds: the result must be a valid tourney whose size and shape
 * are what the generator's bookkeeping claims (the size is maintained by
 * hand in most generators).  kti_tourney_finish revalidates and recounts in
 * O(cells); a 1-cell board's trivial tour is a path or a cycle at will. */
static void check_result(kt_tourney *t)
{
    kt_shape shape = t->shape;
    size_t size = t->size;
    kt_status st = kti_tourney_finish(t, NULL);
    KTI_ASSERT(st == KT_OK || st == KT_ENOMEM);
    if (st == KT_OK) {
        KTI_ASSERT(t->size == size);
        KTI_ASSERT(t->shape == shape || t->g->nverts == 1);
    }
    t->shape = shape;
    t->size = size;
}
#endif

/* Hand a generator's result to the caller: checked in debug builds, then
 * the last progress report (done == total), which may still cancel. */
static kt_status deliver(kt_tourney **out, kt_tourney *t, kt_status st, kti_progress *pr,
                         uint64_t total)
{
    if (st == KT_OK) {
#ifndef NDEBUG
        check_result(t);
#endif
        if (pr->fn != NULL && pr->fn(pr->user, total, total) != 0) st = KT_ECANCELED;
    }
    if (st != KT_OK) {
        kt_tourney_free(t);
        t = NULL;
    }
    *out = t;
    return st;
}

static kt_status closed_common(kt_tourney **out, const kt_graph *g, uint64_t seed, bool divide,
                               const kt_options *run)
{
    if (out) *out = NULL;
    if (out == NULL || g == NULL) return KT_EINVAL;
    kti_run r;
    kti_progress pr;
    KTI_TRY(run_start(run, &r, &pr));
    if (!kti_gen_plain(g)) return KT_EUNSUPPORTED;
    if (!kt_graph_board_has_closed_tour(g->width, g->height)) return KT_ENOTOUR;
    kt_tourney *t = NULL;
    KTI_TRY(alloc_for_overwrite(&t, g));
    kt_status st = kti_blocks_closed(t, seed, divide, &pr); /* writes every cell */
    if (st == KT_OK && !divide) st = kti_blocks_shuffle(t, seed); /* small boards: vary it */
    return deliver(out, t, st, &pr, g->height); /* progress: rows */
}

kt_status kt_generate_closed_tour(kt_tourney **out, const kt_graph *g, uint64_t seed,
                                  const kt_options *run)
{
    return closed_common(out, g, seed, false, run);
}

kt_status kt_generate_divide_tour(kt_tourney **out, const kt_graph *g, uint64_t seed,
                                  const kt_options *run)
{
    return closed_common(out, g, seed, true, run);
}

kt_status kt_generate_open_tour(kt_tourney **out, const kt_graph *g, kt_cell start, kt_cell end,
                                uint64_t seed, const kt_options *run)
{
    if (out) *out = NULL;
    if (out == NULL || g == NULL) return KT_EINVAL;
    kti_run r;
    kti_progress pr;
    KTI_TRY(run_start(run, &r, &pr));
    kt_tourney *t = NULL;
    kt_status st = kti_open_tour(&t, g, start, end, seed, &pr);
    return deliver(out, t, st, &pr, g->height);
}

kt_status kt_generate_warnsdorff_tour(kt_tourney **out, const kt_graph *g, kt_shape shape,
                                      kt_cell start, kt_generate_tiebreak tie, uint64_t seed,
                                      const kt_options *run)
{
    if (out) *out = NULL;
    if (out == NULL || g == NULL || (unsigned)tie >= KT_GENERATE_TIE_COUNT) return KT_EINVAL;
    if (shape != KT_SHAPE_PATH && shape != KT_SHAPE_CYCLES) return KT_EINVAL;
    kti_run r;
    kti_progress pr;
    KTI_TRY(run_start(run, &r, &pr));
    if (!kti_gen_plain(g)) return KT_EUNSUPPORTED;
    if (start != KT_CELL_NONE && start >= g->ncells) return KT_EINVAL;
    if (shape == KT_SHAPE_CYCLES ? !kt_graph_board_has_closed_tour(g->width, g->height)
                                 : !kt_graph_board_has_open_tour(g->width, g->height))
        return KT_ENOTOUR;
    uint64_t attempts = r.budget;
    if (attempts == 0)
        attempts = tie == KT_GENERATE_TIE_FIRST || tie == KT_GENERATE_TIE_WPLUS
                       ? KT_GENERATE_WARNSDORFF_FIRST_ATTEMPTS
                                                : KT_GENERATE_WARNSDORFF_ATTEMPTS;
    kt_tourney *t = NULL;
    kt_status st = kti_warnsdorff_tour(&t, g, shape, start, tie, seed, attempts, &pr);
    return deliver(out, t, st, &pr, attempts);
}

/* The budget of a heuristic tourney generator, 0 resolved to its default. */
static uint64_t tourney_budget(kt_generate_method method, uint64_t budget)
{
    if (budget != 0) return budget;
    return method == KT_GENERATE_NEURAL ? KT_GENERATE_NEURAL_SWEEPS : KT_GENERATE_TOURNEY_RESTARTS;
}

kt_status kt_generate_tourney(kt_tourney **out, const kt_graph *g, kt_generate_method method,
                              uint64_t seed, const kt_options *run)
{
    if (out) *out = NULL;
    if (out == NULL || g == NULL) return KT_EINVAL;
    kti_run r;
    kti_progress pr;
    KTI_TRY(run_start(run, &r, &pr));
    if ((unsigned)method >= KT_GENERATE_METHOD_COUNT) return KT_EINVAL;
    if (!kti_gen_plain(g)) return KT_EUNSUPPORTED;
    uint64_t budget = tourney_budget(method, r.budget), total = g->height;
    kt_tourney *t = NULL;
    kt_status st;
    switch (method) {
    case KT_GENERATE_BLOCKS:
    case KT_GENERATE_DIVIDE:
        st = kti_blocks_tourney(&t, g, seed, method == KT_GENERATE_DIVIDE, &pr);
        break;
    case KT_GENERATE_WARNSDORFF:
        st = kti_warnsdorff_tourney(&t, g, seed, budget, &pr);
        total = budget;
        break;
    case KT_GENERATE_NEURAL:
        st = kti_neural_tourney(&t, g, seed, budget, &pr);
        total = budget;
        break;
    case KT_GENERATE_BRAID:
        st = kti_braid_tourney(&t, g, &pr);
        break;
    default: /* KT_GENERATE_FOUR_COVER: unique, so the seed plays no part */
        st = kti_four_cover_tourney(&t, g, &pr);
        break;
    }
    return deliver(out, t, st, &pr, total);
}
