/* SPDX-License-Identifier: MIT */
/*
 * The half-tours of one path structure, counted, ranked and unranked
 * without listing the half's other half-tours.  The sampler lists every
 * half-tour of both halves (hsample.c); that stops where a half has
 * billions of them (the 7x5 half of open 7x9, the 8x4 halves of open 8x8
 * with a tour end free), while one structure's half-tours stay few.
 *
 * A frontier programme over the half's cells from the cut outward (row 0,
 * the row at the cut, first; each row left to right), started from the
 * structure itself: the key gives each boundary cell its steps across the
 * cut (code 0: two, code 1: none, a path end: one), and a path end that
 * crosses carries what its path must reach inside the half: the crossing
 * of the same label (its pair) or, in open mode, a tour end (TERM).  A
 * state gives each live cell a 5-bit code:
 *   FREE (0)      no edge yet: the cell alone, a path with both ends open
 *   FULL (1)      two edges (steps across the cut included): takes no more
 *   PAIR + k      an open path end whose other end is pair k's crossing
 *   TB            ... whose other end is a TERM crossing: it must reach a tour end
 *   TE            ... whose other end is a tour end: it must reach a TERM crossing
 *   LABEL + i     an open path end whose other end is open too (same label)
 * Two closed ends meet only as the two crossings of one pair or as TB and
 * TE; anything else (crossings of two pairs, two tour ends, which make the
 * whole tour, a cycle) is refused, and a cell that leaves with one edge
 * must be a tour end its rule allows.  The last state is empty: every
 * path of the half ran between what the structure says, so the half-tours
 * counted are exactly those whose structure is the key (the test checks
 * this against the enumeration's counts, structure by structure).
 *
 * The forward pass keeps the reachable states of every layer (hashed),
 * the backward pass their numbers of completions; unranking walks forward
 * taking each step's edges in a fixed order (subsets of the earlier
 * neighbours by increasing bit mask), ranking follows given edges.
 */
#include "halftour_internal.h"

#define HP_CELLS 64u
#define HP_SLOTS 25u       /* 5 bits each in 128 */
#define HP_FREE 0u
#define HP_FULL 1u
#define HP_PAIR 2u         /* + k, k < 8: a half has at most 16 boundary cells */
#define HP_TB 10u
#define HP_TE 11u
#define HP_LABEL 12u       /* 12..31 */
#define HP_NONE 0xFFu
#define HP_ENDS_SHIFT 125  /* past the slots: the tour ends placed so far */

typedef struct hp_step {
    uint8_t cell, slot;
    uint8_t init;          /* the new cell's code before its edges */
    uint8_t nnb;
    uint8_t nb[4], nbcell[4];   /* earlier neighbours: slots, cells */
    uint8_t nfin;
    uint8_t fin[8], finrule[8]; /* slots leaving after the step; their tour-end rule */
    /* After the step, for each live slot: the edges it can still take
     * (neighbours to come) and whether it may end the tour. */
    uint32_t live;
    uint8_t room[HP_SLOTS], mayend[HP_SLOTS];
} hp_step;

/* A layer's states in the order found, indexed by an open-addressing
 * table (a sort and a binary search per lookup were a third of the
 * programme's time). */
typedef struct hp_layer {
    size_t n, cap;
    kti_u128 *key;
    uint64_t *fut;         /* completions of each state */
    uint32_t *slot;        /* hmask + 1 entries: state index + 1, 0 empty */
    size_t hmask;
    /* Between the passes: the successors of state i are the states
     * succ[soff[i] .. soff[i + 1]) of the next layer, as the forward pass
     * found them, so that the backward pass need not compute them again
     * (successors() was two thirds of the programme's time, half of it in
     * the backward pass). */
    uint32_t *succ;
    size_t *soff;
} hp_layer;

struct kti_hpaths {
    kt_allocator al;
    uint32_t W, D;
    unsigned ncells;
    hp_step step[HP_CELLS];
    hp_layer layer[HP_CELLS + 1];
    unsigned nterm;        /* TERM crossings of the key: the half's tour ends */
    unsigned nslots;       /* slots ever used (the codes past them stay 0) */
    uint64_t total, states;
};

