/* SPDX-License-Identifier: MIT */
/*
 * Tests of the semimagic search module: the seed's eight nested semimagic
 * tours, puzzle completion, constrained nested searches, symmetry classes
 * and the reversal relation, the 5x5 open-tour count (1728 numberings),
 * determinism across thread counts, magic checks, cancellation, budgets,
 * shards, NULL getters and argument errors.
 */
#include <knight/knight.h>

#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "semimagic_data.h"


/* ---- helpers ---- */

static void image(int n, int t, const uint32_t *num, uint32_t *img)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int a = x, b = y;
            if (t & 4) {
                int s = a;
                a = b;
                b = s;
            }
            if (t & 1) a = n - 1 - a;
            if (t & 2) b = n - 1 - b;
            img[b * n + a] = num[y * n + x];
        }
}

/* Independent validity check: numbered knight's tour with the line sums. */
static int valid_tour(int n, const uint32_t *num, int nested)
{
    int N = n * n, pos[65];
    for (int k = 0; k <= N; k++) pos[k] = -1;
    for (int p = 0; p < N; p++) {
        if (num[p] < 1 || (int)num[p] > N || pos[num[p]] >= 0) return 0;
        pos[num[p]] = p;
    }
    for (int k = 1; k < N; k++) {
        int dx = abs(pos[k] % n - pos[k + 1] % n), dy = abs(pos[k] / n - pos[k + 1] / n);
        if (!((dx == 1 && dy == 2) || (dx == 2 && dy == 1))) return 0;
    }
    if (nested) {
        int full = n * (N + 1) / 2;
        for (int i = 0; i < n; i++) {
            int r = 0, c = 0, rh = 0, ch = 0;
            for (int j = 0; j < n; j++) {
                r += (int)num[i * n + j];
                c += (int)num[j * n + i];
                if (j < n / 2) {
                    rh += (int)num[i * n + j];
                    ch += (int)num[j * n + i];
                }
            }
            if (r != full || c != full || rh != full / 2 || ch != full / 2) return 0;
        }
    }
    return 1;
}

static void seed_sol(int i, uint32_t *out)
{
    for (int p = 0; p < 64; p++) out[p] = kt_test_nested8[i][p];
}

/* Index of the seed solution whose class contains num, or -1. */
static int seed_class_of(const uint32_t *num)
{
    uint32_t s[64], img[64];
    for (int i = 0; i < 8; i++) {
        seed_sol(i, s);
        for (int t = 0; t < 8; t++) {
            image(8, t, s, img);
            if (memcmp(img, num, sizeof img) == 0) return i;
        }
    }
    return -1;
}

typedef struct collect {
    int n;
    size_t count, cap;
    uint32_t (*num)[64];
    uint64_t *cls, *rev;
    uint32_t *size, *member, *nsat;
    int *sat, *revsat;
    int stop_after; /* 0 = never */
} collect;

static int on_sol(void *user, const kt_semimagic_solution *s)
{
    collect *c = user;
    if (c->count == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 64;
        c->num = realloc(c->num, nc * sizeof *c->num);
        c->cls = realloc(c->cls, nc * sizeof *c->cls);
        c->rev = realloc(c->rev, nc * sizeof *c->rev);
        c->size = realloc(c->size, nc * sizeof *c->size);
        c->member = realloc(c->member, nc * sizeof *c->member);
        c->nsat = realloc(c->nsat, nc * sizeof *c->nsat);
        c->sat = realloc(c->sat, nc * sizeof *c->sat);
        c->revsat = realloc(c->revsat, nc * sizeof *c->revsat);
        if (!c->num || !c->cls || !c->rev || !c->size || !c->member || !c->nsat || !c->sat ||
            !c->revsat)
            abort();
        c->cap = nc;
    }
    size_t i = c->count++;
    int n = (int)kt_semimagic_solution_size(s);
    c->n = n;
    memset(c->num[i], 0, sizeof c->num[i]);
    size_t cells = (size_t)kt_semimagic_solution_width(s) * kt_semimagic_solution_height(s);
    CHECK(n == 0 || cells == (size_t)(n * n));
    memcpy(c->num[i], kt_semimagic_solution_numbers(s), cells * sizeof(uint32_t));
    c->cls[i] = kt_semimagic_solution_class(s);
    c->rev[i] = kt_semimagic_solution_reverse_class(s);
    c->size[i] = kt_semimagic_solution_class_size(s);
    c->member[i] = kt_semimagic_solution_member(s);
    c->nsat[i] = kt_semimagic_solution_class_satisfying(s);
    c->sat[i] = kt_semimagic_solution_satisfies(s);
    c->revsat[i] = kt_semimagic_solution_reverse_satisfies(s);
    return c->stop_after && (int)c->count >= c->stop_after;
}

static void collect_free(collect *c)
{
    free(c->num);
    free(c->cls);
    free(c->rev);
    free(c->size);
    free(c->member);
    free(c->nsat);
    free(c->sat);
    free(c->revsat);
    memset(c, 0, sizeof *c);
}

/* Run settings with a thread count (0 = one per core). */
static kt_options *run_threads(unsigned threads)
{
    kt_options *r = NULL;
    CHECK(kt_options_new(&r, NULL) == KT_OK);
    CHECK(kt_options_set_threads(r, threads) == KT_OK);
    return r;
}

static kt_semimagic_opts *nested_opts(int rule)
{
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new(&o, 8, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_NESTED) == KT_OK);
    if (rule) CHECK(kt_semimagic_opts_set_puzzle_rule(o) == KT_OK);
    return o;
}

/* ---- tests ---- */

