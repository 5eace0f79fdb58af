/* SPDX-License-Identifier: MIT */
/*
 * The public search calls (kt_semimagic_search, kt_semimagic_exists): the
 * run settings, the work units of this shard, the threads, and the
 * delivery of solutions on the calling thread in unit order, which is the
 * order of a sequential depth-first search whatever the thread count.
 *
 * The calling thread (share 0 of kti_parallel) is both the deliverer and
 * a searcher.  It delivers the next unit due as soon as that unit is
 * finished; otherwise it claims the next unclaimed unit and searches it
 * itself, delivering directly when that unit is the one due and buffering
 * its solutions otherwise.  It waits only when every unit is claimed, that
 * is while the unit due is searched by a thread that did start.  So a
 * worker that the system refuses to start (kti_parallel then runs its
 * share on the calling thread after the deliverer's, where it finds no
 * work left) cannot stall the delivery, and with one thread the loop is
 * the plain sequential search with every solution delivered at once.
 */
#include "semimagic_internal.h"

#include <pthread.h>
#include <time.h>

/* Solutions of one unit found by a worker thread, kept for the deliverer. */
typedef struct sm_sols {
    uint16_t *v; /* len * N */
    size_t len, cap;
} sm_sols;

typedef struct sm_run {
    const kti_sm_plan *S;
    const kt_allocator *al;
    kti_sm_plist units; /* this shard's work units, in search order */
    kti_sm_shared sh;
    atomic_size_t next; /* the next unit to claim */
    pthread_mutex_t mu;
    pthread_cond_t cv;  /* signalled when a unit is done or a worker leaves */
    uint8_t *done;      /* per unit, under mu: searched to the end */
    sm_sols *res;       /* per unit: written by its searcher until done */
    kti_sm_deliv *D;    /* the calling thread's delivery state */
    kti_progress prog;
    size_t delivered;   /* units delivered (calling thread only) */
    /* Progress in estimated search nodes (only with a progress callback):
     * each unit's size by Knuth's estimator, the sum over all units, and
     * the sum over the units searched to the end. */
    uint64_t *est;
    uint64_t est_total;
    atomic_uint_fast64_t est_done;
    /* With a trace callback: the search nodes of each unit, traced as the
     * unit is delivered (step = unit index in this shard). */
    uint64_t *unit_nodes;
    kt_trace_fn trace;
    void *trace_user;
    /* Checkpoints (NULL path: none): saved by the deliverer after a unit
     * when ck_interval seconds have passed, and after the last unit. */
    const char *ck_path;
    double ck_interval, ck_last;
    uint64_t ck_key;
} sm_run;

/* What a thread's emit needs: the unit it searches and whether it may
 * deliver (only the calling thread searching the unit due). */
typedef struct sm_unit {
    sm_run *R;
    size_t idx;
    bool direct;
} sm_unit;

/* One share of kti_parallel: 0 is the calling thread. */
typedef struct sm_share {
    sm_run *R;
    unsigned id;
} sm_share;

/* Keep a worker's solution for the deliverer. */
static kt_status sm_store(sm_run *R, size_t idx, const uint16_t *num)
{
    size_t N = R->S->nb, row = N * sizeof(uint16_t);
    sm_sols *s = &R->res[idx];
    if (s->len == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 4, bytes;
        uint16_t *nv = kti_mul_ok(nc, row, &bytes) ? kti_alloc(R->al, bytes) : NULL;
        if (nv == NULL) return KT_ENOMEM;
        if (s->len) memcpy(nv, s->v, s->len * row);
        kti_free(R->al, s->v);
        s->v = nv;
        s->cap = nc;
    }
    memcpy(s->v + s->len * N, num, row);
    s->len++;
    return KT_OK;
}

static int sm_emit(kti_sm_worker *w, const uint16_t *num, int depth)
{
    (void)depth;
    sm_unit *u = w->ctx;
    if (!kti_sm_designated(w->S, num)) return 0;
    kt_status s = u->direct ? kti_sm_deliver(u->R->D, num) : sm_store(u->R, u->idx, num);
    if (s == KT_OK) return 0;
    kti_sm_stop(&u->R->sh, s);
    return 1;
}

