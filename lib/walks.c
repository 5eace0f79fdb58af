/* SPDX-License-Identifier: MIT */
/* Counting walks with a cap on visits to marked cells: a layered DP. */
#include "internal.h"
#include <knight/walks.h>

kt_status kt_walks_count(const kt_graph *g, uint32_t length, const uint8_t *marked,
                         uint32_t max_marked, uint64_t *per_start, size_t n, uint64_t *total)
{
    if (g == NULL || length == 0) return KT_EINVAL;
    if (per_start != NULL && n < g->ncells) return KT_ERANGE;
    /* No walk can visit more marked cells than it has cells. */
    size_t J = (size_t)(max_marked < length ? max_marked : length) + 1;
    size_t layer;
    if (!kti_mul_ok(g->ncells, J, &layer) || !kti_mul_ok(layer, 2 * sizeof(uint64_t), &layer))
        return KT_ETOOBIG;
    uint64_t *buf = kti_alloc(&g->alloc, layer);
    if (buf == NULL) return KT_ENOMEM;
    size_t cells = g->ncells;
    uint64_t *cur = buf, *nxt = buf + cells * J;

    /* cur[c*J + j]: walks of t cells starting at c with at most j marked visits. */
    for (size_t c = 0; c < cells; c++) {
        unsigned mk = marked && marked[c] ? 1u : 0u;
        for (size_t j = 0; j < J; j++) cur[c * J + j] = kti_is_vertex(g, c) && j >= mk;
    }
    kt_status st = KT_OK;
    for (uint32_t t = 1; t < length && st == KT_OK; t++) {
        for (size_t c = 0; c < cells && st == KT_OK; c++) {
            uint64_t *row = nxt + c * J;
            for (size_t j = 0; j < J; j++) row[j] = 0;
            if (!kti_is_vertex(g, c)) continue;
            unsigned mk = marked && marked[c] ? 1u : 0u;
            for (int m = 0; m < 8; m++) {
                kt_cell d = kti_step(g, (kt_cell)c, m);
                if (d == KT_CELL_NONE) continue;
                const uint64_t *src = cur + (size_t)d * J;
                for (size_t j = mk; j < J; j++)
                    if (__builtin_add_overflow(row[j], src[j - mk], &row[j])) st = KT_EOVERFLOW;
            }
        }
        uint64_t *tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    uint64_t sum = 0;
    if (st == KT_OK)
        for (size_t c = 0; c < cells; c++) {
            uint64_t v = cur[c * J + (J - 1)];
            if (per_start) per_start[c] = v;
            if (__builtin_add_overflow(sum, v, &sum)) st = KT_EOVERFLOW;
        }
    if (st == KT_OK && total) *total = sum;
    kti_free(&g->alloc, buf);
    return st;
}
