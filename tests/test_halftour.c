/* SPDX-License-Identifier: MIT */
/*
 * Tests of the half-tour module against independent brute force:
 *  - half-tours of small halves enumerated edge by edge, grouped by path
 *    structure, compared structure by structure with kt_halftours_find();
 *  - closed tours of small boards counted by a plain depth-first search,
 *    compared with McKay's join for every split; 6x6 = 9,862;
 *  - McKay's type compatibility against all sets of rank 4-6 steps;
 *  - the run settings: threads (0 = all cores gives the same answers as
 *    1), shards summing to the whole, cancellation, the budget and trace;
 *  - every allocation failure of a small run: KT_ENOMEM or KT_OK, never a
 *    crash or a leak, and every allocation through the caller's allocator;
 *  - argument checks.
 */
#include <knight/knight.h>

#include "check.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Run settings with this many threads (NULL when that fails: checked). */
static kt_options *with_threads(unsigned threads)
{
    kt_options *o = NULL;
    CHECK(kt_options_new(&o, NULL) == KT_OK);
    if (o != NULL) CHECK(kt_options_set_threads(o, threads) == KT_OK);
    return o;
}

static int u128_is(kt_u128 v, uint64_t want)
{
    return v.hi == 0 && v.lo == want;
}


/* ---- brute-force half-tours ---- */

#define MAXC 64
#define MAXE 256

typedef struct bhalf {
    int W, D, O, n;
    int ne;
    int eu[MAXE], ev[MAXE];      /* edges, sorted by later endpoint */
    int lastedge[MAXC];          /* index of the last edge touching the cell, -1 if none */
    int cap[MAXC];               /* moves across the cut */
    int deg[MAXC];
    int adj[MAXC][2];
    /* results */
    int nstruct;
    uint8_t sp[20000][16];
    uint64_t sc[20000];
    uint64_t total;
} bhalf;


static int across(int W, int O, int x, int r)
{
    int c = 0;
    if (r == 0) {
        c += (x - 2 >= 0) + (x + 2 < W);
        if (O >= 2) c += (x - 1 >= 0) + (x + 1 < W);
    } else if (r == 1) {
        c += (x - 1 >= 0) + (x + 1 < W);
    }
    return c;
}

static int allowed(const bhalf *h, int c, int d)
{
    int r = c / h->W;
    if (d == 2) return 1;
    if (r >= 2) return 0;
    return h->cap[c] >= 2 - d;
}

static int bfind_root(int *par, int a)
{
    while (par[a] != a) a = par[a];
    return a;
}

static void brecord(bhalf *h)
{
    uint8_t p[16];
    memset(p, 0xFF, sizeof p);
    int nb = h->W * (h->D >= 2 ? 2 : 1);
    for (int c = 0; c < nb; c++) {
        if (h->deg[c] == 0) {
            p[c] = (uint8_t)c;
        } else if (h->deg[c] == 1) {
            int prev = c, cur = h->adj[c][0];
            while (h->deg[cur] == 2) {
                int nx = h->adj[cur][0] == prev ? h->adj[cur][1] : h->adj[cur][0];
                prev = cur;
                cur = nx;
            }
            p[c] = (uint8_t)cur;
        }
    }
    h->total++;
    for (int i = 0; i < h->nstruct; i++)
        if (memcmp(h->sp[i], p, 16) == 0) {
            h->sc[i]++;
            return;
        }
    memcpy(h->sp[h->nstruct], p, 16);
    h->sc[h->nstruct++] = 1;
}

