/* SPDX-License-Identifier: MIT */
/* Tests of the small-board counting method (lib/count/small.c, a
 * depth-first search the count chooses on knight boards of at most 32
 * cells, or when at least 5 wide 36 for open tours, 40 for closed) against the frontier DP (which a
 * budget selects) and the published counts (OEIS A390833 open tours,
 * A392000 closed tours): every board of Luschny's set it takes, open and
 * closed, both orientations; every start and every pair of ends on four
 * boards; the run settings (progress, cancel, the statistics). */
#include <knight/knight.h>

#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How a count is run: by default (the search where it suits), or with a
 * budget no layer reaches, which keeps it on the frontier DP. */
enum how { DEFAULT, FRONTIER };

static uint64_t result(kt_status st, const kt_u128 *v)
{
    uint64_t r = UINT64_MAX;
    if (st != KT_OK || kt_u128_to_u64(v, &r) != KT_OK) return UINT64_MAX;
    return r;
}

static kt_options *options(enum how how)
{
    kt_options *run = NULL;
    CHECK(kt_options_new(&run, NULL) == KT_OK);
    CHECK(kt_options_set_threads(run, 1) == KT_OK);
    if (how == FRONTIER) CHECK(kt_options_set_budget(run, (uint64_t)1 << 40) == KT_OK);
    return run;
}

/* kt_count_tours on w x h; the statistics tell which method ran. */
static uint64_t count(uint32_t w, uint32_t h, unsigned flags, enum how how, kt_count_stats *cs)
{
    kt_graph *g = NULL;
    if (kt_graph_new(&g, w, h) != KT_OK) return UINT64_MAX;
    kt_options *run = options(how);
    kt_u128 v = {7, 7};
    kt_status st = kt_count_tours(g, flags, run, &v, cs);
    kt_options_free(run);
    kt_graph_free(g);
    return result(st, &v);
}

static uint64_t count_ends(const kt_graph *g, kt_cell a, kt_cell z, enum how how)
{
    kt_options *run = options(how);
    kt_u128 v = {7, 7};
    kt_status st = kt_count_open_tours(g, a, z, 0, run, &v, NULL);
    kt_options_free(run);
    return result(st, &v);
}

/* Luschny's set: every k x n board, 3 <= k <= n, k n <= 40, with its
 * undirected open (A390833) and closed (A392000) tours. */
static const struct {
    uint32_t w, h;
    uint64_t open, closed;
} luschny[] = {
    {3, 3, 0, 0},     {3, 4, 8, 0},        {3, 5, 0, 0},         {3, 6, 0, 0},
    {3, 7, 52, 0},    {3, 8, 396, 0},      {3, 9, 560, 0},       {3, 10, 3048, 16},
    {3, 11, 10672, 0}, {3, 12, 57248, 176}, {4, 4, 0, 0},        {4, 5, 82, 0},
    {4, 6, 744, 0},   {4, 7, 6378, 0},     {4, 8, 31088, 0},     {4, 9, 189688, 0},
    {4, 10, 1213112, 0}, {5, 5, 864, 0},   {5, 6, 18784, 8},     {5, 7, 622868, 0},
    {5, 8, 18061054, 44202}, {6, 6, 3318960, 9862},
};

/* Whether the count takes the search on w x h (the rule of small.c). */
static int small(uint32_t w, uint32_t h, int open)
{
    uint32_t m = w < h ? w : h, n = w * h;
    return m >= 3 && (n <= 32 || (m >= 5 && n <= (open ? 36u : 40u)));
}