static inline unsigned code_at(kti_u128 k, unsigned i) { return (unsigned)(k >> (5 * i)) & 31u; }

static void decode(kti_u128 k, uint8_t *c, unsigned n)
{
    for (unsigned i = 0; i < n; i++) c[i] = (uint8_t)code_at(k, i);
}

/* Labels renumbered in slot order, so that equal states have equal keys. */
static kti_u128 encode(const uint8_t *c, unsigned n)
{
    uint8_t map[32] = {0};
    unsigned next = HP_LABEL;
    kti_u128 k = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned v = c[i];
        if (v >= HP_LABEL) {
            if (map[v] == 0) map[v] = (uint8_t)next++;
            v = map[v];
        }
        k |= (kti_u128)v << (5 * i);
    }
    return k;
}

/* The other open end of the path whose end at slot a has label v. */
static unsigned other_end(const uint8_t *c, unsigned n, unsigned v, unsigned a)
{
    for (unsigned i = 0; i < n; i++)
        if (i != a && c[i] == v) return i;
    return HP_NONE; /* never: a label is on two live slots */
}

static bool closes(unsigned a, unsigned b)
{
    return (a == b && a >= HP_PAIR && a < HP_TB) || (a == HP_TB && b == HP_TE) ||
           (a == HP_TE && b == HP_TB);
}

/* An edge between the cells of slots a and b. */
static bool join(uint8_t *c, unsigned n, unsigned a, unsigned b)
{
    unsigned ca = c[a], cb = c[b];
    if (ca == HP_FULL || cb == HP_FULL) return false;
    if (ca >= HP_LABEL && ca == cb) return false; /* a cycle */
    /* Each side's far end: an open slot (itself when it had no edge), or
     * a closed end's kind. */
    unsigned fa = ca == HP_FREE ? a : ca >= HP_LABEL ? other_end(c, n, ca, a) : HP_NONE;
    unsigned fb = cb == HP_FREE ? b : cb >= HP_LABEL ? other_end(c, n, cb, b) : HP_NONE;
    c[a] = ca == HP_FREE ? HP_FREE : HP_FULL;
    c[b] = cb == HP_FREE ? HP_FREE : HP_FULL;
    if (fa == HP_NONE && fb == HP_NONE) return closes(ca, cb);
    if (fa == HP_NONE) {
        c[fb] = (uint8_t)ca;
        return true;
    }
    if (fb == HP_NONE) {
        c[fa] = (uint8_t)cb;
        return true;
    }
    unsigned fresh = HP_LABEL;
    for (bool used = true; used && fresh < 32; fresh += used) {
        used = false;
        for (unsigned i = 0; i < n; i++) used |= c[i] == fresh;
    }
    c[fa] = c[fb] = (uint8_t)fresh; /* a plain path has at most 12 labels in 25 slots */
    return true;
}

/* The cell of slot f leaves under tour-end rule `rule` (0 never a tour
 * end, 1 may be, 2 must be). */
static bool leave(uint8_t *c, unsigned n, unsigned f, unsigned rule, unsigned *ends)
{
    unsigned cf = c[f];
    c[f] = HP_FREE;
    if (cf == HP_FULL) return rule != 2;
    if (cf == HP_FREE || rule == 0) return false; /* degree 0; or 1 and no tour end */
    /* Degree 1: a tour end, closing its path's end here. */
    ++*ends;
    if (cf >= HP_LABEL) {
        c[other_end(c, n, cf, HP_NONE)] = HP_TE;
        return true;
    }
    return cf == HP_TB; /* a pair must reach its partner; TE: the whole tour */
}

/* Step s from the decoded state c0 (tour ends so far: ends) taking the
 * earlier neighbours of mask m. */