/* Report progress (throttled): estimated nodes of the finished units out
 * of the estimated total; true when the callback cancels. */
static bool sm_progress(sm_run *R)
{
    if (R->est == NULL) return kti_progress_tick(&R->prog, R->delivered, R->units.len);
    uint64_t done = atomic_load_explicit(&R->est_done, memory_order_relaxed);
    return kti_progress_tick(&R->prog, done < R->est_total ? done : R->est_total, R->est_total);
}

/* Progress from inside the calling thread's own search. */
static int sm_tick(kti_sm_worker *w)
{
    sm_run *R = ((sm_unit *)w->ctx)->R;
    if (!sm_progress(R)) return 0;
    kti_sm_stop(&R->sh, KT_ECANCELED);
    return 1;
}

static void sm_worker_init(kti_sm_worker *w, sm_unit *u, sm_run *R, int (*tick)(kti_sm_worker *))
{
    memset(w, 0, sizeof *w);
    w->S = R->S;
    w->sh = &R->sh;
    w->period = R->sh.period;
    w->limit = -1;
    w->emit = sm_emit;
    w->tick = tick;
    w->ctx = u;
    u->R = R;
    u->idx = 0;
    u->direct = false;
}

/* Search unit i to the end and mark it done; false when the search stopped. */
static bool sm_search_unit(sm_run *R, kti_sm_worker *w, sm_unit *u, size_t i, bool direct)
{
    u->idx = i;
    u->direct = direct;
    uint64_t before = w->synced + w->nodes;
    if (kti_sm_search_unit(w, &R->units.v[i])) return false;
    if (R->unit_nodes != NULL) R->unit_nodes[i] = w->synced + w->nodes - before;
    if (R->est != NULL) atomic_fetch_add_explicit(&R->est_done, R->est[i], memory_order_relaxed);
    pthread_mutex_lock(&R->mu);
    R->done[i] = 1;
    pthread_cond_signal(&R->cv);
    pthread_mutex_unlock(&R->mu);
    return true;
}

/* A worker thread: claim units until none is left or the search stops. */
static void sm_worker_loop(sm_run *R)
{
    kti_sm_worker w;
    sm_unit u;
    sm_worker_init(&w, &u, R, NULL);
    while (atomic_load(&R->sh.status) == KT_OK) {
        size_t i = atomic_fetch_add(&R->next, 1);
        if (i >= R->units.len || !sm_search_unit(R, &w, &u, i, false)) break;
    }
    atomic_fetch_add(&R->sh.nodes, w.nodes);
    /* The deliverer may be waiting for a unit this thread gave up. */
    pthread_mutex_lock(&R->mu);
    pthread_cond_signal(&R->cv);
    pthread_mutex_unlock(&R->mu);
}

static bool sm_is_done(sm_run *R, size_t i)
{
    pthread_mutex_lock(&R->mu);
    bool d = R->done[i] != 0;
    pthread_mutex_unlock(&R->mu);
    return d;
}

/* Wait until unit i is done or the search stops.  Timed waits, because
 * the progress callback may run on this thread only. */
static void sm_wait(sm_run *R, size_t i)
{
    pthread_mutex_lock(&R->mu);
    while (!R->done[i] && atomic_load(&R->sh.status) == KT_OK) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 100000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&R->cv, &R->mu, &ts);
        if (R->done[i]) break;
        pthread_mutex_unlock(&R->mu);
        if (sm_progress(R)) kti_sm_stop(&R->sh, KT_ECANCELED);
        pthread_mutex_lock(&R->mu);
    }
    pthread_mutex_unlock(&R->mu);
}

/* Deliver the solutions a worker kept for finished unit i. */
static kt_status sm_flush(sm_run *R, size_t i)
{
    sm_sols *s = &R->res[i];
    kt_status st = KT_OK;
    for (size_t j = 0; j < s->len && st == KT_OK; j++) st = kti_sm_deliver(R->D, s->v + j * R->S->nb);
    kti_free(R->al, s->v);
    memset(s, 0, sizeof *s);
    return st;
}

