/* SPDX-License-Identifier: MIT */
/*
 * Benchmark of the semimagic search: the nested 8x8 search with and without
 * the Knight Errant start/end rule, a magic check and puzzle completion.
 *
 *   bench_semimagic [rule|any|magic|complete|all] [threads]
 */
#include <knight/knight.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tests/semimagic_data.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct found {
    int seed_hit[8];
    int verbose;
} found;

static int on_solution(void *user, const kt_semimagic_solution *s)
{
    found *f = user;
    const uint32_t *num = kt_semimagic_solution_numbers(s);
    int which = -1;
    for (int i = 0; i < 8; i++) {
        int eq = 1;
        for (int p = 0; p < 64 && eq; p++) eq = num[p] == kt_test_nested8[i][p];
        if (eq) which = i;
    }
    if (which >= 0) f->seed_hit[which] = 1;
    printf("  class %llu size %u satisfying %u reverse %lld%s", (unsigned long long)kt_semimagic_solution_class(s),
           kt_semimagic_solution_class_size(s), kt_semimagic_solution_class_satisfying(s),
           kt_semimagic_solution_reverse_class(s) == KT_SM_NO_CLASS ? -1LL
                                                                   : (long long)kt_semimagic_solution_reverse_class(s),
           which >= 0 ? "" : "\n");
    if (which >= 0) printf(" (seed #%d)\n", which + 1);
    if (f->verbose)
        for (int y = 0; y < 8; y++) {
            printf("   ");
            for (int x = 0; x < 8; x++) printf(" %2u", num[y * 8 + x]);
            printf("\n");
        }
    fflush(stdout);
    return 0;
}

static int run_nested(int rule, unsigned threads)
{
    kt_semimagic_opts *o;
    if (kt_semimagic_opts_new(&o, 8, NULL) != KT_OK) return 1;
    kt_semimagic_opts_set_flags(o, KT_SM_NESTED);
    if (rule) kt_semimagic_opts_set_puzzle_rule(o);
    kt_semimagic_opts_set_threads(o, threads);
    found f;
    memset(&f, 0, sizeof f);
    f.verbose = getenv("BENCH_VERBOSE") != NULL;
    uint64_t classes = 0, sols = 0;
    printf("nested 8x8, %s, %u thread(s):\n", rule ? "puzzle rule" : "any start", threads);
    double t0 = now();
    kt_status st = kt_semimagic_search(o, on_solution, &f, &classes, &sols);
    double t1 = now();
    int hits = 0;
    for (int i = 0; i < 8; i++) hits += f.seed_hit[i];
    printf("  status %s, %llu classes, %llu solutions satisfying, %d of the seed's 8 reported verbatim, %.2f s\n",
           kt_status_name(st), (unsigned long long)classes, (unsigned long long)sols, hits, t1 - t0);
    kt_semimagic_opts_free(o);
    return st != KT_OK;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "rule";
    unsigned threads = argc > 2 ? (unsigned)atoi(argv[2]) : 2;
    int rc = 0;
    if (!strcmp(what, "rule") || !strcmp(what, "all")) rc |= run_nested(1, threads);
    if (!strcmp(what, "any") || !strcmp(what, "all")) rc |= run_nested(0, threads);
    return rc;
}