static void check_set(void)
{
    int searched = 0;
    for (size_t i = 0; i < sizeof luschny / sizeof luschny[0]; i++) {
        uint32_t w = luschny[i].w, h = luschny[i].h;
        for (int t = 0; t < 2; t++) {
            uint32_t x = t ? h : w, y = t ? w : h;
            kt_count_stats cs;
            if (small(w, h, 1)) {
                memset(&cs, 0xff, sizeof cs);
                CHECK_EQ_U64(count(x, y, KT_COUNT_OPEN, DEFAULT, &cs), luschny[i].open);
                /* the search holds no layers (a board with no tour by the
                 * theorems is answered before any method) */
                CHECK(cs.peak_states == 0 && cs.peak_bytes == 0 && cs.frontier == 0);
                CHECK_EQ_U64(count(x, y, KT_COUNT_OPEN | KT_COUNT_DIRECTED, DEFAULT, NULL), 2 * luschny[i].open);
                /* the frontier DP on the same boards (6x6 and 5x7 open take
                 * it seconds in a debug build: their published counts
                 * suffice) */
                if (w * h <= 32) {
                    CHECK_EQ_U64(count(x, y, KT_COUNT_OPEN, FRONTIER, &cs), luschny[i].open);
                    CHECK(luschny[i].open == 0 || cs.peak_states > 0);
                }
                searched++;
            }
            if (small(w, h, 0)) {
                memset(&cs, 0xff, sizeof cs);
                CHECK_EQ_U64(count(x, y, 0, DEFAULT, &cs), luschny[i].closed);
                CHECK(cs.peak_states == 0 && cs.peak_bytes == 0 && cs.frontier == 0);
                CHECK_EQ_U64(count(x, y, KT_COUNT_DIRECTED, DEFAULT, NULL), 2 * luschny[i].closed);
                CHECK_EQ_U64(count(x, y, 0, FRONTIER, &cs), luschny[i].closed);
                CHECK(luschny[i].closed == 0 || cs.peak_states > 0);
                searched++;
            }
        }
    }
    /* open: 3 x 3..10, 4 x 4..8, 5 x 5..7, 6x6; closed also 5x8 */
    CHECK(searched == 2 * (17 + 18));
    /* the boards just past the rule stay on the frontier DP */
    kt_count_stats cs;
    CHECK_EQ_U64(count(4, 9, KT_COUNT_OPEN, DEFAULT, &cs), 189688);
    CHECK(cs.peak_states > 0);
    CHECK_EQ_U64(count(11, 3, KT_COUNT_OPEN, DEFAULT, &cs), 10672);
    CHECK(cs.peak_states > 0);
    CHECK_EQ_U64(count(12, 3, 0, DEFAULT, &cs), 176);
    CHECK(cs.peak_states > 0);
}

/* Every start, every end, and (on boards up to 25 cells) every pair of
 * ends: the search against the frontier DP, and the sums against the
 * published count. */
static void check_ends(uint32_t w, uint32_t h, uint64_t open)
{
    kt_graph *g = NULL;
    CHECK(kt_graph_new(&g, w, h) == KT_OK);
    if (g == NULL) return;
    uint32_t n = w * h;
    uint64_t from_all = 0, pairs_all = 0;
    for (kt_cell s = 0; s < n; s++) {
        uint64_t from = count_ends(g, s, KT_CELL_NONE, DEFAULT);
        CHECK_EQ_U64(from, count_ends(g, s, KT_CELL_NONE, FRONTIER));
        CHECK_EQ_U64(count_ends(g, KT_CELL_NONE, s, DEFAULT), from);   /* reversed */
        from_all += from;
        if (n > 25) continue;
        CHECK_EQ_U64(count_ends(g, KT_CELL_NONE, s, FRONTIER), from);
        uint64_t pairs = 0;
        for (kt_cell e = 0; e < n; e++) {
            if (e == s) continue;
            uint64_t p = count_ends(g, s, e, DEFAULT);
            CHECK_EQ_U64(p, count_ends(g, s, e, FRONTIER));
            CHECK_EQ_U64(count_ends(g, e, s, DEFAULT), p);
            pairs += p;
        }
        CHECK_EQ_U64(pairs, from);
        pairs_all += pairs;
    }
    CHECK_EQ_U64(from_all, 2 * open);
    CHECK(n > 25 || pairs_all == 2 * open);
    kt_graph_free(g);
}

typedef struct prog_log {
    int calls, cancel_at;
    uint64_t last_done, last_total;
    int backwards;
} prog_log;

