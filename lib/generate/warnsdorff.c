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
 *  - W+ (Squirrel and Cull 1996): ties go to the first move in a fixed
 *    ordering of the eight moves; on an n x n board the walk starts in a
 *    corner and the ordering changes when the walk leaves given cells (a
 *    sequence of 4 to 6 orderings per class of n mod 8, n mod 16 for n odd
 *    = 5 mod 8), which their program uses to give tours on every n from 5
 *    to 1000.  On other boards the first ordering is used throughout.
 *  - W2: the rule applied a second time: among the tied candidates, the one
 *    whose least accessible unvisited neighbour is least accessible, then
 *    random.
 * Closed tours: a complete walk whose end is not a move from its start is
 * closed by Posa rotations (bounded).  The tourney variant of Parberry
 * (1997) closes a walk as soon as it lands a move away from its start and begins
 * a new walk at the first unvisited cell.
 */
#include "generate_internal.h"
#include "util/util.h"

/* Most rules of W+ on one board. */
#define KTI_WPLUS_RULES 6

typedef struct wctx {
    const kt_graph *g;
    size_t n;
    uint8_t *deg;    /* unvisited neighbours of each cell */
    uint8_t *vis;
    uint8_t *mask;   /* move mask per cell (board only) */
    kt_cell *ord;
    uint32_t *pos;
    kti_rng rng;
    /* Squirrel and Cull's W+: per rule, the rank of each of our moves in
     * its ordering and the cell on leaving which the next rule starts */
    uint8_t rank[KTI_WPLUS_RULES][8];
    kt_cell sw[KTI_WPLUS_RULES];
    unsigned rule;
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

static void wp_setup(wctx *w);

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
    w->ord = kti_gen_alloc(al, w->n, sizeof(kt_cell));
    w->pos = kti_gen_alloc(al, w->n, sizeof(uint32_t));
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
    wp_setup(w);
    return KT_OK;
}

/* W+ (Squirrel and Cull 1996): per class of board side m, the orderings
 * of their moves 1..8 = (dx, dy) (-2,1) (-1,2) (1,2) (2,1) (2,-1) (1,-2)
 * (-1,-2) (-2,-1), each with the cell (1-based x, y; coordinates a*m + b,
 * halved when `half` says so) on leaving which the next ordering starts.
 * These are the data of the algorithm as published (its rules), not code. */
typedef struct wp_rule {
    char order[9];
    int8_t xa, xb, ya, yb; /* x = (xa m + xb) [/ 2], y likewise; xa = xb = 0: last rule */
    uint8_t half;          /* 1: halve x, 2: halve y */
} wp_rule;

static const int8_t wp_dx[8] = {-2, -1, 1, 2, 2, 1, -1, -2};
static const int8_t wp_dy[8] = {1, 2, 2, 1, -1, -2, -2, -1};

static const wp_rule wp_m8_0[] = {{"34261578", 1, -1, 1, -2, 0}, {"87642135", 0, 2, 0, 2, 0},
                                  {"51867342", 1, -8, 0, 1, 0}, {"51342678", 0, 7, 1, -3, 0},
                                  {"21435678", 0, 0, 0, 0, 0}};
static const wp_rule wp_m8_1[] = {{"34261578", 1, -1, 1, -2, 0}, {"87642135", 0, 2, 0, 2, 0},
                                  {"51324678", 1, -6, 1, 9, 2}, {"32481765", 0, 0, 0, 0, 0}};
static const wp_rule wp_m8_2[] = {{"34261578", 0, 6, 0, 1, 0},   {"87642135", 0, 3, 0, 1, 0},
                                  {"54132678", 1, -15, 0, 4, 0}, {"52431678", 0, 10, 1, -2, 0},
                                  {"85647123", 0, 5, 1, -6, 2},  {"15746823", 0, 0, 0, 0, 0}};
static const wp_rule wp_m8_3[] = {{"34625718", 1, -1, 1, -2, 0}, {"42681357", 1, -6, 1, 0, 0},
                                  {"86512347", 0, 2, 0, 5, 0},   {"51867342", 1, -10, 0, 3, 0},
                                  {"61825437", 1, 1, 1, -2, 1},  {"71642538", 0, 0, 0, 0, 0}};
