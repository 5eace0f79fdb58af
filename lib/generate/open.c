/* SPDX-License-Identifier: MIT */
/*
 * Open tours with optional ends (kt_generate_open_tour).
 *
 * Existence: the table of kt_graph_board_has_open_tour(), and the colour
 * conditions, which are proofs on every board: a path alternates colours,
 * so on a board with an even number of cells its ends differ in colour, and
 * on an odd board both ends have the majority colour (that of the corners).
 * Conrad et al. (1994) proved these conditions sufficient when both sides
 * are >= 5.  On 4 x n boards both ends lie in the outer rows (see below);
 * boards of at most SMALL_CELLS (30) cells are settled by exhaustive search.
 *
 * Construction, linear unless both ends are given:
 *  - boards with a closed tour: the block tour with one edge at the start
 *    (or end) removed;
 *  - odd x odd boards and 3 x odd boards: the block constructions of
 *    blocks.c, which put an end at the given cell when they can;
 *  - 4 x n: random Warnsdorff from a corner (each walk succeeds with
 *    probability ~0.3 independently of n, measured; up to 256 walks);
 *  - a given start (or end) on a board with a side of 3 or 4: random
 *    Warnsdorff walks from that cell (up to 128).
 * Given ends the construction does not provide are reached by Posa
 * rotations of the path (bounded work; KT_ENOTFOUND when exhausted).
 */
#include "count/count_internal.h"
#include "generate_internal.h"

#define SMALL_CELLS 30u
/* bounded proof search for a pair the rotations could not reach */
#define PROVE_CELLS 100u
#define PROVE_NODES 20000000u
/* exact decision and construction by the frontier DP on narrow boards */
#define DP_WIDTH 5u
#define DP_CELLS 1000u          /* deciding: one DP run, < 0.3 s at 5x200 */
#define DP_BUILD_CELLS 120u     /* building: ~3 runs per cell, seconds at 5x24 */
#define DP_STATES ((uint64_t)1 << 20)
#define SMALL_NODES 50000000u
/* Warnsdorff walks: from a given end on thin boards, from a corner else */
#define THIN_WALKS 128u
#define CORNER_WALKS 256u
/* construction attempts (seeds, and the ends swapped) before giving up */
#define OPEN_ATTEMPTS 24

/* ---- exhaustive search on boards of at most 64 cells ---- */
typedef struct xs {
    unsigned n;
    uint64_t nb[64];
    kt_cell path[64];
    kt_cell end;
    uint64_t nodes, limit;
    kti_progress *pr;
} xs;

/* 1: found (x->path), 0: none below this node, -1: node limit, -2: cancelled. */
static int xs_dfs(xs *x, unsigned depth, uint64_t vis)
{
    kt_cell cur = x->path[depth - 1];
    if (depth == x->n) return x->end == KT_CELL_NONE || cur == x->end;
    if (++x->nodes > x->limit) return -1;
    if ((x->nodes & 0xFFFF) == 0 && kti_gen_tick(x->pr, x->nodes, x->limit)) return -2;
    uint64_t cand = x->nb[cur] & ~vis;
    if (x->end != KT_CELL_NONE && depth + 1 < x->n) cand &= ~((uint64_t)1 << x->end);
    kt_cell order[8];
    unsigned key[8], k = 0;
    while (cand) {
        kt_cell c = (kt_cell)__builtin_ctzll(cand);
        cand &= cand - 1;
        order[k] = c;
        key[k++] = (unsigned)__builtin_popcountll(x->nb[c] & ~vis);
    }
    for (unsigned i = 1; i < k; i++)
        for (unsigned j = i; j > 0 && key[j] < key[j - 1]; j--) {
            unsigned t = key[j]; key[j] = key[j - 1]; key[j - 1] = t;
            kt_cell u = order[j]; order[j] = order[j - 1]; order[j - 1] = u;
        }
    for (unsigned i = 0; i < k; i++) {
        kt_cell c = order[i];
        uint64_t v2 = vis | ((uint64_t)1 << c);
        /* every unvisited neighbour of cur needs two ways in (one if it
         * may be the last cell) */
        bool ok = true;
        uint64_t around = x->nb[cur] & ~v2;
        unsigned ends = 0;
        while (around && ok) {
            kt_cell y = (kt_cell)__builtin_ctzll(around);
            around &= around - 1;
            unsigned a = (unsigned)__builtin_popcountll(x->nb[y] & ~v2) + ((x->nb[y] >> c) & 1u);
            bool may_end = x->end == KT_CELL_NONE || x->end == y;
            if (a == 0 || (a == 1 && (!may_end || ++ends > 1))) ok = false;
        }
        if (!ok) continue;
        x->path[depth] = c;
        int r = xs_dfs(x, depth + 1, v2);
        if (r != 0) return r;
    }
    return 0;
}

