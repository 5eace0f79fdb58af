/* SPDX-License-Identifier: MIT */
/*
 * Structured tourneys of Parberry's paper.
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

kt_status kti_four_cover_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    (void)seed; /* the cover is unique */
    size_t W = g->width, H = g->height;
    if (W % 4 || H % 4) return KT_EUNSUPPORTED;
    kt_tourney *t = NULL;
    kt_status st = kti_tourney_alloc(&t, g);
    if (st != KT_OK) return st;
    uint8_t tab[16];
    four_tile(tab);
    for (size_t y = 0; y < H; y++) {
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

kt_status kti_braid_tourney(kt_tourney **out, const kt_graph *g)
{
    size_t n = g->width;
    if (g->height != n || (n & 1) || n < 4) return KT_EUNSUPPORTED;
    size_t rings = (n - (n % 4 == 0 ? 4 : 6)) / 4; /* rings of outer side n, n-4, ..., >= 8 */
    size_t c0 = 2 * rings, cs = n - 4 * rings;     /* centre origin and side (4 or 6) */
    kt_tourney *t = NULL;
    kt_status st = kti_tourney_alloc(&t, g);
    if (st != KT_OK) return st;
    uint8_t *mv = t->mv;
    size_t N = g->ncells;
    /* avail: moves to ring neighbours not yet excluded; chosen: moves taken */
    uint8_t *avail = kti_calloc(&g->alloc, N, 1), *chosen = kti_calloc(&g->alloc, N, 1);
    uint8_t *inq = kti_calloc(&g->alloc, N, 1);
    kt_cell *stack = kti_calloc(&g->alloc, N, sizeof(kt_cell));
    if (!avail || !chosen || !inq || !stack) {
        st = KT_ENOMEM;
        goto done;
    }
    size_t sp = 0;
    for (size_t c = 0; c < N; c++) {
        size_t x = c % n, y = c / n, r = ring_of(n, x, y);
        if (r >= rings) continue;
        unsigned a = 0;
        for (int m = 0; m < 8; m++) {
            kt_cell d = kti_step(g, (kt_cell)c, m);
            if (d != KT_CELL_NONE && ring_of(n, d % n, d / n) == r) a |= 1u << m;
        }
        avail[c] = (uint8_t)a;
        stack[sp++] = (kt_cell)c;
        inq[c] = 1;
    }
    /* Propagate: a cell with exactly two available edges takes both; a cell
     * with two chosen edges drops the rest.  Each cell is queued again only
     * when its neighbourhood changes, so the total work is linear. */
    while (sp > 0) {
        kt_cell c = stack[--sp];
        inq[c] = 0;
        unsigned a = avail[c], ch = chosen[c];
        unsigned cnt = (unsigned)__builtin_popcount(a);
        unsigned drop = 0, take = 0;
        if (__builtin_popcount(ch) == 2) drop = a & ~ch;
        else if (cnt == 2) take = a & ~ch;
        if (!drop && !take) continue;
        for (int m = 0; m < 8; m++) {
            if (!(((drop | take) >> m) & 1)) continue;
            kt_cell d = kti_step(g, c, m);
            unsigned back = 1u << ((m + 4) & 7);
            if ((drop >> m) & 1) {
                avail[c] &= (uint8_t)~(1u << m);
                avail[d] &= (uint8_t)~back;
            } else {
                chosen[c] |= (uint8_t)(1u << m);
                chosen[d] |= (uint8_t)back;
            }
            if (!inq[d]) {
                inq[d] = 1;
                stack[sp++] = d;
            }
        }
        if (!inq[c]) {
            inq[c] = 1;
            stack[sp++] = c;
        }
    }
    for (size_t c = 0; c < N; c++) {
        size_t x = c % n, y = c / n;
        if (ring_of(n, x, y) >= rings) continue;
        if (__builtin_popcount(chosen[c]) != 2) { /* not forced: should not happen */
            st = KT_EUNSUPPORTED;
            goto done;
        }
        unsigned ch = chosen[c], lo = (unsigned)__builtin_ctz(ch), hi = 31u - (unsigned)__builtin_clz(ch);
        mv[c] = (uint8_t)(hi << 4 | lo);
    }
    /* the centre */
    if (cs == 4) {
        uint8_t tab[16];
        four_tile(tab);
        for (size_t y = 0; y < 4; y++) memcpy(mv + (c0 + y) * n + c0, tab + 4 * y, 4);
    } else {
        const kti_block *b = NULL;
        for (size_t i = 0; i < kti_block_count && b == NULL; i++)
            if (kti_blocks[i].kind == KTI_BLK_CYCLE && kti_blocks[i].w == 6 && kti_blocks[i].h == 6) b = &kti_blocks[i];
        for (size_t y = 0; y < 6; y++) memcpy(mv + (c0 + y) * n + c0, b->mv + 6 * y, 6);
    }
    st = kti_tourney_recount(t);
done:
    kti_free(&g->alloc, avail);
    kti_free(&g->alloc, chosen);
    kti_free(&g->alloc, inq);
    kti_free(&g->alloc, stack);
    if (st != KT_OK) {
        kt_tourney_free(t);
        return st;
    }
    t->shape = KT_SHAPE_CYCLES;
    *out = t;
    return KT_OK;
}