static const wp_rule wp_m8_4[] = {{"34261578", 1, -1, 1, -2, 0}, {"87642135", 0, 2, 0, 2, 0},
                                  {"51867342", 1, -8, 0, 1, 0},  {"51342678", 0, 10, 1, -5, 0},
                                  {"86753421", 0, 13, 1, 2, 2},  {"78563421", 0, 0, 0, 0, 0}};
static const wp_rule wp_m16_5[] = {{"34261578", 1, -1, 1, -2, 0}, {"87642135", 0, 2, 0, 2, 0},
                                   {"51324678", 1, -2, 1, -5, 2}, {"15234678", 0, 0, 0, 0, 0}};
static const wp_rule wp_m16_13[] = {{"34261578", 1, -1, 1, -2, 0}, {"87642135", 0, 2, 0, 2, 0},
                                    {"51324678", 1, -2, 1, -13, 2}, {"15234678", 0, 0, 0, 0, 0}};
static const wp_rule wp_m8_6[] = {{"34261578", 0, 6, 0, 1, 0},   {"87642135", 0, 3, 0, 1, 0},
                                  {"54132678", 1, -10, 0, 1, 0}, {"52431678", 0, 10, 1, -2, 0},
                                  {"85647123", 0, 3, 1, 8, 2},   {"12453678", 0, 0, 0, 0, 0}};
static const wp_rule wp_m8_7[] = {{"34625718", 1, -1, 1, -2, 0}, {"42681357", 1, -6, 1, 0, 0},
                                  {"86512347", 0, 2, 0, 5, 0},   {"51867342", 1, -6, 0, 3, 0},
                                  {"61825437", 1, 1, 1, -2, 1},  {"61357284", 0, 0, 0, 0, 0}};
static const wp_rule wp_plain[] = {{"34261578", 0, 0, 0, 0, 0}};

/* The cell of a switch, or KT_CELL_NONE when it is off the board (the
 * program then never switches) or for the last rule. */
static kt_cell wp_cell(const kt_graph *g, const wp_rule *r)
{
    int64_t m = g->width;
    if (r->xa == 0 && r->xb == 0) return KT_CELL_NONE;
    int64_t x = r->xa * m + r->xb, y = r->ya * m + r->yb;
    if (r->half & 1) x /= 2; /* the numerators are even */
    if (r->half & 2) y /= 2;
    if (x < 1 || y < 1 || x > m || y > m) return KT_CELL_NONE;
    return (kt_cell)((y - 1) * m + (x - 1));
}

/* Load the rules of W+ for g into w. */
static void wp_setup(wctx *w)
{
    const kt_graph *g = w->g;
    const wp_rule *r = wp_plain;
    size_t nr = 1, m = g->width;
    static const wp_rule *const by8[8] = {wp_m8_0, wp_m8_1, wp_m8_2, wp_m8_3,
                                          wp_m8_4, NULL,    wp_m8_6, wp_m8_7};
    static const size_t len8[8] = {5, 4, 6, 6, 6, 4, 6, 6};
    if (g->width == g->height && m >= 5) {
        r = m % 8 != 5 ? by8[m % 8] : m % 16 == 5 ? wp_m16_5 : wp_m16_13;
        nr = len8[m % 8];
    }
    for (size_t i = 0; i < KTI_WPLUS_RULES; i++) {
        const wp_rule *ri = &r[i < nr ? i : nr - 1];
        w->sw[i] = i + 1 < nr ? wp_cell(g, ri) : KT_CELL_NONE;
        for (int k = 0; k < 8; k++) {
            w->rank[i][k] = 8;
            for (int j = 0; j < 8; j++)
                if (g->dx[k] == wp_dx[ri->order[j] - '1'] && g->dy[k] == wp_dy[ri->order[j] - '1'])
                    w->rank[i][k] = (uint8_t)j;
        }
    }
}

/* Nothing visited; true when the callback asked to stop (10^8 cells take
 * a while). */
