/* SPDX-License-Identifier: MIT */
/*
 * Symmetry classes: which numbering found by the search reports its orbit
 * under the 16 symmetries (8 board maps, with and without reversal), the
 * class data of a report (images, satisfying members, the reversal
 * relation), and the user's callback.  Runs on the calling thread only.
 */
#include "semimagic_internal.h"

/* Numberings compared as arrays of numbers in cell order. */
static int sm_cmp(const kti_sm_plan *S, const uint16_t *a, const uint16_t *b)
{
    for (size_t p = 0; p < S->nb; p++)
        if (a[p] != b[p]) return a[p] < b[p] ? -1 : 1;
    return 0;
}

/* Would the search enumerate this (constraint-satisfying) numbering? */
static int sm_enumerated(const kti_sm_plan *S, const uint16_t *num)
{
    int one = 0, last = 0;
    for (int p = 0; p < S->N; p++) {
        if (num[p] == 1) one = p;
        if (num[p] == S->N) last = p;
    }
    if (!kti_sm_w_has(&S->rootend[S->p2i[one]], S->p2i[last])) return 0;
    return kti_sm_check(S, num);
}

/* num is designated when no smaller image of it under the 16 symmetries
 * is enumerated too: the smallest enumerated member of the orbit. */
int kti_sm_designated(const kti_sm_plan *S, const uint16_t *num)
{
    if (S->sym == KT_SEMIMAGIC_ALL) return 1;
    uint16_t img[KTI_SM_MAXC];
    for (int t = 1; t < 16; t++) {
        if (!kti_sm_map_ok(S, t)) continue;
        kti_sm_image(S, t, num, img);
        if (sm_cmp(S, img, num) >= 0) continue;
        if (sm_enumerated(S, img)) return 0;
    }
    return 1;
}

static uint64_t sm_find_class(const kti_sm_deliv *D, const uint16_t *key)
{
    size_t N = D->S->nb;
    for (uint64_t i = 0; i < D->nclasses; i++)
        if (sm_cmp(D->S, D->keys + i * N, key) == 0) return i;
    return KT_SEMIMAGIC_NO_CLASS;
}

/* The distinct board images of a numbering, which of them satisfy the
 * constraints, and the smallest satisfying one (-1 if none). */
typedef struct sm_class {
    uint16_t img[8][KTI_SM_MAXC]; /* img[0] is the numbering itself */
    uint8_t sat[8];
    int nd, nsat, rep;
    uint16_t key[KTI_SM_MAXC]; /* smallest image: names the class */
} sm_class;

static void sm_class_info(const kti_sm_plan *S, const uint16_t *num, sm_class *c)
{
    c->nd = c->nsat = 0;
    c->rep = -1;
    for (int t = 0; t < 8; t++) {
        if (!kti_sm_map_ok(S, t)) continue;
        uint16_t *im = c->img[c->nd];
        kti_sm_image(S, t, num, im);
        int dup = 0;
        for (int j = 0; j < c->nd && !dup; j++) dup = sm_cmp(S, c->img[j], im) == 0;
        if (dup) continue;
        c->sat[c->nd] = (uint8_t)kti_sm_check(S, im);
        if (c->sat[c->nd]) {
            c->nsat++;
            if (c->rep < 0 || sm_cmp(S, im, c->img[c->rep]) < 0) c->rep = c->nd;
        }
        if (c->nd == 0 || sm_cmp(S, im, c->key) < 0) memcpy(c->key, im, S->nb * sizeof im[0]);
        c->nd++;
    }
}

/* Remember a new class key (ALL mode, where classes are met in any order). */
static bool sm_keys_push(kti_sm_deliv *D, const uint16_t *key)
{
    size_t N = D->S->nb;
    if (D->nclasses == D->cap) {
        size_t nc = D->cap ? D->cap * 2 : 16, kb, cb;
        if (!kti_mul_ok(nc, N * sizeof(uint16_t), &kb) || !kti_mul_ok(nc, sizeof(uint32_t), &cb)) return false;
        uint16_t *nk = kti_alloc(D->al, kb);
        uint32_t *ncn = kti_alloc(D->al, cb);
        if (nk == NULL || ncn == NULL) {
            kti_free(D->al, nk);
            kti_free(D->al, ncn);
            return false;
        }
        if (D->nclasses) {
            memcpy(nk, D->keys, (size_t)D->nclasses * N * sizeof(uint16_t));
            memcpy(ncn, D->counts, (size_t)D->nclasses * sizeof(uint32_t));
        }
        kti_free(D->al, D->keys);
        kti_free(D->al, D->counts);
        D->keys = nk;
        D->counts = ncn;
        D->cap = nc;
    }
    memcpy(D->keys + D->nclasses * N, key, N * sizeof(uint16_t));
    D->counts[D->nclasses] = 0;
    D->nclasses++;
    return true;
}