static bool apply(const kti_hpaths *p, size_t s, const uint8_t *c0, unsigned ends, unsigned m,
                  kti_u128 *y)
{
    const hp_step *st = &p->step[s];
    unsigned n = p->nslots;
    uint8_t c[HP_SLOTS];
    memcpy(c, c0, n);
    c[st->slot] = st->init;
    for (unsigned j = 0; j < st->nnb; j++)
        if (((m >> j) & 1u) && !join(c, n, st->slot, st->nb[j])) return false;
    for (unsigned f = 0; f < st->nfin; f++)
        if (!leave(c, n, st->fin[f], st->finrule[f], &ends)) return false;
    /* Each tour end of the half closes a TERM crossing's path. */
    if (ends > p->nterm) return false;
    /* Degree lookahead: a cell that needs more edges than its neighbours
     * to come can give is dead (from the cut outward most states are). */
    bool more = ends < p->nterm;
    for (unsigned i = 0; i < n; i++) {
        if (!((st->live >> i) & 1u)) continue;
        unsigned v = c[i], need = v == HP_FREE ? 2u : v == HP_FULL ? 0u : 1u;
        if (need != 0 && (v == HP_FREE || v == HP_TB || v >= HP_LABEL) && more && st->mayend[i])
            need--;
        if (need > st->room[i]) return false;
    }
    *y = encode(c, n) | (kti_u128)ends << HP_ENDS_SHIFT;
    return true;
}

/* The states step s reaches from x: y[m] for each mask m of earlier
 * neighbours whose bit is set in the result (masks in increasing order
 * are the order of ranks). */
static unsigned successors(const kti_hpaths *p, size_t s, kti_u128 x, kti_u128 *y)
{
    const hp_step *st = &p->step[s];
    uint8_t c[HP_SLOTS];
    decode(x, c, p->nslots);
    unsigned ends = (unsigned)(x >> HP_ENDS_SHIFT), full = 0, valid = 0;
    unsigned room = st->init == HP_FULL ? 0u : st->init == HP_FREE ? 2u : 1u;
    for (unsigned j = 0; j < st->nnb; j++) full |= (unsigned)(c[st->nb[j]] == HP_FULL) << j;
    for (unsigned m = 0; m < (1u << st->nnb); m++)
        if (!(m & full) && ((0x4332322132212110ull >> (4 * m)) & 15u) <= room && /* bits of m */
            apply(p, s, c, ends, m, &y[m]))
            valid |= 1u << m;
    return valid;
}

static inline size_t hash_u128(kti_u128 k, size_t mask)
{
    uint64_t h = ((uint64_t)k ^ (uint64_t)(k >> 64) * 0x9E3779B97F4A7C15u) * 0xD6E8FEB86659FD93u;
    return (size_t)(h >> 32 ^ h) & mask;
}

static bool layer_find(const hp_layer *l, kti_u128 k, size_t *at)
{
    if (l->slot == NULL) return false;
    for (size_t i = hash_u128(k, l->hmask);; i = (i + 1) & l->hmask) {
        uint32_t v = l->slot[i];
        if (v == 0) return false;
        if (l->key[v - 1] == k) {
            *at = v - 1;
            return true;
        }
    }
}

static uint64_t future(const hp_layer *l, kti_u128 k)
{
    size_t at;
    return layer_find(l, k, &at) ? l->fut[at] : 0;
}

