/* SPDX-License-Identifier: MIT */
/* Exact move and relative-move distributions over all closed tours, by
 * enumeration and by a weighted frontier count (see exact_stats.h). */
#include "exact_stats.h"

#include <knight/knight.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ES_MAX_CELLS 64

/* The board as neighbour lists in Parberry's move numbering, taken from
 * the library's graph so that both methods read moves as kt_tourney does. */
typedef struct board {
    uint32_t w, h, n;
    int dx[8], dy[8];
    int nb[ES_MAX_CELLS][8]; /* neighbour by move, -1 off the board */
} board;

static int board_init(board *B, uint32_t w, uint32_t h)
{
    kt_graph *g = NULL;
    if (w == 0 || h == 0 || (uint64_t)w * h > ES_MAX_CELLS || kt_graph_new(&g, w, h) != KT_OK)
        return -1;
    B->w = w;
    B->h = h;
    B->n = w * h;
    for (int m = 0; m < 8; m++) {
        B->dx[m] = kt_graph_move_dx(g, m);
        B->dy[m] = kt_graph_move_dy(g, m);
    }
    for (uint32_t c = 0; c < B->n; c++)
        for (int m = 0; m < 8; m++) {
            kt_cell d = kt_graph_neighbor(g, c, m);
            B->nb[c][m] = d == KT_CELL_NONE ? -1 : (int)d;
        }
    kt_graph_free(g);
    return 0;
}

/* ---- method 1: enumeration ------------------------------------------------
 * avail[u] counts u's neighbours that can still be a tour neighbour of u:
 * unvisited cells, the head and the start.  Every unvisited cell needs two;
 * one that has exactly two, one being the head, must be the next cell. */

typedef struct enumer {
    board B;
    int path[ES_MAX_CELLS], mv[ES_MAX_CELLS];
    uint8_t visited[ES_MAX_CELLS], avail[ES_MAX_CELLS];
    es_totals *out;
    es_tour_fn each;
    void *ctx;
} enumer;

static void enum_record(enumer *E, int last_move)
{
    uint32_t n = E->B.n;
    uint64_t mv[8] = {0}, rl[8] = {0};
    E->mv[n - 1] = last_move;
    for (uint32_t i = 0; i < n; i++) {
        mv[E->mv[i]]++;
        rl[(E->mv[(i + 1) % n] - E->mv[i]) & 7]++;
    }
    /* the search meets every tour once in each direction */
    for (int k = 0; k < 8; k++) {
        E->out->moves[k] += mv[k];
        E->out->relative[k] += rl[k];
    }
    E->out->tours++;
    if (E->each && E->path[1] < E->path[n - 1]) {
        uint64_t m2[8], r2[8];
        for (int k = 0; k < 8; k++) {
            m2[k] = mv[k] + mv[(k + 4) & 7];
            r2[k] = rl[k] + rl[(8 - k) & 7];
        }
        E->each(E->ctx, m2, r2);
    }
}

static int enum_forced(const enumer *E, int head)
{
    int forced = -1;
    for (int m = 0; m < 8; m++) {
        int u = E->B.nb[head][m];
        if (u < 0 || E->visited[u] || E->avail[u] != 2) continue;
        if (forced >= 0) return -2; /* two cells both need the head next */
        forced = m;
    }
    return forced;
}

static void enum_rec(enumer *E, uint32_t len)
{
    int head = E->path[len - 1];
    if (len == E->B.n) {
        for (int m = 0; m < 8; m++)
            if (E->B.nb[head][m] == 0) enum_record(E, m);
        return;
    }
    int forced = enum_forced(E, head);
    if (forced == -2) return;
    for (int m = 0; m < 8; m++) {
        int u = E->B.nb[head][m];
        if (u < 0 || E->visited[u] || (forced >= 0 && m != forced)) continue;
        bool ok = true;
        /* the head becomes an interior cell (the start never does) */
        for (int k = 0; k < 8 && head != 0; k++) {
            int z = E->B.nb[head][k];
            if (z < 0) continue;
            E->avail[z]--;
            if (z != u && !E->visited[z] && E->avail[z] < 2) ok = false;
        }
        E->visited[u] = 1;
        E->path[len] = u;
        E->mv[len - 1] = m;
        if (ok) enum_rec(E, len + 1);
        E->visited[u] = 0;
        for (int k = 0; k < 8 && head != 0; k++)
            if (E->B.nb[head][k] >= 0) E->avail[E->B.nb[head][k]]++;
    }
}