static void bsearch_edges(bhalf *h, int e, int *par)
{
    if (e == h->ne) {
        for (int c = 0; c < h->n; c++)
            if (h->lastedge[c] < 0 && !allowed(h, c, h->deg[c])) return;
        brecord(h);
        return;
    }
    int u = h->eu[e], v = h->ev[e];
    for (int take = 0; take < 2; take++) {
        int saved[MAXC];
        if (take) {
            if (h->deg[u] == 2 || h->deg[v] == 2) continue;
            int ru = bfind_root(par, u), rv = bfind_root(par, v);
            if (ru == rv) continue; /* a cycle */
            memcpy(saved, par, sizeof(int) * (size_t)h->n);
            par[ru] = rv;
            h->adj[u][h->deg[u]++] = v;
            h->adj[v][h->deg[v]++] = u;
        }
        int ok = 1;
        if (h->lastedge[u] == e && !allowed(h, u, h->deg[u])) ok = 0;
        if (h->lastedge[v] == e && !allowed(h, v, h->deg[v])) ok = 0;
        if (ok) bsearch_edges(h, e + 1, par);
        if (take) {
            h->deg[u]--;
            h->deg[v]--;
            memcpy(par, saved, sizeof(int) * (size_t)h->n);
        }
    }
}

static void brute_half(bhalf *h, int W, int D, int O)
{
    memset(h, 0, sizeof *h);
    h->W = W;
    h->D = D;
    h->O = O;
    h->n = W * D;
    for (int c = 0; c < h->n; c++) h->lastedge[c] = -1;
    /* Edges ordered by their larger endpoint, so cells finish in order. */
    for (int v = 0; v < h->n; v++)
        for (int u = 0; u < v; u++) {
            int dx = abs(u % W - v % W), dy = abs(u / W - v / W);
            if (!((dx == 1 && dy == 2) || (dx == 2 && dy == 1))) continue;
            h->eu[h->ne] = u;
            h->ev[h->ne] = v;
            h->lastedge[u] = h->ne;
            h->lastedge[v] = h->ne;
            h->ne++;
        }
    for (int c = 0; c < h->n; c++) h->cap[c] = across(W, O, c % W, c / W);
    int par[MAXC];
    for (int c = 0; c < h->n; c++) par[c] = c;
    bsearch_edges(h, 0, par);
}

static bhalf scratch;

static void test_enumeration_vs_brute(int W, int D, int O)
{
    bhalf *b = &scratch;
    brute_half(b, W, D, O);
    for (unsigned threads = 1; threads <= 2; threads++) {
        kt_halftours *h = NULL;
        kt_options *run = with_threads(threads);
        CHECK(kt_halftours_enumerate(&h, (uint32_t)W, (uint32_t)D, (uint32_t)O, run) == KT_OK);
        kt_options_free(run);
        if (h == NULL) return;
        kt_halftour_stats st;
        CHECK(kt_halftours_stats(h, &st) == KT_OK);
        if (st.halftours != b->total || st.structures != (uint64_t)b->nstruct)
            fprintf(stderr, "half %dx%d/%d: lib %llu/%llu brute %llu/%d\n", W, D, O,
                    (unsigned long long)st.halftours, (unsigned long long)st.structures,
                    (unsigned long long)b->total, b->nstruct);
        CHECK(st.halftours == b->total);
        CHECK(st.structures == (uint64_t)b->nstruct);
        CHECK(kt_halftours_count(h) == (size_t)b->nstruct);
        uint64_t mn = UINT64_MAX, mx = 0;
        for (int i = 0; i < b->nstruct; i++) {
            uint64_t c = 0;
            size_t idx = 0;
            CHECK(kt_halftours_find(h, b->sp[i], &idx, &c) == KT_OK);
            CHECK(c == b->sc[i]);
            kt_halftour_structure s;
            CHECK(kt_halftours_at(h, idx, &s) == KT_OK);
            CHECK(memcmp(s.partner, b->sp[i], 16) == 0);
            CHECK(s.count == b->sc[i]);
            int nb = W * (D >= 2 ? 2 : 1);
            for (int c2 = 0; c2 < nb; c2++) {
                int want = s.partner[c2] == KT_HALFTOUR_INTERIOR ? 0 : s.partner[c2] == c2 ? 2 : 1;
                CHECK(s.type[c2] == want);
            }
            if (b->sc[i] < mn) mn = b->sc[i];
            if (b->sc[i] > mx) mx = b->sc[i];
        }
        if (b->nstruct > 0) {
            CHECK(st.min_count == mn);
            CHECK(st.max_count == mx);
        }
        kt_halftours_free(h);
    }
}

/* ---- brute-force closed tours ---- */

