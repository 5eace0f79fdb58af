/* SPDX-License-Identifier: MIT */
/* Internal: the relative-move distribution over all closed tours by the
 * weighted half-tour join (kti_halftours_turn_classes, issue 17) against
 * bench/exact_stats.c's enumeration and weighted frontier count, which
 * share no code with it; against itself for every cut of a board and for
 * both orientations; and against the published 6x8 figures. */
#include "halftour/halftour_internal.h"
#include "check.h"
#include "../bench/exact_stats.h"
#include <math.h>
#include <string.h>

/* The join's totals as es_totals: relative moves over directed tours. */
static void join_totals(uint32_t w, uint32_t h, uint32_t split, unsigned threads, uint64_t *tours,
                        uint64_t rel[8])
{
    kt_options *o = NULL;
    CHECK_ST(kt_options_new(&o, NULL), KT_OK);
    CHECK_ST(kt_options_set_threads(o, threads), KT_OK);
    kti_u128 n = 0, t[KTI_TURN_CLASSES] = {0};
    CHECK_ST(kti_halftours_turn_classes(w, h, split, o, &n, t), KT_OK);
    kt_options_free(o);
    /* one turn per cell per tour */
    CHECK(t[0] + t[1] + t[2] + t[3] == n * w * h);
    *tours = (uint64_t)n;
    uint64_t r[8] = {(uint64_t)(2 * t[0]), (uint64_t)t[1], (uint64_t)t[2], (uint64_t)t[3], 0,
                     (uint64_t)t[3],       (uint64_t)t[2], (uint64_t)t[1]};
    memcpy(rel, r, sizeof r);
}

static void check_against(const es_totals *e, uint32_t w, uint32_t h, uint32_t split,
                          unsigned threads)
{
    uint64_t tours, rel[8];
    join_totals(w, h, split, threads, &tours, rel);
    CHECK_EQ_U64(tours, e->tours);
    for (int k = 0; k < 8; k++) CHECK_EQ_U64(rel[k], e->relative[k]);
}

/* Three cuts of 6x6 (9,862 tours) and the small boards the enumeration
 * covers (widths at most 8 along the cut). */
static void test_enumerated(void)
{
    es_totals e;
    CHECK(es_enumerate(6, 6, &e, NULL, NULL) == 0);
    CHECK_EQ_U64(e.tours, 9862);
    for (uint32_t split = 2; split < 5; split++) check_against(&e, 6, 6, split, 1 + split % 2);
    static const uint32_t sizes[][3] = {{5, 6, 3}, {6, 5, 2}, {3, 10, 5}, {3, 12, 4}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        CHECK(es_enumerate(sizes[i][0], sizes[i][1], &e, NULL, NULL) == 0);
        check_against(&e, sizes[i][0], sizes[i][1], sizes[i][2], 2);
    }
}

/* 8x5 (44,202 tours, halves 8 wide, as on 8x8) against the weighted frontier count. */
static void test_frontier(void)
{
    es_totals e;
    CHECK(es_weighted_count(8, 5, 0, &e, NULL) == 0);
    CHECK_EQ_U64(e.tours, 44202);
    check_against(&e, 8, 5, 3, 2);
}

/* 7x6 cut across 7 columns and 6x7 across 6, at two cuts, threads 1 and
 * 2: the same totals from different half-tours. */
static void test_orientations(void)
{
    uint64_t t1, t2, t3, r1[8], r2[8], r3[8];
    join_totals(7, 6, 3, 2, &t1, r1);
    join_totals(6, 7, 3, 1, &t2, r2);
    join_totals(6, 7, 4, 2, &t3, r3);
    CHECK_EQ_U64(t1, 1067638);
    CHECK_EQ_U64(t2, t1);
    CHECK_EQ_U64(t3, t1);
    for (int k = 0; k < 8; k++) {
        CHECK_EQ_U64(r2[k], r1[k]);
        CHECK_EQ_U64(r3[k], r1[k]);
    }
}

/* 6x8: the 55,488,142 tours and the relative-move frequencies that
 * bench_stats exact published (BENCHMARKS.md, to 6 decimals). */
static void test_6x8(void)
{
    uint64_t tours, rel[8];
    join_totals(6, 8, 4, 2, &tours, rel);
    CHECK_EQ_U64(tours, 55488142);
    static const double published[8] = {0.050261, 0.168834, 0.133334, 0.172701,
                                        0,        0.172701, 0.133334, 0.168834};
    for (int k = 0; k < 8; k++)
        CHECK(fabs((double)rel[k] / (2.0 * 48 * (double)tours) - published[k]) < 5.1e-7);
}

static void test_errors(void)
{
    kti_u128 n = 0, t[KTI_TURN_CLASSES];
    CHECK_ST(kti_halftours_turn_classes(6, 6, 0, NULL, &n, t), KT_EINVAL);
    CHECK_ST(kti_halftours_turn_classes(6, 6, 6, NULL, &n, t), KT_EINVAL);
    CHECK_ST(kti_halftours_turn_classes(6, 6, 3, NULL, NULL, t), KT_EINVAL);
    CHECK_ST(kti_halftours_turn_classes(9, 6, 3, NULL, &n, t), KT_EUNSUPPORTED);
    /* boards without a closed tour: none, and no turns */
    CHECK_ST(kti_halftours_turn_classes(5, 5, 2, NULL, &n, t), KT_OK);
    CHECK(n == 0 && t[0] + t[1] + t[2] + t[3] == 0);
}

int main(void)
{
    test_enumerated();
    test_frontier();
    test_orientations();
    test_6x8();
    test_errors();
    return check_done("test_relmove");
}