/* Save the checkpoint if it is due (or the last unit is delivered). */
static kt_status sm_ck_save(sm_run *R)
{
    double now = kti_now();
    if (now - R->ck_last < R->ck_interval && R->delivered < R->units.len) return KT_OK;
    R->ck_last = now;
    kti_sm_ck ck = {R->ck_key, R->delivered, R->D->nclasses, R->D->nsol};
    return kti_sm_ck_save(R->ck_path, R->al, &ck);
}

/* Continue from the checkpoint of this search if there is one: the units
 * it delivered are skipped and its counts taken over. */
static kt_status sm_resume(sm_run *R, const kt_semimagic_opts *o, kt_semimagic_symmetry sym,
                           const kti_run *r)
{
    R->ck_path = r->checkpoint;
    R->ck_interval = r->checkpoint_interval;
    R->ck_last = kti_now();
    R->ck_key = kti_sm_ck_key(o, sym, r->shard, r->nshards, R->units.len);
    kti_sm_ck ck;
    kt_status st = kti_sm_ck_load(R->ck_path, R->ck_key, &ck);
    if (st == KT_ENOTFOUND) return KT_OK;
    if (st != KT_OK) return st;
    if (ck.delivered > R->units.len) return KT_EIO;
    R->delivered = (size_t)ck.delivered;
    atomic_store(&R->next, R->delivered);
    R->D->nclasses = ck.classes;
    R->D->nsol = ck.solutions;
    for (size_t i = 0; R->est != NULL && i < R->delivered; i++) atomic_fetch_add(&R->est_done, R->est[i]);
    return KT_OK;
}

/* The calling thread: deliver in unit order, searching while it cannot. */
static void sm_deliverer(sm_run *R)
{
    kti_sm_worker w;
    sm_unit u;
    sm_worker_init(&w, &u, R, R->prog.fn != NULL ? sm_tick : NULL);
    while (R->delivered < R->units.len && atomic_load(&R->sh.status) == KT_OK) {
        size_t due = R->delivered;
        if (sm_is_done(R, due)) {
            kt_status s = sm_flush(R, due);
            if (s != KT_OK) {
                kti_sm_stop(&R->sh, s);
                break;
            }
            if (R->trace != NULL) R->trace(R->trace_user, due, R->unit_nodes[due]);
            R->delivered++;
            if (R->ck_path != NULL && (s = sm_ck_save(R)) != KT_OK) {
                kti_sm_stop(&R->sh, s);
                break;
            }
            if (sm_progress(R)) kti_sm_stop(&R->sh, KT_ECANCELED);
            continue;
        }
        size_t i = atomic_fetch_add(&R->next, 1);
        if (i < R->units.len) {
            if (!sm_search_unit(R, &w, &u, i, i == due)) break;
        } else {
            sm_wait(R, due);
        }
    }
    atomic_fetch_add(&R->sh.nodes, w.nodes);
}

static void sm_share_main(void *arg)
{
    sm_share *s = arg;
    if (s->id == 0) sm_deliverer(s->R);
    else sm_worker_loop(s->R);
}

/* This shard's units: every nshards-th unit of the whole search, from
 * unit `shard` on, kept in order (in place). */
static void sm_keep_shard(kti_sm_plist *pl, uint32_t shard, uint32_t nshards)
{
    size_t k = 0;
    for (size_t i = shard; i < pl->len; i += nshards) pl->v[k++] = pl->v[i];
    pl->len = k;
}

/* Budget and sync period: with a budget, every thread syncs often enough
 * that the search stops close to it. */
static void sm_shared_init(kti_sm_shared *sh, const kti_run *r)
{
    atomic_init(&sh->status, KT_OK);
    atomic_init(&sh->nodes, 0);
    sh->budget = r->budget;
    sh->period = KTI_SM_SYNC;
    if (r->budget != 0) {
        uint64_t p = r->budget / r->threads;
        sh->period = p < 1 ? 1 : p < KTI_SM_SYNC ? (unsigned)p : KTI_SM_SYNC;
    }
}

/* The size of unit i by Knuth's estimator: up to KTI_SM_PROBES random
 * paths (at least one, fewer when they cost more than the unit's share of
 * KTI_SM_EST_COST), from a fixed seed per unit so that the figures are
 * reproducible and the same for every thread count. */
