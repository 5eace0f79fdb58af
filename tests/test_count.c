/* SPDX-License-Identifier: MIT */
/* Tests of the exact tour counts: published numbers, and every small board
 * against an independent brute-force enumeration (including the numbers of
 * tours fixed by each symmetry, hence the Burnside classes). */
#include <knight/knight.h>

#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static uint64_t count(uint32_t w, uint32_t h, unsigned flags, unsigned threads)
{
    kt_graph *g = NULL;
    if (kt_graph_new(&g, w, h) != KT_OK) return UINT64_MAX;
    kt_options *run = NULL;
    kt_status st = kt_options_new(&run, NULL);
    if (st == KT_OK) st = kt_options_set_threads(run, threads);
    kt_u128 v = {7, 7};
    if (st == KT_OK) st = kt_count_tours(g, flags, run, &v, NULL);
    kt_options_free(run);
    kt_graph_free(g);
    uint64_t r = UINT64_MAX;
    if (st != KT_OK || kt_u128_to_u64(&v, &r) != KT_OK) {
        fprintf(stderr, "count %ux%u flags %u: %s\n", w, h, flags, kt_strerror(st));
        return UINT64_MAX;
    }
    return r;
}

/* ---- brute force: every Hamiltonian cycle / path by depth-first search ---- */

typedef struct bf {
    uint32_t w, h, n;
    int adj[64][8], deg[64];
    int path[64], pos[64];
    uint64_t closed, open;
    uint64_t fixed[5];   /* closed tours fixed by id, r180, mirror x, mirror y, r90 */
    uint64_t ends[64][64]; /* directed open tours by (first, last) cell */
} bf;

static int sym_cell(const bf *b, int s, int c)
{
    int x = c % (int)b->w, y = c / (int)b->w, W = (int)b->w, H = (int)b->h;
    switch (s) {
    case 1: return (H - 1 - y) * W + (W - 1 - x);
    case 2: return y * W + (W - 1 - x);
    case 3: return (H - 1 - y) * W + x;
    case 4: return W == H ? x * W + (W - 1 - y) : -1;   /* (x,y) -> (W-1-y, x) */
    default: return c;
    }
}

static int is_adj(const bf *b, int a, int c)
{
    for (int k = 0; k < b->deg[a]; k++)
        if (b->adj[a][k] == c) return 1;
    return 0;
}

static void record_cycle(bf *b)
{
    int succ[64], pred[64];
    for (uint32_t i = 0; i < b->n; i++) {
        succ[b->path[i]] = b->path[(i + 1) % b->n];
        pred[b->path[(i + 1) % b->n]] = b->path[i];
    }
    b->closed++;
    for (int s = 0; s < 5; s++) {
        int ok = 1;
        for (uint32_t c = 0; c < b->n && ok; c++) {
            int sc = sym_cell(b, s, (int)c);
            if (sc < 0) { ok = 0; break; }
            int sn = sym_cell(b, s, succ[c]);
            ok = succ[sc] == sn || pred[sc] == sn;
        }
        b->fixed[s] += (uint64_t)ok;
    }
}

static void dfs(bf *b, int c, uint32_t depth, int start, int want_open)
{
    b->path[depth - 1] = c;
    if (depth == b->n) {
        if (want_open) {
            b->open++;
            b->ends[start][c]++;
        } else if (is_adj(b, c, start)) record_cycle(b);
        return;
    }
    for (int k = 0; k < b->deg[c]; k++) {
        int d = b->adj[c][k];
        if (b->pos[d] >= 0) continue;
        b->pos[d] = (int)depth;
        dfs(b, d, depth + 1, start, want_open);
        b->pos[d] = -1;
    }
}

