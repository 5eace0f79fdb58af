/* SPDX-License-Identifier: MIT */
/* Tourneys and tours: one byte per cell holding the two neighbour moves. */
#include "internal.h"

/* A bitmap of one bit per cell. */
static uint64_t *bits_new(const kt_graph *g)
{
    return kti_calloc(&g->alloc, g->ncells / 64 + 1, sizeof(uint64_t));
}
static inline bool bit_get(const uint64_t *b, size_t i) { return (b[i >> 6] >> (i & 63)) & 1u; }
static inline void bit_set(uint64_t *b, size_t i) { b[i >> 6] |= (uint64_t)1 << (i & 63); }

kt_status kti_tourney_alloc(kt_tourney **out, const kt_graph *g)
{
    kt_tourney *t = kti_alloc(&g->alloc, sizeof *t);
    if (t == NULL) return KT_ENOMEM;
    t->mv = kti_alloc(&g->alloc, g->ncells);
    if (t->mv == NULL) {
        kti_free(&g->alloc, t);
        return KT_ENOMEM;
    }
    memset(t->mv, KTI_PAIR_EMPTY, g->ncells);
    t->g = kti_graph_ref(g);
    t->shape = KT_SHAPE_CYCLES;
    t->size = 0;
    *out = t;
    return KT_OK;
}

void kt_tourney_free(kt_tourney *t)
{
    if (t == NULL) return;
    kt_graph *g = t->g;
    kti_free(&g->alloc, t->mv);
    kti_free(&g->alloc, t);
    kt_graph_free(g);
}

static inline unsigned pair_degree(uint8_t p)
{
    return ((p & 0xF) != KTI_NOMOVE) + ((p >> 4) != KTI_NOMOVE);
}

/* Debug builds check a tourney whole where it crosses the API (O(cells),
 * so only in getters that answer from stored state and in the walk that
 * every writer uses); release builds trust the bookkeeping. */
#ifndef NDEBUG
#define CHECK_TOURNEY(t) KTI_ASSERT(kti_tourney_consistent(t))
#else
#define CHECK_TOURNEY(t) ((void)0)
#endif

kt_status kti_tourney_walk(const kt_tourney *t, const kti_walker *w)
{
    const kt_graph *g = t->g;
    CHECK_TOURNEY(t);
    uint64_t *seen = bits_new(g);
    if (seen == NULL) return KT_ENOMEM;
    bool cycle = t->shape == KT_SHAPE_CYCLES;
    for (size_t s = 0; s < g->ncells; s++) {
        uint8_t p = t->mv[s];
        if (p == KTI_PAIR_EMPTY || bit_get(seen, s)) continue;
        if (!cycle && pair_degree(p) != 1) continue; /* paths start at their smaller end */
        kt_cell c = (kt_cell)s;
        unsigned out = p & 0xF;
        for (;;) {
            KTI_ASSERT(out < KT_MOVE_COUNT);
            bit_set(seen, c);
            if (w->edge) w->edge(w->ctx, c, (int)out);
            kt_cell d = (kt_cell)((int64_t)c + g->off[out]);
            if (d == (kt_cell)s) break;
            uint8_t q = t->mv[d];
            unsigned back = (out + 4) & 7;
            unsigned nxt = (q & 0xF) == back ? (unsigned)(q >> 4) : (q & 0xFu);
            if (nxt == KTI_NOMOVE) { /* end of the path */
                bit_set(seen, d);
                break;
            }
            c = d;
            out = nxt;
        }
        if (w->end) w->end(w->ctx, cycle);
    }
    kti_free(&g->alloc, seen);
    return KT_OK;
}


/* Count components with a bitmap; returns SIZE_MAX when out of memory. */
static size_t count_components(const kt_tourney *t)
{
    const kt_graph *g = t->g;
    uint64_t *seen = bits_new(g);
    if (seen == NULL) return SIZE_MAX;
    size_t count = 0;
    for (size_t s = 0; s < g->ncells; s++) {
        if (t->mv[s] == KTI_PAIR_EMPTY && !kti_is_vertex(g, s)) continue;
        if (bit_get(seen, s)) continue;
        count++;
        /* Walk both directions from s (a path may be entered in the middle). */
        bit_set(seen, s);
        for (int dir = 0; dir < 2; dir++) {
            uint8_t p = t->mv[s];
            unsigned m = dir ? (p >> 4) : (p & 0xF);
            if (m == KTI_NOMOVE) continue;
            kt_cell prev = (kt_cell)s, c = (kt_cell)((int64_t)s + g->off[m]);
            while (c != KT_CELL_NONE && !bit_get(seen, c)) {
                bit_set(seen, c);
                kt_cell n = kti_next(t, c, prev);
                prev = c;
                c = n;
            }
        }
    }
    kti_free(&g->alloc, seen);
    return count;
}

