/* SPDX-License-Identifier: MIT */
/*
 * kt_rails_join() promises a closed tour whenever the board has one.  On
 * boards of 3 and 5 rows the closed tours are few (3 x n: even n >= 10,
 * Schwenk 1991) and Warnsdorff tourneys there are often stuck with cycles
 * no rail joins.  Every such board, 3 x n up to n = 200 and 5 x n up to
 * n = 100 (n even: an odd number of cells has no tourney), in both
 * orientations for a few sizes: the join of a Warnsdorff tourney must give
 * a valid closed tour, for three seeds each.
 */
#include <knight/knight.h>

#include "check.h"

#include <stdint.h>

static void join_one(uint32_t w, uint32_t h, uint64_t seed)
{
    kt_graph *g = NULL;
    CHECK_ST(kt_graph_new(&g, w, h), KT_OK);
    kt_tourney *t = NULL;
    CHECK_ST(kt_generate_tourney(&t, g, KT_GENERATE_WARNSDORFF, seed, NULL), KT_OK);
    if (t == NULL) {
        kt_graph_free(g);
        return;
    }
    kt_status st = kt_rails_join(t, seed, NULL);
    if (!kt_graph_board_has_closed_tour(w, h)) {
        CHECK_ST(st, KT_ENOTOUR);
    } else {
        if (st != KT_OK) fprintf(stderr, "%ux%u seed %llu: %s\n", w, h, (unsigned long long)seed,
                                 kt_status_name(st));
        CHECK_ST(st, KT_OK);
        CHECK(kt_tourney_is_closed_tour(t) == 1);
        size_t n = (size_t)w * h;
        kt_cell *succ = malloc(n * sizeof *succ);
        CHECK(succ != NULL);
        if (succ != NULL) {
            kt_diag d;
            CHECK_ST(kt_tourney_successors(t, succ, n), KT_OK);
            CHECK_ST(kt_tourney_validate_successors(g, succ, n, &d), KT_OK);
            /* one cycle through every cell: follow it */
            size_t len = 0;
            kt_cell c = 0;
            do {
                c = succ[c];
                len++;
            } while (c != 0 && len <= n);
            CHECK_EQ_U64(len, n);
        }
        free(succ);
    }
    kt_tourney_free(t);
    kt_graph_free(g);
}

int main(void)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        for (uint32_t n = 10; n <= 200; n += 2) join_one(n, 3, seed);
        for (uint32_t n = 6; n <= 100; n += 2) join_one(n, 5, seed);
        /* the other orientation (an odd number of cells has no tourney) */
        for (uint32_t n = 10; n <= 40; n += 2) join_one(3, n, seed);
        for (uint32_t n = 6; n <= 30; n += 2) join_one(5, n, seed);
    }
    return check_failures ? 1 : 0;
}