static void brute(bf *b, uint32_t w, uint32_t h, int want_open)
{
    memset(b, 0, sizeof *b);
    b->w = w;
    b->h = h;
    b->n = w * h;
    kt_graph *g = NULL;
    if (kt_graph_new(&g, w, h) != KT_OK) return;
    for (uint32_t c = 0; c < b->n; c++)
        for (int m = 0; m < 8; m++) {
            kt_cell d = kt_graph_neighbor(g, c, m);
            if (d != KT_CELL_NONE) b->adj[c][b->deg[c]++] = (int)d;
        }
    kt_graph_free(g);
    for (uint32_t c = 0; c < b->n; c++) b->pos[c] = -1;
    if (want_open) {
        for (uint32_t s = 0; s < b->n; s++) {
            b->pos[s] = 0;
            dfs(b, (int)s, 1, (int)s, 1);
            b->pos[s] = -1;
        }
        b->open /= 2; /* each path from both ends */
    } else {
        b->pos[0] = 0;
        dfs(b, 0, 1, 0, 0);
        b->closed /= 2;
        for (int s = 0; s < 5; s++) b->fixed[s] /= 2;
    }
}

static void check_closed_board(uint32_t w, uint32_t h)
{
    bf b;
    brute(&b, w, h, 0);
    uint64_t n = count(w, h, 0, 1);
    CHECK(n == b.closed);
    CHECK(count(h, w, 0, 2) == b.closed);           /* orientation, threads */
    CHECK(count(w, h, KT_COUNT_DIRECTED, 1) == 2 * b.closed);
    CHECK(count(w, h, KT_COUNT_SYMMETRIC, 1) == b.fixed[1]);
    uint64_t sum = b.fixed[0] + b.fixed[1] + b.fixed[2] + b.fixed[3], ord = 4;
    if (w == h) {
        sum += 2 * b.fixed[4];
        ord = 8;
    }
    CHECK(sum % ord == 0);
    CHECK(count(w, h, KT_COUNT_CLASSES, 1) == sum / ord);
    uint64_t ssum = 2 * b.fixed[1] + (w == h ? 2 * b.fixed[4] : 0);
    CHECK(count(w, h, KT_COUNT_CLASSES | KT_COUNT_SYMMETRIC, 1) == ssum / ord);
    printf("%ux%u closed %llu (r180 %llu, mirrors %llu %llu, r90 %llu)\n", w, h,
           (unsigned long long)b.closed, (unsigned long long)b.fixed[1], (unsigned long long)b.fixed[2],
           (unsigned long long)b.fixed[3], (unsigned long long)b.fixed[4]);
}

/* kt_count_open_tours with the given ends (KT_CELL_NONE: free), or UINT64_MAX. */
static uint64_t count_ends(const kt_graph *g, kt_cell a, kt_cell z, unsigned flags, unsigned threads)
{
    kt_options *run = NULL;
    kt_status st = kt_options_new(&run, NULL);
    if (st == KT_OK) st = kt_options_set_threads(run, threads);
    kt_u128 v = {7, 7};
    uint64_t r = UINT64_MAX;
    if (st == KT_OK) st = kt_count_open_tours(g, a, z, flags, run, &v, NULL);
    kt_options_free(run);
    if (st != KT_OK || kt_u128_to_u64(&v, &r) != KT_OK) return UINT64_MAX;
    return r;
}

/* Open tours by their ends against the brute force: every start, every
 * end, pairs (directed flag or not: with an end given they agree);
 * and whether a pair has a tour against the exhaustive search of the
 * library (lib/exhaustive.c), which proves the zeros. */
static void check_open_ends(const bf *b)
{
    kt_graph *g = NULL;
    CHECK(kt_graph_new(&g, b->w, b->h) == KT_OK);
    if (g == NULL) return;
    uint64_t all = 0;
    for (uint32_t s = 0; s < b->n; s++) {
        uint64_t from = 0, to = 0;
        for (uint32_t e = 0; e < b->n; e++) {
            from += b->ends[s][e];
            to += b->ends[e][s];
        }
        all += from;
        CHECK(count_ends(g, s, KT_CELL_NONE, 0, 1) == from);
        CHECK(count_ends(g, KT_CELL_NONE, s, KT_COUNT_OPEN | KT_COUNT_DIRECTED, 2) == to);
        /* every pair on the small boards; from the first row on the others */
        for (uint32_t e = 0; e < b->n && (b->n <= 20 || s < b->w); e++) {
            if (e == s) continue;
            unsigned fl = (s + e) % 2 ? KT_COUNT_DIRECTED : 0;
            uint64_t n = count_ends(g, s, e, fl, 1 + e % 2);
            CHECK(n == b->ends[s][e]);
            if (b->n > 20 || e < s) continue;
            kt_tourney *t = NULL;
            kt_status st = kt_exhaustive_tour(&t, g, KT_SHAPE_PATH, s, e, NULL);
            CHECK(st == (n ? KT_OK : KT_ENOTOUR));
            kt_tourney_free(t);
        }
    }
    CHECK(all == 2 * b->open);
    CHECK(count_ends(g, KT_CELL_NONE, KT_CELL_NONE, KT_COUNT_DIRECTED, 1) == 2 * b->open);
    kt_graph_free(g);
}

