/* SPDX-License-Identifier: MIT */
/*
 * Puzzles with a unique solution (kt_semimagic_make_puzzle): start from a
 * complete numbering given in full and remove given numbers one at a time,
 * in an order drawn from the seed; a removal is kept only when the
 * completion search, counting the completions of the smaller grid up to 2,
 * proves that the numbering is still the only one.  Every kept grid is thus
 * proved unique by the same search a solver runs, and the difficulty is the
 * node count of that search on the final grid (the last check that kept a
 * removal).
 */
#include "semimagic_internal.h"

/* Count completions, stopping at the second. */
static int sm_count2(void *user, const kt_semimagic_solution *s)
{
    (void)s;
    uint64_t *k = user;
    return ++*k >= 2;
}

/* The completions of tmp's grid, capped at 2, and the nodes spent.  A
 * check that runs out of its budget proves nothing: *count is then 2. */
static kt_status sm_completions(const kt_semimagic_opts *tmp, const kti_run *r, uint64_t budget,
                                uint64_t *count, uint64_t *nodes)
{
    kti_run c = *r;
    c.budget = budget;
    /* Where a node budget runs out among several threads depends on their
     * timing, and so would the puzzle: a budgeted check runs on one. */
    if (budget != 0) c.threads = 1;
    c.progress = NULL;
    c.trace = NULL;
    c.checkpoint = NULL;
    c.shard = 0;
    c.nshards = 1;
    uint64_t k = 0;
    kt_status st = kti_sm_run_search(tmp, KT_SEMIMAGIC_ALL, &c, sm_count2, &k, NULL, NULL, nodes);
    if (st == KT_ECANCELED && k >= 2) st = KT_OK;
    *count = k;
    return st;
}

typedef struct sm_maker {
    kt_semimagic_opts tmp; /* the constraints of o with the current grid */
    kti_run r;
    uint64_t check_budget; /* per check; 0 = unlimited */
    uint64_t spent;        /* nodes over every check, held against r.budget */
    uint64_t proof;        /* nodes of the last check that proved the grid unique */
    kti_progress prog;
} sm_maker;

/* Whether the grid of m->tmp has exactly one completion, within the
 * budgets; KT_ELIMIT only when the whole call's budget is spent. */
static kt_status sm_unique(sm_maker *m, int *unique, uint64_t *nodes)
{
    uint64_t budget = m->check_budget;
    bool total = false;
    if (m->r.budget != 0) {
        if (m->spent >= m->r.budget) return KT_ELIMIT;
        uint64_t left = m->r.budget - m->spent;
        if (budget == 0 || left < budget) {
            budget = left;
            total = true;
        }
    }
    uint64_t count = 0, used = 0;
    kt_status st = sm_completions(&m->tmp, &m->r, budget, &count, &used);
    m->spent += used;
    *nodes = used;
    *unique = st == KT_OK && count == 1;
    if (st == KT_ELIMIT && !total) st = KT_OK;
    return st;
}

/* Try the givens in seeded order; keep each removal that stays unique. */
static kt_status sm_remove_givens(sm_maker *m, uint64_t seed)
{
    int N = (int)m->tmp.w * (int)m->tmp.h;
    uint16_t order[KTI_SM_MAXC];
    for (int p = 0; p < N; p++) order[p] = (uint16_t)p;
    kti_rng rng;
    kti_rng_seed(&rng, seed);
    for (int i = N - 1; i > 0; i--) {
        int j = (int)kti_rng_below(&rng, (uint64_t)i + 1);
        uint16_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < N; i++) {
        if (kti_progress_tick(&m->prog, (uint64_t)i, (uint64_t)N)) return KT_ECANCELED;
        int p = order[i];
        uint16_t keep = m->tmp.given[p];
        m->tmp.given[p] = 0;
        int unique = 0;
        uint64_t nodes;
        KTI_TRY(sm_unique(m, &unique, &nodes));
        if (unique) m->proof = nodes;
        else m->tmp.given[p] = keep;
    }
    return KT_OK;
}

kt_status kt_semimagic_make_puzzle(uint32_t *puzzle, const kt_semimagic_opts *o,
                                   const uint32_t *solution, size_t count, uint64_t seed,
                                   uint64_t check_budget, const kt_options *run, uint32_t *givens,
                                   uint64_t *difficulty)
{
    if (puzzle == NULL || o == NULL || solution == NULL) return KT_EINVAL;
    size_t N = (size_t)o->w * o->h;
    if (count != N) return KT_EINVAL;
    sm_maker *m = kti_alloc(&o->al, sizeof *m);
    if (m == NULL) return KT_ENOMEM;
    memset(m, 0, sizeof *m);
    m->tmp = *o;
    memset(m->tmp.given, 0, sizeof m->tmp.given);
    int ok = 0;
    kt_status st = kt_semimagic_check(&m->tmp, solution, count, &ok);
    if (st == KT_OK && !ok) st = KT_EINVAL;
    if (st == KT_OK) {
        for (size_t p = 0; p < N; p++) m->tmp.given[p] = (uint16_t)solution[p];
        kti_run_resolve(&m->r, run);
        kti_progress_init(&m->prog, m->r.progress, m->r.progress_user);
        m->check_budget = check_budget;
        /* The full grid is its own only completion; checking it still
         * gives the difficulty when no given can go. */
        int unique = 0;
        st = sm_unique(m, &unique, &m->proof);
        if (st == KT_OK && !unique) st = KT_ELIMIT;
        if (st == KT_OK) st = sm_remove_givens(m, seed);
    }
    if (st == KT_OK) {
        uint32_t k = 0;
        for (size_t p = 0; p < N; p++) {
            puzzle[p] = m->tmp.given[p];
            k += m->tmp.given[p] != 0;
        }
        if (givens) *givens = k;
        if (difficulty) *difficulty = m->proof;
    }
    kti_free(&o->al, m);
    return st;
}
