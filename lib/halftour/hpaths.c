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
 * The forward pass keeps the reachable states of every layer and their
 * successors, the backward pass their numbers of completions; unranking
 * walks forward taking each step's edges in a fixed order (subsets of the
 * earlier neighbours by increasing bit mask), ranking follows given edges.
 * Most reachable states have no completion (on 8x4 halves of 8x8, 95 %),
 * so a step refuses what it can see cannot finish: a live cell needing
 * more edges than its neighbours to come can give (those with two steps
 * across give none); a cell to come that its neighbours cannot serve (it
 * has too few neighbours to come, and too few live ones still taking an
 * edge); and a colour imbalance (the knight's graph is bipartite, so the
 * edges still to come need as many ends on white cells as on black, but
 * for the tour ends still to place).  On 8x4 halves of 8x8 the latter two
 * cut the states by a quarter, on 7x5 halves of 7x9 by a third; the rest
 * die of how their paths connect.
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
#define HP_CRIT 16u        /* cells to come checked from their side, at most */

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
    /* The colour balance after the step: the live slots on white cells,
     * and the edges the cells to come need, white minus black. */
    uint32_t white;
    int fdiff;
    /* Cells to come with fewer neighbours to come than edges to take:
     * their live neighbours (slots) must supply the rest. */
    uint8_t ncrit;
    uint8_t critneed[HP_CRIT], critfut[HP_CRIT], critend[HP_CRIT];
    uint32_t critnb[HP_CRIT];
} hp_step;

/* The programme's states, all layers in one array (layer s holds states
 * lo[s] .. lo[s + 1] in the order found), with each state's successors as
 * the forward pass found them (succ[soff[i] .. soff[i + 1]), in the order
 * of their edge masks), so that neither the backward pass nor a rank or an
 * unrank computes a lookup again: one hash table, reused layer by layer,
 * serves only the forward pass.  A handful of arrays that double, instead
 * of five per layer: allocation and fresh pages were a quarter of a
 * programme's time when each layer had its own. */
struct kti_hpaths {
    kt_allocator al;
    uint32_t W, D;
    unsigned ncells;
    hp_step step[HP_CELLS];
    uint32_t lo[HP_CELLS + 2];
    kti_u128 *key;
    uint64_t *fut;         /* completions of each state */
    uint32_t *soff, *succ;
    size_t kcap, kcap_soff, scap, nsucc;
    uint32_t *slot;        /* the forward pass's table: hmask + 1 entries (table_reset) */
    size_t hmask;
    unsigned nterm;        /* TERM crossings of the key: the half's tour ends */
    unsigned nslots;       /* slots ever used (the codes past them stay 0) */
    uint64_t total, states;
};

/* Slot i holds bits 5i .. 5i + 4.  Slots 0 to 11 are packed in 64-bit
 * words and the rest apart (a shift of 128 bits costs a branch or
 * several instructions; halves 8 wide, taken by columns, use about 11
 * slots). */
static void decode(kti_u128 k, uint8_t *c, unsigned n)
{
    uint64_t lo = (uint64_t)k;
    unsigned m = n < 12 ? n : 12;
    for (unsigned i = 0; i < m; i++, lo >>= 5) c[i] = (uint8_t)(lo & 31u);
    if (n > 12) {
        uint64_t hi = (uint64_t)(k >> 60);
        for (unsigned i = 12; i < n; i++, hi >>= 5) c[i] = (uint8_t)(hi & 31u);
    }
}

/* Labels renumbered in slot order, so that equal states have equal keys. */
static kti_u128 encode(const uint8_t *c, unsigned n)
{
    uint8_t map[32] = {0}, d[HP_SLOTS];
    unsigned next = HP_LABEL;
    for (unsigned i = 0; i < n; i++) {
        unsigned v = c[i];
        if (v >= HP_LABEL) {
            if (map[v] == 0) map[v] = (uint8_t)next++;
            v = map[v];
        }
        d[i] = (uint8_t)v;
    }
    uint64_t lo = 0, hi = 0;
    for (unsigned i = n < 12 ? n : 12; i-- > 0;) lo = lo << 5 | d[i];
    for (unsigned i = n; i-- > 12;) hi = hi << 5 | d[i];
    return (kti_u128)hi << 60 | lo;
}