/* A board the existence theorems rule out (count.c answers it without a
 * frontier count) against frontier counts with given ends, which the
 * theorems do not shortcut: no open tour from any start; for closed tours,
 * no path between the two ends of any move (a closed tour less one of its
 * moves would be one). */
static void check_none(uint32_t w, uint32_t h, int open)
{
    kt_graph *g = NULL;
    CHECK(kt_graph_new(&g, w, h) == KT_OK);
    CHECK(count(w, h, open ? KT_COUNT_OPEN : 0, 1) == 0);
    for (kt_cell a = 0; a < w * h; a++) {
        if (open) {
            CHECK(count_ends(g, a, KT_CELL_NONE, 0, 1) == 0);
            continue;
        }
        for (int m = 0; m < 8; m++) {
            kt_cell z = kt_graph_neighbor(g, a, m);
            if (z != KT_CELL_NONE && z > a) CHECK(count_ends(g, a, z, 0, 1) == 0);
        }
    }
    kt_graph_free(g);
}

static void check_open_board(uint32_t w, uint32_t h)
{
    bf b;
    brute(&b, w, h, 1);
    CHECK(count(w, h, KT_COUNT_OPEN, 1) == b.open);
    CHECK(count(h, w, KT_COUNT_OPEN, 2) == b.open);
    CHECK(count(w, h, KT_COUNT_OPEN | KT_COUNT_DIRECTED, 1) == 2 * b.open);
    check_open_ends(&b);
    printf("%ux%u open %llu\n", w, h, (unsigned long long)b.open);
}

/* The first `rows` rows of an 8 x 8 board: its processing order runs along
 * the rows of 8, so its frontier reaches 17 cells, where open counts use
 * the packed keys of the frontier (lib/count/frontier.c). */
static kt_graph *top_rows(uint32_t rows)
{
    uint8_t mask[64];
    for (unsigned i = 0; i < 64; i++) mask[i] = i / 8 < rows;
    kt_graph *g = NULL;
    CHECK(kt_graph_new_custom(&g, 8, 8, 2, 1, mask, NULL) == KT_OK);
    return g;
}

/* Open counts on 17-cell frontiers against the same boards counted 8 x k
 * (a frontier of k + 1 or so, or the small search): free ends, one end,
 * both ends (open mode with only those two ends allowed, since the closed
 * detour through an apex would need 18 cells), shards and a checkpoint
 * resumed with packed keys.  A layer budget keeps the lookahead small (a
 * few MB instead of 1 GiB), so the states are the cheap checks' too. */
