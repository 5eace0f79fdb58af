/* SPDX-License-Identifier: MIT */
/*
 * Tests of kt_semimagic_make_puzzle: every puzzle made from the seed's
 * nested tours (with the nested, the plain semimagic and the closed
 * constraints) is proved unique by an independent run of the completion
 * search (every numbering, no symmetry reduction), agrees with its tour,
 * is minimal for the check budget, and is the same for 1 and 2 threads;
 * and the errors, the budget and cancellation.  With KT_TEST_LIGHT
 * (valgrind) only the nested constraints, one tour and one seed pair.
 */
#include <knight/knight.h>

#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "semimagic_data.h"

#define CHECK_BUDGET 200000u

static kt_options *run_with(unsigned threads, uint64_t budget)
{
    kt_options *r = NULL;
    CHECK_ST(kt_options_new(&r, NULL), KT_OK);
    CHECK_ST(kt_options_set_threads(r, threads), KT_OK);
    CHECK_ST(kt_options_set_budget(r, budget), KT_OK);
    return r;
}

static kt_semimagic_opts *opts8(unsigned flags, int rule)
{
    kt_semimagic_opts *o = NULL;
    CHECK_ST(kt_semimagic_opts_new(&o, 8, NULL), KT_OK);
    CHECK_ST(kt_semimagic_opts_set_flags(o, flags), KT_OK);
    if (rule) CHECK_ST(kt_semimagic_opts_set_puzzle_rule(o), KT_OK);
    return o;
}

typedef struct found {
    uint64_t count;
    uint32_t num[64];
} found;

static int keep_first(void *user, const kt_semimagic_solution *s)
{
    found *f = user;
    if (f->count++ == 0) memcpy(f->num, kt_semimagic_solution_numbers(s), sizeof f->num);
    return 0;
}

/* Completions of grid under the constraints of o, every numbering counted
 * (ALL mode); budget 0 = unlimited.  Returns the search's status. */
static kt_status completions(const kt_semimagic_opts *o, const uint32_t *grid, uint64_t budget,
                             found *f)
{
    kt_semimagic_opts *c = opts8(kt_semimagic_opts_flags(o), 0);
    /* The copy needs the cells of 1 and 64 of o: the tests use the rule. */
    CHECK_ST(kt_semimagic_opts_set_puzzle_rule(c), KT_OK);
    CHECK_ST(kt_semimagic_opts_set_grid(c, grid, 64), KT_OK);
    CHECK_ST(kt_semimagic_opts_set_symmetry(c, KT_SEMIMAGIC_ALL), KT_OK);
    kt_options *run = run_with(2, budget);
    memset(f, 0, sizeof *f);
    kt_status st = kt_semimagic_search(c, run, keep_first, f, NULL, NULL);
    kt_options_free(run);
    kt_semimagic_opts_free(c);
    return st;
}

/* One puzzle: unique by the search, the tour's own numbers, minimal. */
static void check_puzzle(const kt_semimagic_opts *o, const uint32_t *sol, const uint32_t *puz,
                         uint32_t givens, int minimal)
{
    uint32_t k = 0;
    for (int p = 0; p < 64; p++) {
        CHECK(puz[p] == 0 || puz[p] == sol[p]);
        k += puz[p] != 0;
    }
    CHECK_EQ_U64(k, givens);
    found f;
    CHECK_ST(completions(o, puz, 0, &f), KT_OK);
    CHECK_EQ_U64(f.count, 1);
    CHECK(memcmp(f.num, sol, sizeof f.num) == 0);
    if (!minimal) return;
    /* Without any one of its numbers the grid has a second completion, or
     * the search cannot settle it within the maker's check budget. */
    for (int p = 0; p < 64; p++) {
        if (!puz[p]) continue;
        uint32_t less[64];
        memcpy(less, puz, sizeof less);
        less[p] = 0;
        kt_status st = completions(o, less, CHECK_BUDGET, &f);
        CHECK(st == KT_ELIMIT || (st == KT_OK && f.count >= 2));
    }
}

