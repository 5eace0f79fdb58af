/* SPDX-License-Identifier: MIT */
/*
 * The sampler's tables.  Forward: the reachable states of every layer,
 * collected in a hash set and stored as a sorted array of keys.  Backward:
 * the number of completions of each state, the sum over its successors of
 * theirs (the state after the last cell has one); states with none are
 * dropped, so what is kept is exactly what sampling can visit.
 */
#include "sample_internal.h"

#define EMPTY UINT64_MAX

typedef struct hset {
    uint64_t *slot;
    uint64_t mask, n;
} hset;

typedef struct pass {
    kt_sampler *s;
    const kti_run *run;
    kti_progress pr;
    uint64_t bytes, peak;    /* the tables held, and the most at once */
} pass;

static void account(pass *ps, int64_t delta)
{
    ps->bytes = (uint64_t)((int64_t)ps->bytes + delta);
    if (ps->bytes > ps->peak) ps->peak = ps->bytes;
}

static kt_status hset_init(hset *h, const kt_allocator *al, uint64_t cap)
{
    uint64_t n = 1024;
    while (n < 2 * cap) n *= 2;
    size_t bytes;
    if (n > SIZE_MAX || !kti_mul_ok((size_t)n, sizeof *h->slot, &bytes)) return KT_ETOOBIG;
    h->slot = kti_alloc(al, bytes);
    if (h->slot == NULL) return KT_ENOMEM;
    memset(h->slot, 0xFF, bytes);
    h->mask = n - 1;
    h->n = 0;
    return KT_OK;
}

static void hset_put_raw(hset *h, uint64_t key)
{
    uint64_t i = kti_mix64(key) & h->mask;
    while (h->slot[i] != EMPTY) {
        if (h->slot[i] == key) return;
        i = (i + 1) & h->mask;
    }
    h->slot[i] = key;
    h->n++;
}

/* Insert; the table doubles when half full. */
static kt_status hset_put(hset *h, const kt_allocator *al, uint64_t key, pass *ps)
{
    if (2 * (h->n + 1) > h->mask + 1) {
        hset big;
        KTI_TRY(hset_init(&big, al, h->n + 1));
        account(ps, (int64_t)((big.mask + 1) * sizeof(uint64_t)));
        for (uint64_t i = 0; i <= h->mask; i++)
            if (h->slot[i] != EMPTY) hset_put_raw(&big, h->slot[i]);
        account(ps, -(int64_t)((h->mask + 1) * sizeof(uint64_t)));
        kti_free(al, h->slot);
        *h = big;
    }
    hset_put_raw(h, key);
    return KT_OK;
}

/* LSD radix sort of n keys below 2^62, 11 bits a pass. */
static void radix_sort(uint64_t *a, uint64_t *tmp, uint64_t n)
{
    for (unsigned shift = 0; shift < 62; shift += 11) {
        uint64_t cnt[2048] = {0};
        for (uint64_t i = 0; i < n; i++) cnt[(a[i] >> shift) & 2047u]++;
        uint64_t sum = 0;
        for (unsigned d = 0; d < 2048; d++) {
            uint64_t c = cnt[d];
            cnt[d] = sum;
            sum += c;
        }
        for (uint64_t i = 0; i < n; i++) tmp[cnt[(a[i] >> shift) & 2047u]++] = a[i];
        uint64_t *t = a;
        a = tmp;
        tmp = t;
    }
    /* six passes: the sorted keys are back in the first array */
}

/* The hash set's keys as layer l, sorted. */
static kt_status layer_from_set(kti_slayer *l, hset *h, const kt_allocator *al, pass *ps)
{
    size_t bytes;
    if (!kti_mul_ok((size_t)h->n + 1, sizeof(uint64_t), &bytes)) return KT_ETOOBIG;
    l->key = kti_alloc(al, bytes);
    if (l->key == NULL) return KT_ENOMEM;
    account(ps, (int64_t)bytes);
    uint64_t k = 0;
    for (uint64_t i = 0; i <= h->mask; i++)
        if (h->slot[i] != EMPTY) l->key[k++] = h->slot[i];
    l->n = k;
    /* the hash table is no longer needed: its memory is the sort's buffer */
    KTI_ASSERT(h->mask + 1 >= k);
    radix_sort(l->key, h->slot, k);
    return KT_OK;
}

static kt_status forward_step(pass *ps, uint32_t t, hset *h)
{
    kt_sampler *s = ps->s;
    const kt_allocator *al = &s->alloc;
    const kti_sstep *st = &s->plan.st[t];
    const kti_slayer *cur = &s->layer[t];
    kti_schoice ch;
    kti_schoices(st, &ch);
    uint64_t n = s->plan.n;
    uint64_t next[KTI_SMP_MAXCH];
    for (uint64_t i = 0; i < cur->n; i++) {
        kti_sexpand(&s->plan, st, &ch, cur->key[i], next);
        for (unsigned c = 0; c < ch.n; c++)
            if (next[c] != KTI_SMP_NONE) KTI_TRY(hset_put(h, al, next[c], ps));
        if (ps->run->budget != 0 && h->n > ps->run->budget) return KT_ELIMIT;
        if ((i & 4095u) == 0 &&
            kti_progress_tick(&ps->pr, (uint64_t)t * KTI_SMP_UNITS + i * KTI_SMP_UNITS / cur->n,
                              2 * n * KTI_SMP_UNITS))
            return KT_ECANCELED;
    }
    return KT_OK;
}