typedef struct bboard {
    int W, H, n;
    int nadj[MAXC];
    int adj[MAXC][8];
    int avail[MAXC];   /* neighbours still usable: unvisited, the head, or the start */
    uint64_t found;
} bboard;

/* Paths from cell 0 with head c; count those closing into a cycle. */
static void bdfs(bboard *b, int c, int depth, uint64_t seen)
{
    if (depth == b->n) {
        for (int k = 0; k < b->nadj[c]; k++)
            if (b->adj[c][k] == 0) b->found++;
        return;
    }
    /* Leaving c makes it interior (unless it is the start, which stays
     * open for the closing step): its unvisited neighbours lose one. */
    /* An unvisited cell needs two usable neighbours, except the next head,
     * which already has c and needs one more. */
    int bad = 0;
    if (c != 0)
        for (int k = 0; k < b->nadj[c]; k++) {
            int e = b->adj[c][k];
            if ((seen >> e) & 1u) continue;
            if (--b->avail[e] < 2) bad++;
        }
    for (int k = 0; k < b->nadj[c] && bad <= 1; k++) {
        int d = b->adj[c][k];
        if ((seen >> d) & 1u) continue;
        if (bad == 1 && (b->avail[d] >= 2 || b->avail[d] < 1)) continue;
        bdfs(b, d, depth + 1, seen | (uint64_t)1 << d);
    }
    if (c != 0)
        for (int k = 0; k < b->nadj[c]; k++) {
            int e = b->adj[c][k];
            if (!((seen >> e) & 1u)) b->avail[e]++;
        }
}

static uint64_t brute_closed(int W, int H)
{
    bboard b;
    memset(&b, 0, sizeof b);
    b.W = W;
    b.H = H;
    b.n = W * H;
    static const int mv[8][2] = {{2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}, {1, 2}, {2, 1}};
    for (int c = 0; c < b.n; c++)
        for (int m = 0; m < 8; m++) {
            int x = c % W + mv[m][0], y = c / W + mv[m][1];
            if (x < 0 || y < 0 || x >= W || y >= H) continue;
            b.adj[c][b.nadj[c]++] = y * W + x;
        }
    if (b.n == 1) return 1;
    for (int c = 0; c < b.n; c++) b.avail[c] = b.nadj[c];
    bdfs(&b, 0, 1, 1u);
    return b.found / 2; /* each cycle in both directions */
}

/* kt_halftours_count_closed() puts the deeper half above; the public join
 * takes the halves either way round, and both must give the count. */
static void test_unequal_halves(uint32_t W, uint32_t H, uint64_t want)
{
    uint32_t D = H / 2;
    kt_halftours *shallow = NULL, *deep = NULL;
    CHECK(kt_halftours_enumerate(&shallow, W, D, H - D, NULL) == KT_OK);
    CHECK(kt_halftours_enumerate(&deep, W, H - D, D, NULL) == KT_OK);
    kt_u128 below = {0, 1}, above = {0, 1}, whole = {0, 1};
    CHECK(kt_halftours_join(deep, shallow, NULL, &below) == KT_OK);
    CHECK(kt_halftours_join(shallow, deep, NULL, &above) == KT_OK);
    CHECK(kt_halftours_count_closed(W, H, D, NULL, &whole) == KT_OK);
    CHECK(u128_is(below, want));
    CHECK(u128_is(above, want));
    CHECK(u128_is(whole, want));
    kt_halftours_free(shallow);
    kt_halftours_free(deep);
}

static void test_join_vs_brute(int W, int H)
{
    uint64_t want = brute_closed(W, H);
    for (int split = 1; split < H; split++) {
        kt_u128 n = {1, 1};
        kt_options *run = with_threads((unsigned)(1 + split % 2));
        kt_status rc = kt_halftours_count_closed((uint32_t)W, (uint32_t)H, (uint32_t)split, run,
                                                 &n);
        kt_options_free(run);
        CHECK(rc == KT_OK);
        if (rc != KT_OK || !u128_is(n, want))
            fprintf(stderr, "%dx%d split %d: join %llu brute %llu (%s)\n", W, H, split,
                    (unsigned long long)n.lo, (unsigned long long)want, kt_strerror(rc));
        CHECK(u128_is(n, want));
    }
}

