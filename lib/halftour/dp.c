/* SPDX-License-Identifier: MIT */
/*
 * The frontier engine of the half-tour module (see halftour_internal.h).
 *
 * One layer of states per step.  With T threads a step has two phases:
 * (A) each thread expands a share of the input states into its own
 * buffers, one set per hash partition, releasing the input as it goes; (B)
 * thread p gathers from every thread the keys of partition p, sums equal
 * keys and compacts them into its share of the next layer.  Partitions
 * are balanced by the hash, so the next phase A again gives thread t
 * about a T-th of the states.
 *
 * Phase A appends each successor to a buffer of its segment (the key's
 * hash picks the partition, then the segment); phase B merges a
 * segment's buffers from every thread in a table small enough to stay in
 * cache, BUF_AIM states or so, and keeps an array of exactly its states.
 * Inserting each successor into one large table instead (the first
 * design) made every insert a random access into gigabytes, which cost
 * more than appending and merging in cache (BENCHMARKS.md, "Where the
 * halves' time goes"); most successors are new keys (1.0 to 1.6
 * successors a state), so the buffers take about the memory the tables
 * took at their load.  A buffer that grows large is merged in place
 * first, unless its last merge found few duplicates, so a layer of many
 * duplicates stays near its number of states.
 *
 * A half whose tour-end rules the left-right mirror keeps is enumerated
 * folded (kti_hprob::fold): at each step after which the cells added are
 * mirror images of each other (the end of a row), a state and its image
 * are filed under the lesser of their two keys, with both counts.  The
 * image's futures are the images of the state's, so the layers that
 * follow hold about half the states, and the last layer unfolds
 * (halftour.c's make_set): 8 x 4 halves in two-thirds of the time and
 * some 40 % less memory.
 *
 * Memory is the limit of deep halves (8x5: hundreds of millions of states
 * a layer): a buffer grows by half; phase B frees the buffers as it
 * merges them; a layer is a list of exact arrays, and phase A frees each
 * one once it is expanded.
 */
#include "halftour_internal.h"

/* The state keys of queue_state in AVX2 where the processor has it
 * (kti_cpu_vec); 64-bit only, as 32-bit x86 lacks _mm256_extract_epi64. */
#if KTI_X86_VEC && defined(__x86_64__)
#include <immintrin.h>
#define KTI_HDP_AVX2 1
#else
#define KTI_HDP_AVX2 0
#endif
#if defined(__SSE2__) && !KTI_HDP_AVX2
#include <emmintrin.h>
#endif

/* The states a segment of the first layer holds (engine_init): about
 * 6 MB, so the threads share a large first layer out evenly. */
#define SEG_TARGET ((size_t)1 << 21)
#define SEG_MAX ((size_t)1 << 16)
/* Phase B merges about this many states of one thread at a time (the
 * table, 4 bytes a slot at load 1/2 or less, and the states stay in
 * cache)... */
#define BUF_AIM ((size_t)1 << 15)
/* ... with at most this many segments a partition: each buffer's tail, a
 * cache line per thread and segment, must stay in cache too. */
#define BUF_SEG_MAX ((size_t)1 << 12)
#define BUF_FIRST ((size_t)64)
/* A full buffer this large is merged in place before it grows. */
#define BUF_MERGE_MIN ((size_t)1 << 14)

/* A layer's share of states (cap == n) or, in phase A, the buffer of one
 * segment's successors. */
typedef struct seg {
    kti_hent *e;
    size_t cap, n;
    size_t known;    /* phase A: its states after its last merge (distinct) */
    bool nomerge;    /* phase A: that merge found few duplicates */
} seg;

/* nseg segments (a power of two); the key of hash h lives in segment
 * h mod nseg. */
typedef struct htab {
    seg *s;
    size_t nseg;
    size_t n;        /* states in all segments (a layer) */
} htab;

static inline uint64_t hmix(uint64_t lo, uint64_t hi)
{
    return kti_mix64(lo ^ kti_mix64(hi + 0x9E3779B97F4A7C15u));
}

/* Large arrays are read and written far apart: ask for huge pages (fewer
 * TLB misses). */
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