static kt_status forward(pass *ps)
{
    kt_sampler *s = ps->s;
    const kt_allocator *al = &s->alloc;
    s->layer[0].key = kti_alloc(al, sizeof(uint64_t));
    if (s->layer[0].key == NULL) return KT_ENOMEM;
    s->layer[0].key[0] = 0;
    s->layer[0].n = 1;
    for (uint32_t t = 0; t < s->plan.n; t++) {
        hset h;
        KTI_TRY(hset_init(&h, al, s->layer[t].n));
        account(ps, (int64_t)((h.mask + 1) * sizeof(uint64_t)));
        kt_status st = forward_step(ps, t, &h);
        if (st == KT_OK) st = layer_from_set(&s->layer[t + 1], &h, al, ps);
        account(ps, -(int64_t)((h.mask + 1) * sizeof(uint64_t)));
        kti_free(al, h.slot);
        if (st != KT_OK) return st;
        if (s->layer[t + 1].n > s->stats.peak_states) s->stats.peak_states = s->layer[t + 1].n;
        if (s->layer[t + 1].n == 0) return KT_ENOTOUR;
    }
    return KT_OK;
}

kti_u128 kti_slayer_count(const kti_slayer *l, uint64_t key)
{
    uint64_t lo = 0, n = l->n;
    while (n > 1) {
        uint64_t half = n / 2;
        if (l->key[lo + half] <= key) lo += half;
        n -= half;
    }
    return l->n != 0 && l->key[lo] == key ? l->cnt[lo] : 0;
}

/* Counts of layer t from layer t + 1, then drop the states with none. */
static kt_status backward_step(pass *ps, uint32_t t)
{
    kt_sampler *s = ps->s;
    const kt_allocator *al = &s->alloc;
    kti_slayer *l = &s->layer[t];
    const kti_slayer *nx = &s->layer[t + 1];
    const kti_sstep *st = &s->plan.st[t];
    kti_schoice ch;
    kti_schoices(st, &ch);
    size_t bytes;
    if (!kti_mul_ok((size_t)l->n, sizeof(kti_u128), &bytes)) return KT_ETOOBIG;
    l->cnt = kti_alloc(al, bytes == 0 ? 1 : bytes);
    if (l->cnt == NULL) return KT_ENOMEM;
    account(ps, (int64_t)bytes);
    uint64_t kept = 0, n = s->plan.n;
    uint64_t next[KTI_SMP_MAXCH];
    for (uint64_t i = 0; i < l->n; i++) {
        kti_u128 sum = 0;
        kti_sexpand(&s->plan, st, &ch, l->key[i], next);
        for (unsigned c = 0; c < ch.n; c++) {
            if (next[c] == KTI_SMP_NONE) continue;
            kti_u128 add = kti_slayer_count(nx, next[c]), was = sum;
            sum += add;
            if (sum < was) return KT_EOVERFLOW;
        }
        if (sum != 0) {
            l->key[kept] = l->key[i];
            l->cnt[kept++] = sum;
        }
        if ((i & 4095u) == 0 &&
            kti_progress_tick(&ps->pr, (2 * n - 1 - t) * KTI_SMP_UNITS + i * KTI_SMP_UNITS / l->n,
                              2 * n * KTI_SMP_UNITS))
            return KT_ECANCELED;
    }
    /* Compaction frees nothing by itself; the arrays are shrunk by copying. */
    uint64_t *k2 = kti_alloc(al, (size_t)(kept ? kept : 1) * sizeof *k2);
    kti_u128 *c2 = kti_alloc(al, (size_t)(kept ? kept : 1) * sizeof *c2);
    if (k2 == NULL || c2 == NULL) {
        kti_free(al, k2);
        kti_free(al, c2);
        return KT_ENOMEM;
    }
    memcpy(k2, l->key, (size_t)kept * sizeof *k2);
    memcpy(c2, l->cnt, (size_t)kept * sizeof *c2);
    /* both copies are held for a moment: the peak counts them */
    account(ps, (int64_t)(kept * 24));
    account(ps, -(int64_t)(l->n * 24));
    kti_free(al, l->key);
    kti_free(al, l->cnt);
    l->key = k2;
    l->cnt = c2;
    l->n = kept;
    s->stats.states += kept;
    return KT_OK;
}

kt_status kti_stable_build(kt_sampler *s, const kti_run *run)
{
    uint32_t n = s->plan.n;
    s->layer = kti_calloc(&s->alloc, (size_t)n + 1, sizeof *s->layer);
    if (s->layer == NULL) return KT_ENOMEM;
    pass ps = {s, run, {0}, 0, 0};
    kti_progress_init(&ps.pr, run->progress, run->progress_user);
    kt_status st = n < 2 ? KT_ENOTOUR : forward(&ps);
    if (st == KT_OK) {
        kti_slayer *fin = &s->layer[n];
        KTI_ASSERT(fin->n == 1 && fin->key[0] == KTI_SMP_ACCEPT);
        fin->cnt = kti_alloc(&s->alloc, sizeof *fin->cnt);
        if (fin->cnt == NULL) st = KT_ENOMEM;
        else fin->cnt[0] = 1;
        s->stats.states = 1;
    }
    for (uint32_t t = n; st == KT_OK && t-- > 0;) st = backward_step(&ps, t);
    if (st == KT_OK) {
        s->total = s->layer[0].n ? s->layer[0].cnt[0] : 0;
        if (s->total == 0) st = KT_ENOTOUR;
    }
    s->stats.bytes = s->stats.states * 24;
    s->stats.peak_bytes = ps.peak;
    return st;
}

void kti_stable_free(kt_sampler *s)
{
    if (s->layer == NULL) return;
    for (uint32_t t = 0; t <= s->plan.n; t++) {
        kti_free(&s->alloc, s->layer[t].key);
        kti_free(&s->alloc, s->layer[t].cnt);
    }
    kti_free(&s->alloc, s->layer);
    s->layer = NULL;
}