static bool w_reset(wctx *w, kti_progress *pr, uint64_t done, uint64_t total)
{
    for (size_t c = 0; c < w->n; c++) {
        if ((c & 0xFFFFu) == 0 && kti_gen_tick(pr, done, total)) return true;
        w->vis[c] = 0;
        w->deg[c] = (uint8_t)__builtin_popcount(w->mask[c]);
    }
    return false;
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

/* W+: the candidate whose move from c comes first in the current ordering. */
static kt_cell wp_choose(const wctx *w, kt_cell c, const kt_cell *cand, unsigned nc)
{
    const uint8_t *rank = w->rank[w->rule];
    unsigned best = 0, br = 99;
    for (unsigned i = 0; i < nc; i++) {
        unsigned r = rank[kti_move_between(w->g, c, cand[i])];
        if (r < br) {
            br = r;
            best = i;
        }
    }
    return cand[best];
}

/* W2: keep the candidates whose least accessible unvisited neighbour is
 * least accessible (a dead end ahead, 0, counts as the least). */
static unsigned w2_filter(const wctx *w, kt_cell *cand, unsigned nc)
{
    unsigned low = ~0u, k = 0;
    for (unsigned i = 0; i < nc; i++) {
        unsigned mn = 9, m = w->mask[cand[i]];
        while (m) {
            int b = __builtin_ctz(m);
            m &= m - 1;
            kt_cell e = nb(w->g, cand[i], b);
            if (!w->vis[e] && w->deg[e] < mn) mn = w->deg[e];
        }
        if (mn < low) { low = mn; k = 0; }
        if (mn == low) cand[k++] = cand[i];
    }
    return k;
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
    if (tie == KT_GENERATE_TIE_WPLUS) return wp_choose(w, c, cand, nc);
    if (tie == KT_GENERATE_TIE_W2) nc = w2_filter(w, cand, nc);
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

/* The path as a circular array: logical cell i sits at physical index
 * (h + i) mod n when reading forwards, (h - i) mod n backwards.  A Posa
 * rotation at the end with pivot p turns L[0..p] L[p+1..n-1] into
 * L[0..p] L[n-1..p+1]: reversing the suffix does it, and so does reversing
 * the prefix in place and then reading the array the other way round from
 * where L[0] now sits.  Taking the shorter side makes a rotation cost the
 * smaller part instead of the whole suffix. */
typedef struct cpath {
    kt_cell *ord;
    uint32_t *pos; /* physical index of each cell */
    size_t n, h;
    bool fwd;
} cpath;

static inline size_t cp_phys(const cpath *c, size_t i)
{
    size_t k = c->h + (c->fwd ? i : c->n - i);
    return k >= c->n ? k - c->n : k;
}

static inline size_t cp_logical(const cpath *c, kt_cell x)
{
    size_t k = c->pos[x];
    size_t i = c->fwd ? k + c->n - c->h : c->h + c->n - k;
    return i >= c->n ? i - c->n : i;
}

static inline kt_cell cp_at(const cpath *c, size_t i)
{
    return c->ord[cp_phys(c, i)];
}

/* Reverse the logical range [i, j]. */
static void cp_reverse(cpath *c, size_t i, size_t j)
{
    for (; i < j; i++, j--) {
        size_t a = cp_phys(c, i), b = cp_phys(c, j);
        kt_cell x = c->ord[a], y = c->ord[b];
        c->ord[a] = y;
        c->pos[y] = (uint32_t)a;
        c->ord[b] = x;
        c->pos[x] = (uint32_t)b;
    }
}

/* The rotation with pivot p; returns its cost in cells moved. */
static size_t cp_rotate(cpath *c, size_t p)
{
    size_t suffix = c->n - 1 - p;
    if (suffix <= p + 1) {
        cp_reverse(c, p + 1, c->n - 1);
        return suffix;
    }
    cp_reverse(c, 0, p);
    c->h = cp_phys(c, p);
    c->fwd = !c->fwd;
    return p + 1;
}

static void reverse_array(kt_cell *a, size_t i, size_t j)
{
    for (; i < j; i++, j--) {
        kt_cell x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
}

/* Back to logical == physical (linear, in place). */
static void cp_normalise(cpath *c)
{
    size_t n = c->n;
    if (c->fwd && c->h == 0) return;
    if (!c->fwd) { /* read backwards from h = read forwards from n-1-h after reversing all */
        reverse_array(c->ord, 0, n - 1);
        c->h = n - 1 - c->h;
    }
    if (c->h != 0) { /* rotate left by h */
        reverse_array(c->ord, 0, c->h - 1);
        reverse_array(c->ord, c->h, n - 1);
        reverse_array(c->ord, 0, n - 1);
    }
    c->h = 0;
    c->fwd = true;
    for (size_t i = 0; i < n; i++) c->pos[c->ord[i]] = (uint32_t)i;
}

/* Work units (cells reversed, walk steps) between two looks at the clock. */
#define TICK_WORK ((uint64_t)1 << 16)

kt_status kti_rotate_end(const kt_graph *g, kt_cell *ord, uint32_t *pos, size_t n, kt_cell target,
                         bool exact, uint64_t work, kti_rng *rng, kti_progress *pr)
{
    cpath cp = {ord, pos, n, 0, true};
    uint64_t spent = 0, next_tick = TICK_WORK;
    uint64_t tx = target % g->width, ty = target / g->width;
    kt_status st = KT_ENOTFOUND;
    while (spent <= work) {
        kt_cell e = cp_at(&cp, n - 1);
        if (exact ? e == target : adjacent(g, e, target)) {
            st = KT_OK;
            break;
        }
        if (spent >= next_tick) {
            next_tick = spent + TICK_WORK;
            if (kti_gen_tick(pr, spent, work)) {
                st = KT_ECANCELED;
                break;
            }
        }
        /* candidates: neighbours y of e on the path, not e's predecessor */
        size_t cand[8];
        uint64_t score[8];
        unsigned nc = 0;
        for (int k = 0; k < 8; k++) {
            kt_cell y = kti_step(g, e, k);
            if (y == KT_CELL_NONE) continue;
            size_t py = cp_logical(&cp, y);
            if (py >= n - 2) continue;
            kt_cell ne = cp_at(&cp, py + 1); /* new end */
            int64_t dx = (int64_t)(ne % g->width) - (int64_t)tx, dy = (int64_t)(ne / g->width) - (int64_t)ty;
            uint64_t d = (uint64_t)(dx * dx + dy * dy);
            if (exact ? ne == target : adjacent(g, ne, target)) d = 0;
            cand[nc] = py;
            score[nc++] = d * 64 + (kti_rng_next(rng) & 63);
        }
        if (nc == 0) break;
        unsigned best = 0;
        /* mostly greedy, sometimes random to escape cycles */
        if ((kti_rng_next(rng) & 7) == 0) best = (unsigned)kti_rng_below(rng, nc);
        else
            for (unsigned i = 1; i < nc; i++)
                if (score[i] < score[best]) best = i;
        spent += cp_rotate(&cp, cand[best]) + 8;
    }
    cp_normalise(&cp);
    return st;
}

/* One Warnsdorff walk from start over the whole board: KT_OK when
 * complete, KT_ENOTFOUND when stuck, KT_ECANCELED.  done/total: the
 * attempt, for the progress reports. */
static kt_status walk(wctx *w, kt_cell start, kt_generate_tiebreak tie, kti_progress *pr,
                      uint64_t done, uint64_t total)
{
    if (w_reset(w, pr, done, total)) return KT_ECANCELED;
    kt_cell c = start;
    w_visit(w, c);
    w->ord[0] = c;
    w->rule = 0;
    for (size_t i = 1; i < w->g->nverts; i++) {
        if ((i & (TICK_WORK - 1)) == 0 && kti_gen_tick(pr, done, total)) return KT_ECANCELED;
        if (c == w->sw[w->rule]) w->rule++; /* W+: leaving a switch cell */
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

/* The k-th start near the centre: the centre, then cells around it. */
static kt_cell near_centre(const kt_graph *g, uint64_t k)
{
    static const int8_t off[8][2] = {{0, 0}, {1, 1}, {0, 1}, {2, 1}, {1, 0}, {-1, -1}, {-1, 0}, {0, -1}};
    int64_t x = (int64_t)(g->width / 2) + off[k % 8][0], y = (int64_t)(g->height / 2) + off[k % 8][1];
    if (x >= (int64_t)g->width) x = (int64_t)g->width - 1;
    if (y >= (int64_t)g->height) y = (int64_t)g->height - 1;
    return (kt_cell)((uint64_t)y * g->width + (uint64_t)x);
}

kt_status kti_warnsdorff_tour(kt_tourney **out, const kt_graph *g, kt_shape shape, kt_cell start,
                              kt_generate_tiebreak tie, uint64_t seed, uint64_t attempts,
                              kti_progress *pr)
{
    if (g->ncells == 1) return kt_tourney_from_order(out, g, &(kt_cell){0}, 1, shape, NULL);
    wctx w;
    KTI_TRY(w_init(&w, g, seed, pr));
    /* Default start: a corner, but the centre for closed tours by Roth's
     * rule: its walks spiral from the rim inwards and end near the centre,
     * so from there they end next to their start and the closing rotations
     * are few (from a corner they cost about 50 cells per cell at
     * 1000 x 1000).  A walk from a given cell fails on some boards
     * whatever the seed (28 x 28 from the centre; 5000 x 5000 from the
     * centre and the cell beside it), so the attempts move round the cells
     * next to the centre, and every fourth one starts from the corner.  The
     * other rules close less often from the centre (Pohl fails 64 of 64
     * walks on 8 x 8). */
    bool centre = start == KT_CELL_NONE && shape == KT_SHAPE_CYCLES && tie == KT_GENERATE_TIE_ROTH;
    kt_status st = KT_ELIMIT;
    for (uint64_t a = 0; a < attempts; a++) {
        if (kti_gen_tick(pr, a, attempts)) {
            st = KT_ECANCELED;
            break;
        }
        kt_cell s0 = start != KT_CELL_NONE ? start : centre && (a & 3) != 3 ? near_centre(g, a - a / 4) : 0;
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
        kt_cell *a = kti_gen_alloc(al, cap, sizeof(kt_cell));
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
    size_t *bx, *by, nx, ny;       /* tile borders: columns bx[0..nx], rows by[0..ny] */
    size_t x0, x1, y0, y1;         /* the tile being built */
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
    kti_free(al, T->bx);
    kt_tourney_free(T->t);
}

/* Boards with a side above TILE_ABOVE are cut into tiles of side about
 * TILE_SIDE (100..200 on such a side), and the walks are confined to their
 * tile: on the whole board the walks of the variant grow long and the
 * local repairs thrash (400 x 400: every attempt failed, 23 s in all;
 * 600 x 600: KT_ELIMIT after 47-110 s), while a tile of up to 256 x 256
 * succeeds in an attempt or two.  The cycles then never cross a tile's
 * border. */
#define TILE_ABOVE 200u
#define TILE_SIDE 128u

/* The borders of near-equal parts of 0..len-1 (b[0] = 0 < ... < b[P] =
 * len), of even length when `even` (len is then even); returns P. */
static size_t tile_bounds(size_t *b, size_t len, bool even)
{
    size_t P = len > TILE_ABOVE ? (len + TILE_SIDE - 1) / TILE_SIDE : 1;
    size_t base = len / P;
    if (even) base &= ~(size_t)1;
    size_t extra = len - base * P, step = even ? 2 : 1;
    b[0] = 0;
    for (size_t p = 0; p < P; p++) {
        size_t sz = base;
        if (extra >= step) {
            sz += step;
            extra -= step;
        }
        b[p + 1] = b[p] + sz;
    }
    return P;
}

/* The part of coordinate v among the borders b[0..P]. */
static inline size_t part_of(const size_t *b, size_t P, size_t v)
{
    size_t p = v * P / b[P]; /* near-equal parts: a step or two off at most */
    while (p > 0 && v < b[p]) p--;
    while (p + 1 < P && v >= b[p + 1]) p++;
    return p;
}

/* The tile borders, and the moves of every cell confined to its tile.
 * KT_OK, KT_ENOMEM or KT_ECANCELED. */
static kt_status tile_masks(tctx *T, kti_progress *pr)
{
    wctx *w = &T->w;
    const kt_graph *g = w->g;
    size_t W = g->width, H = g->height;
    T->bx = kti_calloc(&g->alloc, W + H + 2, sizeof(size_t));
    if (T->bx == NULL) return KT_ENOMEM;
    T->by = T->bx + W + 1;
    T->nx = tile_bounds(T->bx, W, (W & 1) == 0);
    T->ny = tile_bounds(T->by, H, (W & 1) != 0); /* the board has an even side */
    if (T->nx == 1 && T->ny == 1) return KT_OK;
    for (size_t c = 0; c < w->n; c++) {
        if ((c & 0xFFFFu) == 0 && kti_gen_tick(pr, 0, 0)) return KT_ECANCELED;
        size_t x = c % W, y = c / W;
        size_t px = part_of(T->bx, T->nx, x), py = part_of(T->by, T->ny, y);
        unsigned m = w->mask[c], keep = 0;
        while (m) {
            int k = __builtin_ctz(m);
            m &= m - 1;
            kt_cell d = nb(g, (kt_cell)c, k);
            size_t dx = d % W, dy = d / W;
            if (dx >= T->bx[px] && dx < T->bx[px + 1] && dy >= T->by[py] && dy < T->by[py + 1])
                keep |= 1u << k;
        }
        w->mask[c] = (uint8_t)keep;
    }
    return KT_OK;
}

static kt_status tctx_init(tctx *T, const kt_graph *g, uint64_t seed, kti_progress *pr)
{
    memset(T, 0, sizeof *T);
    KTI_TRY(w_init(&T->w, g, seed, pr));
    size_t n = g->ncells;
    const kt_allocator *al = &g->alloc;
    T->maxcyc = n / 4 + 2; /* cycles have at least 4 cells */
    /* written before they are read */
    T->cells = kti_gen_alloc(al, n, sizeof(kt_cell));
    T->cid = kti_gen_alloc(al, n, sizeof(uint32_t));
    T->cstart = kti_gen_alloc(al, T->maxcyc, sizeof(size_t));
    T->dead = kti_gen_alloc(al, T->maxcyc, 1);
    if (!T->cells || !T->cid || !T->cstart || !T->dead || kti_tourney_alloc(&T->t, g) != KT_OK) {
        tctx_free(T);
        return KT_ENOMEM;
    }
    kt_status st = tile_masks(T, pr);
    if (st != KT_OK) tctx_free(T);
    return st;
}

/* Start an attempt at the current tile from scratch: its cells
 * unvisited, each in its bucket (the buckets hold this tile only).  True
 * when the progress callback asked to stop. */
static bool tile_reset(tctx *T, kti_progress *pr, uint64_t done, uint64_t total)
{
    wctx *w = &T->w;
    size_t W = w->g->width;
    for (unsigned d = 0; d <= 8; d++) T->bk[d].len = 0;
    T->mem = true;
    size_t k = 0;
    for (size_t y = T->y0; y < T->y1; y++)
        for (size_t c = y * W + T->x0; c < y * W + T->x1; c++) {
            if ((++k & (TICK_WORK - 1)) == 0 && kti_gen_tick(pr, done, total)) return true;
            w->vis[c] = 0;
            w->deg[c] = (uint8_t)__builtin_popcount(w->mask[c]);
            T->t->mv[c] = KTI_PAIR_EMPTY;
            T->mem &= bk_push(&w->g->alloc, &T->bk[w->deg[c]], (kt_cell)c);
        }
    return false;
}

/* Drop the cycles of a failed attempt at the current tile. */
static void tile_undo(tctx *T, size_t done0)
{
    size_t W = T->w.g->width;
    for (size_t y = T->y0; y < T->y1; y++)
        for (size_t c = y * W + T->x0; c < y * W + T->x1; c++) {
            if (!T->w.vis[c]) continue;
            uint32_t id = T->cid[c];
            if (!T->dead[id]) {
                T->dead[id] = 1;
                T->live--;
            }
        }
    T->done = done0;
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
    if (tile_reset(T, pr, attempt, restarts)) return KT_ECANCELED;
    size_t cells = (T->x1 - T->x0) * (T->y1 - T->y0), done0 = T->done;
    uint64_t repairs = 0, max_repairs = cells / 64 + 64;
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
    return T->done - done0 == cells ? KT_OK : KT_ENOTFOUND;
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
    /* tile by tile (one tile below TILE_ABOVE), each with its own restarts */
    kt_status st = KT_OK;
    for (size_t ty = 0; ty < T.ny && st == KT_OK; ty++)
        for (size_t tx = 0; tx < T.nx && st == KT_OK; tx++) {
            T.x0 = T.bx[tx];
            T.x1 = T.bx[tx + 1];
            T.y0 = T.by[ty];
            T.y1 = T.by[ty + 1];
            st = KT_ELIMIT;
            for (uint64_t attempt = 0; attempt < restarts; attempt++) {
                size_t done0 = T.done;
                st = tourney_attempt(&T, pr, attempt, restarts);
                if (st != KT_ENOTFOUND) break;
                tile_undo(&T, done0);
                st = KT_ELIMIT;
            }
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
