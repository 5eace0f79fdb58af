/* SPDX-License-Identifier: MIT */
/*
 * gen_blocks: precomputes the small knight's tours and paths ("blocks") that
 * lib/generate/blocks.c tiles into closed and open tours of any size, and writes
 * them as C source (lib/generate/blocks_data.c).
 *
 *   ninja -C build gen-blocks-data
 *
 * builds it and rewrites lib/generate/blocks_data.c in the source tree (by
 * hand: cc -O2 -o gen_blocks tools/gen_blocks.c && ./gen_blocks >
 * lib/generate/blocks_data.c).  The test blocks-data checks that the
 * committed file is what this program writes.  It runs for about 25 s of
 * CPU time.
 *
 * The search is a randomized depth-first search with Warnsdorff ordering,
 * dead-cell pruning, required edges and restarts; it is deterministic (fixed
 * seeds), so rerunning the program reproduces the file byte for byte.
 * tests/test_gen_blocks.c re-validates every block of the generated file.
 *
 * Block kinds (local coordinates, x right, y down; moves numbered as in
 * include/knight/graph.h):
 *  - KTI_BLK_CYCLE (w, h in 5..10, not both odd): a closed tour containing
 *    the four rail edges L = (0,1)-(1,3), R = (w-2,0)-(w-1,2),
 *    U = (1,0)-(3,1) and D = (0,h-2)-(2,h-1).  Blocks side by side merge by
 *    switching the rail {R of the left block, L of the right block}; blocks
 *    one above the other by switching {D of the upper, U of the lower}.
 *  - KTI_BLK_CYC3 (3 x k): a closed tour (it always contains the edge
 *    (0,0)-(1,2), forced by the corner).
 *  - KTI_BLK_PATH3 (3 x k): a Hamiltonian path from (k-1,2) or (k-2,1) to
 *    (k-1,1), which both are a knight's move from (0,0) and (1,2) of the next
 *    block: the path replaces that block's edge (0,0)-(1,2).
 *  - KTI_BLK_ODD (w, h odd): a Hamiltonian path with an end in column 0,
 *    param = the other end (its start cell), one per majority-colour start.
 *  - KTI_BLK_OPEN (small boards without a closed tour): an open tour.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 128

static const int DX[8] = {2, 1, -1, -2, -2, -1, 1, 2};
static const int DY[8] = {-1, -2, -2, -1, 1, 2, 2, 1};

typedef struct {
    int w, h, n, cycle;
    int nb[MAXC][8], nbm[MAXC][8], nnb[MAXC];
    int req[MAXC][2], nreq[MAXC];
    int start;                 /* fixed first cell (always fixed) */
    uint8_t endok[MAXC];       /* path mode: allowed last cells */
    int path[MAXC], pos[MAXC];
    uint8_t vis[MAXC];
    uint64_t nodes, limit, rng;
} S;

