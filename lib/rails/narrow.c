/* SPDX-License-Identifier: MIT */
/*
 * The join's exact step on narrow boards: among all closed tours of the
 * graph, one that keeps the most moves of the given tourney, found by a
 * frontier dynamic programme over the vertices in order along the long
 * side of the board.
 *
 * Why it exists: on boards of 3 and 5 rows the closed tours are few and
 * rigid (Schwenk 1991), and a Warnsdorff tourney there is often stuck with
 * cycles that no rail or local perturbation joins.  The frontier (the
 * processed vertices that still have unprocessed neighbours) holds about
 * twice the narrow side, so every closed tour of the board is within reach
 * in time linear in its length; maximising the kept moves makes the answer
 * a join of the tourney rather than an unrelated tour, and an empty last
 * layer proves that the graph has no closed tour at all (holes included).
 *
 * State: one 4-bit code per frontier vertex: 0 = no edge chosen yet, 1 =
 * both edges chosen, 2 and up = an end of an open path, the two ends of a
 * path sharing the code.  Codes are renumbered in order of first
 * appearance, so equal frontiers pack into equal 64-bit keys.  The layers
 * keep only (previous state, chosen moves) per state for the way back; the
 * keys and values of one layer at a time.
 */
#include "internal.h"

#include "rails_internal.h"
#include "util/util.h"

#include <string.h>

#define NW_SLOTS 16u           /* 4-bit codes in a 64-bit key */
#define NW_NONE UINT32_MAX
#define NW_EMPTY_KEY UINT64_MAX /* impossible: codes past 2 + NW_SLOTS / 2 never occur */
#define NW_FRESH 15u           /* a path label not yet renumbered */

/* One layer's states: keys and best values, in a hash keyed by state. */
typedef struct nw_layer {
    uint64_t *key;
    uint32_t *val;
    size_t count, room;
    uint32_t *slot; /* hash: index into key[], NW_NONE when empty */
    size_t hcap;    /* power of two */
} nw_layer;

typedef struct nw {
    const kt_graph *g;
    const kt_allocator *al;
    const uint8_t *mv;    /* the tourney whose moves earn a point each */
    size_t nv;            /* vertices */
    kt_cell *cell;        /* order index -> cell */
    uint32_t *pos;        /* cell -> order index (NW_NONE for holes) */
    uint32_t *last;       /* order index -> last neighbour's order index */
    uint32_t front[NW_SLOTS + 1], nfront;
    /* the way back: per state of every layer, its predecessor and moves */
    uint32_t *prev;
    uint8_t *moves;
    size_t tb_count, tb_room, max_states;
    size_t *layer_start;  /* first traceback entry of each layer's states */
    nw_layer cur, nxt;
    /* the best closing transition of the last vertex */
    uint32_t best_val, best_prev;
    uint8_t best_moves;
    bool found;
} nw;

static void layer_free(const kt_allocator *al, nw_layer *L)
{
    kti_free(al, L->key);
    kti_free(al, L->val);
    kti_free(al, L->slot);
    memset(L, 0, sizeof *L);
}

/* Make room for `need` states (and a hash of at least twice that). */
static kt_status layer_reserve(const kt_allocator *al, nw_layer *L, size_t need)
{
    if (need > L->room) {
        size_t room = L->room ? L->room : 64;
        while (room < need) room *= 2;
        uint64_t *k = kti_alloc(al, room * sizeof *k);
        uint32_t *v = kti_alloc(al, room * sizeof *v);
        if (k == NULL || v == NULL) {
            kti_free(al, k);
            kti_free(al, v);
            return KT_ENOMEM;
        }
        if (L->count) {
            memcpy(k, L->key, L->count * sizeof *k);
            memcpy(v, L->val, L->count * sizeof *v);
        }
        kti_free(al, L->key);
        kti_free(al, L->val);
        L->key = k, L->val = v, L->room = room;
    }
    if (2 * need > L->hcap) {
        size_t cap = L->hcap ? L->hcap : 128;
        while (cap < 2 * need) cap *= 2;
        uint32_t *s = kti_alloc(al, cap * sizeof *s);
        if (s == NULL) return KT_ENOMEM;
        memset(s, 0xFF, cap * sizeof *s);
        for (size_t i = 0; i < L->count; i++) {
            size_t h = (size_t)kti_mix64(L->key[i]) & (cap - 1);
            while (s[h] != NW_NONE) h = (h + 1) & (cap - 1);
            s[h] = (uint32_t)i;
        }
        kti_free(al, L->slot);
        L->slot = s, L->hcap = cap;
    }
    return KT_OK;
}

