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
#include "generate_internal.h"

#include "util/util.h"

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
static size_t compose_main(uint64_t n, uint8_t *parts, kti_rng *rng, bool odd_last)
{
    size_t k = 0;
    if (odd_last && (n & 1)) { /* reserve the odd part for the end */
        unsigned cand[3], nc = 0;
        for (unsigned p = 5; p <= 9 && p <= n; p += 2)
            if (repr_main(n - p, false)) cand[nc++] = p;
        unsigned p = cand[nc == 1 ? 0 : kti_rng_below(rng, nc)];
        k = compose_main(n - p, parts, rng, false);
        parts[k++] = (uint8_t)p;
        return k;
    }
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

/* Parberry-style recursive halving: split n in two near-equal parts that
 * are again splittable, down to parts of 5..10. */
static size_t compose_divide(uint64_t n, uint8_t *parts)
{
    if (n <= 10) {
        parts[0] = (uint8_t)n;
        return 1;
    }
    for (uint64_t d = 0; d < n / 2; d++) {
        for (int sgn = 0; sgn < 2; sgn++) {
            uint64_t a = sgn ? n / 2 + d : n / 2 - d;
            uint64_t b = n - a;
            if (a < 5 || b < 5) continue;
            if (!repr_main(a, (a & 1) != 0) || !repr_main(b, (b & 1) != 0)) continue;
            if ((a & 1) && (b & 1)) continue;
            size_t k = compose_divide(a, parts);
            return k + compose_divide(b, parts + k);
        }
    }
    return 0; /* not reached for n >= 5 */
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

static kt_status grid_new(const kt_allocator *al, grid *gr, size_t W, size_t H, kti_rng *rng,
                         bool odd_last, bool divide)
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
    gr->C = divide ? compose_divide(W, gr->cw) : compose_main(W, gr->cw, rng, odd_last);
    gr->R = divide ? compose_divide(H, gr->rh) : compose_main(H, gr->rh, rng, odd_last);
    for (size_t c = 0; c < gr->C; c++) gr->xoff[c + 1] = gr->xoff[c] + gr->cw[c];
    return KT_OK;
}

/* Transposition of a block's bytes. */
static const uint8_t tmove_[16] = {5, 4, 3, 2, 1, 0, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};
static inline uint8_t map_byte(uint8_t p, const uint8_t *tab)
{
    unsigned lo = tab[p & 0xF], hi = tab[p >> 4];
    return (uint8_t)(lo < hi ? (hi << 4 | lo) : (lo << 4 | hi));
}

/* Tile the board (both sides >= 5).  corner: the board is odd x odd and
 * the bottom-right block is an odd x odd Hamiltonian path (kind ODD), left
 * out of the rail tree and attached to the cycle through its end. */
static kt_status tile_main(kt_tourney *t, kti_rng *rng, const catalog *cat, bool corner,
                           bool rails, bool divide, bool canonical)
{
    const kt_graph *g = t->g;
    size_t W = g->width, H = g->height;
    uint8_t *mv = t->mv;
    grid gr;
    kt_status st = grid_new(&g->alloc, &gr, W, H, rng, corner, divide);
    if (st != KT_OK) return st;
    size_t y0 = 0;
    for (size_t r = 0; r < gr.R; r++) {
        unsigned h = gr.rh[r];
        size_t full = gr.C;
        if (corner && r + 1 == gr.R) full--; /* the corner block is placed below */
        for (size_t c = 0; c < full; c++)
            gr.src[c] = canonical ? kti_blocks[cat->s[KTI_BLK_CYCLE][gr.cw[c]][h].first].mv
                                  : pick(cat, KTI_BLK_CYCLE, gr.cw[c], h, rng)->mv;
        for (unsigned y = 0; y < h; y++) {
            uint8_t *row = mv + (y0 + y) * W;
            for (size_t c = 0; c < full; c++) {
                unsigned w = gr.cw[c];
                copy_small(row + gr.xoff[c], gr.src[c] + y * w, w);
            }
        }
        if (!rails) {
            y0 += h;
            continue;
        }
        for (size_t c = 1; c < full; c++) rail_h(mv, W, gr.xoff[c], y0);
        if (r > 0 && full > 0) {
            size_t c = full == 1 ? 0 : kti_rng_below(rng, full);
            rail_v(mv, W, gr.xoff[c], y0);
        }
        y0 += h;
    }
    t->size = rails ? 1 : gr.R * gr.C;
    if (corner) {
        unsigned w = gr.cw[gr.C - 1], h = gr.rh[gr.R - 1];
        size_t x0 = W - w, yb = H - h;
        /* Left neighbour: the block as stored (end in column 0).  No left
         * neighbour but one above: the transposed h x w block (end in row 0). */
        bool tr = gr.C == 1;
        const kti_block *b = tr ? pick(cat, KTI_BLK_ODD, h, w, rng) : pick(cat, KTI_BLK_ODD, w, h, rng);
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++)
                mv[(yb + y) * W + x0 + x] = tr ? map_byte(b->mv[x * b->w + y], tmove_) : b->mv[y * w + x];
        if (gr.C > 1 || gr.R > 1) {
            /* the path end on the port side (other than the block's start) */
            size_t xcell = SIZE_MAX;
            for (unsigned i = 0; i < (tr ? w : h); i++) {
                size_t c = tr ? yb * W + x0 + i : (yb + i) * W + x0;
                unsigned lc = tr ? (unsigned)i * b->w : i * b->w;
                if ((mv[c] >> 4) == KTI_NOMOVE && (int)lc != b->param) xcell = c;
            }
            /* a neighbour across the port side, on the cycle */
            int mx = -1;
            for (int m = 0; m < 8 && mx < 0; m++) {
                kt_cell y = kti_step(g, (kt_cell)xcell, m);
                if (y == KT_CELL_NONE) continue;
                size_t yx = y % W, yy = y / W;
                if (yx < x0 || yy < yb) mx = m;
            }
            kt_cell y = kti_step(g, (kt_cell)xcell, mx);
            unsigned m2 = mv[y] & 0xF; /* drop y's edge to z */
            kt_cell z = kti_step(g, y, (int)m2);
            kti_pair_replace(mv, y, m2, (unsigned)(mx + 4) & 7);
            kti_pair_replace(mv, z, (m2 + 4) & 7, KTI_NOMOVE);
            kti_pair_replace(mv, xcell, KTI_NOMOVE, (unsigned)mx);
        }
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

/* A closed tour on logical columns [0, n) of the strip (n even >= 10). */
static kt_status strip_closed(const kt_graph *g, const strip *s, size_t n, kti_rng *rng,
                              const catalog *cat)
{
    uint8_t *parts = kti_alloc(&g->alloc, n / 10 + 1);
    if (parts == NULL) return KT_ENOMEM;
    size_t k = compose_3row(n, parts, rng);
    size_t x = 0;
    for (size_t i = 0; i < k; i++) {
        strip_put(s, x, pick(cat, i + 1 < k ? KTI_BLK_PATH3 : KTI_BLK_CYC3, parts[i], 3, rng));
        x += parts[i];
    }
    /* Join from the right: the last block is a cycle; insert each path. */
    for (size_t i = k; i-- > 1;) {
        x -= parts[i];
        strip_join(s, x);
    }
    kti_free(&g->alloc, parts);
    return KT_OK;
}

static kt_status closed_3row(kt_tourney *t, kti_rng *rng, const catalog *cat)
{
    const kt_graph *g = t->g;
    strip s = {t->mv, g->width, g->height != 3};
    return strip_closed(g, &s, s.tr ? g->height : g->width, rng, cat);
}

/* Open tours of 3 x n boards with n odd: a closed tour of the first n - 7
 * columns plus the 3 x 7 open tour (which ends at its corner (0,0)) hooked
 * into it; small boards take their precomputed open tour whole. */
static kt_status open_3row(kt_tourney *t, kti_rng *rng, const catalog *cat)
{
    const kt_graph *g = t->g;
    strip s = {t->mv, g->width, g->height != 3};
    size_t n = s.tr ? g->height : g->width;
    const kti_block *b = pick(cat, KTI_BLK_OPEN, (unsigned)(n < MAXSIDE ? n : 0), 3, rng);
    if (b != NULL) {
        strip_put(&s, 0, b);
        return KT_OK;
    }
    if (!(n & 1) || n < 17) return KT_ENOTFOUND;
    b = pick(cat, KTI_BLK_OPEN, 7, 3, rng);
    if (b == NULL || b->param != 0) return KT_ENOTFOUND;
    kt_status st = strip_closed(g, &s, n - 7, rng, cat);
    if (st != KT_OK) return st;
    size_t x0 = n - 7;
    strip_put(&s, x0, b);
    /* end (x0,0) -5-> y = (x0-1,2); y drops one cycle edge */
    size_t yi = sidx(&s, x0 - 1, 2);
    unsigned m2 = smove(&s, s.mv[yi] & 0xF); /* logical move of y's lower nibble */
    static const int kdx[8] = {2, 1, -1, -2, -2, -1, 1, 2}, kdy[8] = {-1, -2, -2, -1, 1, 2, 2, 1};
    size_t zx = (size_t)((int64_t)x0 - 1 + kdx[m2]);
    size_t zy = (size_t)(2 + kdy[m2]);
    strip_repl(&s, x0 - 1, 2, m2, 1);
    strip_repl(&s, zx, zy, (m2 + 4) & 7, KTI_NOMOVE);
    strip_repl(&s, x0, 0, KTI_NOMOVE, 5);
    return KT_OK;
}

kt_status kti_blocks_open(kt_tourney *t, kt_cell start, uint64_t seed)
{
    (void)start;
    const kt_graph *g = t->g;
    uint32_t W = g->width, H = g->height;
    kti_rng rng;
    kti_rng_seed(&rng, seed);
    catalog *cat = kti_alloc(&g->alloc, sizeof *cat);
    if (cat == NULL) return KT_ENOMEM;
    catalog_build(cat);
    kt_status st;
    if (W >= 5 && H >= 5 && (W & 1) && (H & 1)) st = tile_main(t, &rng, cat, true, true, false, false);
    else if (W == 3 || H == 3) st = open_3row(t, &rng, cat);
    else st = KT_ENOTFOUND;
    kti_free(&g->alloc, cat);
    if (st == KT_OK) {
        t->shape = KT_SHAPE_PATH;
        t->size = 1;
    }
    return st;
}

kt_status kti_blocks_closed(kt_tourney *t, uint64_t seed)
{
    return kti_blocks_closed_ex(t, seed, false);
}

kt_status kti_blocks_closed_ex(kt_tourney *t, uint64_t seed, bool divide)
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
        st = tile_main(t, &rng, cat, false, true, divide, divide && seed == 0);
    }
    kti_free(&g->alloc, cat);
    if (st == KT_OK) {
        t->shape = KT_SHAPE_CYCLES;
        t->size = 1;
    }
    return st;
}

