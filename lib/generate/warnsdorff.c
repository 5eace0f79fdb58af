/* SPDX-License-Identifier: MIT */
/*
 * Warnsdorff's rule (1823): move to the unvisited neighbour with the fewest
 * unvisited neighbours.  Tie-breaks:
 *  - first:  the lowest move number;
 *  - random: uniformly at random;
 *  - Pohl (1967): the candidate whose unvisited neighbours have the smallest
 *    sum of accessibilities (the rule applied one level deeper), then random;
 *  - Roth: the candidate farthest from the centre of the board, then Pohl,
 *    then random.  Preferring the rim keeps the walk from leaving unvisited
 *    pockets near the edge, which is what makes plain Warnsdorff fail on
 *    boards beyond ~50.
 * Closed tours: a complete walk whose end is not a move from its start is
 * closed by Posa rotations (bounded).  The tourney variant of the paper
 * closes a walk as soon as it lands a move away from its start and begins
 * a new walk at the first unvisited cell.
 */
#include "generate_internal.h"
#include "util/util.h"

typedef struct wctx {
    const kt_graph *g;
    size_t n;
    uint8_t *deg;    /* unvisited neighbours of each cell */
    uint8_t *vis;
    uint8_t *mask;   /* move mask per cell (board only) */
    kt_cell *ord;
    uint32_t *pos;
    kti_rng rng;
} wctx;

static inline kt_cell nb(const kt_graph *g, kt_cell c, int m)
{
    return (kt_cell)((int64_t)c + g->off[m]);
}

static void w_free(wctx *w)
{
    const kt_allocator *al = &w->g->alloc;
    kti_free(al, w->deg);
    kti_free(al, w->vis);
    kti_free(al, w->mask);
    kti_free(al, w->ord);
    kti_free(al, w->pos);
}

static kt_status w_init(wctx *w, const kt_graph *g, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    w->g = g;
    w->n = g->ncells;
    const kt_allocator *al = &g->alloc;
    w->deg = kti_alloc(al, w->n);
    w->vis = kti_alloc(al, w->n);
    w->mask = kti_alloc(al, w->n);
    w->ord = kti_calloc(al, w->n, sizeof(kt_cell));
    w->pos = kti_calloc(al, w->n, sizeof(uint32_t));
    if (!w->deg || !w->vis || !w->mask || !w->ord || !w->pos) {
        w_free(w);
        return KT_ENOMEM;
    }
    for (size_t c = 0; c < w->n; c++) {
        unsigned m = 0;
        for (int k = 0; k < 8; k++)
            if (kti_step(g, (kt_cell)c, k) != KT_CELL_NONE) m |= 1u << k;
        w->mask[c] = (uint8_t)m;
    }
    kti_rng_seed(&w->rng, seed);
    return KT_OK;
}

static void w_reset(wctx *w)
{
    memset(w->vis, 0, w->n);
    for (size_t c = 0; c < w->n; c++) w->deg[c] = (uint8_t)__builtin_popcount(w->mask[c]);
}

static inline void w_visit(wctx *w, kt_cell c)
{
    w->vis[c] = 1;
    unsigned m = w->mask[c];
    while (m) {
        int k = __builtin_ctz(m);
        m &= m - 1;
        w->deg[nb(w->g, c, k)]--;
    }
}

static inline void w_unvisit(wctx *w, kt_cell c)
{
    w->vis[c] = 0;
    unsigned m = w->mask[c];
    while (m) {
        int k = __builtin_ctz(m);
        m &= m - 1;
        w->deg[nb(w->g, c, k)]++;
    }
}

/* Squared distance from the centre, in half-cells. */
static inline uint64_t centre_dist(const kt_graph *g, kt_cell c)
{
    int64_t x = 2 * (int64_t)(c % g->width) - (int64_t)(g->width - 1);
    int64_t y = 2 * (int64_t)(c / g->width) - (int64_t)(g->height - 1);
    return (uint64_t)(x * x + y * y);
}

