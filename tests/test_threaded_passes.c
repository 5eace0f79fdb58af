/* SPDX-License-Identifier: MIT */
/*
 * The half-tour module's passes over whole sets with threads (internal):
 * kti_parallel_range cuts every index once; the radix sort gives the
 * one-thread sort's arrays, stable, with any number of threads; and a
 * merged open half enumerated in shards (re-keyed, sorted, merged and
 * unfolded with threads) is the same set with one thread or three, and
 * the join that groups such halves with threads counts the published
 * number of open 6x8 tours.  The
 * sets are large enough to take the threaded paths (a pass over fewer
 * than 65,536 items, or a sort of fewer than 2^20 keys, stays on one).
 * KT_TEST_LIGHT (valgrind, clang): the ranges and one shape of keys only
 * (the half and the count take some 10 s natively, minutes under
 * valgrind).
 */
#include "halftour/halftour_internal.h"

#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool light;

/* ---- the ranges ---- */

typedef struct marks {
    unsigned char *hit;
    size_t lo[8], hi[8];
} marks;

static void mark(void *ctx, unsigned i, size_t lo, size_t hi)
{
    marks *m = ctx;
    m->lo[i] = lo;
    m->hi[i] = hi;
    for (size_t j = lo; j < hi; j++) m->hit[j]++;
}

static void ranges(void)
{
    static const size_t counts[] = {0, 1, 2, 7, 1000, 65537};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        for (unsigned n = 1; n <= 8; n++) {
            size_t count = counts[c];
            marks m = {calloc(count ? count : 1, 1), {0}, {0}};
            CHECK(m.hit != NULL);
            if (m.hit == NULL) return;
            kti_parallel_range(n, count, mark, &m);
            for (size_t j = 0; j < count; j++) CHECK(m.hit[j] == 1);
            for (unsigned i = 0; i < n; i++) {
                CHECK(m.lo[i] == kti_range_first(n, count, i));
                CHECK(m.hi[i] == kti_range_first(n, count, i + 1));
                CHECK(m.hi[i] - m.lo[i] <= count / n + 1);
            }
            free(m.hit);
        }
    printf("ranges cut every index once\n");
}

/* ---- the sort ---- */

/* Keys with many repeats (a stable sort must keep their values in order)
 * and digit passes that differ: the top 16 bits are one value, which the
 * sort skips, or spread. */
static void sorts(void)
{
    /* just past the threaded sort's threshold, with a remainder */
    const size_t n = ((size_t)1 << 20) + 12345;
    kti_run run;
    kti_run_resolve(&run, NULL);
    uint64_t *k0 = malloc(n * sizeof *k0), *v0 = malloc(n * sizeof *v0);
    uint64_t *k = malloc(n * sizeof *k), *v = malloc(n * sizeof *v);
    CHECK(k0 != NULL && v0 != NULL && k != NULL && v != NULL);
    if (k0 == NULL || v0 == NULL || k == NULL || v == NULL) goto out;
    for (unsigned shape = 0; shape < (light ? 1u : 2u); shape++) {
        kti_rng g;
        kti_rng_seed(&g, 41 + shape);
        for (size_t i = 0; i < n; i++) {
            uint64_t x = kti_rng_next(&g);
            /* 2^18 distinct keys (each about 4 times) or 2^16 (16 times) */
            x &= shape == 0 ? 0x0000A5A5A5A50003u : 0xC003000000F0F00Fu;
            k0[i] = x;
            v0[i] = i;
        }
        memcpy(k, k0, n * sizeof *k);
        memcpy(v, v0, n * sizeof *v);
        CHECK(kti_hdp_sort(run.alloc, k, v, n, 1));
        for (size_t i = 1; i < n; i++) {
            CHECK(k[i - 1] < k[i] || (k[i - 1] == k[i] && v[i - 1] < v[i]));
            if (k[i - 1] > k[i]) break;
        }
        for (size_t i = 0; i < n; i += 4099) CHECK(k0[v[i]] == k[i]);
        uint64_t *k1 = malloc(n * sizeof *k1), *v1 = malloc(n * sizeof *v1);
        CHECK(k1 != NULL && v1 != NULL);
        for (unsigned t = 2; k1 != NULL && v1 != NULL && t <= 5; t += 3) {
            memcpy(k1, k0, n * sizeof *k1);
            memcpy(v1, v0, n * sizeof *v1);
            CHECK(kti_hdp_sort(run.alloc, k1, v1, n, t));
            CHECK(memcmp(k1, k, n * sizeof *k) == 0);
            CHECK(memcmp(v1, v, n * sizeof *v) == 0);
        }
        free(k1);
        free(v1);
    }
    printf("sorts of %zu keys agree with 1, 2 and 5 threads\n", n);
out:
    free(k0);
    free(v0);
    free(k);
    free(v);
}

/* ---- a merged open half in shards ---- */

static kt_halftours *merged(uint32_t W, uint32_t D, uint32_t H, unsigned threads)
{
    uint8_t rule[64];   /* one byte per cell of the half */
    kti_halftours_open_rules(rule, W, D, H, D - 1, -1, NULL, 0);
    kt_options *o = NULL;
    CHECK(kt_options_new(&o, NULL) == KT_OK);
    if (o != NULL) CHECK(kt_options_set_threads(o, threads) == KT_OK);
    kti_run run;
    kti_run_resolve(&run, o);
    kt_halftours *h = NULL;
    /* from 0: in 9 shards by type digits, as the 8x4 half of 8x8 is */
    CHECK(kti_halftours_make_open_merged(&h, W, D, H - D, rule, 0, &run, NULL) == KT_OK);
    kt_options_free(o);
    return h;
}

static void halves(void)
{
    kt_halftours *one = merged(6, 4, 8, 1), *three = merged(6, 4, 8, 3);
    if (one != NULL && three != NULL) {
        kti_half_view a = kti_halftours_view(one), b = kti_halftours_view(three);
        /* large enough for the threaded passes */
        CHECK(a.n >= 65536);
        CHECK_EQ_U64(b.n, a.n);
        if (a.n == b.n) {
            CHECK(memcmp(a.keys, b.keys, a.n * sizeof *a.keys) == 0);
            CHECK(memcmp(a.counts, b.counts, a.n * sizeof *a.counts) == 0);
        }
        for (size_t i = 1; i < a.n; i++) CHECK(a.keys[i - 1] < a.keys[i]);
        printf("6x4 open half of 6x8, merged in shards: %zu structures, 1 and 3 threads agree\n", a.n);
    }
    kt_halftours_free(one);
    kt_halftours_free(three);
}

/* The join groups each half by type with threads (half_build): the open
 * 6x8 count, with one thread and with three, is the published one. */
static void counts(void)
{
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        kt_options *o = NULL;
        CHECK(kt_options_new(&o, NULL) == KT_OK);
        if (o != NULL) CHECK(kt_options_set_threads(o, threads) == KT_OK);
        kt_u128 v = {0, 0};
        CHECK(kt_halftours_count_open(6, 8, 4, KT_CELL_NONE, KT_CELL_NONE, 0, o, &v) == KT_OK);
        kt_options_free(o);
        CHECK(v.hi == 0 && v.lo == 24964893804u);
    }
    printf("open 6x8 by half-tours with 1 and 3 threads: 24,964,893,804\n");
}

int main(void)
{
    light = getenv("KT_TEST_LIGHT") != NULL;
    ranges();
    sorts();
    if (!light) {
        halves();
        counts();
    }
    return check_done("threaded passes");
}