/* ---- compatibility ---- */

static int brute_compat(int W, const uint8_t *a, const uint8_t *b)
{
    /* Edges: upper rank-6 cell x to lower rank-4 cell x-1 and x+1. */
    int ne = 0, eu[16], el[16];
    for (int x = 0; x < W; x++)
        for (int d = -1; d <= 1; d += 2)
            if (x + d >= 0 && x + d < W) {
                eu[ne] = x;
                el[ne] = x + d;
                ne++;
            }
    for (unsigned m = 0; m < (1u << ne); m++) {
        int du[8] = {0}, dl[8] = {0};
        for (int e = 0; e < ne; e++)
            if ((m >> e) & 1u) {
                du[eu[e]]++;
                dl[el[e]]++;
            }
        int ok = 1;
        for (int x = 0; x < W && ok; x++)
            if (du[x] != b[x] || dl[x] > a[x]) ok = 0;
        if (ok) return 1;
    }
    return 0;
}

static void test_compat(void)
{
    for (int W = 1; W <= 5; W++) {
        int nv = 1;
        for (int i = 0; i < W; i++) nv *= 3;
        for (int ia = 0; ia < nv; ia++)
            for (int ib = 0; ib < nv; ib++) {
                uint8_t a[8], b[8];
                for (int i = 0, x = ia, y = ib; i < W; i++, x /= 3, y /= 3) {
                    a[i] = (uint8_t)(x % 3);
                    b[i] = (uint8_t)(y % 3);
                }
                int c = -1;
                CHECK(kt_halftours_types_compatible((uint32_t)W, a, b, &c) == KT_OK);
                CHECK(c == brute_compat(W, a, b));
            }
    }
    /* Invalid arguments are errors, not "incompatible"; the answer is untouched. */
    uint8_t bad[2] = {3, 0}, ok[9] = {0};
    int c = 7;
    CHECK_ST(kt_halftours_types_compatible(2, bad, ok, &c), KT_EINVAL);
    CHECK_ST(kt_halftours_types_compatible(2, ok, bad, &c), KT_EINVAL);
    CHECK_ST(kt_halftours_types_compatible(9, ok, ok, &c), KT_EINVAL);
    CHECK_ST(kt_halftours_types_compatible(0, ok, ok, &c), KT_EINVAL);
    CHECK_ST(kt_halftours_types_compatible(2, NULL, ok, &c), KT_EINVAL);
    CHECK_ST(kt_halftours_types_compatible(2, ok, NULL, &c), KT_EINVAL);
    CHECK_ST(kt_halftours_types_compatible(2, ok, ok, NULL), KT_EINVAL);
    CHECK(c == 7);
    CHECK_ST(kt_halftours_types_compatible(2, ok, ok, &c), KT_OK);
    CHECK(c == 1);
}

/* ---- misc ---- */

static int cancel_at_once(void *user, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    (*(int *)user)++;
    return 1;
}

static int count_cb(void *user, const kt_halftour_structure *s)
{
    uint64_t *acc = user;
    acc[0]++;
    acc[1] += s->count;
    return 0;
}

