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
 * Open tours of odd x odd boards: the same tiling, with the bottom-right
 * block a Hamiltonian path (from any majority-colour cell of the block to
 * its left or top side) hooked into the cycle of the others, so one end
 * can be put on any such cell of the block; mirroring the finished tour
 * moves that end to the other three corners.  3 x odd boards: a closed
 * strip plus a 3 x 7 open tour.
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

/* Byte transposition: move (dx,dy) -> (dy,dx) in both nibbles. */
static const uint8_t tmove[16] = {5, 4, 3, 2, 1, 0, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};
static inline uint8_t map_byte(uint8_t p, const uint8_t *tab)
{
    unsigned lo = tab[p & 0xF], hi = tab[p >> 4];
    return (uint8_t)(lo < hi ? (hi << 4 | lo) : (lo << 4 | hi));
}
static inline uint8_t tbyte(uint8_t p)
{
    return map_byte(p, tmove);
}

/* How tile_main covers the board. */
typedef struct tiling {
    bool corner;    /* odd x odd: the bottom-right block is an odd x odd
                     * Hamiltonian path (kind ODD), left out of the rail tree
                     * and attached to the cycle through its end */
    bool rails;     /* merge the blocks into one cycle (else one per block) */
    bool divide;    /* Parberry's recursive halving of the sides */
    bool canonical; /* every block its first precomputed tour */
    kt_cell want;   /* corner: the cell the path's free end should be, when
                     * it lies in the corner block; else KT_CELL_NONE */
} tiling;

/* The ODD block of w x h whose free end is `param` when there is one, else
 * a random one. */
static const kti_block *pick_odd(const catalog *cat, unsigned w, unsigned h, long param,
                                 kti_rng *rng)
{
    if (param >= 0 && w < MAXSIDE && h < MAXSIDE) {
        const span *sp = &cat->s[KTI_BLK_ODD][w][h];
        for (unsigned i = 0; i < sp->count; i++)
            if (kti_blocks[sp->first + i].param == param) return &kti_blocks[sp->first + i];
    }
    return pick(cat, KTI_BLK_ODD, w, h, rng);
}

/* Place the corner block (bottom right, w x h, both odd) of an odd x odd
 * board and hook its path into the cycle of the other blocks.  With a left
 * neighbour the block is used as stored (its end in column 0); with no left
 * neighbour but one above, transposed (h x w stored, its end in row 0).
 * The path's ends are then the block's free end and the cycle cell z that
 * lost an edge. */
static void place_corner(kt_tourney *t, const grid *gr, const catalog *cat, kti_rng *rng,
                         kt_cell want)
{
    const kt_graph *g = t->g;
    size_t W = g->width, H = g->height;
    uint8_t *mv = t->mv;
    unsigned w = gr->cw[gr->C - 1], h = gr->rh[gr->R - 1];
    size_t x0 = W - w, yb = H - h;
    bool tr = gr->C == 1;
    long param = -1; /* want in the block's stored coordinates */
    if (want != KT_CELL_NONE && want % W >= x0 && want / W >= yb) {
        size_t lx = want % W - x0, ly = want / W - yb;
        param = (long)(tr ? lx * h + ly : ly * w + lx);
    }
    const kti_block *b = tr ? pick_odd(cat, h, w, param, rng) : pick_odd(cat, w, h, param, rng);
    KTI_ASSERT(b != NULL && (unsigned)b->w * b->h == w * h);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            mv[(yb + y) * W + x0 + x] = tr ? tbyte(b->mv[x * b->w + y]) : b->mv[y * w + x];
    if (gr->C == 1 && gr->R == 1) return; /* the block is the board */
    /* the path end on the port side (other than the block's start) */
    size_t xcell = SIZE_MAX;
    for (unsigned i = 0; i < (tr ? w : h); i++) {
        size_t c = tr ? yb * W + x0 + i : (yb + i) * W + x0;
        if ((mv[c] >> 4) == KTI_NOMOVE && (long)(i * b->w) != b->param) xcell = c;
    }
    KTI_ASSERT(xcell != SIZE_MAX);
    /* a neighbour y across the port side, on the cycle */
    int mx = -1;
    for (int m = 0; m < 8 && mx < 0; m++) {
        kt_cell y = kti_step(g, (kt_cell)xcell, m);
        if (y == KT_CELL_NONE) continue;
        if (y % W < x0 || y / W < yb) mx = m;
    }
    KTI_ASSERT(mx >= 0);
    kt_cell y = kti_step(g, (kt_cell)xcell, mx);
    unsigned m2 = mv[y] & 0xF; /* drop y's edge to z */
    kt_cell z = kti_step(g, y, (int)m2);
    kti_pair_replace(mv, y, m2, (unsigned)(mx + 4) & 7);
    kti_pair_replace(mv, z, (m2 + 4) & 7, KTI_NOMOVE);
    kti_pair_replace(mv, xcell, KTI_NOMOVE, (unsigned)mx);
}

