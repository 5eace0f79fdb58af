/* SPDX-License-Identifier: MIT */
/*
 * The table of directed open tours by start cell (kt_count_open_by_start).
 *
 * A symmetry of the board maps the tours that start on a cell one to one
 * onto those that start on its image, so the table is constant on the
 * classes of cells under the board's symmetries, and one count per class
 * (kt_count_open_tours with that start) fills it: 6 counts instead of 36
 * on 6 x 6, 10 instead of 42 on 6 x 7.  On a board whose colours differ
 * by one, the cells of the smaller colour start no tour and need no count.
 *
 * Why not one search for every start at once: the small search's memo
 * (small.c) keeps one number per (head, cells left), summed over the ends;
 * a table by end would need a vector per entry, and the memo is what makes
 * the search fast (6x6 open: 0.08 s with it, 0.26 s without).  The
 * frontier would need the start cell in its state, multiplying the states
 * by the cells of the frontier.  One count per class, with the classes
 * shared out among threads where each count runs on one, is the cheap way.
 */
#include "count_internal.h"

#include <stdio.h>

/* Progress units per class of start cells. */
#define BS_UNITS ((uint64_t)1 << 16)

typedef struct bs_table {
    const kt_graph *g;
    const kti_run *run;        /* the caller's settings, resolved */
    unsigned method;           /* KT_COUNT_FRONTIER or 0, for each class's count */
    const uint32_t *reps;      /* the classes' representatives */
    size_t nreps;
    kti_u128 *res;             /* per cell, set on the representatives */
    size_t next;               /* the next class to take (atomic) */
    uint64_t done;             /* progress units of the finished classes (atomic) */
    int stop;                  /* set when a count failed or the caller cancelled (atomic) */
    uint64_t reported;         /* the most reported so far (worker 0 only) */
} bs_table;

typedef struct bs_worker {
    bs_table *t;
    kt_options *opt;           /* the caller's settings, with this worker's progress */
    uint64_t part;             /* progress units of the class under way (atomic) */
    struct bs_worker *all;     /* worker 0's view of the others' progress */
    unsigned id, nworkers;
    kt_status st;
} bs_worker;

/* The progress callback of one class's count: worker 0 (the calling
 * thread) reports the whole table to the caller; every worker stops
 * when the table is to stop. */
static int bs_progress(void *user, uint64_t done, uint64_t total)
{
    bs_worker *w = user;
    bs_table *t = w->t;
    uint64_t part = total != 0 && done <= total ? (uint64_t)((kti_u128)done * BS_UNITS / total) : 0;
    __atomic_store_n(&w->part, part, __ATOMIC_RELAXED);
    if (w->id == 0 && t->run->progress != NULL) {
        uint64_t sum = __atomic_load_n(&t->done, __ATOMIC_RELAXED), all = (uint64_t)t->nreps * BS_UNITS;
        for (unsigned i = 0; i < w->nworkers; i++) sum += __atomic_load_n(&w->all[i].part, __ATOMIC_RELAXED);
        /* a worker between finishing a class and clearing its part is
         * counted twice or not at all: never report less than before */
        if (sum > all) sum = all;
        if (sum > t->reported) t->reported = sum;
        if (t->run->progress(t->run->progress_user, t->reported, all) != 0)
            __atomic_store_n(&t->stop, 1, __ATOMIC_RELAXED);
    }
    return __atomic_load_n(&t->stop, __ATOMIC_RELAXED);
}

/* A checkpoint file per class: the caller's path with ".s<cell>". */
static kt_status bs_checkpoint(bs_worker *w, uint32_t cell)
{
    const kti_run *run = w->t->run;
    if (run->checkpoint == NULL) return KT_OK;
    size_t len = strlen(run->checkpoint) + 16;
    char *path = kti_alloc(&w->t->g->alloc, len);
    if (path == NULL) return KT_ENOMEM;
    snprintf(path, len, "%s.s%lu", run->checkpoint, (unsigned long)cell);
    kt_status st = kt_options_set_checkpoint(w->opt, path, run->checkpoint_interval);
    kti_free(&w->t->g->alloc, path);
    return st;
}

/* Take classes in turn until none is left or the table stops. */
static void bs_work(void *arg)
{
    bs_worker *w = arg;
    bs_table *t = w->t;
    while (!__atomic_load_n(&t->stop, __ATOMIC_RELAXED)) {
        size_t i = __atomic_fetch_add(&t->next, 1, __ATOMIC_RELAXED);
        if (i >= t->nreps) break;
        kt_u128 v;
        w->st = bs_checkpoint(w, t->reps[i]);
        if (w->st == KT_OK) w->st = kt_count_open_tours(t->g, t->reps[i], KT_CELL_NONE, t->method, w->opt, &v, NULL);
        if (w->st != KT_OK) {
            __atomic_store_n(&t->stop, 1, __ATOMIC_RELAXED);
            break;
        }
        t->res[t->reps[i]] = kti_u128_from(v);
        __atomic_fetch_add(&t->done, BS_UNITS, __ATOMIC_RELAXED);
        __atomic_store_n(&w->part, 0, __ATOMIC_RELAXED);
    }
}

/*
 * The representative (least cell) of each vertex's class under the
 * symmetries that map the holes onto holes, KT_CELL_NONE for the cells
 * that start no tour (holes, and the smaller colour when the colours
 * differ by one); the representatives in cell order in reps[].
 */
