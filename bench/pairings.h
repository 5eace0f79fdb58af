/* SPDX-License-Identifier: MIT */
/* Random pairings of k ends as the half-tour join's combine step reads
 * them (16 bytes, byte e the partner of end e, ends from k on their own),
 * for bench_combine and test_combine (both linked with the library's
 * objects, whose generator they use). */
#ifndef KNIGHT_BENCH_PAIRINGS_H
#define KNIGHT_BENCH_PAIRINGS_H

#include "util/util.h"

static inline void random_pairing(unsigned k, kti_rng *r, uint8_t *out)
{
    uint8_t p[16];
    for (unsigned i = 0; i < 16; i++) p[i] = out[i] = (uint8_t)i;
    for (unsigned i = k; i > 1; i--) {
        unsigned j = (unsigned)kti_rng_below(r, i);
        uint8_t t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
    for (unsigned i = 0; i < k; i += 2) {
        out[p[i]] = p[i + 1];
        out[p[i + 1]] = p[i];
    }
}

#endif