static void test_seed_solutions_check(void)
{
    kt_semimagic_opts *o = nested_opts(1);
    kt_semimagic_opts *m = NULL;
    CHECK(kt_semimagic_opts_new(&m, 8, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(m, KT_SEMIMAGIC_MAGIC) == KT_OK);
    uint32_t s[64], img[64];
    for (int i = 0; i < 8; i++) {
        seed_sol(i, s);
        CHECK(valid_tour(8, s, 1));
        int ok = -1;
        CHECK(kt_semimagic_check(o, s, 64, &ok) == KT_OK);
        CHECK(ok == 1);
        /* Not magic (the diagonals fail). */
        CHECK(kt_semimagic_check(m, s, 64, &ok) == KT_OK);
        CHECK(ok == 0);
        /* Transposed, the puzzle rule no longer holds. */
        image(8, 4, s, img);
        CHECK(kt_semimagic_check(o, img, 64, &ok) == KT_OK);
        CHECK(ok == 0);
        /* A swap of two numbers breaks the tour. */
        memcpy(img, s, sizeof img);
        uint32_t t = img[0];
        img[0] = img[9];
        img[9] = t;
        CHECK(kt_semimagic_check(o, img, 64, &ok) == KT_OK);
        CHECK(ok == 0);
    }
    /* Seed pairing: #1/#2, #3/#4, #5/#7, #6/#8 are horizontal mirror + reversal. */
    static const int pair[8] = {1, 0, 3, 2, 6, 7, 4, 5};
    for (int i = 0; i < 8; i++) {
        seed_sol(i, s);
        image(8, 1, s, img);
        for (int p = 0; p < 64; p++) img[p] = 65 - img[p];
        uint32_t q[64];
        seed_sol(pair[i], q);
        CHECK(memcmp(img, q, sizeof q) == 0);
    }
    kt_semimagic_opts_free(o);
    kt_semimagic_opts_free(m);
}

/* Keep the numbers k with k % mod == rem of seed solution i. */
static void partial(int i, int mod, int rem, uint32_t *grid)
{
    for (int p = 0; p < 64; p++) {
        uint32_t k = kt_test_nested8[i][p];
        grid[p] = (int)(k % (uint32_t)mod) == rem ? k : 0;
    }
}

/* Completions of a partial grid: exactly the images of seed solutions that
 * satisfy the rule and agree with the grid. */
static void test_completion(void)
{
    static const int mods[][2] = {{8, 1}, {6, 1}, {7, 3}};
    for (int v = 0; v < 3; v++)
        for (int i = 0; i < 8; i++) {
            uint32_t grid[64];
            partial(i, mods[v][0], mods[v][1], grid);
            kt_semimagic_opts *o = nested_opts(1);
            CHECK(kt_semimagic_opts_set_grid(o, grid, 64) == KT_OK);
            collect c;
            memset(&c, 0, sizeof c);
            uint64_t classes = 0, sols = 0;
            CHECK(kt_semimagic_search(o, NULL, on_sol, &c, &classes, &sols) == KT_OK);
            /* expected: images of the 8 classes satisfying rule + grid */
            size_t expect = 0;
            uint32_t s[64], img[64];
            for (int j = 0; j < 8; j++) {
                seed_sol(j, s);
                for (int t = 0; t < 8; t++) {
                    image(8, t, s, img);
                    int ok = 0;
                    CHECK(kt_semimagic_check(o, img, 64, &ok) == KT_OK);
                    expect += (size_t)ok;
                }
            }
            CHECK(sols == expect);
            CHECK(classes == c.count);
            int found_self = 0;
            for (size_t k = 0; k < c.count; k++) {
                CHECK(valid_tour(8, c.num[k], 1));
                CHECK(seed_class_of(c.num[k]) >= 0);
                for (int p = 0; p < 64; p++) CHECK(grid[p] == 0 || grid[p] == c.num[k][p]);
                seed_sol(i, s);
                if (memcmp(s, c.num[k], sizeof s) == 0) found_self = 1;
            }
            CHECK(found_self);
            collect_free(&c);
            kt_semimagic_opts_free(o);
        }
}

/* The nested search on a constrained instance: the first numbers of a seed
 * solution fixed; the search must return that solution's class. */
static void test_constrained_nested(void)
{
    for (int i = 0; i < 8; i++) {
        uint32_t grid[64];
        for (int p = 0; p < 64; p++) {
            uint32_t k = kt_test_nested8[i][p];
            grid[p] = (k <= 5 || k >= 60) ? k : 0;
        }
        kt_semimagic_opts *o = nested_opts(1);
        CHECK(kt_semimagic_opts_set_grid(o, grid, 64) == KT_OK);
        collect c;
        memset(&c, 0, sizeof c);
        uint64_t classes = 0, sols = 0;
        CHECK(kt_semimagic_search(o, NULL, on_sol, &c, &classes, &sols) == KT_OK);
        CHECK(classes >= 1);
        int found = 0;
        for (size_t k = 0; k < c.count; k++) {
            CHECK(valid_tour(8, c.num[k], 1));
            CHECK(seed_class_of(c.num[k]) >= 0);
            uint32_t s[64];
            seed_sol(i, s);
            if (memcmp(s, c.num[k], sizeof s) == 0) found = 1;
        }
        CHECK(found);
        collect_free(&c);
        kt_semimagic_opts_free(o);
    }
}

/* 5x5: 1728 numbered open tours (directed), 216 symmetry classes of 8. */
static void test_5x5_counts(void)
{
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new(&o, 5, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(o, 0) == KT_OK);
    uint64_t classes = 0, sols = 0;
    CHECK(kt_semimagic_opts_set_symmetry(o, KT_SEMIMAGIC_ALL) == KT_OK);
    CHECK(kt_semimagic_search(o, NULL, NULL, NULL, &classes, &sols) == KT_OK);
    CHECK(sols == 1728);
    CHECK(classes == 216);

    CHECK(kt_semimagic_opts_set_symmetry(o, KT_SEMIMAGIC_CLASSES) == KT_OK);
    collect c1, c2;
    memset(&c1, 0, sizeof c1);
    memset(&c2, 0, sizeof c2);
    kt_options *one = run_threads(1), *two = run_threads(2), *all_cores = run_threads(0);
    CHECK(kt_semimagic_search(o, one, on_sol, &c1, &classes, &sols) == KT_OK);
    CHECK(sols == 1728);
    CHECK(classes == 216);
    CHECK(c1.count == 216);
    for (size_t k = 0; k < c1.count; k++) {
        CHECK(c1.cls[k] == k);
        CHECK(c1.size[k] == 8);
        CHECK(c1.nsat[k] == 8);
        CHECK(valid_tour(5, c1.num[k], 0));
        /* the reversal relation is an involution */
        CHECK(c1.rev[k] < c1.count);
        if (c1.rev[k] < c1.count) CHECK(c1.rev[c1.rev[k]] == k);
        /* the partner really is the reversed class */
        if (c1.rev[k] < c1.count) {
            uint32_t r[64], img[64];
            for (int p = 0; p < 25; p++) r[p] = 26 - c1.num[k][p];
            int same = 0;
            for (int t = 0; t < 8; t++) {
                image(5, t, r, img);
                if (memcmp(img, c1.num[c1.rev[k]], 25 * sizeof(uint32_t)) == 0) same = 1;
            }
            CHECK(same);
        }
    }
    /* Same sequence with two threads, and with one per core (0). */
    kt_options *multi[2] = {two, all_cores};
    for (int m = 0; m < 2; m++) {
        CHECK(kt_semimagic_search(o, multi[m], on_sol, &c2, &classes, &sols) == KT_OK);
        CHECK(classes == 216);
        CHECK(sols == 1728);
        CHECK(c2.count == c1.count);
        if (c2.count == c1.count) {
            for (size_t k = 0; k < c1.count; k++) {
                CHECK(memcmp(c1.num[k], c2.num[k], sizeof c1.num[k]) == 0);
                CHECK(c1.cls[k] == c2.cls[k]);
                CHECK(c1.rev[k] == c2.rev[k]);
            }
        }
        collect_free(&c2);
    }
    /* Members mode: 8 per class, all satisfying, distinct images. */
    CHECK(kt_semimagic_opts_set_symmetry(o, KT_SEMIMAGIC_MEMBERS) == KT_OK);
    CHECK(kt_semimagic_search(o, two, on_sol, &c2, &classes, &sols) == KT_OK);
    CHECK(classes == 216);
    CHECK(c2.count == 1728);
    for (size_t k = 0; k + 8 <= c2.count; k += 8) {
        for (size_t j = 0; j < 8; j++) {
            CHECK(c2.member[k + j] == j);
            CHECK(c2.cls[k + j] == k / 8);
            CHECK(c2.sat[k + j] == 1);
            for (size_t i = 0; i < j; i++)
                CHECK(memcmp(c2.num[k + i], c2.num[k + j], sizeof c2.num[k]) != 0);
        }
    }
    collect_free(&c2);
    /* Stopping from the solution callback. */
    CHECK(kt_semimagic_opts_set_symmetry(o, KT_SEMIMAGIC_CLASSES) == KT_OK);
    for (int m = 0; m < 2; m++) {
        c2.stop_after = 5;
        CHECK(kt_semimagic_search(o, m ? two : one, on_sol, &c2, &classes, &sols) == KT_ECANCELED);
        CHECK(c2.count == 5);
        CHECK(classes == 5);
        collect_free(&c2);
    }
    kt_options_free(one);
    kt_options_free(two);
    kt_options_free(all_cores);
    collect_free(&c1);
    kt_semimagic_opts_free(o);
}

/* 6x6 closed tours: 9862 undirected, so 2 * 9862 numberings start at a
 * corner. */
static void test_6x6_closed(void)
{
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new(&o, 6, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_CLOSED) == KT_OK);
    kt_cell corner = 0;
    CHECK(kt_semimagic_opts_set_start_cells(o, &corner, 1) == KT_OK);
    CHECK(kt_semimagic_opts_set_symmetry(o, KT_SEMIMAGIC_ALL) == KT_OK);
    kt_options *two = run_threads(2);
    uint64_t classes = 0, sols = 0;
    CHECK(kt_semimagic_search(o, two, NULL, NULL, &classes, &sols) == KT_OK);
    CHECK(sols == 2 * 9862);
    kt_options_free(two);
    kt_semimagic_opts_free(o);
}

