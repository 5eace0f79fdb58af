/* SPDX-License-Identifier: MIT */
/*
 * Exact tour counts: builds the ordered graphs (the board, or its quotient
 * by a symmetry) for the frontier engine in frontier.c and combines
 * the results (directed counts, symmetric tours, Burnside classes).
 */
#include "count_internal.h"

#include <knight/count.h>

#include <stdio.h>

/* ------------------------------------------------------------ geometry */

/* The board seen with its narrow side across: oriented cell (x, y) is the
 * graph's cell (x, y), or (y, x) when the graph is wider than tall. */
typedef struct orient {
    const kt_graph *g;
    uint32_t w, h;
    bool transposed;
} orient;

static orient orient_of(const kt_graph *g)
{
    orient o = {g, g->width, g->height, false};
    if (g->width > g->height) {
        o.w = g->height;
        o.h = g->width;
        o.transposed = true;
    }
    return o;
}

static kt_cell cell_of(const orient *o, uint32_t x, uint32_t y)
{
    return o->transposed ? (kt_cell)((size_t)x * o->g->width + y) : (kt_cell)((size_t)y * o->g->width + x);
}

static void coords_of(const orient *o, kt_cell c, uint32_t *x, uint32_t *y)
{
    uint32_t gx = c % o->g->width, gy = c / o->g->width;
    if (o->transposed) {
        *x = gy;
        *y = gx;
    } else {
        *x = gx;
        *y = gy;
    }
}

enum sym { SYM_ID, SYM_R180, SYM_MX, SYM_MY, SYM_R90 };

/* Image of oriented (x, y) under the symmetry. */
static void sym_apply(const orient *o, enum sym s, uint32_t *x, uint32_t *y)
{
    uint32_t X = *x, Y = *y;
    switch (s) {
    case SYM_ID: break;
    case SYM_R180: X = o->w - 1 - *x; Y = o->h - 1 - *y; break;
    case SYM_MX: X = o->w - 1 - *x; break;
    case SYM_MY: Y = o->h - 1 - *y; break;
    case SYM_R90: X = o->w - 1 - *y; Y = *x; break;
    }
    *x = X;
    *y = Y;
}

static unsigned sym_order(enum sym s)
{
    return s == SYM_ID ? 1u : s == SYM_R90 ? 4u : 2u;
}