static void test_api(void)
{
    kt_halftours *h = (kt_halftours *)1;
    CHECK(kt_halftours_enumerate(&h, 0, 3, 3, NULL) == KT_EINVAL);
    CHECK(h == NULL);
    CHECK(kt_halftours_enumerate(&h, 9, 3, 3, NULL) == KT_EUNSUPPORTED);
    CHECK(kt_halftours_enumerate(NULL, 4, 3, 3, NULL) == KT_EINVAL);
    kt_halftours_free(NULL);
    kt_u128 n = {0, 0};
    CHECK(kt_halftours_count_closed(6, 6, 0, NULL, &n) == KT_EINVAL);
    CHECK(kt_halftours_count_closed(6, 6, 6, NULL, &n) == KT_EINVAL);
    CHECK(kt_halftours_count_closed(6, 6, 3, NULL, NULL) == KT_EINVAL);
    CHECK(kt_halftours_count_closed(9, 6, 3, NULL, &n) == KT_EUNSUPPORTED);

    /* Getters are NULL-safe. */
    uint32_t w = 1, d = 1, o = 1;
    kt_halftours_geometry(NULL, &w, &d, &o);
    CHECK(w == 0 && d == 0 && o == 0);
    CHECK(kt_halftours_count(NULL) == 0);

    kt_options *two = with_threads(2);
    CHECK(kt_halftours_enumerate(&h, 6, 3, 3, two) == KT_OK);
    kt_halftour_stats st;
    CHECK(kt_halftours_stats(h, &st) == KT_OK);
    CHECK(kt_halftours_stats(NULL, &st) == KT_EINVAL);
    CHECK(st.structures == 1658); /* as the CLI test: knight halftours --width 6 --depth 3 */
    uint64_t acc[2] = {0, 0};
    CHECK(kt_halftours_foreach(h, count_cb, acc) == KT_OK);
    CHECK(acc[0] == st.structures && acc[1] == st.halftours);
    kt_halftour_structure s;
    CHECK(kt_halftours_at(h, kt_halftours_count(h), &s) == KT_EINVAL);
    uint8_t p[16];
    memset(p, KT_HALFTOUR_INTERIOR, sizeof p);
    p[0] = 1; /* 1 does not point back */
    CHECK(kt_halftours_find(h, p, NULL, NULL) == KT_EINVAL);
    memset(p, KT_HALFTOUR_INTERIOR, sizeof p);
    uint64_t c = 7;
    CHECK(kt_halftours_find(h, p, NULL, &c) == KT_ENOTFOUND); /* no path ends at all */
    CHECK(c == 0);
    kt_halftours_geometry(h, &w, &d, &o);
    CHECK(w == 6 && d == 3 && o == 3);

    /* Join of a half with itself: 6x6 has 9,862 closed tours; mismatched
     * halves; NULL arguments. */
    n.lo = n.hi = 1;
    CHECK(kt_halftours_join(h, h, two, &n) == KT_OK);
    CHECK(u128_is(n, 9862));
    CHECK(kt_halftours_join(h, h, NULL, &n) == KT_OK);
    CHECK(u128_is(n, 9862));
    kt_halftours *g = NULL;
    CHECK(kt_halftours_enumerate(&g, 6, 2, 3, NULL) == KT_OK);
    CHECK(kt_halftours_join(h, g, NULL, &n) == KT_EMISMATCH);
    CHECK(kt_halftours_join(NULL, h, NULL, &n) == KT_EINVAL);
    CHECK(kt_halftours_join(h, NULL, NULL, &n) == KT_EINVAL);
    CHECK(kt_halftours_join(h, h, NULL, NULL) == KT_EINVAL);
    kt_halftours_free(g);
    kt_options_free(two);
    kt_halftours_free(h);
}

/* Shards sum to the whole: of a join, and of kt_halftours_count_closed;
 * an enumeration cannot be sharded. */
static void test_shards(void)
{
    kt_halftours *h = NULL;
    CHECK(kt_halftours_enumerate(&h, 6, 3, 3, NULL) == KT_OK);
    kt_options *o = NULL;
    CHECK(kt_options_new(&o, NULL) == KT_OK);
    if (h == NULL || o == NULL) return;
    uint64_t sum = 0;
    for (uint32_t i = 0; i < 5; i++) {
        kt_u128 n = {0, 0};
        CHECK(kt_options_set_threads(o, 1 + i % 2) == KT_OK);
        CHECK(kt_options_set_shard(o, i, 5) == KT_OK);
        CHECK(kt_halftours_join(h, h, o, &n) == KT_OK);
        CHECK(n.hi == 0);
        sum += n.lo;
    }
    CHECK(sum == 9862);
    /* 5x8 (44,202 closed tours) with unequal halves: split 3. */
    sum = 0;
    for (uint32_t i = 0; i < 3; i++) {
        kt_u128 n = {0, 0};
        CHECK(kt_options_set_shard(o, i, 3) == KT_OK);
        CHECK(kt_halftours_count_closed(5, 8, 3, o, &n) == KT_OK);
        CHECK(n.hi == 0);
        sum += n.lo;
    }
    CHECK(sum == 44202);
    kt_halftours *e = (kt_halftours *)1;
    CHECK(kt_halftours_enumerate(&e, 6, 3, 3, o) == KT_EINVAL);
    CHECK(e == NULL);
    kt_options_free(o);
    kt_halftours_free(h);
}

