/* SPDX-License-Identifier: MIT */
/*
 * Structured tourneys of Parberry (2020, "Tourneys and the Fast Generation
 * and Obfuscation of Closed Knight's Tours").
 *
 * Concentric braided tourney (square boards, n even >= 4): the board is cut
 * into concentric rings two cells wide (outer sides n, n-4, n-8, ... while
 * the side is >= 8) around a centre of side 4 (n = 0 mod 4) or 6 (n = 2 mod
 * 4).  Inside a ring of width two every cell away from the corners has
 * exactly two knight neighbours in the ring, and the corners resolve
 * uniquely too, so the ring's 2-factor is forced: four interwoven zig-zag
 * strands, a braid.  We compute it by forced-edge propagation.  The 4x4
 * centre is its cover by four 4-cycles, the 6x6 centre a closed tour
 * (a block of lib/generate/blocks_data.c).
 *
 * Four-cover tourney (both sides multiples of 4): every 4x4 block covered
 * by its four 4-cycles (two rhombi and two squares; this cover of the 4x4
 * knight's graph is unique), so every knight rides a cycle of four cells.
 */
#include "generate_internal.h"

/* The 4x4 cover by four 4-cycles, as move-pair bytes. */
static void four_tile(uint8_t tab[16])
{
    static const uint8_t cyc[4][4][2] = {
        {{0, 0}, {1, 2}, {3, 3}, {2, 1}},
        {{3, 0}, {2, 2}, {0, 3}, {1, 1}},
        {{1, 0}, {3, 1}, {2, 3}, {0, 2}},
        {{2, 0}, {0, 1}, {1, 3}, {3, 2}},
    };
    memset(tab, KTI_PAIR_EMPTY, 16);
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 4; i++) {
            const uint8_t *a = cyc[k][i], *b = cyc[k][(i + 1) & 3];
            int m = kti_knight_move(b[0] - a[0], b[1] - a[1]);
            kti_pair_add(tab, (kt_cell)(a[1] * 4 + a[0]), m);
            kti_pair_add(tab, (kt_cell)(b[1] * 4 + b[0]), (m + 4) & 7);
        }
}

kt_status kti_four_cover_tourney(kt_tourney **out, const kt_graph *g, kti_progress *pr)
{
    size_t W = g->width, H = g->height;
    if (W % 4 || H % 4) return KT_EUNSUPPORTED;
    kt_tourney *t = NULL;
    kt_status st = kti_tourney_alloc(&t, g);
    if (st != KT_OK) return st;
    uint8_t tab[16];
    four_tile(tab);
    for (size_t y = 0; y < H; y++) {
        if (kti_gen_tick(pr, y, H)) {
            kt_tourney_free(t);
            return KT_ECANCELED;
        }
        uint8_t *row = t->mv + y * W;
        const uint8_t *src = tab + (y & 3) * 4;
        for (size_t x = 0; x < W; x += 4) memcpy(row + x, src, 4);
    }
    t->shape = KT_SHAPE_CYCLES;
    t->size = W * H / 4;
    *out = t;
    return KT_OK;
}

/* Ring index of a cell of the n x n board (rings two cells wide). */
static inline size_t ring_of(size_t n, size_t x, size_t y)
{
    size_t d = x;
    if (y < d) d = y;
    if (n - 1 - x < d) d = n - 1 - x;
    if (n - 1 - y < d) d = n - 1 - y;
    return d / 2;
}

/* The working state of the braid: per cell, the moves to ring neighbours
 * not yet excluded (avail) and the moves taken (chosen), and a stack of
 * cells to look at again. */
typedef struct braid {
    const kt_graph *g;
    uint8_t *avail, *chosen, *inq;
    kt_cell *stack;
    size_t sp;
} braid;

/* Queue every cell of the rings with its moves inside its own ring. */
/* The available edges of every ring cell; seconds on 10^8 cells, so it
 * reports progress (unknown total).  KT_OK or KT_ECANCELED. */
static kt_status braid_init(braid *B, size_t rings, kti_progress *pr)
{
    const kt_graph *g = B->g;
    size_t n = g->width;
    for (size_t c = 0; c < g->ncells; c++) {
        if ((c & 0xFFFFu) == 0 && kti_gen_tick(pr, 0, 0)) return KT_ECANCELED;
        size_t r = ring_of(n, c % n, c / n);
        if (r >= rings) continue;
        unsigned a = 0;
        for (int m = 0; m < 8; m++) {
            kt_cell d = kti_step(g, (kt_cell)c, m);
            if (d != KT_CELL_NONE && ring_of(n, d % n, d / n) == r) a |= 1u << m;
        }
        B->avail[c] = (uint8_t)a;
        B->stack[B->sp++] = (kt_cell)c;
        B->inq[c] = 1;
    }
    return KT_OK;
}

static inline void braid_queue(braid *B, kt_cell c)
{
    if (!B->inq[c]) {
        B->inq[c] = 1;
        B->stack[B->sp++] = c;
    }
}

/* Propagate: a cell with exactly two available edges takes both; a cell
 * with two chosen edges drops the rest.  Each cell is queued again only
 * when its neighbourhood changes, so the total work is linear.  KT_OK or
 * KT_ECANCELED. */