static bool ht_init(htab *t, const kt_allocator *al, size_t nseg)
{
    t->s = kti_calloc(al, nseg, sizeof *t->s);
    t->nseg = t->s != NULL ? nseg : 0;
    t->n = 0;
    return t->s != NULL;
}

/* The index of one merge: slot -> state + 1 (0 empty), linear probing.
 * Kept by a worker from merge to merge; a merge clears only its slots. */
typedef struct mtab {
    uint32_t *slot;
    size_t cap;      /* slots allocated */
    size_t mask;     /* this merge's slots - 1 */
} mtab;

/* An empty index for up to n states, at load 1/2 at most. */
static bool mtab_begin(mtab *m, const kt_allocator *al, size_t n)
{
    if (n >= ((size_t)1 << 30)) return false; /* never: a segment holds a few MB */
    size_t want = 1024;
    while (want < 2 * n) want *= 2;
    if (want > m->cap) {
        kti_free(al, m->slot);
        m->slot = kti_alloc(al, want * sizeof *m->slot);
        m->cap = m->slot != NULL ? want : 0;
        if (m->slot == NULL) return false;
    }
    memset(m->slot, 0, want * sizeof *m->slot);
    m->mask = want - 1;
    return true;
}

/* State x added to the states dst[0 .. *n) that m indexes: its count
 * summed into its equal's, or appended.  dst may be x's own array when x
 * lies at or past dst[*n] (an in-place merge). */
static inline void mtab_add(mtab *m, kti_hent *dst, size_t *n, kti_hent x, bool *ovf)
{
    /* The segment fixed the hash's low bits: the slot takes its high ones. */
    uint64_t h = hmix(x.lo, x.hi) * 0x9E3779B97F4A7C15u;
    for (size_t i = (size_t)(h >> 32) & m->mask;; i = (i + 1) & m->mask) {
        uint32_t at = m->slot[i];
        if (at == 0) {
            m->slot[i] = (uint32_t)(*n + 1);
            dst[(*n)++] = x;
            return;
        }
        kti_hent *y = &dst[at - 1];
        if (y->lo == x.lo && y->hi == x.hi) {
            if (__builtin_add_overflow(y->cnt, x.cnt, &y->cnt)) *ovf = true;
            return;
        }
    }
}

/* Sorts of this many keys or more share each pass among the threads (a
 * smaller one is over before threads would start), at most SORT_THREADS
 * of them (each keeps its own counts: 512 KiB). */
#define SORT_PAR_MIN ((size_t)1 << 20)
#define SORT_THREADS 16u
#define SORT_BUCKETS 65536u

/* One pass of kti_hdp_sort: count, or scatter, share i's range of sk. */
typedef struct sort_pass {
    uint64_t *sk, *sv, *dk, *dv;
    size_t *cnt;       /* SORT_BUCKETS per share */
    unsigned sh;
    bool scatter;
} sort_pass;

static void sort_share(void *ctx, unsigned i, size_t lo, size_t hi)
{
    const sort_pass *p = ctx;
    size_t *cnt = p->cnt + (size_t)i * SORT_BUCKETS;
    const uint64_t *sk = p->sk, *sv = p->sv;
    unsigned sh = p->sh;
    if (!p->scatter) {
        memset(cnt, 0, SORT_BUCKETS * sizeof *cnt);
        for (size_t j = lo; j < hi; j++) cnt[(sk[j] >> sh) & 0xFFFF]++;
        return;
    }
    uint64_t *dk = p->dk, *dv = p->dv;
    for (size_t j = lo; j < hi; j++) {
        size_t d = cnt[(sk[j] >> sh) & 0xFFFF]++;
        dk[d] = sk[j];
        dv[d] = sv[j];
    }
}

/* LSD radix sort of keys carrying values, 16 bits a pass (passes where
 * every key has the same digit are skipped).  Two arrays of 8 bytes, not
 * one of (lo, hi, cnt): the sorts run on the largest sets (8x5: ~100 M
 * structures), where a 24-byte copy was half of the peak.  With threads,
 * share i counts its range's digits, and scatters it after the ranges
 * before it within each bucket: the order, and so the result, is the
 * one-thread sort's (8x4 open halves: 243 M keys, sorted three times
 * between the halves and the join while the other core stood idle). */