static uint64_t sm_unit_estimate(const sm_run *R, size_t i)
{
    uint64_t cap = KTI_SM_EST_COST / (R->units.len ? R->units.len : 1);
    double e = kti_sm_estimate_unit(R->S, &R->units.v[i], i, cap);
    /* at least one node per unit; the total stays far below 2^64 */
    return e < 1 ? 1 : e > 0x1p50 ? (uint64_t)0x1p50 : (uint64_t)e;
}

typedef struct sm_est_share {
    sm_run *R;
    unsigned id, threads;
} sm_est_share;

/* Every threads-th unit from unit id on; share 0 (the calling thread)
 * keeps the progress callback alive (total 0: not known yet), so the
 * estimate can be cancelled like the search. */
static void sm_estimate_share(void *arg)
{
    sm_est_share *e = arg;
    sm_run *R = e->R;
    for (size_t i = e->id; i < R->units.len; i += e->threads) {
        if (atomic_load_explicit(&R->sh.status, memory_order_relaxed) != KT_OK) return;
        if (e->id == 0 && kti_progress_tick(&R->prog, 0, 0)) {
            kti_sm_stop(&R->sh, KT_ECANCELED);
            return;
        }
        R->est[i] = sm_unit_estimate(R, i);
    }
}

/* Size every unit of this shard on up to `threads` threads; the total is
 * what the progress callback counts up to. */
static kt_status sm_estimate(sm_run *R, unsigned threads)
{
    R->est = kti_calloc(R->al, R->units.len ? R->units.len : 1, sizeof(uint64_t));
    if (R->est == NULL) return KT_ENOMEM;
    sm_est_share shares[KT_THREADS_MAX];
    for (unsigned i = 0; i < threads; i++) shares[i] = (sm_est_share){R, i, threads};
    kti_parallel(threads, sm_estimate_share, shares, sizeof shares[0]);
    for (size_t i = 0; i < R->units.len; i++) R->est_total += R->est[i];
    return (kt_status)atomic_load(&R->sh.status);
}

/* Plan the run: the work units of this shard and the per-unit arrays. */
static kt_status sm_run_init(sm_run *R, const kti_sm_plan *S, const kt_allocator *al,
                             const kti_run *r, kti_sm_deliv *D)
{
    memset(R, 0, sizeof *R);
    R->S = S;
    R->al = al;
    R->D = D;
    sm_shared_init(&R->sh, r);
    atomic_init(&R->next, 0);
    kti_progress_init(&R->prog, r->progress, r->progress_user);
    KTI_TRY(kti_sm_prefixes(S, &R->sh, al, &R->units));
    sm_keep_shard(&R->units, r->shard, r->nshards);
    size_t n = R->units.len ? R->units.len : 1;
    R->done = kti_calloc(al, n, 1);
    R->res = kti_calloc(al, n, sizeof(sm_sols));
    if (R->done == NULL || R->res == NULL) return KT_ENOMEM;
    if (r->trace != NULL) {
        R->trace = r->trace;
        R->trace_user = r->trace_user;
        R->unit_nodes = kti_calloc(al, n, sizeof(uint64_t));
        if (R->unit_nodes == NULL) return KT_ENOMEM;
    }
    atomic_init(&R->est_done, 0);
    return R->prog.fn != NULL ? sm_estimate(R, r->threads) : KT_OK;
}

static void sm_run_free(sm_run *R)
{
    if (R->res != NULL)
        for (size_t i = 0; i < R->units.len; i++) kti_free(R->al, R->res[i].v);
    kti_free(R->al, R->res);
    kti_free(R->al, R->done);
    kti_free(R->al, R->est);
    kti_free(R->al, R->unit_nodes);
    kti_free(R->al, R->units.v);
}

/* Search every unit on up to `threads` threads. */
static kt_status sm_run_units(sm_run *R, unsigned threads)
{
    if (R->prog.fn != NULL && R->prog.fn(R->prog.user, 0, R->est_total)) return KT_ECANCELED;
    unsigned T = threads;
    if (T > R->units.len) T = R->units.len > 0 ? (unsigned)R->units.len : 1;
    sm_share shares[KT_THREADS_MAX];
    for (unsigned i = 0; i < T; i++) shares[i] = (sm_share){R, i};
    pthread_mutex_init(&R->mu, NULL);
    pthread_cond_init(&R->cv, NULL);
    kti_parallel(T, sm_share_main, shares, sizeof shares[0]);
    pthread_cond_destroy(&R->cv);
    pthread_mutex_destroy(&R->mu);
    return (kt_status)atomic_load(&R->sh.status);
}