static void check_packed(void)
{
    kt_options *opt = NULL;
    CHECK(kt_options_new(&opt, NULL) == KT_OK);
    CHECK(kt_options_set_threads(opt, 2) == KT_OK);
    CHECK(kt_options_set_budget(opt, 6000000) == KT_OK);   /* 384 MB of lookahead: the fastest here */
    kt_graph *g4 = top_rows(4), *g5 = top_rows(5), *p4 = NULL, *p5 = NULL;
    CHECK(kt_graph_new(&p4, 8, 4) == KT_OK && kt_graph_new(&p5, 8, 5) == KT_OK);
    kt_u128 v = {7, 7};
    kt_count_stats cs;
    CHECK(kt_count_tours(g4, KT_COUNT_OPEN, opt, &v, &cs) == KT_OK);
    CHECK(v.lo == 31088 && v.hi == 0 && cs.frontier == 17);   /* A390833 */
    static const struct { uint32_t rows; kt_cell a, z; } ends[] = {
        {4, 2, KT_CELL_NONE}, {4, KT_CELL_NONE, 27}, {4, 1, 29}, {5, 19, 20}};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        kt_graph *g = ends[i].rows == 4 ? g4 : g5, *p = ends[i].rows == 4 ? p4 : p5;
        kt_u128 want = {7, 7};
        v.lo = v.hi = 7;
        CHECK(kt_count_open_tours(p, ends[i].a, ends[i].z, 0, NULL, &want, NULL) == KT_OK);
        CHECK(kt_count_open_tours(g, ends[i].a, ends[i].z, 0, opt, &v, &cs) == KT_OK);
        CHECK(v.lo == want.lo && v.hi == want.hi && want.lo > 0 && cs.frontier == 17);
    }
    /* Shards of the tours from cell 2, each stopped by a small budget and
     * resumed from its file (whose packed keys are checked as it loads). */
    uint64_t sum = 0;
    for (uint32_t i = 0; i < 2; i++) {
        char sp[64];
        snprintf(sp, sizeof sp, "test_count_packed.%u.bin", i);
        remove(sp);
        kt_options *so = NULL;
        CHECK(kt_options_copy(&so, opt) == KT_OK);
        CHECK(kt_options_set_checkpoint(so, sp, 0) == KT_OK);
        CHECK(kt_options_set_shard(so, i, 2) == KT_OK);
        CHECK(kt_options_set_budget(so, 3000) == KT_OK);
        CHECK(kt_count_open_tours(g4, 2, KT_CELL_NONE, 0, so, &v, NULL) == KT_ELIMIT);
        CHECK(kt_options_set_budget(so, 4000000) == KT_OK);
        CHECK(kt_count_open_tours(g4, 2, KT_CELL_NONE, 0, so, &v, NULL) == KT_OK);
        sum += v.lo;
        remove(sp);
        kt_options_free(so);
    }
    CHECK(sum == 2066);
    printf("8x8 top 4 and 5 rows (frontier 17): open counts equal 8x4's and 8x5's\n");
    kt_graph_free(g4);
    kt_graph_free(g5);
    kt_graph_free(p4);
    kt_graph_free(p5);
    kt_options_free(opt);
}

static int cancel_cb(void *user, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    return ++*(int *)user > 0;
}

/* The trace: the number of layers and the largest one. */
typedef struct trace_log {
    uint64_t calls, next, peak;
    int in_order;
} trace_log;

static void trace_cb(void *user, uint64_t step, uint64_t size)
{
    trace_log *t = user;
    if (step != t->next) t->in_order = 0;
    t->next = step + 1;
    t->calls++;
    if (size > t->peak) t->peak = size;
}