/* KT_OK with order filled, KT_ENOTOUR, KT_ENOTFOUND on the node limit, or
 * KT_ECANCELED. */
static kt_status exhaustive_path(const kt_graph *g, kt_cell s, kt_cell t, kt_cell *order,
                                 kti_progress *pr)
{
    xs x;
    memset(&x, 0, sizeof x);
    x.n = (unsigned)g->ncells;
    x.pr = pr;
    for (kt_cell c = 0; c < x.n; c++)
        for (int m = 0; m < 8; m++) {
            kt_cell d = kti_step(g, c, m);
            if (d != KT_CELL_NONE) x.nb[c] |= (uint64_t)1 << d;
        }
    x.limit = SMALL_NODES;
    bool rev = false;
    if (s == KT_CELL_NONE && t != KT_CELL_NONE) {
        s = t;
        t = KT_CELL_NONE;
        rev = true;
    }
    bool limited = false;
    for (kt_cell first = 0; first < x.n; first++) {
        kt_cell st = s == KT_CELL_NONE ? first : s;
        x.end = t;
        x.path[0] = st;
        x.nodes = 0;
        int r = xs_dfs(&x, 1, (uint64_t)1 << st);
        if (r == 1) {
            for (unsigned i = 0; i < x.n; i++) order[i] = x.path[rev ? x.n - 1 - i : i];
            return KT_OK;
        }
        if (r == -2) return KT_ECANCELED;
        if (r < 0) limited = true;
        if (s != KT_CELL_NONE) break;
    }
    return limited ? KT_ENOTFOUND : KT_ENOTOUR;
}

/* Boards of at most SMALL_CELLS cells: exhaustive search, from the other
 * end too when the first search hits its node limit. */
static kt_status open_small(kt_tourney **out, const kt_graph *g, kt_cell start, kt_cell end,
                            kti_progress *pr)
{
    kt_cell order[64];
    kt_status st = exhaustive_path(g, start, end, order, pr);
    if (st == KT_ENOTFOUND && end != KT_CELL_NONE) st = exhaustive_path(g, end, start, order, pr);
    if (st != KT_OK) return st;
    return kt_tourney_from_order(out, g, order, g->ncells, KT_SHAPE_PATH, NULL);
}

/* ---- exact decision on narrow boards ---- */

/* Whether the cells left in mask hold a Hamiltonian path from a to b. */
static kt_status dp_exists(const kt_graph *g, const uint8_t *mask, kt_cell a, kt_cell b, bool *yes)
{
    kt_graph *h = NULL;
    kt_status st = kt_graph_new_custom(&h, g->width, g->height, 2, 1, mask, &g->alloc);
    if (st != KT_OK) return st;
    st = kti_path_exists(h, a, b, DP_STATES, yes);
    kt_graph_free(h);
    return st;
}

/* The cells left in mask a move from v, except e, in Warnsdorff order
 * (fewest cells left around them first). */
static unsigned dp_candidates(const kt_graph *g, const uint8_t *mask, kt_cell v, kt_cell e,
                              kt_cell cand[8])
{
    unsigned deg[8], nc = 0;
    for (int m = 0; m < 8; m++) {
        kt_cell u = kti_step(g, v, m);
        if (u == KT_CELL_NONE || !mask[u] || u == e) continue;
        unsigned d = 0;
        for (int k = 0; k < 8; k++) {
            kt_cell w = kti_step(g, u, k);
            d += w != KT_CELL_NONE && mask[w];
        }
        unsigned j = nc++;
        for (; j > 0 && deg[j - 1] > d; j--) {
            cand[j] = cand[j - 1];
            deg[j] = deg[j - 1];
        }
        cand[j] = u;
        deg[j] = d;
    }
    return nc;
}