static int valid_rect(uint32_t w, uint32_t h, const uint32_t *num, int closed);

/* Numberings symmetric under the half-turn (KT_SEMIMAGIC_HALFTURN): the
 * search must find exactly the members of a plain search that have the
 * symmetry, checked here cell by cell. */
static int halfturn_symmetric(uint32_t w, uint32_t h, const uint32_t *num)
{
    uint32_t N = w * h;
    for (uint32_t p = 0; p < N; p++) {
        uint32_t k = num[p], k2 = num[N - 1 - p]; /* the opposite cell */
        if (k2 != (k > N / 2 ? k - N / 2 : k + N / 2)) return 0;
    }
    return 1;
}

typedef struct halfturn_count {
    uint32_t w, h;
    uint64_t all, symmetric, valid;
} halfturn_count;

static int on_halfturn(void *user, const kt_semimagic_solution *s)
{
    halfturn_count *t = user;
    const uint32_t *num = kt_semimagic_solution_numbers(s);
    t->all++;
    t->symmetric += halfturn_symmetric(t->w, t->h, num);
    t->valid += valid_rect(t->w, t->h, num, 1);
    return 0;
}

/* The plain search's symmetric members against the flagged search, every
 * numbering reported (ALL), on a board with flags (line constraints),
 * given numbers (grid) or 1 on a given cell (start >= 0). */
static void halfturn_agrees(uint32_t w, uint32_t h, unsigned flags, const uint32_t *grid, int start,
                            uint64_t expect)
{
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new_rect(&o, w, h, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(o, flags | KT_SEMIMAGIC_CLOSED) == KT_OK);
    CHECK(kt_semimagic_opts_set_symmetry(o, KT_SEMIMAGIC_ALL) == KT_OK);
    if (grid) CHECK(kt_semimagic_opts_set_grid(o, grid, (size_t)w * h) == KT_OK);
    kt_cell s = (kt_cell)start;
    if (start >= 0) CHECK(kt_semimagic_opts_set_start_cells(o, &s, 1) == KT_OK);
    kt_options *two = run_threads(2);
    halfturn_count plain = {w, h, 0, 0, 0}, flagged = {w, h, 0, 0, 0};
    uint64_t sols = 0;
    CHECK(kt_semimagic_search(o, two, on_halfturn, &plain, NULL, &sols) == KT_OK);
    CHECK(sols == plain.all && plain.valid == plain.all);
    CHECK(kt_semimagic_opts_set_flags(o, flags | KT_SEMIMAGIC_HALFTURN) == KT_OK);
    CHECK(kt_semimagic_opts_flags(o) & KT_SEMIMAGIC_CLOSED);
    CHECK(kt_semimagic_search(o, two, on_halfturn, &flagged, NULL, &sols) == KT_OK);
    CHECK(sols == flagged.all && flagged.valid == flagged.all && flagged.symmetric == flagged.all);
    CHECK_EQ_U64(flagged.all, plain.symmetric);
    if (expect) CHECK_EQ_U64(flagged.all, expect);
    kt_options_free(two);
    kt_semimagic_opts_free(o);
}

