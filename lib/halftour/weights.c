/* SPDX-License-Identifier: MIT */
/*
 * The weights of a half's path structures (see halftour_internal.h): the
 * turn classes of the cells whose two edges lie in the half, and the move
 * of the one edge at each path end, summed over the structure's half-tours.
 *
 * The frontier pass of dp.c merges half-tours that share a state, and a
 * turn needs the moves of both edges of a cell, which the state does not
 * hold.  Half-tours are few (70,433,448 for a half of 8x8) against their
 * partial covers' states, so this walks them one by one, depth first over
 * the same steps, and adds each one to its structure.
 */
#include "halftour_internal.h"

#define NS KTI_HDP_SLOTS
#define POLL_MASK (((uint64_t)1 << 20) - 1)

typedef struct wnode {
    uint8_t code[NS];   /* 0 no edge, 1 two edges, >= 2 a path end (label) */
    uint8_t mv[NS];     /* a path end: the move of its edge, leaving it */
    uint8_t t[KTI_TURN_CLASSES + 1]; /* class 4 (straight back) never happens */
} wnode;

typedef struct wdfs {
    const kti_hstep *steps;
    size_t nsteps;
    uint8_t nbmove[KT_HALFTOUR_MAX_CELLS * 8][4]; /* per step: move to each neighbour slot */
    const uint8_t *bslot;
    unsigned ncb;
    const uint64_t *keys;
    size_t n;
    uint32_t *hslot;   /* key -> index + 1 */
    size_t hmask;
    kti_half_weights *out;
    bool ovf, missing, cancel;
    uint64_t leaves;
    kti_progress prog;
    bool has_prog;
} wdfs;

static size_t key_index(const wdfs *w, uint64_t key, bool *found)
{
    for (size_t i = kti_mix64(key) & w->hmask;; i = (i + 1) & w->hmask) {
        uint32_t s = w->hslot[i];
        if (s == 0) break;
        if (w->keys[s - 1] == key) {
            *found = true;
            return s - 1;
        }
    }
    *found = false;
    return 0;
}

/* One half-tour is complete: add it to its structure. */
static void leaf(wdfs *w, const wnode *x)
{
    uint8_t code[KT_HALFTOUR_MAX_CELLS];
    for (unsigned c = 0; c < w->ncb; c++) code[c] = x->code[w->bslot[c]];
    bool found;
    size_t i = key_index(w, kti_pack_codes(code, w->ncb), &found);
    if (!found) {
        w->missing = true;
        return;
    }
    kti_half_weights *o = w->out;
    for (unsigned c = 0; c < KTI_TURN_CLASSES; c++) o->turn[KTI_TURN_CLASSES * i + c] += x->t[c];
    size_t row = o->end_off[i];
    for (unsigned c = 0; c < w->ncb; c++) {
        if (code[c] < 2) continue;
        uint16_t *d = &o->dir[8 * row++ + x->mv[w->bslot[c]]];
        if (*d == UINT16_MAX) w->ovf = true;
        else (*d)++;
    }
    if ((++w->leaves & POLL_MASK) == 0 && w->has_prog &&
        kti_progress_tick(&w->prog, w->leaves >> 20, 0))
        w->cancel = true;
}

static void walk(wdfs *w, size_t s, const wnode *x);

/* The degree checks of step s (as dp.c's emit), then the next step. */
static void emit(wdfs *w, size_t s, wnode *y)
{
    const kti_hstep *st = &w->steps[s];
    for (unsigned i = 0; i < st->nfin; i++) {
        unsigned f = st->fin[i];
        unsigned v = y->code[f];
        unsigned d = v == 0 ? 0u : v == 1 ? 2u : 1u;
        if (!((st->finmask[i] >> d) & 1u)) return;
        if (st->finclear[i]) y->code[f] = 0;
    }
    walk(w, s + 1, y);
}

/* Cell a, an old cell, gets an edge from the new cell by move m (leaving
 * the new cell); it becomes a path end with label lab or, if it was one,
 * a cell with two edges whose turn is now known. */
static void attach(wnode *y, unsigned a, unsigned m, uint8_t lab)
{
    unsigned back = (m + 4) & 7u;
    if (y->code[a] == 0) {
        y->code[a] = lab;
        y->mv[a] = (uint8_t)back;
    } else {
        y->t[kti_ht_turn(y->mv[a], back)]++;
        y->code[a] = 1;
    }
}

static uint8_t fresh_label(const kti_hstep *st, const wnode *x)
{
    uint32_t used[8] = {0};
    for (unsigned k = 0; k < st->nin; k++) {
        unsigned v = x->code[st->in[k]];
        used[v >> 5] |= 1u << (v & 31);
    }
    unsigned l = 2;
    while ((used[l >> 5] >> (l & 31)) & 1u) l++;
    return (uint8_t)l;
}

/* The new cell of step s joined to old cells a and b (moves ma, mb). */
static void two_edges(wdfs *w, size_t s, const wnode *x, unsigned a, unsigned b, unsigned ma,
                      unsigned mb, uint8_t fresh)
{
    const kti_hstep *st = &w->steps[s];
    unsigned va = x->code[a], vb = x->code[b];
    if (va >= 2 && va == vb) return; /* a cycle */
    wnode y = *x;
    y.code[st->slot] = 1;
    y.t[kti_ht_turn(ma, mb)]++;
    uint8_t la = va ? (uint8_t)va : vb ? (uint8_t)vb : fresh;
    uint8_t lb = vb ? (uint8_t)vb : la;
    attach(&y, a, ma, la);
    attach(&y, b, mb, lb);
    /* Both were path ends: the far end of b's path now ends a's. */
    if (va >= 2 && vb >= 2)
        for (unsigned k = 0; k < st->nin; k++)
            if (y.code[st->in[k]] == vb) y.code[st->in[k]] = (uint8_t)va;
    emit(w, s, &y);
}