int es_enumerate(uint32_t width, uint32_t height, es_totals *out, es_tour_fn each, void *ctx)
{
    enumer *E = calloc(1, sizeof *E);
    if (E == NULL || board_init(&E->B, width, height) != 0) {
        free(E);
        return -1;
    }
    memset(out, 0, sizeof *out);
    E->out = out;
    E->each = each;
    E->ctx = ctx;
    for (uint32_t c = 0; c < E->B.n; c++)
        for (int m = 0; m < 8; m++) E->avail[c] += E->B.nb[c][m] >= 0;
    E->visited[0] = 1;
    E->path[0] = 0;
    if (E->B.n >= 2) enum_rec(E, 1);
    out->tours /= 2;
    free(E);
    return 0;
}

/* ---- method 2: the weighted frontier count ---------------------------------
 * Cells are taken in row-major order.  Cell c decides its edges to later
 * cells (moves 4-7, which go down); the window holds cells c .. c+2W+1, the
 * farthest such edge.  A window cell's code: 0 = no edge yet, 1 = both
 * edges (finished), else 2 + 8*label + m for a path end whose one edge
 * leaves it by move m, the label pairing the two ends of each path.  A
 * finished cell's turn is known the moment its second edge is laid, so
 * the statistic is added then: a state's value is the number of partial
 * covers reaching it and the sum of their statistics so far, and a step
 * that adds weight vector w to a state of count k adds k*w to the sums. */

#define ES_MAXL 32
#define ES_NEWLABEL 20

typedef struct val {
    uint64_t cnt, mv[8], rl[8];
} val;

typedef struct layer {
    size_t n, cap, slots;   /* states, room, hash slots (a power of two) */
    uint32_t L;
    uint8_t *keys;
    val *vals;
    size_t *slot;           /* state index + 1, 0 = empty */
} layer;

static void layer_free(layer *Y)
{
    free(Y->keys);
    free(Y->vals);
    free(Y->slot);
    memset(Y, 0, sizeof *Y);
}

