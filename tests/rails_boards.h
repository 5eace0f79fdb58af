/* SPDX-License-Identifier: MIT */
/*
 * Test and bench helper (not installed): a simple tourney on any board
 * whose sides are even and at least 4, tiled from fixed cycle covers of
 * 4x4, 4x6, 6x4 and 6x6 blocks.  Joining it gives a closed tour without
 * needing a generator.
 */
#ifndef KNIGHT_TESTS_RAILS_BOARDS_H
#define KNIGHT_TESTS_RAILS_BOARDS_H

#include <knight/knight.h>

#include <stdlib.h>

/* Move pairs (low nibble <= high nibble) of each block, row-major. */
static const uint8_t kt_block_4x4[16] = {
    0x76, 0x75, 0x64, 0x54, 0x60, 0x50, 0x63, 0x53, 0x71, 0x72, 0x41, 0x42, 0x10, 0x20, 0x31, 0x32,
};
static const uint8_t kt_block_4x6[24] = { /* 4 wide, 6 high */
    0x76, 0x75, 0x64, 0x54, 0x60, 0x70, 0x43, 0x53, 0x10, 0x52, 0x61, 0x32,
    0x76, 0x52, 0x61, 0x54, 0x71, 0x70, 0x43, 0x42, 0x10, 0x20, 0x31, 0x32,
};
static const uint8_t kt_block_6x4[24] = { /* 6 wide, 4 high */
    0x76, 0x65, 0x54, 0x74, 0x65, 0x54, 0x60, 0x50, 0x53, 0x60, 0x65, 0x53,
    0x71, 0x21, 0x42, 0x71, 0x41, 0x42, 0x10, 0x21, 0x30, 0x10, 0x21, 0x32,
};
static const uint8_t kt_block_6x6[36] = {
    0x76, 0x65, 0x64, 0x74, 0x64, 0x54, 0x70, 0x50, 0x30, 0x70, 0x65, 0x53,
    0x71, 0x52, 0x32, 0x62, 0x61, 0x32, 0x61, 0x65, 0x73, 0x41, 0x61, 0x52,
    0x71, 0x70, 0x74, 0x74, 0x32, 0x42, 0x10, 0x20, 0x32, 0x30, 0x31, 0x32,
};

/* Split an even side >= 4 into parts of 4 and 6; returns the part count. */
static size_t kt_block_parts(uint32_t n, uint32_t *parts, size_t cap)
{
    size_t k = 0;
    while (n > 0 && k < cap) {
        uint32_t p = n % 4 == 2 ? 6 : 4; /* one 6 makes the rest a multiple of 4 */
        parts[k++] = p;
        n -= p;
    }
    return k;
}

/* A tourney of 4x4/4x6/6x4/6x6 block covers on a knight's board with
 * even sides >= 4.  Returns KT_EINVAL for other boards. */
static kt_status kt_block_tourney(kt_tourney **out, const kt_graph *g)
{
    uint32_t w = kt_graph_width(g), h = kt_graph_height(g);
    if (w < 4 || h < 4 || (w & 1u) || (h & 1u) || kt_graph_has_holes(g)) return KT_EINVAL;
    size_t n = (size_t)w * h;
    uint8_t *mv = malloc(n);
    if (mv == NULL) return KT_ENOMEM;
    uint32_t *xs = malloc(sizeof(uint32_t) * (w / 4 + 2));
    uint32_t *ys = malloc(sizeof(uint32_t) * (h / 4 + 2));
    if (xs == NULL || ys == NULL) {
        free(mv);
        free(xs);
        free(ys);
        return KT_ENOMEM;
    }
    size_t nx = kt_block_parts(w, xs, w / 4 + 2), ny = kt_block_parts(h, ys, h / 4 + 2);
    uint32_t y0 = 0;
    for (size_t j = 0; j < ny; j++) {
        uint32_t x0 = 0;
        for (size_t i = 0; i < nx; i++) {
            uint32_t bw = xs[i], bh = ys[j];
            const uint8_t *blk = bw == 4 ? (bh == 4 ? kt_block_4x4 : kt_block_4x6)
                                         : (bh == 4 ? kt_block_6x4 : kt_block_6x6);
            for (uint32_t y = 0; y < bh; y++)
                for (uint32_t x = 0; x < bw; x++)
                    mv[(size_t)(y0 + y) * w + x0 + x] = blk[y * bw + x];
            x0 += bw;
        }
        y0 += ys[j];
    }
    kt_status st = kt_tourney_from_move_pairs(out, g, mv, n, NULL);
    free(mv);
    free(xs);
    free(ys);
    return st;
}

#endif