static int prog_cb(void *user, uint64_t done, uint64_t total)
{
    prog_log *p = user;
    if (p->calls > 0 && done < p->last_done) p->backwards = 1;
    p->last_done = done;
    p->last_total = total;
    return ++p->calls == p->cancel_at;
}

/* Progress reports (the last one done = total) and cancelling, with the
 * output left as it was. */
static void check_progress(void)
{
    kt_graph *g = NULL;
    CHECK(kt_graph_new(&g, 6, 6) == KT_OK);
    for (int cancel_at = 0; cancel_at < 3; cancel_at++) {
        prog_log pl = {0, cancel_at, 0, 0, 0};
        kt_options *run = options(DEFAULT);
        CHECK(kt_options_set_progress(run, prog_cb, &pl) == KT_OK);
        kt_u128 v = {5, 6};
        kt_status st = kt_count_tours(g, KT_COUNT_OPEN, run, &v, NULL);
        if (cancel_at == 0) {
            CHECK(st == KT_OK && v.lo == 3318960 && v.hi == 0);
            CHECK(pl.calls >= 1 && pl.last_done == pl.last_total && pl.last_total > 0 && !pl.backwards);
        } else if (st == KT_ECANCELED) {
            CHECK(pl.calls == cancel_at && v.lo == 5 && v.hi == 6);
        } else {
            /* a fast machine finished before the callback's turn */
            CHECK(st == KT_OK && v.lo == 3318960 && pl.calls < cancel_at);
        }
        kt_options_free(run);
    }
    /* a callback that cancels at once stops even a count shorter than its
     * first timed report: the final report may cancel */
    prog_log pl = {0, 1, 0, 0, 0};
    kt_options *run = options(DEFAULT);
    CHECK(kt_options_set_progress(run, prog_cb, &pl) == KT_OK);
    kt_u128 v = {5, 6};
    CHECK(kt_count_open_tours(g, 0, KT_CELL_NONE, 0, run, &v, NULL) == KT_ECANCELED);
    CHECK(pl.calls == 1 && v.lo == 5 && v.hi == 6);
    kt_options_free(run);
    kt_graph_free(g);
}

/* An allocator that refuses everything once armed, and counts the refusals. */
typedef struct refuser {
    int armed;
    size_t refused, largest;
} refuser;

static void *refuse_alloc(void *opaque, size_t size)
{
    refuser *r = opaque;
    if (!r->armed) return malloc(size);
    r->refused++;
    if (size > r->largest) r->largest = size;
    return NULL;
}

static void refuse_free(void *opaque, void *p)
{
    (void)opaque;
    free(p);
}

/* The memo is an aid only: a search that cannot have it (5x6 wants 1 MiB)
 * counts the same without, and a short one (5x5) never asks. */
static void check_no_memory(void)
{
    refuser r = {0, 0, 0};
    kt_allocator al = {refuse_alloc, refuse_free, &r};
    for (int b = 0; b < 2; b++) {
        kt_graph *g = NULL;
        r.armed = 0;
        CHECK(kt_graph_new_custom(&g, b ? 5 : 6, 5, 2, 1, NULL, &al) == KT_OK);
        if (g == NULL) return;
        r.armed = 1;
        r.refused = r.largest = 0;
        kt_u128 v = {7, 7};
        CHECK(kt_count_tours(g, KT_COUNT_OPEN, NULL, &v, NULL) == KT_OK);
        CHECK(v.lo == (b ? 864u : 18784u) && v.hi == 0);
        CHECK(b ? r.refused == 0 : r.refused == 1 && r.largest == ((size_t)1 << 20));
        r.armed = 0;
        kt_graph_free(g);
    }
}

int main(void)
{
    check_set();
    check_ends(3, 4, 8);
    check_ends(4, 5, 82);
    check_ends(5, 5, 864);
    check_ends(3, 7, 52);
    check_ends(5, 6, 18784);
    check_progress();
    check_no_memory();
    if (check_failures == 0) printf("small-board counts: all checks passed\n");
    return check_failures != 0;
}