static size_t bs_classes(const kt_graph *g, uint32_t *rep, uint32_t *reps)
{
    unsigned w = g->width, h = g->height, nsym = w == h ? 8u : 4u;
    bool sym_ok[8] = {true};
    for (unsigned k = 1; k < nsym; k++) {
        sym_ok[k] = true;
        for (size_t c = 0; g->mask != NULL && c < g->ncells && sym_ok[k]; c++)
            sym_ok[k] = g->mask[c] == g->mask[kti_cell_image(w, h, (unsigned)c, k)];
    }
    size_t col[2] = {0, 0};
    bool bip = ((g->a + g->b) & 1u) != 0;
    if (bip) kti_colour_counts(g, col);
    size_t diff = col[0] > col[1] ? col[0] - col[1] : col[1] - col[0];
    unsigned big = col[1] > col[0];
    size_t n = 0;
    for (size_t c = 0; c < g->ncells; c++) {
        rep[c] = (uint32_t)KT_CELL_NONE;
        if (!kti_is_vertex(g, c) || (bip && (diff > 1 || (diff == 1 && kti_colour(g, c) != big)))) continue;
        uint32_t r = (uint32_t)c;
        for (unsigned k = 1; k < nsym; k++) {
            uint32_t d = kti_cell_image(w, h, (unsigned)c, k);
            if (sym_ok[k] && d < r) r = d;
        }
        rep[c] = r;
        if (r == c) reps[n++] = r;
    }
    return n;
}

/* The workers' settings: the caller's, each with its progress callback,
 * and one thread each when the counts run on one thread anyway (the
 * small search), which then share the classes. */
static kt_status bs_workers(bs_table *t, const kt_options *run, bs_worker *w, unsigned n, bool one_thread)
{
    for (unsigned i = 0; i < n; i++) {
        w[i] = (bs_worker){.t = t, .all = w, .id = i, .nworkers = n, .st = KT_OK};
        kt_status st = run != NULL ? kt_options_copy(&w[i].opt, run) : kt_options_new(&w[i].opt, NULL);
        if (st == KT_OK && one_thread) st = kt_options_set_threads(w[i].opt, 1);
        if (st == KT_OK) st = kt_options_set_progress(w[i].opt, bs_progress, &w[i]);
        if (st != KT_OK) return st;
    }
    return KT_OK;
}

/* Count the classes; the first failure other than the cancellation it
 * caused in the other workers is the table's. */
static kt_status bs_run(bs_table *t, const kt_options *run)
{
    const kt_allocator *al = &t->g->alloc;
    const kti_run *r = t->run;
    /* the conditions under which kt_count_open_tours takes the search */
    bool one_thread = t->method == 0 && kti_small_suits(t->g, true) && kti_run_plain(r);
    /* up to 25 cells the whole table takes less time than starting a
     * thread (5x5: 0.2 ms of CPU) */
    unsigned n = one_thread && t->g->nverts > 25 ? r->threads : 1u;
    if (n > t->nreps) n = t->nreps > 0 ? (unsigned)t->nreps : 1u;
    bs_worker *w = kti_calloc(al, n, sizeof *w);
    if (w == NULL) return KT_ENOMEM;
    kt_status st = bs_workers(t, run, w, n, one_thread);
    if (st == KT_OK) {
        kti_parallel(n, bs_work, w, sizeof *w);
        for (unsigned i = 0; i < n; i++)
            if (w[i].st != KT_OK && (st == KT_OK || st == KT_ECANCELED)) st = w[i].st;
    }
    for (unsigned i = 0; i < n; i++) kt_options_free(w[i].opt);
    kti_free(al, w);
    /* the last report, done = total, as the counts make it */
    uint64_t all = (uint64_t)t->nreps * BS_UNITS;
    if (st == KT_OK && all != 0 && r->progress != NULL && r->progress(r->progress_user, all, all) != 0)
        st = KT_ECANCELED;
    return st;
}

kt_status kt_count_open_by_start(const kt_graph *g, unsigned flags, const kt_options *run, kt_u128 *counts,
                                 size_t ncounts)
{
    if (g == NULL || counts == NULL) return KT_EINVAL;
    if (flags & ~(unsigned)(KT_COUNT_OPEN | KT_COUNT_DIRECTED | KT_COUNT_SYMMETRIC | KT_COUNT_CLASSES |
                            KT_COUNT_FRONTIER))
        return KT_EINVAL;
    if (ncounts < g->ncells) return KT_EINVAL;
    if (flags & (KT_COUNT_SYMMETRIC | KT_COUNT_CLASSES)) return KT_EUNSUPPORTED;
    /* as kt_count_tours decides it (count.c, too_wide): from the size
     * alone, before the tables below are allocated for a huge board */
    uint64_t m = g->width < g->height ? g->width : g->height, leap = g->a > g->b ? g->a : g->b;
    if (g->mask == NULL && m > 2 * leap + KTI_FRONTIER_MAX_SLOTS) return KT_EUNSUPPORTED;
    const kt_allocator *al = &g->alloc;
    kti_run r;
    kti_run_resolve(&r, run);
    size_t bytes;
    if (!kti_mul_ok(g->ncells, sizeof(kti_u128), &bytes)) return KT_ENOMEM;    /* bounds the others */
    uint32_t *rep = kti_alloc(al, g->ncells * sizeof *rep), *reps = kti_alloc(al, g->ncells * sizeof *reps);
    kti_u128 *res = kti_calloc(al, g->ncells, sizeof *res);
    kt_status st = KT_ENOMEM;
    if (rep != NULL && reps != NULL && res != NULL) {
        bs_table t = {.g = g, .run = &r, .method = flags & KT_COUNT_FRONTIER, .reps = reps, .res = res};
        t.nreps = bs_classes(g, rep, reps);
        st = bs_run(&t, run);
    }
    if (st == KT_OK) {
        for (size_t c = 0; c < g->ncells; c++) counts[c] = kti_u128_to(rep[c] == KT_CELL_NONE ? 0 : res[rep[c]]);
    }
    kti_free(al, rep);
    kti_free(al, reps);
    kti_free(al, res);
    return st;
}