/* Blocks (or divide-and-conquer) without the joins: one cycle per block. */
kt_status kti_blocks_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed, bool divide)
{
    uint32_t W = g->width, H = g->height;
    if (!kt_graph_board_has_closed_tour(W, H) || W * (uint64_t)H == 1) return KT_EUNSUPPORTED;
    kt_tourney *t = NULL;
    kt_status st = kti_tourney_alloc(&t, g);
    if (st != KT_OK) return st;
    kti_rng rng;
    kti_rng_seed(&rng, seed);
    catalog *cat = kti_alloc(&g->alloc, sizeof *cat);
    if (cat == NULL) {
        kt_tourney_free(t);
        return KT_ENOMEM;
    }
    catalog_build(cat);
    if (W == 3 || H == 3) {
        strip s = {t->mv, W, H != 3};
        size_t n = s.tr ? H : W;
        uint8_t *parts = kti_alloc(&g->alloc, n / 10 + 1);
        if (parts == NULL) {
            st = KT_ENOMEM;
        } else {
            size_t k = compose_3row(n, parts, &rng), x = 0;
            for (size_t i = 0; i < k; i++) {
                const kti_block *b = divide && seed == 0 ? &kti_blocks[cat->s[KTI_BLK_CYC3][parts[i]][3].first]
                                                         : pick(cat, KTI_BLK_CYC3, parts[i], 3, &rng);
                strip_put(&s, x, b);
                x += parts[i];
            }
            t->size = k;
            kti_free(&g->alloc, parts);
        }
    } else {
        st = tile_main(t, &rng, cat, false, false, divide, divide && seed == 0);
    }
    kti_free(&g->alloc, cat);
    if (st != KT_OK) {
        kt_tourney_free(t);
        return st;
    }
    t->shape = KT_SHAPE_CYCLES;
    *out = t;
    return KT_OK;
}