static void test_halfturn(void)
{
    /* Closed tours, no line constraints: every one of 6x5 (none is
     * symmetric; the half-turn swaps the colours there and N/2 = 15 is
     * odd) and those of 6x6 from a corner (it keeps them, N/2 = 18):
     * 156 numberings, the 78 centrally symmetric tours (Jelliss: 5 classes
     * with quaternary symmetry of 2 tours each, 17 binary of 4) both ways. */
    halfturn_agrees(6, 5, 0, NULL, -1, 0);
    halfturn_agrees(6, 6, 0, NULL, 0, 156);
    /* 8x8 semimagic: every symmetric numbering (34 classes, in 17 pairs of
     * reversals; 272 numberings, the count a separate half-path program
     * found too), each checked;
     * then one of them's first and last eight numbers given, where the plain
     * search's symmetric members must be the flagged search's. */
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new(&o, 8, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_LINES | KT_SEMIMAGIC_HALFTURN) == KT_OK);
    CHECK(kt_semimagic_opts_flags(o) == (KT_SEMIMAGIC_LINES | KT_SEMIMAGIC_CLOSED | KT_SEMIMAGIC_HALFTURN));
    kt_options *two = run_threads(2);
    collect c;
    memset(&c, 0, sizeof c);
    uint64_t classes = 0, sols = 0;
    CHECK(kt_semimagic_search(o, two, on_sol, &c, &classes, &sols) == KT_OK);
    CHECK_EQ_U64(classes, 34);
    CHECK_EQ_U64(sols, 272);
    for (size_t i = 0; i < c.count; i++) {
        int ok = 0;
        CHECK(valid_tour(8, c.num[i], 0) && halfturn_symmetric(8, 8, c.num[i]));
        CHECK(c.rev[i] != KT_SEMIMAGIC_NO_CLASS && c.rev[i] != c.cls[i] && c.rev[i] < classes);
        CHECK(kt_semimagic_check(o, c.num[i], 64, &ok) == KT_OK && ok);
    }
    uint32_t grid[64];
    for (int p = 0; p < 64; p++) grid[p] = c.num[0][p] <= 8 || c.num[0][p] > 56 ? c.num[0][p] : 0;
    halfturn_agrees(8, 8, KT_SEMIMAGIC_LINES, grid, -1, 0);
    /* A seed tour (not symmetric) fails the check with the flag. */
    uint32_t seed[64];
    seed_sol(0, seed);
    int ok = 1;
    CHECK(!halfturn_symmetric(8, 8, seed));
    CHECK(kt_semimagic_check(o, seed, 64, &ok) == KT_OK && !ok);
    collect_free(&c);
    kt_options_free(two);
    kt_semimagic_opts_free(o);
}

/* 5x5 with a start column: classes reported through satisfying members. */
static void test_asymmetric_constraints(void)
{
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new(&o, 5, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(o, 0) == KT_OK);
    CHECK(kt_semimagic_opts_set_puzzle_rule(o) == KT_OK);
    uint64_t classes = 0, sols = 0, all = 0, allc = 0;
    collect c;
    memset(&c, 0, sizeof c);
    CHECK(kt_semimagic_search(o, NULL, on_sol, &c, &classes, &sols) == KT_OK);
    CHECK(kt_semimagic_opts_set_symmetry(o, KT_SEMIMAGIC_ALL) == KT_OK);
    CHECK(kt_semimagic_search(o, NULL, NULL, NULL, &allc, &all) == KT_OK);
    CHECK(sols == all);
    CHECK(classes == allc);
    CHECK(all > 0);
    uint64_t sum = 0;
    for (size_t k = 0; k < c.count; k++) {
        sum += c.nsat[k];
        int ok = 0;
        CHECK(kt_semimagic_check(o, c.num[k], 25, &ok) == KT_OK);
        CHECK(ok == 1);
        CHECK(c.num[k][0] != 0);
    }
    CHECK(sum == all);
    collect_free(&c);
    kt_semimagic_opts_free(o);
}

/* Magic checks: proved impossible on constrained instances. */
static void test_magic(void)
{
    for (int i = 0; i < 8; i += 4) {
        uint32_t grid[64];
        for (int p = 0; p < 64; p++) {
            uint32_t k = kt_test_nested8[i][p];
            grid[p] = (k <= 4 || k >= 61) ? k : 0;
        }
        kt_semimagic_opts *o = NULL;
        CHECK(kt_semimagic_opts_new(&o, 8, NULL) == KT_OK);
        CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_MAGIC | KT_SEMIMAGIC_NESTED) == KT_OK);
        CHECK(kt_semimagic_opts_set_grid(o, grid, 64) == KT_OK);
        int exists = -1;
        CHECK(kt_semimagic_exists(o, NULL, &exists, NULL) == KT_OK);
        CHECK(exists == 0);
        /* The same grid without the diagonals has a witness. */
        CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_NESTED) == KT_OK);
        CHECK(kt_semimagic_opts_set_puzzle_rule(o) == KT_OK);
        uint32_t w[64];
        CHECK(kt_semimagic_exists(o, NULL, &exists, w) == KT_OK);
        CHECK(exists == 1);
        if (exists == 1) CHECK(valid_tour(8, w, 1));
        kt_semimagic_opts_free(o);
    }
    /* Fully magic (rows, columns, diagonals; not nested), 12 numbers of
     * seed solution 1 given. */
    for (int i = 0; i < 1; i++) {
        uint32_t grid[64];
        for (int p = 0; p < 64; p++) {
            uint32_t k = kt_test_nested8[i][p];
            grid[p] = (k <= 6 || k >= 59) ? k : 0;
        }
        kt_semimagic_opts *o = NULL;
        CHECK(kt_semimagic_opts_new(&o, 8, NULL) == KT_OK);
        CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_MAGIC) == KT_OK);
        CHECK(kt_semimagic_opts_set_grid(o, grid, 64) == KT_OK);
        int exists = -1;
        CHECK(kt_semimagic_exists(o, NULL, &exists, NULL) == KT_OK);
        CHECK(exists == 0);
        kt_semimagic_opts_free(o);
    }
}

static int cancel_progress(void *user, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    (*(int *)user)++;
    return 1;
}

/* Every getter accepts NULL and returns its "none" value. */
static void test_null_getters(void)
{
    CHECK(kt_semimagic_solution_numbers(NULL) == NULL);
    CHECK(kt_semimagic_solution_size(NULL) == 0);
    CHECK(kt_semimagic_solution_class(NULL) == KT_SEMIMAGIC_NO_CLASS);
    CHECK(kt_semimagic_solution_class_size(NULL) == 0);
    CHECK(kt_semimagic_solution_member(NULL) == 0);
    CHECK(kt_semimagic_solution_satisfies(NULL) == 0);
    CHECK(kt_semimagic_solution_class_satisfying(NULL) == 0);
    CHECK(kt_semimagic_solution_reverse_class(NULL) == KT_SEMIMAGIC_NO_CLASS);
    CHECK(kt_semimagic_solution_reverse_satisfies(NULL) == 0);
    CHECK(kt_semimagic_opts_size(NULL) == 0);
    CHECK(kt_semimagic_opts_flags(NULL) == 0);
}

