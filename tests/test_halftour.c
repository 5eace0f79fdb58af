/* SPDX-License-Identifier: MIT */
/*
 * Tests of the half-tour module against independent brute force:
 *  - half-tours of small halves enumerated edge by edge, grouped by path
 *    structure, compared structure by structure with kt_halftours_find();
 *  - closed tours of small boards counted by a plain depth-first search,
 *    compared with McKay's join for every split; 6x6 = 9,862;
 *  - McKay's type compatibility against all sets of rank 4-6 steps;
 *  - threads, cancellation and argument checks.
 */
#include <knight/knight.h>

#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


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
        CHECK(kt_halftours_enumerate(&h, (uint32_t)W, (uint32_t)D, (uint32_t)O, threads, NULL,
                                     NULL) == KT_OK);
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

static void test_join_vs_brute(int W, int H)
{
    uint64_t want = brute_closed(W, H);
    for (int split = 1; split < H; split++) {
        uint64_t hi = 1, lo = 1;
        kt_status rc = kt_halftours_count_closed((uint32_t)W, (uint32_t)H, (uint32_t)split,
                                                 (unsigned)(1 + split % 2), NULL, NULL, &hi, &lo);
        CHECK(rc == KT_OK);
        if (rc != KT_OK || hi != 0 || lo != want)
            fprintf(stderr, "%dx%d split %d: join %llu brute %llu (%s)\n", W, H, split,
                    (unsigned long long)lo, (unsigned long long)want, kt_strerror(rc));
        CHECK(hi == 0 && lo == want);
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
                CHECK(kt_halftours_types_compatible((uint32_t)W, a, b) == brute_compat(W, a, b));
            }
    }
    uint8_t bad[2] = {3, 0}, ok[2] = {0, 0};
    CHECK(kt_halftours_types_compatible(2, bad, ok) == 0);
    CHECK(kt_halftours_types_compatible(9, ok, ok) == 0);
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
    CHECK(kt_halftours_enumerate(&h, 0, 3, 3, 1, NULL, NULL) == KT_EINVAL);
    CHECK(h == NULL);
    CHECK(kt_halftours_enumerate(&h, 9, 3, 3, 1, NULL, NULL) == KT_EUNSUPPORTED);
    CHECK(kt_halftours_enumerate(NULL, 4, 3, 3, 1, NULL, NULL) == KT_EINVAL);
    kt_halftours_free(NULL);
    uint64_t hi, lo;
    CHECK(kt_halftours_count_closed(6, 6, 0, 1, NULL, NULL, &hi, &lo) == KT_EINVAL);
    CHECK(kt_halftours_count_closed(6, 6, 6, 1, NULL, NULL, &hi, &lo) == KT_EINVAL);

    CHECK(kt_halftours_enumerate(&h, 6, 3, 3, 2, NULL, NULL) == KT_OK);
    kt_halftour_stats st;
    CHECK(kt_halftours_stats(h, &st) == KT_OK);
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
    uint32_t w, d, o;
    kt_halftours_geometry(h, &w, &d, &o);
    CHECK(w == 6 && d == 3 && o == 3);

    /* Join of a half with itself; mismatched halves. */
    CHECK(kt_halftours_join(h, h, 2, NULL, NULL, &hi, &lo) == KT_OK);
    CHECK(hi == 0 && lo == 9862);
    kt_halftours *g = NULL;
    CHECK(kt_halftours_enumerate(&g, 6, 2, 3, 1, NULL, NULL) == KT_OK);
    CHECK(kt_halftours_join(h, g, 1, NULL, NULL, &hi, &lo) == KT_EMISMATCH);
    kt_halftours_free(g);

    /* Shards sum to the whole. */
    uint64_t sum = 0;
    for (uint32_t i = 0; i < 5; i++) {
        CHECK(kt_halftours_join_shard(h, h, i, 5, 1 + i % 2, NULL, NULL, &hi, &lo) == KT_OK);
        CHECK(hi == 0);
        sum += lo;
    }
    CHECK(sum == 9862);
    CHECK(kt_halftours_join_shard(h, h, 5, 5, 1, NULL, NULL, &hi, &lo) == KT_EINVAL);
    CHECK(kt_halftours_join_shard(h, h, 0, 0, 1, NULL, NULL, &hi, &lo) == KT_EINVAL);

    int calls = 0;
    CHECK(kt_halftours_join(h, h, 1, cancel_at_once, &calls, &hi, &lo) == KT_ECANCELED);
    CHECK(calls >= 1);
    kt_halftours_free(h);
    calls = 0;
    h = (kt_halftours *)1;
    CHECK(kt_halftours_enumerate(&h, 6, 3, 3, 2, cancel_at_once, &calls) == KT_ECANCELED);
    CHECK(h == NULL && calls >= 1);
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
    uint64_t hi = 1, lo = 0;
    CHECK(kt_halftours_count_closed(6, 6, 3, 2, NULL, NULL, &hi, &lo) == KT_OK);
    CHECK(hi == 0 && lo == 9862);

    test_compat();
    test_api();
    return check_done("halftour");
}
