/* SPDX-License-Identifier: MIT */
/*
 * The library's one pseudo-random generator: xoshiro256** seeded through
 * splitmix64.  Every randomized algorithm takes an explicit 64-bit seed and
 * keeps its generator on the stack, so runs are reproducible and threads
 * never share state.
 */
#ifndef KNIGHT_RNG_H
#define KNIGHT_RNG_H

#include <stdint.h>

typedef struct kti_rng {
    uint64_t s[4];
} kti_rng;

static inline uint64_t kti_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static inline void kti_rng_seed(kti_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = kti_splitmix64(&seed);
}

static inline uint64_t kti_rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t kti_rng_next(kti_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = kti_rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = kti_rotl64(s[3], 45);
    return result;
}

/* Uniform integer in [0, bound) for bound >= 1 (Lemire's multiply-shift, unbiased). */
static inline uint64_t kti_rng_below(kti_rng *r, uint64_t bound)
{
    uint64_t x = kti_rng_next(r);
    __extension__ typedef unsigned __int128 u128;
    u128 m = (u128)x * bound;
    uint64_t l = (uint64_t)m;
    if (l < bound) {
        uint64_t t = -bound % bound;
        while (l < t) {
            x = kti_rng_next(r);
            m = (u128)x * bound;
            l = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* Uniform double in [0, 1). */
static inline double kti_rng_double(kti_rng *r)
{
    return (double)(kti_rng_next(r) >> 11) * 0x1.0p-53;
}

#endif /* KNIGHT_RNG_H */