bool kti_hdp_sort(const kt_allocator *al, uint64_t *key, uint64_t *val, size_t n, unsigned threads)
{
    if (n < 2) return true;
    unsigned T = n < SORT_PAR_MIN || threads == 0 ? 1u : threads > SORT_THREADS ? SORT_THREADS : threads;
    uint64_t *tk = kti_alloc(al, n * sizeof *tk);
    uint64_t *tv = kti_alloc(al, n * sizeof *tv);
    size_t *cnt = kti_alloc(al, (size_t)T * SORT_BUCKETS * sizeof *cnt);
    bool ok = tk != NULL && tv != NULL && cnt != NULL;
    sort_pass p = {.sk = key, .sv = val, .dk = tk, .dv = tv, .cnt = cnt};
    for (unsigned pass = 0; ok && pass < 4; pass++) {
        p.sh = 16 * pass;
        p.scatter = false;
        kti_parallel_range(T, n, sort_share, &p);
        size_t b0 = (p.sk[0] >> p.sh) & 0xFFFF, first = 0;
        for (unsigned i = 0; i < T; i++) first += cnt[(size_t)i * SORT_BUCKETS + b0];
        if (first == n) continue;
        size_t sum = 0;
        for (size_t b = 0; b < SORT_BUCKETS; b++)
            for (unsigned i = 0; i < T; i++) {
                size_t *c = &cnt[(size_t)i * SORT_BUCKETS + b], v = *c;
                *c = sum;
                sum += v;
            }
        p.scatter = true;
        kti_parallel_range(T, n, sort_share, &p);
        uint64_t *t = p.sk;
        p.sk = p.dk;
        p.dk = t;
        t = p.sv;
        p.sv = p.dv;
        p.dv = t;
    }
    if (ok && p.sk != key) {
        memcpy(key, p.sk, n * sizeof *key);
        memcpy(val, p.sv, n * sizeof *val);
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
    bool avx2;                 /* queue_state's keys by vector_key */
} shared;

typedef struct worker {
    shared *sh;
    unsigned id;
    htab *tab;                 /* phase A: nthreads sets of buffers, one per hash partition */
    mtab mt;                   /* the index of its merges */
    kti_hent *merged;          /* phase B: a segment's states while merged */
    size_t mcap;
    uint64_t known;            /* phase A: states known distinct (seg::known, summed) */
    uint64_t closed;
    bool ovf, oom, lbl, limit;
} worker;

static void expand_one(worker *w, const kti_hstep *st, bool closing_ok, uint64_t lo, uint64_t hi,
                       uint64_t cnt);

/* Buffer s merged in place: each state once, with its counts summed. */
static bool buf_merge(worker *w, seg *s)
{
    if (!mtab_begin(&w->mt, w->sh->al, s->n)) return false;
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) mtab_add(&w->mt, s->e, &n, s->e[i], &w->ovf);
    w->known += n - s->known;
    s->known = n;
    s->n = n;
    return true;
}

/* Room for one more state in the full buffer s: a large one is merged in
 * place first (always under a budget, whose early stop counts the states
 * known distinct), and grows by half unless that freed a quarter. */
static bool buf_room(worker *w, seg *s)
{
    const kt_allocator *al = w->sh->al;
    if (s->cap >= BUF_MERGE_MIN && (!s->nomerge || w->sh->budget != 0)) {
        size_t before = s->n;
        if (!buf_merge(w, s)) return false;
        /* Under an eighth duplicates: another merge would not pay. */
        if (s->n > before - before / 8) s->nomerge = true;
        if (s->n <= s->cap - s->cap / 4) return true;
    }
    size_t ncap = s->cap ? s->cap + s->cap / 2 : BUF_FIRST, bytes;
    if (!kti_mul_ok(ncap, sizeof *s->e, &bytes)) return false;
    kti_hent *e = big_alloc(al, bytes);
    if (e == NULL) return false;
    if (s->n) memcpy(e, s->e, s->n * sizeof *e);
    kti_free(al, s->e);
    s->e = e;
    s->cap = ncap;
    return true;
}