/* A state being stepped: its codes, and where each label is (the two
 * slots of its path's open ends), so that finding a path's other end is a
 * lookup instead of a scan.  A label lives on exactly two slots until a
 * step joins or ends its path, when it vanishes from both; so the places
 * of the decoded state's labels stay true in every step tried from it, and
 * each step's new labels (from `fresh` on, past the decoded ones) are
 * written before they are read. */
typedef struct hp_work {
    uint8_t c[HP_SLOTS];
    uint8_t at[32][2];
    unsigned fresh;
} hp_work;

static inline unsigned other_end(const hp_work *w, unsigned v, unsigned a)
{
    return w->at[v][0] == a ? w->at[v][1] : w->at[v][0];
}

static bool closes(unsigned a, unsigned b)
{
    return (a == b && a >= HP_PAIR && a < HP_TB) || (a == HP_TB && b == HP_TE) ||
           (a == HP_TE && b == HP_TB);
}

/* An edge between the cells of slots a and b, in the codes c of a step
 * from w's decoded state. */
static inline bool join(hp_work *w, uint8_t *c, unsigned a, unsigned b)
{
    unsigned ca = c[a], cb = c[b];
    if (ca == HP_FULL || cb == HP_FULL) return false;
    if (ca >= HP_LABEL && ca == cb) return false; /* a cycle */
    /* Each side's far end: an open slot (itself when it had no edge), or
     * a closed end's kind. */
    unsigned fa = ca == HP_FREE ? a : ca >= HP_LABEL ? other_end(w, ca, a) : HP_NONE;
    unsigned fb = cb == HP_FREE ? b : cb >= HP_LABEL ? other_end(w, cb, b) : HP_NONE;
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
    /* At most 12 labels in 25 slots, and 4 joins a step: below 32. */
    unsigned fresh = w->fresh++;
    c[fa] = c[fb] = (uint8_t)fresh;
    w->at[fresh][0] = (uint8_t)fa;
    w->at[fresh][1] = (uint8_t)fb;
    return true;
}

/* The cell of slot f leaves under tour-end rule `rule` (0 never a tour
 * end, 1 may be, 2 must be). */
static inline bool leave(const hp_work *w, uint8_t *c, unsigned f, unsigned rule, unsigned *ends)
{
    unsigned cf = c[f];
    c[f] = HP_FREE;
    if (cf == HP_FULL) return rule != 2;
    if (cf == HP_FREE || rule == 0) return false; /* degree 0; or 1 and no tour end */
    /* Degree 1: a tour end, closing its path's end here. */
    ++*ends;
    if (cf >= HP_LABEL) {
        c[other_end(w, cf, f)] = HP_TE;
        return true;
    }
    return cf == HP_TB; /* a pair must reach its partner; TE: the whole tour */
}

/* Step s from the decoded state w0 (tour ends so far: ends) taking the
 * earlier neighbours of mask m. */
static inline bool apply(const kti_hpaths *p, size_t s, hp_work *w0, unsigned ends, unsigned m,
                         kti_u128 *y)
{
    const hp_step *st = &p->step[s];
    unsigned n = p->nslots, fresh0 = w0->fresh;
    /* The step's codes apart: the decoded ones serve the next mask. */
    uint8_t c[HP_SLOTS];
    memcpy(c, w0->c, HP_SLOTS);
    bool ok = true;
    c[st->slot] = st->init;
    for (unsigned j = 0; ok && j < st->nnb; j++)
        if ((m >> j) & 1u) ok = join(w0, c, st->slot, st->nb[j]);
    for (unsigned f = 0; ok && f < st->nfin; f++) ok = leave(w0, c, st->fin[f], st->finrule[f], &ends);
    /* Each tour end of the half closes a TERM crossing's path. */
    ok = ok && ends <= p->nterm;
    /* Degree lookahead: a cell that needs more edges than its neighbours
     * to come can give is dead (from the cut outward most states are). */
    bool more = ends < p->nterm;
    int diff = st->fdiff;
    uint32_t needy = 0;
    for (uint32_t live = st->live; ok && live != 0; live &= live - 1) {
        unsigned i = (unsigned)__builtin_ctz(live);
        unsigned v = c[i], need = v == HP_FREE ? 2u : v == HP_FULL ? 0u : 1u;
        diff += (st->white >> i) & 1u ? (int)need : -(int)need;
        needy |= (uint32_t)(need != 0) << i;
        if (need != 0 && (v == HP_FREE || v == HP_TB || v >= HP_LABEL) && more && st->mayend[i])
            need--;
        ok = need <= st->room[i];
    }
    /* Colour balance: every edge still to come joins a white cell to a
     * black one, so the two colours' needs are equal but for the tour
     * ends still to place, each of which takes one from its colour.  With
     * t of them, |diff| <= t and diff + t even. */
    if (ok) {
        int t = (int)(p->nterm - ends);
        ok = diff <= t && -diff <= t && ((diff + t) & 1) == 0;
    }
    for (unsigned k = 0; ok && k < st->ncrit; k++) {
        uint32_t x = st->critnb[k] & needy;
        unsigned have = st->critfut[k] + (x != 0) + ((x & (x - 1)) != 0);
        ok = have + (more && st->critend[k]) >= st->critneed[k];
    }
    if (ok) *y = encode(c, n) | (kti_u128)ends << HP_ENDS_SHIFT;
    w0->fresh = fresh0; /* the step's new labels are forgotten */
    return ok;
}

