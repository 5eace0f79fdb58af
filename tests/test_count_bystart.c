/* SPDX-License-Identifier: MIT */
/* Tests of the table of directed open tours by start cell
 * (kt_count_open_by_start): the published 5 x 5 figures (1,728 directed
 * open tours, 304 from each corner); on every board the table sums to the
 * directed open count of kt_count_tours(), is invariant under the board's
 * symmetries, and equals a count per cell with kt_count_open_tours() (no
 * use of the classes); the colour rule's zeros; boards with holes, the
 * frontier path (a budget), threads, progress, cancel and bad inputs. */
#include <knight/knight.h>

#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t u64_of(const kt_u128 *v)
{
    uint64_t r = UINT64_MAX;
    CHECK(kt_u128_to_u64(v, &r) == KT_OK);
    return r;
}

static kt_options *options(unsigned threads, uint64_t budget)
{
    kt_options *run = NULL;
    CHECK(kt_options_new(&run, NULL) == KT_OK);
    CHECK(kt_options_set_threads(run, threads) == KT_OK);
    CHECK(kt_options_set_budget(run, budget) == KT_OK);
    return run;
}

/* The table of g into t[] (ncells entries); the sum. */
static uint64_t table(const kt_graph *g, const kt_options *run, uint64_t *t)
{
    size_t n = (size_t)kt_graph_width(g) * kt_graph_height(g);
    kt_u128 *v = calloc(n, sizeof *v);
    CHECK(v != NULL);
    CHECK(kt_count_open_by_start(g, 0, run, v, n) == KT_OK);
    uint64_t sum = 0;
    for (size_t c = 0; c < n; c++) {
        t[c] = u64_of(&v[c]);
        sum += t[c];
    }
    free(v);
    return sum;
}

static uint64_t directed_open(const kt_graph *g)
{
    kt_u128 v;
    CHECK(kt_count_tours(g, KT_COUNT_OPEN | KT_COUNT_DIRECTED, NULL, &v, NULL) == KT_OK);
    return u64_of(&v);
}

/* Image of (x, y) on a w x h board under symmetry k (4-7 squares only). */
static size_t image(uint32_t w, uint32_t h, uint32_t x, uint32_t y, unsigned k)
{
    uint32_t X = k & 1u ? w - 1 - x : x, Y = k & 2u ? h - 1 - y : y;
    if (k & 4u) {
        uint32_t s = X;
        X = Y;
        Y = s;
    }
    return (size_t)Y * w + X;
}

static void check_symmetric(uint32_t w, uint32_t h, const uint64_t *t)
{
    for (unsigned k = 1; k < (w == h ? 8u : 4u); k++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) CHECK(t[(size_t)y * w + x] == t[image(w, h, x, y, k)]);
}

/* The table against kt_count_tours and against a count per cell. */
static void check_board(uint32_t w, uint32_t h, int per_cell)
{
    kt_graph *g = NULL;
    CHECK(kt_graph_new(&g, w, h) == KT_OK);
    uint64_t *t = calloc((size_t)w * h, sizeof *t), *t2 = calloc((size_t)w * h, sizeof *t2);
    CHECK(t != NULL && t2 != NULL);
    kt_options *one = options(1, 0), *two = options(2, 0);
    uint64_t sum = table(g, one, t);
    CHECK(sum == directed_open(g));
    check_symmetric(w, h, t);
    /* threads share the classes: the same table */
    CHECK(table(g, two, t2) == sum && memcmp(t, t2, (size_t)w * h * sizeof *t) == 0);
    for (size_t c = 0; per_cell && c < (size_t)w * h; c++) {
        kt_u128 v;
        CHECK(kt_count_open_tours(g, (kt_cell)c, KT_CELL_NONE, 0, one, &v, NULL) == KT_OK);
        CHECK(u64_of(&v) == t[c]);
    }
    printf("%ux%u: %llu directed open tours by start cell\n", w, h, (unsigned long long)sum);
    kt_options_free(one);
    kt_options_free(two);
    free(t);
    free(t2);
    kt_graph_free(g);
}

/* 5 x 5: 1,728 directed open tours, 304 from each corner (published);
 * the colour rule gives 0 on the 12 cells of the smaller colour. */
static void check_5x5(void)
{
    kt_graph *g = NULL;
    CHECK(kt_graph_new(&g, 5, 5) == KT_OK);
    uint64_t t[25];
    CHECK(table(g, NULL, t) == 1728);
    CHECK(t[0] == 304 && t[4] == 304 && t[20] == 304 && t[24] == 304);
    /* the other classes as the per-cell counts give them (check_board) */
    CHECK(t[12] == 64 && t[2] == 56 && t[6] == 56);
    for (size_t c = 0; c < 25; c++)
        if ((c % 5 + c / 5) & 1u) CHECK(t[c] == 0);
        else CHECK(t[c] != 0);
    printf("5x5 corner %llu, centre %llu, (2,0) %llu, (1,1) %llu\n", (unsigned long long)t[0],
           (unsigned long long)t[12], (unsigned long long)t[2], (unsigned long long)t[6]);
    kt_graph_free(g);
}

