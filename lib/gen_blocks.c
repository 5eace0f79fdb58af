/* SPDX-License-Identifier: MIT */
/*
 * Linear-time tours by tiling the board with precomputed blocks.
 *
 * Boards with both sides >= 5: the columns and the rows are split at random
 * (from the seed) into parts of 5..10, all even except one odd part where a
 * side is odd.  Every block carries one of several precomputed closed tours
 * that contain four "rail" edges near its corners (see tools/gen_blocks.c).
 * Two neighbouring blocks are merged by switching a rail: an edge u-v of the
 * left (upper) block and the parallel edge u'-w of the right (lower) block,
 * a knight's move apart, are replaced by u-u' and v-w.  Their two cycles
 * become one.  Rails along every block row plus one vertical rail (at a
 * random column) between consecutive block rows form a spanning tree of the
 * blocks, so the result is one closed tour.  Every rail edge is used once,
 * so each switch still finds its edges in place.
 *
 * Boards 3 x n (n even >= 10): blocks 3 x {10,...,18}; every block but the
 * last holds a Hamiltonian path whose two ends are a knight's move from the
 * next block's corner edge (0,0)-(1,2), which the path replaces.  Working
 * from the right, each step inserts a path into a cycle, so the result is
 * again one cycle.
 *
 * The block bytes are copied row by row (moves are translation invariant),
 * so the work per cell is a byte copy; the merges are O(blocks).
 */
#include "gen_blocks.h"

#include "rng.h"

#define MAXSIDE 19

typedef struct span {
    uint16_t first, count;
} span;

typedef struct catalog {
    span s[KTI_BLK_KINDS][MAXSIDE][MAXSIDE];
} catalog;

static void catalog_build(catalog *cat)
{
    memset(cat, 0, sizeof *cat);
    for (size_t i = 0; i < kti_block_count; i++) {
        const kti_block *b = &kti_blocks[i];
        if (b->w >= MAXSIDE || b->h >= MAXSIDE || b->kind >= KTI_BLK_KINDS) continue;
        span *sp = &cat->s[b->kind][b->w][b->h];
        if (sp->count == 0) sp->first = (uint16_t)i;
        sp->count++;
    }
}

static const kti_block *pick(const catalog *cat, int kind, unsigned w, unsigned h, kti_rng *rng)
{
    if (w >= MAXSIDE || h >= MAXSIDE) return NULL;
    const span *sp = &cat->s[kind][w][h];
    if (sp->count == 0) return NULL;
    return &kti_blocks[sp->first + (sp->count == 1 ? 0 : kti_rng_below(rng, sp->count))];
}

/* ---- compositions of a side into block sizes ---- */

static bool repr_main(uint64_t r, bool odd)
{
    if (r == 0) return !odd;
    if (odd) return r == 5 || r == 7 || r == 9 || r >= 11;
    return (r & 1) == 0 && r >= 6;
}

/* Split n (>= 5) into parts 5..10, all even except one when n is odd.  The
 * odd part goes at a random position.  Returns the number of parts. */
static size_t compose_main(uint64_t n, uint8_t *parts, kti_rng *rng)
{
    size_t k = 0;
    uint64_t rem = n;
    bool odd = (n & 1) != 0;
    while (rem > 0) {
        unsigned cand[6], nc = 0;
        for (unsigned p = 5; p <= 10; p++) {
            if ((p & 1) && !odd) continue;
            if (p > rem) break;
            if (repr_main(rem - p, odd && !(p & 1))) cand[nc++] = p;
        }
        unsigned p = cand[nc == 1 ? 0 : kti_rng_below(rng, nc)];
        parts[k++] = (uint8_t)p;
        rem -= p;
        if (p & 1) odd = false;
    }
    return k;
}

/* Split an even n >= 10 into parts 10, 12, ..., 18. */
static size_t compose_3row(uint64_t n, uint8_t *parts, kti_rng *rng)
{
    size_t k = 0;
    uint64_t rem = n;
    while (rem > 0) {
        unsigned cand[5], nc = 0;
        for (unsigned p = 10; p <= 18 && p <= rem; p += 2)
            if (rem - p == 0 || rem - p >= 10) cand[nc++] = p;
        unsigned p = cand[nc == 1 ? 0 : kti_rng_below(rng, nc)];
        parts[k++] = (uint8_t)p;
        rem -= p;
    }
    return k;
}

/* ---- rails ---- */

/* Horizontal rail across the vertical line x = x1 at block-row top y0:
 * u=(x1-2,y0) -6- v=(x1-1,y0+2) and u'=(x1,y0+1) -6- w=(x1+1,y0+3)
 * become u -7- u' and v -7- w. */