/* Room for one more state and a table at most half full. */
static kt_status layer_grow(const kt_allocator *al, hp_layer *l)
{
    size_t bytes;
    if (l->n == l->cap) {
        size_t ncap = l->cap ? 2 * l->cap : 64;
        if (ncap >= UINT32_MAX || !kti_mul_ok(ncap, sizeof *l->key, &bytes)) return KT_ETOOBIG;
        kti_u128 *k2 = kti_alloc(al, bytes);
        if (k2 == NULL) return KT_ENOMEM;
        if (l->n) memcpy(k2, l->key, l->n * sizeof *k2);
        kti_free(al, l->key);
        l->key = k2;
        l->cap = ncap;
    }
    if (l->slot != NULL && 2 * (l->n + 1) <= l->hmask + 1) return KT_OK;
    size_t nslot = l->slot != NULL ? 2 * (l->hmask + 1) : 128;
    if (!kti_mul_ok(nslot, sizeof *l->slot, &bytes)) return KT_ETOOBIG;
    uint32_t *t = kti_calloc(al, nslot, sizeof *t);
    if (t == NULL) return KT_ENOMEM;
    for (size_t j = 0; j < l->n; j++) {
        size_t i = hash_u128(l->key[j], nslot - 1);
        while (t[i] != 0) i = (i + 1) & (nslot - 1);
        t[i] = (uint32_t)(j + 1);
    }
    kti_free(al, l->slot);
    l->slot = t;
    l->hmask = nslot - 1;
    return KT_OK;
}

/* The index of state k in layer l, added when new. */
static kt_status layer_put(const kt_allocator *al, hp_layer *l, kti_u128 k, uint32_t *at)
{
    KTI_TRY(layer_grow(al, l));
    size_t i = hash_u128(k, l->hmask);
    for (; l->slot[i] != 0; i = (i + 1) & l->hmask)
        if (l->key[l->slot[i] - 1] == k) {
            *at = l->slot[i] - 1;
            return KT_OK;
        }
    l->key[l->n] = k;
    l->slot[i] = (uint32_t)(l->n + 1);
    *at = (uint32_t)l->n++;
    return KT_OK;
}

/* The knight's neighbours of local cell v inside the half. */
static unsigned neighbours(uint32_t W, uint32_t D, unsigned v, unsigned *out)
{
    static const int mv[8][2] = {{-2, -1}, {2, -1}, {-1, -2}, {1, -2},
                                 {-2, 1},  {2, 1},  {-1, 2},  {1, 2}};
    unsigned n = 0;
    for (unsigned k = 0; k < 8; k++) {
        int x = (int)(v % W) + mv[k][0], r = (int)(v / W) + mv[k][1];
        if (x >= 0 && x < (int)W && r >= 0 && r < (int)D) out[n++] = (unsigned)(r * (int)W + x);
    }
    return n;
}

/* The cells in order: row by row from the cut (columns: column by column,
 * each from the cut outward).  *width: the most cells live at once. */
static void cell_order(uint32_t W, uint32_t D, bool columns, uint8_t *ord, uint8_t *pos,
                       unsigned *last, unsigned *width)
{
    unsigned n = W * D, i = 0;
    for (unsigned a = 0; a < (columns ? W : D); a++)
        for (unsigned b = 0; b < (columns ? D : W); b++) ord[i++] = (uint8_t)(columns ? b * W + a : a * W + b);
    for (unsigned s = 0; s < n; s++) pos[ord[s]] = (uint8_t)s;
    *width = 0;
    for (unsigned s = 0; s < n; s++) {
        unsigned nb[8], k = neighbours(W, D, ord[s], nb), live = 0;
        last[s] = s;
        for (unsigned j = 0; j < k; j++)
            if (pos[nb[j]] > last[s]) last[s] = pos[nb[j]];
        for (unsigned t = 0; t <= s; t++) live += last[t] >= s;
        if (live > *width) *width = live;
    }
}

/* The steps, in whichever order keeps the frontier narrower: row by row
 * from the cut on wide shallow halves, column by column on deep ones
 * (7x5: 11 cells live against 15, which shrinks the layers the most).  A
 * cell leaves after its last neighbour's step. */
