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
 * closed by Posa rotations (bounded).  The tourney variant of Parberry
 * (1997) closes a walk as soon as it lands a move away from its start and begins
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

/* The walk state; the move masks of a large board take a while (10^8
 * cells: seconds), so the setup reports progress (unknown total) too. */
static kt_status w_init(wctx *w, const kt_graph *g, uint64_t seed, kti_progress *pr)
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
        if ((c & 0xFFFFu) == 0 && kti_gen_tick(pr, 0, 0)) {
            w_free(w);
            return KT_ECANCELED;
        }
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

/* Work units (cells reversed, walk steps) between two looks at the clock. */
#define TICK_WORK ((uint64_t)1 << 16)

kt_status kti_rotate_end(const kt_graph *g, kt_cell *ord, uint32_t *pos, size_t n, kt_cell target,
                         bool exact, uint64_t work, kti_rng *rng, kti_progress *pr)
{
    wctx w;
    w.g = g;
    w.ord = ord;
    w.pos = pos;
    uint64_t spent = 0, next_tick = TICK_WORK;
    uint64_t tx = target % g->width, ty = target / g->width;
    while (spent <= work) {
        kt_cell e = ord[n - 1];
        if (exact ? e == target : adjacent(g, e, target)) return KT_OK;
        if (spent >= next_tick) {
            next_tick = spent + TICK_WORK;
            if (kti_gen_tick(pr, spent, work)) return KT_ECANCELED;
        }
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
        if (nc == 0) return KT_ENOTFOUND;
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
    return KT_ENOTFOUND;
}

/* One Warnsdorff walk from start over the whole board: KT_OK when
 * complete, KT_ENOTFOUND when stuck, KT_ECANCELED.  done/total: the
 * attempt, for the progress reports. */
static kt_status walk(wctx *w, kt_cell start, kt_generate_tiebreak tie, kti_progress *pr,
                      uint64_t done, uint64_t total)
{
    w_reset(w);
    kt_cell c = start;
    w_visit(w, c);
    w->ord[0] = c;
    for (size_t i = 1; i < w->g->nverts; i++) {
        if ((i & (TICK_WORK - 1)) == 0 && kti_gen_tick(pr, done, total)) return KT_ECANCELED;
        c = w_choose(w, c, tie, KT_CELL_NONE);
        if (c == KT_CELL_NONE) return KT_ENOTFOUND;
        w_visit(w, c);
        w->ord[i] = c;
    }
    return KT_OK;
}

/* Close a complete walk into a cycle by rotating its end next to its start
 * (Posa rotations, work linear in the side times the cells). */
static kt_status close_walk(wctx *w, kti_progress *pr)
{
    const kt_graph *g = w->g;
    size_t n = g->nverts;
    if (adjacent(g, w->ord[0], w->ord[n - 1])) return KT_OK;
    for (size_t i = 0; i < n; i++) w->pos[w->ord[i]] = (uint32_t)i;
    uint64_t side = g->width > g->height ? g->width : g->height;
    return kti_rotate_end(g, w->ord, w->pos, n, w->ord[0], false, (4 * side + 64) * (uint64_t)n,
                          &w->rng, pr);
}

kt_status kti_warnsdorff_tour(kt_tourney **out, const kt_graph *g, kt_shape shape, kt_cell start,
                              kt_generate_tiebreak tie, uint64_t seed, uint64_t attempts,
                              kti_progress *pr)
{
    if (g->ncells == 1) return kt_tourney_from_order(out, g, &(kt_cell){0}, 1, shape, NULL);
    wctx w;
    KTI_TRY(w_init(&w, g, seed, pr));
    kt_cell s0 = start == KT_CELL_NONE ? 0 : start;
    kt_status st = KT_ELIMIT;
    for (uint64_t a = 0; a < attempts; a++) {
        if (kti_gen_tick(pr, a, attempts)) {
            st = KT_ECANCELED;
            break;
        }
        kt_status ws = walk(&w, s0, tie, pr, a, attempts);
        if (ws == KT_OK && shape == KT_SHAPE_CYCLES) ws = close_walk(&w, pr);
        if (ws == KT_ENOTFOUND) continue;
        st = ws == KT_OK ? kt_tourney_from_order(out, g, w.ord, g->nverts, shape, NULL) : ws;
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

/* The state of the tourney variant: the walk context, the tourney being
 * built, and the closed cycles (the cells of cycle id in
 * cells[cstart[id] .. cstart[id + 1]), cycle id per cell in cid, dissolved
 * cycles marked dead until the next compaction). */
typedef struct tctx {
    wctx w;
    kt_tourney *t;
    kt_cell *cells;
    uint32_t *cid;
    size_t *cstart;
    uint8_t *dead;
    size_t maxcyc;                /* room in cstart and dead */
    bucket bk[9];
    size_t ncyc, live, used, done; /* cycles stored, live cycles, cells stored, cells covered */
    bool mem;                      /* false once a bucket could not grow */
    uint64_t work, next_tick;      /* walk steps, for the progress ticks */
} tctx;

static void tctx_free(tctx *T)
{
    const kt_allocator *al = &T->w.g->alloc;
    w_free(&T->w);
    kti_free(al, T->cells);
    kti_free(al, T->cid);
    kti_free(al, T->cstart);
    kti_free(al, T->dead);
    for (unsigned d = 0; d <= 8; d++) kti_free(al, T->bk[d].a);
    kt_tourney_free(T->t);
}

static kt_status tctx_init(tctx *T, const kt_graph *g, uint64_t seed, kti_progress *pr)
{
    memset(T, 0, sizeof *T);
    KTI_TRY(w_init(&T->w, g, seed, pr));
    size_t n = g->ncells;
    const kt_allocator *al = &g->alloc;
    T->maxcyc = n / 4 + 2; /* cycles have at least 4 cells */
    T->cells = kti_calloc(al, n, sizeof(kt_cell));
    T->cid = kti_calloc(al, n, sizeof(uint32_t));
    T->cstart = kti_calloc(al, T->maxcyc, sizeof(size_t));
    T->dead = kti_calloc(al, T->maxcyc, 1);
    if (!T->cells || !T->cid || !T->cstart || !T->dead || kti_tourney_alloc(&T->t, g) != KT_OK) {
        tctx_free(T);
        return KT_ENOMEM;
    }
    return KT_OK;
}

/* Start an attempt from scratch: nothing visited, every cell in its
 * bucket.  True when the progress callback asked to stop (filling the
 * buckets of a large board takes a while: 10^8 cells, seconds). */
static bool tctx_reset(tctx *T, kti_progress *pr, uint64_t done, uint64_t total)
{
    size_t n = T->w.n;
    w_reset(&T->w);
    memset(T->t->mv, KTI_PAIR_EMPTY, n);
    T->ncyc = T->live = T->used = T->done = 0;
    T->mem = true;
    for (unsigned d = 0; d <= 8; d++) T->bk[d].len = 0;
    for (size_t c = 0; c < n; c++) {
        if ((c & (TICK_WORK - 1)) == 0 && kti_gen_tick(pr, done, total)) return true;
        T->mem &= bk_push(&T->w.g->alloc, &T->bk[T->w.deg[c]], (kt_cell)c);
    }
    return false;
}

/* One random walk from s that is closed as soon as it lands a move away
 * from s (after at least 4 cells): true with the cycle in w.ord[0..*len);
 * a walk that gets stuck is undone. */
static bool cycle_walk(tctx *T, kt_cell s, size_t *len)
{
    wctx *w = &T->w;
    size_t k = 0;
    kt_cell c = s;
    w_visit(w, c);
    w->ord[k++] = c;
    for (;;) {
        if (k >= 4 && adjacent(w->g, c, s)) break;
        kt_cell d = w_choose(w, c, KT_GENERATE_TIE_RANDOM, KT_CELL_NONE);
        if (d == KT_CELL_NONE) {
            for (size_t i = k; i-- > 0;) w_unvisit(w, w->ord[i]);
            T->work += k;
            return false;
        }
        w_visit(w, d);
        w->ord[k++] = d;
        c = d;
    }
    T->work += k;
    *len = k;
    return true;
}

/* Drop the dissolved cycles from the bookkeeping (renumbering the rest). */
static void cycles_compact(tctx *T)
{
    size_t nu = 0, nc = 0;
    for (size_t id = 0; id < T->ncyc; id++) {
        if (T->dead[id]) continue;
        size_t from = T->cstart[id], to = T->cstart[id + 1];
        T->cstart[nc] = nu;
        T->dead[nc] = 0;
        for (size_t i = from; i < to; i++) {
            T->cells[nu] = T->cells[i];
            T->cid[T->cells[i]] = (uint32_t)nc;
            nu++;
        }
        nc++;
    }
    T->cstart[nc] = nu;
    T->used = nu;
    T->ncyc = nc;
}

/* Store the cycle in w.ord[0..len) as a cycle of the tourney. */
static void cycle_store(tctx *T, size_t len)
{
    const kt_graph *g = T->w.g;
    for (size_t i = 0; i < len; i++) T->mem &= bk_touch(&T->w, T->bk, T->w.ord[i]);
    /* live cells are at most n - len, so compaction always makes room */
    if (T->used + len > g->ncells || T->ncyc + 1 >= T->maxcyc) cycles_compact(T);
    T->cstart[T->ncyc] = T->used;
    T->dead[T->ncyc] = 0;
    for (size_t i = 0; i < len; i++) {
        kt_cell a = T->w.ord[i], b = T->w.ord[(i + 1) % len];
        int m = kti_move_between(g, a, b);
        KTI_ASSERT(m >= 0 && m < 8);
        kti_pair_add(T->t->mv, a, m);
        kti_pair_add(T->t->mv, b, (m + 4) & 7);
        T->cells[T->used++] = a;
        T->cid[a] = (uint32_t)T->ncyc;
    }
    T->ncyc++;
    T->cstart[T->ncyc] = T->used;
    T->live++;
    T->done += len;
}

/* The local repair: dissolve the cycles through the neighbours of s, so
 * that the walks can start again around it.  False when s has no visited
 * neighbour (nothing to dissolve). */
static bool cycles_dissolve_around(tctx *T, kt_cell s)
{
    wctx *w = &T->w;
    unsigned m = w->mask[s];
    bool any = false;
    while (m) {
        int k = __builtin_ctz(m);
        m &= m - 1;
        kt_cell d = nb(w->g, s, k);
        if (!w->vis[d]) continue;
        uint32_t id = T->cid[d];
        if (T->dead[id]) continue;
        T->dead[id] = 1;
        any = true;
        T->live--;
        for (size_t i = T->cstart[id]; i < T->cstart[id + 1]; i++) {
            kt_cell e = T->cells[i];
            w_unvisit(w, e);
            T->t->mv[e] = KTI_PAIR_EMPTY;
            T->done--;
        }
        for (size_t i = T->cstart[id]; i < T->cstart[id + 1]; i++)
            T->mem &= bk_touch(w, T->bk, T->cells[i]);
    }
    T->mem &= bk_touch(w, T->bk, s);
    return any;
}

/* One attempt from scratch: walks from the least accessible unvisited
 * cell, each retried 16 times, then a local repair; at most n / 64 + 64
 * repairs.  KT_OK with every cell covered, KT_ENOTFOUND, KT_ENOMEM or
 * KT_ECANCELED. */
static kt_status tourney_attempt(tctx *T, kti_progress *pr, uint64_t attempt, uint64_t restarts)
{
    if (tctx_reset(T, pr, attempt, restarts)) return KT_ECANCELED;
    uint64_t repairs = 0, max_repairs = T->w.n / 64 + 64;
    for (;;) {
        if (!T->mem) return KT_ENOMEM;
        if (T->work >= T->next_tick) {
            T->next_tick = T->work + TICK_WORK;
            if (kti_gen_tick(pr, attempt, restarts)) return KT_ECANCELED;
        }
        kt_cell s = bk_min(&T->w, T->bk);
        if (s == KT_CELL_NONE) break;
        size_t len = 0;
        bool closed = false;
        /* a cell with fewer than 2 unvisited neighbours cannot close: repair at once */
        for (unsigned tries = 0; tries < 16 && !closed && T->w.deg[s] >= 2; tries++)
            closed = cycle_walk(T, s, &len);
        if (closed) {
            cycle_store(T, len);
            continue;
        }
        if (++repairs > max_repairs || !cycles_dissolve_around(T, s)) break;
    }
    /* A lost bucket entry changes the walk: a failed allocation anywhere in
     * the attempt is KT_ENOMEM, never a restart (which would give another
     * tourney for the same seed, or KT_ELIMIT). */
    if (!T->mem) return KT_ENOMEM;
    return T->done == T->w.n ? KT_OK : KT_ENOTFOUND;
}

/* Parberry's tourney variant of random Warnsdorff: a walk that lands a
 * move away from its start is closed into a cycle and a new walk begins at
 * the unvisited cell of least accessibility (Warnsdorff's own principle
 * applied to the choice of start).  A walk that gets stuck is retried (16
 * times); if it still fails, or its start cannot lie on a cycle any more,
 * the cycles next to its start are dissolved (a local repair, so that large
 * boards do not need a restart from scratch).  restarts = attempts from
 * scratch allowed. */
kt_status kti_warnsdorff_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed,
                                 uint64_t restarts, kti_progress *pr)
{
    /* cycles are even (the graph is bipartite), so an odd board has no
     * tourney; nor has a board with a side below 3 */
    if ((g->ncells & 1) || g->width < 3 || g->height < 3) return KT_EUNSUPPORTED;
    tctx T;
    KTI_TRY(tctx_init(&T, g, seed, pr));
    kt_status st = KT_ELIMIT;
    for (uint64_t attempt = 0; attempt < restarts; attempt++) {
        st = tourney_attempt(&T, pr, attempt, restarts);
        if (st != KT_ENOTFOUND) break;
        st = KT_ELIMIT;
    }
    if (st == KT_OK) {
        T.t->shape = KT_SHAPE_CYCLES;
        T.t->size = T.live;
        *out = T.t;
        T.t = NULL;
    }
    tctx_free(&T);
    return st;
}