/* 0 threads (one per online core) gives the same answers as 1. */
static void test_threads(void)
{
    kt_options *zero = with_threads(0), *one = with_threads(1);
    kt_halftours *h0 = NULL, *h1 = NULL;
    CHECK(kt_halftours_enumerate(&h0, 6, 3, 3, zero) == KT_OK);
    CHECK(kt_halftours_enumerate(&h1, 6, 3, 3, one) == KT_OK);
    if (h0 != NULL && h1 != NULL) {
        CHECK(kt_halftours_count(h0) == kt_halftours_count(h1));
        for (size_t i = 0; i < kt_halftours_count(h1); i++) {
            kt_halftour_structure a, b;
            CHECK(kt_halftours_at(h0, i, &a) == KT_OK);
            CHECK(kt_halftours_at(h1, i, &b) == KT_OK);
            CHECK(a.key == b.key && a.count == b.count);
        }
        kt_u128 n0 = {0, 0}, n1 = {1, 1};
        CHECK(kt_halftours_join(h0, h0, zero, &n0) == KT_OK);
        CHECK(kt_halftours_join(h1, h1, one, &n1) == KT_OK);
        CHECK(u128_is(n0, 9862) && u128_is(n1, 9862));
    }
    kt_u128 c0 = {0, 0}, c1 = {1, 1};
    CHECK(kt_halftours_count_closed(5, 8, 4, zero, &c0) == KT_OK);
    CHECK(kt_halftours_count_closed(5, 8, 4, one, &c1) == KT_OK);
    CHECK(u128_is(c0, 44202) && u128_is(c1, 44202));
    kt_halftours_free(h0);
    kt_halftours_free(h1);
    kt_options_free(zero);
    kt_options_free(one);
}

static int cancel_later(void *user, uint64_t done, uint64_t total)
{
    (void)total;
    /* Cancel once the enumerations are done, in the join. */
    return done >= *(uint64_t *)user;
}

static void test_cancel(void)
{
    kt_options *o = NULL;
    CHECK(kt_options_new(&o, NULL) == KT_OK);
    if (o == NULL) return;
    kt_halftours *h = NULL;
    CHECK(kt_halftours_enumerate(&h, 6, 3, 3, NULL) == KT_OK);
    for (unsigned threads = 1; threads <= 2; threads++) {
        CHECK(kt_options_set_threads(o, threads) == KT_OK);
        int calls = 0;
        CHECK(kt_options_set_progress(o, cancel_at_once, &calls) == KT_OK);
        kt_u128 n = {5, 6};
        CHECK(kt_halftours_join(h, h, o, &n) == KT_ECANCELED);
        CHECK(calls >= 1);
        CHECK(n.lo == 5 && n.hi == 6); /* untouched on failure */
        calls = 0;
        kt_halftours *e = (kt_halftours *)1;
        CHECK(kt_halftours_enumerate(&e, 6, 3, 3, o) == KT_ECANCELED);
        CHECK(e == NULL && calls >= 1);
        calls = 0;
        CHECK(kt_halftours_count_closed(6, 6, 3, o, &n) == KT_ECANCELED);
        CHECK(calls >= 1);
        /* Cancelled in the join, after both enumerations (5x8 split 3:
         * 5*5 + 5*3 cells, then the join). */
        uint64_t at = 40 + 1;
        CHECK(kt_options_set_progress(o, cancel_later, &at) == KT_OK);
        CHECK(kt_halftours_count_closed(5, 8, 3, o, &n) == KT_ECANCELED);
        CHECK(n.lo == 5 && n.hi == 6);
    }
    kt_options_free(o);
    kt_halftours_free(h);
}

/* The budget: states of one layer (enumeration), pairings of one upper
 * type (join); the trace sees every layer. */
typedef struct trace_rec {
    uint64_t steps, max, last;
} trace_rec;