bool kti_sym_keeps(const kt_graph *g, unsigned sym)
{
    if (sym > 7 || ((sym & 4) && g->width != g->height)) return false;
    if (g->mask == NULL) return true;
    for (size_t c = 0; c < g->ncells; c++)
        if (g->mask[c] && !g->mask[kti_sym_cell(g, sym, (kt_cell)c)]) return false;
    return true;
}

void kti_tourney_map_sym(kt_tourney *t, unsigned sym, uint8_t *tmp)
{
    const kt_graph *g = t->g;
    KTI_ASSERT(kti_sym_keeps(g, sym));
    /* Each move number's image: the move of the mapped displacement (a
     * leaper's moves are closed under the board's symmetries). */
    uint8_t map[16];
    for (unsigned m = 0; m < 16; m++) map[m] = (uint8_t)m;
    for (unsigned m = 0; m < KT_MOVE_COUNT; m++) {
        int32_t dx = (sym & 1) ? -g->dx[m] : g->dx[m], dy = (sym & 2) ? -g->dy[m] : g->dy[m];
        if (sym & 4) {
            int32_t x = dx;
            dx = dy;
            dy = x;
        }
        map[m] = KTI_NOMOVE;
        for (unsigned k = 0; k < KT_MOVE_COUNT; k++)
            if (g->dx[k] == dx && g->dy[k] == dy) map[m] = (uint8_t)k;
        KTI_ASSERT(map[m] != KTI_NOMOVE);
    }
    for (size_t c = 0; c < g->ncells; c++) {
        uint8_t p = t->mv[c];
        unsigned lo = map[p & 0xF], hi = map[p >> 4];
        tmp[kti_sym_cell(g, sym, (kt_cell)c)] = (uint8_t)(lo < hi ? (hi << 4 | lo) : (lo << 4 | hi));
    }
    memcpy(t->mv, tmp, g->ncells);
}

kt_status kti_tourney_recount(kt_tourney *t)
{
    size_t count = count_components(t);
    if (count == SIZE_MAX) return KT_ENOMEM;
    t->size = count;
    return KT_OK;
}

/* Whether the pair of vertex c is well formed: moves 0-7 or none, the
 * lower first (kt_tourney_equal compares bytes), each move on the board
 * and returned by the neighbour; *deg receives the degree. */
static bool pair_consistent(const kt_tourney *t, size_t c, unsigned *deg)
{
    const kt_graph *g = t->g;
    uint8_t p = t->mv[c];
    unsigned lo = p & 0xF, hi = p >> 4;
    *deg = pair_degree(p);
    if ((lo > 7 && lo != KTI_NOMOVE) || (hi > 7 && hi != KTI_NOMOVE)) return false;
    if (lo > hi || (lo == hi && lo != KTI_NOMOVE)) return false;
    for (int k = 0; k < 2; k++) {
        unsigned m = k ? hi : lo;
        if (m == KTI_NOMOVE) continue;
        kt_cell d = kti_step(g, (kt_cell)c, (int)m);
        if (d == KT_CELL_NONE) return false;
        unsigned r = (m + 4) & 7;
        if ((t->mv[d] & 0xF) != r && (t->mv[d] >> 4) != r) return false;
    }
    return true;
}

bool kti_tourney_consistent(const kt_tourney *t)
{
    const kt_graph *g = t->g;
    size_t ends = 0;
    for (size_t c = 0; c < g->ncells; c++) {
        if (!kti_is_vertex(g, c)) {
            if (t->mv[c] != KTI_PAIR_EMPTY) return false;
            continue;
        }
        unsigned deg;
        if (!pair_consistent(t, c, &deg)) return false;
        if (deg == 0 && g->nverts > 1) return false;
        ends += deg == 1;
    }
    if (t->shape == KT_SHAPE_PATH ? ends != 2 : ends != 0) return false;
    size_t count = count_components(t);
    return count == SIZE_MAX || count == t->size; /* no memory: nothing to compare */
}