static kt_status plan(kti_hpaths *p, uint32_t W, uint32_t D, const uint8_t *rule, bool open,
                      uint64_t key)
{
    unsigned n = W * D, ncb = W * (D >= 2 ? 2u : 1u), wr, wc;
    unsigned last[HP_CELLS];
    uint8_t ord[HP_CELLS], pos[HP_CELLS], slot[HP_CELLS];
    cell_order(W, D, false, ord, pos, last, &wr);
    cell_order(W, D, true, ord, pos, last, &wc);
    if (wr <= wc) cell_order(W, D, false, ord, pos, last, &wr);
    uint32_t live = 0;
    for (unsigned s = 0; s < n; s++) {
        hp_step *st = &p->step[s];
        unsigned v = ord[s], nb[8], k = neighbours(W, D, v, nb);
        unsigned slotno = 0;
        while (slotno < HP_SLOTS && ((live >> slotno) & 1u)) slotno++;
        if (slotno == HP_SLOTS) return KT_EUNSUPPORTED;
        live |= 1u << slotno;
        if (slotno + 1 > p->nslots) p->nslots = slotno + 1;
        slot[s] = (uint8_t)slotno;
        st->cell = (uint8_t)v;
        st->slot = (uint8_t)slotno;
        st->init = HP_FREE;
        if (v < ncb) {
            unsigned code = (unsigned)(key >> (4 * v)) & 15u;
            if (code == 0) st->init = HP_FULL;          /* two steps across: a trivial path */
            else if (open && code == KTI_HDP_TERM) {
                st->init = HP_TB;
                p->nterm++;
            }
            else if (code >= 2) {
                if (code - 2 >= HP_TB - HP_PAIR) return KT_EINVAL; /* never: 8 pairs at most */
                st->init = (uint8_t)(HP_PAIR + code - 2);
            }
        }
        for (unsigned j = 0; j < k; j++) {
            if (pos[nb[j]] >= s) continue;
            if (st->nnb == 4) return KT_EUNSUPPORTED; /* never: 4 earlier neighbours at most */
            st->nbcell[st->nnb] = nb[j];
            st->nb[st->nnb++] = slot[pos[nb[j]]];
        }
        for (unsigned t = 0; t <= s; t++) {
            if (last[t] != s) continue;
            if (st->nfin == 8) return KT_EUNSUPPORTED; /* never on a knight's half */
            st->fin[st->nfin] = slot[t];
            st->finrule[st->nfin++] = open ? rule[ord[t]] : 0;
            live &= ~(1u << slot[t]);
        }
        st->live = live;
        /* The lookahead after the step: each live cell's neighbours to come. */
        for (unsigned t = 0; t <= s; t++) {
            if (last[t] <= s) continue;
            unsigned nb2[8], k2 = neighbours(W, D, ord[t], nb2), later = 0;
            for (unsigned j = 0; j < k2; j++) later += pos[nb2[j]] > s;
            st->room[slot[t]] = (uint8_t)later;
            st->mayend[slot[t]] = open && rule[ord[t]] != 0;
        }
    }
    return KT_OK;
}

static void layer_free_succ(const kt_allocator *al, hp_layer *l)
{
    kti_free(al, l->succ);
    kti_free(al, l->soff);
    l->succ = NULL;
    l->soff = NULL;
}

static void layer_free(const kt_allocator *al, hp_layer *l)
{
    kti_free(al, l->key);
    kti_free(al, l->fut);
    kti_free(al, l->slot);
    layer_free_succ(al, l);
    memset(l, 0, sizeof *l);
}

void kti_hpaths_free(kti_hpaths *p)
{
    if (p == NULL) return;
    kt_allocator al = p->al;
    for (unsigned s = 0; s <= p->ncells; s++) layer_free(&al, &p->layer[s]);
    kti_free(&al, p);
}

/* Layer s + 1: the states step s reaches from layer s, distinct; layer s
 * keeps each state's successors for the backward pass. */