/* Exact on narrow boards: the frontier DP of the count module decides
 * whether a path from s to e exists; walking from s and taking, in
 * Warnsdorff order, the first move after which a path from there to e
 * through the cells left still exists builds one (self-reduction, about 3
 * DP runs per cell, so only up to DP_BUILD_CELLS).  KT_ENOTOUR when none
 * exists, KT_ENOTFOUND when one exists but the board is too large to build
 * it this way, or the DP would need more than DP_STATES states. */
static kt_status dp_path(kt_tourney **out, const kt_graph *g, kt_cell s, kt_cell e,
                         kti_progress *pr)
{
    size_t n = g->ncells;
    uint8_t *mask = kti_alloc(&g->alloc, n);
    kt_cell *ord = kti_alloc(&g->alloc, n * sizeof *ord);
    kt_status st = mask == NULL || ord == NULL ? KT_ENOMEM : KT_OK;
    bool yes = false;
    if (st == KT_OK) {
        memset(mask, 1, n);
        st = dp_exists(g, mask, s, e, &yes);
    }
    if (st == KT_OK && !yes) st = KT_ENOTOUR;
    if (st == KT_OK && n > DP_BUILD_CELLS) st = KT_ENOTFOUND; /* exists; too slow to build */
    size_t len = 0;
    if (st == KT_OK) {
        ord[len++] = s;
        mask[s] = 0;
    }
    while (st == KT_OK && len < n) {
        if (kti_gen_tick(pr, len, n)) {
            st = KT_ECANCELED;
            break;
        }
        kt_cell next = KT_CELL_NONE;
        if (len + 1 == n) {
            next = e; /* the path exists, so e is a move away */
        } else {
            kt_cell cand[8];
            unsigned nc = dp_candidates(g, mask, ord[len - 1], e, cand);
            for (unsigned j = 0; j < nc && next == KT_CELL_NONE && st == KT_OK; j++) {
                mask[cand[j]] = 1;
                st = dp_exists(g, mask, cand[j], e, &yes);
                if (st == KT_OK && yes) next = cand[j];
            }
            if (st == KT_OK && next == KT_CELL_NONE) st = KT_ENOTFOUND; /* cannot happen */
        }
        if (st != KT_OK) break;
        ord[len++] = next;
        mask[next] = 0;
    }
    if (st == KT_ELIMIT || st == KT_EUNSUPPORTED) st = KT_ENOTFOUND;
    if (st == KT_OK) st = kt_tourney_from_order(out, g, ord, n, KT_SHAPE_PATH, NULL);
    kti_free(&g->alloc, mask);
    kti_free(&g->alloc, ord);
    return st;
}

/* ---- constructions ---- */

/* Whether an open tour with these ends may exist: the table, the colour
 * conditions and the 4 x n rule (all proofs).  KT_OK to go on, KT_EINVAL
 * for start == end, else KT_ENOTOUR. */
static kt_status open_admissible(const kt_graph *g, kt_cell start, kt_cell end)
{
    if (start != KT_CELL_NONE && start == end) return KT_EINVAL;
    if (!kt_graph_board_has_open_tour(g->width, g->height)) return KT_ENOTOUR;
    if (g->ncells & 1) {
        if ((start != KT_CELL_NONE && kti_colour(g, start)) || (end != KT_CELL_NONE && kti_colour(g, end)))
            return KT_ENOTOUR;
    } else if (start != KT_CELL_NONE && end != KT_CELL_NONE && kti_colour(g, start) == kti_colour(g, end)) {
        return KT_ENOTOUR;
    }
    /* 4 x n: the outer rows are independent and hold half the cells, so a
     * path alternates outer/inner except once and both ends are outer. */
    if (g->width == 4 || g->height == 4) {
        for (int k = 0; k < 2; k++) {
            kt_cell c = k ? end : start;
            if (c == KT_CELL_NONE) continue;
            uint32_t along = g->height == 4 ? c / g->width : c % g->width;
            if (along == 1 || along == 2) return KT_ENOTOUR;
        }
    }
    return KT_OK;
}

/* Boards with a closed tour: the block tour cut at the start (else the
 * end, else a random cell), at the edge to the end when they are
 * neighbours on the tour. */