kt_status kti_tourney_finish(kt_tourney *t, kt_diag *diag)
{
    const kt_graph *g = t->g;
    size_t ends = 0, first_bad = SIZE_MAX;
    uint32_t x = 0, y = 0; /* coordinates of c, kept without division */
    for (size_t c = 0; c < g->ncells; c++, x = x + 1 == g->width ? (y++, 0) : x + 1) {
        uint8_t p = t->mv[c];
        if (!kti_is_vertex(g, c)) {
            if (p != KTI_PAIR_EMPTY) return kti_diag_bad(diag, KT_RULE_HOLE, c);
            continue;
        }
        unsigned lo = p & 0xF, hi = p >> 4;
        if ((lo != KTI_NOMOVE && lo > 7) || (hi != KTI_NOMOVE && hi > 7) ||
            (lo == KTI_NOMOVE && hi != KTI_NOMOVE) || (lo == hi && lo != KTI_NOMOVE))
            return kti_diag_bad(diag, KT_RULE_DEGREE, c);
        if (lo > hi) t->mv[c] = (uint8_t)((lo << 4) | hi);
        for (int k = 0; k < 2; k++) {
            unsigned m = k ? hi : lo;
            if (m == KTI_NOMOVE) continue;
            int64_t nx = (int64_t)x + g->dx[m], ny = (int64_t)y + g->dy[m];
            if (nx < 0 || ny < 0 || nx >= (int64_t)g->width || ny >= (int64_t)g->height)
                return kti_diag_bad(diag, KT_RULE_NOT_A_MOVE, c);
            kt_cell d = (kt_cell)((int64_t)c + g->off[m]);
            if (g->mask != NULL && !g->mask[d]) return kti_diag_bad(diag, KT_RULE_NOT_A_MOVE, c);
            uint8_t q = t->mv[d];
            unsigned r = (m + 4) & 7;
            if ((q & 0xF) != r && (q >> 4) != r) return kti_diag_bad(diag, KT_RULE_DEGREE, c);
        }
        unsigned deg = pair_degree(t->mv[c]);
        if (deg == 1) ends++;
        if (deg < 2 && first_bad == SIZE_MAX) first_bad = c;
        if (deg == 0 && g->nverts > 1) return kti_diag_bad(diag, KT_RULE_DEGREE, c);
    }
    if (ends != 0 && ends != 2) return kti_diag_bad(diag, KT_RULE_DEGREE, first_bad);
    t->shape = ends == 2 ? KT_SHAPE_PATH : KT_SHAPE_CYCLES;
    size_t count = count_components(t);
    if (count == SIZE_MAX) return KT_ENOMEM;
    if (t->shape == KT_SHAPE_PATH && count != 1) return kti_diag_bad(diag, KT_RULE_NOT_A_PATH, first_bad);
    t->size = count;
    return KT_OK;
}

/* The constructors' common end: validate what they filled in and hand it
 * out, or free it, so that an invalid cover never escapes. */
static kt_status finish_or_free(kt_tourney **out, kt_tourney *t, kt_diag *diag)
{
    kt_status st = kti_tourney_finish(t, diag);
    if (st != KT_OK) {
        kt_tourney_free(t);
        return st;
    }
    *out = t;
    return KT_OK;
}

kt_status kt_tourney_validate_successors(const kt_graph *g, const kt_cell *succ, size_t n,
                                         kt_diag *diag)
{
    kt_tourney *t = NULL;
    kt_status st = kt_tourney_from_successors(&t, g, succ, n, diag);
    kt_tourney_free(t);
    return st;
}

/* Whether vertex c may be left unentered: only the first cell of an open
 * tour (the one vertex no successor points to), or the lone cell of a
 * one-vertex board. */
static bool may_be_unentered(const kt_tourney *t, size_t c, size_t ends)
{
    if (t->g->nverts <= 1) return true;
    return ends == 1 && t->mv[c] != KTI_PAIR_EMPTY && pair_degree(t->mv[c]) == 1;
}