static void sm_sol_init(kt_semimagic_solution *sol, const kti_sm_plan *S, const sm_class *c,
                        uint64_t cls, uint64_t rev, int revsat)
{
    memset(sol, 0, sizeof *sol);
    sol->n = S->n == S->h ? (uint32_t)S->n : 0;
    sol->w = (uint32_t)S->n;
    sol->h = (uint32_t)S->h;
    sol->cls = cls;
    sol->size = (uint32_t)c->nd;
    sol->nsat = (uint32_t)c->nsat;
    sol->rev = rev;
    sol->revsat = revsat;
    sol->sat = 1;
}

/* Report one class (its representative, then in MEMBERS mode the other
 * images); KT_ECANCELED when the callback asks to stop. */
static kt_status sm_emit_class(kti_sm_deliv *D, const sm_class *c, uint64_t cls, uint64_t rev,
                               int revsat)
{
    const kti_sm_plan *S = D->S;
    D->nsol += (uint64_t)c->nsat;
    if (D->fn == NULL) return KT_OK;
    kt_semimagic_solution sol;
    sm_sol_init(&sol, S, c, cls, rev, revsat);
    for (int p = 0; p < S->N; p++) sol.num[p] = c->img[c->rep][p];
    if (D->fn(D->user, &sol)) return KT_ECANCELED;
    if (S->sym == KT_SEMIMAGIC_MEMBERS) {
        uint32_t m = 1;
        for (int j = 0; j < c->nd; j++) {
            if (j == c->rep) continue;
            sol.member = m++;
            sol.sat = c->sat[j];
            for (int p = 0; p < S->N; p++) sol.num[p] = c->img[j][p];
            if (D->fn(D->user, &sol)) return KT_ECANCELED;
        }
    }
    return KT_OK;
}

/* ALL mode: every numbering is reported; its class index is the order in
 * which the class was first met, and the reversal relation is known once
 * the partner class has been met. */
static kt_status sm_deliver_all(kti_sm_deliv *D, const uint16_t *num, const sm_class *A,
                                const sm_class *B, int self)
{
    const kti_sm_plan *S = D->S;
    uint64_t cls = sm_find_class(D, A->key);
    if (cls == KT_SEMIMAGIC_NO_CLASS) {
        if (!sm_keys_push(D, A->key)) return KT_ENOMEM;
        cls = D->nclasses - 1;
    }
    uint64_t rc = self ? cls : sm_find_class(D, B->key);
    D->nsol++;
    /* The representative is img[0] exactly when num is it; counting those
     * counts each class once in whichever shard finds its representative. */
    D->nreps += A->rep == 0;
    uint32_t member = D->counts[cls]++;
    if (D->fn == NULL) return KT_OK;
    kt_semimagic_solution sol;
    sm_sol_init(&sol, S, A, cls, rc, B->nsat > 0);
    sol.member = member;
    for (int p = 0; p < S->N; p++) sol.num[p] = num[p];
    return D->fn(D->user, &sol) ? KT_ECANCELED : KT_OK;
}

kt_status kti_sm_deliver(kti_sm_deliv *D, const uint16_t *num)
{
    const kti_sm_plan *S = D->S;
    sm_class A, B;
    uint16_t rev[KTI_SM_MAXC];
    kti_sm_image(S, 8, num, rev);
    sm_class_info(S, num, &A);
    sm_class_info(S, rev, &B);
    int self = sm_cmp(S, A.key, B.key) == 0;
    if (S->sym == KT_SEMIMAGIC_ALL) return sm_deliver_all(D, num, &A, &B, self);
    /* A designated numbering reports its class and, right after, the
     * class of its reversal when that has a satisfying member. */
    uint64_t ia = D->nclasses;
    uint64_t ib = self ? ia : (B.nsat > 0 ? ia + 1 : KT_SEMIMAGIC_NO_CLASS);
    D->nclasses++;
    KTI_TRY(sm_emit_class(D, &A, ia, ib, B.nsat > 0));
    if (!self && B.nsat > 0) {
        D->nclasses++;
        KTI_TRY(sm_emit_class(D, &B, ib, ia, 1));
    }
    return KT_OK;
}