int main(void)
{
    /* Brute force against the frontier DP. */
    check_closed_board(3, 10);
    check_closed_board(3, 12);
    check_closed_board(5, 6);
    check_closed_board(6, 5);
    check_closed_board(4, 4);
    check_closed_board(3, 4);
    check_closed_board(5, 5);
    check_open_board(3, 4);
    check_open_board(4, 5);
    check_open_board(3, 7);
    check_open_board(5, 5);
    check_open_board(4, 4);
    CHECK(count(1, 1, KT_COUNT_OPEN, 1) == 1);   /* the trivial tour */
    CHECK(count(1, 1, 0, 1) == 0);
    check_open_board(3, 8);
    check_packed();
    /* The zeros of the existence theorems, each against frontier counts. */
    check_none(3, 3, 1);
    check_none(3, 5, 1);
    check_none(6, 3, 1);
    check_none(4, 4, 1);
    check_none(4, 3, 0);
    check_none(3, 6, 0);
    check_none(8, 3, 0);
    check_none(4, 4, 0);
    check_none(5, 4, 0);
    check_none(4, 7, 0);
    check_none(10, 4, 0);

    /* Published numbers. */
    {
        /* Undirected open tours, OEIS A390833 (Luschny's benchmark set;
         * 6x6 and the long ones are in bench/luschny.sh). */
        static const struct { uint32_t w, h; uint64_t n; } a390833[] = {
            {3, 3, 0}, {3, 4, 8}, {3, 5, 0}, {3, 6, 0}, {3, 7, 52}, {3, 8, 396}, {3, 9, 560},
            {3, 10, 3048}, {3, 11, 10672}, {3, 12, 57248}, {4, 4, 0}, {4, 5, 82}, {4, 6, 744},
            {4, 7, 6378}, {4, 8, 31088}, {4, 9, 189688}, {4, 10, 1213112}, {5, 5, 864},
            {5, 6, 18784}, {5, 7, 622868}};
        for (size_t i = 0; i < sizeof a390833 / sizeof a390833[0]; i++) {
            CHECK(count(a390833[i].w, a390833[i].h, KT_COUNT_OPEN, 1) == a390833[i].n);
            CHECK(count(a390833[i].h, a390833[i].w, KT_COUNT_OPEN | KT_COUNT_DIRECTED, 2) ==
                  2 * a390833[i].n);
        }
        kt_graph *g = NULL;
        CHECK(kt_graph_new(&g, 5, 5) == KT_OK);
        kt_u128 v = {3, 4};
        CHECK(kt_count_open_tours(g, 2, 2, 0, NULL, &v, NULL) == KT_EINVAL);
        CHECK(kt_count_open_tours(g, 25, KT_CELL_NONE, 0, NULL, &v, NULL) == KT_EINVAL);
        CHECK(kt_count_open_tours(g, 0, 24, KT_COUNT_SYMMETRIC, NULL, &v, NULL) == KT_EUNSUPPORTED);
        CHECK(kt_count_open_tours(g, 0, 24, 0x80u, NULL, &v, NULL) == KT_EINVAL);
        CHECK(kt_count_open_tours(NULL, 0, 24, 0, NULL, &v, NULL) == KT_EINVAL);
        CHECK(v.lo == 3 && v.hi == 4);                 /* unchanged on failure */
        /* shards of a count with a given start sum to it (304 from a corner) */
        kt_options *so = NULL;
        CHECK(kt_options_new(&so, NULL) == KT_OK);
        uint64_t ssum = 0;
        for (uint32_t i = 0; i < 3; i++) {
            CHECK(kt_options_set_shard(so, i, 3) == KT_OK);
            CHECK(kt_count_open_tours(g, 0, KT_CELL_NONE, 0, so, &v, NULL) == KT_OK);
            ssum += v.lo;
        }
        CHECK(ssum == 304);
        kt_options_free(so);
        kt_graph_free(g);
        CHECK(kt_graph_new(&g, 1, 1) == KT_OK);
        CHECK(kt_count_open_tours(g, 0, KT_CELL_NONE, 0, NULL, &v, NULL) == KT_OK && v.lo == 1);
        kt_graph_free(g);
    }
    CHECK(count(6, 6, 0, 1) == 9862);
    CHECK(count(6, 6, 0, 2) == 9862);
    CHECK(count(6, 6, 0, 0) == 9862);            /* threads 0: one per core */
    CHECK(count(5, 5, KT_COUNT_OPEN | KT_COUNT_DIRECTED, 0) == 1728);
    CHECK(count(6, 6, KT_COUNT_CLASSES, 1) == 1245);
    CHECK(count(5, 5, KT_COUNT_OPEN | KT_COUNT_DIRECTED, 1) == 1728);
    CHECK(count(5, 8, 0, 2) == 44202);
    CHECK(count(3, 12, 0, 1) == 176);
    /* 8x8 symmetric tours (4 x 608,233 = 2,432,932) take about 10 s: see
     * bench/bench_count.c and BENCHMARKS.md.  Here the same quotient code
     * on 6x6, whose numbers agree with the published 1,245 classes. */
    CHECK(count(6, 6, KT_COUNT_SYMMETRIC, 2) == 78);
    CHECK(count(6, 6, KT_COUNT_SYMMETRIC | KT_COUNT_CLASSES, 1) == 22);
    CHECK(count(6, 7, KT_COUNT_SYMMETRIC, 1) == count(7, 6, KT_COUNT_SYMMETRIC, 2));
    /* The second, independent method (McKay's half-tours joined across
     * the middle, halftour.h) must agree. */
    {
        static const uint32_t boards[][2] = {{3, 10}, {5, 6}, {6, 6}, {5, 8}, {8, 5}, {3, 12}};
        for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
            uint32_t w = boards[i][0], h = boards[i][1];
            kt_u128 n = {0, 1};
            CHECK(kt_halftours_count_closed(w, h, h / 2, NULL, &n) == KT_OK);
            CHECK(n.hi == 0 && n.lo == count(w, h, 0, 1));
        }
    }
    /* Where half-tours are faster the count hands them the board; the
     * frontier alone (KT_COUNT_FRONTIER) must give the same numbers, turned
     * boards and given ends included (8x5 is counted as 5x8). */
    {
        CHECK(count(5, 8, KT_COUNT_OPEN, 1) == 18061054);           /* A390833 */
        CHECK(count(8, 5, KT_COUNT_OPEN | KT_COUNT_FRONTIER, 2) == 18061054);
        CHECK(count(8, 5, KT_COUNT_OPEN | KT_COUNT_DIRECTED, 2) == 2 * 18061054u);
        CHECK(count(7, 6, 0, 2) == 1067638);
        CHECK(count(6, 7, KT_COUNT_FRONTIER, 2) == 1067638);
        kt_graph *g = NULL;
        CHECK(kt_graph_new(&g, 8, 5) == KT_OK);
        static const kt_cell ends[][2] = {{0, KT_CELL_NONE}, {KT_CELL_NONE, 12}, {0, 39}, {3, 20}};
        for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
            uint64_t a = count_ends(g, ends[i][0], ends[i][1], 0, 2);
            CHECK(a > 0 && a == count_ends(g, ends[i][0], ends[i][1], KT_COUNT_FRONTIER, 2));
        }
        kt_count_stats cs = {1, 1, 1};
        kt_u128 v;
        CHECK(kt_count_tours(g, KT_COUNT_OPEN, NULL, &v, &cs) == KT_OK && v.lo == 18061054);
        CHECK(cs.peak_states == 0 && cs.frontier == 0);     /* no layers kept */
        CHECK(kt_count_tours(g, KT_COUNT_OPEN | KT_COUNT_FRONTIER, NULL, &v, &cs) == KT_OK);
        CHECK(v.lo == 18061054 && cs.peak_states > 0 && cs.frontier > 0);
        kt_graph_free(g);
    }
    /* Boards with no closed tour (Schwenk). */
    CHECK(count(4, 7, 0, 1) == 0);
    CHECK(count(3, 8, 0, 1) == 0);
    CHECK(count(5, 7, 0, 1) == 0);

    /* Shards sum exactly to the total. */
    {
        kt_graph *g = NULL;
        CHECK(kt_graph_new(&g, 6, 6) == KT_OK);
        uint64_t sum = 0;
        kt_options *opt = NULL;
        CHECK(kt_options_new(&opt, NULL) == KT_OK);
        for (uint32_t i = 0; i < 5; i++) {
            CHECK(kt_options_set_shard(opt, i, 5) == KT_OK);
            kt_u128 v;
            CHECK(kt_count_tours(g, 0, opt, &v, NULL) == KT_OK);
            sum += v.lo;
        }
        CHECK(sum == 9862);
        /* ...with any number of threads too. */
        sum = 0;
        CHECK(kt_options_set_threads(opt, 2) == KT_OK);
        for (uint32_t i = 0; i < 3; i++) {
            CHECK(kt_options_set_shard(opt, i, 3) == KT_OK);
            kt_u128 v;
            CHECK(kt_count_tours(g, 0, opt, &v, NULL) == KT_OK);
            sum += v.lo;
        }
        CHECK(sum == 9862);
        kt_options_free(opt);
        /* Checkpoint: a run that saves every cell, then a resume. */
        char path[] = "test_count_ckpt.bin";
        remove(path);
        opt = NULL;
        CHECK(kt_options_new(&opt, NULL) == KT_OK);
        CHECK(kt_options_set_threads(opt, 1) == KT_OK);
        CHECK(kt_options_set_checkpoint(opt, path, 0) == KT_OK);
        int calls = -3; /* cancel on the third report */
        CHECK(kt_options_set_progress(opt, cancel_cb, &calls) == KT_OK);
        kt_u128 v = {0, 0};
        kt_status st = kt_count_tours(g, 0, opt, &v, NULL);
        CHECK(st == KT_ECANCELED || st == KT_OK);
        CHECK(kt_options_set_progress(opt, NULL, NULL) == KT_OK);
        /* Stop half-way through a state budget, then resume from the file. */
        remove(path);
        CHECK(kt_options_set_budget(opt, 300) == KT_OK);
        v.lo = 5;
        kt_count_stats cs;
        CHECK(kt_count_tours(g, 0, opt, &v, &cs) == KT_ELIMIT);
        CHECK(v.lo == 5 && v.hi == 0);               /* unchanged on failure */
        CHECK(cs.peak_states > 0 && cs.peak_states <= 300);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL);
        if (f) fclose(f);
        CHECK(kt_options_set_budget(opt, 0) == KT_OK);
        CHECK(kt_count_tours(g, 0, opt, &v, NULL) == KT_OK && v.lo == 9862 && v.hi == 0);
        /* Shards with checkpoints. */
        {
            uint64_t ssum = 0;
            for (uint32_t i = 0; i < 3; i++) {
                kt_options *so = NULL;
                CHECK(kt_options_copy(&so, opt) == KT_OK);
                char sp[64];
                snprintf(sp, sizeof sp, "test_count_ckpt.%u.bin", i);
                remove(sp);
                CHECK(kt_options_set_checkpoint(so, sp, 0) == KT_OK);
                CHECK(kt_options_set_shard(so, i, 3) == KT_OK);
                CHECK(kt_options_set_budget(so, 2000) == KT_OK);
                kt_status r1 = kt_count_tours(g, 0, so, &v, NULL);
                CHECK(r1 == KT_ELIMIT || r1 == KT_OK);
                CHECK(kt_options_set_budget(so, 0) == KT_OK);
                CHECK(kt_count_tours(g, 0, so, &v, NULL) == KT_OK);
                ssum += v.lo;
                remove(sp);
                kt_options_free(so);
            }
            CHECK(ssum == 9862);
        }
        /* The finished file answers at once. */
        CHECK(kt_count_tours(g, 0, opt, &v, NULL) == KT_OK && v.lo == 9862);
        /* ...and belongs to this count only. */
        CHECK(kt_count_tours(g, KT_COUNT_OPEN, opt, &v, NULL) == KT_EMISMATCH);
        remove(path);
        kt_options_free(opt);
        /* Cancel, with the default threads and with one; the output is
         * left as it was. */
        for (unsigned th = 0; th < 2; th++) {
            CHECK(kt_options_new(&opt, NULL) == KT_OK);
            CHECK(kt_options_set_threads(opt, th) == KT_OK);
            calls = 0;
            CHECK(kt_options_set_progress(opt, cancel_cb, &calls) == KT_OK);
            kt_graph *g8 = NULL;
            CHECK(kt_graph_new(&g8, 6, 40) == KT_OK);
            v.lo = 5;
            v.hi = 6;
            CHECK(kt_count_tours(g8, 0, opt, &v, NULL) == KT_ECANCELED);
            CHECK(calls == 1 && v.lo == 5 && v.hi == 6);
            kt_graph_free(g8);
            kt_options_free(opt);
        }
        /* The trace reports every cell in order, and its largest layer is
         * the peak of the statistics. */
        {
            trace_log tl = {0, 0, 0, 1};
            kt_count_stats ts;
            CHECK(kt_options_new(&opt, NULL) == KT_OK);
            CHECK(kt_options_set_trace(opt, trace_cb, &tl) == KT_OK);
            CHECK(kt_count_tours(g, 0, opt, &v, &ts) == KT_OK && v.lo == 9862);
            CHECK(tl.calls == 36 && tl.in_order && tl.peak == ts.peak_states);
            CHECK(ts.frontier >= 13 && ts.peak_bytes > 0);
            kt_options_free(opt);
        }
        /* Bad arguments. */
        CHECK(kt_options_new(&opt, NULL) == KT_OK);
        CHECK(kt_options_set_shard(opt, 3, 3) == KT_EINVAL);
        CHECK(kt_options_set_shard(opt, 1, 3) == KT_OK);
        CHECK(kt_count_tours(g, KT_COUNT_CLASSES, opt, &v, NULL) == KT_EINVAL);
        CHECK(kt_count_tours(g, 0x20u, NULL, &v, NULL) == KT_EINVAL);
        CHECK(kt_count_tours(g, KT_COUNT_OPEN | KT_COUNT_SYMMETRIC, NULL, &v, NULL) == KT_EUNSUPPORTED);
        CHECK(kt_count_tours(NULL, 0, NULL, &v, NULL) == KT_EINVAL);
        CHECK(kt_count_tours(g, 0, NULL, NULL, NULL) == KT_EINVAL);
        kt_options_free(opt);
        kt_graph_free(g);
        /* Too wide for the state encoding. */
        CHECK(kt_graph_new(&g, 9, 9) == KT_OK);
        CHECK(kt_count_tours(g, 0, NULL, &v, NULL) == KT_EUNSUPPORTED);
        kt_graph_free(g);
    }

    /* 128-bit formatting. */
    {
        char buf[48];
        kt_u128 v = {0, 1};
        CHECK(kt_u128_to_string(&v, buf, sizeof buf) == KT_OK && strcmp(buf, "18446744073709551616") == 0);
        uint64_t x;
        CHECK(kt_u128_to_u64(&v, &x) == KT_EOVERFLOW);
        v.lo = UINT64_MAX;
        v.hi = UINT64_MAX;
        CHECK(kt_u128_to_string(&v, buf, sizeof buf) == KT_OK &&
              strcmp(buf, "340282366920938463463374607431768211455") == 0);
        CHECK(kt_u128_to_string(&v, buf, 10) == KT_ERANGE && buf[0] == '\0');
        v.lo = 0;
        v.hi = 0;
        CHECK(kt_u128_to_string(&v, buf, 2) == KT_OK && strcmp(buf, "0") == 0);
    }
    /* Counts beyond 2^64: closed tours of 3 x 50 (about 9.6e20), the same
     * with one thread (plain carries) and two (atomic carries); the 3 x n
     * counts grow geometrically, so c(40)^2 ~ c(30) c(50).  3 x 100 needs
     * more than 128 bits. */
    {
        kt_graph *g = NULL;
        kt_u128 v1, v2, v30, v40;
        kt_options *opt = NULL;
        CHECK(kt_options_new(&opt, NULL) == KT_OK);
        CHECK(kt_options_set_threads(opt, 1) == KT_OK);
        CHECK(kt_graph_new(&g, 3, 50) == KT_OK);
        CHECK(kt_count_tours(g, 0, opt, &v1, NULL) == KT_OK);
        CHECK(kt_options_set_threads(opt, 2) == KT_OK);
        CHECK(kt_count_tours(g, 0, opt, &v2, NULL) == KT_OK);
        CHECK(v1.hi != 0 && v1.hi == v2.hi && v1.lo == v2.lo);
        /* Threads 0 (one per core) and more threads than cores. */
        CHECK(kt_options_set_threads(opt, 0) == KT_OK);
        CHECK(kt_count_tours(g, 0, opt, &v2, NULL) == KT_OK && v1.hi == v2.hi && v1.lo == v2.lo);
        CHECK(kt_options_set_threads(opt, 5) == KT_OK);
        CHECK(kt_count_tours(g, 0, opt, &v2, NULL) == KT_OK && v1.hi == v2.hi && v1.lo == v2.lo);
        kt_options_free(opt);
        char buf[48];
        CHECK(kt_u128_to_string(&v1, buf, sizeof buf) == KT_OK);
        printf("3x50 closed %s\n", buf);
        kt_graph_free(g);
        CHECK(kt_graph_new(&g, 3, 30) == KT_OK);
        CHECK(kt_count_tours(g, 0, NULL, &v30, NULL) == KT_OK);
        kt_graph_free(g);
        CHECK(kt_graph_new(&g, 50, 3) == KT_OK);
        CHECK(kt_count_tours(g, 0, NULL, &v2, NULL) == KT_OK && v2.lo == v1.lo && v2.hi == v1.hi);
        kt_graph_free(g);
        CHECK(kt_graph_new(&g, 3, 40) == KT_OK);
        CHECK(kt_count_tours(g, 0, NULL, &v40, NULL) == KT_OK && v40.hi == 0);
        kt_graph_free(g);
        double r = ((double)v1.hi * 18446744073709551616.0 + (double)v1.lo) * (double)v30.lo /
                   ((double)v40.lo * (double)v40.lo);
        CHECK(r > 0.999 && r < 1.001);
        CHECK(kt_graph_new(&g, 3, 100) == KT_OK);
        CHECK(kt_count_tours(g, 0, NULL, &v1, NULL) == KT_EOVERFLOW);
        kt_graph_free(g);
    }
    return check_done("count");
}