kt_status kt_tourney_from_successors(kt_tourney **out, const kt_graph *g, const kt_cell *succ,
                                     size_t n, kt_diag *diag)
{
    kti_diag_clear(diag);
    if (out) *out = NULL;
    if (out == NULL || g == NULL || (succ == NULL && n > 0) || n != g->ncells) return KT_EINVAL;
    uint64_t *entered = bits_new(g);
    if (entered == NULL) return KT_ENOMEM;
    kt_tourney *t = NULL;
    kt_status st = kti_tourney_alloc(&t, g);
    if (st != KT_OK) {
        kti_free(&g->alloc, entered);
        return st;
    }
    size_t ends = 0;
    for (size_t c = 0; c < n && st == KT_OK; c++) {
        kt_cell s = succ[c];
        if (!kti_is_vertex(g, c)) {
            if (s != KT_CELL_NONE) st = kti_diag_bad(diag, KT_RULE_HOLE, c);
            continue;
        }
        if (s == KT_CELL_NONE) {
            if (++ends > 1) st = kti_diag_bad(diag, KT_RULE_DEGREE, c);
            continue;
        }
        if (!kti_is_vertex(g, s)) { st = kti_diag_bad(diag, KT_RULE_NOT_A_CELL, c); break; }
        int m = kti_move_between(g, (kt_cell)c, s);
        if (m == KT_MOVE_NONE) { st = kti_diag_bad(diag, KT_RULE_NOT_A_MOVE, c); break; }
        if (bit_get(entered, s)) { st = kti_diag_bad(diag, KT_RULE_REPEATED, s); break; }
        bit_set(entered, s);
        if (!kti_pair_add(t->mv, (kt_cell)c, m) || !kti_pair_add(t->mv, s, (m + 4) & 7))
            st = kti_diag_bad(diag, KT_RULE_DEGREE, c);
        else if (succ[s] == (kt_cell)c)
            st = kti_diag_bad(diag, KT_RULE_DEGREE, c); /* a 2-cycle uses one edge twice */
    }
    if (st == KT_OK)
        for (size_t c = 0; c < n; c++)
            if (kti_is_vertex(g, c) && !bit_get(entered, c) && !may_be_unentered(t, c, ends)) {
                st = kti_diag_bad(diag, KT_RULE_MISSING, c);
                break;
            }
    kti_free(&g->alloc, entered);
    if (st != KT_OK) {
        kt_tourney_free(t);
        return st;
    }
    return finish_or_free(out, t, diag);
}

kt_status kt_tourney_from_order(kt_tourney **out, const kt_graph *g, const kt_cell *order,
                                size_t n, kt_shape shape, kt_diag *diag)
{
    kti_diag_clear(diag);
    if (out) *out = NULL;
    if (out == NULL || g == NULL || (order == NULL && n > 0)) return KT_EINVAL;
    if (shape != KT_SHAPE_CYCLES && shape != KT_SHAPE_PATH) return KT_EINVAL;
    if (n != g->nverts) return KT_EINVAL;
    uint64_t *seen = bits_new(g);
    if (seen == NULL) return KT_ENOMEM;
    kt_tourney *t = NULL;
    kt_status st = kti_tourney_alloc(&t, g);
    if (st != KT_OK) {
        kti_free(&g->alloc, seen);
        return st;
    }
    for (size_t i = 0; i < n && st == KT_OK; i++) {
        kt_cell c = order[i];
        if (c >= g->ncells) { st = kti_diag_bad(diag, KT_RULE_NOT_A_CELL, c); break; }
        if (!kti_is_vertex(g, c)) { st = kti_diag_bad(diag, KT_RULE_HOLE, c); break; }
        if (bit_get(seen, c)) { st = kti_diag_bad(diag, KT_RULE_REPEATED, c); break; }
        bit_set(seen, c);
        if (i > 0) {
            int m = kti_move_between(g, order[i - 1], c);
            if (m == KT_MOVE_NONE) { st = kti_diag_bad(diag, KT_RULE_NOT_A_MOVE, order[i - 1]); break; }
            kti_pair_add(t->mv, order[i - 1], m);
            kti_pair_add(t->mv, c, (m + 4) & 7);
        }
    }
    if (st == KT_OK && shape == KT_SHAPE_CYCLES && n > 1) {
        int m = kti_move_between(g, order[n - 1], order[0]);
        if (m == KT_MOVE_NONE || n == 2) {
            st = kti_diag_bad(diag, KT_RULE_NOT_CLOSED, order[n - 1]);
        } else {
            kti_pair_add(t->mv, order[n - 1], m);
            kti_pair_add(t->mv, order[0], (m + 4) & 7);
        }
    }
    kti_free(&g->alloc, seen);
    if (st != KT_OK) {
        kt_tourney_free(t);
        return st;
    }
    return finish_or_free(out, t, diag);
}

kt_status kt_tourney_from_move_pairs(kt_tourney **out, const kt_graph *g, const uint8_t *moves,
                                     size_t n, kt_diag *diag)
{
    kti_diag_clear(diag);
    if (out) *out = NULL;
    if (out == NULL || g == NULL || (moves == NULL && n > 0) || n != g->ncells) return KT_EINVAL;
    kt_tourney *t = NULL;
    kt_status st = kti_tourney_alloc(&t, g);
    if (st != KT_OK) return st;
    memcpy(t->mv, moves, n);
    return finish_or_free(out, t, diag);
}