static inline unsigned pohl_sum(const wctx *w, kt_cell c)
{
    unsigned s = 0, m = w->mask[c];
    while (m) {
        int k = __builtin_ctz(m);
        m &= m - 1;
        kt_cell d = nb(w->g, c, k);
        if (!w->vis[d]) s += w->deg[d];
    }
    return s;
}

/* Choose the next cell from c, or KT_CELL_NONE when stuck.  avoid: a cell
 * not to enter unless it is the last one (KT_CELL_NONE for none). */
static kt_cell w_choose(wctx *w, kt_cell c, kt_generate_tiebreak tie, kt_cell avoid)
{
    kt_cell cand[8];
    unsigned nc = 0, best = 99, m = w->mask[c];
    while (m) {
        int k = __builtin_ctz(m);
        m &= m - 1;
        kt_cell d = nb(w->g, c, k);
        if (w->vis[d] || d == avoid) continue;
        unsigned dg = w->deg[d];
        if (dg < best) {
            best = dg;
            nc = 0;
        }
        if (dg == best) cand[nc++] = d;
    }
    if (nc == 0) return KT_CELL_NONE;
    if (nc == 1 || tie == KT_GENERATE_TIE_FIRST) return cand[0];
    if (tie == KT_GENERATE_TIE_ROTH) {
        uint64_t far = 0;
        unsigned k = 0;
        for (unsigned i = 0; i < nc; i++) {
            uint64_t d = centre_dist(w->g, cand[i]);
            if (d > far) { far = d; k = 0; }
            if (d == far) cand[k++] = cand[i];
        }
        nc = k;
    }
    if (nc > 1 && (tie == KT_GENERATE_TIE_POHL || tie == KT_GENERATE_TIE_ROTH)) {
        unsigned low = ~0u, k = 0;
        for (unsigned i = 0; i < nc; i++) {
            unsigned s = pohl_sum(w, cand[i]);
            if (s < low) { low = s; k = 0; }
            if (s == low) cand[k++] = cand[i];
        }
        nc = k;
    }
    return cand[nc == 1 ? 0 : kti_rng_below(&w->rng, nc)];
}

static inline bool adjacent(const kt_graph *g, kt_cell a, kt_cell b)
{
    int64_t dx = (int64_t)(a % g->width) - (int64_t)(b % g->width);
    int64_t dy = (int64_t)(a / g->width) - (int64_t)(b / g->width);
    return (dx * dx + dy * dy) == 5;
}

static void reverse(wctx *w, size_t i, size_t j)
{
    while (i < j) {
        kt_cell a = w->ord[i], b = w->ord[j];
        w->ord[i] = b;
        w->pos[b] = (uint32_t)i;
        w->ord[j] = a;
        w->pos[a] = (uint32_t)j;
        i++;
        j--;
    }
}

bool kti_rotate_end(const kt_graph *g, kt_cell *ord, uint32_t *pos, size_t n, kt_cell target,
                    bool exact, uint64_t work, kti_rng *rng)
{
    wctx w;
    w.g = g;
    w.ord = ord;
    w.pos = pos;
    uint64_t spent = 0;
    uint64_t tx = target % g->width, ty = target / g->width;
    while (spent <= work) {
        kt_cell e = ord[n - 1];
        if (exact ? e == target : adjacent(g, e, target)) return true;
        /* candidates: neighbours y of e on the path, not e's predecessor */
        size_t cand[8];
        uint64_t score[8];
        unsigned nc = 0;
        for (int k = 0; k < 8; k++) {
            kt_cell y = kti_step(g, e, k);
            if (y == KT_CELL_NONE) continue;
            size_t py = pos[y];
            if (py >= n - 2) continue;
            kt_cell ne = ord[py + 1]; /* new end */
            int64_t dx = (int64_t)(ne % g->width) - (int64_t)tx, dy = (int64_t)(ne / g->width) - (int64_t)ty;
            uint64_t d = (uint64_t)(dx * dx + dy * dy);
            if (exact ? ne == target : adjacent(g, ne, target)) d = 0;
            cand[nc] = py;
            score[nc++] = d * 64 + (kti_rng_next(rng) & 63);
        }
        if (nc == 0) return false;
        unsigned best = 0;
        /* mostly greedy, sometimes random to escape cycles */
        if ((kti_rng_next(rng) & 7) == 0) best = (unsigned)kti_rng_below(rng, nc);
        else
            for (unsigned i = 1; i < nc; i++)
                if (score[i] < score[best]) best = i;
        size_t py = cand[best];
        reverse(&w, py + 1, n - 1);
        spent += n - 1 - py + 8;
    }
    return false;
}