/* The frontier path (a budget keeps every count on it) gives the table
 * of the search; a board with holes keeps only its own symmetries. */
static void check_frontier_and_holes(void)
{
    kt_graph *g = NULL;
    uint64_t a[20], b[20];
    CHECK(kt_graph_new(&g, 4, 5) == KT_OK);
    kt_options *fr = options(1, (uint64_t)1 << 40);
    CHECK(table(g, NULL, a) == table(g, fr, b) && memcmp(a, b, sizeof a) == 0);
    kt_graph_free(g);

    /* 5 x 4 without the cell (1,0): no symmetry but the identity maps
     * the hole onto a hole; 5 x 5 without its centre keeps all 8 and
     * its colours balance.  Every cell against its own count. */
    static const struct {
        uint32_t w, h;
        kt_cell hole;
    } holed[] = {{5, 4, 1}, {5, 5, 12}};
    for (size_t i = 0; i < 2; i++) {
        uint32_t w = holed[i].w, h = holed[i].h;
        uint8_t cells[25];
        uint64_t t[25];
        memset(cells, 1, sizeof cells);
        cells[holed[i].hole] = 0;
        CHECK(kt_graph_new_custom(&g, w, h, 2, 1, cells, NULL) == KT_OK);
        uint64_t sum = table(g, NULL, t);
        CHECK(sum == directed_open(g) && sum > 0);
        CHECK(t[holed[i].hole] == 0);
        if (w == h) check_symmetric(w, h, t);
        for (kt_cell c = 0; c < w * h; c++) {
            if (c == holed[i].hole) continue;
            kt_u128 v;
            CHECK(kt_count_open_tours(g, c, KT_CELL_NONE, 0, fr, &v, NULL) == KT_OK && u64_of(&v) == t[c]);
        }
        printf("%ux%u without cell %u: %llu directed open tours\n", w, h, holed[i].hole, (unsigned long long)sum);
        kt_graph_free(g);
    }
    kt_options_free(fr);
}

/* Shards: the tables of the 3 shards sum to the whole table; a checkpoint
 * file per class (".s" and the cell), from which a second call answers. */
static void check_shards_and_checkpoints(void)
{
    kt_graph *g = NULL;
    CHECK(kt_graph_new(&g, 4, 5) == KT_OK);
    uint64_t whole[20], part[20], sum[20] = {0};
    table(g, NULL, whole);
    kt_options *run = options(1, 0);
    for (uint32_t i = 0; i < 3; i++) {
        CHECK(kt_options_set_shard(run, i, 3) == KT_OK);
        table(g, run, part);
        for (size_t c = 0; c < 20; c++) sum[c] += part[c];
    }
    CHECK(memcmp(sum, whole, sizeof sum) == 0);
    CHECK(kt_options_set_shard(run, 0, 1) == KT_OK);
    char name[64];
    for (int pass = 0; pass < 2; pass++) {
        CHECK(kt_options_set_checkpoint(run, "test_bystart_ckpt", 0) == KT_OK);
        CHECK(table(g, run, part) == 164 && memcmp(part, whole, sizeof part) == 0);
    }
    /* the classes of 4 x 5 are those of cells 0, 1, 4, 5, 8 and 9 */
    for (unsigned c = 0; c < 20; c++) {
        snprintf(name, sizeof name, "test_bystart_ckpt.s%u", c);
        FILE *f = fopen(name, "rb");
        CHECK((f != NULL) == (c % 4 < 2 && c < 12));
        if (f != NULL) fclose(f);
        remove(name);
    }
    kt_options_free(run);
    kt_graph_free(g);
}

static int count_calls(void *user, uint64_t done, uint64_t total)
{
    uint64_t *seen = user;
    CHECK(done <= total);
    CHECK(done >= seen[1]);    /* never backwards */
    seen[0]++;
    seen[1] = done;
    seen[2] = total;
    return seen[3] != 0;    /* cancel when asked */
}

