/* SPDX-License-Identifier: MIT */
/*
 * Rails, the rail graph, join, shatter and obfuscate (Parberry 2020, "Tourneys
 * and the Fast Generation and Obfuscation of Closed Knight's Tours"; definitions in
 * include/knight/rails.h).
 *
 * Representation: the tourney's byte per cell holds two neighbour moves
 * as nibbles.  A rail (u, a, b) with a, b in 4-7 has u' = u+b, v = u+a,
 * w = u+a+b; it is a rail when u and u' carry move a and neither u nor v
 * carries move b.  Switching it is four nibble replacements.
 *
 * Geometry: a move from u is checked against the board with two small
 * per-column and per-row masks of the downward moves that stay on the
 * board; holes carry the byte 0xFF, which contains no move, so a rail
 * test reading a hole fails by itself.
 */
#include "count/count_internal.h"
#include "internal.h"

#include <knight/generate.h>

#include "util/util.h"
#include "rails_internal.h"

#define NO_LABEL UINT32_MAX

/* ------------------------------------------------------------------ */
/* nibble helpers                                                       */

static inline bool has_move(uint8_t p, unsigned m)
{
    return (p & 15u) == m || (unsigned)(p >> 4) == m;
}

/* Replace move `old` of pair p by `nw`, keeping low <= high. */
static inline uint8_t pair_replace(uint8_t p, unsigned old, unsigned nw)
{
    unsigned lo = p & 15u, hi = (unsigned)p >> 4;
    unsigned other = lo == old ? hi : lo;
    return other < nw ? (uint8_t)((nw << 4) | other) : (uint8_t)((other << 4) | nw);
}

/* Board geometry for fast scans. */
typedef struct geo {
    size_t n;            /* cells */
    uint32_t w, h;
    int64_t off[8];
    uint8_t *colmask;    /* per column: bit m (4-7) when x + dx[m] stays on the board */
    uint8_t *rowmask;    /* per row: bit m (4-7) when y + dy[m] stays on the board */
    const kt_allocator *al;
} geo;

static kt_status geo_init(geo *G, const kt_graph *g)
{
    G->n = g->ncells;
    G->w = g->width;
    G->h = g->height;
    G->al = &g->alloc;
    for (int m = 0; m < 8; m++) G->off[m] = g->off[m];
    G->colmask = kti_alloc(&g->alloc, (size_t)g->width + (size_t)g->height);
    if (G->colmask == NULL) return KT_ENOMEM;
    G->rowmask = G->colmask + g->width;
    for (uint32_t x = 0; x < g->width; x++) {
        unsigned bits = 0;
        for (int m = 4; m < 8; m++) {
            int64_t nx = (int64_t)x + g->dx[m];
            if (nx >= 0 && nx < (int64_t)g->width) bits |= 1u << m;
        }
        G->colmask[x] = (uint8_t)bits;
    }
    for (uint32_t y = 0; y < g->height; y++) {
        unsigned bits = 0;
        for (int m = 4; m < 8; m++)
            if ((int64_t)y + g->dy[m] < (int64_t)g->height) bits |= 1u << m;
        G->rowmask[y] = (uint8_t)bits;
    }
    return KT_OK;
}

static void geo_free(geo *G)
{
    kti_free(G->al, G->colmask);
    G->colmask = G->rowmask = NULL;
}

/* Whether (u, a, b) is a rail; the caller checked that u+b is on the board. */
static inline bool rail_at(const uint8_t *mv, const int64_t *off, size_t u, unsigned a, unsigned b)
{
    uint8_t pu = mv[u];
    return has_move(pu, a) && !has_move(pu, b) && has_move(mv[(size_t)((int64_t)u + off[b])], a) &&
           !has_move(mv[(size_t)((int64_t)u + off[a])], b);
}

static inline void rail_switch(uint8_t *mv, const int64_t *off, size_t u, unsigned a, unsigned b)
{
    size_t v = (size_t)((int64_t)u + off[a]);
    size_t up = (size_t)((int64_t)u + off[b]);
    size_t w = (size_t)((int64_t)v + off[b]);
    mv[u] = pair_replace(mv[u], a, b);
    mv[v] = pair_replace(mv[v], a ^ 4u, b);
    mv[up] = pair_replace(mv[up], a, b ^ 4u);
    mv[w] = pair_replace(mv[w], a ^ 4u, b ^ 4u);
}

/* One step along a cycle: arrived at c by move *out, leave by the other
 * move of c's pair; returns the next cell and updates *out. */
static inline size_t step_on(const uint8_t *mv, const int64_t *off, size_t c, unsigned *out)
{
    uint8_t p = mv[c];
    unsigned back = *out ^ 4u;
    *out = (p & 15u) == back ? (unsigned)(p >> 4) : (p & 15u);
    return (size_t)((int64_t)c + off[*out]);
}

/* Label each cycle 0..k-1 (holes NO_LABEL); returns k. */
static size_t label_cycles(const uint8_t *mv, size_t n, const int64_t *off, uint32_t *lab)
{
    memset(lab, 0xFF, n * sizeof *lab);
    size_t k = 0;
    for (size_t s = 0; s < n; s++) {
        if (lab[s] != NO_LABEL || mv[s] == KTI_PAIR_EMPTY) continue;
        uint32_t id = (uint32_t)k++;
        lab[s] = id;
        unsigned out = mv[s] & 15u;
        for (size_t c = (size_t)((int64_t)s + off[out]); c != s; c = step_on(mv, off, c, &out)) lab[c] = id;
    }
    return k;
}

/* Count cycles with a stamp array (stamp value `gen`, cells != gen unseen). */
static size_t count_cycles_stamp(const uint8_t *mv, size_t n, const int64_t *off, uint8_t *seen,
                                 uint8_t gen)
{
    size_t k = 0;
    for (size_t s = 0; s < n; s++) {
        if (seen[s] == gen || mv[s] == KTI_PAIR_EMPTY) continue;
        k++;
        seen[s] = gen;
        unsigned out = mv[s] & 15u;
        for (size_t c = (size_t)((int64_t)s + off[out]); c != s; c = step_on(mv, off, c, &out)) seen[c] = gen;
    }
    return k;
}