static void cg_free(kti_cgraph *cg, const kt_allocator *al)
{
    kti_free(al, cg->start);
    kti_free(al, cg->to);
    kti_free(al, cg->volt);
    kti_free(al, cg->end_ok);
    memset(cg, 0, sizeof *cg);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

/* A checkpoint tag for cg: a hash of the whole problem. */
static uint64_t cg_tag(const kti_cgraph *cg)
{
    uint32_t n = cg->n;
    uint64_t h = 0xCBF29CE484222325ull;
    h = fnv(h, &cg->n, sizeof cg->n);
    h = fnv(h, &cg->q, sizeof cg->q);
    h = fnv(h, &cg->open, sizeof cg->open);
    h = fnv(h, cg->start, ((size_t)n + 1) * sizeof *cg->start);
    h = fnv(h, cg->to, (size_t)cg->start[n] * sizeof *cg->to);
    h = fnv(h, cg->volt, cg->start[n]);
    if (cg->end_ok != NULL) h = fnv(h, cg->end_ok, n);
    return h;
}

/*
 * The quotient of the oriented board by the symmetry s (s = SYM_ID: the
 * board itself).  Vertices are the orbit representatives (least cell
 * index in oriented row-major order), in that order.  An edge from rep c
 * to a cell d = s^i(r) becomes c -> r with voltage i.  *loops receives
 * whether some vertex is adjacent to its own image (end_ok marks them).
 */
static kt_status build_cg(const orient *o, enum sym s, bool open, kti_cgraph *cg, bool *loops)
{
    const kt_graph *g = o->g;
    const kt_allocator *al = &g->alloc;
    size_t nc = g->ncells;
    unsigned q = sym_order(s);
    memset(cg, 0, sizeof *cg);
    *loops = false;
    uint32_t *rep = kti_alloc(al, nc * sizeof *rep);       /* per oriented index */
    uint8_t *pw = kti_alloc(al, nc);
    uint32_t *vid = kti_alloc(al, nc * sizeof *vid);
    kt_status st = KT_OK;
    if (rep == NULL || pw == NULL || vid == NULL) {
        st = KT_ENOMEM;
        goto out;
    }
    /* Orbits. */
    for (size_t i = 0; i < nc; i++) {
        uint32_t x = (uint32_t)(i % o->w), y = (uint32_t)(i / o->w);
        size_t best = i;
        unsigned bp = 0;
        uint32_t X = x, Y = y;
        for (unsigned k = 1; k < q; k++) {
            /* s^k maps rep to i: walk the orbit backwards = s^(q-k) forward */
            sym_apply(o, s, &X, &Y);
            size_t j = (size_t)Y * o->w + X;
            if (j < best) {
                best = j;
                bp = (q - k) % q;
            }
        }
        rep[i] = (uint32_t)best;
        pw[i] = (uint8_t)bp;
    }
    uint32_t n = 0;
    for (size_t i = 0; i < nc; i++) {
        vid[i] = UINT32_MAX;
        kt_cell c = cell_of(o, (uint32_t)(i % o->w), (uint32_t)(i / o->w));
        if (!kti_is_vertex(g, c)) continue;
        if (rep[i] == i) vid[i] = n++;
    }
    cg->n = n;
    cg->q = open ? 1u : q;
    cg->open = open;
    cg->start = kti_calloc(al, (size_t)n + 1, sizeof *cg->start);
    cg->to = kti_alloc(al, ((size_t)n * 8 + 1) * sizeof *cg->to);
    cg->volt = kti_alloc(al, (size_t)n * 8 + 1);
    cg->end_ok = kti_calloc(al, (size_t)n + 1, 1);
    if (cg->start == NULL || cg->to == NULL || cg->volt == NULL || cg->end_ok == NULL) {
        st = KT_ENOMEM;
        goto out;
    }
    /* Count degrees first (edges are stored in both directions). */
    uint32_t *deg = cg->start + 1;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            for (uint32_t v = 0; v < n; v++) cg->start[v + 1] += cg->start[v];
        }
        for (size_t i = 0; i < nc; i++) {
            if (vid[i] == UINT32_MAX) continue;
            kt_cell c = cell_of(o, (uint32_t)(i % o->w), (uint32_t)(i / o->w));
            for (int m = 0; m < 8; m++) {
                kt_cell d = kti_step(g, c, m);
                if (d == KT_CELL_NONE) continue;
                uint32_t dx, dy;
                coords_of(o, d, &dx, &dy);
                size_t j = (size_t)dy * o->w + dx;
                size_t r = rep[j];
                if (r == i) {
                    *loops = true;
                    cg->end_ok[vid[i]] = 1;
                    continue;
                }
                if (r < i) continue;
                uint32_t a = vid[i], b = vid[r];
                unsigned vlt = pw[j] % cg->q;
                if (pass == 0) {
                    deg[a]++;
                    deg[b]++;
                } else {
                    cg->to[cg->start[a]] = b;
                    cg->volt[cg->start[a]++] = (uint8_t)vlt;
                    cg->to[cg->start[b]] = a;
                    cg->volt[cg->start[b]++] = (uint8_t)((cg->q - vlt) % cg->q);
                }
            }
        }
    }
    for (uint32_t v = n; v > 0; v--) cg->start[v] = cg->start[v - 1];
    cg->start[0] = 0;
    if (s == SYM_ID && open)
        for (uint32_t v = 0; v < n; v++) cg->end_ok[v] = 1;
out:
    kti_free(al, rep);
    kti_free(al, pw);
    kti_free(al, vid);
    if (st != KT_OK) cg_free(cg, al);
    return st;
}

/* Whether the symmetry fixes some cell of the oriented board. */
static bool sym_fixes_cell(const orient *o, enum sym s)
{
    for (uint32_t y = 0; y < o->h; y++)
        for (uint32_t x = 0; x < o->w; x++) {
            uint32_t X = x, Y = y;
            sym_apply(o, s, &X, &Y);
            if (X == x && Y == y) return true;
        }
    return false;
}

/* ---------------------------------------------------------------- runs */

typedef struct ctx {
    const orient *o;
    kti_run run;
    kti_frontier_opts fo;
    kt_count_stats stats;
    bool frontier_only;     /* KT_COUNT_FRONTIER: neither the search nor half-tours */
} ctx;

/* Every flag the two count calls know. */
#define COUNT_FLAGS \
    (KT_COUNT_OPEN | KT_COUNT_DIRECTED | KT_COUNT_SYMMETRIC | KT_COUNT_CLASSES | KT_COUNT_FRONTIER)