/* One Warnsdorff walk from start over the whole board; true when complete. */
static bool walk(wctx *w, kt_cell start, kt_generate_tiebreak tie)
{
    w_reset(w);
    kt_cell c = start;
    w_visit(w, c);
    w->ord[0] = c;
    for (size_t i = 1; i < w->g->nverts; i++) {
        c = w_choose(w, c, tie, KT_CELL_NONE);
        if (c == KT_CELL_NONE) return false;
        w_visit(w, c);
        w->ord[i] = c;
    }
    return true;
}

kt_status kt_generate_warnsdorff_tour(kt_tourney **out, const kt_graph *g, kt_shape shape, kt_cell start,
                             kt_generate_tiebreak tie, uint64_t seed, uint32_t attempts)
{
    if (out) *out = NULL;
    if (out == NULL || g == NULL || (unsigned)tie >= KT_GENERATE_TIE_COUNT) return KT_EINVAL;
    if (shape != KT_SHAPE_PATH && shape != KT_SHAPE_CYCLES) return KT_EINVAL;
    if (!kti_gen_plain(g)) return KT_EUNSUPPORTED;
    if (start != KT_CELL_NONE && start >= g->ncells) return KT_EINVAL;
    if (shape == KT_SHAPE_CYCLES ? !kt_graph_board_has_closed_tour(g->width, g->height)
                                 : !kt_graph_board_has_open_tour(g->width, g->height))
        return KT_ENOTOUR;
    if (g->ncells == 1) return kt_tourney_from_order(out, g, &(kt_cell){0}, 1, shape, NULL);
    if (attempts == 0) attempts = tie == KT_GENERATE_TIE_FIRST ? 1 : 64;
    wctx w;
    kt_status st = w_init(&w, g, seed);
    if (st != KT_OK) return st;
    kt_cell s0 = start == KT_CELL_NONE ? 0 : start;
    st = KT_ENOTFOUND;
    for (uint32_t a = 0; a < attempts; a++) {
        if (!walk(&w, s0, tie)) continue;
        size_t n = g->nverts;
        if (shape == KT_SHAPE_CYCLES && !adjacent(g, w.ord[0], w.ord[n - 1])) {
            for (size_t i = 0; i < n; i++) w.pos[w.ord[i]] = (uint32_t)i;
            uint64_t side = g->width > g->height ? g->width : g->height;
            if (!kti_rotate_end(g, w.ord, w.pos, n, w.ord[0], false, (4 * side + 64) * (uint64_t)n, &w.rng))
                continue;
        }
        st = kt_tourney_from_order(out, g, w.ord, n, shape, NULL);
        break;
    }
    w_free(&w);
    return st;
}

/* Lazy buckets of unvisited cells by accessibility: an entry is valid while
 * its cell is unvisited and still has that accessibility. */
typedef struct bucket {
    kt_cell *a;
    size_t len, cap;
} bucket;