static uint64_t rnd(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static void setup(S *s, int w, int h, int cycle)
{
    memset(s, 0, sizeof *s);
    s->w = w; s->h = h; s->n = w * h; s->cycle = cycle;
    for (int c = 0; c < s->n; c++) {
        int x = c % w, y = c / w;
        for (int m = 0; m < 8; m++) {
            int X = x + DX[m], Y = y + DY[m];
            if (X < 0 || Y < 0 || X >= w || Y >= h) continue;
            s->nb[c][s->nnb[c]] = Y * w + X;
            s->nbm[c][s->nnb[c]++] = m;
        }
    }
}

static int adj(const S *s, int a, int b)
{
    for (int i = 0; i < s->nnb[a]; i++) if (s->nb[a][i] == b) return 1;
    return 0;
}

static int require(S *s, int x1, int y1, int x2, int y2)
{
    int a = y1 * s->w + x1, b = y2 * s->w + x2;
    if (x1 < 0 || x2 < 0 || y1 < 0 || y2 < 0 || x1 >= s->w || x2 >= s->w || y1 >= s->h || y2 >= s->h) return 0;
    if (!adj(s, a, b)) return 0;
    for (int i = 0; i < s->nreq[a]; i++) if (s->req[a][i] == b) return 1;
    if (s->nreq[a] >= 2 || s->nreq[b] >= 2) return 0;
    s->req[a][s->nreq[a]++] = b;
    s->req[b][s->nreq[b]++] = a;
    return 1;
}

static int final_ok(S *s, int cur)
{
    if (s->cycle && !adj(s, cur, s->start)) return 0;
    if (!s->cycle && !s->endok[cur]) return 0;
    for (int i = 0; i < s->n; i++) s->pos[s->path[i]] = i;
    for (int c = 0; c < s->n; c++)
        for (int k = 0; k < s->nreq[c]; k++) {
            int d = abs(s->pos[c] - s->pos[s->req[c][k]]);
            if (d != 1 && !(s->cycle && d == s->n - 1)) return 0;
        }
    return 1;
}

static int avail(const S *s, int x, int end)
{
    int a = 0;
    for (int i = 0; i < s->nnb[x]; i++) {
        int y = s->nb[x][i];
        if (!s->vis[y] || y == end || (s->cycle && y == s->start)) a++;
    }
    return a;
}

static int dfs(S *s, int depth)
{
    int cur = s->path[depth - 1];
    if (++s->nodes > s->limit) return -1;
    if (depth == s->n) return final_ok(s, cur);
    int prev = depth >= 2 ? s->path[depth - 2] : -1;
    int forced = -1;
    if (!(s->cycle && depth == 1)) {
        for (int k = 0; k < s->nreq[cur]; k++) {
            int r = s->req[cur][k];
            if (r == prev) continue;
            if (s->vis[r]) return 0;
            if (forced >= 0) return 0;
            forced = r;
        }
    }
    int cand[8], key[8], nc = 0;
    for (int i = 0; i < s->nnb[cur]; i++) {
        int c = s->nb[cur][i];
        if (s->vis[c]) continue;
        if (forced >= 0 && c != forced) continue;
        int bad = 0, hit = 0;
        for (int k = 0; k < s->nreq[c]; k++) {
            int r = s->req[c][k];
            if (r == cur) { hit = 1; continue; }
            if (s->vis[r] && !(s->cycle && r == s->start && depth + 1 == s->n)) bad = 1;
        }
        if (s->nreq[c] == 2 && !hit && !(s->cycle && depth + 1 == s->n)) bad = 1;
        if (bad) continue;
        int onward = 0;
        for (int j = 0; j < s->nnb[c]; j++) onward += !s->vis[s->nb[c][j]];
        cand[nc] = c;
        key[nc++] = onward * 64 + (int)(rnd(&s->rng) & 63);
    }
    for (int i = 1; i < nc; i++)
        for (int j = i; j > 0 && key[j] < key[j - 1]; j--) {
            int t = key[j]; key[j] = key[j - 1]; key[j - 1] = t;
            t = cand[j]; cand[j] = cand[j - 1]; cand[j - 1] = t;
        }
    for (int i = 0; i < nc; i++) {
        int c = cand[i];
        s->vis[c] = 1;
        s->path[depth] = c;
        int ok = 1;
        if (depth + 1 < s->n) {
            for (int j = 0; j < s->nnb[cur] && ok; j++) {
                int x = s->nb[cur][j];
                if (s->vis[x]) continue;
                int need = (!s->cycle && s->endok[x]) ? 1 : 2;
                if (avail(s, x, c) < need) ok = 0;
            }
        }
        if (ok) {
            int r = dfs(s, depth + 1);
            if (r != 0) {
                if (r < 0) s->vis[c] = 0;
                return r;
            }
        }
        s->vis[c] = 0;
    }
    return 0;
}

/* Run restarts until found; returns 1 and fills mv. */
static int solve(S *s, uint64_t seed, uint64_t limit, int tries, uint8_t *mv)
{
    s->rng = seed;
    for (int t = 0; t < tries; t++) {
        memset(s->vis, 0, sizeof s->vis);
        s->vis[s->start] = 1;
        s->path[0] = s->start;
        s->nodes = 0;
        s->limit = limit;
        int r = dfs(s, 1);
        if (r == 1) {
            memset(mv, 0xFF, (size_t)s->n);
            int len = s->n;
            for (int i = 0; i < len; i++) {
                int a = s->path[i], b;
                if (i + 1 < len) b = s->path[i + 1];
                else if (s->cycle && len > 1) b = s->path[0];
                else break;
                int m = -1;
                for (int k = 0; k < s->nnb[a]; k++) if (s->nb[a][k] == b) m = s->nbm[a][k];
                int ms[2] = {m, (m + 4) & 7}, cs[2] = {a, b};
                for (int e = 0; e < 2; e++) {
                    uint8_t p = mv[cs[e]];
                    unsigned lo = p & 0xF;
                    if (lo == 0xF) mv[cs[e]] = (uint8_t)(0xF0 | ms[e]);
                    else if ((unsigned)ms[e] < lo) mv[cs[e]] = (uint8_t)((lo << 4) | (unsigned)ms[e]);
                    else mv[cs[e]] = (uint8_t)(((unsigned)ms[e] << 4) | lo);
                }
            }
            return 1;
        }
        if (r == 0 && t == 0 && limit == 0) return 0;
    }
    return 0;
}

/* ---- output ---- */
typedef struct { int kind, w, h, param; uint8_t mv[MAXC]; } Rec;
static Rec recs[4096];
static int nrecs;

enum { BLK_CYCLE, BLK_CYC3, BLK_PATH3, BLK_ODD, BLK_OPEN };
static const char *kind_name[] = {"KTI_BLK_CYCLE", "KTI_BLK_CYC3", "KTI_BLK_PATH3", "KTI_BLK_ODD",
                                  "KTI_BLK_OPEN"};

static int add(int kind, int w, int h, int param, const uint8_t *mv)
{
    for (int i = 0; i < nrecs; i++)
        if (recs[i].kind == kind && recs[i].w == w && recs[i].h == h && recs[i].param == param &&
            memcmp(recs[i].mv, mv, (size_t)(w * h)) == 0)
            return 0;
    Rec *r = &recs[nrecs++];
    r->kind = kind; r->w = w; r->h = h; r->param = param;
    memcpy(r->mv, mv, (size_t)(w * h));
    return 1;
}

static int want = 6;           /* variants per cycle block */
static int verbose = 0;

static void gen_cycle(int w, int h)
{
    S s;
    uint8_t mv[MAXC];
    int got = 0;
    for (int v = 0; v < want * 4 && got < want; v++) {
        setup(&s, w, h, 1);
        int ok = require(&s, 0, 1, 1, 3) & require(&s, w - 2, 0, w - 1, 2) &
                 require(&s, 1, 0, 3, 1) & require(&s, 0, h - 2, 2, h - 1);
        if (!ok) break;
        s.start = 0;
        if (solve(&s, 1000u * (uint64_t)(w * 16 + h) + (uint64_t)v, 200000, 200, mv)) got += add(BLK_CYCLE, w, h, 0, mv);
    }
    if (verbose) fprintf(stderr, "cycle %dx%d: %d\n", w, h, got);
}

static void gen_3row(int k)
{
    S s;
    uint8_t mv[MAXC];
    int got = 0;
    for (int v = 0; v < 40 && got < 3; v++) {
        setup(&s, k, 3, 1);
        s.start = 0;
        if (solve(&s, 7000u + (uint64_t)(k * 100 + v), 2000000, 20, mv)) got += add(BLK_CYC3, k, 3, 0, mv);
    }
    if (verbose) fprintf(stderr, "cyc3 3x%d: %d\n", k, got);
    got = 0;
    for (int v = 0; v < 40 && got < 3; v++) {
        setup(&s, k, 3, 0);
        s.start = (v & 1) ? 1 * k + (k - 2) : 2 * k + (k - 1);
        s.endok[1 * k + (k - 1)] = 1;
        if (solve(&s, 9000u + (uint64_t)(k * 100 + v), 2000000, 20, mv)) got += add(BLK_PATH3, k, 3, 0, mv);
    }
    if (verbose) fprintf(stderr, "path3 3x%d: %d\n", k, got);
}

/* Odd x odd block: for every majority-colour start, a path ending in column 0. */
static void gen_odd(int w, int h)
{
    S s;
    uint8_t mv[MAXC];
    int miss = 0;
    for (int c = 0; c < w * h; c++) {
        if (((c % w) + (c / w)) & 1) continue;
        setup(&s, w, h, 0);
        s.start = c;
        for (int y = 0; y < h; y++) s.endok[y * w] = 1;
        s.endok[c] = 0;
        if (solve(&s, 5000u + (uint64_t)(w * 1000 + h * 100 + c), 2000000, 30, mv)) add(BLK_ODD, w, h, c, mv);
        else miss++;
    }
    if (verbose) fprintf(stderr, "odd %dx%d: missing %d\n", w, h, miss);
}

static int gen_open(int w, int h)
{
    S s;
    uint8_t mv[MAXC];
    for (int c = 0; c < w * h; c++) {
        setup(&s, w, h, 0);
        s.start = c;
        memset(s.endok, 1, sizeof s.endok);
        s.endok[c] = 0;
        if (solve(&s, 3000u + (uint64_t)(w * 100 + h + c), 300000, 3, mv)) {
            add(BLK_OPEN, w, h, c, mv);
            if (verbose) fprintf(stderr, "open %dx%d from %d\n", w, h, c);
            return 1;
        }
    }
    if (verbose) fprintf(stderr, "open %dx%d: none\n", w, h);
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) if (strcmp(argv[i], "-v") == 0) verbose = 1;
    for (int w = 5; w <= 10; w++)
        for (int h = 5; h <= 10; h++)
            if (!((w & 1) && (h & 1))) gen_cycle(w, h);
    for (int k = 10; k <= 18; k += 2) gen_3row(k);
    for (int w = 5; w <= 9; w += 2)
        for (int h = 5; h <= 9; h += 2) gen_odd(w, h);
    /* Small boards with an open tour but no closed one that the tilings do not cover. */
    static const int small[][2] = {{4, 3}, {7, 3}, {8, 3}, {9, 3}, {11, 3}, {13, 3}, {15, 3}};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) gen_open(small[i][0], small[i][1]);

    printf("/* SPDX-License-Identifier: MIT */\n");
    printf("/* Generated by tools/gen_blocks.c; do not edit.  Re-validated by tests/test_gen_blocks.c. */\n");
    printf("#include \"generate_internal.h\"\n\n");
    printf("static const uint8_t blk_data[] = {\n");
    size_t off = 0;
    for (int i = 0; i < nrecs; i++) {
        int n = recs[i].w * recs[i].h;
        printf("    /* %d: %s %dx%d param %d, offset %zu */\n   ", i, kind_name[recs[i].kind], recs[i].w,
               recs[i].h, recs[i].param, off);
        for (int c = 0; c < n; c++) {
            printf(" 0x%02x,", recs[i].mv[c]);
            if (c % 16 == 15 && c + 1 < n) printf("\n   ");
        }
        printf("\n");
        off += (size_t)n;
    }
    printf("};\n\n");
    printf("const kti_block kti_blocks[] = {\n");
    off = 0;
    for (int i = 0; i < nrecs; i++) {
        printf("    {%s, %d, %d, %d, blk_data + %zu},\n", kind_name[recs[i].kind], recs[i].w, recs[i].h,
               recs[i].param, off);
        off += (size_t)(recs[i].w * recs[i].h);
    }
    printf("};\n\nconst size_t kti_block_count = %d;\n", nrecs);
    return 0;
}