static void layer_clear(nw_layer *L)
{
    if (L->slot != NULL) memset(L->slot, 0xFF, L->hcap * sizeof *L->slot);
    L->count = 0;
}

/* Room for one more traceback entry. */
static kt_status tb_reserve(nw *N)
{
    if (N->tb_count < N->tb_room) return KT_OK;
    size_t room = N->tb_room ? 2 * N->tb_room : 1024;
    uint32_t *p = kti_alloc(N->al, room * sizeof *p);
    uint8_t *m = kti_alloc(N->al, room);
    if (p == NULL || m == NULL) {
        kti_free(N->al, p);
        kti_free(N->al, m);
        return KT_ENOMEM;
    }
    if (N->tb_count) {
        memcpy(p, N->prev, N->tb_count * sizeof *p);
        memcpy(m, N->moves, N->tb_count);
    }
    kti_free(N->al, N->prev);
    kti_free(N->al, N->moves);
    N->prev = p, N->moves = m, N->tb_room = room;
    return KT_OK;
}

/* Record state `key` of the next layer reached from state `from` by the
 * moves `moves` with value `val`, keeping the best way to every state. */
static kt_status nxt_offer(nw *N, uint64_t key, uint32_t val, uint32_t from, uint8_t moves)
{
    nw_layer *L = &N->nxt;
    KTI_TRY(layer_reserve(N->al, L, L->count + 1));
    size_t h = (size_t)kti_mix64(key) & (L->hcap - 1);
    while (L->slot[h] != NW_NONE) {
        uint32_t i = L->slot[h];
        if (L->key[i] == key) {
            if (val > L->val[i]) {
                L->val[i] = val;
                N->prev[N->tb_count - L->count + i] = from;
                N->moves[N->tb_count - L->count + i] = moves;
            }
            return KT_OK;
        }
        h = (h + 1) & (L->hcap - 1);
    }
    if (N->tb_count >= N->max_states) return KT_ENOTFOUND;
    KTI_TRY(tb_reserve(N));
    L->slot[h] = (uint32_t)L->count;
    L->key[L->count] = key;
    L->val[L->count] = val;
    L->count++;
    N->prev[N->tb_count] = from;
    N->moves[N->tb_count] = moves;
    N->tb_count++;
    return KT_OK;
}

/* The vertex order (rows along the long side) and each vertex's last
 * neighbour; KT_ENOTOUR when a vertex has fewer than two neighbours. */
static kt_status plan_order(nw *N)
{
    const kt_graph *g = N->g;
    uint32_t w = g->width, h = g->height;
    bool by_rows = w <= h; /* the frontier spans the short side */
    size_t k = 0;
    uint32_t outer = by_rows ? h : w, inner = by_rows ? w : h;
    for (uint32_t a = 0; a < outer; a++)
        for (uint32_t b = 0; b < inner; b++) {
            kt_cell c = by_rows ? (kt_cell)a * w + b : (kt_cell)b * w + a;
            N->pos[c] = NW_NONE;
            if (!kti_is_vertex(g, c)) continue;
            N->pos[c] = (uint32_t)k;
            N->cell[k++] = c;
        }
    for (size_t i = 0; i < N->nv; i++) {
        uint32_t last = 0, deg = 0;
        for (int m = 0; m < KT_MOVE_COUNT; m++) {
            kt_cell d = kti_step(g, N->cell[i], m);
            if (d == KT_CELL_NONE) continue;
            deg++;
            if (N->pos[d] > last) last = N->pos[d];
        }
        if (deg < 2) return KT_ENOTOUR;
        N->last[i] = last;
    }
    return KT_OK;
}

static inline unsigned code_at(uint64_t key, unsigned s)
{
    return (unsigned)(key >> (4 * s)) & 15u;
}

/* Apply the choice of edges from the new vertex (code slot t[nf]) to the
 * frontier slots u (and v, or NW_SLOTS for one edge).  Returns 1 when a
 * path closes into a cycle, -1 when the choice is impossible, else 0. */
