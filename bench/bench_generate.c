/* SPDX-License-Identifier: MIT */
/*
 * Generation benchmarks (issue 3).
 *
 *   bench_generate closed [n ...]   per-cell time of kt_generate_closed_tour on
 *                                   n x n (default 2048 10000), cold (fresh
 *                                   memory from the default allocator) and warm
 *                                   (a pre-faulted arena through kt_allocator),
 *                                   with the floor: writing and reading back a
 *                                   4-byte-per-cell array in the same run.
 *   bench_generate methods [secs [name]]
 *                                   for every generator (or those whose name
 *                                   contains `name`) and n = 8, 16, ..., 64,
 *                                   128, 256, ...: runs, success rate, average
 *                                   cycles, ns per cell; each method stops when
 *                                   its total time passes secs (default 60).
 *   bench_generate seeds [count]    kt_generate_closed_tour on small and middle
 *                                   boards for seeds 0..count-1 (default 200):
 *                                   distinct tours and the mean time per tour.
 *   bench_generate targets          issue 17 and 14 targets: best of 5 CPU
 *                                   times of closed Warnsdorff (Roth)
 *                                   1000x1000, the neural network on 64x64
 *                                   and 256x256, the Warnsdorff tourney
 *                                   600x600 (every result checked); then the
 *                                   delay to the first progress call and
 *                                   the return after a cancel there, on
 *                                   5000x5000 (wall time).
 *   bench_generate ties [max [starts]]
 *                                   each Warnsdorff tie-break, one walk per
 *                                   board (seed n): on which n x n boards,
 *                                   5 <= n <= max (default 400), it gives an
 *                                   open tour from the corner and a closed
 *                                   tour (default start); then, for n up to
 *                                   `starts` (default 12), from how many
 *                                   start cells it gives an open tour.
 *   bench_generate pairs W H [step]  kt_generate_open_tour with both ends
 *                                   given, for every start cell and every
 *                                   step-th end cell of the other colour (or
 *                                   of the majority colour on odd boards):
 *                                   tours, proofs of none, give-ups, and the
 *                                   mean and slowest time per call.
 */
#include <knight/knight.h>

#include "bench_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A bump arena: memory is faulted in once and reused by every run. */
typedef struct arena {
    unsigned char *base;
    size_t cap, used;
} arena;

static void *arena_alloc(void *opaque, size_t size)
{
    arena *a = opaque;
    size = (size + 63) & ~(size_t)63;
    if (a->used + size > a->cap) return malloc(size == 0 ? 1 : size);
    void *p = a->base + a->used;
    a->used += size;
    return p;
}