/* The canonical key of state t (codes by slot, after step st): labels
 * renumbered 2, 3, ... in slot order (TERM kept in open mode); false when
 * they run out. */
static inline bool pack_state(const kti_hprob *pr, const kti_hstep *st, const uint8_t *t,
                              uint64_t *plo, uint64_t *phi)
{
    uint8_t map[32];
    memset(map, 0, sizeof map);
    unsigned next = 2, last = pr->open ? KTI_HDP_TERM - 1 : 15;
    uint64_t lo = 0, hi = 0;
    for (unsigned i = 0; i < st->nout; i++) {
        unsigned s = st->out[i];
        unsigned v = t[s];
        if (v >= 2 && !(pr->open && v == KTI_HDP_TERM)) {
            if (map[v] == 0) {
                if (next > last) return false;
                map[v] = (uint8_t)next++;
            }
            v = map[v];
        }
        if (s < 16) lo |= (uint64_t)v << (4 * s);
        else hi |= (uint64_t)v << (4 * (s - 16));
    }
    *plo = lo;
    *phi = hi;
    return true;
}

/* What the key functions found: a key, or a state the layer drops (more
 * than two tour ends), or labels run out. */
enum { KEY_OK, KEY_DROP, KEY_LABELS };

/* The key of state t as queue_state files it (its canonical key, or its
 * mirror image's when that is less and the layer folds).  ends: drop a
 * state with more than two TERM codes (open mode's last test, emit_open). */
static int scalar_key(const kti_hprob *pr, const kti_hstep *st, const uint8_t *t, bool ends,
                      uint64_t *plo, uint64_t *phi)
{
    if (ends) {
        unsigned n = 0;
        for (unsigned k = 0; k < st->nout; k++) n += t[st->out[k]] == KTI_HDP_TERM;
        if (n > 2) return KEY_DROP;
    }
    uint8_t merged[KTI_HDP_SLOTS];
    if (pr->merge_ends) {
        /* On a copy: the callers restore t by the entries they changed. */
        memcpy(merged, t, sizeof merged);
        kti_hdp_merge_ends(merged, st->out, st->nout);
        t = merged;
    }
    uint64_t lo, hi;
    if (!pack_state(pr, st, t, &lo, &hi)) return KEY_LABELS;
    if (pr->fold && st->fold) {
        uint8_t m[KTI_HDP_SLOTS] = {0};
        uint64_t mlo = 0, mhi = 0;
        /* From the key's codes, not t's: t may hold the merge's 30, which
         * merging again would take for its own mark. */
        for (unsigned i = 0; i < st->nout; i++) {
            unsigned sl = st->out[i];
            m[st->mirror[sl]] = (uint8_t)kti_hdp_nib(lo, hi, sl);
        }
        if (pr->merge_ends) kti_hdp_merge_ends(m, st->out, st->nout);
        /* as many labels as t's: never false */
        bool okm = pack_state(pr, st, m, &mlo, &mhi);
        if (okm && (mhi < hi || (mhi == hi && mlo < lo))) {
            lo = mlo;
            hi = mhi;
        }
    }
    *plo = lo;
    *phi = hi;
    return KEY_OK;
}

#if KTI_HDP_AVX2
/* The vector form of scalar_key, one byte lane per slot: the scalar loops
 * branch on every slot's code (which labels come first, which are TERM),
 * and their mispredictions were most of queue_state, itself half of the
 * open 8x4 half's time.  Here a slot's tests are lane compares, and the
 * loops run once per label (at most 15), not per slot. */