static void test_puzzles(bool light)
{
    static const unsigned flags[3] = {KT_SEMIMAGIC_NESTED, KT_SEMIMAGIC_LINES,
                                      KT_SEMIMAGIC_NESTED | KT_SEMIMAGIC_CLOSED};
    for (int v = 0; v < (light ? 1 : 3); v++) {
        kt_semimagic_opts *o = opts8(flags[v], 1);
        for (int i = 0; i < (light ? 1 : 8); i += 3) {
            uint32_t sol[64];
            for (int p = 0; p < 64; p++) sol[p] = kt_test_nested8[i][p];
            int ok = 0;
            CHECK_ST(kt_semimagic_check(o, sol, 64, &ok), KT_OK);
            if (!ok) {
                /* Not every seed tour is closed: the maker refuses it. */
                uint32_t puz[64];
                CHECK_ST(kt_semimagic_make_puzzle(puz, o, sol, 64, 1, CHECK_BUDGET, NULL, NULL,
                                                  NULL),
                         KT_EINVAL);
                continue;
            }
            uint32_t puz1[64], puz2[64], g1 = 0, g2 = 0;
            uint64_t d1 = 0, d2 = 0;
            kt_options *r1 = run_with(1, 0), *r2 = run_with(2, 0);
            uint64_t seed = (uint64_t)(v * 8 + i) + 1;
            CHECK_ST(kt_semimagic_make_puzzle(puz1, o, sol, 64, seed, CHECK_BUDGET, r1, &g1, &d1),
                     KT_OK);
            CHECK_ST(kt_semimagic_make_puzzle(puz2, o, sol, 64, seed, CHECK_BUDGET, r2, &g2, &d2),
                     KT_OK);
            CHECK(memcmp(puz1, puz2, sizeof puz1) == 0);
            CHECK_EQ_U64(g1, g2);
            CHECK_EQ_U64(d1, d2);
            /* A handful of numbers is enough for these constraints. */
            CHECK(g1 >= 1 && g1 <= 24);
            CHECK(d1 > 0 && d1 <= CHECK_BUDGET);
            check_puzzle(o, sol, puz1, g1, i == 0);
            kt_options_free(r1);
            kt_options_free(r2);
        }
        kt_semimagic_opts_free(o);
    }
}

/* Another seed gives another order of removal, still a unique puzzle. */
static void test_seeds(bool light)
{
    kt_semimagic_opts *o = opts8(KT_SEMIMAGIC_NESTED, 1);
    uint32_t sol[64], a[64], b[64], ga, gb;
    for (int p = 0; p < 64; p++) sol[p] = kt_test_nested8[5][p];
    kt_options *run = run_with(2, 0);
    int differ = 0;
    for (uint64_t s = 10; s < (light ? 11u : 13u); s++) {
        CHECK_ST(kt_semimagic_make_puzzle(a, o, sol, 64, s, CHECK_BUDGET, run, &ga, NULL), KT_OK);
        CHECK_ST(kt_semimagic_make_puzzle(b, o, sol, 64, s + 100, CHECK_BUDGET, run, &gb, NULL),
                 KT_OK);
        check_puzzle(o, sol, a, ga, 0);
        check_puzzle(o, sol, b, gb, 0);
        differ |= memcmp(a, b, sizeof a) != 0;
    }
    CHECK(differ);
    kt_options_free(run);
    kt_semimagic_opts_free(o);
}

static int cancel_now(void *user, uint64_t done, uint64_t total)
{
    int *calls = user;
    ++*calls;
    CHECK(done <= total);
    return 1;
}

static void test_errors(void)
{
    kt_semimagic_opts *o = opts8(KT_SEMIMAGIC_NESTED, 1);
    uint32_t sol[64], puz[64], g = 77;
    for (int p = 0; p < 64; p++) sol[p] = kt_test_nested8[0][p];
    uint64_t d = 77;
    CHECK_ST(kt_semimagic_make_puzzle(NULL, o, sol, 64, 1, 0, NULL, &g, &d), KT_EINVAL);
    CHECK_ST(kt_semimagic_make_puzzle(puz, NULL, sol, 64, 1, 0, NULL, &g, &d), KT_EINVAL);
    CHECK_ST(kt_semimagic_make_puzzle(puz, o, NULL, 64, 1, 0, NULL, &g, &d), KT_EINVAL);
    CHECK_ST(kt_semimagic_make_puzzle(puz, o, sol, 63, 1, 0, NULL, &g, &d), KT_EINVAL);
    /* Not a tour: two numbers swapped. */
    uint32_t bad[64];
    memcpy(bad, sol, sizeof bad);
    bad[0] = sol[1];
    bad[1] = sol[0];
    CHECK_ST(kt_semimagic_make_puzzle(puz, o, bad, 64, 1, 0, NULL, &g, &d), KT_EINVAL);
    CHECK(g == 77 && d == 77);
    /* The whole call's budget runs out. */
    kt_options *run = run_with(2, 5000);
    memset(puz, 0xAB, sizeof puz);
    CHECK_ST(kt_semimagic_make_puzzle(puz, o, sol, 64, 1, 0, run, &g, &d), KT_ELIMIT);
    CHECK(puz[0] == 0xABABABABu && g == 77);
    /* A progress callback that cancels. */
    int calls = 0;
    CHECK_ST(kt_options_set_budget(run, 0), KT_OK);
    CHECK_ST(kt_options_set_progress(run, cancel_now, &calls), KT_OK);
    CHECK_ST(kt_semimagic_make_puzzle(puz, o, sol, 64, 1, CHECK_BUDGET, run, &g, &d), KT_ECANCELED);
    CHECK(calls == 1 && g == 77);
    kt_options_free(run);
    kt_semimagic_opts_free(o);
}

int main(void)
{
    bool light = getenv("KT_TEST_LIGHT") != NULL;
    test_errors();
    test_puzzles(light);
    test_seeds(light);
    return check_done("semimagic-puzzle");
}