static void arena_free(void *opaque, void *ptr)
{
    arena *a = opaque;
    unsigned char *p = ptr;
    if (p != NULL && (p < a->base || p >= a->base + a->cap)) free(p);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static volatile uint64_t sink_sum;

/* Floor: write i to a fresh 4-byte-per-cell array and read it back. */
static double floor_run(size_t n, uint32_t *reuse)
{
    double t0 = bench_now();
    uint32_t *a = reuse ? reuse : malloc(n * sizeof *a);
    if (a == NULL) return -1;
    for (size_t i = 0; i < n; i++) a[i] = (uint32_t)i;
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s += a[i];
    sink_sum = s;
    if (!reuse) free(a);
    return bench_now() - t0;
}

static int bench_closed(int argc, char **argv)
{
    uint32_t sizes[8] = {2048, 10000};
    int ns = 2;
    if (argc > 0) {
        ns = 0;
        for (int i = 0; i < argc && ns < 8; i++) sizes[ns++] = (uint32_t)strtoul(argv[i], NULL, 10);
    }
    printf("closed tours, kt_generate_closed_tour (ns per cell; best / median of 5 runs)\n");
    for (int k = 0; k < ns; k++) {
        uint32_t n = sizes[k];
        size_t cells = (size_t)n * n;
        enum { RUNS = 5 };
        double cold[RUNS], warm[RUNS], fcold[RUNS], fwarm[RUNS];
        kt_graph *g = NULL;
        if (kt_graph_new(&g, n, n) != KT_OK) return 1;
        arena ar = {malloc(cells + (1u << 20)), cells + (1u << 20), 0};
        if (ar.base == NULL) return 1;
        memset(ar.base, 0, ar.cap);
        kt_allocator al = {arena_alloc, arena_free, &ar};
        kt_graph *ga = NULL;
        if (kt_graph_new_custom(&ga, n, n, 2, 1, NULL, &al) != KT_OK) return 1;
        size_t graph_used = ar.used;
        uint32_t *fl = malloc(cells * sizeof *fl);
        if (fl == NULL) return 1;
        memset(fl, 0, cells * sizeof *fl);
        for (int r = 0; r < RUNS; r++) {
            kt_tourney *t = NULL;
            double t0 = bench_now();
            kt_status st = kt_generate_closed_tour(&t, g, (uint64_t)r, NULL);
            cold[r] = bench_now() - t0;
            if (st != KT_OK || !kt_tourney_is_closed_tour(t)) return 1;
            kt_tourney_free(t);
            fcold[r] = floor_run(cells, NULL);
            ar.used = graph_used;
            t0 = bench_now();
            st = kt_generate_closed_tour(&t, ga, (uint64_t)r, NULL);
            warm[r] = bench_now() - t0;
            if (st != KT_OK) return 1;
            kt_tourney_free(t);
            fwarm[r] = floor_run(cells, fl);
        }
        double *all[4] = {cold, warm, fcold, fwarm};
        for (int i = 0; i < 4; i++) qsort(all[i], RUNS, sizeof(double), cmp_double);
        double c = 1e9 / (double)cells;
        printf("  %5ux%-5u %10zu cells  cold %6.2f / %6.2f   warm %6.2f / %6.2f   "
               "floor cold %6.2f / %6.2f   floor warm %6.2f / %6.2f\n",
               n, n, cells, cold[0] * c, cold[RUNS / 2] * c, warm[0] * c, warm[RUNS / 2] * c, fcold[0] * c,
               fcold[RUNS / 2] * c, fwarm[0] * c, fwarm[RUNS / 2] * c);
        free(fl);
        kt_graph_free(ga);
        kt_graph_free(g);
        free(ar.base);
    }
    return 0;
}

typedef enum { M_TOURNEY, M_WARNS_OPEN, M_WARNS_CLOSED, M_CLOSED, M_OPEN, M_DIVIDE } mkind;
typedef struct method {
    const char *name;
    mkind kind;
    int arg;
} method;

/* Run settings for one Warnsdorff walk per call (budget: attempts); made
 * once, kept for the life of the program. */
static const kt_options *one_walk(void)
{
    static kt_options *o = NULL;
    if (o == NULL && kt_options_new(&o, NULL) == KT_OK) kt_options_set_budget(o, 1);
    return o;
}

static kt_status run_one(const method *m, const kt_graph *g, uint64_t seed, kt_tourney **t)
{
    switch (m->kind) {
    case M_TOURNEY: return kt_generate_tourney(t, g, (kt_generate_method)m->arg, seed, NULL);
    case M_WARNS_OPEN: return kt_generate_warnsdorff_tour(t, g, KT_SHAPE_PATH, KT_CELL_NONE, (kt_generate_tiebreak)m->arg, seed, one_walk());
    case M_WARNS_CLOSED: return kt_generate_warnsdorff_tour(t, g, KT_SHAPE_CYCLES, KT_CELL_NONE, (kt_generate_tiebreak)m->arg, seed, one_walk());
    case M_CLOSED: return kt_generate_closed_tour(t, g, seed, NULL);
    case M_OPEN: return kt_generate_open_tour(t, g, KT_CELL_NONE, KT_CELL_NONE, seed, NULL);
    case M_DIVIDE: return kt_generate_divide_tour(t, g, seed, NULL);
    }
    return KT_EINVAL;
}

static int bench_methods(double budget, const char *only)
{
    static const method ms[] = {
        {"closed (blocks+rails)", M_CLOSED, 0},
        {"open (blocks)", M_OPEN, 0},
        {"closed divide (joined)", M_DIVIDE, 0},
        {"tourney blocks", M_TOURNEY, KT_GENERATE_BLOCKS},
        {"tourney divide", M_TOURNEY, KT_GENERATE_DIVIDE},
        {"tourney braid", M_TOURNEY, KT_GENERATE_BRAID},
        {"tourney four-cover", M_TOURNEY, KT_GENERATE_FOUR_COVER},
        {"tourney warnsdorff", M_TOURNEY, KT_GENERATE_WARNSDORFF},
        {"tourney neural", M_TOURNEY, KT_GENERATE_NEURAL},
        {"warnsdorff open first", M_WARNS_OPEN, KT_GENERATE_TIE_FIRST},
        {"warnsdorff open random", M_WARNS_OPEN, KT_GENERATE_TIE_RANDOM},
        {"warnsdorff open pohl", M_WARNS_OPEN, KT_GENERATE_TIE_POHL},
        {"warnsdorff open roth", M_WARNS_OPEN, KT_GENERATE_TIE_ROTH},
        {"warnsdorff closed random", M_WARNS_CLOSED, KT_GENERATE_TIE_RANDOM},
        {"warnsdorff closed pohl", M_WARNS_CLOSED, KT_GENERATE_TIE_POHL},
        {"warnsdorff closed roth", M_WARNS_CLOSED, KT_GENERATE_TIE_ROTH},
    };
    printf("%-26s %6s %5s %8s %9s %12s\n", "method", "n", "runs", "success", "cycles", "ns/cell");
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
        if (only != NULL && strstr(ms[i].name, only) == NULL) continue;
        double spent = 0;
        for (uint32_t n = 8; n <= 16384 && spent < budget; n = n < 64 ? n + 8 : n * 2) {
            kt_graph *g = NULL;
            if (kt_graph_new(&g, n, n) != KT_OK) return 1;
            int runs = 0, ok = 0;
            double cycles = 0, secs = 0;
            kt_status last = KT_OK;
            /* at least one run; up to 20 or one second (or 1/10 of the budget) */
            while (runs < 20 && (runs == 0 || (secs < 1.0 && spent + secs < budget))) {
                kt_tourney *t = NULL;
                double t0 = bench_now();
                kt_status st = run_one(&ms[i], g, (uint64_t)runs * 1000003u + n, &t);
                secs += bench_now() - t0;
                runs++;
                last = st;
                if (st == KT_OK) {
                    ok++;
                    cycles += (double)kt_tourney_size(t);
                }
                kt_tourney_free(t);
                if (st == KT_EUNSUPPORTED) break;
            }
            spent += secs;
            kt_graph_free(g);
            if (last == KT_EUNSUPPORTED && ok == 0) continue;
            printf("%-26s %6u %5d %7.0f%% %9.1f %12.1f\n", ms[i].name, n, runs, 100.0 * ok / runs,
                   ok ? cycles / ok : 0.0, secs * 1e9 / runs / ((double)n * n));
            fflush(stdout);
        }
    }
    return 0;
}