typedef struct cancel_after {
    int calls, limit;
} cancel_after;

static int cancel_later(void *user, uint64_t done, uint64_t total)
{
    cancel_after *c = user;
    CHECK(done <= total);
    return ++c->calls >= c->limit;
}

/* Progress cancels, a budget stops with KT_ELIMIT, a large budget changes
 * nothing, with one thread and with several. */
static void test_cancel_and_budget(void)
{
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new(&o, 6, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_CLOSED) == KT_OK);
    kt_cell corner = 0;
    CHECK(kt_semimagic_opts_set_start_cells(o, &corner, 1) == KT_OK);
    CHECK(kt_semimagic_opts_set_symmetry(o, KT_SEMIMAGIC_ALL) == KT_OK);
    for (unsigned t = 1; t <= 2; t++) {
        kt_options *run = run_threads(t);
        /* Cancel at the second progress call: during the search or, at
         * the latest, at the final report; either way KT_ECANCELED. */
        cancel_after c = {0, 2};
        CHECK(kt_options_set_progress(run, cancel_later, &c) == KT_OK);
        uint64_t classes = 0, sols = 0;
        CHECK(kt_semimagic_search(o, run, NULL, NULL, &classes, &sols) == KT_ECANCELED);
        CHECK(c.calls == 2);
        CHECK(sols <= 2 * 9862);
        CHECK(kt_options_set_progress(run, NULL, NULL) == KT_OK);
        /* A budget of 1000 search nodes is far too small. */
        CHECK(kt_options_set_budget(run, 1000) == KT_OK);
        CHECK(kt_semimagic_search(o, run, NULL, NULL, &classes, &sols) == KT_ELIMIT);
        CHECK(sols < 2 * 9862);
        int exists = -1;
        kt_semimagic_opts *m = nested_opts(1);
        CHECK(kt_semimagic_opts_set_flags(m, KT_SEMIMAGIC_NESTED | KT_SEMIMAGIC_MAGIC) == KT_OK);
        CHECK(kt_semimagic_exists(m, run, &exists, NULL) == KT_ELIMIT);
        CHECK(exists == 0);
        kt_semimagic_opts_free(m);
        /* A budget the search does not reach. */
        CHECK(kt_options_set_budget(run, UINT64_C(1) << 40) == KT_OK);
        CHECK(kt_semimagic_search(o, run, NULL, NULL, &classes, &sols) == KT_OK);
        CHECK(sols == 2 * 9862);
        kt_options_free(run);
    }
    kt_semimagic_opts_free(o);
}

static void add_size(void *user, uint64_t step, uint64_t size)
{
    (void)step;
    *(uint64_t *)user += size;
}

/* A budget is exact: a search returns KT_OK exactly when it spends at
 * most its budget, on one thread and on two (the threads look at the
 * budget every few thousand nodes; a search that finishes past it says
 * so).  The search: seed tour 1's first and last 6 numbers given, rows
 * and columns, completed (one numbering). */
static void test_budget_exact(void)
{
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new(&o, 8, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_LINES) == KT_OK);
    uint32_t grid[64];
    for (int p = 0; p < 64; p++) {
        uint32_t v = (uint32_t)kt_test_nested8[0][p];
        grid[p] = v <= 6 || v > 58 ? v : 0;
    }
    CHECK(kt_semimagic_opts_set_grid(o, grid, 64) == KT_OK);
    kt_options *one = run_threads(1), *two = run_threads(2);
    uint64_t sols = 0;
    uint64_t unit_nodes = 0;
    CHECK(kt_options_set_trace(one, add_size, &unit_nodes) == KT_OK);
    CHECK(kt_semimagic_search(o, one, NULL, NULL, NULL, &sols) == KT_OK);
    CHECK(sols == 1);
    CHECK(kt_options_set_trace(one, NULL, NULL) == KT_OK);
    /* The least budget that lets the search finish, by bisection. */
    uint64_t lo = 1, hi = UINT64_C(1) << 32;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        CHECK(kt_options_set_budget(one, mid) == KT_OK);
        kt_status st = kt_semimagic_search(o, one, NULL, NULL, NULL, NULL);
        CHECK(st == KT_OK || st == KT_ELIMIT);
        if (st == KT_OK) hi = mid;
        else lo = mid + 1;
    }
    /* It covers the work units' nodes (the plan's few count too). */
    CHECK(lo >= unit_nodes && unit_nodes > 1000);
    for (int t = 0; t < 2; t++) {
        kt_options *r = t ? two : one;
        CHECK(kt_options_set_budget(r, lo) == KT_OK);
        sols = 0;
        CHECK(kt_semimagic_search(o, r, NULL, NULL, NULL, &sols) == KT_OK);
        CHECK(sols == 1);
        CHECK(kt_options_set_budget(r, lo - 1) == KT_OK);
        CHECK(kt_semimagic_search(o, r, NULL, NULL, NULL, NULL) == KT_ELIMIT);
    }
    kt_options_free(one);
    kt_options_free(two);
    kt_semimagic_opts_free(o);
}

/* Independent check of a numbered tour of a w x h board (closed: N and 1
 * a move apart too). */
static int valid_rect(uint32_t w, uint32_t h, const uint32_t *num, int closed)
{
    uint32_t N = w * h;
    int32_t pos[257];
    for (uint32_t k = 0; k <= N; k++) pos[k] = -1;
    for (uint32_t p = 0; p < N; p++) {
        if (num[p] < 1 || num[p] > N || pos[num[p]] >= 0) return 0;
        pos[num[p]] = (int32_t)p;
    }
    for (uint32_t k = 1; k <= N; k++) {
        if (k == N && !closed) break;
        int32_t a = pos[k], b = pos[k < N ? k + 1 : 1];
        int dx = abs(a % (int)w - b % (int)w), dy = abs(a / (int)w - b / (int)w);
        if (!((dx == 1 && dy == 2) || (dx == 2 && dy == 1))) return 0;
    }
    return 1;
}

typedef struct big_sols {
    uint32_t w, h;
    const uint32_t *tour; /* the numbering the grid came from */
    uint64_t count, valid, same;
} big_sols;

