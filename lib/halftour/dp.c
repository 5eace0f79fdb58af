/* SPDX-License-Identifier: MIT */
/*
 * The frontier engine of the half-tour module (see halftour_internal.h).
 *
 * One layer of states per step.  With T threads a step has two phases:
 * (A) each thread expands a share of the input states into its own hash
 * tables, one per hash partition, releasing the input as it goes; (B)
 * thread p gathers from every thread the keys of partition p, sums equal
 * keys and compacts them into its share of the next layer.  Partitions
 * are balanced by the hash, so the next phase A again gives thread t
 * about a T-th of the states.
 *
 * Memory is the limit of deep halves (8x5: hundreds of millions of states
 * a layer), so a table is split into segments by the key's hash, the same
 * way in every table of a step.  A segment grows by half, not by
 * doubling, so the load stays between 0.53 and 0.8, and its growth (old
 * and new arrays at once) costs a few megabytes, not the table's size.
 * Phase B merges and compacts segment by segment, each into an array of
 * exactly its states, freeing the tables as it goes: a layer is a list of
 * such arrays, and phase A frees each one once it is expanded.
 */
#include "halftour_internal.h"

#define EMPTY UINT64_MAX
/* Loads above 4/5 make linear probing's runs long. */
#define LOAD_NUM 4u
#define LOAD_DEN 5u
#define SEG_FIRST_CAP ((size_t)16)
/* The states a segment should hold at the end of a step: about 6 MB, big
 * enough for huge pages, small enough that growing one is cheap. */
#define SEG_TARGET ((size_t)1 << 21)
#define SEG_MAX ((size_t)1 << 16)

/* Open addressing with linear probing, at any capacity below 2^32: the
 * slot is a multiply-shift of the hash (seg_slot), not a mask. */
typedef struct seg {
    kti_hent *e;
    size_t cap, n;
} seg;

/* A table of nseg segments (a power of two); the key of hash h lives in
 * segment h mod nseg.  Also a layer's share: then every segment is full
 * (cap == n). */
typedef struct htab {
    seg *s;
    size_t nseg;
    size_t n;        /* keys in all segments */
    uint64_t salt;   /* selects the slot function (see ht_queue) */
    uint64_t seen, share;   /* phase A: input states expanded so far, of share */
} htab;

static inline uint64_t hmix(uint64_t lo, uint64_t hi)
{
    return kti_mix64(lo ^ kti_mix64(hi + 0x9E3779B97F4A7C15u));
}

static inline size_t seg_slot(uint64_t z, size_t cap)
{
    return (size_t)(((z >> 32) * (uint64_t)cap) >> 32);
}

/* Large tables are probed at random: ask for huge pages (fewer TLB misses). */
static void *big_alloc(const kt_allocator *al, size_t bytes)
{
    void *p = kti_alloc(al, bytes);
    kti_advise_huge(p, bytes);
    return p;
}

static void ht_release(const kt_allocator *al, htab *t)
{
    if (t->s != NULL)
        for (size_t j = 0; j < t->nseg; j++) kti_free(al, t->s[j].e);
    kti_free(al, t->s);
    memset(t, 0, sizeof *t);
}

/* An empty table of nseg segments whose slots follow the salt. */
static bool ht_init(htab *t, const kt_allocator *al, size_t nseg, uint64_t salt)
{
    t->s = kti_calloc(al, nseg, sizeof *t->s);
    t->nseg = t->s != NULL ? nseg : 0;
    t->n = 0;
    t->salt = salt;
    return t->s != NULL;
}

/* Keys often reach a table in the slot order of another table: phase B
 * reads thread t's table and inserts into thread p's, and phase A expands
 * the states of the previous step in slot order, where many successors
 * keep their key.  If both tables used the same slot function, keys would
 * arrive sorted by home slot and pile into vast clusters behind the insert
 * front.  So every table of every step slots by its own re-mix z of the
 * hash. */
static inline uint64_t slot_mix(const htab *t, uint64_t h)
{
    return kti_mix64(h ^ t->salt);
}