static int connect(uint8_t *t, unsigned nf, unsigned u, unsigned v)
{
    if (u == NW_SLOTS) return 0; /* no edge: the new vertex keeps code 0 */
    if (t[u] == 1 || (v != NW_SLOTS && t[v] == 1)) return -1;
    if (v == NW_SLOTS) { /* one edge: the new vertex is a path end */
        t[nf] = t[u] == 0 ? NW_FRESH : t[u];
        t[u] = t[u] == 0 ? NW_FRESH : 1;
        return 0;
    }
    unsigned cu = t[u], cv = t[v];
    t[nf] = 1;
    if (cu == 0 && cv == 0) {
        t[u] = t[v] = NW_FRESH;
    } else if (cu == 0 || cv == 0) {
        t[u] = cu == 0 ? cv : 1;
        t[v] = cv == 0 ? cu : 1;
    } else if (cu != cv) {
        t[u] = t[v] = 1;
        for (unsigned s = 0; s <= nf; s++)
            if (t[s] == cv) t[s] = cu; /* the far end of v's path joins u's */
    } else {
        t[u] = t[v] = 1;
        return 1;
    }
    return 0;
}

/* The moves of the new vertex to frontier vertices: slots and move numbers. */
typedef struct nw_step {
    unsigned nb, slot[KT_MOVE_COUNT], move[KT_MOVE_COUNT];
    unsigned keep[NW_SLOTS + 1], nkeep; /* slots (with the new one, nf) that stay */
    unsigned need[NW_SLOTS + 1];        /* per kept slot: a code below this is dead */
    uint32_t gain[KT_MOVE_COUNT];       /* 1 when the tourney has that move */
    bool final;
} nw_step;

static void plan_step(const nw *N, size_t i, nw_step *S)
{
    kt_cell c = N->cell[i];
    S->nb = 0;
    for (int m = 0; m < KT_MOVE_COUNT; m++) {
        kt_cell d = kti_step(N->g, c, m);
        if (d == KT_CELL_NONE || N->pos[d] >= i) continue;
        unsigned s = 0;
        while (N->front[s] != N->pos[d]) s++; /* earlier neighbours are in the frontier */
        S->slot[S->nb] = s;
        S->move[S->nb] = (unsigned)m;
        uint8_t p = N->mv[c];
        S->gain[S->nb] = ((p & 15u) == (unsigned)m || (p >> 4) == (unsigned)m) ? 1u : 0u;
        S->nb++;
    }
    S->nkeep = 0;
    for (unsigned s = 0; s <= N->nfront && s <= NW_SLOTS; s++) {
        uint32_t v = s < N->nfront ? N->front[s] : (uint32_t)i;
        if (N->last[v] <= i) continue;
        /* Lookahead: a vertex with no edge yet needs two of its neighbours
         * still to come, a path end one; codes are 0, 1 (done), 2+ (end). */
        unsigned later = 0;
        for (int m = 0; m < KT_MOVE_COUNT; m++) {
            kt_cell d = kti_step(N->g, N->cell[v], m);
            if (d != KT_CELL_NONE && N->pos[d] > i) later++;
        }
        S->need[S->nkeep] = later >= 2 ? 0u : 1u; /* kept: later >= 1 */
        S->keep[S->nkeep++] = s;
    }
    S->final = i + 1 == N->nv;
}

/* One state of layer i through every choice of at most two edges. */
static kt_status expand(nw *N, const nw_step *S, uint64_t key, uint32_t val, uint32_t from)
{
    unsigned nf = N->nfront;
    for (unsigned a = 0; a <= S->nb; a++) {
        for (unsigned b = a == S->nb ? a : a + 1; b <= S->nb; b++) {
            uint8_t t[NW_SLOTS + 1], kept[NW_SLOTS + 1];
            for (unsigned s = 0; s < nf; s++) t[s] = (uint8_t)code_at(key, s);
            t[nf] = 0;
            unsigned u = a < S->nb ? S->slot[a] : NW_SLOTS;
            unsigned v = b < S->nb ? S->slot[b] : NW_SLOTS;
            int r = connect(t, nf, u, v);
            if (r < 0) continue;
            uint8_t moves = (uint8_t)((a < S->nb ? 1u << S->move[a] : 0u) |
                                      (b < S->nb && b != a ? 1u << S->move[b] : 0u));
            uint32_t gain = (a < S->nb ? S->gain[a] : 0) + (b < S->nb && b != a ? S->gain[b] : 0);
            bool ok = true; /* a vertex leaving the frontier must be done */
            for (unsigned s = 0, k = 0; s <= nf && ok; s++) {
                if (k < S->nkeep && S->keep[k] == s) {
                    ok = t[s] >= S->need[k]; /* 0 needs two later edges, an end one */
                    kept[k++] = t[s];
                } else {
                    ok = t[s] == 1;
                }
            }
            if (!ok) continue;
            if (r == 1) { /* a cycle: the tour when it is the last vertex */
                if (S->final && S->nkeep == 0 && (!N->found || val + gain > N->best_val)) {
                    N->found = true;
                    N->best_val = val + gain, N->best_prev = from, N->best_moves = moves;
                }
                continue;
            }
            if (S->final) continue;
            kt_status st = nxt_offer(N, kti_pack_codes(kept, S->nkeep), val + gain, from, moves);
            if (st != KT_OK) return st;
        }
    }
    return KT_OK;
}