/* The states step s reaches from x: y[m] for each mask m of earlier
 * neighbours whose bit is set in the result (masks in increasing order
 * are the order of ranks). */
static unsigned successors(const kti_hpaths *p, size_t s, kti_u128 x, kti_u128 *y)
{
    const hp_step *st = &p->step[s];
    hp_work w;
    memset(w.c, 0, sizeof w.c);
    decode(x, w.c, p->nslots);
    w.fresh = HP_LABEL;
    for (unsigned i = 0; i < p->nslots; i++) {
        unsigned v = w.c[i];
        if (v < HP_LABEL) continue;
        /* encode numbers labels in slot order: a label's first slot is
         * where it is new */
        if (v == w.fresh) w.at[w.fresh++][0] = (uint8_t)i;
        else w.at[v][1] = (uint8_t)i;
    }
    unsigned ends = (unsigned)(x >> HP_ENDS_SHIFT), full = 0, valid = 0;
    unsigned room = st->init == HP_FULL ? 0u : st->init == HP_FREE ? 2u : 1u;
    for (unsigned j = 0; j < st->nnb; j++) full |= (unsigned)(w.c[st->nb[j]] == HP_FULL) << j;
    for (unsigned m = 0; m < (1u << st->nnb); m++)
        if (!(m & full) && ((0x4332322132212110ull >> (4 * m)) & 15u) <= room && /* bits of m */
            apply(p, s, &w, ends, m, &y[m]))
            valid |= 1u << m;
    return valid;
}

static inline size_t hash_u128(kti_u128 k, size_t mask)
{
    uint64_t h = ((uint64_t)k ^ (uint64_t)(k >> 64) * 0x9E3779B97F4A7C15u) * 0xD6E8FEB86659FD93u;
    return (size_t)(h >> 32 ^ h) & mask;
}

/* Doubles *arr (n used entries of `size` bytes, *cap of them) until it
 * holds `need`. */
static kt_status grow(const kt_allocator *al, void **arr, size_t *cap, size_t n, size_t need,
                      size_t size)
{
    if (need <= *cap) return KT_OK;
    size_t ncap = *cap ? *cap : 256, bytes;
    while (ncap < need) ncap *= 2;
    if (ncap > UINT32_MAX || !kti_mul_ok(ncap, size, &bytes)) return KT_ETOOBIG;
    void *a = kti_alloc(al, bytes);
    if (a == NULL) return KT_ENOMEM;
    if (n) memcpy(a, *arr, n * size);
    kti_free(al, *arr);
    *arr = a;
    *cap = ncap;
    return KT_OK;
}

/* The table holds global state indices + 1, so an entry below the layer
 * being built (from `first` on) is empty: a new layer needs no clearing,
 * only a larger table when it may hold more than half as many states. */
static kt_status table_reset(kti_hpaths *p, size_t expect)
{
    size_t nslot = 128;
    while (nslot < 2 * expect) nslot *= 2;
    if (p->slot != NULL && nslot <= p->hmask + 1) return KT_OK;
    uint32_t *t = kti_calloc(&p->al, nslot, sizeof *t);
    if (t == NULL) return KT_ENOMEM;
    kti_free(&p->al, p->slot);
    p->slot = t;
    p->hmask = nslot - 1;
    return KT_OK;
}

