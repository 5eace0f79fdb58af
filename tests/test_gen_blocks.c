/* SPDX-License-Identifier: MIT */
/* Re-validates every precomputed block of lib/generate/blocks_data.c (written by
 * tools/gen_blocks.c): each is a tour or path of its kind on its board, with
 * the edges and ends the tilers rely on; and the open construction on odd
 * boards honours its start. */
#include "generate/generate_internal.h"

#include "check.h"

static bool has_edge(const kti_block *b, int x1, int y1, int x2, int y2)
{
    int m = kti_knight_move(x2 - x1, y2 - y1);
    if (m < 0) return false;
    uint8_t p = b->mv[y1 * b->w + x1];
    return (p & 0xF) == (unsigned)m || (p >> 4) == (unsigned)m;
}

static bool is_end(const kti_block *b, int x, int y)
{
    return (b->mv[y * b->w + x] >> 4) == 0xF;
}

/* The open construction of odd x odd boards puts an end at the start it
 * is given when the start, mirrored into the bottom-right quadrant, lies
 * in the corner block (at least 5x5), which holds a path from every
 * majority-colour cell (kti_blocks_open). */
static void check_open_starts(void)
{
    size_t honoured = 0;
    for (uint32_t w = 5; w <= 21; w += 4)
        for (uint32_t h = 5; h <= 23; h += 6) {
            kt_graph *g = NULL;
            CHECK_OK(kt_graph_new(&g, w, h));
            for (kt_cell s = 0; s < g->ncells; s++) {
                uint32_t x = s % w, y = s / w, mx = x < w - 1 - x ? w - 1 - x : x, my = y < h - 1 - y ? h - 1 - y : y;
                if (kti_colour(g, s) || mx < w - 5 || my < h - 5) continue;
                kt_tourney *t = NULL;
                CHECK_OK(kti_tourney_alloc(&t, g));
                CHECK_OK(kti_blocks_open(t, s, s * 7u + w, NULL));
                kt_tourney *u = NULL;
                CHECK_OK(kt_tourney_from_move_pairs(&u, g, t->mv, g->ncells, NULL));
                CHECK(u != NULL && kt_tourney_is_open_tour(u));
                kt_cell a = KT_CELL_NONE, b = KT_CELL_NONE;
                CHECK_OK(kt_tourney_ends(t, &a, &b));
                CHECK(a == s || b == s);
                honoured += a == s || b == s;
                kt_tourney_free(u);
                kt_tourney_free(t);
            }
            kt_graph_free(g);
        }
    printf("odd boards: %zu starts near a corner made ends\n", honoured);
}

int main(void)
{
    size_t count[KTI_BLK_KINDS] = {0};
    for (size_t i = 0; i < kti_block_count; i++) {
        const kti_block *b = &kti_blocks[i];
        int w = b->w, h = b->h;
        kt_graph *g = NULL;
        CHECK_ST(kt_graph_new(&g, (uint32_t)w, (uint32_t)h), KT_OK);
        kt_tourney *t = NULL;
        kt_diag d;
        kt_status st = kt_tourney_from_move_pairs(&t, g, b->mv, (size_t)(w * h), &d);
        CHECK_ST(st, KT_OK);
        if (st != KT_OK) {
            fprintf(stderr, "block %zu (kind %d, %dx%d): %s at %u\n", i, b->kind, w, h, kt_rule_describe(d.rule), d.cell);
            kt_graph_free(g);
            continue;
        }
        count[b->kind]++;
        switch (b->kind) {
        case KTI_BLK_CYCLE:
            CHECK(kt_tourney_is_closed_tour(t));
            CHECK(w >= 5 && w <= 10 && h >= 5 && h <= 10 && !((w & 1) && (h & 1)));
            CHECK(has_edge(b, 0, 1, 1, 3));         /* L */
            CHECK(has_edge(b, w - 2, 0, w - 1, 2)); /* R */
            CHECK(has_edge(b, 1, 0, 3, 1));         /* U */
            CHECK(has_edge(b, 0, h - 2, 2, h - 1)); /* D */
            break;
        case KTI_BLK_CYC3:
            CHECK(kt_tourney_is_closed_tour(t));
            CHECK(h == 3 && has_edge(b, 0, 0, 1, 2));
            break;
        case KTI_BLK_PATH3:
            CHECK(kt_tourney_is_open_tour(t));
            CHECK(h == 3 && is_end(b, w - 1, 1) && (is_end(b, w - 1, 2) || is_end(b, w - 2, 1)));
            CHECK(has_edge(b, 0, 0, 1, 2));
            break;
        case KTI_BLK_ODD: {
            CHECK(kt_tourney_is_open_tour(t));
            int px = b->param % w, py = b->param / w;
            CHECK(((px + py) & 1) == 0 && is_end(b, px, py));
            bool col0 = false;
            for (int y = 0; y < h; y++) col0 |= is_end(b, 0, y) && y * w != b->param;
            CHECK(col0);
            break;
        }
        case KTI_BLK_OPEN:
            CHECK(kt_tourney_is_open_tour(t));
            break;
        default:
            CHECK(!"unknown block kind");
        }
        kt_tourney_free(t);
        kt_graph_free(g);
    }
    /* every size the tilers ask for is present */
    for (int w = 5; w <= 10; w++)
        for (int h = 5; h <= 10; h++) {
            if ((w & 1) && (h & 1)) continue;
            bool found = false;
            for (size_t i = 0; i < kti_block_count; i++)
                found |= kti_blocks[i].kind == KTI_BLK_CYCLE && kti_blocks[i].w == w && kti_blocks[i].h == h;
            CHECK(found);
        }
    for (int k = 10; k <= 18; k += 2) {
        bool c3 = false, p3 = false;
        for (size_t i = 0; i < kti_block_count; i++) {
            c3 |= kti_blocks[i].kind == KTI_BLK_CYC3 && kti_blocks[i].w == k;
            p3 |= kti_blocks[i].kind == KTI_BLK_PATH3 && kti_blocks[i].w == k;
        }
        CHECK(c3 && p3);
    }
    for (int w = 5; w <= 9; w += 2)
        for (int h = 5; h <= 9; h += 2) {
            int starts = 0;
            for (size_t i = 0; i < kti_block_count; i++)
                starts += kti_blocks[i].kind == KTI_BLK_ODD && kti_blocks[i].w == w && kti_blocks[i].h == h;
            CHECK_EQ_U64(starts, (w * h + 1) / 2); /* every majority-colour start */
        }
    printf("blocks: %zu cycle, %zu cyc3, %zu path3, %zu odd, %zu open\n", count[0], count[1], count[2], count[3], count[4]);
    check_open_starts();
    return check_failures != 0;
}