static kt_status base_cut(kt_tourney *t, kt_cell start, kt_cell end, uint64_t seed, kti_rng *rng,
                          kti_progress *pr)
{
    const kt_graph *g = t->g;
    KTI_TRY(kti_blocks_closed(t, seed, false, pr));
    kt_cell a = start != KT_CELL_NONE ? start
              : end != KT_CELL_NONE   ? end
                                      : (kt_cell)kti_rng_below(rng, g->ncells);
    unsigned p = t->mv[a];
    unsigned m = (kti_rng_next(rng) & 1) ? (p >> 4) : (p & 0xF);
    if (start != KT_CELL_NONE && end != KT_CELL_NONE) {
        for (int k = 0; k < 2; k++) {
            unsigned mm = k ? (p >> 4) : (p & 0xF);
            if (kti_step(g, a, (int)mm) == end) m = mm;
        }
    }
    kt_cell b = kti_step(g, a, (int)m);
    kti_pair_replace(t->mv, a, m, KTI_NOMOVE);
    kti_pair_replace(t->mv, b, (m + 4) & 7, KTI_NOMOVE);
    t->shape = KT_SHAPE_PATH;
    t->size = 1;
    return KT_OK;
}

/* Boards without a closed tour: random Warnsdorff walks from the given end
 * on thin boards, the block constructions, or walks from a corner.  *t is
 * an allocated tourney on entry and may be replaced. */
static kt_status base_open(kt_tourney **t, const kt_graph *g, kt_cell start, kt_cell end,
                           uint64_t seed, kti_progress *pr)
{
    kt_cell first = start != KT_CELL_NONE ? start : end;
    kt_tourney *u = NULL;
    kt_status st;
    if (first != KT_CELL_NONE && (g->width <= 4 || g->height <= 4)) {
        st = kti_warnsdorff_tour(&u, g, KT_SHAPE_PATH, first, KT_GENERATE_TIE_RANDOM, seed,
                                 THIN_WALKS, pr);
        if (st == KT_OK) {
            kt_tourney_free(*t);
            *t = u;
            return KT_OK;
        }
        if (st == KT_ECANCELED || st == KT_ENOMEM) return st;
    }
    st = kti_blocks_open(*t, first, seed, pr);
    if (st != KT_ENOTFOUND) return st;
    st = kti_warnsdorff_tour(&u, g, KT_SHAPE_PATH, 0, KT_GENERATE_TIE_RANDOM, seed, CORNER_WALKS, pr);
    if (st != KT_OK) return st == KT_ELIMIT ? KT_ENOTFOUND : st;
    kt_tourney_free(*t);
    *t = u;
    return KT_OK;
}

/* Whether the path on t has the wanted ends (KT_CELL_NONE: any). */
static bool ends_ok(const kt_tourney *t, kt_cell start, kt_cell end)
{
    kt_cell e0, e1;
    if (kt_tourney_ends(t, &e0, &e1) != KT_OK) return false;
    return (start == KT_CELL_NONE || start == e0 || start == e1) &&
           (end == KT_CELL_NONE || end == e0 || end == e1);
}

/* Move the ends of the path *t with rotations: make `first` (the start,
 * else the end) an end, then fix it and move the other end to `second`.
 * *t is replaced on success. */
static kt_status move_ends(kt_tourney **t, kt_cell start, kt_cell end, kti_rng *rng,
                           kti_progress *pr)
{
    const kt_graph *g = (*t)->g;
    size_t n = g->ncells;
    kt_cell *ord = kti_calloc(&g->alloc, n, sizeof(kt_cell));
    uint32_t *pos = kti_calloc(&g->alloc, n, sizeof(uint32_t));
    kt_status st = ord == NULL || pos == NULL ? KT_ENOMEM : KT_OK;
    kt_cell first = start != KT_CELL_NONE ? start : end;
    kt_cell second = start != KT_CELL_NONE ? end : KT_CELL_NONE;
    uint64_t side = g->width > g->height ? g->width : g->height;
    uint64_t work = (8 * side + 256) * (uint64_t)n;
    if (st == KT_OK) {
        /* start from the end that is not `first` and rotate the other */
        kt_cell e0, e1;
        kt_tourney_ends(*t, &e0, &e1);
        st = kt_tourney_order(*t, e0 == first ? e1 : e0, 0, ord, n, &(size_t){0});
        for (size_t i = 0; i < n && st == KT_OK; i++) pos[ord[i]] = (uint32_t)i;
    }
    if (st == KT_OK && ord[n - 1] != first) st = kti_rotate_end(g, ord, pos, n, first, true, work, rng, pr);
    if (st == KT_OK && second != KT_CELL_NONE) {
        /* reverse so that `first` is fixed at the front, then rotate the back */
        for (size_t i = 0, j = n - 1; i < j; i++, j--) {
            kt_cell u = ord[i];
            ord[i] = ord[j];
            ord[j] = u;
        }
        for (size_t i = 0; i < n; i++) pos[ord[i]] = (uint32_t)i;
        st = kti_rotate_end(g, ord, pos, n, second, true, work, rng, pr);
    }
    kt_tourney *u = NULL;
    if (st == KT_OK) st = kt_tourney_from_order(&u, g, ord, n, KT_SHAPE_PATH, NULL);
    if (st == KT_OK) {
        kt_tourney_free(*t);
        *t = u;
    }
    kti_free(&g->alloc, ord);
    kti_free(&g->alloc, pos);
    return st;
}