static inline kti_hent *seg_find(const seg *s, size_t i, uint64_t lo, uint64_t hi)
{
    for (;;) {
        kti_hent *x = &s->e[i];
        if ((x->lo == lo && x->hi == hi) || (x->lo == EMPTY && x->hi == EMPTY)) return x;
        if (++i == s->cap) i = 0;
    }
}

/* The next capacity of a full segment.  In phase A it aims at the keys the
 * segment will hold at the end of the step, projected from the share of
 * the input expanded so far (an overestimate, as later states meet more
 * known keys), with 5% to spare; between 5/4 and twice the capacity, so
 * early growth is quick and late growth lands near the final size. */
static uint64_t seg_next_cap(const htab *t, const seg *s)
{
    if (s->cap == 0) return SEG_FIRST_CAP;
    uint64_t lo = (uint64_t)s->cap + s->cap / 4, hi = (uint64_t)s->cap * 2;
    if (t->seen == 0 || t->seen >= t->share) return (uint64_t)s->cap + s->cap / 2;
    double want = (double)s->n * (double)t->share / (double)t->seen * 1.05 * LOAD_DEN / LOAD_NUM;
    if (want <= (double)lo) return lo;
    if (want >= (double)hi) return hi;
    return (uint64_t)want;
}

/* Rehash the segment into ncap slots (more than its keys). */
static bool seg_grow(const htab *t, seg *s, const kt_allocator *al, uint64_t ncap64)
{
    size_t ncap = (size_t)ncap64, bytes;
    if (ncap64 > UINT32_MAX || ncap != ncap64 || !kti_mul_ok(ncap, sizeof(kti_hent), &bytes))
        return false;
    kti_hent *e = big_alloc(al, bytes);
    if (e == NULL) return false;
    memset(e, 0xFF, bytes);
    seg ns = {e, ncap, s->n};
    for (size_t i = 0; i < s->cap; i++) {
        kti_hent *x = &s->e[i];
        if (x->lo == EMPTY && x->hi == EMPTY) continue;
        uint64_t z = slot_mix(t, hmix(x->lo, x->hi));
        *seg_find(&ns, seg_slot(z, ncap), x->lo, x->hi) = *x;
    }
    kti_free(al, s->e);
    *s = ns;
    return true;
}

/* Inserts are batched: each key's slot is prefetched when the key is
 * queued and the batch is applied when full, which hides most of the
 * cache misses of a large table. */
#define BATCH 32

typedef struct batch {
    kti_hent e[BATCH];
    uint64_t z[BATCH];
    size_t j[BATCH];
    unsigned n;
} batch;

/* Apply the batch; false on allocation failure (the batch is then
 * dropped, so later queues stay in bounds while the pass winds down). */
static bool ht_flush(htab *t, const kt_allocator *al, batch *b, bool *ovf)
{
    for (unsigned k = 0; k < b->n; k++) {
        seg *s = &t->s[b->j[k]];
        if ((s->n + 1) * LOAD_DEN > s->cap * LOAD_NUM && !seg_grow(t, s, al, seg_next_cap(t, s))) {
            b->n = 0;
            return false;
        }
        const kti_hent *y = &b->e[k];
        kti_hent *x = seg_find(s, seg_slot(b->z[k], s->cap), y->lo, y->hi);
        if (x->lo == EMPTY && x->hi == EMPTY) {
            *x = *y;
            s->n++;
            t->n++;
        } else if (__builtin_add_overflow(x->cnt, y->cnt, &x->cnt)) {
            *ovf = true;
        }
    }
    b->n = 0;
    return true;
}

static inline bool ht_queue(htab *t, const kt_allocator *al, batch *b, uint64_t h, uint64_t lo,
                            uint64_t hi, uint64_t cnt, bool *ovf)
{
    uint64_t z = slot_mix(t, h);
    size_t j = (size_t)h & (t->nseg - 1);
    const seg *s = &t->s[j];
    if (s->cap) __builtin_prefetch(&s->e[seg_slot(z, s->cap)], 1, 0);
    unsigned k = b->n++;
    b->e[k].lo = lo;
    b->e[k].hi = hi;
    b->e[k].cnt = cnt;
    b->z[k] = z;
    b->j[k] = j;
    if (b->n == BATCH) return ht_flush(t, al, b, ovf);
    return true;
}