static kt_status forward(kti_hpaths *p, size_t s, uint64_t budget)
{
    hp_layer *in = &p->layer[s];
    hp_layer *out = &p->layer[s + 1];
    size_t cap = 0, n = 0, bytes;
    in->soff = kti_alloc(&p->al, (in->n + 1) * sizeof *in->soff);
    if (in->soff == NULL) return KT_ENOMEM;
    for (size_t i = 0; i < in->n; i++) {
        kti_u128 y[16];
        in->soff[i] = n;
        for (unsigned valid = successors(p, s, in->key[i], y); valid != 0; valid &= valid - 1) {
            if (n == cap) {
                size_t ncap = cap ? 2 * cap : 64;
                if (!kti_mul_ok(ncap, sizeof *in->succ, &bytes)) return KT_ETOOBIG;
                uint32_t *s2 = kti_alloc(&p->al, bytes);
                if (s2 == NULL) return KT_ENOMEM;
                if (n) memcpy(s2, in->succ, n * sizeof *s2);
                kti_free(&p->al, in->succ);
                in->succ = s2;
                cap = ncap;
            }
            KTI_TRY(layer_put(&p->al, out, y[__builtin_ctz(valid)], &in->succ[n]));
            n++;
            if (budget != 0 && out->n > budget) return KT_ELIMIT;
        }
    }
    in->soff[in->n] = n;
    p->states += out->n;
    out->fut = kti_calloc(&p->al, out->n ? out->n : 1, sizeof *out->fut);
    return out->fut == NULL ? KT_ENOMEM : KT_OK;
}

/* The completions of layer s's states from layer s + 1's. */
static kt_status backward(kti_hpaths *p, size_t s)
{
    hp_layer *in = &p->layer[s];
    const hp_layer *out = &p->layer[s + 1];
    for (size_t i = 0; i < in->n; i++) {
        uint64_t f = 0;
        for (size_t j = in->soff[i]; j < in->soff[i + 1]; j++)
            if (__builtin_add_overflow(f, out->fut[in->succ[j]], &f)) return KT_EOVERFLOW;
        in->fut[i] = f;
    }
    layer_free_succ(&p->al, in);
    return KT_OK;
}

kt_status kti_hpaths_new(kti_hpaths **out, uint32_t width, uint32_t depth, bool open,
                         const uint8_t *rule, uint64_t key, uint64_t budget,
                         const kt_allocator *al)
{
    if (out == NULL) return KT_EINVAL;
    *out = NULL;
    if (width == 0 || depth == 0 || (open && rule == NULL)) return KT_EINVAL;
    if ((uint64_t)width * depth > HP_CELLS || width > KT_HALFTOUR_MAX_WIDTH) return KT_EUNSUPPORTED;
    al = kti_allocator_or_default(al);
    kti_hpaths *p = kti_calloc(al, 1, sizeof *p);
    if (p == NULL) return KT_ENOMEM;
    p->al = *al;
    p->W = width;
    p->D = depth;
    p->ncells = width * depth;
    kt_status st = plan(p, width, depth, rule, open, key);
    if (st == KT_OK) {
        p->layer[0].n = 1;
        p->layer[0].key = kti_calloc(al, 1, sizeof *p->layer[0].key);
        p->layer[0].fut = kti_calloc(al, 1, sizeof *p->layer[0].fut);
        if (p->layer[0].key == NULL || p->layer[0].fut == NULL) st = KT_ENOMEM;
    }
    for (size_t s = 0; st == KT_OK && s < p->ncells; s++) st = forward(p, s, budget);
    if (st == KT_OK) {
        /* Every cell has left: the one state left is the empty one. */
        hp_layer *end = &p->layer[p->ncells];
        kti_u128 slots = ((kti_u128)1 << HP_ENDS_SHIFT) - 1;
        for (size_t i = 0; i < end->n; i++) end->fut[i] = (end->key[i] & slots) == 0;
    }
    for (size_t s = p->ncells; st == KT_OK && s-- > 0;) st = backward(p, s);
    if (st != KT_OK) {
        kti_hpaths_free(p);
        return st;
    }
    p->total = p->layer[0].fut[0];
    *out = p;
    return KT_OK;
}

uint64_t kti_hpaths_count(const kti_hpaths *p) { return p->total; }

uint64_t kti_hpaths_states(const kti_hpaths *p) { return p->states; }

static void add_edge(uint8_t (*nbr)[2], unsigned a, unsigned b)
{
    nbr[a][nbr[a][0] != HP_NONE] = (uint8_t)b;
    nbr[b][nbr[b][0] != HP_NONE] = (uint8_t)a;
}