static int on_big(void *user, const kt_semimagic_solution *s)
{
    big_sols *b = user;
    const uint32_t *num = kt_semimagic_solution_numbers(s);
    CHECK(kt_semimagic_solution_width(s) == b->w && kt_semimagic_solution_height(s) == b->h);
    b->count++;
    b->valid += valid_rect(b->w, b->h, num, 1);
    b->same += memcmp(num, b->tour, (size_t)b->w * b->h * sizeof(uint32_t)) == 0;
    return 0;
}

static int cancel_at_once(void *user, uint64_t done, uint64_t total)
{
    (void)user;
    (void)done;
    (void)total;
    return 1;
}

/* One board past 8 x 8: a closed tour from the library's generator,
 * numbered from cell 0, is a numbering the check accepts (plain and
 * closed) and rejects with two numbers swapped; with every third number
 * hidden, the completion search (every numbering, closed) finds it among
 * its completions, each a valid closed tour. */
static void big_board(uint32_t w, uint32_t h, uint64_t seed)
{
    uint32_t N = w * h, num[256], grid[256];
    kt_cell order[256];
    size_t len = 0;
    kt_graph *g = NULL;
    kt_tourney *t = NULL;
    CHECK(kt_graph_new(&g, w, h) == KT_OK);
    CHECK(kt_generate_closed_tour(&t, g, seed, NULL) == KT_OK);
    CHECK(kt_tourney_order(t, 0, 0, order, 256, &len) == KT_OK && len == N);
    for (uint32_t i = 0; i < N; i++) num[order[i]] = i + 1;
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new_rect(&o, w, h, NULL) == KT_OK);
    int ok = 0;
    CHECK(kt_semimagic_opts_set_flags(o, 0) == KT_OK);
    CHECK(kt_semimagic_check(o, num, N, &ok) == KT_OK && ok == 1);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_CLOSED) == KT_OK);
    CHECK(kt_semimagic_check(o, num, N, &ok) == KT_OK && ok == 1);
    uint32_t a = num[0];
    num[0] = num[N - 1];
    num[N - 1] = a;
    CHECK(kt_semimagic_check(o, num, N, &ok) == KT_OK && ok == 0);
    num[N - 1] = num[0];
    num[0] = a;
    for (uint32_t p = 0; p < N; p++) grid[p] = num[p] % 3 == 2 ? 0 : num[p];
    CHECK(kt_semimagic_opts_set_grid(o, grid, N) == KT_OK);
    CHECK(kt_semimagic_opts_set_symmetry(o, KT_SEMIMAGIC_ALL) == KT_OK);
    big_sols b = {w, h, num, 0, 0, 0};
    uint64_t sols = 0;
    CHECK(kt_semimagic_search(o, NULL, on_big, &b, NULL, &sols) == KT_OK);
    CHECK(b.count >= 1 && b.count == sols && b.valid == b.count && b.same == 1);
    kt_semimagic_opts_free(o);
    kt_tourney_free(t);
    kt_graph_free(g);
}

/* Boards past 64 cells and sides past 8 (the four-word kernel): numbered
 * tours of 12x12, 16x16 (numbers up to 256) and 10x13; a magic 12x12
 * search stops on its budget or when the progress callback cancels. */
static void test_big_boards(void)
{
    big_board(12, 12, 1);
    big_board(16, 16, 2);
    big_board(10, 13, 3);
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new(&o, 12, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_MAGIC) == KT_OK);
    kt_options *run = run_threads(2);
    CHECK(kt_options_set_budget(run, 100000) == KT_OK);
    int exists = -1;
    CHECK(kt_semimagic_exists(o, run, &exists, NULL) == KT_ELIMIT && exists == 0);
    CHECK(kt_options_set_budget(run, 0) == KT_OK);
    CHECK(kt_options_set_progress(run, cancel_at_once, NULL) == KT_OK);
    CHECK(kt_semimagic_exists(o, run, &exists, NULL) == KT_ECANCELED && exists == 0);
    kt_options_free(run);
    kt_semimagic_opts_free(o);
}

/* Rectangles: the semimagic tours of the 4 x n board whose columns (the
 * short lines, 4 cells summing to 2(4n+1)) add up, counted up to the 4
 * symmetries of the rectangle: OEIS A309273 (Awani Kumar), 0, 0, 0, 0,
 * 0, 0, 9, 16, 38, 104, 267, 608 for n = 1..12; the same with the board
 * on its side (rows), up to n = 10 to keep the test short.  From n = 9
 * on, the two orientations run two different kernels (one word of 4 rows
 * of 16, and four words), which agree.
 * Every reported numbering is a tour with those sums; without line
 * constraints the numberings are the directed open tours, twice the
 * Hamiltonian paths of the 4 x n knight graph (OEIS A079137: 8, 0, 82,
 * 744 for n = 3..6). */