/* One frontier count of cg, its checkpoint the caller's name plus suffix;
 * the statistics and the progress base accumulate in c. */
static kt_status run_cg(ctx *c, kti_cgraph *cg, uint32_t kind, const char *suffix, kti_u128 *out)
{
    const kt_allocator *al = &c->o->g->alloc;
    char *path = NULL;
    if (c->run.checkpoint != NULL && (path = kti_strcat2(al, c->run.checkpoint, suffix)) == NULL)
        return KT_ENOMEM;
    /* hashed only for a checkpoint: a pass over the graph that a small
     * board's count would notice */
    if (path != NULL) cg->tag = cg_tag(cg);
    c->fo.checkpoint = path;
    c->fo.kind = kind;
    c->fo.peak_states = c->fo.peak_bytes = 0;
    c->fo.max_slots = 0;
    kt_status st = kti_frontier_count(cg, &c->fo, out);
    if (c->fo.peak_states > c->stats.peak_states) c->stats.peak_states = c->fo.peak_states;
    if (c->fo.peak_bytes > c->stats.peak_bytes) c->stats.peak_bytes = c->fo.peak_bytes;
    if (c->fo.max_slots > c->stats.frontier) c->stats.frontier = c->fo.max_slots;
    c->fo.progress_base += (uint64_t)cg->n * KTI_FRONTIER_UNITS;
    c->fo.checkpoint = NULL;
    kti_free(al, path);
    return st;
}

static kt_status run_one(ctx *c, enum sym s, bool open, const char *suffix, kti_u128 *out)
{
    kti_cgraph cg;
    bool loops;
    const kt_allocator *al = &c->o->g->alloc;
    kt_status st = build_cg(c->o, s, open, &cg, &loops);
    if (st != KT_OK) return st;
    if (s != SYM_ID && open && !loops) {
        /* No vertex adjacent to its image: no tour of type B. */
        c->fo.progress_base += (uint64_t)cg.n * KTI_FRONTIER_UNITS;
        cg_free(&cg, al);
        *out = 0;
        return KT_OK;
    }
    st = run_cg(c, &cg, (uint32_t)s | (open ? 0x100u : 0u), suffix, out);
    cg_free(&cg, al);
    return st;
}

/* Whether cg has a Hamiltonian cycle (path): one thread, counts clamped. */
static kt_status decide(const kti_cgraph *cg, const kt_allocator *al, uint64_t max_states, bool *yes)
{
    kti_frontier_opts fo;
    memset(&fo, 0, sizeof fo);
    fo.threads = 1;
    fo.alloc = al;
    fo.budget = max_states;
    fo.exists_only = true;
    kti_u128 cnt = 0;
    kt_status st = kti_frontier_count(cg, &fo, &cnt);
    if (st == KT_OK) *yes = cnt != 0;
    return st;
}

/* Whether g has a closed tour: the frontier DP with clamped counts (and its
 * lookahead).  Decides masked boards and leapers the search cannot settle. */
kt_status kti_tour_exists(const kt_graph *g, uint64_t max_states, bool *yes)
{
    if (g == NULL || yes == NULL) return KT_EINVAL;
    if (g->nverts < 3) {
        *yes = false;
        return KT_OK;
    }
    orient o = orient_of(g);
    kti_cgraph cg;
    bool loops;
    kt_status st = build_cg(&o, SYM_ID, false, &cg, &loops);
    if (st != KT_OK) return st;
    st = decide(&cg, &g->alloc, max_states, yes);
    cg_free(&cg, &g->alloc);
    return st;
}

/* The id of cell c among the vertices of build_cg's board graph (they
 * follow the oriented row-major order of the cells). */
static uint32_t vertex_id(const orient *o, kt_cell c)
{
    uint32_t v = 0;
    for (size_t i = 0; i < (size_t)o->w * o->h; i++) {
        kt_cell d = cell_of(o, (uint32_t)(i % o->w), (uint32_t)(i / o->w));
        if (!kti_is_vertex(o->g, d)) continue;
        if (d == c) return v;
        v++;
    }
    return UINT32_MAX;
}

/*
 * cg (q = 1) with one more vertex x, numbered m + 1, adjacent to the k
 * vertices nb[] (all at most m): later vertices shift up by one.  Placed
 * so, x waits in the frontier only for the vertices it joins.  x may be a
 * path end (open mode); end_ok of the others is kept.
 */