static uint64_t key_hash(const uint8_t *k, uint32_t L)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < L; i++) h = (h ^ k[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

static int layer_rehash(layer *Y, size_t slots)
{
    size_t *s = calloc(slots, sizeof *s);
    if (s == NULL) return -1;
    for (size_t i = 0; i < Y->n; i++) {
        size_t j = key_hash(Y->keys + i * Y->L, Y->L) & (slots - 1);
        while (s[j]) j = (j + 1) & (slots - 1);
        s[j] = i + 1;
    }
    free(Y->slot);
    Y->slot = s;
    Y->slots = slots;
    return 0;
}

static int layer_grow(layer *Y)
{
    size_t cap = Y->cap ? Y->cap * 2 : 1024;
    uint8_t *k = realloc(Y->keys, cap * Y->L);
    if (k == NULL) return -1;
    Y->keys = k;
    val *v = realloc(Y->vals, cap * sizeof *v);
    if (v == NULL) return -1;
    Y->vals = v;
    Y->cap = cap;
    return layer_rehash(Y, cap * 2);
}

/* The value of key k in layer Y, made (zero) if new; NULL when out of memory. */
static val *layer_get(layer *Y, const uint8_t *k)
{
    if (Y->n == Y->cap && layer_grow(Y) != 0) return NULL;
    size_t j = key_hash(k, Y->L) & (Y->slots - 1);
    while (Y->slot[j]) {
        size_t i = Y->slot[j] - 1;
        if (memcmp(Y->keys + i * Y->L, k, Y->L) == 0) return &Y->vals[i];
        j = (j + 1) & (Y->slots - 1);
    }
    memcpy(Y->keys + Y->n * Y->L, k, Y->L);
    memset(&Y->vals[Y->n], 0, sizeof(val));
    Y->slot[j] = ++Y->n;
    return &Y->vals[Y->n - 1];
}

static void add_scaled(val *dst, const val *src, const val *w)
{
    dst->cnt += src->cnt;
    for (int k = 0; k < 8; k++) {
        dst->mv[k] += src->mv[k] + src->cnt * w->mv[k];
        dst->rl[k] += src->rl[k] + src->cnt * w->rl[k];
    }
}

/* A cell's turn once both its edges are known: leaving it by m1 and m2,
 * it is entered by m1+4 and left by m2 one way, the reverse the other. */
static void add_turn(val *w, int m1, int m2)
{
    int r = (m2 - m1 - 4) & 7;
    w->rl[r]++;
    w->rl[(8 - r) & 7]++;
}

/* Lays the edge from window position 0 to position p by move m (from 0).
 * Returns -1 when a cell would get a third edge, 1 when it closes a cycle. */
static int lay_edge(uint8_t *k, uint32_t L, uint32_t p, int m, val *w)
{
    uint8_t ca = k[0], cb = k[p];
    int mb = (m + 4) & 7;
    if (ca == 1 || cb == 1) return -1;
    w->mv[m]++;
    w->mv[mb]++;
    if (ca == 0 && cb == 0) {
        k[0] = (uint8_t)(2 + 8 * ES_NEWLABEL + m);
        k[p] = (uint8_t)(2 + 8 * ES_NEWLABEL + mb);
        return 0;
    }
    if (ca == 0 || cb == 0) {
        uint32_t end = ca ? 0 : p, fresh = ca ? p : 0;
        int lab = (k[end] - 2) / 8, mend = ca ? m : mb;
        add_turn(w, (k[end] - 2) % 8, mend);
        k[fresh] = (uint8_t)(2 + 8 * lab + (ca ? mb : m));
        k[end] = 1;
        return 0;
    }
    int la = (ca - 2) / 8, lb = (cb - 2) / 8;
    add_turn(w, (ca - 2) % 8, m);
    add_turn(w, (cb - 2) % 8, mb);
    k[0] = k[p] = 1;
    if (la == lb) return 1;
    for (uint32_t i = 0; i < L; i++) /* the far end of b's path joins a's */
        if (k[i] >= 2 && (k[i] - 2) / 8 == lb) k[i] = (uint8_t)(2 + 8 * la + (k[i] - 2) % 8);
    return 0;
}

/* Labels renumbered by first appearance, so equal situations share a key. */
static void normalise(uint8_t *k, uint32_t L)
{
    int map[32];
    int next = 0;
    for (int i = 0; i < 32; i++) map[i] = -1;
    for (uint32_t i = 0; i < L; i++) {
        if (k[i] < 2) continue;
        int lab = (k[i] - 2) / 8;
        if (map[lab] < 0) map[lab] = next++;
        k[i] = (uint8_t)(2 + 8 * map[lab] + (k[i] - 2) % 8);
    }
}

typedef struct dp {
    board B;
    uint32_t L;
    layer cur, nxt;
    val result;
    size_t max_states, peak;
} dp;

/* A cycle closed at cell c is the tour when nothing else is left open. */
static bool closes_tour(const dp *D, uint32_t c, const uint8_t *k)
{
    if (c + D->L < D->B.n) return false;
    for (uint32_t i = 0; i < D->L && c + i < D->B.n; i++)
        if (k[i] != 1) return false;
    return true;
}

/* Whether every open cell of window k (starting at cell c, the next to
 * be processed) can still get its two edges: from cells not yet processed
 * that are not finished.  Dropping the rest keeps the layers small. */
static bool viable(const dp *D, uint32_t c, const uint8_t *k)
{
    for (uint32_t i = 0; i < D->L && c + i < D->B.n; i++) {
        if (k[i] == 1) continue;
        int room = k[i] == 0 ? 2 : 1;
        uint32_t u = c + i;
        for (int m = 0; m < 8 && room > 0; m++) {
            int v = D->B.nb[u][m];
            if (v < (int)c) continue;
            uint32_t j = (uint32_t)v - c;
            if (j >= D->L || k[j] != 1) room--;
        }
        if (room > 0) return false;
    }
    return true;
}

/* One subset of cell c's forward edges applied to one state. */
static int apply(dp *D, uint32_t c, const uint8_t *key, const val *v, const uint32_t *pos,
                 const int *mv, int ne)
{
    uint8_t k[ES_MAXL + 1];
    val w;
    memset(&w, 0, sizeof w);
    memcpy(k, key, D->L);
    int closed = 0;
    for (int e = 0; e < ne; e++) {
        if (closed) return 0;
        closed = lay_edge(k, D->L, pos[e], mv[e], &w);
        if (closed < 0) return 0;
    }
    if (k[0] != 1) return 0;
    if (closed) {
        if (closes_tour(D, c, k)) add_scaled(&D->result, v, &w);
        return 0;
    }
    memmove(k, k + 1, D->L - 1);
    k[D->L - 1] = 0;
    if (!viable(D, c + 1, k)) return 0;
    normalise(k, D->L);
    val *dst = layer_get(&D->nxt, k);
    if (dst == NULL) return -1;
    add_scaled(dst, v, &w);
    return 0;
}

static int step_cell(dp *D, uint32_t c)
{
    uint32_t pos[4] = {0};
    int mv[4] = {0}, nt = 0;
    for (int m = 4; m < 8; m++)
        if (D->B.nb[c][m] >= 0) {
            pos[nt] = (uint32_t)(D->B.dy[m] * (int)D->B.w + D->B.dx[m]);
            mv[nt++] = m;
        }
    for (size_t s = 0; s < D->cur.n; s++) {
        const uint8_t *key = D->cur.keys + s * D->L;
        const val *v = &D->cur.vals[s];
        int need = key[0] == 0 ? 2 : key[0] == 1 ? 0 : 1;
        /* every set of `need` forward edges: the pairs a < b, or single a */
        for (int a = 0; a < (need ? nt : 1); a++)
            for (int b = a + (need == 2); b < (need == 2 ? nt : a + 1); b++) {
                uint32_t p2[2] = {pos[a], pos[b]};
                int m2[2] = {mv[a], mv[b]};
                if (apply(D, c, key, v, p2, m2, need) != 0) return -1;
            }
        if (D->max_states && D->nxt.n > D->max_states) return -1;
    }
    return 0;
}

int es_weighted_count(uint32_t width, uint32_t height, size_t max_states, es_totals *out,
                      size_t *peak_states)
{
    dp *D = calloc(1, sizeof *D);
    if (D == NULL) return -1;
    int rc = -1;
    if (width > 15 || board_init(&D->B, width, height) != 0) goto done;
    D->L = 2 * width + 2;
    D->max_states = max_states;
    D->cur.L = D->nxt.L = D->L;
    uint8_t zero[ES_MAXL] = {0};
    val *v0 = layer_get(&D->cur, zero);
    if (v0 == NULL) goto done;
    v0->cnt = 1;
    for (uint32_t c = 0; c < D->B.n; c++) {
        if (step_cell(D, c) != 0) goto done;
        if (D->nxt.n > D->peak) D->peak = D->nxt.n;
        layer t = D->cur;
        D->cur = D->nxt;
        D->nxt = t;
        D->nxt.n = 0;
        if (D->nxt.slot) memset(D->nxt.slot, 0, D->nxt.slots * sizeof *D->nxt.slot);
    }
    out->tours = D->result.cnt;
    memcpy(out->moves, D->result.mv, sizeof out->moves);
    memcpy(out->relative, D->result.rl, sizeof out->relative);
    if (peak_states) *peak_states = D->peak;
    rc = 0;
done:
    layer_free(&D->cur);
    layer_free(&D->nxt);
    free(D);
    return rc;
}

/* ---- frequencies and distances ------------------------------------------ */

void es_frequencies(const es_totals *t, uint32_t cells, double moves[8], double relative[8])
{
    double total = 2.0 * (double)t->tours * (double)cells;
    for (int k = 0; k < 8; k++) {
        moves[k] = total > 0 ? (double)t->moves[k] / total : 0.0;
        relative[k] = total > 0 ? (double)t->relative[k] / total : 0.0;
    }
}

void es_both_directions(const uint64_t moves[8], const uint64_t relative[8], double mfreq[8],
                        double rfreq[8])
{
    uint64_t n = 0, nr = 0;
    for (int k = 0; k < 8; k++) {
        n += moves[k];
        nr += relative[k];
    }
    for (int k = 0; k < 8; k++) {
        mfreq[k] = n ? (double)(moves[k] + moves[(k + 4) & 7]) / (2.0 * (double)n) : 0.0;
        rfreq[k] = nr ? (double)(relative[k] + relative[(8 - k) & 7]) / (2.0 * (double)nr) : 0.0;
    }
}

double es_tv(const double *p, const double *q, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++) s += p[i] > q[i] ? p[i] - q[i] : q[i] - p[i];
    return s / 2.0;
}