static int bench_pairs(uint32_t w, uint32_t h, uint32_t step)
{
    kt_graph *g = NULL;
    if (kt_graph_new(&g, w, h) != KT_OK || step == 0) return 1;
    size_t n = (size_t)w * h, tours = 0, none = 0, gaveup = 0, calls = 0;
    double total = 0, worst = 0;
    for (kt_cell s = 0; s < n; s++)
        for (kt_cell e = s + 1; e < n; e += step) {
            unsigned cs = (s % w + s / w) & 1u, ce = (e % w + e / w) & 1u;
            if ((n & 1) ? (cs || ce) : cs == ce) continue;
            kt_tourney *t = NULL;
            double t0 = bench_now();
            kt_status st = kt_generate_open_tour(&t, g, s, e, s * 31u + e, NULL);
            double dt = bench_now() - t0;
            kt_tourney_free(t);
            calls++;
            total += dt;
            if (dt > worst) worst = dt;
            if (st == KT_OK) tours++;
            else if (st == KT_ENOTOUR) none++;
            else gaveup++;
        }
    kt_graph_free(g);
    printf("%ux%u, both ends given: %zu pairs, %zu tours, %zu proved impossible, %zu gave up; "
           "%.3f ms per call, slowest %.3f s\n",
           w, h, calls, tours, none, gaveup, calls ? total / (double)calls * 1e3 : 0.0, worst);
    return gaveup != 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Issue 17: how many different tours `count` seeds give, and at what cost. */
static int bench_seeds(size_t count)
{
    static const uint32_t boards[][2] = {{5, 6},   {3, 10},  {3, 12},  {5, 8},   {6, 6},
                                         {6, 8},   {8, 8},   {7, 10},  {10, 10}, {12, 12},
                                         {16, 16}, {32, 32}, {64, 64}, {65, 66}, {100, 100}};
    printf("closed tours by seed, kt_generate_closed_tour (seeds 0..%zu)\n", count - 1);
    uint64_t *hs = malloc(count * sizeof *hs);
    if (hs == NULL) return 1;
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        uint32_t w = boards[i][0], h = boards[i][1];
        size_t cells = (size_t)w * h, distinct = 0;
        kt_graph *g = NULL;
        uint8_t *buf = malloc(cells);
        if (buf == NULL || kt_graph_new(&g, w, h) != KT_OK) return 1;
        double total = 0;
        for (size_t s = 0; s < count; s++) {
            kt_tourney *t = NULL;
            double t0 = bench_now();
            kt_status st = kt_generate_closed_tour(&t, g, s, NULL);
            total += bench_now() - t0;
            if (st != KT_OK || !kt_tourney_is_closed_tour(t)) return 1;
            if (kt_tourney_move_pairs(t, buf, cells) != KT_OK) return 1;
            uint64_t x = 0xcbf29ce484222325u; /* FNV-1a of the canonical move pairs */
            for (size_t c = 0; c < cells; c++) x = (x ^ buf[c]) * 0x100000001b3u;
            hs[s] = x;
            kt_tourney_free(t);
        }
        qsort(hs, count, sizeof *hs, cmp_u64);
        for (size_t s = 0; s < count; s++) distinct += s == 0 || hs[s] != hs[s - 1];
        printf("  %4ux%-4u %6zu cells  %6zu distinct of %zu   %9.1f us per tour\n", w, h, cells,
               distinct, count, total / (double)count * 1e6);
        free(buf);
        kt_graph_free(g);
    }
    free(hs);
    return 0;
}