static void on_trace(void *user, uint64_t step, uint64_t size)
{
    trace_rec *t = user;
    CHECK(step == t->steps);
    t->steps++;
    if (size > t->max) t->max = size;
    t->last = size;
}

static void test_budget_and_trace(void)
{
    for (unsigned threads = 1; threads <= 2; threads++) {
        kt_options *o = with_threads(threads);
        if (o == NULL) return;
        trace_rec tr = {0, 0, 0};
        CHECK(kt_options_set_trace(o, on_trace, &tr) == KT_OK);
        kt_halftours *h = NULL;
        CHECK(kt_halftours_enumerate(&h, 6, 3, 3, o) == KT_OK);
        CHECK(tr.steps == 18);                       /* one layer per cell */
        /* The last layer: the structures, folded (one of each structure
         * and its mirror image), so between half of them and all. */
        CHECK(tr.last <= kt_halftours_count(h) && kt_halftours_count(h) <= 2 * tr.last);
        CHECK(tr.last < kt_halftours_count(h));      /* and the fold kept fewer */
        CHECK(kt_options_set_trace(o, NULL, NULL) == KT_OK);
        kt_halftours_free(h);
        h = NULL;
        /* A budget of the widest layer passes, one less does not. */
        CHECK(kt_options_set_budget(o, tr.max) == KT_OK);
        CHECK(kt_halftours_enumerate(&h, 6, 3, 3, o) == KT_OK);
        kt_halftours *e = (kt_halftours *)1;
        CHECK(kt_options_set_budget(o, tr.max - 1) == KT_OK);
        CHECK(kt_halftours_enumerate(&e, 6, 3, 3, o) == KT_ELIMIT);
        CHECK(e == NULL);
        /* The join: one pairing per type is too few for 6x6, many are plenty. */
        kt_u128 n = {0, 0};
        CHECK(kt_options_set_budget(o, 1) == KT_OK);
        CHECK(kt_halftours_join(h, h, o, &n) == KT_ELIMIT);
        CHECK(kt_options_set_budget(o, 1u << 20) == KT_OK);
        CHECK(kt_halftours_join(h, h, o, &n) == KT_OK);
        CHECK(u128_is(n, 9862));
        kt_halftours_free(h);
        kt_options_free(o);
    }
}

/* ---- allocation failures ---- */

/* Counts allocations and frees; fails allocation number fail_at (1-based;
 * 0 = never).  Atomic: worker threads allocate too. */
typedef struct counting {
    atomic_ulong allocs, frees, live;
    unsigned long fail_at;
} counting;

static void *counting_alloc(void *opaque, size_t size)
{
    counting *c = opaque;
    unsigned long k = atomic_fetch_add(&c->allocs, 1) + 1;
    if (c->fail_at != 0 && k == c->fail_at) return NULL;
    void *p = malloc(size ? size : 1);
    if (p != NULL) atomic_fetch_add(&c->live, 1);
    return p;
}

static void counting_free(void *opaque, void *p)
{
    counting *c = opaque;
    if (p == NULL) return;
    atomic_fetch_add(&c->frees, 1);
    atomic_fetch_sub(&c->live, 1);
    free(p);
}

enum { OP_ENUMERATE, OP_JOIN, OP_COUNT };

/* One small run with allocation fail_at failing; returns its status and
 * checks that nothing leaks and nothing is freed twice. */
