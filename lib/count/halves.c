/* SPDX-License-Identifier: MIT */
/*
 * The count's third way: on the boards where McKay's join of half-tours
 * (halftour.h) is faster than the frontier, kt_count_tours() and
 * kt_count_open_tours() hand the count to the half-tour module's public
 * calls.  Only the choice lives here: no code is shared between the two
 * methods, and KT_COUNT_FRONTIER keeps a count on the frontier, so each
 * method stays the check on the other (lib/README.md, the dependency rule).
 */
#include "count_internal.h"

#include <knight/halftour.h>

/* Cuts of at most this many cells per half.  Measured against the
 * frontier (release, one thread, BENCHMARKS.md "Choosing the method"):
 * half-tours win on 5x8 open (0.12 s against 0.53 s), 5x12 open (30-cell
 * halves, 2.5 s against 3.9 s), 6x8 open (6.6 s against 31 s), 6x9 closed
 * (1.4 s against 3.0 s), 7x8 closed (8.6 s against 42 s) and 8x8 closed
 * (2.5 min and 1.4 GiB against 21 min and 10 GiB); 7x7 open (28-cell
 * halves) is beyond the frontier.  The number of half structures grows
 * about tenfold per row of the half, the frontier's work only linearly
 * with the board's length, so long boards go back to the frontier. */
#define HALF_CELLS_MAX 32u

/* Closed tours of boards 8 wide take halves of up to 40 cells (8x9 and
 * 8x10, cut into 8x5 halves or an 8x5 and an 8x4): the frontier needs
 * more than 20 GiB there (8x9 stopped at 19.1 GB, layer 40 of 72), the
 * 8x5 half 15.2 GiB at its peak (BENCHMARKS.md "Closed tours"). */
#define HALF_CELLS_MAX_8_CLOSED 40u

/* The half-tour engine's board: w columns along the cut (the narrow side),
 * h rows; transposed when the graph's rows are the long side. */
typedef struct halves {
    uint32_t w, h;
    bool transposed;
} halves;

static halves halves_of(const kt_graph *g)
{
    halves v = {g->width, g->height, false};
    if (v.h < v.w) v = (halves){g->height, g->width, true};
    return v;
}

bool kti_halves_suit(const kt_graph *g, bool open, const kti_run *run)
{
    if (g->mask != NULL || g->a != 2 || g->b != 1) return false;
    if (!kti_run_plain(run)) return false;
    halves v = halves_of(g);
    uint32_t most = !open && v.w == 8 ? HALF_CELLS_MAX_8_CLOSED : HALF_CELLS_MAX;
    /* Narrower boards are the frontier's (4 x n: a few milliseconds). */
    return v.w >= 5 && v.w <= KT_HALFTOUR_MAX_WIDTH && v.w * ((v.h + 1) / 2) <= most;
}

static kt_cell turned(const kt_graph *g, const halves *v, kt_cell c)
{
    if (c == KT_CELL_NONE || !v->transposed) return c;
    return (c % g->width) * g->height + c / g->width;
}

kt_status kti_halves_count(const kt_graph *g, bool open, kt_cell start, kt_cell end, const kti_run *run,
                           kti_u128 *out)
{
    /* The half-tour calls have no graph: they allocate through their run
     * settings, so those carry the graph's allocator (count.h: memory comes
     * from the graph's), with the caller's threads and progress. */
    kt_options *o = NULL;
    kt_status st = kt_options_new(&o, &g->alloc);
    if (st == KT_OK) st = kt_options_set_threads(o, run->threads);
    if (st == KT_OK) st = kt_options_set_progress(o, run->progress, run->progress_user);
    halves v = halves_of(g);
    kt_u128 n = {0, 0};
    if (st == KT_OK && open)
        st = kt_halftours_count_open(v.w, v.h, v.h / 2, turned(g, &v, start), turned(g, &v, end), 0, o, &n);
    else if (st == KT_OK)
        st = kt_halftours_count_closed(v.w, v.h, v.h / 2, o, &n);
    kt_options_free(o);
    if (st == KT_OK) *out = kti_u128_from(n);
    return st;
}