/* Print the sizes in fail[0..nf) as ranges. */
static void print_ranges(const uint32_t *fail, size_t nf)
{
    if (nf == 0) {
        printf(" none");
        return;
    }
    for (size_t i = 0; i < nf;) {
        size_t j = i;
        while (j + 1 < nf && fail[j + 1] == fail[j] + 1) j++;
        if (j == i) printf(" %u", fail[i]);
        else printf(" %u-%u", fail[i], fail[j]);
        i = j + 1;
    }
}

/* One walk of tie-break `tie` from `start`: 1 when it gives a tour. */
static int tie_walk(const kt_graph *g, kt_shape shape, kt_cell start, int tie, uint64_t seed)
{
    kt_tourney *t = NULL;
    kt_status st = kt_generate_warnsdorff_tour(&t, g, shape, start, (kt_generate_tiebreak)tie, seed, one_walk());
    int ok = st == KT_OK && (shape == KT_SHAPE_PATH ? kt_tourney_is_open_tour(t) : kt_tourney_is_closed_tour(t));
    kt_tourney_free(t);
    return ok;
}

static int bench_ties(uint32_t max, uint32_t starts)
{
    uint32_t *fail = calloc(max + 1, sizeof *fail);
    if (fail == NULL) return 1;
    for (int shape = 0; shape < 2; shape++) {
        kt_shape sh = shape ? KT_SHAPE_CYCLES : KT_SHAPE_PATH;
        for (int tie = 0; tie < KT_GENERATE_TIE_COUNT; tie++) {
            size_t nf = 0, tried = 0;
            double t0 = bench_now();
            for (uint32_t n = 5; n <= max; n++) {
                if (shape && (n & 1)) continue; /* odd boards have no closed tour */
                kt_graph *g = NULL;
                if (kt_graph_new(&g, n, n) != KT_OK) return 1;
                tried++;
                if (!tie_walk(g, sh, KT_CELL_NONE, tie, n)) fail[nf++] = n;
                kt_graph_free(g);
            }
            printf("%-6s %-6s n=5..%u: %zu of %zu boards, %.1f s; fails on", shape ? "closed" : "open",
                   kt_generate_tiebreak_name((kt_generate_tiebreak)tie), max, tried - nf, tried, bench_now() - t0);
            print_ranges(fail, nf);
            printf("\n");
        }
    }
    printf("open tours from every start (cells that give a tour / cells):\n%4s", "n");
    for (int tie = 0; tie < KT_GENERATE_TIE_COUNT; tie++) printf(" %9s", kt_generate_tiebreak_name((kt_generate_tiebreak)tie));
    printf("\n");
    for (uint32_t n = 5; n <= starts; n++) {
        kt_graph *g = NULL;
        if (kt_graph_new(&g, n, n) != KT_OK) return 1;
        printf("%4u", n);
        for (int tie = 0; tie < KT_GENERATE_TIE_COUNT; tie++) {
            unsigned ok = 0;
            for (kt_cell c = 0; c < n * n; c++) ok += (unsigned)tie_walk(g, KT_SHAPE_PATH, c, tie, n);
            printf(" %5u/%-3u", ok, n * n);
        }
        printf("\n");
        kt_graph_free(g);
    }
    free(fail);
    return 0;
}