static void check_run_and_errors(void)
{
    kt_graph *g = NULL;
    CHECK(kt_graph_new(&g, 5, 5) == KT_OK);
    kt_u128 v[25], keep[25];
    memset(v, 0x5A, sizeof v);
    memcpy(keep, v, sizeof v);
    CHECK(kt_count_open_by_start(g, 0, NULL, v, 24) == KT_EINVAL);
    CHECK(kt_count_open_by_start(g, KT_COUNT_SYMMETRIC, NULL, v, 25) == KT_EUNSUPPORTED);
    CHECK(kt_count_open_by_start(g, KT_COUNT_CLASSES | KT_COUNT_OPEN, NULL, v, 25) == KT_EUNSUPPORTED);
    CHECK(kt_count_open_by_start(g, 0x80u, NULL, v, 25) == KT_EINVAL);
    CHECK(kt_count_open_by_start(NULL, 0, NULL, v, 25) == KT_EINVAL);
    CHECK(kt_count_open_by_start(g, 0, NULL, NULL, 25) == KT_EINVAL);
    kt_options *run = options(1, 0);
    uint64_t seen[4] = {0, 0, 0, 1};
    CHECK(kt_options_set_progress(run, count_calls, seen) == KT_OK);
    CHECK(kt_count_open_by_start(g, 0, run, v, 25) == KT_ECANCELED);
    CHECK(memcmp(v, keep, sizeof v) == 0);
    /* the directed flags change nothing; the last report is done = total */
    memset(seen, 0, sizeof seen);
    CHECK(kt_count_open_by_start(g, KT_COUNT_OPEN | KT_COUNT_DIRECTED, run, v, 25) == KT_OK);
    CHECK(seen[0] >= 1 && seen[1] == seen[2] && seen[2] > 0);
    CHECK(u64_of(&v[0]) == 304);
    kt_graph_free(g);

    /* 6 x 6 on two threads, cancelled at the first report: both workers
     * stop (the other through its own count's progress) */
    CHECK(kt_graph_new(&g, 6, 6) == KT_OK);
    kt_u128 w[36];
    memset(seen, 0, sizeof seen);
    seen[3] = 1;
    CHECK(kt_options_set_threads(run, 2) == KT_OK);
    CHECK(kt_count_open_by_start(g, 0, run, w, 36) == KT_ECANCELED && seen[0] == 1);
    /* and not cancelled: reports that never go back, the last one whole */
    memset(seen, 0, sizeof seen);
    CHECK(kt_count_open_by_start(g, 0, run, w, 36) == KT_OK && u64_of(&w[0]) == 524486);
    CHECK(seen[0] >= 1 && seen[1] == seen[2]);
    kt_options_free(run);
    kt_graph_free(g);

    /* a board far too wide for the frontier: refused from its size, before
     * the table is touched (ncounts is the board's, the array smaller) */
    CHECK(kt_graph_new(&g, 3000, 3000) == KT_OK);
    CHECK(kt_count_open_by_start(g, 0, NULL, v, (size_t)3000 * 3000) == KT_EUNSUPPORTED);
    kt_graph_free(g);

    /* one cell: its one tour */
    CHECK(kt_graph_new(&g, 1, 1) == KT_OK);
    CHECK(kt_count_open_by_start(g, 0, NULL, v, 1) == KT_OK && u64_of(&v[0]) == 1);
    kt_graph_free(g);
}

/* 8x5, a board the count hands to half-tours: the table sums to the
 * directed open count (published: 2 x 18,061,054), and a corner's entry
 * equals the frontier's count from that corner. */
static void check_halves(void)
{
    kt_graph *g = NULL;
    CHECK(kt_graph_new(&g, 8, 5) == KT_OK);
    uint64_t t[40];
    CHECK(table(g, NULL, t) == 2 * 18061054u);
    kt_u128 v = {0, 0};
    CHECK(kt_count_open_tours(g, 0, KT_CELL_NONE, KT_COUNT_FRONTIER, NULL, &v, NULL) == KT_OK);
    CHECK(u64_of(&v) == t[0] && t[0] == t[7] && t[0] == t[32] && t[0] == t[39] && t[0] > 0);
    kt_u128 f[40];
    CHECK(kt_count_open_by_start(g, KT_COUNT_FRONTIER | 0x20u, NULL, f, 40) == KT_EINVAL);
    kt_graph_free(g);
}

int main(void)
{
    check_5x5();
    if (getenv("KT_TEST_LIGHT") == NULL) check_halves();    /* seconds of work: not under valgrind */
    static const struct {
        uint32_t w, h;
        int per_cell;
    } boards[] = {{3, 4, 1}, {4, 3, 1}, {4, 4, 1}, {5, 5, 1}, {3, 7, 1}, {4, 5, 1}, {5, 4, 0},
                  {3, 8, 0}, {5, 6, 0}, {6, 6, 0}};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++)
        check_board(boards[i].w, boards[i].h, boards[i].per_cell);
    check_frontier_and_holes();
    check_shards_and_checkpoints();
    check_run_and_errors();
    return check_done("count-bystart");
}
