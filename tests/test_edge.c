/* SPDX-License-Identifier: MIT */
/*
 * Edge cases and early size checks:
 * - kt_count_tours() on boards far too wide for its state encoding says
 *   KT_EUNSUPPORTED before allocating anything (10000 x 10000 used to give
 *   KT_ENOMEM, 3000 x 3000 to build 1.4 GB first);
 * - a count with a budget of 1 state stops at once (it used to build 1 GiB
 *   of lookahead tables for 10 s first);
 * - a board of holes only: its empty tourney is no closed tour, and join
 *   and obfuscate answer KT_ENOTOUR.
 */
#include <knight/knight.h>

#include "check.h"

#include <stdatomic.h>
#include <string.h>
#include <time.h>

typedef struct counting {
    atomic_ulong allocs;
    atomic_ullong bytes;
} counting;

static void *c_alloc(void *opaque, size_t size)
{
    counting *c = opaque;
    atomic_fetch_add(&c->allocs, 1);
    atomic_fetch_add(&c->bytes, size);
    return malloc(size ? size : 1);
}

static void c_free(void *opaque, void *p)
{
    (void)opaque;
    free(p);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_count_too_wide(void)
{
    static const uint32_t sizes[][4] = {
        {10000, 10000, 2, 1}, {3000, 3000, 2, 1}, {22, 1000, 2, 1}, {1000, 40, 3, 2}, {64, 64, 1, 0},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        counting c;
        atomic_init(&c.allocs, 0);
        atomic_init(&c.bytes, 0);
        kt_allocator al = {c_alloc, c_free, &c};
        kt_graph *g = NULL;
        kt_status st = kt_graph_new_custom(&g, sizes[i][0], sizes[i][1], sizes[i][2], sizes[i][3],
                                           NULL, &al);
        if (st == KT_EINVAL) continue; /* a leaper the library does not take */
        CHECK_ST(st, KT_OK);
        unsigned long before = atomic_load(&c.allocs);
        kt_u128 n = {5, 6};
        for (unsigned flags = 0; flags < 2; flags++)
            CHECK_ST(kt_count_tours(g, flags, NULL, &n, NULL), KT_EUNSUPPORTED);
        CHECK_EQ_U64(atomic_load(&c.allocs), before); /* refused before any allocation */
        CHECK(n.lo == 5 && n.hi == 6);
        kt_graph_free(g);
    }
    /* the widest full knight boards the encoding takes still count */
    kt_graph *g = NULL;
    CHECK_ST(kt_graph_new(&g, 3, 20), KT_OK);
    kt_u128 n;
    CHECK_ST(kt_count_tours(g, 0, NULL, &n, NULL), KT_OK);
    kt_graph_free(g);
}

static void test_count_budget_is_early(void)
{
    counting c;
    atomic_init(&c.allocs, 0);
    atomic_init(&c.bytes, 0);
    kt_allocator al = {c_alloc, c_free, &c};
    kt_graph *g = NULL;
    CHECK_ST(kt_graph_new_custom(&g, 8, 8, 2, 1, NULL, &al), KT_OK);
    kt_options *run = NULL;
    CHECK_ST(kt_options_new(&run, NULL), KT_OK);
    CHECK_ST(kt_options_set_budget(run, 1), KT_OK);
    kt_u128 n;
    double t0 = now();
    CHECK_ST(kt_count_tours(g, 0, run, &n, NULL), KT_ELIMIT);
    double dt = now() - t0;
    printf("8x8 count with a budget of 1 state: %.1f ms, %llu bytes allocated\n", dt * 1e3,
           (unsigned long long)atomic_load(&c.bytes));
    CHECK(dt < 2.0);
    CHECK(atomic_load(&c.bytes) < ((unsigned long long)64 << 20));
    kt_options_free(run);
    kt_graph_free(g);
}

static void test_board_of_holes(void)
{
    static const char mask[] = "...\n...\n...\n";
    kt_graph *g = NULL;
    kt_diag d;
    kt_status st = kt_graph_parse_mask(&g, mask, strlen(mask), 2, 1, NULL, &d);
    if (st != KT_OK) {
        /* a mask without cells may be refused outright: then nothing to join */
        CHECK(st == KT_EPARSE || st == KT_EINVAL);
        return;
    }
    CHECK_EQ_U64(kt_graph_vertex_count(g), 0);
    kt_tourney *t = NULL;
    uint8_t holes[9];
    memset(holes, 0xFF, sizeof holes);
    CHECK_ST(kt_tourney_from_move_pairs(&t, g, holes, sizeof holes, NULL), KT_OK);
    if (t != NULL) {
        CHECK(kt_tourney_is_closed_tour(t) == 0);
        CHECK_ST(kt_rails_join(t, 1, NULL), KT_ENOTOUR);
        CHECK_ST(kt_rails_obfuscate(t, 0, 1, NULL), KT_ENOTOUR);
        CHECK(kt_tourney_is_closed_tour(t) == 0);
        kt_tourney_free(t);
    }
    kt_graph_free(g);
}

int main(void)
{
    test_count_too_wide();
    test_count_budget_is_early();
    test_board_of_holes();
    return check_failures ? 1 : 0;
}