kt_status kt_tourney_copy(kt_tourney **out, const kt_tourney *t)
{
    if (out) *out = NULL;
    if (out == NULL || t == NULL) return KT_EINVAL;
    CHECK_TOURNEY(t);
    kt_tourney *u = NULL;
    kt_status st = kti_tourney_alloc(&u, t->g);
    if (st != KT_OK) return st;
    memcpy(u->mv, t->mv, t->g->ncells);
    u->shape = t->shape;
    u->size = t->size;
    *out = u;
    return KT_OK;
}

int kt_tourney_equal(const kt_tourney *t, const kt_tourney *u)
{
    if (t == NULL || u == NULL) return 0;
    if (!kt_graph_equal(t->g, u->g) || t->shape != u->shape) return 0;
    return memcmp(t->mv, u->mv, t->g->ncells) == 0;
}

const kt_graph *kt_tourney_graph(const kt_tourney *t) { return t ? t->g : NULL; }
kt_shape kt_tourney_shape(const kt_tourney *t) { return t ? t->shape : KT_SHAPE_CYCLES; }

size_t kt_tourney_size(const kt_tourney *t)
{
    if (t == NULL) return 0;
    CHECK_TOURNEY(t);
    return t->size;
}

int kt_tourney_is_closed_tour(const kt_tourney *t)
{
    if (t == NULL) return 0;
    CHECK_TOURNEY(t);
    /* A board without cells has an empty cover, not a tour. */
    return t->shape == KT_SHAPE_CYCLES && t->size == 1 && t->g->nverts > 0;
}

int kt_tourney_is_open_tour(const kt_tourney *t)
{
    if (t == NULL) return 0;
    CHECK_TOURNEY(t);
    return t->shape == KT_SHAPE_PATH || (t->g->nverts == 1 && t->size == 1);
}

kt_status kt_tourney_neighbors(const kt_tourney *t, kt_cell cell, kt_cell *a, kt_cell *b)
{
    if (a) *a = KT_CELL_NONE;
    if (b) *b = KT_CELL_NONE;
    if (t == NULL || !kti_is_vertex(t->g, cell)) return KT_EINVAL;
    uint8_t p = t->mv[cell];
    unsigned lo = p & 0xF, hi = p >> 4;
    if (a) *a = lo == KTI_NOMOVE ? KT_CELL_NONE : (kt_cell)((int64_t)cell + t->g->off[lo]);
    if (b) *b = hi == KTI_NOMOVE ? KT_CELL_NONE : (kt_cell)((int64_t)cell + t->g->off[hi]);
    return KT_OK;
}

int kt_tourney_has_edge(const kt_tourney *t, kt_cell u, kt_cell v)
{
    if (t == NULL || !kti_is_vertex(t->g, u)) return 0;
    int m = kt_graph_move(t->g, u, v);
    if (m == KT_MOVE_NONE) return 0;
    uint8_t p = t->mv[u];
    return (p & 0xF) == (unsigned)m || (p >> 4) == (unsigned)m;
}

kt_status kt_tourney_order(const kt_tourney *t, kt_cell start, int direction, kt_cell *out,
                           size_t cap, size_t *len)
{
    if (t == NULL || len == NULL || (out == NULL && cap > 0)) return KT_EINVAL;
    if (!kti_is_vertex(t->g, start) || (direction != 0 && direction != 1)) return KT_EINVAL;
    uint8_t p = t->mv[start];
    if (t->shape == KT_SHAPE_PATH && pair_degree(p) != 1) return KT_EINVAL;
    size_t k = 0;
    unsigned m = (t->shape == KT_SHAPE_PATH || direction == 0) ? (p & 0xF) : (p >> 4);
    if (cap > 0) out[0] = start;
    k = 1;
    if (m != KTI_NOMOVE) {
        kt_cell prev = start, c = (kt_cell)((int64_t)start + t->g->off[m]);
        while (c != KT_CELL_NONE && c != start) {
            if (k < cap) out[k] = c;
            k++;
            kt_cell n = kti_next(t, c, prev);
            prev = c;
            c = n;
        }
    }
    *len = k;
    return k > cap ? KT_ERANGE : KT_OK;
}