kt_status kti_hpaths_unrank(const kti_hpaths *p, uint64_t index, uint8_t (*nbr)[2])
{
    if (p == NULL || nbr == NULL || index >= p->total) return KT_EINVAL;
    memset(nbr, HP_NONE, (size_t)p->ncells * sizeof *nbr);
    kti_u128 x = 0;
    for (size_t s = 0; s < p->ncells; s++) {
        const hp_step *st = &p->step[s];
        kti_u128 y[16];
        unsigned valid = successors(p, s, x, y), m = 16;
        for (; valid != 0; valid &= valid - 1) {
            m = (unsigned)__builtin_ctz(valid);
            uint64_t f = future(&p->layer[s + 1], y[m]);
            if (index < f) break;
            index -= f;
        }
        if (valid == 0) return KT_EINVAL; /* never: the futures sum to the total */
        for (unsigned j = 0; j < st->nnb; j++)
            if ((m >> j) & 1u) add_edge(nbr, st->cell, st->nbcell[j]);
        x = y[m];
    }
    return KT_OK;
}

kt_status kti_hpaths_rank(const kti_hpaths *p, const uint8_t (*nbr)[2], uint64_t *index)
{
    if (p == NULL || nbr == NULL || index == NULL) return KT_EINVAL;
    kti_u128 x = 0;
    uint64_t r = 0;
    size_t edges = 0, given = 0;
    for (size_t v = 0; v < p->ncells; v++) given += (nbr[v][0] != HP_NONE) + (nbr[v][1] != HP_NONE);
    for (size_t s = 0; s < p->ncells; s++) {
        const hp_step *st = &p->step[s];
        unsigned want = 0;
        for (unsigned j = 0; j < st->nnb; j++) {
            unsigned u = st->nbcell[j];
            if (nbr[st->cell][0] == u || nbr[st->cell][1] == u) {
                want |= 1u << j;
                edges++;
            }
        }
        kti_u128 y[16];
        unsigned valid = successors(p, s, x, y);
        if (!((valid >> want) & 1u)) return KT_ENOTOUR;
        for (valid &= (1u << want) - 1; valid != 0; valid &= valid - 1)
            r += future(&p->layer[s + 1], y[__builtin_ctz(valid)]);
        x = y[want];
    }
    /* Every given edge joined a cell to an earlier neighbour of the half. */
    if ((x & (((kti_u128)1 << HP_ENDS_SHIFT) - 1)) != 0 || 2 * edges != given) return KT_ENOTOUR;
    *index = r;
    return KT_OK;
}

unsigned kti_hpaths_split_key(uint64_t key, unsigned ncb, bool merged, uint64_t *sub)
{
    uint8_t code[KT_HALFTOUR_MAX_CELLS];
    unsigned nterm = 0, n = 0;
    if (ncb > KT_HALFTOUR_MAX_CELLS) return 0;
    for (unsigned i = 0; i < ncb; i++) {
        code[i] = (uint8_t)((key >> (4 * i)) & 15u);
        nterm += code[i] == KTI_HDP_TERM;
    }
    if (!merged || nterm != 2) {
        sub[0] = key;
        return 1;
    }
    /* The TERM pair is one path pair like the others (30: no label, as in
     * kti_hdp_merge_ends); each pair in turn leads to the two tour ends. */
    for (unsigned i = 0; i < ncb; i++)
        if (code[i] == KTI_HDP_TERM) code[i] = 30;
    for (unsigned i = 0; i < ncb; i++) {
        unsigned v = code[i];
        bool first = v >= 2;
        for (unsigned j = 0; j < i && first; j++) first = code[j] != v;
        if (!first) continue;
        uint8_t c2[KT_HALFTOUR_MAX_CELLS];
        for (unsigned j = 0; j < ncb; j++) c2[j] = code[j] == v ? (uint8_t)KTI_HDP_TERM : code[j];
        sub[n++] = kti_hdp_pack_open(c2, ncb, false);
    }
    return n;
}