static kt_status cg_insert(const kti_cgraph *cg, uint32_t m, const uint32_t *nb, unsigned k,
                           const kt_allocator *al, kti_cgraph *xg)
{
    uint32_t n = cg->n, x = m + 1;
    size_t ne = cg->start[n];
    memset(xg, 0, sizeof *xg);
    xg->n = n + 1;
    xg->q = 1;
    xg->open = cg->open;
    xg->start = kti_calloc(al, (size_t)n + 2, sizeof *xg->start);
    xg->to = kti_alloc(al, (ne + 2 * k) * sizeof *xg->to);
    xg->volt = kti_calloc(al, ne + 2 * k, 1);
    xg->end_ok = kti_calloc(al, (size_t)n + 2, 1);
    if (xg->start == NULL || xg->to == NULL || xg->volt == NULL || xg->end_ok == NULL) {
        cg_free(xg, al);
        return KT_ENOMEM;
    }
    size_t e = 0;
    for (uint32_t nv = 0; nv <= n; nv++) {
        xg->start[nv] = (uint32_t)e;
        if (nv == x) {
            for (unsigned i = 0; i < k; i++) xg->to[e++] = nb[i];
            xg->end_ok[nv] = 1;
            continue;
        }
        uint32_t ov = nv > x ? nv - 1 : nv;
        for (uint32_t j = cg->start[ov]; j < cg->start[ov + 1]; j++)
            xg->to[e++] = cg->to[j] > m ? cg->to[j] + 1 : cg->to[j];
        for (unsigned i = 0; i < k; i++)
            if (nb[i] == ov) xg->to[e++] = x;
        xg->end_ok[nv] = cg->end_ok != NULL ? cg->end_ok[ov] : 1;
    }
    xg->start[n + 1] = (uint32_t)e;
    return KT_OK;
}

/*
 * A Hamiltonian path from a to b exists iff the board plus an apex vertex x
 * adjacent to a and b only has a Hamiltonian cycle (it must run a-x-b).
 * Closed mode, so the demand-vector lookahead applies.  x is numbered just
 * after the later of a and b, so that only the earlier one waits for it in
 * the frontier.
 */
kt_status kti_path_exists(const kt_graph *g, kt_cell a, kt_cell b, uint64_t max_states, bool *yes)
{
    if (g == NULL || yes == NULL || a == b || !kti_is_vertex(g, a) || !kti_is_vertex(g, b))
        return KT_EINVAL;
    const kt_allocator *al = &g->alloc;
    orient o = orient_of(g);
    kti_cgraph cg, xg;
    bool loops;
    kt_status st = build_cg(&o, SYM_ID, false, &cg, &loops);
    if (st != KT_OK) return st;
    uint32_t ab[2] = {vertex_id(&o, a), vertex_id(&o, b)};
    st = cg_insert(&cg, ab[0] > ab[1] ? ab[0] : ab[1], ab, 2, al, &xg);
    if (st == KT_OK) st = decide(&xg, al, max_states, yes);
    cg_free(&xg, al);
    cg_free(&cg, al);
    return st;
}

/* Closed tours fixed by the symmetry s (through the quotient graph). */
static kt_status fixed_tours(ctx *c, enum sym s, kti_u128 *out)
{
    static const char *const sfx[] = {"", ".r180", ".mirx", ".miry", ".r90"};
    if (s == SYM_ID) return run_one(c, s, false, "", out);
    /* A non-trivial automorphism of a cycle fixing a vertex is a
     * reflection of it, fixing at most two vertices; on the boards here a
     * symmetry fixing a cell fixes a line of cells or the centre of an odd
     * board (no closed tour at all), so it fixes no tour. */
    if (sym_fixes_cell(c->o, s)) {
        *out = 0;
        return KT_OK;
    }
    kti_u128 a = 0, b = 0;
    kt_status st = run_one(c, s, false, sfx[s], &a);
    if (st != KT_OK) return st;
    /* Type B (involutions): the symmetry reverses the tour, which then
     * holds two edges {v, s(v)}: a Hamiltonian path of the quotient
     * between two vertices adjacent to their images. */
    if (sym_order(s) == 2) {
        char sb[16];
        snprintf(sb, sizeof sb, "%s.b", sfx[s]);
        st = run_one(c, s, true, sb, &b);
        if (st != KT_OK) return st;
    }
    *out = a + b;
    return KT_OK;
}