kt_status kt_tourney_ends(const kt_tourney *t, kt_cell *a, kt_cell *b)
{
    if (a) *a = KT_CELL_NONE;
    if (b) *b = KT_CELL_NONE;
    if (t == NULL || t->shape != KT_SHAPE_PATH) return KT_EINVAL;
    kt_cell e[2] = {KT_CELL_NONE, KT_CELL_NONE};
    int k = 0;
    for (size_t c = 0; c < t->g->ncells && k < 2; c++)
        if (t->mv[c] != KTI_PAIR_EMPTY && pair_degree(t->mv[c]) == 1) e[k++] = (kt_cell)c;
    if (a) *a = e[0];
    if (b) *b = e[1];
    return KT_OK;
}

typedef struct succ_ctx {
    kt_cell *succ;
    const kt_graph *g;
} succ_ctx;

static void succ_edge(void *ctx, kt_cell from, int move)
{
    succ_ctx *s = ctx;
    s->succ[from] = (kt_cell)((int64_t)from + s->g->off[move]);
}

kt_status kt_tourney_successors(const kt_tourney *t, kt_cell *succ, size_t n)
{
    if (t == NULL || (succ == NULL && n > 0)) return KT_EINVAL;
    if (n < t->g->ncells) return KT_ERANGE;
    for (size_t c = 0; c < t->g->ncells; c++) succ[c] = KT_CELL_NONE;
    succ_ctx s = {succ, t->g};
    kti_walker w = {succ_edge, NULL, &s};
    return kti_tourney_walk(t, &w);
}

kt_status kt_tourney_move_pairs(const kt_tourney *t, uint8_t *moves, size_t n)
{
    if (t == NULL || (moves == NULL && n > 0)) return KT_EINVAL;
    if (n < t->g->ncells) return KT_ERANGE;
    memcpy(moves, t->mv, t->g->ncells);
    return KT_OK;
}

typedef struct label_ctx {
    uint32_t *label;
    uint32_t next;
} label_ctx;

static void label_edge(void *ctx, kt_cell from, int move)
{
    (void)move;
    label_ctx *l = ctx;
    l->label[from] = l->next;
}

static void label_end(void *ctx, bool cycle)
{
    (void)cycle;
    ((label_ctx *)ctx)->next++;
}

kt_status kt_tourney_cycle_labels(const kt_tourney *t, uint32_t *label, size_t n)
{
    if (t == NULL || (label == NULL && n > 0)) return KT_EINVAL;
    if (n < t->g->ncells) return KT_ERANGE;
    for (size_t c = 0; c < t->g->ncells; c++) label[c] = UINT32_MAX;
    label_ctx l = {label, 0};
    kti_walker w = {label_edge, label_end, &l};
    kt_status st = kti_tourney_walk(t, &w);
    if (st != KT_OK) return st;
    /* Path ends and isolated cells have no outgoing edge: label them too. */
    if (t->shape == KT_SHAPE_PATH || t->g->nverts == 1)
        for (size_t c = 0; c < t->g->ncells; c++)
            if (kti_is_vertex(t->g, c) && label[c] == UINT32_MAX) label[c] = 0;
    return KT_OK;
}

typedef struct count_ctx {
    uint64_t *counts;
    bool relative;
    int first, prev;
} count_ctx;

static void count_edge(void *ctx, kt_cell from, int move)
{
    (void)from;
    count_ctx *k = ctx;
    if (!k->relative) {
        k->counts[move]++;
        return;
    }
    if (k->prev >= 0) k->counts[(move - k->prev + 8) & 7]++;
    else k->first = move;
    k->prev = move;
}

static void count_end(void *ctx, bool cycle)
{
    count_ctx *k = ctx;
    if (k->relative && cycle && k->first >= 0) k->counts[(k->first - k->prev + 8) & 7]++;
    k->first = k->prev = -1;
}

static kt_status count_moves(const kt_tourney *t, uint64_t counts[8], bool relative)
{
    if (t == NULL || counts == NULL) return KT_EINVAL;
    for (int i = 0; i < 8; i++) counts[i] = 0;
    count_ctx k = {counts, relative, -1, -1};
    kti_walker w = {count_edge, count_end, &k};
    return kti_tourney_walk(t, &w);
}

kt_status kt_tourney_move_counts(const kt_tourney *t, uint64_t counts[8])
{
    return count_moves(t, counts, false);
}

kt_status kt_tourney_relative_move_counts(const kt_tourney *t, uint64_t counts[8])
{
    return count_moves(t, counts, true);
}