static void walk(wdfs *w, size_t s, const wnode *x)
{
    if (w->cancel || w->ovf || w->missing) return;
    if (s == w->nsteps) {
        leaf(w, x);
        return;
    }
    const kti_hstep *st = &w->steps[s];
    const unsigned c = st->slot;
    uint8_t fresh = fresh_label(st, x);
    wnode y = *x;
    y.code[c] = 0;
    emit(w, s, &y);
    for (unsigned i = 0; i < st->nnb; i++) {
        unsigned a = st->nb[i], va = x->code[a], ma = w->nbmove[s][i];
        if (va == 1) continue;
        y = *x;
        y.code[c] = va ? (uint8_t)va : fresh;
        y.mv[c] = (uint8_t)ma;
        attach(&y, a, ma, y.code[c]);
        emit(w, s, &y);
        for (unsigned j = i + 1; j < st->nnb; j++) {
            unsigned b = st->nb[j];
            if (x->code[b] == 1) continue;
            two_edges(w, s, x, a, b, ma, w->nbmove[s][j], fresh);
        }
    }
}

void kti_half_weights_free(const kt_allocator *al, kti_half_weights *w)
{
    kti_free(al, w->turn);
    kti_free(al, w->end_off);
    kti_free(al, w->dir);
    memset(w, 0, sizeof *w);
}

/* The weights' arrays, zeroed, and the key index. */
static kt_status weights_alloc(const kt_allocator *al, wdfs *w, kti_half_weights *o)
{
    size_t n = w->n, bytes;
    memset(o, 0, sizeof *o);
    if (!kti_mul_ok(n ? n : 1, KTI_TURN_CLASSES * sizeof *o->turn, &bytes)) return KT_ETOOBIG;
    o->turn = kti_calloc(al, n ? n : 1, KTI_TURN_CLASSES * sizeof *o->turn);
    o->end_off = kti_alloc(al, (n + 1) * sizeof *o->end_off);
    if (o->turn == NULL || o->end_off == NULL) return KT_ENOMEM;
    size_t rows = 0;
    for (size_t i = 0; i < n; i++) {
        o->end_off[i] = rows;
        for (unsigned c = 0; c < w->ncb; c++) rows += ((w->keys[i] >> (4 * c)) & 15u) >= 2;
    }
    o->end_off[n] = rows;
    if (!kti_mul_ok(rows ? rows : 1, 8 * sizeof *o->dir, &bytes)) return KT_ETOOBIG;
    o->dir = kti_calloc(al, rows ? rows : 1, 8 * sizeof *o->dir);
    size_t cap = 4;
    while (cap < 2 * n) cap *= 2;
    w->hmask = cap - 1;
    w->hslot = kti_calloc(al, cap, sizeof *w->hslot);
    if (o->dir == NULL || w->hslot == NULL) return KT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        size_t j = kti_mix64(w->keys[i]) & w->hmask;
        while (w->hslot[j] != 0) j = (j + 1) & w->hmask;
        w->hslot[j] = (uint32_t)(i + 1);
    }
    return KT_OK;
}

kt_status kti_half_weights_compute(const kti_hstep *steps, size_t nsteps, const uint8_t *bslot,
                                   uint32_t W, uint32_t D, const uint64_t *keys, size_t n,
                                   const kti_run *run, kti_half_weights *out)
{
    const kt_allocator *al = run->alloc;
    if (nsteps > KT_HALFTOUR_MAX_CELLS * 8 || n >= UINT32_MAX) return KT_EUNSUPPORTED;
    wdfs *w = kti_calloc(al, 1, sizeof *w);
    if (w == NULL) return KT_ENOMEM;
    w->steps = steps;
    w->nsteps = nsteps;
    w->bslot = bslot;
    w->ncb = W * (D >= 2 ? 2u : 1u);
    w->keys = keys;
    w->n = n;
    w->out = out;
    w->has_prog = run->progress != NULL;
    if (w->has_prog) kti_progress_init(&w->prog, run->progress, run->progress_user);
    /* The moves of each step's neighbour list, in kti_halftour_steps()'s
     * order: the new cell (x, r) looks at (x -+ 2, r + 1), (x -+ 1, r + 2). */
    static const int earlier[4][2] = {{-2, 1}, {2, 1}, {-1, 2}, {1, 2}};
    for (size_t s = 0; s < nsteps; s++) {
        int64_t r = (int64_t)D - 1 - (int64_t)(s / W), x = (int64_t)(s % W);
        unsigned k = 0;
        for (unsigned e = 0; e < 4; e++) {
            int64_t nx = x + earlier[e][0], nr = r + earlier[e][1];
            if (nx < 0 || nx >= W || nr >= D) continue;
            w->nbmove[s][k++] = (uint8_t)kti_ht_move(earlier[e][0], earlier[e][1]);
        }
    }
    kt_status rc = weights_alloc(al, w, out);
    if (rc == KT_OK) {
        wnode x0;
        memset(&x0, 0, sizeof x0);
        walk(w, 0, &x0);
        rc = w->cancel ? KT_ECANCELED : w->ovf ? KT_EOVERFLOW : w->missing ? KT_EMISMATCH : KT_OK;
    }
    if (rc != KT_OK) kti_half_weights_free(al, out);
    kti_free(al, w->hslot);
    kti_free(al, w);
    return rc;
}
