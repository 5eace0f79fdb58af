/* SPDX-License-Identifier: MIT */
/* Counting walks with a cap on visits to marked cells: a layered DP. */
#include "internal.h"
#include <knight/walks.h>

/* (cell, marked-count) updates between two looks at the clock: well under
 * a millisecond of work, so a cancel is seen at once however the board
 * and the length are shaped (a 1-cell board runs millions of steps a
 * second, a large board may take long for one step). */
#define WALKS_CHECK_WORK ((uint64_t)1 << 16)

/* The walks of one cell: cur[c*J + j] = 1 when c is a vertex and j covers
 * its own mark. */
static void walks_first(const kt_graph *g, const uint8_t *marked, size_t J, uint64_t *cur)
{
    for (size_t c = 0; c < g->ncells; c++) {
        unsigned mk = marked && marked[c] ? 1u : 0u;
        for (size_t j = 0; j < J; j++) cur[c * J + j] = kti_is_vertex(g, c) && j >= mk;
    }
}

/* One step for the cells c0 .. c1-1: a walk from c is c followed by a walk
 * from a neighbour with one mark fewer allowed when c is marked.  *any
 * becomes true if some count is non-zero (the column J-1 is the largest
 * of each row).  Returns false when a count passes 2^64 - 1. */
static bool walks_rows(const kt_graph *g, const uint8_t *marked, size_t J, const uint64_t *cur,
                       uint64_t *nxt, size_t c0, size_t c1, bool *any)
{
    bool ok = true;
    for (size_t c = c0; c < c1; c++) {
        uint64_t *row = nxt + c * J;
        for (size_t j = 0; j < J; j++) row[j] = 0;
        if (!kti_is_vertex(g, c)) continue;
        unsigned mk = marked && marked[c] ? 1u : 0u;
        for (int m = 0; m < 8; m++) {
            kt_cell d = kti_step(g, (kt_cell)c, m);
            if (d == KT_CELL_NONE) continue;
            const uint64_t *src = cur + (size_t)d * J;
            for (size_t j = mk; j < J; j++)
                if (__builtin_add_overflow(row[j], src[j - mk], &row[j])) ok = false;
        }
        if (row[J - 1] != 0) *any = true;
    }
    return ok;
}

/* The steps 1 .. length-1, in ranges of cells between progress checks.
 * *cur receives the layer of the last step done. */
static kt_status walks_steps(const kt_graph *g, const uint8_t *marked, size_t J, uint32_t length,
                             const kti_run *r, uint64_t **cur, uint64_t **nxt)
{
    kti_progress prog;
    kti_progress_init(&prog, r->progress, r->progress_user);
    size_t span = (size_t)(WALKS_CHECK_WORK / J), cells = g->ncells;
    if (span == 0) span = 1;
    uint64_t work = 0;
    for (uint32_t t = 1; t < length; t++) {
        bool any = false;
        for (size_t c0 = 0; c0 < cells; c0 += span) {
            size_t c1 = cells - c0 > span ? c0 + span : cells;
            if (!walks_rows(g, marked, J, *cur, *nxt, c0, c1, &any)) return KT_EOVERFLOW;
            work += (uint64_t)(c1 - c0) * J;
            if (work >= WALKS_CHECK_WORK) {
                work = 0;
                if (kti_progress_tick(&prog, t - 1, (uint64_t)length - 1)) return KT_ECANCELED;
            }
        }
        uint64_t *tmp = *cur;
        *cur = *nxt;
        *nxt = tmp;
        /* All zero: every longer walk count is zero too. */
        if (!any) break;
    }
    return KT_OK;
}

kt_status kt_walks_count(const kt_graph *g, uint32_t length, const uint8_t *marked,
                         uint32_t max_marked, const kt_options *run, uint64_t *per_start, size_t n,
                         uint64_t *total)
{
    if (g == NULL || length == 0) return KT_EINVAL;
    kti_run r;
    kti_run_resolve(&r, run);
    if (r.nshards > 1) return KT_EINVAL;
    if (per_start != NULL && n < g->ncells) return KT_ERANGE;
    /* The work is known in advance: refuse it rather than stop half-way. */
    if (r.budget != 0 && (uint64_t)length - 1 > r.budget) return KT_ELIMIT;
    /* No walk can visit more marked cells than it has cells. */
    size_t J = (size_t)(max_marked < length ? max_marked : length) + 1;
    size_t layer;
    if (!kti_mul_ok(g->ncells, J, &layer) || !kti_mul_ok(layer, 2 * sizeof(uint64_t), &layer))
        return KT_ETOOBIG;
    uint64_t *buf = kti_alloc(&g->alloc, layer);
    if (buf == NULL) return KT_ENOMEM;
    size_t cells = g->ncells;
    /* cur[c*J + j]: walks of t cells starting at c with at most j marked visits. */
    uint64_t *cur = buf, *nxt = buf + cells * J;
    walks_first(g, marked, J, cur);
    kt_status st = walks_steps(g, marked, J, length, &r, &cur, &nxt);
    uint64_t sum = 0;
    for (size_t c = 0; c < cells && st == KT_OK; c++)
        if (__builtin_add_overflow(sum, cur[c * J + (J - 1)], &sum)) st = KT_EOVERFLOW;
    /* Outputs only on success, so a failed call leaves them as they were. */
    if (st == KT_OK && per_start != NULL)
        for (size_t c = 0; c < cells; c++) per_start[c] = cur[c * J + (J - 1)];
    if (st == KT_OK && total != NULL) *total = sum;
    kti_free(&g->alloc, buf);
    return st;
}