/* kti_hdp_merge_ends on the live lanes of v (the others 0). */
__attribute__((target("avx2,popcnt,bmi"))) static inline __m256i vector_merge_ends(__m256i v)
{
    __m256i term = _mm256_cmpeq_epi8(v, _mm256_set1_epi8((char)KTI_HDP_TERM));
    if (__builtin_popcount((uint32_t)_mm256_movemask_epi8(term)) != 2) return v;
    v = _mm256_blendv_epi8(v, _mm256_set1_epi8(30), term);
    uint32_t lab = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(1)));
    uint8_t b[KTI_HDP_SLOTS];
    _mm256_storeu_si256((__m256i *)(void *)b, v);
    /* lab holds the two 30s at least */
    __m256i first = _mm256_set1_epi8((char)b[__builtin_ctz(lab)]);
    return _mm256_blendv_epi8(v, _mm256_set1_epi8((char)KTI_HDP_TERM), _mm256_cmpeq_epi8(v, first));
}

/* pack_state on the live lanes of v: each label, in order of its first
 * lane, becomes 2, 3, ...; out holds the codes as bytes. */
__attribute__((target("avx2,popcnt,bmi"))) static inline bool vector_pack(__m256i v, bool open,
                                                                        __m256i *out)
{
    __m256i lab = _mm256_cmpgt_epi8(v, _mm256_set1_epi8(1));
    if (open) lab = _mm256_andnot_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8((char)KTI_HDP_TERM)), lab);
    __m256i o = _mm256_andnot_si256(lab, v);
    uint32_t rem = (uint32_t)_mm256_movemask_epi8(lab);
    uint8_t b[KTI_HDP_SLOTS];
    _mm256_storeu_si256((__m256i *)(void *)b, v);
    unsigned next = 2, last = open ? KTI_HDP_TERM - 1 : 15;
    while (rem != 0) {
        if (next > last) return false;
        __m256i eq = _mm256_cmpeq_epi8(v, _mm256_set1_epi8((char)b[__builtin_ctz(rem)]));
        o = _mm256_or_si256(o, _mm256_and_si256(eq, _mm256_set1_epi8((char)next)));
        rem &= ~(uint32_t)_mm256_movemask_epi8(eq);
        next++;
    }
    *out = o;
    return true;
}

/* Codes (bytes below 16) as the key's nibbles: slot 2j low, 2j + 1 high. */
__attribute__((target("avx2,popcnt,bmi"))) static inline void vector_nibbles(__m256i o, uint64_t *lo,
                                                                           uint64_t *hi)
{
    __m256i pk = _mm256_maddubs_epi16(o, _mm256_set1_epi16(0x1001));
    pk = _mm256_packus_epi16(pk, pk);
    *lo = (uint64_t)_mm256_extract_epi64(pk, 0);
    *hi = (uint64_t)_mm256_extract_epi64(pk, 2);
}

__attribute__((target("avx2,popcnt,bmi"))) static int vector_key(const kti_hprob *pr, const kti_hstep *st,
                                                              const uint8_t *t, bool ends,
                                                              uint64_t *plo, uint64_t *phi)
{
    __m256i live = _mm256_loadu_si256((const __m256i *)(const void *)st->live);
    __m256i v = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(const void *)t), live), o;
    if (ends && __builtin_popcount((uint32_t)_mm256_movemask_epi8(
                    _mm256_cmpeq_epi8(v, _mm256_set1_epi8((char)KTI_HDP_TERM)))) > 2)
        return KEY_DROP;
    if (pr->merge_ends) v = vector_merge_ends(v);
    if (!vector_pack(v, pr->open, &o)) return KEY_LABELS;
    uint64_t lo, hi;
    vector_nibbles(o, &lo, &hi);
    if (pr->fold && st->fold) {
        /* The image's codes: lane x takes the key's code of slot mirror[x]
         * (the mirror is its own inverse), a byte shuffle across the two
         * halves of the register. */
        __m256i idx = _mm256_loadu_si256((const __m256i *)(const void *)st->mirror);
        __m256i a = _mm256_shuffle_epi8(_mm256_permute2x128_si256(o, o, 0x00), idx);
        __m256i b = _mm256_shuffle_epi8(_mm256_permute2x128_si256(o, o, 0x11), idx);
        __m256i m = _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi8(idx, _mm256_set1_epi8(15)));
        m = _mm256_and_si256(m, live);
        if (pr->merge_ends) m = vector_merge_ends(m);
        uint64_t mlo, mhi;
        if (vector_pack(m, pr->open, &o)) {
            vector_nibbles(o, &mlo, &mhi);
            if (mhi < hi || (mhi == hi && mlo < lo)) {
                lo = mlo;
                hi = mhi;
            }
        }
    }
    *plo = lo;
    *phi = hi;
    return KEY_OK;
}
#endif