static void test_rectangles(void)
{
    static const uint64_t a309273[13] = {0, 0, 0, 0, 0, 0, 0, 9, 16, 38, 104, 267, 608};
    static const uint64_t a079137[7] = {0, 0, 0, 8, 0, 82, 744};
    for (uint32_t n = 1; n <= 12; n++)
        for (int side = 0; side < (n <= 10 ? 2 : 1); side++) {
            kt_semimagic_opts *o = NULL;
            uint32_t w = side ? 4 : n, h = side ? n : 4;
            CHECK(kt_semimagic_opts_new_rect(&o, w, h, NULL) == KT_OK);
            CHECK(kt_semimagic_opts_width(o) == w && kt_semimagic_opts_height(o) == h);
            CHECK(kt_semimagic_opts_size(o) == (w == h ? w : 0));
            CHECK(kt_semimagic_opts_set_flags(o, side ? KT_SEMIMAGIC_ROWS : KT_SEMIMAGIC_COLUMNS) == KT_OK);
            collect c;
            memset(&c, 0, sizeof c);
            uint64_t classes = 0, sols = 0;
            CHECK(kt_semimagic_search(o, NULL, on_sol, &c, &classes, &sols) == KT_OK);
            CHECK_EQ_U64(classes, a309273[n]);
            CHECK_EQ_U64(sols, 4 * a309273[n]);
            for (size_t i = 0; i < c.count; i++) {
                int ok = 0;
                CHECK(kt_semimagic_check(o, c.num[i], (size_t)w * h, &ok) == KT_OK && ok);
                for (uint32_t line = 0; line < n; line++) {
                    uint32_t sum = 0;
                    for (uint32_t k = 0; k < 4; k++) sum += c.num[i][side ? line * 4 + k : k * n + line];
                    CHECK(sum == 2 * (4 * n + 1));
                }
            }
            collect_free(&c);
            if (n <= 6) {
                CHECK(kt_semimagic_opts_set_flags(o, 0) == KT_OK);
                CHECK(kt_semimagic_opts_set_symmetry(o, KT_SEMIMAGIC_ALL) == KT_OK);
                CHECK(kt_semimagic_search(o, NULL, NULL, NULL, NULL, &sols) == KT_OK);
                CHECK_EQ_U64(sols, 2 * a079137[n]);
            }
            kt_semimagic_opts_free(o);
        }
    /* Lines whose sum is not an integer, and constraints for squares only. */
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new_rect(&o, 7, 4, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_flags(o) == KT_SEMIMAGIC_COLUMNS);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_ROWS) == KT_EUNSUPPORTED);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_LINES) == KT_EUNSUPPORTED);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_MAGIC) == KT_EUNSUPPORTED);
    CHECK(kt_semimagic_opts_flags(o) == KT_SEMIMAGIC_COLUMNS);
    kt_semimagic_opts_free(o);
    CHECK(kt_semimagic_opts_new_rect(&o, 8, 4, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_flags(o) == KT_SEMIMAGIC_LINES);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_ROWS | KT_SEMIMAGIC_COLUMNS) == KT_OK);
    CHECK(kt_semimagic_opts_flags(o) == KT_SEMIMAGIC_LINES);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_NESTED) == KT_EUNSUPPORTED);
    kt_semimagic_opts_free(o);
    /* Boards too small for a tour: nothing, not even an empty class. */
    for (uint32_t w = 1; w <= 3; w++)
        for (uint32_t h = 1; h <= 3; h++) {
            CHECK(kt_semimagic_opts_new_rect(&o, w, h, NULL) == KT_OK);
            CHECK(kt_semimagic_opts_set_flags(o, 0) == KT_OK);
            uint64_t classes = 1, sols = 1;
            CHECK(kt_semimagic_search(o, NULL, NULL, NULL, &classes, &sols) == KT_OK);
            CHECK(classes == 0 && sols == 0);
            kt_semimagic_opts_free(o);
        }
    CHECK(kt_semimagic_opts_new_rect(&o, 17, 4, NULL) == KT_EUNSUPPORTED && o == NULL);
    CHECK(kt_semimagic_opts_new_rect(&o, 4, 17, NULL) == KT_EUNSUPPORTED && o == NULL);
    CHECK(kt_semimagic_opts_new_rect(&o, 4, 0, NULL) == KT_EUNSUPPORTED);
    CHECK(kt_semimagic_opts_new_rect(NULL, 4, 4, NULL) == KT_EINVAL);
    CHECK(kt_semimagic_opts_width(NULL) == 0 && kt_semimagic_opts_height(NULL) == 0);
    CHECK(kt_semimagic_solution_width(NULL) == 0 && kt_semimagic_solution_height(NULL) == 0);
}

/* Checkpoints: a search stopped after 50 classes resumes from its file
 * and ends with the counts of an uninterrupted one (216 classes, 1728
 * numberings of 5x5), reporting only what the first run had not saved;
 * a finished file gives the counts at once; another search's file is
 * refused. */
static void test_checkpoint(void)
{
    char path[64];
    snprintf(path, sizeof path, "test_semimagic_ck_%ld.txt", (long)time(NULL));
    remove(path);
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new(&o, 5, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(o, 0) == KT_OK);
    for (unsigned t = 1; t <= 2; t++) {
        kt_options *run = run_threads(t);
        CHECK(kt_options_set_checkpoint(run, path, 0) == KT_OK);
        collect c;
        memset(&c, 0, sizeof c);
        c.stop_after = 50;
        uint64_t classes = 0, sols = 0;
        CHECK(kt_semimagic_search(o, run, on_sol, &c, &classes, &sols) == KT_ECANCELED);
        CHECK(c.count == 50);
        collect_free(&c);
        CHECK(kt_semimagic_search(o, run, on_sol, &c, &classes, &sols) == KT_OK);
        CHECK_EQ_U64(classes, 216);
        CHECK_EQ_U64(sols, 1728);
        /* the classes of the first run's unfinished unit come again */
        CHECK(c.count >= 216 - 50 && c.count < 216);
        CHECK(c.count == 0 || c.cls[c.count - 1] == 215);
        collect_free(&c);
        CHECK(kt_semimagic_search(o, run, on_sol, &c, &classes, &sols) == KT_OK);
        CHECK(c.count == 0 && classes == 216 && sols == 1728);
        collect_free(&c);
        /* another search (a closed-tour flag) with the same file */
        CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_CLOSED) == KT_OK);
        CHECK(kt_semimagic_search(o, run, NULL, NULL, &classes, &sols) == KT_EMISMATCH);
        CHECK(kt_semimagic_opts_set_flags(o, 0) == KT_OK);
        CHECK(remove(path) == 0);
        kt_options_free(run);
    }
    kt_semimagic_opts_free(o);
}

typedef struct progress_log {
    uint64_t first_total, last_done, calls, nodes, units;
    int consistent;
} progress_log;

static int log_progress(void *user, uint64_t done, uint64_t total)
{
    progress_log *p = user;
    /* total 0: the estimate is not made yet */
    if (total == 0 && (done != 0 || p->first_total != 0)) p->consistent = 0;
    if (total == 0) return 0;
    if (p->calls++ == 0) p->first_total = total;
    if (total != p->first_total || done > total || done < p->last_done) p->consistent = 0;
    p->last_done = done;
    return 0;
}

static void log_trace(void *user, uint64_t step, uint64_t size)
{
    progress_log *p = user;
    if (step != p->units) p->consistent = 0;
    p->units++;
    p->nodes += size;
}

/* Progress counts estimated search nodes: a fixed total from the first
 * call on, done rising to it; the estimate (Knuth's, from random paths)
 * is close to the nodes the search really spends (the trace: per unit). */