static inline void rail_h(uint8_t *mv, size_t W, size_t x1, size_t y0)
{
    size_t u = y0 * W + x1 - 2, v = (y0 + 2) * W + x1 - 1;
    size_t u2 = (y0 + 1) * W + x1, w = (y0 + 3) * W + x1 + 1;
    kti_pair_replace(mv, u, 6, 7);
    kti_pair_replace(mv, v, 2, 7);
    kti_pair_replace(mv, u2, 6, 3);
    kti_pair_replace(mv, w, 2, 3);
}

/* Vertical rail across the horizontal line y = y1 at block column x0:
 * u=(x0,y1-2) -7- v=(x0+2,y1-1) and u'=(x0+1,y1) -7- w=(x0+3,y1+1)
 * become u -6- u' and v -6- w. */
static inline void rail_v(uint8_t *mv, size_t W, size_t x0, size_t y1)
{
    size_t u = (y1 - 2) * W + x0, v = (y1 - 1) * W + x0 + 2;
    size_t u2 = y1 * W + x0 + 1, w = (y1 + 1) * W + x0 + 3;
    kti_pair_replace(mv, u, 7, 6);
    kti_pair_replace(mv, v, 3, 6);
    kti_pair_replace(mv, u2, 7, 2);
    kti_pair_replace(mv, w, 3, 2);
}

/* Copy n bytes (5..18) without a library call for the common sizes. */
static inline void copy_small(uint8_t *dst, const uint8_t *src, unsigned n)
{
    uint64_t a;
    if (n >= 8) {
        memcpy(&a, src, 8);
        memcpy(dst, &a, 8);
        if (n > 8) {
            uint64_t b;
            if (n <= 16) {
                memcpy(&b, src + n - 8, 8);
                memcpy(dst + n - 8, &b, 8);
            } else {
                memcpy(dst + 8, src + 8, n - 8);
            }
        }
    } else {
        uint32_t c, d;
        memcpy(&c, src, 4);
        memcpy(&d, src + n - 4, 4);
        memcpy(dst, &c, 4);
        memcpy(dst + n - 4, &d, 4);
    }
}

typedef struct grid {
    size_t C, R;
    uint8_t *cw, *rh;
    size_t *xoff;
    const uint8_t **src;
} grid;

static void grid_free(const kt_allocator *al, grid *gr)
{
    kti_free(al, gr->cw);
    kti_free(al, gr->rh);
    kti_free(al, gr->xoff);
    kti_free(al, (void *)gr->src);
}

static kt_status grid_new(const kt_allocator *al, grid *gr, size_t W, size_t H, kti_rng *rng)
{
    memset(gr, 0, sizeof *gr);
    gr->cw = kti_alloc(al, W / 5 + 1);
    gr->rh = kti_alloc(al, H / 5 + 1);
    gr->xoff = kti_calloc(al, W / 5 + 2, sizeof(size_t));
    gr->src = kti_calloc(al, W / 5 + 1, sizeof(const uint8_t *));
    if (!gr->cw || !gr->rh || !gr->xoff || !gr->src) {
        grid_free(al, gr);
        return KT_ENOMEM;
    }
    gr->C = compose_main(W, gr->cw, rng);
    gr->R = compose_main(H, gr->rh, rng);
    for (size_t c = 0; c < gr->C; c++) gr->xoff[c + 1] = gr->xoff[c] + gr->cw[c];
    return KT_OK;
}

static kt_status closed_main(kt_tourney *t, kti_rng *rng, const catalog *cat)
{
    const kt_graph *g = t->g;
    size_t W = g->width, H = g->height;
    uint8_t *mv = t->mv;
    grid gr;
    kt_status st = grid_new(&g->alloc, &gr, W, H, rng);
    if (st != KT_OK) return st;
    size_t y0 = 0;
    for (size_t r = 0; r < gr.R; r++) {
        unsigned h = gr.rh[r];
        for (size_t c = 0; c < gr.C; c++) gr.src[c] = pick(cat, KTI_BLK_CYCLE, gr.cw[c], h, rng)->mv;
        for (unsigned y = 0; y < h; y++) {
            uint8_t *row = mv + (y0 + y) * W;
            for (size_t c = 0; c < gr.C; c++) {
                unsigned w = gr.cw[c];
                copy_small(row + gr.xoff[c], gr.src[c] + y * w, w);
            }
        }
        for (size_t c = 1; c < gr.C; c++) rail_h(mv, W, gr.xoff[c], y0);
        if (r > 0) {
            size_t c = gr.C == 1 ? 0 : kti_rng_below(rng, gr.C);
            rail_v(mv, W, gr.xoff[c], y0);
        }
        y0 += h;
    }
    grid_free(&g->alloc, &gr);
    return KT_OK;
}