/* One construction (boards of more than SMALL_CELLS cells, ends admissible). */
static kt_status open_once(kt_tourney **out, const kt_graph *g, kt_cell start, kt_cell end,
                           uint64_t seed, kti_progress *pr)
{
    kti_rng rng;
    kti_rng_seed(&rng, seed ^ 0x6F70656E746F7572u);
    kt_tourney *t = NULL;
    KTI_TRY(kti_tourney_alloc(&t, g));
    kt_status st = kt_graph_board_has_closed_tour(g->width, g->height)
                       ? base_cut(t, start, end, seed, &rng, pr)
                       : base_open(&t, g, start, end, seed, pr);
    if (st == KT_OK && !ends_ok(t, start, end)) st = move_ends(&t, start, end, &rng, pr);
    if (st != KT_OK) {
        kt_tourney_free(t);
        return st;
    }
    *out = t;
    return KT_OK;
}

kt_status kti_open_tour(kt_tourney **out, const kt_graph *g, kt_cell start, kt_cell end,
                        uint64_t seed, kti_progress *pr)
{
    if (!kti_gen_plain(g)) return KT_EUNSUPPORTED;
    size_t n = g->ncells;
    if ((start != KT_CELL_NONE && start >= n) || (end != KT_CELL_NONE && end >= n)) return KT_EINVAL;
    if (n == 1) return kt_tourney_from_order(out, g, &(kt_cell){0}, 1, KT_SHAPE_PATH, NULL);
    KTI_TRY(open_admissible(g, start, end));
    kt_status st = KT_ENOTFOUND;
    if (n <= SMALL_CELLS) {
        st = open_small(out, g, start, end, pr);
    } else {
        /* Rotations may fail on one base tour and succeed on another, and
         * fixing the other end first explores other rotations.  A path has
         * no direction, so swapping the ends gives the same kind of answer. */
        for (int attempt = 0; attempt < OPEN_ATTEMPTS && st == KT_ENOTFOUND; attempt++) {
            bool swap = (attempt & 1) && end != KT_CELL_NONE;
            st = open_once(out, g, swap ? end : start, swap ? start : end,
                           seed + 0x9E3779B97F4A7C15u * (uint64_t)attempt, pr);
        }
    }
    /* Not every pair is possible on boards with a side of 5 or less (on 5x8
     * the cells (2,1) and (2,6) pair with almost nothing): on boards small
     * enough, the DP or a bounded exhaustive search finds the tour or
     * proves there is none, so the caller gets KT_ENOTOUR rather than
     * KT_ENOTFOUND. */
    if (st != KT_ENOTFOUND || start == KT_CELL_NONE || end == KT_CELL_NONE) return st;
    uint32_t narrow = g->width < g->height ? g->width : g->height;
    if (narrow <= DP_WIDTH && n <= DP_CELLS) st = dp_path(out, g, start, end, pr);
    if (st == KT_ENOTFOUND && n <= PROVE_CELLS) {
        kt_status ex = kti_exhaustive_tour(out, g, KT_SHAPE_PATH, start, end, PROVE_NODES, pr, NULL);
        if (ex != KT_ELIMIT) st = ex;
    }
    return st;
}