static uint64_t units_of(const orient *o, enum sym s)
{
    size_t n = o->g->nverts;
    unsigned k = sym_order(s);
    return (uint64_t)((n + k - 1) / k) * KTI_FRONTIER_UNITS;
}

/* Burnside over the symmetries of the board: the classes of closed tours
 * (sym: of the tours fixed by r180), each term counted through a quotient. */
static kt_status count_classes(ctx *c, bool sym, kti_u128 *out)
{
    const orient *o = c->o;
    bool square = o->w == o->h;
    c->fo.progress_total = 2 * units_of(o, SYM_R180) + 2 * units_of(o, SYM_MX) +
                           2 * units_of(o, SYM_MY) + (square ? units_of(o, SYM_R90) : 0) +
                           (sym ? 0 : units_of(o, SYM_ID));
    kti_u128 n = 0, s = 0, mx = 0, my = 0, r90 = 0;
    if (!sym) KTI_TRY(fixed_tours(c, SYM_ID, &n));
    KTI_TRY(fixed_tours(c, SYM_R180, &s));
    if (square) KTI_TRY(fixed_tours(c, SYM_R90, &r90));
    if (!sym) KTI_TRY(fixed_tours(c, SYM_MX, &mx));
    if (!sym) KTI_TRY(fixed_tours(c, SYM_MY, &my));
    /* Rectangle: {id, r180, mirror x, mirror y}; square: also r90, r270
     * and the two diagonal mirrors (which fix cells, hence no tour).  For
     * symmetric tours the group acts on the S tours fixed by r180; a tour
     * fixed by r180 and a mirror is fixed by the whole group, which no
     * closed knight's tour is (see the documentation), so those terms
     * vanish. */
    kti_u128 sum;
    unsigned ord = square ? 8u : 4u;
    if (sym) sum = 2 * s + (square ? 2 * r90 : 0);
    else sum = n + s + mx + my + (square ? 2 * r90 : 0);
    if (sum % ord != 0) return KT_EUNSUPPORTED;
    *out = sum / ord;
    return KT_OK;
}

/* The frontier settings of a count from the caller's run settings. */
static void ctx_init(ctx *c, const orient *o, const kt_options *run)
{
    memset(c, 0, sizeof *c);
    c->o = o;
    kti_run_resolve(&c->run, run);
    c->fo.threads = c->run.threads;
    c->fo.shard_index = c->run.shard;
    c->fo.shard_count = c->run.nshards;
    c->fo.checkpoint_interval = c->run.checkpoint_interval;
    c->fo.progress = c->run.progress;
    c->fo.progress_user = c->run.progress_user;
    c->fo.alloc = &o->g->alloc;   /* the graph's, as for every call on a graph */
    c->fo.budget = c->run.budget;
    if (c->run.budget != 0)
        c->fo.lookahead_bytes = c->run.budget < KTI_LOOKAHEAD_BYTES / KTI_LOOKAHEAD_PER_STATE
                                    ? (size_t)c->run.budget * KTI_LOOKAHEAD_PER_STATE
                                    : KTI_LOOKAHEAD_BYTES;
    c->fo.trace = c->run.trace;
    c->fo.trace_user = c->run.trace_user;
}

/* Whether the board is certainly too wide for the state encoding, decided
 * from its size alone, before anything proportional to the board is built
 * (a 10000 x 10000 board would otherwise fail with KT_ENOMEM, a 3000 x 3000
 * one only after building a 1.4 GB compiled graph).  Without holes, every
 * processing order has a frontier of at least m - 2r cells, m the smaller
 * side and r the longer leap: the last m cells processed of a full row
 * band, less the r at each end that may have no unprocessed neighbour. */
static bool too_wide(const kt_graph *g)
{
    if (g->mask != NULL) return false;
    uint64_t m = g->width < g->height ? g->width : g->height;
    uint64_t r = g->a > g->b ? g->a : g->b;
    return m > 2 * r + KTI_FRONTIER_MAX_SLOTS;
}