static kt_status braid_propagate(braid *B, kti_progress *pr)
{
    const kt_graph *g = B->g;
    uint64_t pops = 0;
    while (B->sp > 0) {
        if ((++pops & 0xFFFF) == 0 && kti_gen_tick(pr, 0, 0)) return KT_ECANCELED;
        kt_cell c = B->stack[--B->sp];
        B->inq[c] = 0;
        unsigned a = B->avail[c], ch = B->chosen[c];
        unsigned drop = 0, take = 0;
        if (__builtin_popcount(ch) == 2) drop = a & ~ch;
        else if (__builtin_popcount(a) == 2) take = a & ~ch;
        if (!drop && !take) continue;
        for (int m = 0; m < 8; m++) {
            if (!(((drop | take) >> m) & 1)) continue;
            kt_cell d = kti_step(g, c, m);
            unsigned back = 1u << ((m + 4) & 7);
            if ((drop >> m) & 1) {
                B->avail[c] &= (uint8_t)~(1u << m);
                B->avail[d] &= (uint8_t)~back;
            } else {
                B->chosen[c] |= (uint8_t)(1u << m);
                B->chosen[d] |= (uint8_t)back;
            }
            braid_queue(B, d);
        }
        braid_queue(B, c);
    }
    return KT_OK;
}

/* Write the rings' edges as move pairs; KT_EUNSUPPORTED if some ring cell
 * was not forced (does not happen on the boards the braid accepts), or
 * KT_ECANCELED. */
static kt_status braid_store(const braid *B, uint8_t *mv, size_t rings, kti_progress *pr)
{
    size_t n = B->g->width;
    for (size_t c = 0; c < B->g->ncells; c++) {
        if ((c & 0xFFFFu) == 0 && kti_gen_tick(pr, 0, 0)) return KT_ECANCELED;
        if (ring_of(n, c % n, c / n) >= rings) continue;
        unsigned ch = B->chosen[c];
        if (__builtin_popcount(ch) != 2) return KT_EUNSUPPORTED;
        unsigned lo = (unsigned)__builtin_ctz(ch), hi = 31u - (unsigned)__builtin_clz(ch);
        mv[c] = (uint8_t)(hi << 4 | lo);
    }
    return KT_OK;
}

/* The centre of side cs (4: its four-cover; 6: a closed tour) at (c0, c0). */
static void braid_centre(uint8_t *mv, size_t n, size_t c0, size_t cs)
{
    if (cs == 4) {
        uint8_t tab[16];
        four_tile(tab);
        for (size_t y = 0; y < 4; y++) memcpy(mv + (c0 + y) * n + c0, tab + 4 * y, 4);
        return;
    }
    const kti_block *b = NULL;
    for (size_t i = 0; i < kti_block_count && b == NULL; i++)
        if (kti_blocks[i].kind == KTI_BLK_CYCLE && kti_blocks[i].w == 6 && kti_blocks[i].h == 6) b = &kti_blocks[i];
    KTI_ASSERT(b != NULL);
    for (size_t y = 0; y < 6; y++) memcpy(mv + (c0 + y) * n + c0, b->mv + 6 * y, 6);
}

kt_status kti_braid_tourney(kt_tourney **out, const kt_graph *g, kti_progress *pr)
{
    size_t n = g->width;
    if (g->height != n || (n & 1) || n < 4) return KT_EUNSUPPORTED;
    size_t rings = (n - (n % 4 == 0 ? 4 : 6)) / 4; /* rings of outer side n, n-4, ..., >= 8 */
    size_t c0 = 2 * rings, cs = n - 4 * rings;     /* centre origin and side (4 or 6) */
    kt_tourney *t = NULL;
    KTI_TRY(kti_tourney_alloc(&t, g));
    size_t N = g->ncells;
    braid B = {g, kti_alloc(&g->alloc, N), kti_alloc(&g->alloc, N), kti_alloc(&g->alloc, N),
               kti_gen_alloc(&g->alloc, N, sizeof(kt_cell)), 0};
    kt_status st = KT_ENOMEM;
    if (B.avail && B.chosen && B.inq && B.stack) {
        /* zeroed a piece at a time: 10^8 cells take a while */
        st = kti_gen_zero(B.avail, N, pr, 0, 0) || kti_gen_zero(B.chosen, N, pr, 0, 0) ||
                     kti_gen_zero(B.inq, N, pr, 0, 0)
                 ? KT_ECANCELED
                 : braid_init(&B, rings, pr);
        if (st == KT_OK) st = braid_propagate(&B, pr);
    }
    if (st == KT_OK) st = braid_store(&B, t->mv, rings, pr);
    if (st == KT_OK) {
        braid_centre(t->mv, n, c0, cs);
        t->shape = KT_SHAPE_CYCLES;
        st = kti_tourney_recount(t);
    }
    kti_free(&g->alloc, B.avail);
    kti_free(&g->alloc, B.chosen);
    kti_free(&g->alloc, B.inq);
    kti_free(&g->alloc, B.stack);
    if (st != KT_OK) {
        kt_tourney_free(t);
        return st;
    }
    *out = t;
    return KT_OK;
}