static inline uint32_t uf_find(uint32_t *p, uint32_t x)
{
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

/* ------------------------------------------------------------------ */
/* the working state of join, shatter and obfuscate                     */

typedef struct work {
    const kt_graph *g;
    geo G;
    uint8_t *mv;        /* working copy of the move pairs */
    uint8_t *backup;    /* for reverting a failed perturbation (lazily allocated) */
    uint32_t *lab;      /* cycle labels */
    uint32_t *uf;       /* union-find over labels */
    uint8_t *used;      /* stamps for shatter */
    uint8_t gen;
    size_t ncyc;        /* cycles now (exact after label/passes) */
    kti_rng rng;
    uint64_t bits;      /* random bits buffer */
    unsigned nbits;
    /* run settings of join and obfuscate (zero for the shatters) */
    kti_progress prog;
    uint64_t budget;    /* rail switches plus search nodes allowed; 0 = unlimited */
    uint64_t spent;     /* rail switches so far, undone ones included */
    uint64_t ptotal;    /* progress units of the whole call */
} work;

static void work_free(work *W)
{
    const kt_allocator *al = W->G.al;
    if (al == NULL) return;
    kti_free(al, W->mv);
    kti_free(al, W->backup);
    kti_free(al, W->lab);
    kti_free(al, W->uf);
    kti_free(al, W->used);
    geo_free(&W->G);
}

/* Allocate the working state; `join` also allocates labels and union-find. */
static kt_status work_init(work *W, const kt_tourney *t, bool join, uint64_t seed)
{
    memset(W, 0, sizeof *W);
    const kt_graph *g = t->g;
    W->g = g;
    kt_status st = geo_init(&W->G, g);
    if (st != KT_OK) return st;
    size_t n = g->ncells;
    W->mv = kti_alloc(&g->alloc, n + 1);  /* mv[n] = 0xFF: a pad to read instead of off-board cells */
    W->used = kti_calloc(&g->alloc, n, 1);
    if (W->mv == NULL || W->used == NULL) goto nomem;
    if (join) {
        W->lab = kti_calloc(&g->alloc, n, sizeof *W->lab);
        W->uf = kti_calloc(&g->alloc, n / 2 + 2, sizeof *W->uf);
        if (W->lab == NULL || W->uf == NULL) goto nomem;
    }
    memcpy(W->mv, t->mv, n);
    W->mv[n] = KTI_PAIR_EMPTY;
    W->ncyc = t->size;
    kti_rng_seed(&W->rng, seed);
    return KT_OK;
nomem:
    work_free(W);
    return KT_ENOMEM;
}

/* Count k more rail switches against the budget: KT_ELIMIT once the call
 * has switched more rails than the budget allows.  Checked after each
 * pass or shatter (O(cells) apart), so the answer is the same as a check
 * after every switch: whether the whole run needs more than the budget. */
static kt_status work_spend(work *W, uint64_t k)
{
    W->spent += k;
    return W->budget != 0 && W->spent > W->budget ? KT_ELIMIT : KT_OK;
}

/* Report progress unit `done` of W->ptotal (throttled; done == ptotal is
 * always reported): KT_ECANCELED when the callback asks to stop. */
static kt_status work_tick(work *W, uint64_t done)
{
    return kti_progress_tick(&W->prog, done, W->ptotal) ? KT_ECANCELED : KT_OK;
}

static inline unsigned rnd_bits(work *W, unsigned k)
{
    if (W->nbits < k) {
        W->bits = kti_rng_next(&W->rng);
        W->nbits = 64;
    }
    unsigned r = (unsigned)(W->bits & ((1u << k) - 1u));
    W->bits >>= k;
    W->nbits -= k;
    return r;
}

static uint8_t next_gen(work *W)
{
    if (++W->gen == 0) {
        memset(W->used, 0, W->G.n);
        W->gen = 1;
    }
    return W->gen;
}

/* Downward moves of a pair as bits 4-7 (0xF nibbles fall outside). */
static inline unsigned down_mask(uint8_t p)
{
    return ((1u << (p & 15u)) | (1u << (p >> 4))) & 0xF0u;
}

/* Bit matrices over (a, b) in 4-7: bit (a-4)*4 + (b-4). */
static const uint16_t row_spread[16] = { /* row a full when bit a-4 set */
    0x0000, 0x000F, 0x00F0, 0x00FF, 0x0F00, 0x0F0F, 0x0FF0, 0x0FFF,
    0xF000, 0xF00F, 0xF0F0, 0xF0FF, 0xFF00, 0xFF0F, 0xFFF0, 0xFFFF,
};
static const uint16_t col_spread[16] = { /* bit a-4 to (a-4)*4: one column */
    0x0000, 0x0001, 0x0010, 0x0011, 0x0100, 0x0101, 0x0110, 0x0111,
    0x1000, 0x1001, 0x1010, 0x1011, 0x1100, 0x1101, 0x1110, 0x1111,
};

static inline unsigned popcount16(unsigned x)
{
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0F0Fu;
    return (x + (x >> 8)) & 0x1Fu;
}

/* Clear all but one set bit of x (x != 0), chosen with 8 random bits. */
static inline unsigned pick_bit(unsigned x, unsigned r8)
{
    unsigned k = (r8 * popcount16(x)) >> 8;
    while (k--) x &= x - 1;
    return (unsigned)__builtin_ctz(x);
}

/* The rails with top u as a bit matrix.  mv[pad] is 0xFF; cm is the mask
 * of cross moves that stay on the board; du = down_mask(mv[u]) != 0.
 * (a, b) is a rail when a is in du, b is in cm but not in du, b is not a
 * move of v = u+a, and a is a move of u' = u+b. */
static inline unsigned rails_at(const uint8_t *mv, const int64_t *off, size_t u, size_t pad,
                                unsigned du, unsigned cm)
{
    unsigned rowok = 0, colok = 0;
    for (unsigned m = 4; m < 8; m++) {
        size_t ix = ((cm >> m) & 1u) ? (size_t)((int64_t)u + off[m]) : pad;
        unsigned d = down_mask(mv[ix]) >> 4;
        rowok |= (~d & 15u) << ((m - 4) * 4);     /* row m: b not a move of u+m */
        colok |= (unsigned)col_spread[d] << (m - 4); /* column m: a is a move of u+m */
    }
    unsigned cols = ((cm & ~du) >> 4) & 15u;
    return row_spread[du >> 4] & (cols * 0x1111u) & rowok & colok;
}

/* Shatter the rails whose top lies in rows y0..y1-1, columns x0..x1-1,
 * with stamp generation gen: every cell, with probability 1/2 (a coin
 * tossed first, 64 cells at a time), switches one of the rails it tops,
 * chosen uniformly, when none of that rail's four cells is used yet.
 * Rows and columns are visited in a random one of the four directions.
 * Returns the number switched. */
static size_t shatter_box(work *W, uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, uint8_t gen)
{
    const geo *G = &W->G;
    uint8_t *mv = W->mv, *used = W->used;
    const int64_t *off = G->off;
    size_t pad = G->n, switched = 0;
    unsigned dir = rnd_bits(W, 2);
    for (uint32_t yy = y0; yy < y1; yy++) {
        uint32_t y = (dir & 2u) ? y1 - 1 - (yy - y0) : yy;
        uint8_t rm = G->rowmask[y];
        size_t row = (size_t)y * G->w;
        for (uint32_t cc = 0; cc < x1 - x0; cc += 64) {
            /* chunk [c0, c0 + len) of the row segment, in scan order */
            uint32_t len = x1 - x0 - cc < 64 ? x1 - x0 - cc : 64;
            uint32_t c0 = (dir & 1u) ? x1 - cc - len : x0 + cc;
            uint64_t coins = kti_rng_next(&W->rng);
            if (len < 64) coins &= ((uint64_t)1 << len) - 1u;
            while (coins) {
                unsigned i;
                if (dir & 1u) {
                    i = 63u - (unsigned)__builtin_clzll(coins);
                    coins &= ~((uint64_t)1 << i);
                } else {
                    i = (unsigned)__builtin_ctzll(coins);
                    coins &= coins - 1u;
                }
                uint32_t x = c0 + i;
                size_t u = row + x;
                unsigned du = down_mask(mv[u]);
                if (du == 0 || used[u] == gen) continue;
                unsigned rails = rails_at(mv, off, u, pad, du, G->colmask[x] & rm);
                if (rails == 0) continue;
                unsigned bit = pick_bit(rails, rnd_bits(W, 8));
                unsigned a = 4 + bit / 4, b = 4 + bit % 4;
                size_t v = (size_t)((int64_t)u + off[a]);
                size_t up = (size_t)((int64_t)u + off[b]);
                size_t w = (size_t)((int64_t)v + off[b]);
                if (used[v] == gen || used[up] == gen || used[w] == gen) continue;
                rail_switch(mv, off, u, a, b);
                used[u] = used[v] = used[up] = used[w] = gen;
                switched++;
            }
        }
    }
    return switched;
}

/* One rail pass: at every cell, in a random one of the four scan
 * directions, switch rails joining two different cycles (by the
 * union-find over labels), chosen at random among those at the cell and
 * checked at their turn, until none is left there.  Returns merges. */
static size_t rail_pass(work *W)
{
    const geo *G = &W->G;
    uint8_t *mv = W->mv;
    const uint32_t *lab = W->lab;
    uint32_t *uf = W->uf;
    const int64_t *off = G->off;
    size_t merges = 0, pad = G->n;
    unsigned dir = rnd_bits(W, 2);
    for (uint32_t yy = 0; yy < G->h; yy++) {
        uint32_t y = (dir & 2u) ? G->h - 1 - yy : yy;
        uint8_t rm = G->rowmask[y];
        for (uint32_t xx = 0; xx < G->w; xx++) {
            uint32_t x = (dir & 1u) ? G->w - 1 - xx : xx;
            size_t u = (size_t)y * G->w + x;
            unsigned cm = G->colmask[x] & rm;
            for (;;) {
                unsigned du = down_mask(mv[u]);
                if (du == 0) break;
                unsigned rails = rails_at(mv, off, u, pad, du, cm);
                if (rails == 0) break;
                uint32_t A = uf_find(uf, lab[u]);
                unsigned cols = (rails | rails >> 4 | rails >> 8 | rails >> 12) & 15u, joining = 0;
                for (unsigned b = 4; b < 8; b++)
                    if (((cols >> (b - 4)) & 1u) &&
                        uf_find(uf, lab[(size_t)((int64_t)u + off[b])]) != A)
                        joining |= 0x1111u << (b - 4);
                rails &= joining;
                if (rails == 0) break;
                unsigned bit = pick_bit(rails, rnd_bits(W, 8));
                unsigned a = 4 + bit / 4, b = 4 + bit % 4;
                uint32_t B = uf_find(uf, lab[(size_t)((int64_t)u + off[b])]);
                rail_switch(mv, off, u, a, b);
                uf[A] = B;
                merges++;
            }
        }
    }
    return merges;
}

/* Label, then rail passes until one cycle remains or nothing merges;
 * KT_ELIMIT when the switches pass the budget. */
static kt_status join_passes(work *W)
{
    size_t k = label_cycles(W->mv, W->G.n, W->G.off, W->lab);
    for (size_t i = 0; i < k; i++) W->uf[i] = (uint32_t)i;
    W->ncyc = k;
    while (W->ncyc > 1) {
        size_t m = rail_pass(W);
        W->ncyc -= m;
        KTI_TRY(work_spend(W, m));
        if (m == 0) break;
    }
    return KT_OK;
}

typedef struct box {
    uint32_t x0, y0, x1, y1; /* inclusive */
    uint32_t size;
} box;

/* The bounding box of every cycle (labelled in W->lab, k of them); NULL
 * when out of memory. */
static box *cycle_boxes(work *W, size_t k)
{
    const geo *G = &W->G;
    box *bx = kti_alloc(G->al, k * sizeof *bx);
    if (bx == NULL) return NULL;
    for (size_t i = 0; i < k; i++) bx[i] = (box){UINT32_MAX, UINT32_MAX, 0, 0, 0};
    size_t c = 0;
    for (uint32_t y = 0; y < G->h; y++)
        for (uint32_t x = 0; x < G->w; x++, c++) {
            uint32_t l = W->lab[c];
            if (l == NO_LABEL) continue;
            box *b = &bx[l];
            if (x < b->x0) b->x0 = x;
            if (x > b->x1) b->x1 = x;
            if (y < b->y0) b->y0 = y;
            if (y > b->y1) b->y1 = y;
            b->size++;
        }
    return bx;
}

/* Perturb around every cycle but the largest (at most 256 chosen at
 * random), margin r; relabels first.  KT_ENOMEM, or KT_ELIMIT when the
 * switches pass the budget. */
static kt_status perturb(work *W, uint32_t r)
{
    const geo *G = &W->G;
    size_t k = label_cycles(W->mv, G->n, G->off, W->lab);
    box *bx = cycle_boxes(W, k);
    if (bx == NULL) return KT_ENOMEM;
    size_t big = 0;
    for (size_t i = 1; i < k; i++)
        if (bx[i].size > bx[big].size) big = i;
    /* choose up to 256 of the others (selection sampling, in label order) */
    size_t others = k - 1, want = others < 256 ? others : 256;
    uint8_t gen = next_gen(W);
    size_t taken = 0, switched = 0;
    for (size_t i = 0; i < k && taken < want; i++) {
        if (i == big) continue;
        size_t left = others - (i < big ? i : i - 1);
        if (kti_rng_below(&W->rng, left) >= want - taken) continue;
        taken++;
        box b = bx[i];
        uint32_t x0 = b.x0 > r ? b.x0 - r : 0, y0 = b.y0 > r ? b.y0 - r : 0;
        uint32_t x1 = b.x1 + r + 1 < G->w ? b.x1 + r + 1 : G->w;
        uint32_t y1 = b.y1 + r + 1 < G->h ? b.y1 + r + 1 : G->h;
        switched += shatter_box(W, x0, x1, y0, y1, gen);
    }
    kti_free(G->al, bx);
    return work_spend(W, switched);
}

/* Boards of at most this many vertices end with an exact search. */
#define EXACT_MAX_VERTICES 64
#define EXACT_MAX_NODES 20000000u
/* Beyond that, existence is decided by the frontier DP within this many
 * states per layer (about 64 MB). */
#define DECIDE_MAX_STATES ((uint64_t)1 << 22)

/* Perturbation rounds of one join: 64 plus about 4*10^6 cell operations. */
static uint64_t round_limit(size_t cells)
{
    return 64 + (uint64_t)4000000u / (cells + 1);
}

/* The exact search reports its own nodes; the caller of the join sees the
 * last unit of the join's scale instead, and may cancel. */
static int forward_progress(void *user, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    const work *W = user;
    return W->prog.fn(W->prog.user, W->ptotal - 1, W->ptotal);
}

/* The exact search for any closed tour on a small board, within the node
 * limit and what is left of the budget.  It need not resemble the input;
 * KT_ENOTOUR when the search proves there is none. */
static kt_status exact_search(work *W)
{
    const kt_graph *g = W->g;
    uint64_t nodes = EXACT_MAX_NODES;
    bool user_bound = false;
    if (W->budget != 0) {
        uint64_t left = W->budget - W->spent; /* spent <= budget here */
        if (left == 0) return KT_ELIMIT;
        if (left <= nodes) nodes = left, user_bound = true;
    }
    kt_tourney *tour = NULL;
    kti_progress pr;
    kti_progress_init(&pr, W->prog.fn != NULL ? forward_progress : NULL, W);
    kt_status st = kti_exhaustive_tour(&tour, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, nodes,
                                       &pr, NULL);
    if (st == KT_OK) {
        memcpy(W->mv, tour->mv, W->G.n);
        W->ncyc = 1;
    }
    kt_tourney_free(tour);
    if (st == KT_ELIMIT) return user_bound ? KT_ELIMIT : KT_ENOTFOUND;
    if (st == KT_OK || st == KT_ENOTOUR || st == KT_ENOMEM || st == KT_ECANCELED) return st;
    return KT_ENOTFOUND;
}

/* Last resort: the exact search on small boards; on larger ones the
 * frontier DP may still prove that there is no tour (narrow boards, any
 * mask).  That decision is bounded by DECIDE_MAX_STATES but neither
 * budgeted nor interruptible (progress is checked before it). */
static kt_status exact_fallback(work *W)
{
    KTI_TRY(work_tick(W, W->ptotal - 1));
    if (W->g->nverts <= EXACT_MAX_VERTICES) return exact_search(W);
    bool yes = true;
    kt_status ex = kti_tour_exists(W->g, DECIDE_MAX_STATES, &yes);
    if (ex == KT_ENOMEM) return ex;
    return ex == KT_OK && !yes ? KT_ENOTOUR : KT_ENOTFOUND;
}

/* A full board of the knight (no holes, moves (2, 1)). */
static bool plain_knight(const kt_graph *g)
{
    return g->mask == NULL && g->a == 2 && g->b == 1;
}

/* Boards of 3 or 5 rows (or columns): their closed tours are few and rigid,
 * and Warnsdorff tourneys on them are often stuck with cycles that no rail
 * or local perturbation joins (measured: 3 x n for n >= 22 nearly never
 * joined).  Their rounds stop early, after this many failures in a row,
 * since the construction below ends the join anyway. */
#define NARROW_STUCK_ROUNDS 256u

static bool narrow_board(const kt_graph *g)
{
    uint32_t m = g->width < g->height ? g->width : g->height;
    return plain_knight(g) && m <= 5;
}

/* Rounds of perturbation and rail passes while cycles remain, each round
 * undone when it leaves more cycles than before; the radius of the
 * perturbation grows with the failures in a row.  Progress unit `base`
 * + i is round i. */
static kt_status join_rounds(work *W, uint64_t base)
{
    size_t n = W->G.n;
    if (W->backup == NULL) {
        W->backup = kti_alloc(W->G.al, n);
        if (W->backup == NULL) return KT_ENOMEM;
    }
    uint64_t rounds = round_limit(n);
    uint32_t fails = 0, stuck = narrow_board(W->g) ? NARROW_STUCK_ROUNDS : UINT32_MAX;
    for (uint64_t it = 0; it < rounds && W->ncyc > 1 && fails < stuck; it++) {
        KTI_TRY(work_tick(W, base + it));
        size_t before = W->ncyc;
        memcpy(W->backup, W->mv, n);
        uint32_t r = 2 + (fails / 8 < 6 ? fails / 8 : 6);
        KTI_TRY(perturb(W, r));
        KTI_TRY(join_passes(W));
        if (W->ncyc > before) {
            memcpy(W->mv, W->backup, n);
            W->ncyc = before;
            fails++;
        } else if (W->ncyc < before) {
            fails = 0;
        } else {
            fails++;
        }
    }
    return KT_OK;
}

/* States the narrow-board dynamic programme may store (about 5 bytes each
 * plus one layer's keys): enough for every board of up to 5 rows and for
 * short boards of 6 and 7, where the rails usually succeed anyway. */
#define NEAREST_MAX_STATES ((size_t)1 << 22)

/* The exact step after the rounds: the closed tour that keeps the most of
 * what the rounds left (narrow.c), where the frontier is narrow.  It turns
 * the stuck tourneys of 3- and 5-row boards into tours that still follow
 * them, and proves that there is no tour when there is none. */
static kt_status nearest_tour(work *W)
{
    size_t cap = NEAREST_MAX_STATES;
    bool user_bound = false;
    if (W->budget != 0) {
        uint64_t left = W->budget - W->spent; /* spent <= budget here */
        if (left == 0) return KT_ELIMIT;
        if (left <= cap) cap = (size_t)left, user_bound = true;
    }
    if (W->backup == NULL) {
        W->backup = kti_alloc(W->G.al, W->G.n);
        if (W->backup == NULL) return KT_ENOMEM;
    }
    kt_status st = kti_rails_nearest_tour(W->g, W->mv, W->backup, cap,
                                          W->prog.fn != NULL ? &W->prog : NULL, W->ptotal - 1,
                                          W->ptotal);
    if (st == KT_OK) {
        memcpy(W->mv, W->backup, W->G.n);
        W->ncyc = 1;
    }
    if (st == KT_ENOTFOUND && user_bound) return KT_ELIMIT;
    return st;
}

/* The very last resort, when rails, perturbations and the exact search all
 * gave up on a full knight board that has a closed tour (Schwenk 1991):
 * the linear construction of kt_generate_closed_tour() with the join's
 * seed.  The join promises a closed tour whenever one exists; this keeps
 * the promise on the narrow boards above, where rails do not suffice. */
static kt_status construct_fallback(work *W)
{
    if (!plain_knight(W->g) || !kt_graph_board_has_closed_tour(W->g->width, W->g->height))
        return KT_ENOTFOUND;
    kt_tourney *u = NULL;
    kt_status st = kt_generate_closed_tour(&u, W->g, kti_rng_next(&W->rng), NULL);
    if (st != KT_OK) return st == KT_ENOMEM ? st : KT_ENOTFOUND;
    memcpy(W->mv, u->mv, W->G.n);
    W->ncyc = 1;
    kt_tourney_free(u);
    return KT_OK;
}

/* The whole join on the working copy: KT_OK with one cycle, KT_ENOTFOUND
 * when the built-in bounds ran out, KT_ENOTOUR, KT_ELIMIT, KT_ECANCELED,
 * KT_ENOMEM.  Progress units from `base`: the rounds, then one for the
 * exact fallback (W->ptotal = base + round_limit + 1). */
static kt_status join_work(work *W, uint64_t base)
{
    KTI_TRY(join_passes(W));
    if (W->ncyc <= 1) return KT_OK;
    KTI_TRY(join_rounds(W, base));
    if (W->ncyc == 1) return KT_OK;
    kt_status st = nearest_tour(W);
    if (st == KT_ENOTFOUND) st = exact_fallback(W);
    if (st == KT_ENOTFOUND) st = construct_fallback(W);
    return st;
}

/* ------------------------------------------------------------------ */
/* public: single rails                                                 */

kt_status kt_rails_cells(const kt_graph *g, kt_rail rail, kt_cell cells[4])
{
    if (g == NULL || cells == NULL) return KT_EINVAL;
    unsigned a = rail.primary, b = rail.cross;
    if (a < 4 || a > 7 || b < 4 || b > 7 || a == b) return KT_EINVAL;
    if (!kti_is_vertex(g, rail.top)) return KT_EINVAL;
    kt_cell v = kti_step(g, rail.top, (int)a);
    kt_cell up = kti_step(g, rail.top, (int)b);
    if (v == KT_CELL_NONE || up == KT_CELL_NONE) return KT_EINVAL;
    kt_cell w = kti_step(g, v, (int)b);
    if (w == KT_CELL_NONE) return KT_EINVAL;
    cells[0] = rail.top;
    cells[1] = v;
    cells[2] = w;
    cells[3] = up;
    return KT_OK;
}

int kt_rails_is_rail(const kt_tourney *t, kt_rail rail)
{
    if (t == NULL) return 0;
    kt_cell c[4];
    if (kt_rails_cells(t->g, rail, c) != KT_OK) return 0;
    return rail_at(t->mv, t->g->off, rail.top, rail.primary, rail.cross) ? 1 : 0;
}

/* Visit every rail of mv in order (top, primary, cross). */
typedef void (*rail_visit)(void *ctx, kt_cell top, unsigned a, unsigned b);

static void scan_rails(const geo *G, const uint8_t *mv, rail_visit fn, void *ctx)
{
    const int64_t *off = G->off;
    size_t u = 0;
    for (uint32_t y = 0; y < G->h; y++) {
        uint8_t rm = G->rowmask[y];
        for (uint32_t x = 0; x < G->w; x++, u++) {
            uint8_t pu = mv[u];
            unsigned hi = (unsigned)pu >> 4;
            if (pu == KTI_PAIR_EMPTY || hi < 4) continue; /* lo <= hi: no downward move */
            unsigned cm = G->colmask[x] & rm;
            for (unsigned a = 4; a < 8; a++) {
                if (!has_move(pu, a)) continue;
                for (unsigned b = 4; b < 8; b++) {
                    if (b == a || !((cm >> b) & 1u) || has_move(pu, b)) continue;
                    if (!has_move(mv[(size_t)((int64_t)u + off[b])], a)) continue;
                    if (has_move(mv[(size_t)((int64_t)u + off[a])], b)) continue;
                    fn(ctx, (kt_cell)u, a, b);
                }
            }
        }
    }
}

static void count_visit(void *ctx, kt_cell top, unsigned a, unsigned b)
{
    (void)top;
    (void)a;
    (void)b;
    (*(uint64_t *)ctx)++;
}

kt_status kt_rails_count_tourney(const kt_tourney *t, uint64_t *count)
{
    if (t == NULL || count == NULL) return KT_EINVAL;
    geo G;
    if (geo_init(&G, t->g) != KT_OK) return KT_ENOMEM;
    uint64_t k = 0;
    scan_rails(&G, t->mv, count_visit, &k);
    geo_free(&G);
    *count = k;
    return KT_OK;
}

/* ------------------------------------------------------------------ */
/* public: join, shatter, obfuscate                                     */

/* Whether the vertices of g are connected (BFS, O(cells)); true when
 * memory runs out (the check is only a shortcut). */
static bool board_connected(const kt_graph *g)
{
    size_t n = g->ncells;
    kt_cell *queue = kti_alloc(&g->alloc, n * sizeof *queue);
    uint8_t *seen = kti_calloc(&g->alloc, n, 1);
    bool ok = true;
    if (queue != NULL && seen != NULL) {
        size_t head = 0, tail = 0, start = 0;
        while (start < n && !kti_is_vertex(g, start)) start++;
        if (start < n) {
            seen[start] = 1;
            queue[tail++] = (kt_cell)start;
            while (head < tail) {
                kt_cell c = queue[head++];
                for (int m = 0; m < 8; m++) {
                    kt_cell d = kti_step(g, c, m);
                    if (d != KT_CELL_NONE && !seen[d]) {
                        seen[d] = 1;
                        queue[tail++] = d;
                    }
                }
            }
            ok = tail == g->nverts;
        }
    }
    kti_free(&g->alloc, queue);
    kti_free(&g->alloc, seen);
    return ok;
}

/* Necessary conditions for a closed tour that are cheap to check. */
static bool board_may_have_tour(const kt_graph *g)
{
    if (g->mask == NULL && g->a == 2 && g->b == 1)
        return kt_graph_board_has_closed_tour(g->width, g->height) != 0;
    if (((g->a + g->b) & 1u) == 1u) {
        /* bipartite: a Hamiltonian cycle needs equal colour classes */
        size_t col[2];
        kti_colour_counts(g, col);
        if (col[0] != col[1]) return false;
    }
    return board_connected(g);
}

static kt_status check_cycles(const kt_tourney *t)
{
    if (t == NULL) return KT_EINVAL;
    if (t->shape != KT_SHAPE_CYCLES) return KT_EUNSUPPORTED;
    return KT_OK;
}

#ifndef NDEBUG
/* Debug builds: kt_tourney_size() is exact at the API boundary (the
 * module's bookkeeping agrees with an O(cells) recount).  Only the calls
 * that are O(cells) anyway check it, so debug builds keep their
 * complexity; release builds (NDEBUG) compile it away. */
static void assert_size_exact(kt_tourney *t)
{
    size_t size = t->size;
    if (kti_tourney_recount(t) == KT_OK) KTI_ASSERT(t->size == size);
    t->size = size;
}
#define ASSERT_SIZE_EXACT(t) assert_size_exact(t)
#else
#define ASSERT_SIZE_EXACT(t) ((void)0)
#endif

/* Arguments and run settings of join and obfuscate: a cycle cover, and no
 * shards (a join is one randomized computation, not a sum of parts). */
static kt_status long_call_check(kt_tourney *t, const kt_options *run, kti_run *r)
{
    KTI_TRY(check_cycles(t));
    kti_run_resolve(r, run);
    if (r->nshards > 1) return KT_EINVAL;
    ASSERT_SIZE_EXACT(t);
    return KT_OK;
}

/* The run settings join and obfuscate honour, on the working state. */
static void work_set_run(work *W, const kti_run *r, uint64_t ptotal)
{
    kti_progress_init(&W->prog, r->progress, r->progress_user);
    W->budget = r->budget;
    W->spent = 0;
    W->ptotal = ptotal;
}

/* The final report (done == total, always delivered), then the joined
 * working copy goes into t; a cancel there still leaves t unchanged. */
static kt_status work_store_joined(work *W, kt_tourney *t)
{
    KTI_TRY(work_tick(W, W->ptotal));
    memcpy(t->mv, W->mv, W->G.n);
    t->size = 1;
    ASSERT_SIZE_EXACT(t);
    return KT_OK;
}

/* A tourney that is already one cycle: only the final report. */
static kt_status report_trivial(const kti_run *r)
{
    kti_progress p;
    kti_progress_init(&p, r->progress, r->progress_user);
    return kti_progress_tick(&p, 1, 1) ? KT_ECANCELED : KT_OK;
}

kt_status kt_rails_join(kt_tourney *t, uint64_t seed, const kt_options *run)
{
    kti_run r;
    KTI_TRY(long_call_check(t, run, &r));
    if (t->g->nverts == 0) return KT_ENOTOUR; /* no cells: no tour of them */
    if (t->size <= 1) return report_trivial(&r);
    if (!board_may_have_tour(t->g)) return KT_ENOTOUR;
    work W;
    KTI_TRY(work_init(&W, t, true, seed));
    work_set_run(&W, &r, round_limit(W.G.n) + 1);
    kt_status st = join_work(&W, 0);
    if (st == KT_OK) st = work_store_joined(&W, t);
    work_free(&W);
    return st;
}

/* Copy a shattered working tourney back into t with its size recounted. */
static void work_store_recount(work *W, kt_tourney *t)
{
    t->size = count_cycles_stamp(W->mv, W->G.n, W->G.off, W->used, next_gen(W));
    memcpy(t->mv, W->mv, W->G.n);
    ASSERT_SIZE_EXACT(t);
}

kt_status kt_rails_shatter(kt_tourney *t, uint64_t seed)
{
    KTI_TRY(check_cycles(t));
    ASSERT_SIZE_EXACT(t);
    work W;
    KTI_TRY(work_init(&W, t, false, seed));
    if (shatter_box(&W, 0, W.G.w, 0, W.G.h, next_gen(&W)) > 0) work_store_recount(&W, t);
    work_free(&W);
    return KT_OK;
}

kt_status kt_rails_obfuscate(kt_tourney *t, unsigned rounds, uint64_t seed, const kt_options *run)
{
    kti_run r;
    KTI_TRY(long_call_check(t, run, &r));
    if (t->g->nverts == 0 || !board_may_have_tour(t->g)) return KT_ENOTOUR;
    if (rounds == 0) rounds = KT_RAILS_OBFUSCATE_ROUNDS;
    work W;
    KTI_TRY(work_init(&W, t, true, seed));
    /* progress units: the shatters, then the join's rounds and fallback */
    work_set_run(&W, &r, (uint64_t)rounds + round_limit(W.G.n) + 1);
    kt_status st = KT_OK;
    for (unsigned i = 0; i < rounds && st == KT_OK; i++) {
        st = work_tick(&W, i);
        if (st == KT_OK) st = work_spend(&W, shatter_box(&W, 0, W.G.w, 0, W.G.h, next_gen(&W)));
    }
    if (st == KT_OK) st = join_work(&W, rounds);
    if (st == KT_OK) st = work_store_joined(&W, t);
    work_free(&W);
    return st;
}

/* ------------------------------------------------------------------ */
/* public: the kt_rails handle                                          */

struct kt_rails {
    kt_tourney *t;
    geo G;
    kt_rail *rails;      /* snapshot */
    size_t nrails;
    kti_seq seq;         /* one sequence per cycle, in cycle order (rails_internal.h) */
};

typedef struct rail_list {
    const kt_allocator *al;
    kt_rail *v;
    size_t n, cap;
    bool failed;
} rail_list;

static void list_visit(void *ctx, kt_cell top, unsigned a, unsigned b)
{
    rail_list *L = ctx;
    if (L->failed) return;
    if (L->n == L->cap) {
        size_t nc = L->cap ? L->cap * 2 : 1024, bytes;
        if (!kti_mul_ok(nc, sizeof(kt_rail), &bytes)) {
            L->failed = true;
            return;
        }
        kt_rail *nv = kti_alloc(L->al, bytes);
        if (nv == NULL) {
            L->failed = true;
            return;
        }
        if (L->n) memcpy(nv, L->v, L->n * sizeof(kt_rail));
        kti_free(L->al, L->v);
        L->v = nv;
        L->cap = nc;
    }
    L->v[L->n++] = (kt_rail){top, (uint8_t)a, (uint8_t)b};
}

static void h_release(kt_rails *r)
{
    kti_free(r->G.al, r->rails);
    r->rails = NULL;
    r->nrails = 0;
    kti_seq_free(&r->seq);
}

/* Build everything into a fresh handle body; on failure nothing changes. */
static kt_status h_build(kt_rails *r)
{
    kt_tourney *t = r->t;
    const kt_allocator *al = r->G.al;
    size_t n = r->G.n, bytes;
    if (!kti_mul_ok(n ? n : 1, 2 * sizeof(uint32_t), &bytes)) return KT_ETOOBIG;
    rail_list L = {al, NULL, 0, 0, false};
    scan_rails(&r->G, t->mv, list_visit, &L);
    kti_seq seq;
    kt_status st = L.failed ? KT_ENOMEM : kti_seq_init(&seq, al, n);
    uint32_t *order = st == KT_OK ? kti_alloc(al, bytes) : NULL;
    if (order == NULL) {
        if (st == KT_OK) kti_seq_free(&seq);
        kti_free(al, L.v);
        return st == KT_OK ? KT_ENOMEM : st;
    }
    /* each cycle as a sequence from its smallest cell (the build does not
     * read seq.rev, which marks the cells placed meanwhile) */
    uint32_t *stack = order + n;
    const uint8_t *mv = t->mv;
    const int64_t *off = r->G.off;
    for (size_t s0 = 0; s0 < n; s0++) {
        if (seq.rev[s0] || mv[s0] == KTI_PAIR_EMPTY) continue;
        size_t k = 0;
        order[k++] = (uint32_t)s0;
        unsigned out = mv[s0] & 15u;
        for (size_t c = (size_t)((int64_t)s0 + off[out]); c != s0; c = step_on(mv, off, c, &out))
            order[k++] = (uint32_t)c;
        kti_seq_build(&seq, order, k, stack);
        for (size_t i = 0; i < k; i++) seq.rev[order[i]] = 1; /* placed */
    }
    memset(seq.rev, 0, n);
    kti_free(al, order);
    ASSERT_SIZE_EXACT(t); /* the sequences built are the cycles counted */
    h_release(r);
    r->rails = L.v;
    r->nrails = L.n;
    r->seq = seq;
    return KT_OK;
}

kt_status kt_rails_new(kt_rails **out, kt_tourney *t)
{
    if (out == NULL) return KT_EINVAL;
    *out = NULL;
    kt_status st = check_cycles(t);
    if (st != KT_OK) return st;
    kt_rails *r = kti_calloc(&t->g->alloc, 1, sizeof *r);
    if (r == NULL) return KT_ENOMEM;
    r->t = t;
    if (geo_init(&r->G, t->g) != KT_OK) {
        kti_free(&t->g->alloc, r);
        return KT_ENOMEM;
    }
    st = h_build(r);
    if (st != KT_OK) {
        geo_free(&r->G);
        kti_free(&t->g->alloc, r);
        return st;
    }
    *out = r;
    return KT_OK;
}

void kt_rails_free(kt_rails *r)
{
    if (r == NULL) return;
    const kt_allocator *al = r->G.al;
    h_release(r);
    geo_free(&r->G);
    kti_free(al, r);
}

kt_status kt_rails_refresh(kt_rails *r)
{
    if (r == NULL) return KT_EINVAL;
    if (r->t->shape != KT_SHAPE_CYCLES) return KT_EUNSUPPORTED;
    return h_build(r);
}

size_t kt_rails_count(const kt_rails *r) { return r ? r->nrails : 0; }

kt_status kt_rails_get(const kt_rails *r, size_t index, kt_rail *rail)
{
    if (r == NULL || rail == NULL || index >= r->nrails) return KT_EINVAL;
    *rail = r->rails[index];
    return KT_OK;
}

kt_status kt_rails_counts(const kt_rails *r, uint64_t counts[4][4])
{
    if (r == NULL || counts == NULL) return KT_EINVAL;
    memset(counts, 0, 16 * sizeof(uint64_t));
    for (size_t i = 0; i < r->nrails; i++) counts[r->rails[i].primary - 4][r->rails[i].cross - 4]++;
    return KT_OK;
}

kt_status kt_rails_cycle(kt_rails *r, kt_cell cell, uint32_t *cycle)
{
    if (r == NULL || cycle == NULL || !kti_is_vertex(r->t->g, cell)) return KT_EINVAL;
    *cycle = kti_seq_root(&r->seq, (uint32_t)cell);
    return KT_OK;
}

kt_status kt_rails_joins(kt_rails *r, kt_rail rail, int *joins, uint32_t *c1, uint32_t *c2)
{
    if (r == NULL || joins == NULL || !kt_rails_is_rail(r->t, rail)) return KT_EINVAL;
    size_t up = (size_t)((int64_t)rail.top + r->G.off[rail.cross]);
    uint32_t A = kti_seq_root(&r->seq, (uint32_t)rail.top);
    uint32_t B = kti_seq_root(&r->seq, (uint32_t)up);
    *joins = A != B;
    if (c1) *c1 = A;
    if (c2) *c2 = B;
    return KT_OK;
}

kt_status kt_rails_graph(kt_rails *r, size_t *edges, size_t *components)
{
    if (r == NULL) return KT_EINVAL;
    ASSERT_SIZE_EXACT(r->t); /* the component count below relies on it */
    const kt_allocator *al = r->G.al;
    /* union-find over the cycles' root cells: p[x] = parent + 1, 0 = itself
     * (calloc, so only the entries touched cost anything) */
    uint32_t *p = kti_calloc(al, r->G.n ? r->G.n : 1, sizeof *p);
    if (p == NULL) return KT_ENOMEM;
    size_t e = 0, unions = 0;
    for (size_t i = 0; i < r->nrails; i++) {
        uint32_t A, B;
        int joins = 0;
        if (kt_rails_joins(r, r->rails[i], &joins, &A, &B) != KT_OK || !joins) continue;
        e++;
        while (p[A]) A = p[A] - 1;
        while (p[B]) B = p[B] - 1;
        if (A != B) {
            p[A] = B + 1;
            unions++;
        }
    }
    kti_free(al, p);
    if (edges) *edges = e;
    if (components) *components = r->t->size - unions;
    return KT_OK;
}

/* The cycle of `root` as a sequence running from `first` to `last`, two
 * cells joined by an edge of the cycle (so adjacent, cyclically). */
static uint32_t h_orient(kti_seq *s, uint32_t root, uint32_t first, uint32_t last)
{
    size_t L = kti_seq_len(s, root);
    size_t i = kti_seq_index(s, first), j = kti_seq_index(s, last);
    if (i == (j + 1) % L) return kti_seq_rotate(s, root, i); /* ... last first ... */
    root = kti_seq_rotate(s, root, j);                       /* last ... first */
    kti_seq_reverse(s, root);
    return root;
}

kt_status kt_rails_switch(kt_rails *r, kt_rail rail, kt_rails_effect *effect)
{
    if (r == NULL || !kt_rails_is_rail(r->t, rail)) return KT_EINVAL;
    kt_tourney *t = r->t;
    kti_seq *s = &r->seq;
    const int64_t *off = r->G.off;
    unsigned a = rail.primary, b = rail.cross;
    uint32_t u = (uint32_t)rail.top;
    uint32_t v = (uint32_t)((int64_t)u + off[a]);
    uint32_t up = (uint32_t)((int64_t)u + off[b]);
    uint32_t w = (uint32_t)((int64_t)v + off[b]);
    uint32_t A = kti_seq_root(s, u), B = kti_seq_root(s, up);
    kt_rails_effect eff;
    /* primary edges u-v and up-w go, cross edges u-up and v-w come */
    if (A != B) {
        /* [v .. u] + [up .. w]: u-up inside, w-v across the wrap */
        A = h_orient(s, A, v, u);
        B = h_orient(s, B, up, w);
        kti_seq_join(s, A, B);
        t->size--;
        eff = KT_RAILS_MERGE;
    } else {
        /* put the edge u-v across the wrap: [x .. y], {x, y} = {u, v};
         * up-w is then inside: [x .. p][q .. y], {p, q} = {up, w} */
        A = h_orient(s, A, v, u); /* x = v, y = u */
        size_t iu = kti_seq_index(s, up), iw = kti_seq_index(s, w);
        uint32_t p = iu < iw ? up : w;
        size_t k = (iu < iw ? iu : iw) + 1;
        uint32_t P1, P2;
        kti_seq_split(s, A, k, &P1, &P2);
        if (p == w) {
            /* v .. w and up .. u close on their own: two cycles */
            t->size++;
            eff = KT_RAILS_SPLIT;
        } else {
            /* v .. up, u .. w: one cycle, the second part reversed */
            kti_seq_reverse(s, P2);
            kti_seq_join(s, P1, P2);
            eff = KT_RAILS_KEEP;
        }
    }
    rail_switch(t->mv, off, u, a, b);
    if (effect) *effect = eff;
    return KT_OK;
}

/* ------------------------------------------------------------------ */
/* public: the shatter of Parberry's code                               */

kt_status kt_rails_shatter_sequential(kt_tourney *t, uint64_t seed)
{
    kt_status st = check_cycles(t);
    if (st != KT_OK) return st;
    ASSERT_SIZE_EXACT(t);
    work W;
    st = work_init(&W, t, false, seed);
    if (st != KT_OK) return st;
    rail_list L = {W.G.al, NULL, 0, 0, false};
    scan_rails(&W.G, W.mv, list_visit, &L);
    if (L.failed) {
        kti_free(W.G.al, L.v);
        work_free(&W);
        return KT_ENOMEM;
    }
    /* a uniformly random order (Fisher-Yates), then every rail that is
     * still a rail when its turn comes */
    for (size_t j = L.n; j > 1; j--) {
        size_t q = (size_t)kti_rng_below(&W.rng, j);
        kt_rail x = L.v[j - 1];
        L.v[j - 1] = L.v[q];
        L.v[q] = x;
    }
    size_t switched = 0;
    for (size_t j = 0; j < L.n; j++) {
        kt_rail r = L.v[j];
        if (!rail_at(W.mv, W.G.off, r.top, r.primary, r.cross)) continue;
        rail_switch(W.mv, W.G.off, r.top, r.primary, r.cross);
        switched++;
    }
    if (switched > 0) work_store_recount(&W, t);
    kti_free(W.G.al, L.v);
    work_free(&W);
    return KT_OK;
}
