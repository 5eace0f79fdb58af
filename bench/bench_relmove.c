/* SPDX-License-Identifier: MIT */
/*
 * bench_relmove: the exact relative-move distribution over all closed tours
 * of a board by McKay's half-tour join with weights (issue 17):
 *
 *   bench_relmove W H SPLIT [THREADS [SHARD SHARDS]]
 *
 * (the W x H board cut across its W columns, SPLIT rows above the cut; W at
 * most 8; shard SHARD of SHARDS: the shards' figures add up to the
 * board's).  Prints the tours, the cells of each turn class summed over
 * them, the relative-move totals over directed tours (as bench_stats exact
 * prints them) with their exact fractions and decimals, the checks the
 * totals must pass, and wall and CPU seconds and the peak resident memory.
 * An internal call (the weighted join is not public API): linked with the
 * library's objects.
 */
#include "halftour/halftour_internal.h"

#include "bench_clock.h"

#include <stdio.h>
#include <stdlib.h>

static const char *u128_str(kti_u128 v, char *buf, size_t n)
{
    char tmp[48];
    size_t k = 0;
    do {
        tmp[k++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v != 0 && k < sizeof tmp);
    size_t i = 0;
    while (k > 0 && i + 1 < n) buf[i++] = tmp[--k];
    buf[i] = '\0';
    return buf;
}

/* Progress to stderr with the wall time: the phases' durations on long
 * runs (the half-tours' walk reports millions of half-tours, total 0). */
static int progress(void *user, uint64_t done, uint64_t total)
{
    fprintf(stderr, "  [%.0f s] %llu / %llu\n", bench_now() - *(const double *)user,
            (unsigned long long)done, (unsigned long long)total);
    return 0;
}

static kti_u128 gcd(kti_u128 a, kti_u128 b)
{
    while (b != 0) {
        kti_u128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_relmove W H SPLIT [THREADS [SHARD SHARDS]]\n");
        return 2;
    }
    uint32_t W = (uint32_t)atoi(argv[1]), H = (uint32_t)atoi(argv[2]);
    uint32_t split = (uint32_t)atoi(argv[3]);
    kt_options *o = NULL;
    if (kt_options_new(&o, NULL) != KT_OK) return 1;
    if (argc > 4 && kt_options_set_threads(o, (unsigned)atoi(argv[4])) != KT_OK) return 2;
    if (argc > 6 &&
        kt_options_set_shard(o, (uint32_t)atoi(argv[5]), (uint32_t)atoi(argv[6])) != KT_OK)
        return 2;
    double w0 = bench_now(), c0 = bench_cpu();
    if (kt_options_set_progress(o, progress, &w0) != KT_OK) return 1;
    kti_u128 tours = 0, turn[KTI_TURN_CLASSES] = {0};
    kt_status st = kti_halftours_turn_classes(W, H, split, o, &tours, turn);
    double wall = bench_now() - w0, cpu = bench_cpu() - c0;
    kt_options_free(o);
    if (st != KT_OK) {
        fprintf(stderr, "bench_relmove: %s\n", kt_strerror(st));
        return 1;
    }
    char b1[48], b2[48], b3[48];
    uint64_t cells = (uint64_t)W * H;
    printf("%ux%u, cut after %u rows%s%s%s%s: %s closed tours\n", W, H, split,
           argc > 6 ? ", shard " : "", argc > 6 ? argv[5] : "", argc > 6 ? " of " : "",
           argc > 6 ? argv[6] : "", u128_str(tours, b1, 48));
    kti_u128 sum = 0;
    for (unsigned c = 0; c < KTI_TURN_CLASSES; c++) {
        printf("  turn class %u (relative %u and %u): %s\n", c, c, (8 - c) & 7,
               u128_str(turn[c], b1, 48));
        sum += turn[c];
    }
    /* Every tour has one turn at each cell. */
    printf("  sum of the classes %s = cells x tours %s: %s\n", u128_str(sum, b1, 48),
           u128_str(tours * cells, b2, 48), sum == tours * cells ? "ok" : "MISMATCH");
    /* Over directed tours: class 0 is relative move 0 both ways, class
     * c > 0 is c one way and 8 - c the other. */
    kti_u128 rel[8] = {2 * turn[0], turn[1], turn[2], turn[3], 0, turn[3], turn[2], turn[1]};
    kti_u128 den = 2 * tours * cells;
    printf("relative move, over directed tours (total %s):\n", u128_str(den, b1, 48));
    for (unsigned r = 0; r < 8; r++) {
        kti_u128 g = rel[r] ? gcd(rel[r], den) : den;
        printf("  %u: %s  = %s/%s = %.9f\n", r, u128_str(rel[r], b1, 48),
               u128_str(rel[r] / g, b2, 48), u128_str(den / g, b3, 48),
               den ? (double)rel[r] / (double)den : 0.0);
    }
    printf("wall %.1f s, CPU %.1f s, peak RSS %.0f MiB\n", wall, cpu, bench_peak_rss_mib());
    return sum == tours * cells ? 0 : 1;
}