static bool bk_push(const kt_allocator *al, bucket *b, kt_cell c)
{
    if (b->len == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1024;
        kt_cell *a = kti_calloc(al, cap, sizeof(kt_cell));
        if (a == NULL) return false;
        if (b->len) memcpy(a, b->a, b->len * sizeof(kt_cell));
        kti_free(al, b->a);
        b->a = a;
        b->cap = cap;
    }
    b->a[b->len++] = c;
    return true;
}

/* Push c and its unvisited neighbours with their current accessibility. */
static bool bk_touch(wctx *w, bucket *bk, kt_cell c)
{
    const kt_allocator *al = &w->g->alloc;
    bool ok = true;
    if (!w->vis[c]) ok &= bk_push(al, &bk[w->deg[c]], c);
    unsigned m = w->mask[c];
    while (m) {
        int k = __builtin_ctz(m);
        m &= m - 1;
        kt_cell d = nb(w->g, c, k);
        if (!w->vis[d]) ok &= bk_push(al, &bk[w->deg[d]], d);
    }
    return ok;
}

/* The unvisited cell of least accessibility, or KT_CELL_NONE. */
static kt_cell bk_min(const wctx *w, bucket *bk)
{
    for (unsigned d = 0; d <= 8; d++)
        while (bk[d].len) {
            kt_cell c = bk[d].a[bk[d].len - 1];
            if (!w->vis[c] && w->deg[c] == d) return c;
            bk[d].len--;
        }
    return KT_CELL_NONE;
}

/* The paper's tourney variant of random Warnsdorff: a walk that lands a
 * move away from its start is closed into a cycle and a new walk begins at
 * the unvisited cell of least accessibility (Warnsdorff's own principle
 * applied to the choice of start).  A walk that gets stuck is retried (16
 * times); if it still fails, or its start cannot lie on a cycle any more,
 * the cycles next to its start are dissolved (a local repair, so that large
 * boards do not need a restart from scratch).  budget = restarts from
 * scratch allowed. */
