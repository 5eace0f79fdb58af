/* SPDX-License-Identifier: MIT */
/*
 * bench_combine: the half-tour join's combine step alone
 * (kti_hjoin_cycles): nanoseconds per test of a lower pairing against an
 * upper one, for k = 4 to 16 ends, by the scalar walk and the vector
 * tests the processor has, on a table that stays in cache and on one
 * that does not (the open 8x8 join's largest types hold millions of
 * pairings).
 *
 *   bench_combine [N_SMALL [N_LARGE [SECONDS]]]
 *
 * Defaults: 4,096 and 2,097,152 pairings, about 0.3 s a figure.
 */
#include "halftour/halftour_internal.h"

#include "bench_clock.h"
#include "pairings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ns per test of instruction set vec over the n pairings, against fresh
 * upper pairings until `seconds` have passed; *sum keeps the result live. */
static double per_test(unsigned vec, const uint8_t *pv, const uint64_t *cnt, size_t n, unsigned k,
                       double seconds, kti_rng *seed, kti_u128 *sum)
{
    double t0 = bench_now(), t;
    uint64_t tests = 0;
    do {
        uint8_t ub[16];
        random_pairing(k, seed, ub);
        *sum += kti_hjoin_cycles(vec, pv, cnt, n, ub, k);
        tests += n;
        t = bench_now() - t0;
    } while (t < seconds);
    return t * 1e9 / (double)tests;
}

int main(int argc, char **argv)
{
    size_t sizes[2] = {4096, (size_t)1 << 21};
    double seconds = 0.3;
    if (argc > 1) sizes[0] = (size_t)strtoull(argv[1], NULL, 10);
    if (argc > 2) sizes[1] = (size_t)strtoull(argv[2], NULL, 10);
    if (argc > 3) seconds = atof(argv[3]);
    size_t most = sizes[0] > sizes[1] ? sizes[0] : sizes[1];
    uint8_t *pv = malloc(16 * most);
    uint64_t *cnt = malloc(sizeof *cnt * most);
    if (pv == NULL || cnt == NULL || most == 0) {
        fprintf(stderr, "bench_combine: no memory\n");
        return 1;
    }
    kti_rng seed;
    kti_rng_seed(&seed, 1);
    kti_u128 sink = 0;
    printf("combine step, ns per (lower, upper) pairing test\n");
    printf("%10s %3s %9s %9s %9s\n", "pairings", "k", "scalar", "ssse3", "avx2");
    for (unsigned z = 0; z < 2; z++) {
        size_t n = sizes[z];
        for (unsigned k = 4; k <= 16; k += 2) {
            for (size_t i = 0; i < n; i++) {
                random_pairing(k, &seed, pv + 16 * i);
                cnt[i] = kti_rng_next(&seed) >> 24;
            }
            printf("%10zu %3u", n, k);
            kti_u128 want = 0;
            for (unsigned v = KTI_HJOIN_SCALAR; v <= KTI_HJOIN_AVX2; v++) {
                /* the same upper pairings for each set: their sums must agree */
                kti_rng s = seed;
                kti_u128 sum = 0;
                double ns = per_test(v, pv, cnt, n, k, v == KTI_HJOIN_SCALAR ? seconds / 3 : seconds, &s, &sum);
                uint8_t ub[16];
                kti_rng_seed(&s, 99);
                random_pairing(k, &s, ub);
                kti_u128 one = kti_hjoin_cycles(v, pv, cnt, n, ub, k);
                if (v == KTI_HJOIN_SCALAR) want = one;
                printf(" %9.3f%s", ns, one == want ? "" : "!");
                sink += sum;
            }
            printf("\n");
        }
    }
    printf("(! marks a sum that differs from the scalar one; checksum %llu)\n",
           (unsigned long long)(uint64_t)sink);
    free(pv);
    free(cnt);
    return 0;
}
