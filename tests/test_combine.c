/* SPDX-License-Identifier: MIT */
/*
 * The half-tour join's combine step (kti_hjoin_cycles): which pairings of
 * the upper ends form a single cycle with a lower structure's pairing.
 * The vector tests (SSSE3, AVX2, whichever the processor has) must give
 * the scalar walk's sums, and all of them the known number: of the
 * (2m - 1)!! pairings of 2m ends, 2^(m-1) (m-1)! form a single cycle with
 * any given one (a cycle through the 2m ends alternating between the two
 * pairings, counted from a fixed end: m - 1 choices of the next pair in
 * order, and two ways to enter each).
 */
#include "halftour/halftour_internal.h"

#include "check.h"
#include "../bench/pairings.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Every pairing of k ends (k even), as pairing bytes: ends past k stay
 * their own partner.  Returns how many were written at out. */
static size_t all_pairings(unsigned k, uint8_t *cur, uint32_t left, uint8_t *out, size_t n)
{
    if (left == 0) {
        memcpy(out + 16 * n, cur, 16);
        return n + 1;
    }
    unsigned a = (unsigned)__builtin_ctz(left);
    for (uint32_t rest = left & (left - 1); rest != 0; rest &= rest - 1) {
        unsigned b = (unsigned)__builtin_ctz(rest);
        cur[a] = (uint8_t)b;
        cur[b] = (uint8_t)a;
        n = all_pairings(k, cur, left & ~(1u << a) & ~(1u << b), out, n);
    }
    return n;
}

static const unsigned sets[] = {KTI_HJOIN_SCALAR, KTI_HJOIN_SSSE3, KTI_HJOIN_AVX2};

/* Every instruction set gives the scalar sum. */
static void agree(const uint8_t *pv, const uint64_t *cnt, size_t n, const uint8_t *ub, unsigned k)
{
    kti_u128 want = kti_hjoin_cycles(KTI_HJOIN_SCALAR, pv, cnt, n, ub, k);
    for (unsigned v = 1; v < sizeof sets / sizeof *sets; v++)
        CHECK(kti_hjoin_cycles(sets[v], pv, cnt, n, ub, k) == want);
}

int main(void)
{
    /* The known number, over all pairings, for every k up to 16. */
    uint8_t *all = malloc(16 * (size_t)2027025);
    uint64_t *ones = malloc(sizeof *ones * (size_t)2027025);
    CHECK(all != NULL && ones != NULL);
    if (all == NULL || ones == NULL) return check_done("combine");
    for (size_t i = 0; i < 2027025; i++) ones[i] = 1;
    kti_rng seed;
    kti_rng_seed(&seed, 17);
    for (unsigned k = 4; k <= 16; k += 2) {
        uint8_t cur[16];
        for (unsigned i = 0; i < 16; i++) cur[i] = (uint8_t)i;
        size_t n = all_pairings(k, cur, (1u << k) - 1, all, 0);
        unsigned m = k / 2;
        uint64_t dfact = 1, want = 1u << (m - 1);
        for (unsigned i = 3; i < k; i += 2) dfact *= i;
        for (unsigned i = 2; i < m; i++) want *= i;
        CHECK_EQ_U64(n, dfact);
        /* every pairing as ub for small k, a few for the large ones (the
         * scalar walk over two million pairings is the slow part) */
        size_t tries = k <= 8 ? n : 3;
        for (size_t t = 0; t < tries; t++) {
            const uint8_t *ub = all + 16 * (k <= 8 ? t : (size_t)kti_rng_below(&seed, n));
            for (unsigned v = 0; v < sizeof sets / sizeof *sets; v++)
                CHECK(kti_hjoin_cycles(sets[v], all, ones, n, ub, k) == (kti_u128)want);
        }
    }
    /* Random pairings, counts and lengths (the vector loops' tails), and
     * counts near 2^64, whose sums need the 128-bit carries. */
    for (unsigned round = 0; round < 400; round++) {
        unsigned k = 4 + 2 * (unsigned)(kti_rng_next(&seed) % 7);
        size_t n = (size_t)(kti_rng_next(&seed) % 300);
        bool big = round % 2 == 1;
        for (size_t i = 0; i < n; i++) {
            random_pairing(k, &seed, all + 16 * i);
            ones[i] = big ? UINT64_MAX - kti_rng_next(&seed) % 1000 : kti_rng_next(&seed) >> 40;
        }
        uint8_t ub[16];
        random_pairing(k, &seed, ub);
        agree(all, ones, n, ub, k);
    }
    free(all);
    free(ones);
    return check_done("combine");
}