kt_status kti_warnsdorff_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed,
                                 uint64_t budget)
{
    /* cycles are even (the graph is bipartite), so an odd board has no
     * tourney; nor has a board with a side below 3 */
    if ((g->ncells & 1) || g->width < 3 || g->height < 3) return KT_EUNSUPPORTED;
    if (budget == 0) budget = 100;
    wctx w;
    kt_status st = w_init(&w, g, seed);
    if (st != KT_OK) return st;
    size_t n = g->ncells;
    kt_tourney *t = NULL;
    /* cycle bookkeeping: cells of every closed cycle in `cells`, cycle id per cell */
    kt_cell *cells = kti_calloc(&g->alloc, n, sizeof(kt_cell));
    uint32_t *cid = kti_calloc(&g->alloc, n, sizeof(uint32_t));
    size_t *cstart = kti_calloc(&g->alloc, n / 4 + 2, sizeof(size_t));
    uint8_t *dead = kti_calloc(&g->alloc, n / 4 + 2, 1);
    bucket bk[9];
    memset(bk, 0, sizeof bk);
    if (!cells || !cid || !cstart || !dead || kti_tourney_alloc(&t, g) != KT_OK) {
        st = KT_ENOMEM;
        goto done;
    }
    st = KT_ELIMIT;
    for (uint64_t attempt = 0; attempt < budget; attempt++) {
        w_reset(&w);
        memset(t->mv, KTI_PAIR_EMPTY, n);
        size_t ncyc = 0, live = 0, used = 0, done = 0;
        for (unsigned d = 0; d <= 8; d++) bk[d].len = 0;
        bool mem = true;
        for (size_t c = 0; c < n; c++) mem &= bk_push(&g->alloc, &bk[w.deg[c]], (kt_cell)c);
        uint64_t repairs = 0, max_repairs = n / 64 + 64;
        bool failed = false;
        while (!failed) {
            if (!mem) {
                failed = true;
                break;
            }
            kt_cell s = bk_min(&w, bk);
            if (s == KT_CELL_NONE) break;
            unsigned tries = w.deg[s] < 2 ? 16 : 0; /* cannot close: repair at once */
            for (;;) {
                if (tries >= 16) goto repair;
                size_t len = 0;
                kt_cell c = s;
                w_visit(&w, c);
                w.ord[len++] = c;
                bool closed = false;
                for (;;) {
                    if (len >= 4 && adjacent(g, c, s)) {
                        closed = true;
                        break;
                    }
                    kt_cell d = w_choose(&w, c, KT_GENERATE_TIE_RANDOM, KT_CELL_NONE);
                    if (d == KT_CELL_NONE) break;
                    w_visit(&w, d);
                    w.ord[len++] = d;
                    c = d;
                }
                if (closed) {
                    for (size_t i = 0; i < len; i++) mem &= bk_touch(&w, bk, w.ord[i]);
                    if (used + len > n || ncyc + 1 >= n / 4 + 2) {
                        /* compact: drop the dissolved cycles (live cells <= n - len) */
                        size_t nu = 0, nc = 0;
                        for (size_t id = 0; id < ncyc; id++) {
                            if (dead[id]) continue;
                            size_t from = cstart[id], to = cstart[id + 1];
                            cstart[nc] = nu;
                            dead[nc] = 0;
                            for (size_t i = from; i < to; i++) {
                                cells[nu] = cells[i];
                                cid[cells[i]] = (uint32_t)nc;
                                nu++;
                            }
                            nc++;
                        }
                        cstart[nc] = nu;
                        used = nu;
                        ncyc = nc;
                    }
                    cstart[ncyc] = used;
                    dead[ncyc] = 0;
                    for (size_t i = 0; i < len; i++) {
                        kt_cell a = w.ord[i], b = w.ord[(i + 1) % len];
                        int m = kti_move_between(g, a, b);
                        kti_pair_add(t->mv, a, m);
                        kti_pair_add(t->mv, b, (m + 4) & 7);
                        cells[used++] = a;
                        cid[a] = (uint32_t)ncyc;
                    }
                    ncyc++;
                    cstart[ncyc] = used;
                    live++;
                    done += len;
                    break;
                }
                for (size_t i = len; i-- > 0;) w_unvisit(&w, w.ord[i]);
                if (++tries < 16) continue;
            repair:
                /* repair: dissolve the cycles around s, then rescan from the lowest freed cell */
                if (++repairs > max_repairs) {
                    failed = true;
                    break;
                }
                unsigned m = w.mask[s];
                bool any = false;
                while (m) {
                    int k = __builtin_ctz(m);
                    m &= m - 1;
                    kt_cell d = nb(g, s, k);
                    if (!w.vis[d]) continue;
                    uint32_t id = cid[d];
                    if (dead[id]) continue;
                    dead[id] = 1;
                    any = true;
                    live--;
                    for (size_t i = cstart[id]; i < cstart[id + 1]; i++) {
                        kt_cell e = cells[i];
                        w_unvisit(&w, e);
                        t->mv[e] = KTI_PAIR_EMPTY;
                        done--;
                    }
                    for (size_t i = cstart[id]; i < cstart[id + 1]; i++) mem &= bk_touch(&w, bk, cells[i]);
                }
                mem &= bk_touch(&w, bk, s);
                if (!any) failed = true;
                break;
            }
        }
        if (!failed && done == n) {
            t->shape = KT_SHAPE_CYCLES;
            t->size = live;
            st = KT_OK;
            break;
        }
    }
done:
    w_free(&w);
    kti_free(&g->alloc, cells);
    kti_free(&g->alloc, cid);
    kti_free(&g->alloc, cstart);
    kti_free(&g->alloc, dead);
    for (unsigned d = 0; d <= 8; d++) kti_free(&g->alloc, bk[d].a);
    if (st != KT_OK) {
        kt_tourney_free(t);
        return st;
    }
    *out = t;
    return KT_OK;
}