/*
 * Whether a knight board without holes has no tour at all by the theorems
 * that settle existence: for m <= n, no closed tour iff m and n are both
 * odd, m is 1, 2 or 4, or m = 3 and n is 4, 6 or 8 (A. J. Schwenk, "Which
 * rectangular chessboards have a knight's tour?", Math. Magazine 64,
 * 1991); an open tour iff m = n = 1, m = 3 and n = 4 or n >= 7, m = 4 and
 * n >= 5, or m >= 5 (A. Conrad, T. Hindrichs, H. Morsy and I. Wegener,
 * "Solution of the knight's Hamiltonian path problem on chessboards",
 * Discrete Applied Math. 50, 1994).  The smallest of Luschny's boards
 * without tours took longer to run (a frontier count of 4x6 closed: 50
 * us) than his search takes to dismiss them; tests check each zero
 * against frontier counts of the same board with given ends.
 */
static bool knight_has_none(const kt_graph *g, bool open)
{
    if (g->mask != NULL || g->a != 2 || g->b != 1) return false;
    uint32_t m = g->width < g->height ? g->width : g->height;
    uint32_t n = g->width < g->height ? g->height : g->width;
    if (open) return !((m == 1 && n == 1) || (m == 3 && (n == 4 || n >= 7)) || (m == 4 && n >= 5) || m >= 5);
    return ((m & n) & 1u) || m == 1 || m == 2 || m == 4 || (m == 3 && (n == 4 || n == 6 || n == 8));
}

/* A knight board without holes whose narrow side is at most 7: every
 * count fits the frontier (count.h), so a known answer needs no plan. */
static bool knight_fits(const kt_graph *g)
{
    return g->mask == NULL && g->a == 2 && g->b == 1 && (g->width <= 7 || g->height <= 7);
}

/* Whether the count goes to the depth-first search of small.c: a board it
 * suits and a plain run. */
static bool use_small(const ctx *c, const kt_graph *g, bool open)
{
    return !c->frontier_only && kti_run_plain(&c->run) && kti_small_suits(g, open);
}

/* Whether the count goes to McKay's half-tours (halves.c), on the same
 * conditions, for boards past the search's. */
static bool use_halves(const ctx *c, const kt_graph *g, bool open)
{
    return !c->frontier_only && kti_halves_suit(g, open, &c->run);
}

kt_status kt_count_tours(const kt_graph *g, unsigned flags, const kt_options *run, kt_u128 *out,
                         kt_count_stats *stats)
{
    if (g == NULL || out == NULL) return KT_EINVAL;
    if (flags & ~COUNT_FLAGS) return KT_EINVAL;
    bool open = (flags & KT_COUNT_OPEN) != 0, sym = (flags & KT_COUNT_SYMMETRIC) != 0;
    bool classes = (flags & KT_COUNT_CLASSES) != 0;
    orient o = orient_of(g);
    ctx c;
    ctx_init(&c, &o, run);
    c.frontier_only = (flags & KT_COUNT_FRONTIER) != 0;
    if (open && (sym || classes)) return KT_EUNSUPPORTED;
    if (classes && c.run.nshards > 1) return KT_EINVAL;
    if ((sym || classes) && (g->mask != NULL || g->a != 2 || g->b != 1)) return KT_EUNSUPPORTED;
    if (too_wide(g)) return KT_EUNSUPPORTED;

    kti_u128 r = 0;
    kt_status st = KT_OK;
    c.fo.known_zero = kti_colour_excludes(g, open, KT_CELL_NONE, KT_CELL_NONE) ||
                      (!sym && !classes && knight_has_none(g, open));
    if (c.fo.known_zero && knight_fits(g)) {
        if (stats != NULL) memset(stats, 0, sizeof *stats);
        *out = kti_u128_to(0);
        return KT_OK;
    }
    if (g->nverts == 1) {
        /* One cell: a single trivial open tour, no closed tour. */
        r = open && !sym && !classes && c.run.shard == 0 ? 1 : 0;
    } else if (!sym && !classes && use_small(&c, g, open)) {
        st = kti_small_count(g, open, KT_CELL_NONE, KT_CELL_NONE, &c.run, &r);
    } else if (!sym && !classes && use_halves(&c, g, open)) {
        st = kti_halves_count(g, open, KT_CELL_NONE, KT_CELL_NONE, &c.run, &r);
    } else if (classes) {
        st = count_classes(&c, sym, &r);
    } else if (sym) {
        c.fo.progress_total = 2 * units_of(&o, SYM_R180);
        st = fixed_tours(&c, SYM_R180, &r);
    } else {
        c.fo.progress_total = units_of(&o, SYM_ID);
        st = run_one(&c, SYM_ID, open, "", &r);
    }
    if (st == KT_OK && (flags & KT_COUNT_DIRECTED) && !classes && g->nverts > 1) {
        if (r >> 127) st = KT_EOVERFLOW;
        r *= 2;
    }
    if (stats != NULL) *stats = c.stats;
    if (st != KT_OK) return st;
    *out = kti_u128_to(r);
    return KT_OK;
}