/* Doubles the table of the layer from `first` on (n states so far). */
static kt_status table_double(kti_hpaths *p, uint32_t first, size_t n)
{
    size_t nslot = 2 * (p->hmask + 1);
    uint32_t *t = kti_calloc(&p->al, nslot, sizeof *t);
    if (t == NULL) return KT_ENOMEM;
    for (size_t j = first; j < first + n; j++) {
        size_t i = hash_u128(p->key[j], nslot - 1);
        while (t[i] != 0) i = (i + 1) & (nslot - 1);
        t[i] = (uint32_t)(j + 1);
    }
    kti_free(&p->al, p->slot);
    p->slot = t;
    p->hmask = nslot - 1;
    return KT_OK;
}

/* The index of state k in the layer being built (from `first`, *n states
 * so far), added when new. */
static kt_status layer_put(kti_hpaths *p, uint32_t first, size_t *n, kti_u128 k, uint32_t *at)
{
    if (2 * (*n + 1) > p->hmask + 1) KTI_TRY(table_double(p, first, *n));
    size_t i = hash_u128(k, p->hmask);
    for (; p->slot[i] > first; i = (i + 1) & p->hmask)
        if (p->key[p->slot[i] - 1] == k) {
            *at = p->slot[i] - 1;
            return KT_OK;
        }
    size_t at_new = first + *n;
    KTI_TRY(grow(&p->al, (void **)&p->key, &p->kcap, at_new, at_new + 1, sizeof *p->key));
    p->key[at_new] = k;
    p->slot[i] = (uint32_t)(at_new + 1);
    *at = (uint32_t)at_new;
    ++*n;
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
        st->white = 0;
        st->fdiff = 0;
        st->ncrit = 0;
        for (unsigned t = s + 1; t < n; t++) {
            unsigned c = ord[t], need = 2;
            if (c < ncb) {
                unsigned code = (unsigned)(key >> (4 * c)) & 15u;
                need = code == 0 ? 0u : code == 1 ? 2u : 1u;
            }
            st->fdiff += (c % W + c / W) % 2 == 0 ? (int)need : -(int)need;
            unsigned nb2[8], k2 = neighbours(W, D, c, nb2), fut = 0;
            uint32_t lnb = 0;
            for (unsigned j = 0; j < k2; j++) {
                bool full = nb2[j] < ncb && ((key >> (4 * nb2[j])) & 15u) == 0;
                if (pos[nb2[j]] > s) fut += !full;
                else lnb |= 1u << slot[pos[nb2[j]]];
            }
            if (fut < need && st->ncrit < HP_CRIT) {
                st->critneed[st->ncrit] = (uint8_t)need;
                st->critfut[st->ncrit] = (uint8_t)fut;
                st->critend[st->ncrit] = open && rule[c] != 0;
                st->critnb[st->ncrit++] = lnb;
            }
        }
        /* The lookahead after the step: each live cell's neighbours to come. */
        for (unsigned t = 0; t <= s; t++) {
            if (last[t] <= s) continue;
            unsigned nb2[8], k2 = neighbours(W, D, ord[t], nb2), later = 0;
            /* (A cell to come with two steps across takes no edge.) */
            for (unsigned j = 0; j < k2; j++)
                later += pos[nb2[j]] > s && !(nb2[j] < ncb && ((key >> (4 * nb2[j])) & 15u) == 0);
            st->room[slot[t]] = (uint8_t)later;
            if ((ord[t] % W + ord[t] / W) % 2 == 0) st->white |= 1u << slot[t];
            st->mayend[slot[t]] = open && rule[ord[t]] != 0;
        }
    }
    return KT_OK;
}

void kti_hpaths_free(kti_hpaths *p)
{
    if (p == NULL) return;
    kt_allocator al = p->al;
    kti_free(&al, p->key);
    kti_free(&al, p->fut);
    kti_free(&al, p->soff);
    kti_free(&al, p->succ);
    kti_free(&al, p->slot);
    kti_free(&al, p);
}

/* Layer s + 1: the states step s reaches from layer s, distinct, and the
 * successors of layer s's states. */