kt_status kti_sm_run_search(const kt_semimagic_opts *o, kt_semimagic_symmetry sym,
                            const kti_run *rr, kt_semimagic_fn fn, void *user,
                            uint64_t *classes, uint64_t *solutions, uint64_t *nodes)
{
    kti_run r = *rr;
    const kt_allocator *al = &o->al;
    kti_sm_plan *S = kti_alloc(al, sizeof *S);
    sm_run *R = kti_alloc(al, sizeof *R);
    if (S == NULL || R == NULL) {
        kti_free(al, S);
        kti_free(al, R);
        return KT_ENOMEM;
    }
    kti_sm_plan_init(S, o, sym);
    kti_sm_deliv D;
    memset(&D, 0, sizeof D);
    D.S = S;
    D.al = al;
    D.fn = fn;
    D.user = user;
    kt_status status = sm_run_init(R, S, al, &r, &D);
    /* ALL mode numbers classes by first meeting, which a resume would lose. */
    if (status == KT_OK && r.checkpoint != NULL && sym != KT_SEMIMAGIC_ALL) status = sm_resume(R, o, sym, &r);
    if (status == KT_OK) status = sm_run_units(R, r.threads);
    /* The threads look at the budget every few thousand nodes, so a search
     * may finish a little past it: it says so too.  KT_OK then always
     * means within the budget, and a search's status is the same for every
     * thread count (a whole search spends the same nodes on each). */
    if (status == KT_OK && r.budget != 0 && atomic_load(&R->sh.nodes) > r.budget) status = KT_ELIMIT;
    /* In ALL mode one class may have members in several shards: a shard
     * counts the classes whose representative it found, so the shards'
     * counts add up to the whole. */
    if (classes) *classes = sym == KT_SEMIMAGIC_ALL && r.nshards > 1 ? D.nreps : D.nclasses;
    if (solutions) *solutions = D.nsol;
    if (nodes) *nodes = atomic_load(&R->sh.nodes);
    sm_run_free(R);
    kti_free(al, D.keys);
    kti_free(al, D.counts);
    kti_free(al, R);
    kti_free(al, S);
    return status;
}

kt_status kt_semimagic_search(const kt_semimagic_opts *o, const kt_options *run,
                              kt_semimagic_fn fn, void *user, uint64_t *classes,
                              uint64_t *solutions)
{
    if (classes) *classes = 0;
    if (solutions) *solutions = 0;
    if (o == NULL) return KT_EINVAL;
    kti_run r;
    kti_run_resolve(&r, run);
    return kti_sm_run_search(o, o->sym, &r, fn, user, classes, solutions, NULL);
}

typedef struct sm_first {
    int found;
    uint32_t num[KTI_SM_MAXC];
} sm_first;

/* Keep the first solution and stop. */
static int sm_first_cb(void *user, const kt_semimagic_solution *s)
{
    sm_first *f = user;
    f->found = 1;
    memcpy(f->num, s->num, sizeof f->num);
    return 1;
}

kt_status kt_semimagic_exists(const kt_semimagic_opts *o, const kt_options *run, int *exists,
                              uint32_t *numbers)
{
    if (o == NULL || exists == NULL) return KT_EINVAL;
    *exists = 0;
    sm_first f;
    memset(&f, 0, sizeof f);
    kti_run r;
    kti_run_resolve(&r, run);
    /* A resumed search would skip the witnesses of the units it saved. */
    r.checkpoint = NULL;
    kt_status st = kti_sm_run_search(o, KT_SEMIMAGIC_CLASSES, &r, sm_first_cb, &f, NULL, NULL, NULL);
    if (f.found) {
        *exists = 1;
        if (numbers) memcpy(numbers, f.num, (size_t)o->w * o->h * sizeof(uint32_t));
        return KT_OK;
    }
    return st;
}