/* Open tours with one end (a) or both (a, b) given, on a board of two
 * cells or more: the board with a pendant vertex at a (a path of it ends
 * there, open mode), or with an apex joined to a and b (a cycle through it
 * is a path from a to b, closed mode, with the closed lookahead). */
static kt_status count_ends(ctx *c, kt_cell a, kt_cell b, kti_u128 *out)
{
    const orient *o = c->o;
    const kt_allocator *al = &o->g->alloc;
    bool both = b != KT_CELL_NONE;
    kti_cgraph cg, xg;
    bool loops;
    kt_status st = build_cg(o, SYM_ID, !both, &cg, &loops);
    if (st != KT_OK) return st;
    uint32_t ab[2] = {vertex_id(o, a), both ? vertex_id(o, b) : 0};
    uint32_t m = both && ab[1] > ab[0] ? ab[1] : ab[0];
    st = cg_insert(&cg, m, ab, both ? 2u : 1u, al, &xg);
    cg_free(&cg, al);
    if (st != KT_OK) return st;
    uint64_t base = c->fo.progress_base;
    c->fo.progress_total = (uint64_t)xg.n * KTI_FRONTIER_UNITS;
    st = run_cg(c, &xg, both ? 0x400u : 0x200u, "", out);
    cg_free(&xg, al);
    if (both && st == KT_EUNSUPPORTED) {
        /* The apex keeps the earlier end in the frontier until the later
         * one is processed: on a board 8 wide that is one slot more than
         * the 17 the closed encoding holds.  Open mode with a and b the
         * only cells allowed to end a path counts the same paths within
         * the board's own frontier (packed keys, frontier.c). */
        c->fo.progress_base = base;
        st = build_cg(o, SYM_ID, true, &cg, &loops);
        if (st != KT_OK) return st;
        memset(cg.end_ok, 0, cg.n);
        cg.end_ok[ab[0]] = cg.end_ok[ab[1]] = 1;
        c->fo.progress_total = (uint64_t)cg.n * KTI_FRONTIER_UNITS;
        st = run_cg(c, &cg, 0x800u, "", out);
        cg_free(&cg, al);
    }
    return st;
}

kt_status kt_count_open_tours(const kt_graph *g, kt_cell start, kt_cell end, unsigned flags,
                              const kt_options *run, kt_u128 *out, kt_count_stats *stats)
{
    if (g == NULL || out == NULL) return KT_EINVAL;
    if (flags & ~COUNT_FLAGS) return KT_EINVAL;
    if ((start != KT_CELL_NONE && !kti_is_vertex(g, start)) || (end != KT_CELL_NONE && !kti_is_vertex(g, end)) ||
        (start != KT_CELL_NONE && start == end))
        return KT_EINVAL;
    if (flags & (KT_COUNT_SYMMETRIC | KT_COUNT_CLASSES)) return KT_EUNSUPPORTED;
    if (start == KT_CELL_NONE && end == KT_CELL_NONE)
        return kt_count_tours(g, flags | KT_COUNT_OPEN, run, out, stats);
    if (too_wide(g)) return KT_EUNSUPPORTED;
    orient o = orient_of(g);
    ctx c;
    ctx_init(&c, &o, run);
    c.frontier_only = (flags & KT_COUNT_FRONTIER) != 0;
    kti_u128 r = 0;
    kt_status st = KT_OK;
    c.fo.known_zero = kti_colour_excludes(g, true, start, end);
    if (g->nverts == 1) r = c.run.shard == 0 ? 1 : 0;    /* the one-cell tour */
    else if (c.fo.known_zero && knight_fits(g)) r = 0;
    else if (use_small(&c, g, true)) st = kti_small_count(g, true, start, end, &c.run, &r);
    else if (use_halves(&c, g, true)) st = kti_halves_count(g, true, start, end, &c.run, &r);
    else if (start == KT_CELL_NONE) st = count_ends(&c, end, KT_CELL_NONE, &r);
    else st = count_ends(&c, start, end, &r);
    if (stats != NULL) *stats = c.stats;
    if (st != KT_OK) return st;
    *out = kti_u128_to(r);
    return KT_OK;
}