static kt_status forward(kti_hpaths *p, size_t s, uint64_t budget)
{
    uint32_t first = p->lo[s + 1];
    size_t n = 0, prev = p->lo[s + 1] - p->lo[s];
    /* A layer is seldom more than twice the last: size the table for that
     * (it doubles when not). */
    KTI_TRY(table_reset(p, 2 * prev));
    KTI_TRY(grow(&p->al, (void **)&p->soff, &p->kcap_soff, s ? p->lo[s] + 1 : 0, first + 1,
                 sizeof *p->soff));
    for (uint32_t i = p->lo[s]; i < first; i++) {
        kti_u128 y[16];
        p->soff[i] = (uint32_t)p->nsucc;
        unsigned valid = successors(p, s, p->key[i], y);
        KTI_TRY(grow(&p->al, (void **)&p->succ, &p->scap, p->nsucc, p->nsucc + 16, sizeof *p->succ));
        for (; valid != 0; valid &= valid - 1) {
            KTI_TRY(layer_put(p, first, &n, y[__builtin_ctz(valid)], &p->succ[p->nsucc]));
            p->nsucc++;
            if (budget != 0 && n > budget) return KT_ELIMIT;
        }
    }
    p->soff[first] = (uint32_t)p->nsucc;
    if ((uint64_t)first + n > UINT32_MAX - 1) return KT_ETOOBIG;
    p->lo[s + 2] = (uint32_t)(first + n);
    p->states += n;
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
    /* Layer 0: the one empty state. */
    if (st == KT_OK) st = grow(al, (void **)&p->key, &p->kcap, 0, 1, sizeof *p->key);
    if (st == KT_OK) {
        p->key[0] = 0;
        p->lo[0] = 0;
        p->lo[1] = 1;
    }
    for (size_t s = 0; st == KT_OK && s < p->ncells; s++) st = forward(p, s, budget);
    uint32_t nst = p->lo[p->ncells + 1];
    size_t bytes = 0;
    if (st == KT_OK && !kti_mul_ok(nst, sizeof *p->fut, &bytes)) st = KT_ETOOBIG;
    if (st == KT_OK && (p->fut = kti_alloc(al, bytes)) == NULL) st = KT_ENOMEM;
    if (st == KT_OK) {
        /* Every cell has left: the one state left is the empty one. */
        kti_u128 slots = ((kti_u128)1 << HP_ENDS_SHIFT) - 1;
        for (uint32_t i = p->lo[p->ncells]; i < nst; i++) p->fut[i] = (p->key[i] & slots) == 0;
        /* Backward: each state's completions from its successors'. */
        for (uint32_t i = p->lo[p->ncells]; st == KT_OK && i-- > 0;) {
            uint64_t f = 0;
            for (uint32_t j = p->soff[i]; j < p->soff[i + 1]; j++)
                if (__builtin_add_overflow(f, p->fut[p->succ[j]], &f)) st = KT_EOVERFLOW;
            p->fut[i] = f;
        }
    }
    if (st != KT_OK) {
        kti_hpaths_free(p);
        return st;
    }
    /* The forward pass's table is not needed after it. */
    kti_free(al, p->slot);
    p->slot = NULL;
    p->total = p->fut[0];
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
    uint32_t x = 0;
    for (size_t s = 0; s < p->ncells; s++) {
        const hp_step *st = &p->step[s];
        /* The successors' masks, in the order of succ (the states are kept). */
        kti_u128 y[16];
        unsigned valid = successors(p, s, p->key[x], y), m = 16;
        uint32_t j = p->soff[x];
        for (; valid != 0; valid &= valid - 1, j++) {
            m = (unsigned)__builtin_ctz(valid);
            uint64_t f = p->fut[p->succ[j]];
            if (index < f) break;
            index -= f;
        }
        if (valid == 0) return KT_EINVAL; /* never: the futures sum to the total */
        for (unsigned k = 0; k < st->nnb; k++)
            if ((m >> k) & 1u) add_edge(nbr, st->cell, st->nbcell[k]);
        x = p->succ[j];
    }
    return KT_OK;
}

kt_status kti_hpaths_rank(const kti_hpaths *p, const uint8_t (*nbr)[2], uint64_t *index)
{
    if (p == NULL || nbr == NULL || index == NULL) return KT_EINVAL;
    uint32_t x = 0;
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
        unsigned valid = successors(p, s, p->key[x], y);
        if (!((valid >> want) & 1u)) return KT_ENOTOUR;
        uint32_t j = p->soff[x];
        for (valid &= (1u << want) - 1; valid != 0; valid &= valid - 1) r += p->fut[p->succ[j++]];
        x = p->succ[j];
    }
    /* Every given edge joined a cell to an earlier neighbour of the half. */
    kti_u128 slots = ((kti_u128)1 << HP_ENDS_SHIFT) - 1;
    if ((p->key[x] & slots) != 0 || 2 * edges != given) return KT_ENOTOUR;
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