/* Queue state t (codes by slot, after the step) under its key; ends as
 * for scalar_key. */
static void queue_state(worker *w, const kti_hstep *st, const uint8_t *t, bool ends, uint64_t cnt)
{
    const kti_hprob *pr = w->sh->prob;
    if (pr->filter != NULL && !pr->filter(pr->filter_ctx, w->sh->step, t)) return;
    uint64_t lo, hi;
    int r;
#if KTI_HDP_AVX2
    if (w->sh->avx2) {
        r = vector_key(pr, st, t, ends, &lo, &hi);
#ifndef NDEBUG
        /* Debug builds check every vector key against the scalar one. */
        uint64_t slo = 0, shi = 0;
        int sr = scalar_key(pr, st, t, ends, &slo, &shi);
        KTI_ASSERT(r == sr && (r != KEY_OK || (lo == slo && hi == shi)));
#endif
    } else {
        r = scalar_key(pr, st, t, ends, &lo, &hi);
    }
#else
    r = scalar_key(pr, st, t, ends, &lo, &hi);
#endif
    if (r == KEY_DROP) return;
    if (r == KEY_LABELS) {
        w->lbl = true;
        return;
    }
    unsigned nt = w->sh->nthreads;
    uint64_t h = hmix(lo, hi);
    htab *tb = &w->tab[nt == 1 ? 0u : (unsigned)((h >> 40) % nt)];
    seg *s = &tb->s[h & (tb->nseg - 1)];
    if (s->n == s->cap && (w->oom || !buf_room(w, s))) {
        w->oom = true;
        return;
    }
    s->e[s->n++] = (kti_hent){lo, hi, cnt};
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
    queue_state(w, st, t, false, cnt);
}

/* Open mode: the slots made final by this step, from fin[i] on, take every
 * final role their masks allow; a cell that becomes a tour end turns the
 * other end of its path into TERM.  More than two TERMs (tour ends) is
 * dropped. */