static kt_status failing_run(int op, unsigned threads, unsigned long fail_at,
                             unsigned long *allocs)
{
    counting c;
    atomic_init(&c.allocs, 0);
    atomic_init(&c.frees, 0);
    atomic_init(&c.live, 0);
    c.fail_at = 0;
    kt_allocator al = {counting_alloc, counting_free, &c};
    kt_options *o = NULL;
    CHECK(kt_options_new(&o, &al) == KT_OK);
    CHECK(kt_options_set_threads(o, threads) == KT_OK);
    /* The half to join is made before the failures start. */
    kt_halftours *half = NULL;
    if (op == OP_JOIN) CHECK(kt_halftours_enumerate(&half, 4, 3, 3, o) == KT_OK);
    unsigned long before = atomic_load(&c.allocs);
    c.fail_at = fail_at == 0 ? 0 : before + fail_at;
    kt_status rc = KT_OK;
    kt_u128 n = {0, 0};
    if (op == OP_ENUMERATE) {
        kt_halftours *h = NULL;
        rc = kt_halftours_enumerate(&h, 4, 3, 3, o);
        CHECK((rc == KT_OK) == (h != NULL));
        /* The set frees through the allocator it was made with, after the
         * options are gone. */
        kt_options_free(o);
        o = NULL;
        kt_halftours_free(h);
    } else if (op == OP_JOIN) {
        rc = kt_halftours_join(half, half, o, &n);
        if (rc == KT_OK) CHECK(u128_is(n, 0)); /* 4x6 has no closed tour */
    } else {
        rc = kt_halftours_count_closed(6, 6, 3, o, &n);
        if (rc == KT_OK) CHECK(u128_is(n, 9862));
    }
    kt_halftours_free(half);
    kt_options_free(o);
    CHECK(rc == KT_OK || rc == KT_ENOMEM);
    CHECK(atomic_load(&c.live) == 0);
    CHECK(atomic_load(&c.allocs) == atomic_load(&c.frees) + (c.fail_at != 0 &&
                                                             atomic_load(&c.allocs) >= c.fail_at));
    if (allocs != NULL) *allocs = atomic_load(&c.allocs) - before;
    if (rc != KT_OK && rc != KT_ENOMEM)
        fprintf(stderr, "op %d threads %u fail at %lu: %s\n", op, threads, fail_at,
                kt_status_name(rc));
    return rc;
}

static void test_allocation_failures(void)
{
    for (int op = OP_ENUMERATE; op <= OP_COUNT; op++)
        for (unsigned threads = 1; threads <= 2; threads++) {
            unsigned long total = 0;
            CHECK(failing_run(op, threads, 0, &total) == KT_OK);
            CHECK(total > 0);
            /* Every allocation of the run fails once; with one thread the
             * order is fixed, so every failure must be reported. */
            unsigned long failed = 0;
            for (unsigned long k = 1; k <= total; k++)
                failed += failing_run(op, threads, k, NULL) == KT_ENOMEM;
            if (threads == 1) CHECK(failed == total);
            else CHECK(failed >= 1);
        }
}

int main(void)
{
    /* Half-tours: (width, depth, other depth). */
    static const int halves[][3] = {
        {1, 1, 1}, {3, 1, 2}, {4, 2, 2}, {5, 2, 1}, {4, 3, 3}, {5, 3, 3}, {6, 3, 3},
        {5, 4, 2}, {3, 5, 5}, {4, 4, 1}, {6, 2, 4}, {2, 3, 3}, {7, 2, 2},
    };
    for (size_t i = 0; i < sizeof halves / sizeof halves[0]; i++)
        test_enumeration_vs_brute(halves[i][0], halves[i][1], halves[i][2]);

    /* Closed tours, every split, against depth-first search. */
    static const int boards[][2] = {
        {3, 4}, {4, 3}, {5, 4}, {4, 5}, {5, 5}, {5, 6}, {3, 10}, {3, 12}, {6, 4}, {7, 3},
    };
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++)
        test_join_vs_brute(boards[i][0], boards[i][1]);

    /* 6x6: the published 9,862 (the brute-force boards cover other splits). */
    kt_u128 n = {0, 1};
    kt_options *two = with_threads(2);
    CHECK(kt_halftours_count_closed(6, 6, 3, two, &n) == KT_OK);
    CHECK(u128_is(n, 9862));
    /* 7x6, the published 1,067,638: equal halves of 10,511 types, enough
     * for the join's order of types by size under the up-down flip and its
     * prefix levels to matter. */
    CHECK(kt_halftours_count_closed(7, 6, 3, two, &n) == KT_OK);
    CHECK(u128_is(n, 1067638));
    kt_options_free(two);

    test_unequal_halves(5, 8, 44202);
    test_unequal_halves(6, 7, 1067638);

    test_compat();
    test_api();
    test_shards();
    test_threads();
    test_cancel();
    test_budget_and_trace();
    test_allocation_failures();
    return check_done("halftour");
}
