/* SPDX-License-Identifier: MIT */
/*
 * A program written against libknight 1.0, built against its headers and
 * library, then run (tests/upgrade/meson.build) with the dynamic linker
 * pointed at a library that has grown: kt_options is larger and a setter
 * exists that 1.0 did not have.  Every 1.0 call must behave as before.
 */
#define _GNU_SOURCE 1
#include <knight/knight.h>

#include "../check.h"

#include <dlfcn.h>

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    ++*(int *)user;
    return 0;
}

int main(void)
{
    /* Proof that the grown library is the one loaded. */
    CHECK(dlsym(RTLD_DEFAULT, "kt_options_set_grown") != NULL);

    kt_options *run = NULL, *copy = NULL;
    CHECK_ST(kt_options_new(&run, NULL), KT_OK);
    int calls = 0;
    CHECK_ST(kt_options_set_threads(run, 2), KT_OK);
    CHECK_ST(kt_options_set_progress(run, on_progress, &calls), KT_OK);
    CHECK_ST(kt_options_set_budget(run, 0), KT_OK);
    CHECK_ST(kt_options_set_checkpoint(run, NULL, -1), KT_OK);
    CHECK_ST(kt_options_copy(&copy, run), KT_OK);
    CHECK(kt_options_threads(copy) == 2);

    kt_graph *g = NULL;
    CHECK_ST(kt_graph_new(&g, 6, 6), KT_OK);
    kt_u128 whole = {0, 0};
    CHECK_ST(kt_count_tours(g, 0, copy, &whole, NULL), KT_OK);
    CHECK(whole.lo == 9862 && whole.hi == 0);

    /* Shards of the grown library's options still sum to the whole. */
    uint64_t sum = 0;
    for (uint32_t i = 0; i < 3; i++) {
        kt_u128 part = {0, 0};
        CHECK_ST(kt_options_set_shard(run, i, 3), KT_OK);
        CHECK_ST(kt_count_tours(g, 0, run, &part, NULL), KT_OK);
        sum += part.lo;
    }
    CHECK(sum == 9862);

    kt_tourney *t = NULL;
    CHECK_ST(kt_generate_closed_tour(&t, g, 7, NULL), KT_OK);
    CHECK(kt_tourney_is_closed_tour(t) == 1);
    kt_tourney_free(t);

    kt_u128 mckay = {0, 0};
    CHECK_ST(kt_options_set_shard(run, 0, 1), KT_OK);
    CHECK_ST(kt_halftours_count_closed(6, 6, 3, run, &mckay), KT_OK);
    CHECK(mckay.lo == 9862);

    kt_graph_free(g);
    kt_options_free(copy);
    kt_options_free(run);
    printf("1.0 program against the grown library: %s\n", check_failures ? "FAILED" : "ok");
    return check_failures != 0;
}