static void test_progress_estimate(void)
{
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new(&o, 6, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_CLOSED) == KT_OK);
    kt_cell corner = 0;
    CHECK(kt_semimagic_opts_set_start_cells(o, &corner, 1) == KT_OK);
    uint64_t nodes[2] = {0, 0};
    for (unsigned t = 1; t <= 2; t++) {
        kt_options *run = run_threads(t);
        progress_log p = {0, 0, 0, 0, 0, 1};
        CHECK(kt_options_set_progress(run, log_progress, &p) == KT_OK);
        CHECK(kt_options_set_trace(run, log_trace, &p) == KT_OK);
        uint64_t sols = 0;
        CHECK(kt_semimagic_search(o, run, NULL, NULL, NULL, &sols) == KT_OK);
        CHECK(p.consistent);
        CHECK(p.calls >= 1 && p.first_total > 0);
        CHECK(p.nodes > 0 && p.units > 1);
        CHECK(p.first_total > p.nodes / 4 && p.first_total < p.nodes * 4);
        nodes[t - 1] = p.nodes;
        kt_options_free(run);
    }
    /* The nodes of a complete search do not depend on the thread count. */
    CHECK(nodes[0] == nodes[1]);
    kt_semimagic_opts_free(o);
}

/* Shards: the counts of shard i of N add up to the whole search, in
 * every reporting mode. */
static void test_shards(void)
{
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new(&o, 5, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(o, 0) == KT_OK);
    static const kt_semimagic_symmetry modes[3] = {KT_SEMIMAGIC_CLASSES, KT_SEMIMAGIC_MEMBERS,
                                                   KT_SEMIMAGIC_ALL};
    kt_options *run = run_threads(2);
    for (int m = 0; m < 3; m++) {
        CHECK(kt_semimagic_opts_set_symmetry(o, modes[m]) == KT_OK);
        for (uint32_t nshards = 2; nshards <= 7; nshards += 5) {
            uint64_t sum_classes = 0, sum_sols = 0;
            for (uint32_t i = 0; i < nshards; i++) {
                uint64_t classes = 0, sols = 0;
                CHECK(kt_options_set_shard(run, i, nshards) == KT_OK);
                CHECK(kt_semimagic_search(o, run, NULL, NULL, &classes, &sols) == KT_OK);
                sum_classes += classes;
                sum_sols += sols;
            }
            CHECK(sum_classes == 216);
            CHECK(sum_sols == 1728);
        }
    }
    kt_options_free(run);
    kt_semimagic_opts_free(o);
}

static void test_errors(void)
{
    kt_semimagic_opts *o = NULL;
    CHECK(kt_semimagic_opts_new(NULL, 8, NULL) == KT_EINVAL);
    CHECK(kt_semimagic_opts_new(&o, 2, NULL) == KT_EUNSUPPORTED);
    CHECK(o == NULL);
    CHECK(kt_semimagic_opts_new(&o, 17, NULL) == KT_EUNSUPPORTED);
    CHECK(o == NULL);
    CHECK(kt_semimagic_opts_new(&o, 16, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_size(o) == 16);
    kt_semimagic_opts_free(o);
    CHECK(kt_semimagic_opts_new(&o, 6, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_size(o) == 6);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_NESTED) == KT_EUNSUPPORTED);
    CHECK(kt_semimagic_opts_flags(o) == KT_SEMIMAGIC_LINES);
    CHECK(kt_semimagic_opts_set_flags(o, 128) == KT_EINVAL);
    CHECK(kt_semimagic_opts_set_flags(o, KT_SEMIMAGIC_MAGIC) == KT_OK);
    CHECK(kt_semimagic_opts_flags(o) == (KT_SEMIMAGIC_MAGIC | KT_SEMIMAGIC_LINES));
    uint32_t g[36] = {0};
    g[0] = 5;
    g[1] = 5;
    CHECK(kt_semimagic_opts_set_grid(o, g, 36) == KT_EINVAL);
    g[1] = 37;
    CHECK(kt_semimagic_opts_set_grid(o, g, 36) == KT_EINVAL);
    CHECK(kt_semimagic_opts_set_grid(o, g, 35) == KT_EINVAL);
    CHECK(kt_semimagic_opts_set_grid(o, NULL, 0) == KT_OK);
    kt_cell bad = 36;
    CHECK(kt_semimagic_opts_set_start_cells(o, &bad, 1) == KT_EINVAL);
    CHECK(kt_semimagic_opts_set_end_cells(o, NULL, 1) == KT_EINVAL);
    CHECK(kt_semimagic_opts_set_start_column(o, 6) == KT_EINVAL);
    CHECK(kt_semimagic_opts_set_end_column(o, KT_SEMIMAGIC_ANY) == KT_OK);
    CHECK(kt_semimagic_opts_set_symmetry(o, (kt_semimagic_symmetry)7) == KT_EINVAL);
    CHECK(kt_semimagic_search(NULL, NULL, NULL, NULL, NULL, NULL) == KT_EINVAL);
    int ok = 0;
    CHECK(kt_semimagic_check(o, g, 35, &ok) == KT_EINVAL);
    CHECK(kt_semimagic_exists(o, NULL, NULL, NULL) == KT_EINVAL);
    CHECK(kt_semimagic_exists(NULL, NULL, &ok, NULL) == KT_EINVAL);
    kt_semimagic_opts_free(o);
    /* A progress callback that cancels at once. */
    CHECK(kt_semimagic_opts_new(&o, 5, NULL) == KT_OK);
    CHECK(kt_semimagic_opts_set_flags(o, 0) == KT_OK);
    int calls = 0;
    kt_options *run = NULL;
    CHECK(kt_options_new(&run, NULL) == KT_OK);
    CHECK(kt_options_set_progress(run, cancel_progress, &calls) == KT_OK);
    uint64_t classes = 99;
    CHECK(kt_semimagic_search(o, run, NULL, NULL, &classes, NULL) == KT_ECANCELED);
    CHECK(calls >= 1);
    kt_options_free(run);
    kt_semimagic_opts_free(o);
    kt_semimagic_opts_free(NULL);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define RUN(f)                                               \
    do {                                                     \
        double t0_ = now();                                  \
        f();                                                 \
        printf("%-28s %.2f s\n", #f, now() - t0_);           \
    } while (0)

int main(void)
{
    RUN(test_errors);
    RUN(test_null_getters);
    RUN(test_seed_solutions_check);
    RUN(test_completion);
    RUN(test_constrained_nested);
    RUN(test_5x5_counts);
    RUN(test_asymmetric_constraints);
    RUN(test_6x6_closed);
    RUN(test_halfturn);
    RUN(test_magic);
    RUN(test_cancel_and_budget);
    RUN(test_budget_exact);
    RUN(test_shards);
    RUN(test_progress_estimate);
    RUN(test_rectangles);
    RUN(test_big_boards);
    RUN(test_checkpoint);
    return check_done("semimagic");
}