/* The segment's keys moved into an array of exactly their number. */
static bool seg_compact(seg *s, const kt_allocator *al)
{
    kti_hent *e = NULL;
    if (s->n != 0) {
        e = big_alloc(al, s->n * sizeof *e);   /* no overflow: cap >= n entries fit */
        if (e == NULL) return false;
        size_t k = 0;
        for (size_t i = 0; i < s->cap; i++) {
            const kti_hent *x = &s->e[i];
            if (x->lo == EMPTY && x->hi == EMPTY) continue;
            e[k++] = *x;
        }
    }
    kti_free(al, s->e);
    s->e = e;
    s->cap = s->n;
    return true;
}

/* LSD radix sort of keys carrying values, 16 bits a pass (passes where
 * every key has the same digit are skipped).  Two arrays of 8 bytes, not
 * one of (lo, hi, cnt): the sorts run on the largest sets (8x5: ~100 M
 * structures), where a 24-byte copy was half of the peak. */
bool kti_hdp_sort(const kt_allocator *al, uint64_t *key, uint64_t *val, size_t n)
{
    if (n < 2) return true;
    uint64_t *tk = kti_alloc(al, n * sizeof *tk);
    uint64_t *tv = kti_alloc(al, n * sizeof *tv);
    size_t *cnt = kti_alloc(al, 65536 * sizeof *cnt);
    bool ok = tk != NULL && tv != NULL && cnt != NULL;
    uint64_t *sk = key, *sv = val, *dk = tk, *dv = tv;
    for (unsigned pass = 0; ok && pass < 4; pass++) {
        unsigned sh = 16 * pass;
        memset(cnt, 0, 65536 * sizeof *cnt);
        for (size_t i = 0; i < n; i++) cnt[(sk[i] >> sh) & 0xFFFF]++;
        if (cnt[(sk[0] >> sh) & 0xFFFF] == n) continue;
        size_t sum = 0;
        for (size_t b = 0; b < 65536; b++) {
            size_t c = cnt[b];
            cnt[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            size_t d = cnt[(sk[i] >> sh) & 0xFFFF]++;
            dk[d] = sk[i];
            dv[d] = sv[i];
        }
        uint64_t *t = sk;
        sk = dk;
        dk = t;
        t = sv;
        sv = dv;
        dv = t;
    }
    if (ok && sk != key) {
        memcpy(key, sk, n * sizeof *key);
        memcpy(val, sv, n * sizeof *val);
    }
    kti_free(al, tk);
    kti_free(al, tv);
    kti_free(al, cnt);
    return ok;
}

/* ---- the engine ---- */

typedef struct shared {
    const kti_hprob *prob;
    const kt_allocator *al;
    unsigned nthreads;
    uint64_t budget;           /* states of one layer; 0 = no bound */
    size_t step;
    htab *in;                  /* nin input parts (segments freed once expanded) */
    unsigned nin;
    atomic_bool cancel;
    kti_hprogress *prog;
} shared;

typedef struct worker {
    shared *sh;
    unsigned id;
    htab *tab;                 /* phase A: nthreads tables, one per hash partition */
    batch *bt;                 /* nthreads insert batches */
    uint64_t closed;
    bool ovf, oom, lbl, limit;
} worker;

static void expand_one(worker *w, const kti_hstep *st, bool closing_ok, uint64_t lo, uint64_t hi,
                       uint64_t cnt);

/* Queue state t (codes by slot, after the step) under its canonical key:
 * labels renumbered 2, 3, ... in slot order (TERM kept in open mode). */
static void queue_state(worker *w, const kti_hstep *st, const uint8_t *t, uint64_t cnt)
{
    const kti_hprob *pr = w->sh->prob;
    if (pr->filter != NULL && !pr->filter(pr->filter_ctx, w->sh->step, t)) return;
    uint8_t merged[KTI_HDP_SLOTS];
    if (pr->merge_ends) {
        /* On a copy: the callers restore t by the entries they changed. */
        memcpy(merged, t, sizeof merged);
        kti_hdp_merge_ends(merged, st->out, st->nout);
        t = merged;
    }
    uint8_t map[32];
    memset(map, 0, sizeof map);
    unsigned next = 2, last = pr->open ? KTI_HDP_TERM - 1 : 15;
    uint64_t lo = 0, hi = 0;
    for (unsigned i = 0; i < st->nout; i++) {
        unsigned s = st->out[i];
        unsigned v = t[s];
        if (v >= 2 && !(pr->open && v == KTI_HDP_TERM)) {
            if (map[v] == 0) {
                if (next > last) {
                    w->lbl = true;
                    return;
                }
                map[v] = (uint8_t)next++;
            }
            v = map[v];
        }
        if (s < 16) lo |= (uint64_t)v << (4 * s);
        else hi |= (uint64_t)v << (4 * (s - 16));
    }
    unsigned nt = w->sh->nthreads;
    uint64_t h = hmix(lo, hi);
    unsigned p = nt == 1 ? 0u : (unsigned)((h >> 40) % nt);
    if (!ht_queue(&w->tab[p], w->sh->al, &w->bt[p], h, lo, hi, cnt, &w->ovf)) w->oom = true;
}

static void emit(worker *w, const kti_hstep *st, uint8_t *t, bool closed, uint64_t cnt)
{
    for (unsigned i = 0; i < st->nfin; i++) {
        unsigned f = st->fin[i];
        unsigned v = t[f];
        unsigned d = v == 0 ? 0u : v == 1 ? 2u : 1u;
        if (!((st->finmask[i] >> d) & 1u)) return;
        if (st->finclear[i]) t[f] = 0;
    }
    if (closed) {
        for (unsigned i = 0; i < st->nout; i++)
            if (t[st->out[i]] != 1) return;
        if (__builtin_add_overflow(w->closed, cnt, &w->closed)) w->ovf = true;
        return;
    }
    queue_state(w, st, t, cnt);
}

/* Open mode: the slots made final by this step, from fin[i] on, take every
 * final role their masks allow; a cell that becomes a tour end turns the
 * other end of its path into TERM.  More than two TERMs (tour ends) is
 * dropped. */
static void emit_open(worker *w, const kti_hstep *st, uint8_t *t, unsigned i, uint64_t cnt)
{
    if (i == st->nfin) {
        unsigned ends = 0;
        for (unsigned k = 0; k < st->nout; k++) ends += t[st->out[k]] == KTI_HDP_TERM;
        if (ends <= 2) queue_state(w, st, t, cnt);
        return;
    }
    unsigned f = st->fin[i], v = t[f], m = st->finmask[i];
    if (v == 1) {
        if (!(m & KTI_FIN_DEG2)) return;
        if (st->finclear[i]) t[f] = 0;
        emit_open(w, st, t, i + 1, cnt);
        t[f] = 1;
        return;
    }
    if (v == 0) {
        if (m & KTI_FIN_DEG0) emit_open(w, st, t, i + 1, cnt);
        if (m & KTI_FIN_END0) {
            t[f] = KTI_HDP_TERM;
            emit_open(w, st, t, i + 1, cnt);
            t[f] = 0;
        }
        return;
    }
    if (m & KTI_FIN_DEG1) emit_open(w, st, t, i + 1, cnt);
    /* A path whose two ends are tour ends is a whole tour inside one half. */
    if (!(m & KTI_FIN_END1) || v == KTI_HDP_TERM) return;
    uint8_t save[KTI_HDP_SLOTS];
    memcpy(save, t, sizeof save);
    t[f] = st->finclear[i] ? 0 : 1;
    for (unsigned k = 0; k <= st->nin; k++) {
        unsigned s = k < st->nin ? st->in[k] : st->slot;
        if (s != f && t[s] == v) t[s] = KTI_HDP_TERM;
    }
    emit_open(w, st, t, i + 1, cnt);
    memcpy(t, save, sizeof save);
}

/* The successor t of one choice of edges, to its final roles. */
static inline void emit_any(worker *w, const kti_hstep *st, uint8_t *t, bool closed, uint64_t cnt)
{
    if (w->sh->prob->open) emit_open(w, st, t, 0, cnt);
    else emit(w, st, t, closed, cnt);
}

#define FRESH 31u

static void expand_one(worker *w, const kti_hstep *st, bool closing_ok, uint64_t lo, uint64_t hi,
                       uint64_t cnt)
{
    uint8_t s[KTI_HDP_SLOTS], t[KTI_HDP_SLOTS];
    memset(s, 0, sizeof s);
    for (unsigned i = 0; i < st->nin; i++) s[st->in[i]] = (uint8_t)kti_hdp_nib(lo, hi, st->in[i]);
    const unsigned c = st->slot;
    const unsigned nnb = st->nnb;
    /* no edge */
    memcpy(t, s, sizeof t);
    t[c] = 0;
    emit_any(w, st, t, false, cnt);
    for (unsigned i = 0; i < nnb; i++) {
        unsigned a = st->nb[i];
        unsigned va = s[a];
        if (va == 1) continue;
        /* one edge c-a */
        memcpy(t, s, sizeof t);
        if (va == 0) {
            t[a] = FRESH;
            t[c] = FRESH;
        } else {
            t[a] = 1;
            t[c] = (uint8_t)va;
        }
        emit_any(w, st, t, false, cnt);
        /* two edges c-a, c-b */
        for (unsigned j = i + 1; j < nnb; j++) {
            unsigned b = st->nb[j];
            unsigned vb = s[b];
            if (vb == 1) continue;
            bool closed = false;
            memcpy(t, s, sizeof t);
            t[c] = 1;
            if (va == 0 && vb == 0) {
                t[a] = FRESH;
                t[b] = FRESH;
            } else if (va == 0) {
                t[a] = (uint8_t)vb;
                t[b] = 1;
            } else if (vb == 0) {
                t[b] = (uint8_t)va;
                t[a] = 1;
            } else if (va == vb) {
                if (!closing_ok) continue;
                t[a] = 1;
                t[b] = 1;
                closed = true;
            } else {
                /* Two paths join: the far end of b's takes a's label, or
                 * TERM when b's path ends at a tour end (open mode). */
                unsigned from = vb, to = va;
                if (vb == KTI_HDP_TERM && w->sh->prob->open) {
                    from = va;
                    to = vb;
                }
                t[a] = 1;
                t[b] = 1;
                for (unsigned k = 0; k < st->nin; k++)
                    if (t[st->in[k]] == from) t[st->in[k]] = (uint8_t)to;
            }
            emit_any(w, st, t, closed, cnt);
        }
    }
}

/* Distinct states this thread holds in phase A.  Every one of them is a
 * distinct state of the next layer, so more than the budget here proves
 * the layer is over it (whatever the number of threads): stop early,
 * before the tables take the memory the budget is meant to bound. */
static bool over_budget(const worker *w)
{
    const shared *sh = w->sh;
    if (sh->budget == 0) return false;
    uint64_t n = 0;
    for (unsigned p = 0; p < sh->nthreads; p++) n += w->tab[p].n;
    return n > sh->budget;
}

/* The states of one input segment; false when the thread must stop. */
static bool expand_seg(worker *w, const kti_hstep *st, bool closing_ok, const seg *s, size_t *done)
{
    shared *sh = w->sh;
    for (size_t i = 0; i < s->n; i++) {
        if ((++*done & 4095u) == 0) {
            for (unsigned p = 0; p < sh->nthreads; p++) w->tab[p].seen = *done;
            if (atomic_load_explicit(&sh->cancel, memory_order_relaxed) || w->oom) return false;
            if (over_budget(w)) {
                w->limit = true;
                return false;
            }
            /* Thread 0 is the calling thread (kti_parallel): the only one
             * that may call the progress callback. */
            if (w->id == 0 && sh->prog != NULL &&
                kti_progress_tick(&sh->prog->p, sh->prog->done, sh->prog->total))
                atomic_store(&sh->cancel, true);
        }
        const kti_hent *x = &s->e[i];
        expand_one(w, st, closing_ok, x->lo, x->hi, x->cnt);
    }
    return true;
}

static void phase_a(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    const kti_hstep *st = &sh->prob->steps[sh->step];
    bool closing_ok = sh->prob->allow_close && sh->step + 1 == sh->prob->nsteps;
    /* This thread's share: every nthreads-th segment of the input. */
    size_t g = 0, done = 0, share = 0;
    for (unsigned q = 0; q < sh->nin; q++)
        for (size_t j = 0; j < sh->in[q].nseg; j++, g++)
            if (g % sh->nthreads == w->id) share += sh->in[q].s[j].n;
    for (unsigned p = 0; p < sh->nthreads; p++) w->tab[p].share = share;
    g = 0;
    for (unsigned q = 0; q < sh->nin; q++)
        for (size_t j = 0; j < sh->in[q].nseg; j++, g++) {
            if (g % sh->nthreads != w->id) continue;
            seg *s = &sh->in[q].s[j];
            if (!expand_seg(w, st, closing_ok, s, &done)) return;
            /* Each state is expanded once: its memory can go to the tables. */
            kti_free(sh->al, s->e);
            s->e = NULL;
        }
    for (unsigned p = 0; p < sh->nthreads; p++)
        if (!ht_flush(&w->tab[p], sh->al, &w->bt[p], &w->ovf)) w->oom = true;
}

/* Segment j of every other thread's table for this partition, into this
 * thread's (each freed once read). */
static bool gather_seg(worker *w, size_t j)
{
    shared *sh = w->sh;
    worker *all = w - w->id;
    htab *base = &w->tab[w->id];
    /* Room for every key at once: one rehash, and the segment is
     * compacted right after. */
    uint64_t most = base->s[j].n;
    for (unsigned t = 0; t < sh->nthreads; t++)
        if (t != w->id) most += all[t].tab[w->id].s[j].n;
    uint64_t need = most / LOAD_NUM * LOAD_DEN + LOAD_DEN;
    if (most > base->s[j].n && need > base->s[j].cap && !seg_grow(base, &base->s[j], sh->al, need))
        return false;
    for (unsigned t = 0; t < sh->nthreads; t++) {
        if (t == w->id) continue;
        seg *src = &all[t].tab[w->id].s[j];
        for (size_t i = 0; i < src->cap; i++) {
            const kti_hent *x = &src->e[i];
            if (x->lo == EMPTY && x->hi == EMPTY) continue;
            if (!ht_queue(base, sh->al, &w->bt[0], hmix(x->lo, x->hi), x->lo, x->hi, x->cnt,
                          &w->ovf))
                return false;
        }
        kti_free(sh->al, src->e);
        src->e = NULL;
    }
    return ht_flush(base, sh->al, &w->bt[0], &w->ovf);
}

static void phase_b(void *arg)
{
    worker *w = arg;
    htab *base = &w->tab[w->id];
    for (size_t j = 0; j < base->nseg; j++)
        if (!gather_seg(w, j) || !seg_compact(&base->s[j], w->sh->al)) {
            w->oom = true;
            return;
        }
}

/* The workers and layer parts of one run. */
typedef struct engine {
    shared sh;
    worker *w;
    htab *parts;               /* the current layer: nparts parts */
    unsigned nparts;
} engine;

static void engine_free(engine *en)
{
    const kt_allocator *al = en->sh.al;
    unsigned T = en->sh.nthreads;
    if (en->parts != NULL)
        for (unsigned i = 0; i < T; i++) ht_release(al, &en->parts[i]);
    if (en->w != NULL)
        for (unsigned i = 0; i < T; i++) {
            if (en->w[i].tab != NULL)
                for (unsigned p = 0; p < T; p++) ht_release(al, &en->w[i].tab[p]);
            kti_free(al, en->w[i].tab);
            kti_free(al, en->w[i].bt);
        }
    kti_free(al, en->parts);
    kti_free(al, en->w);
    en->parts = NULL;
    en->w = NULL;
}

/* Set up the workers; the first layer is init (owned by the engine from
 * here on, also when this fails). */
static kt_status engine_init(engine *en, const kti_hprob *prob, const kti_run *run,
                             kti_hent *init, size_t ninit, kti_hprogress *prog)
{
    const kt_allocator *al = run->alloc;
    unsigned T = run->threads ? run->threads : 1;
    memset(en, 0, sizeof *en);
    en->sh.prob = prob;
    en->sh.al = al;
    en->sh.nthreads = T;
    en->sh.budget = run->budget;
    en->sh.prog = prog;
    atomic_init(&en->sh.cancel, false);
    en->w = kti_calloc(al, T, sizeof *en->w);
    en->parts = kti_calloc(al, T, sizeof *en->parts);
    /* Phase A deals the input's segments to the threads: a large first
     * layer (the steps the shards of an open half share) is cut into
     * segments of about SEG_TARGET states, or one thread would expand it
     * alone (8x4: 21 M states, 12 s instead of 5); a smaller one into 2T
     * segments of 256 states or more, which the tests' shards meet. */
    size_t nseg = 1;
    while (T > 1 && nseg < SEG_MAX &&
           (ninit / nseg > SEG_TARGET || (nseg < 2 * (size_t)T && ninit / nseg >= 256)))
        nseg *= 2;
    if (en->w == NULL || en->parts == NULL || !ht_init(&en->parts[0], al, nseg, 0)) {
        kti_free(al, init);
        return KT_ENOMEM;
    }
    if (nseg == 1) {
        en->parts[0].s[0] = (seg){init, ninit, ninit};
    } else {
        for (size_t j = 0, at = 0; j < nseg; j++) {
            size_t n = ninit / nseg + (j < ninit % nseg);
            seg *s = &en->parts[0].s[j];
            if ((s->e = big_alloc(al, n * sizeof *s->e)) == NULL) {
                kti_free(al, init);
                return KT_ENOMEM;   /* the segments so far go with engine_free */
            }
            memcpy(s->e, init + at, n * sizeof *s->e);
            s->n = s->cap = n;
            at += n;
        }
        kti_free(al, init);
    }
    en->parts[0].n = ninit;
    en->nparts = 1;
    for (unsigned i = 0; i < T; i++) {
        en->w[i].sh = &en->sh;
        en->w[i].id = i;
        en->w[i].tab = kti_calloc(al, T, sizeof *en->w[i].tab);
        en->w[i].bt = kti_alloc(al, T * sizeof *en->w[i].bt);
        if (en->w[i].tab == NULL || en->w[i].bt == NULL) return KT_ENOMEM;
        for (unsigned p = 0; p < T; p++) en->w[i].bt[p].n = 0;
    }
    return KT_OK;
}

/* The first failure the workers met, in order of precedence. */
static kt_status engine_status(const engine *en)
{
    kt_status rc = KT_OK;
    for (unsigned i = 0; i < en->sh.nthreads; i++) {
        const worker *w = &en->w[i];
        if (w->oom) return KT_ENOMEM;
        if (w->limit) rc = KT_ELIMIT;
        else if (w->lbl && rc == KT_OK) rc = KT_EUNSUPPORTED;
    }
    return rc;
}

/* Empty tables for a step from a layer of n states: segments enough that
 * each ends near SEG_TARGET states (a layer seldom grows more than 3/2),
 * and a salt of its own for each table. */
static bool engine_tables(engine *en, size_t step, uint64_t n)
{
    unsigned T = en->sh.nthreads;
    uint64_t per = n / 2 * 3 / ((uint64_t)T * T);
    size_t nseg = 1;
    while (nseg < SEG_MAX && per / nseg > SEG_TARGET) nseg *= 2;
    for (unsigned i = 0; i < T; i++)
        for (unsigned p = 0; p < T; p++) {
            uint64_t salt = ((uint64_t)step * KT_THREADS_MAX * KT_THREADS_MAX + (uint64_t)i * T + p + 1) *
                            0xD1B54A32D192ED03u;
            if (!ht_init(&en->w[i].tab[p], en->sh.al, nseg, salt)) return false;
        }
    return true;
}

/* One step: expand the layer (phase A), merge the partitions (phase B);
 * the new layer replaces the old one.  *nstates receives its size. */
static kt_status engine_step(engine *en, size_t step, uint64_t *nstates)
{
    shared *sh = &en->sh;
    const kt_allocator *al = sh->al;
    unsigned T = sh->nthreads;
    sh->step = step;
    sh->in = en->parts;
    sh->nin = en->nparts;
    uint64_t total_in = 0;
    for (unsigned i = 0; i < en->nparts; i++) total_in += en->parts[i].n;
    if (!engine_tables(en, step, total_in)) return KT_ENOMEM;
    kti_parallel(T, phase_a, en->w, sizeof *en->w);
    kt_status rc = engine_status(en);
    if (rc == KT_OK && atomic_load(&sh->cancel)) rc = KT_ECANCELED;
    if (rc != KT_OK) return rc;
    kti_parallel(T, phase_b, en->w, sizeof *en->w);
    uint64_t n = 0;
    for (unsigned i = 0; i < T; i++) {
        /* The input's segments are gone (phase A); partition i of the
         * tables is the new layer's part i. */
        ht_release(al, &en->parts[i]);
        en->parts[i] = en->w[i].tab[i];
        memset(&en->w[i].tab[i], 0, sizeof en->w[i].tab[i]);
        n += en->parts[i].n;
        for (unsigned p = 0; p < T; p++) ht_release(al, &en->w[i].tab[p]);
    }
    en->nparts = T;
    rc = engine_status(en);
    if (rc == KT_OK && sh->budget != 0 && n > sh->budget) rc = KT_ELIMIT;
    *nstates = n;
    return rc;
}

/* The last layer as one array (its segments freed as they are copied),
 * and the total of closed cycles. */
static kt_status engine_result(engine *en, kti_hent **out, size_t *nout, uint64_t *closed)
{
    const kt_allocator *al = en->sh.al;
    uint64_t closed_total = 0;
    for (unsigned i = 0; i < en->sh.nthreads; i++) {
        if (en->w[i].ovf) return KT_EOVERFLOW;
        if (__builtin_add_overflow(closed_total, en->w[i].closed, &closed_total))
            return KT_EOVERFLOW;
    }
    size_t n = 0;
    for (unsigned i = 0; i < en->nparts; i++) n += en->parts[i].n;
    kti_hent *res = kti_alloc(al, (n ? n : 1) * sizeof *res);
    if (res == NULL) return KT_ENOMEM;
    size_t k = 0;
    for (unsigned i = 0; i < en->nparts; i++)
        for (size_t j = 0; j < en->parts[i].nseg; j++) {
            seg *s = &en->parts[i].s[j];
            if (s->n) memcpy(res + k, s->e, s->n * sizeof *res);
            k += s->n;
            kti_free(al, s->e);
            s->e = NULL;
        }
    *out = res;
    *nout = n;
    *closed = closed_total;
    return KT_OK;
}

kt_status kti_hdp_run(const kti_hprob *prob, const kti_run *run, kti_hent *init, size_t ninit,
                      kti_hprogress *prog, kti_hent **out, size_t *nout, uint64_t *closed)
{
    engine en;
    kt_status rc = engine_init(&en, prob, run, init, ninit, prog);
    for (size_t step = prob->first; rc == KT_OK && step < prob->nsteps; step++) {
        uint64_t nstates = 0;
        rc = engine_step(&en, step, &nstates);
        if (rc != KT_OK) break;
        if (run->trace != NULL) run->trace(run->trace_user, step, nstates);
        if (prog != NULL) {
            prog->done++;
            if (kti_progress_tick(&prog->p, prog->done, prog->total)) rc = KT_ECANCELED;
        }
    }
    if (rc == KT_OK) rc = engine_result(&en, out, nout, closed);
    engine_free(&en);
    return rc;
}