static void emit_open(worker *w, const kti_hstep *st, uint8_t *t, unsigned i, uint64_t cnt)
{
    if (i == st->nfin) {
        queue_state(w, st, t, true, cnt);
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
    /* The other end of f's path: the slots live before the step and the
     * new one are the only ones not 0 (expand_one), and f now holds 0 or
     * 1, so every slot may be tested; a select the compiler makes one
     * vector compare, where a branch per live slot mispredicted (a fifth
     * of this function's time in the open 7x8 count). */
    for (unsigned s = 0; s < KTI_HDP_SLOTS; s++) t[s] = t[s] == v ? (uint8_t)KTI_HDP_TERM : t[s];
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
    /* Every nibble of the key: a state's key is 0 past its live slots
     * (those of the step before, this step's in[]). */
#if defined(__SSE2__)
    __m128i x = _mm_set_epi64x((long long)hi, (long long)lo), m4 = _mm_set1_epi8(15);
    __m128i even = _mm_and_si128(x, m4), odd = _mm_and_si128(_mm_srli_epi16(x, 4), m4);
    _mm_storeu_si128((__m128i *)(void *)s, _mm_unpacklo_epi8(even, odd));
    _mm_storeu_si128((__m128i *)(void *)(s + 16), _mm_unpackhi_epi8(even, odd));
#else
    for (unsigned i = 0; i < KTI_HDP_SLOTS; i++) s[i] = (uint8_t)kti_hdp_nib(lo, hi, i);
#endif
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

/* States this thread's merges found distinct in phase A.  Every one of
 * them is a distinct state of the next layer (a buffer holds one
 * segment's keys), so more than the budget here proves the layer is over
 * it (whatever the number of threads): stop early, before the buffers
 * take the memory the budget is meant to bound. */
static bool over_budget(const worker *w)
{
    return w->sh->budget != 0 && w->known > w->sh->budget;
}

/* The states of one input segment; false when the thread must stop. */
static bool expand_seg(worker *w, const kti_hstep *st, bool closing_ok, const seg *s, size_t *done)
{
    shared *sh = w->sh;
    for (size_t i = 0; i < s->n; i++) {
        if ((++*done & 4095u) == 0) {
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
    size_t g = 0, done = 0;
    w->known = 0;
    for (unsigned q = 0; q < sh->nin; q++)
        for (size_t j = 0; j < sh->in[q].nseg; j++, g++) {
            if (g % sh->nthreads != w->id) continue;
            seg *s = &sh->in[q].s[j];
            if (!expand_seg(w, st, closing_ok, s, &done)) return;
            /* Each state is expanded once: its memory can go to the tables. */
            kti_free(sh->al, s->e);
            s->e = NULL;
        }
}

/* Segment j of this thread's partition: every thread's buffer of it
 * merged (each freed once read), then copied into an array of exactly its
 * states.  The merge writes to the worker's scratch array, which stays in
 * cache from segment to segment: a layer keeps no slack. */
static bool gather_seg(worker *w, size_t j)
{
    shared *sh = w->sh;
    const kt_allocator *al = sh->al;
    worker *all = w - w->id;
    size_t most = 0, n = 0, bytes;
    for (unsigned t = 0; t < sh->nthreads; t++) most += all[t].tab[w->id].s[j].n;
    seg out = {0};
    if (most != 0) {
        if (most > w->mcap) {
            kti_free(al, w->merged);
            w->mcap = 0;
            if (!kti_mul_ok(most, sizeof *w->merged, &bytes) ||
                (w->merged = big_alloc(al, bytes)) == NULL)
                return false;
            w->mcap = most;
        }
        if (!mtab_begin(&w->mt, al, most)) return false;
        for (unsigned t = 0; t < sh->nthreads; t++) {
            seg *src = &all[t].tab[w->id].s[j];
            for (size_t i = 0; i < src->n; i++) mtab_add(&w->mt, w->merged, &n, src->e[i], &w->ovf);
            kti_free(al, src->e);
            memset(src, 0, sizeof *src);
        }
        if ((out.e = big_alloc(al, n * sizeof *out.e)) == NULL) return false; /* n <= most */
        memcpy(out.e, w->merged, n * sizeof *out.e);
    }
    out.n = out.cap = n;
    w->tab[w->id].s[j] = out;
    w->tab[w->id].n += n;
    return true;
}

static void phase_b(void *arg)
{
    worker *w = arg;
    htab *base = &w->tab[w->id];
    for (size_t j = 0; j < base->nseg; j++)
        if (!gather_seg(w, j)) {
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
            kti_free(al, en->w[i].mt.slot);
            kti_free(al, en->w[i].merged);
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
#if KTI_HDP_AVX2
    en->sh.avx2 = kti_cpu_vec() >= KTI_CPU_AVX2;
#endif
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
    if (en->w == NULL || en->parts == NULL || !ht_init(&en->parts[0], al, nseg)) {
        kti_free(al, init);
        return KT_ENOMEM;
    }
    if (nseg == 1) {
        en->parts[0].s[0] = (seg){.e = init, .cap = ninit, .n = ninit};
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
        if (en->w[i].tab == NULL) return KT_ENOMEM;
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

/* Empty buffers for a step from a layer of n states: segments enough
 * that phase B merges about BUF_AIM states of a thread at a time (a
 * layer seldom grows more than 3/2, its successors seldom more than 2). */
static bool engine_tables(engine *en, uint64_t n)
{
    unsigned T = en->sh.nthreads;
    uint64_t per = n * 2 / ((uint64_t)T * T);
    size_t nseg = 1;
    while (nseg < BUF_SEG_MAX && per / nseg > BUF_AIM) nseg *= 2;
    for (unsigned i = 0; i < T; i++)
        for (unsigned p = 0; p < T; p++)
            if (!ht_init(&en->w[i].tab[p], en->sh.al, nseg)) return false;
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
    if (!engine_tables(en, total_in)) return KT_ENOMEM;
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