/* Copy one band of block rows (height h at row y0) into the board and,
 * with rails, merge its blocks with each other and with the band above. */
static void tile_band(uint8_t *mv, size_t W, const grid *gr, size_t full, unsigned h, size_t y0,
                      bool rails, bool first, kti_rng *rng)
{
    for (unsigned y = 0; y < h; y++) {
        uint8_t *row = mv + (y0 + y) * W;
        for (size_t c = 0; c < full; c++) {
            unsigned w = gr->cw[c];
            copy_small(row + gr->xoff[c], gr->src[c] + y * w, w);
        }
    }
    if (!rails) return;
    for (size_t c = 1; c < full; c++) rail_h(mv, W, gr->xoff[c], y0);
    if (!first && full > 0) {
        size_t c = full == 1 ? 0 : kti_rng_below(rng, full);
        rail_v(mv, W, gr->xoff[c], y0);
    }
}

/* Tile the board (both sides >= 5) as `how` says; progress per band of
 * block rows.  KT_OK, KT_ENOMEM or KT_ECANCELED. */
static kt_status tile_main(kt_tourney *t, kti_rng *rng, const catalog *cat, const tiling *how,
                           kti_progress *pr)
{
    const kt_graph *g = t->g;
    size_t W = g->width, H = g->height;
    grid gr;
    KTI_TRY(grid_new(&g->alloc, &gr, W, H, rng, how->corner, how->divide));
    size_t y0 = 0;
    for (size_t r = 0; r < gr.R; r++) {
        if (kti_gen_tick(pr, y0, H)) {
            grid_free(&g->alloc, &gr);
            return KT_ECANCELED;
        }
        unsigned h = gr.rh[r];
        size_t full = gr.C;
        if (how->corner && r + 1 == gr.R) full--; /* the corner block is placed below */
        for (size_t c = 0; c < full; c++) {
            const span *sp = &cat->s[KTI_BLK_CYCLE][gr.cw[c]][h];
            KTI_ASSERT(sp->count > 0);
            gr.src[c] = how->canonical ? kti_blocks[sp->first].mv
                                       : pick(cat, KTI_BLK_CYCLE, gr.cw[c], h, rng)->mv;
        }
        tile_band(t->mv, W, &gr, full, h, y0, how->rails, r == 0, rng);
        y0 += h;
    }
    t->size = how->rails ? 1 : gr.R * gr.C;
    if (how->corner) place_corner(t, &gr, cat, rng, how->want);
    grid_free(&g->alloc, &gr);
    return KT_OK;
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

/* A closed tour on logical columns [0, n) of the strip (n even >= 10);
 * progress per block.  KT_OK, KT_ENOMEM or KT_ECANCELED. */
static kt_status strip_closed(const kt_graph *g, const strip *s, size_t n, kti_rng *rng,
                              const catalog *cat, kti_progress *pr)
{
    uint8_t *parts = kti_alloc(&g->alloc, n / 10 + 1);
    if (parts == NULL) return KT_ENOMEM;
    size_t k = compose_3row(n, parts, rng);
    size_t x = 0;
    for (size_t i = 0; i < k; i++) {
        if (kti_gen_tick(pr, x, n)) {
            kti_free(&g->alloc, parts);
            return KT_ECANCELED;
        }
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

static kt_status closed_3row(kt_tourney *t, kti_rng *rng, const catalog *cat, kti_progress *pr)
{
    const kt_graph *g = t->g;
    strip s = {t->mv, g->width, g->height != 3};
    return strip_closed(g, &s, s.tr ? g->height : g->width, rng, cat, pr);
}

/* Open tours of 3 x n boards with n odd: a closed tour of the first n - 7
 * columns plus the 3 x 7 open tour (which ends at its corner (0,0)) hooked
 * into it; small boards take their precomputed open tour whole. */
static kt_status open_3row(kt_tourney *t, kti_rng *rng, const catalog *cat, kti_progress *pr)
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
    KTI_TRY(strip_closed(g, &s, n - 7, rng, cat, pr));
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

/* The mirror image of cell c in the vertical axis (fx) and/or the
 * horizontal one (fy). */
static kt_cell mirror_cell(const kt_graph *g, kt_cell c, bool fx, bool fy)
{
    uint32_t x = c % g->width, y = c / g->width;
    if (fx) x = g->width - 1 - x;
    if (fy) y = g->height - 1 - y;
    return (kt_cell)((size_t)y * g->width + x);
}

/* Mirror the tour on t in place (moves map to their mirror images, so the
 * result is the mirrored tour). */
static void mirror_tour(kt_tourney *t, bool fx, bool fy)
{
    const kt_graph *g = t->g;
    uint8_t map[16];
    for (unsigned m = 0; m < 16; m++) map[m] = (uint8_t)m;
    for (unsigned m = 0; m < 8; m++) {
        int mm = kti_knight_move(fx ? -g->dx[m] : g->dx[m], fy ? -g->dy[m] : g->dy[m]);
        KTI_ASSERT(mm >= 0 && mm < 8);
        map[m] = (uint8_t)mm;
    }
    for (kt_cell c = 0; c < g->ncells; c++) {
        kt_cell d = mirror_cell(g, c, fx, fy);
        if (d < c) continue; /* swapped from the other side */
        uint8_t a = map_byte(t->mv[c], map), b = map_byte(t->mv[d], map);
        t->mv[c] = b;
        t->mv[d] = a;
    }
}

/* Make `start` an end of the path on t when a mirror image of the board
 * takes an end there. */
static void mirror_to_start(kt_tourney *t, kt_cell start)
{
    const kt_graph *g = t->g;
    for (kt_cell c = 0; c < g->ncells; c++) {
        if ((t->mv[c] >> 4) != KTI_NOMOVE) continue; /* not an end */
        for (unsigned k = 0; k < 4; k++)
            if (mirror_cell(g, start, k & 1, k >> 1) == c) {
                if (k != 0) mirror_tour(t, k & 1, k >> 1);
                return;
            }
    }
}

kt_status kti_blocks_open(kt_tourney *t, kt_cell start, uint64_t seed, kti_progress *pr)
{
    const kt_graph *g = t->g;
    uint32_t W = g->width, H = g->height;
    kti_rng rng;
    kti_rng_seed(&rng, seed);
    catalog *cat = kti_alloc(&g->alloc, sizeof *cat);
    if (cat == NULL) return KT_ENOMEM;
    catalog_build(cat);
    kt_status st;
    if (W >= 5 && H >= 5 && (W & 1) && (H & 1)) {
        /* The corner block sits at the bottom right: aim its free end at the
         * image of start in that quadrant. */
        tiling how = {true, true, false, false, KT_CELL_NONE};
        if (start != KT_CELL_NONE) {
            uint32_t x = start % W, y = start / W;
            how.want = mirror_cell(g, start, x < W - 1 - x, y < H - 1 - y);
        }
        st = tile_main(t, &rng, cat, &how, pr);
    } else if (W == 3 || H == 3) {
        st = open_3row(t, &rng, cat, pr);
    } else {
        st = KT_ENOTFOUND;
    }
    kti_free(&g->alloc, cat);
    if (st != KT_OK) return st;
    t->shape = KT_SHAPE_PATH;
    t->size = 1;
    if (start != KT_CELL_NONE) mirror_to_start(t, start);
    return KT_OK;
}

kt_status kti_blocks_closed(kt_tourney *t, uint64_t seed, bool divide, kti_progress *pr)
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
        st = closed_3row(t, &rng, cat, pr);
    } else {
        tiling how = {false, true, divide, divide && seed == 0, KT_CELL_NONE};
        st = tile_main(t, &rng, cat, &how, pr);
    }
    kti_free(&g->alloc, cat);
    if (st == KT_OK) {
        t->shape = KT_SHAPE_CYCLES;
        t->size = 1;
    }
    return st;
}

/* The 3 x n blocks unjoined: one cycle per block. */
static kt_status tourney_3row(kt_tourney *t, kti_rng *rng, const catalog *cat, bool canonical,
                              kti_progress *pr)
{
    const kt_graph *g = t->g;
    strip s = {t->mv, g->width, g->height != 3};
    size_t n = s.tr ? g->height : g->width;
    uint8_t *parts = kti_alloc(&g->alloc, n / 10 + 1);
    if (parts == NULL) return KT_ENOMEM;
    size_t k = compose_3row(n, parts, rng), x = 0;
    kt_status st = KT_OK;
    for (size_t i = 0; i < k && st == KT_OK; i++) {
        const span *sp = &cat->s[KTI_BLK_CYC3][parts[i]][3];
        KTI_ASSERT(sp->count > 0);
        strip_put(&s, x, canonical ? &kti_blocks[sp->first] : pick(cat, KTI_BLK_CYC3, parts[i], 3, rng));
        x += parts[i];
        if (kti_gen_tick(pr, x, n)) st = KT_ECANCELED;
    }
    t->size = k;
    kti_free(&g->alloc, parts);
    return st;
}

/* Blocks (or divide-and-conquer) without the joins: one cycle per block. */
kt_status kti_blocks_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed, bool divide,
                             kti_progress *pr)
{
    uint32_t W = g->width, H = g->height;
    if (!kt_graph_board_has_closed_tour(W, H) || W * (uint64_t)H == 1) return KT_EUNSUPPORTED;
    kt_tourney *t = NULL;
    KTI_TRY(kti_tourney_alloc(&t, g));
    kti_rng rng;
    kti_rng_seed(&rng, seed);
    catalog *cat = kti_alloc(&g->alloc, sizeof *cat);
    if (cat == NULL) {
        kt_tourney_free(t);
        return KT_ENOMEM;
    }
    catalog_build(cat);
    bool canonical = divide && seed == 0;
    kt_status st;
    if (W == 3 || H == 3) {
        st = tourney_3row(t, &rng, cat, canonical, pr);
    } else {
        tiling how = {false, false, divide, canonical, KT_CELL_NONE};
        st = tile_main(t, &rng, cat, &how, pr);
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

/* ---- seeded tour moves on small boards ---- */

/* Boards up to this many cells take the random moves below (positions fit
 * uint16_t arrays on the stack); larger boards keep the tiled tour, whose
 * many blocks and partitions already vary with the seed. */
#define SHUFFLE_MAX_CELLS 4096u
/* Boards up to this many cells (16 x 16) take many moves of both kinds,
 * at most SHUFFLE_WORK cells walked or scanned in all; larger ones take 8
 * 2-opt moves. */
#define SHUFFLE_SMALL_CELLS 256u
#define SHUFFLE_WORK ((size_t)1 << 17)

typedef struct shuffler {
    kt_tourney *t;
    size_t n;
    uint16_t ord[SHUFFLE_MAX_CELLS]; /* the tour as a cyclic order from cell 0 */
    uint16_t pos[SHUFFLE_MAX_CELLS]; /* its inverse */
    uint8_t save[SHUFFLE_SMALL_CELLS]; /* the tour before a wander */
    kti_rng rng;
} shuffler;

static void shuffle_walk(shuffler *sh)
{
    kt_cell prev = KT_CELL_NONE, c = 0;
    for (size_t i = 0; i < sh->n; i++) {
        sh->ord[i] = (uint16_t)c;
        sh->pos[c] = (uint16_t)i;
        kt_cell d = kti_next(sh->t, c, prev);
        prev = c;
        c = d;
    }
}

/* The cell after c along ord in direction dir (1 or n - 1). */
static inline kt_cell shuffle_at(const shuffler *sh, kt_cell c, size_t dir)
{
    return sh->ord[(sh->pos[c] + dir) % sh->n];
}

/* Switch the edges a-b and c-d (on the tour) for a-c and b-d (moves off
 * it). */
static void shuffle_switch(const shuffler *sh, kt_cell a, kt_cell b, kt_cell c, kt_cell d)
{
    const kt_graph *g = sh->t->g;
    uint8_t *mv = sh->t->mv;
    int mac = kti_move_between(g, a, c), mbd = kti_move_between(g, b, d);
    KTI_ASSERT(mac >= 0 && mbd >= 0);
    kti_pair_replace(mv, a, (unsigned)kti_move_between(g, a, b), (unsigned)mac);
    kti_pair_replace(mv, b, (unsigned)kti_move_between(g, b, a), (unsigned)mbd);
    kti_pair_replace(mv, c, (unsigned)kti_move_between(g, c, d), (unsigned)(mac + 4) & 7);
    kti_pair_replace(mv, d, (unsigned)kti_move_between(g, d, c), (unsigned)(mbd + 4) & 7);
}

/* A random a, b after a (direction *dir) and c a move from b (split) or
 * from a (2-opt) off the tour, d after c; KT_CELL_NONE for a when the draw
 * fails. */
static kt_cell shuffle_draw(shuffler *sh, bool split, size_t *dir, kt_cell *b, kt_cell *c,
                            kt_cell *d)
{
    size_t n = sh->n;
    kt_cell a = (kt_cell)kti_rng_below(&sh->rng, n);
    uint64_t r = kti_rng_next(&sh->rng);
    *dir = (r & 1) ? 1 : n - 1;
    *b = shuffle_at(sh, a, *dir);
    kt_cell from = split ? *b : a;
    *c = kti_step(sh->t->g, from, (int)((r >> 1) & 7));
    if (*c == KT_CELL_NONE || *c == a || *c == *b) return KT_CELL_NONE;
    if (*c == shuffle_at(sh, from, split ? *dir : n - *dir)) return KT_CELL_NONE; /* on the tour */
    *d = shuffle_at(sh, *c, *dir);
    return a;
}

/* Whether x lies on the path b..c (direction dir) of the tour as walked. */
static inline bool shuffle_in(const shuffler *sh, kt_cell x, kt_cell b, size_t len, size_t dir)
{
    size_t n = sh->n, off = dir == 1 ? (sh->pos[x] + n - sh->pos[b]) % n
                                     : (sh->pos[b] + n - sh->pos[x]) % n;
    return off <= len;
}

/* Split the tour in two (a-b, c-d become b-c and a-d, so the path b..c
 * closes on itself) and merge the two cycles again by a random switch
 * between them.  Returns the work done, 0 when the draw fails. */
static size_t shuffle_split_merge(shuffler *sh)
{
    const kt_graph *g = sh->t->g;
    size_t n = sh->n, dir;
    kt_cell b, c, d, a = shuffle_draw(sh, true, &dir, &b, &c, &d);
    if (a == KT_CELL_NONE || d == a || kti_move_between(g, a, d) < 0) return 0;
    size_t len = dir == 1 ? (sh->pos[c] + n - sh->pos[b]) % n : (sh->pos[b] + n - sh->pos[c]) % n;
    shuffle_switch(sh, b, a, c, d); /* b-a, c-d -> b-c, a-d */
    /* every switch u-v, x-y -> u-x, v-y with u on the cycle b..c and x off
     * it merges; pick one uniformly (reservoir sampling) */
    kt_cell pick[4] = {KT_CELL_NONE};
    uint64_t seen = 0;
    for (size_t i = 0; i <= len; i++) {
        kt_cell u = sh->ord[(sh->pos[b] + i * dir) % n];
        for (int m = 0; m < 8; m++) {
            kt_cell x = kti_step(g, u, m);
            if (x == KT_CELL_NONE || shuffle_in(sh, x, b, len, dir)) continue;
            kt_cell vs[2], ys[2];
            for (int k = 0; k < 2; k++) {
                unsigned pu = sh->t->mv[u], px = sh->t->mv[x];
                vs[k] = kti_step(g, u, (int)(k ? pu >> 4 : pu & 0xF));
                ys[k] = kti_step(g, x, (int)(k ? px >> 4 : px & 0xF));
            }
            for (int k = 0; k < 4; k++) {
                kt_cell v = vs[k & 1], y = ys[k >> 1];
                if (kti_move_between(g, v, y) < 0) continue;
                if (kti_rng_below(&sh->rng, ++seen) == 0) {
                    pick[0] = u, pick[1] = v, pick[2] = x, pick[3] = y;
                }
            }
        }
    }
    KTI_ASSERT(seen > 0); /* undoing the split is one of them */
    shuffle_switch(sh, pick[0], pick[1], pick[2], pick[3]);
    shuffle_walk(sh);
    return 32 * (len + 1) + n;
}

/* Reverse ord over the cyclic range of positions p..q (in +1 direction)
 * and update pos.  Returns the range's length. */
static size_t shuffle_reverse(shuffler *sh, size_t p, size_t q)
{
    size_t n = sh->n, len = (q + n - p) % n + 1;
    for (size_t k = 0; k < len / 2; k++) {
        size_t i = (p + k) % n, j = (q + n - k) % n;
        uint16_t x = sh->ord[i], y = sh->ord[j];
        sh->ord[i] = y;
        sh->ord[j] = x;
        sh->pos[y] = (uint16_t)i;
        sh->pos[x] = (uint16_t)j;
    }
    return len;
}

/* A 2-opt move: a-b, c-d (b after a, d after c) become a-c and b-d, which
 * reverses the path b..c (or, the same cycle, d..a), so the tour stays one
 * cycle; ord and pos follow by reversing the shorter of the two.  Returns
 * the work done, 0 when the draw fails. */
static size_t shuffle_two_opt(shuffler *sh)
{
    size_t dir, n = sh->n;
    kt_cell b, c, d, a = shuffle_draw(sh, false, &dir, &b, &c, &d);
    if (a == KT_CELL_NONE || kti_move_between(sh->t->g, b, d) < 0) return 0;
    shuffle_switch(sh, a, b, c, d);
    kt_cell p1 = dir == 1 ? b : c, q1 = dir == 1 ? c : b; /* b..c in +1 order */
    kt_cell p2 = dir == 1 ? d : a, q2 = dir == 1 ? a : d; /* d..a in +1 order */
    size_t l1 = (sh->pos[q1] + n - sh->pos[p1]) % n;
    if (2 * l1 <= n) return 1 + shuffle_reverse(sh, sh->pos[p1], sh->pos[q1]);
    return 1 + shuffle_reverse(sh, sh->pos[p2], sh->pos[q2]);
}

/* The cycle of every cell (label, in ord) of the cycles on t; their
 * number. */
static size_t shuffle_label(shuffler *sh)
{
    uint16_t *label = sh->ord;
    size_t n = sh->n, k = 0;
    for (size_t i = 0; i < n; i++) label[i] = UINT16_MAX;
    for (size_t s = 0; s < n; s++) {
        if (label[s] != UINT16_MAX) continue;
        kt_cell prev = KT_CELL_NONE, c = (kt_cell)s;
        do {
            label[c] = (uint16_t)k;
            kt_cell d = kti_next(sh->t, c, prev);
            prev = c;
            c = d;
        } while (c != (kt_cell)s);
        k++;
    }
    return k;
}

/* A random switch u-v, x-y -> u-x, v-y between cells of different cycles
 * (labels in ord), which merges them; false when there is none. */
static bool shuffle_merge_any(shuffler *sh)
{
    const kt_graph *g = sh->t->g;
    const uint16_t *label = sh->ord;
    kt_cell pick[4] = {KT_CELL_NONE};
    uint64_t seen = 0;
    for (kt_cell u = 0; u < sh->n; u++)
        for (int m = 0; m < 8; m++) {
            kt_cell x = kti_step(g, u, m);
            if (x == KT_CELL_NONE || x < u || label[x] == label[u]) continue;
            for (int k = 0; k < 4; k++) {
                unsigned pu = sh->t->mv[u], px = sh->t->mv[x];
                kt_cell v = kti_step(g, u, (int)((k & 1) ? pu >> 4 : pu & 0xF));
                kt_cell y = kti_step(g, x, (int)((k & 2) ? px >> 4 : px & 0xF));
                if (kti_move_between(g, v, y) < 0) continue;
                if (kti_rng_below(&sh->rng, ++seen) == 0) {
                    pick[0] = u, pick[1] = v, pick[2] = x, pick[3] = y;
                }
            }
        }
    if (seen == 0) return false;
    shuffle_switch(sh, pick[0], pick[1], pick[2], pick[3]);
    return true;
}

/* Exchange along a random alternating cycle of 2 len cells (len 2 or 3):
 * tour edges a[i]-b[i] are replaced by moves b[i]-a[i+1] off the tour.
 * The result is a set of cycles covering the board, maybe more than one.
 * Returns whether the exchange was made. */
static bool shuffle_exchange(shuffler *sh, unsigned len)
{
    const kt_graph *g = sh->t->g;
    kt_cell a[3], b[3];
    uint64_t r = kti_rng_next(&sh->rng);
    a[0] = (kt_cell)kti_rng_below(&sh->rng, sh->n);
    for (unsigned i = 0; i < len; i++, r >>= 4) {
        unsigned p = sh->t->mv[a[i]];
        b[i] = kti_step(g, a[i], (int)((r & 1) ? p >> 4 : p & 0xF));
        if (i + 1 < len) {
            a[i + 1] = kti_step(g, b[i], (int)((r >> 1) & 7));
            if (a[i + 1] == KT_CELL_NONE) return false;
        }
    }
    for (unsigned i = 0; i < len; i++) { /* 2 len distinct cells, new edges off the tour */
        for (unsigned j = 0; j < i; j++)
            if (a[i] == a[j] || a[i] == b[j] || b[i] == a[j] || b[i] == b[j]) return false;
        if (a[i] == b[i]) return false;
        kt_cell nx = a[(i + 1) % len];
        if (kti_move_between(g, b[i], nx) < 0 || kt_tourney_has_edge(sh->t, b[i], nx)) return false;
    }
    for (unsigned i = 0; i < len; i++) {
        kt_cell nx = a[(i + 1) % len], pv = b[(i + len - 1) % len];
        kti_pair_replace(sh->t->mv, a[i], (unsigned)kti_move_between(g, a[i], b[i]),
                         (unsigned)kti_move_between(g, a[i], pv));
        kti_pair_replace(sh->t->mv, b[i], (unsigned)kti_move_between(g, b[i], a[i]),
                         (unsigned)kti_move_between(g, b[i], nx));
    }
    return true;
}

/* Up to three random exchanges (alternating cycles of 4 or 6 cells),
 * whatever they do to the number of cycles, then random merges down to
 * one cycle; when that fails, the tour goes back to what it was (*moved
 * false).  Reaches tours that 2-opt moves and split-merges do not (on
 * 3 x n boards they reach 4 of the 16 closed tours of 3 x 10, this all
 * 16).  Returns the work done. */
static size_t shuffle_wander(shuffler *sh, bool *moved)
{
    size_t n = sh->n, work = 2 * n;
    memcpy(sh->save, sh->t->mv, n);
    unsigned switches = 1 + (unsigned)kti_rng_below(&sh->rng, 3);
    *moved = false;
    for (unsigned i = 0; i < switches; i++)
        *moved |= shuffle_exchange(sh, 2 + (unsigned)kti_rng_below(&sh->rng, 2));
    if (!*moved) return 1;
    for (size_t k = shuffle_label(sh); k > 1; k--) {
        work += 32 * n;
        if (!shuffle_merge_any(sh)) {
            memcpy(sh->t->mv, sh->save, n);
            *moved = false;
            break;
        }
        shuffle_label(sh);
    }
    shuffle_walk(sh);
    return work;
}

kt_status kti_blocks_shuffle(kt_tourney *t, uint64_t seed)
{
    size_t n = t->g->ncells;
    if (n < 5 || n > SHUFFLE_MAX_CELLS) return KT_OK;
    shuffler *sh = kti_alloc(&t->g->alloc, sizeof *sh);
    if (sh == NULL) return KT_ENOMEM;
    sh->t = t;
    sh->n = n;
    kti_rng_seed(&sh->rng, kti_mix64(seed ^ 0x5eed5eed5eed5eedull));
    unsigned sym = (unsigned)kti_rng_below(&sh->rng, t->g->width == t->g->height ? 8 : 4);
    if (sym != 0) kti_tourney_map_sym(t, sym, (uint8_t *)sh->ord); /* 2n bytes, free here */
    shuffle_walk(sh);
    /* boards of a few blocks need many moves to vary; larger ones, whose
     * tilings vary already, take a few 2-opt moves */
    bool small = n <= SHUFFLE_SMALL_CELLS;
    size_t work = 0, moves = small ? 8 * n : 8, budget = small ? SHUFFLE_WORK : 8 * (n + 1);
    for (size_t k = 0; k < 64 * moves && moves > 0 && work < budget; k++) {
        unsigned kind = small ? (unsigned)(kti_rng_next(&sh->rng) & 3) : 0;
        bool moved = true;
        size_t w = kind == 0 ? shuffle_two_opt(sh)
                 : kind == 3 ? shuffle_wander(sh, &moved) : shuffle_split_merge(sh);
        work += w; /* a wander that failed costs work but makes no move */
        if (w != 0 && moved) moves--;
    }
    kti_free(&t->g->alloc, sh);
    return KT_OK;
}