/* Byte transposition: move (dx,dy) -> (dy,dx) in both nibbles. */
static const uint8_t tmove[16] = {5, 4, 3, 2, 1, 0, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};
static inline uint8_t tbyte(uint8_t p)
{
    unsigned lo = tmove[p & 0xF], hi = tmove[p >> 4];
    return (uint8_t)(lo < hi ? (hi << 4 | lo) : (lo << 4 | hi));
}

/* A long thin board seen along its long side: logical (X, Y), Y < 3. */
typedef struct strip {
    uint8_t *mv;
    size_t W;   /* physical width */
    bool tr;    /* physical = transposed logical */
} strip;

static inline size_t sidx(const strip *s, size_t X, size_t Y)
{
    return s->tr ? X * s->W + Y : Y * s->W + X;
}
static inline unsigned smove(const strip *s, unsigned m)
{
    return s->tr && m < 8 ? tmove[m] : m;
}

static void strip_put(const strip *s, size_t X0, const kti_block *b)
{
    for (unsigned y = 0; y < b->h; y++)
        for (unsigned x = 0; x < b->w; x++) {
            uint8_t p = b->mv[y * b->w + x];
            s->mv[sidx(s, X0 + x, y)] = s->tr ? tbyte(p) : p;
        }
}

/* Replace logical move from -> to at logical cell (X, Y). */
static inline void strip_repl(const strip *s, size_t X, size_t Y, unsigned from, unsigned to)
{
    kti_pair_replace(s->mv, sidx(s, X, Y), smove(s, from), smove(s, to));
}

/* Insert the path block ending at logical column x1-1 into the cycle that
 * owns the corner edge (x1,0)-(x1+1,2). */
static void strip_join(const strip *s, size_t x1)
{
    /* Which end the path block has: (x1-1, 2) has a free nibble or not. */
    bool p_corner = (s->mv[sidx(s, x1 - 1, 2)] >> 4) == KTI_NOMOVE;
    strip_repl(s, x1, 0, 6, KTI_NOMOVE);
    strip_repl(s, x1 + 1, 2, 2, KTI_NOMOVE);
    if (p_corner) { /* p = (x1-1, 2) -> (x1, 0): (+1,-2) */
        strip_repl(s, x1 - 1, 2, KTI_NOMOVE, 1);
        strip_repl(s, x1, 0, KTI_NOMOVE, 5);
    } else { /* p = (x1-2, 1) -> (x1, 0): (+2,-1) */
        strip_repl(s, x1 - 2, 1, KTI_NOMOVE, 0);
        strip_repl(s, x1, 0, KTI_NOMOVE, 4);
    }
    /* q = (x1-1, 1) -> (x1+1, 2): (+2,+1) */
    strip_repl(s, x1 - 1, 1, KTI_NOMOVE, 7);
    strip_repl(s, x1 + 1, 2, KTI_NOMOVE, 3);
}

static kt_status closed_3row(kt_tourney *t, kti_rng *rng, const catalog *cat)
{
    const kt_graph *g = t->g;
    strip s = {t->mv, g->width, g->height != 3};
    size_t n = s.tr ? g->height : g->width;
    uint8_t *parts = kti_alloc(&g->alloc, n / 10 + 1);
    if (parts == NULL) return KT_ENOMEM;
    size_t k = compose_3row(n, parts, rng);
    size_t x = 0;
    for (size_t i = 0; i < k; i++) {
        const kti_block *b = pick(cat, i + 1 < k ? KTI_BLK_PATH3 : KTI_BLK_CYC3, parts[i], 3, rng);
        strip_put(&s, x, b);
        x += parts[i];
    }
    /* Join from the right: the last block is a cycle; insert each path. */
    x = n;
    for (size_t i = k; i-- > 1;) {
        x -= parts[i];
        strip_join(&s, x);
    }
    kti_free(&g->alloc, parts);
    return KT_OK;
}

kt_status kti_blocks_closed(kt_tourney *t, uint64_t seed)
{
    const kt_graph *g = t->g;
    uint32_t W = g->width, H = g->height;
    kti_rng rng;
    kti_rng_seed(&rng, seed);
    catalog *cat = kti_alloc(&g->alloc, sizeof *cat);
    if (cat == NULL) return KT_ENOMEM;
    catalog_build(cat);
    kt_status st;
    if (W == 1 && H == 1) {
        t->mv[0] = KTI_PAIR_EMPTY;
        st = KT_OK;
    } else if (W == 3 || H == 3) {
        st = closed_3row(t, &rng, cat);
    } else {
        st = closed_main(t, &rng, cat);
    }
    kti_free(&g->alloc, cat);
    if (st == KT_OK) {
        t->shape = KT_SHAPE_CYCLES;
        t->size = 1;
        t->size_dirty = false;
    }
    return st;
}