/* Layer by layer to the last vertex. */
static kt_status forward(nw *N, kti_progress *pr, uint64_t done, uint64_t total)
{
    KTI_TRY(layer_reserve(N->al, &N->cur, 1));
    N->cur.key[0] = 0, N->cur.val[0] = 0, N->cur.count = 1;
    KTI_TRY(tb_reserve(N));
    N->prev[0] = NW_NONE, N->moves[0] = 0, N->tb_count = 1;
    N->layer_start[0] = 0;
    N->nfront = 0;
    for (size_t i = 0; i < N->nv; i++) {
        if (pr != NULL && kti_progress_tick(pr, done, total)) return KT_ECANCELED;
        nw_step S;
        plan_step(N, i, &S);
        if (S.nkeep > NW_SLOTS) return KT_ENOTFOUND; /* wider than a key */
        layer_clear(&N->nxt);
        N->layer_start[i + 1] = N->tb_count;
        for (size_t k = 0; k < N->cur.count; k++)
            KTI_TRY(expand(N, &S, N->cur.key[k], N->cur.val[k], (uint32_t)k));
        if (S.final) break;
        if (N->nxt.count == 0) return KT_ENOTOUR;
        uint32_t nfront = 0; /* the next frontier: kept slots, then the new vertex */
        for (unsigned k = 0; k < S.nkeep; k++)
            N->front[nfront++] = S.keep[k] < N->nfront ? N->front[S.keep[k]] : (uint32_t)i;
        N->nfront = nfront;
        nw_layer tmp = N->cur;
        N->cur = N->nxt;
        N->nxt = tmp;
    }
    return N->found ? KT_OK : KT_ENOTOUR;
}

/* Follow the way back from the closing transition and write the tour. */
static void trace_back(const nw *N, uint8_t *out)
{
    memset(out, KTI_PAIR_EMPTY, N->g->ncells);
    uint32_t k = N->best_prev;
    uint8_t moves = N->best_moves;
    for (size_t i = N->nv; i-- > 0;) {
        kt_cell c = N->cell[i];
        for (int m = 0; m < KT_MOVE_COUNT; m++) {
            if (!((moves >> m) & 1u)) continue;
            kti_pair_add(out, c, m);
            kti_pair_add(out, kti_step(N->g, c, m), (m + 4) & 7);
        }
        if (i == 0) break;
        size_t e = N->layer_start[i] + k; /* state k of layer i */
        moves = N->moves[e];
        k = N->prev[e];
    }
}

static bool frontier_fits(const kt_graph *g)
{
    /* a row of the short side times the reach of the leaper, plus one */
    uint32_t s = g->width < g->height ? g->width : g->height;
    uint32_t reach = g->a > g->b ? g->a : g->b;
    return (uint64_t)s * reach + 1 <= NW_SLOTS;
}

kt_status kti_rails_nearest_tour(const kt_graph *g, const uint8_t *mv, uint8_t *out,
                                 size_t max_states, kti_progress *pr, uint64_t done,
                                 uint64_t total)
{
    if (g->nverts < 3) return KT_ENOTOUR;
    if (!frontier_fits(g)) return KT_ENOTFOUND;
    nw N;
    memset(&N, 0, sizeof N);
    N.g = g, N.al = &g->alloc, N.mv = mv, N.nv = g->nverts, N.max_states = max_states;
    N.cell = kti_alloc(N.al, N.nv * sizeof *N.cell);
    N.pos = kti_alloc(N.al, g->ncells * sizeof *N.pos);
    N.last = kti_alloc(N.al, N.nv * sizeof *N.last);
    N.layer_start = kti_alloc(N.al, (N.nv + 1) * sizeof *N.layer_start);
    kt_status st = KT_ENOMEM;
    if (N.cell != NULL && N.pos != NULL && N.last != NULL && N.layer_start != NULL) {
        st = plan_order(&N);
        if (st == KT_OK) st = forward(&N, pr, done, total);
        if (st == KT_OK) trace_back(&N, out);
    }
    layer_free(N.al, &N.cur);
    layer_free(N.al, &N.nxt);
    kti_free(N.al, N.prev);
    kti_free(N.al, N.moves);
    kti_free(N.al, N.layer_start);
    kti_free(N.al, N.last);
    kti_free(N.al, N.pos);
    kti_free(N.al, N.cell);
    return st;
}
