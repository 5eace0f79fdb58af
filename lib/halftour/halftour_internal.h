/* SPDX-License-Identifier: MIT */
/*
 * Internal: the frontier (transfer-matrix) engine behind halftour.c.
 *
 * A state gives each of up to 32 slots a 4-bit code: 0 = a cell with no
 * edge yet, 1 = a cell with two edges, 2..15 = one end of a path (the two
 * ends of a path share the label; labels are numbered in slot order).
 * A problem is a list of steps; each step puts one new cell into a slot,
 * joins it by 0, 1 or 2 edges to neighbour slots, then checks the final
 * degree of the slots whose last neighbour this was (and clears those that
 * leave).  Closing a cycle is refused, except at the last step of a
 * problem that allows it, where a state whose live slots all have two
 * edges is added to a separate total.
 */
#ifndef KNIGHT_HALFTOUR_INTERNAL_H
#define KNIGHT_HALFTOUR_INTERNAL_H

#include "internal.h"
#include <knight/halftour.h>

#define KTI_HDP_SLOTS 32

typedef struct kti_hent {
    uint64_t lo, hi;   /* slots 0-15, 16-31 */
    uint64_t cnt;
} kti_hent;

typedef struct kti_hstep {
    uint8_t slot;                      /* the new cell's slot */
    uint8_t nnb;                       /* neighbour slots it may join */
    uint8_t nb[8];
    uint8_t nfin;                      /* slots whose degree is now final */
    uint8_t fin[KTI_HDP_SLOTS];
    uint8_t finmask[KTI_HDP_SLOTS];    /* KTI_FIN_* bits: the final roles allowed */
    uint8_t finclear[KTI_HDP_SLOTS];   /* 1: the slot leaves (must then have degree 0 or 2) */
    uint8_t nin;                       /* live slots before the step, increasing */
    uint8_t in[KTI_HDP_SLOTS];
    uint8_t nout;                      /* live slots after the step, increasing */
    uint8_t out[KTI_HDP_SLOTS];
} kti_hstep;

/* The final roles of a slot (kti_hstep::finmask).  Closed mode uses the
 * first three (bit d: final degree d); open mode adds the two ways a cell
 * becomes an end of the tour. */
#define KTI_FIN_DEG0 1u    /* degree 0: a trivial path (two steps across the cut) */
#define KTI_FIN_DEG1 2u    /* degree 1: a path end that crosses the cut */
#define KTI_FIN_DEG2 4u    /* degree 2 */
#define KTI_FIN_END1 8u    /* open: degree 1 and a tour end (its path's other end becomes TERM) */
#define KTI_FIN_END0 16u   /* open: degree 0 and a tour end, one step across the cut (code TERM) */

/* Open mode: the code of a path end whose other end is an end of the tour
 * (labels then stop at 14).  A half holds at most two such codes, one per
 * tour end, since a path whose two ends are both tour ends is the whole
 * tour and is dropped. */
#define KTI_HDP_TERM 15u

typedef struct kti_hprob {
    size_t nsteps;
    const kti_hstep *steps;
    bool allow_close;                  /* a single cycle may close at the last step */
    bool open;                         /* paths may end inside: KTI_FIN_END*, KTI_HDP_TERM */
    /* Optional: called for each new state (codes by slot) after step `step`;
     * false drops it. */
    bool (*filter)(const void *ctx, size_t step, const uint8_t *codes);
    const void *filter_ctx;
} kti_hprob;

/* Progress reporting shared by the passes of one public call. */
typedef struct kti_hprogress {
    kti_progress p;
    uint64_t done, total;
} kti_hprogress;

/* Run the problem from the states init[0..ninit) (consumed: freed with
 * run->alloc, also on failure), with run->threads threads.  On success
 * *out holds the final states (distinct keys, unordered, allocated with
 * run->alloc) and *closed the total of closed cycles.  Each step adds 1 to
 * prog->done (prog may be NULL) and reports its number of states to
 * run->trace.  KT_ELIMIT when a layer holds more than run->budget states
 * (0 = no bound). */
KTI_HIDDEN kt_status kti_hdp_run(const kti_hprob *prob, const kti_run *run, kti_hent *init,
                                 size_t ninit, kti_hprogress *prog, kti_hent **out, size_t *nout,
                                 uint64_t *closed);

/* Sort by lo (radix, stable); false when out of memory. */
KTI_HIDDEN bool kti_hdp_sort(const kt_allocator *al, kti_hent *a, size_t n);

static inline unsigned kti_hdp_nib(uint64_t lo, uint64_t hi, unsigned s)
{
    return (unsigned)(((s < 16 ? lo : hi) >> (4 * (s & 15))) & 15u);
}

/*
 * Internal: McKay's join of two halves, by upper type (join.c).
 */

/* The path structures of one half as the join reads them (borrowed from a
 * kt_halftours: keys increasing, codes as in halftour.h's key). */
typedef struct kti_half_view {
    uint32_t width, depth, other;
    bool open;                   /* keys may hold KTI_HDP_TERM (open tours) */
    unsigned ncb;                /* boundary cells */
    size_t n;
    const uint64_t *keys;
    const uint64_t *counts;
} kti_half_view;

/* Closed tours made of a lower and an upper structure and crossing steps,
 * summed over the upper types of shard run->shard of run->nshards, with
 * run->threads threads, allocating with run->alloc.  KT_ELIMIT when the
 * pairings of one upper type exceed run->budget.  prog (optional) gets
 * KTI_HALFTOUR_JOIN_UNITS steps.  With open halves (both views open) the
 * count is of open tours: the two halves' tour ends (TERM codes) number
 * two in all.  sym: the halves are symmetric under the left-right mirror
 * (no given tour ends), so mirror images of upper types are counted once
 * (and the up-down flip is used when the halves are one set). */
KTI_HIDDEN kt_status kti_halftours_join(const kti_half_view *lower, const kti_half_view *upper,
                                        bool sym, const kti_run *run, kti_hprogress *prog,
                                        kti_u128 *count);

/* Progress steps the join reports. */
#define KTI_HALFTOUR_JOIN_UNITS 1000u

#endif /* KNIGHT_HALFTOUR_INTERNAL_H */