/* One target run: CPU seconds, or -1 when it gave no valid result. */
static double target_run(int what, uint32_t n)
{
    kt_graph *g = NULL;
    if (kt_graph_new(&g, n, n) != KT_OK) return -1;
    kt_tourney *t = NULL;
    double c0 = bench_cpu();
    kt_status st = what < 0 ? kt_generate_warnsdorff_tour(&t, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_GENERATE_TIE_ROTH, 1, NULL)
                            : kt_generate_tourney(&t, g, (kt_generate_method)what, 1, NULL);
    double c = bench_cpu() - c0;
    int ok = st == KT_OK && (what >= 0 || kt_tourney_is_closed_tour(t));
    kt_tourney_free(t);
    kt_graph_free(g);
    return ok ? c : -1;
}

typedef struct first_probe {
    double start, first, cancel_at;
} first_probe;

static int first_cb(void *user, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    first_probe *p = user;
    p->first = p->cancel_at = bench_now();
    return 1; /* cancel at once */
}

static int bench_targets(void)
{
    static const struct { const char *name; int what; uint32_t n; double goal; } ts[] = {
        {"warnsdorff closed roth", -1, 1000, 0.1}, {"tourney neural", KT_GENERATE_NEURAL, 64, 0.1},
        {"tourney neural", KT_GENERATE_NEURAL, 256, 5.0}, {"tourney warnsdorff", KT_GENERATE_WARNSDORFF, 600, 1.0}};
    printf("%-24s %6s %14s %8s\n", "call", "n", "best CPU s", "goal s");
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        double best = -1;
        for (int r = 0; r < 5; r++) {
            double c = target_run(ts[i].what, ts[i].n);
            if (c < 0) {
                printf("%-24s %6u   no valid result\n", ts[i].name, ts[i].n);
                return 1;
            }
            if (best < 0 || c < best) best = c;
        }
        printf("%-24s %6u %14.4f %8.1f\n", ts[i].name, ts[i].n, best, ts[i].goal);
    }
    kt_graph *g = NULL;
    if (kt_graph_new(&g, 5000, 5000) != KT_OK) return 1;
    printf("5000x5000, cancelled at the first progress call (wall ms):\n");
    for (int m = -1; m < KT_GENERATE_METHOD_COUNT; m++) {
        first_probe p = {bench_now(), -1, -1};
        kt_options *o = NULL;
        if (kt_options_new(&o, NULL) != KT_OK || kt_options_set_progress(o, first_cb, &p) != KT_OK) return 1;
        kt_tourney *t = NULL;
        kt_status st = m < 0 ? kt_generate_warnsdorff_tour(&t, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_GENERATE_TIE_ROTH, 1, o)
                             : kt_generate_tourney(&t, g, (kt_generate_method)m, 1, o);
        double end = bench_now();
        printf("  %-22s %-12s first call %7.1f, returned %6.1f after\n",
               m < 0 ? "warnsdorff closed roth" : kt_generate_method_name((kt_generate_method)m), kt_status_name(st),
               (p.first - p.start) * 1e3, (end - p.cancel_at) * 1e3);
        kt_tourney_free(t);
        kt_options_free(o);
    }
    kt_graph_free(g);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "pairs") == 0)
        return bench_pairs((uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]),
                           argc >= 5 ? (uint32_t)atoi(argv[4]) : 1u);
    if (argc >= 2 && strcmp(argv[1], "closed") == 0) return bench_closed(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "targets") == 0) return bench_targets();
    if (argc >= 2 && strcmp(argv[1], "ties") == 0)
        return bench_ties(argc >= 3 ? (uint32_t)atoi(argv[2]) : 400u, argc >= 4 ? (uint32_t)atoi(argv[3]) : 12u);
    if (argc >= 2 && strcmp(argv[1], "seeds") == 0) {
        long count = argc >= 3 ? atol(argv[2]) : 200;
        return bench_seeds(count > 0 ? (size_t)count : 200);
    }
    if (argc >= 2 && strcmp(argv[1], "methods") == 0)
        return bench_methods(argc >= 3 ? atof(argv[2]) : 60.0, argc >= 4 ? argv[3] : NULL);
    fprintf(stderr, "usage: bench_generate closed [n ...] | targets | ties [max [starts]] | seeds [count] | methods [seconds per method [name part]] | "
                    "pairs W H [step]\n");
    return 2;
}
