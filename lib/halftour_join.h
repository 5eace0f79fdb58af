/* SPDX-License-Identifier: MIT */
/*
 * Internal: McKay's join of two halves, by upper type (halftour_join.c).
 */
#ifndef KNIGHT_HALFTOUR_JOIN_H
#define KNIGHT_HALFTOUR_JOIN_H

#include "halftour_dp.h"

/* The path structures of one half as the join reads them (borrowed from a
 * kt_halftours: keys increasing, codes as in halftour.h's key). */
typedef struct kti_half_view {
    uint32_t width, depth, other;
    unsigned ncb;                /* boundary cells */
    size_t n;
    const uint64_t *keys;
    const uint64_t *counts;
} kti_half_view;

/* Closed tours made of a lower and an upper structure and crossing steps,
 * summed over the upper types of shard `shard` of `nshards`; the result is
 * (hi, lo).  prog (optional) gets `kti_halftours_join_units` steps. */
KTI_HIDDEN kt_status kti_halftours_join(const kti_half_view *lower, const kti_half_view *upper,
                                        unsigned threads, uint32_t shard, uint32_t nshards,
                                        kti_hprogress *prog, uint64_t *hi, uint64_t *lo);

/* Progress steps the join reports. */
#define KTI_HALFTOUR_JOIN_UNITS 1000u

#endif /* KNIGHT_HALFTOUR_JOIN_H */
