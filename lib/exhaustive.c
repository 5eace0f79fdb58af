/* SPDX-License-Identifier: MIT */
/*
 * Exact backtracking search for a Hamiltonian cycle or path of a leaper
 * graph.  Candidates are tried in Warnsdorff order (fewest onward moves
 * first), and a branch is cut as soon as some unvisited cell can no longer
 * get the neighbours it needs: two for a cycle (the start counts), two for
 * an interior path cell, one for the path's end.
 */
#include "internal.h"
#include <knight/exhaustive.h>

typedef struct search {
    const kt_graph *g;
    uint32_t nv;              /* vertices */
    uint32_t *nbr;            /* nv * 8, UINT32_MAX padded */
    uint8_t *deg;             /* neighbours in the graph */
    uint8_t *avail;           /* unvisited neighbours */
    uint8_t *visited;
    uint8_t *adj_start;       /* neighbour of the start (cycles) */
    uint32_t *vcell;          /* vertex -> cell */
    uint32_t *cellv;          /* cell -> vertex (NONE32 for holes) */
    uint32_t *path;           /* vertex per depth */
    uint8_t *cand;            /* nv * 8 candidate lists */
    uint8_t *ncand, *next;    /* per depth */
    bool cycle;
    uint32_t start, end;      /* UINT32_MAX = any */
} search;

#define NONE32 UINT32_MAX

static inline uint32_t effective(const search *s, uint32_t u, uint32_t cur)
{
    uint32_t e = s->avail[u];
    for (int k = 0; k < s->deg[u]; k++) {
        uint32_t w = s->nbr[(size_t)u * 8 + k];
        if (w == cur) e++;
        else if (s->cycle && w == s->start) e++;
    }
    return e;
}

/* After stepping prev -> cur: can every unvisited cell near them still be covered? */
static bool feasible(const search *s, uint32_t prev, uint32_t cur, uint32_t remaining)
{
    if (remaining == 0) return true;
    uint32_t src[2] = {prev, cur};
    uint32_t single[16]; /* distinct cells left with one way in */
    int nsingle = 0;
    for (int i = 0; i < 2; i++) {
        if (src[i] == NONE32) continue;
        for (int k = 0; k < s->deg[src[i]]; k++) {
            uint32_t u = s->nbr[(size_t)src[i] * 8 + k];
            if (s->visited[u]) continue;
            uint32_t e = effective(s, u, cur);
            if (s->cycle) {
                if (e < 2) return false;
                continue;
            }
            if (e == 0) return false;
            if (e >= 2 || u == s->end) continue;
            /* u can only be the path's last cell. */
            if (s->end != NONE32) return false;
            bool seen = false;
            for (int j = 0; j < nsingle; j++) seen |= single[j] == u;
            if (!seen) {
                if (nsingle == 1) return false;
                single[nsingle++] = u;
            }
        }
    }
    /* The start needs an unvisited neighbour left to close the cycle. */
    if (s->cycle && s->avail[s->start] == 0) return false;
    if (!s->cycle && s->end != NONE32 && !s->visited[s->end] && effective(s, s->end, cur) == 0)
        return false;
    return true;
}

static void visit(search *s, uint32_t v)
{
    s->visited[v] = 1;
    for (int k = 0; k < s->deg[v]; k++) s->avail[s->nbr[(size_t)v * 8 + k]]--;
}

static void unvisit(search *s, uint32_t v)
{
    s->visited[v] = 0;
    for (int k = 0; k < s->deg[v]; k++) s->avail[s->nbr[(size_t)v * 8 + k]]++;
}

/* Fill the candidate list of depth d (current vertex v), Warnsdorff order. */
static void candidates(search *s, uint32_t d, uint32_t v, uint32_t remaining)
{
    uint8_t *c = s->cand + (size_t)d * 8;
    uint8_t keys[8];
    int n = 0;
    for (int k = 0; k < s->deg[v]; k++) {
        uint32_t u = s->nbr[(size_t)v * 8 + k];
        if (s->visited[u]) continue;
        /* The fixed end comes last, and only as the last cell. */
        if (!s->cycle && s->end == u && remaining > 1) continue;
        c[n] = (uint8_t)k;
        keys[n] = s->avail[u];
        n++;
    }
    for (int i = 1; i < n; i++) { /* insertion sort, stable */
        uint8_t kc = c[i], kk = keys[i];
        int j = i - 1;
        while (j >= 0 && keys[j] > kk) {
            c[j + 1] = c[j];
            keys[j + 1] = keys[j];
            j--;
        }
        c[j + 1] = kc;
        keys[j + 1] = kk;
    }
    s->ncand[d] = (uint8_t)n;
    s->next[d] = 0;
}

/* Whether the caller asks to stop: the callback about ten times a
 * second (also when the budget, the total, is 0 = unknown). */
static bool tick(kti_progress *pr, uint64_t done, uint64_t total)
{
    if (pr == NULL || pr->fn == NULL || kti_now() - pr->last < KTI_PROGRESS_PERIOD) return false;
    return kti_progress_tick(pr, done, total);
}

/* Depth-first search from `first`, iterative (the depth reaches the number
 * of vertices); *nodes counts the nodes of every start against max_nodes.
 * KT_OK with s->path, KT_ENOTOUR, KT_ELIMIT, KT_ECANCELED. */
static kt_status dfs(search *s, uint32_t first, uint64_t max_nodes, kti_progress *pr,
                     uint64_t *nodes)
{
    uint32_t nv = s->nv;
    s->path[0] = first;
    visit(s, first);
    if (nv == 1) return KT_OK;
    if (!feasible(s, NONE32, first, nv - 1)) {
        unvisit(s, first);
        return KT_ENOTOUR;
    }
    candidates(s, 0, first, nv - 1);
    uint32_t d = 0;
    for (;;) {
        if (s->next[d] >= s->ncand[d]) {
            /* Exhausted: backtrack. */
            unvisit(s, s->path[d]);
            if (d == 0) return KT_ENOTOUR;
            d--;
            continue;
        }
        uint32_t v = s->path[d];
        uint32_t u = s->nbr[(size_t)v * 8 + s->cand[(size_t)d * 8 + s->next[d]++]];
        if (s->visited[u]) continue;
        if (++*nodes > max_nodes && max_nodes != 0) return KT_ELIMIT;
        if ((*nodes & 0xFFFF) == 0 && tick(pr, *nodes, max_nodes)) return KT_ECANCELED;
        uint32_t remaining = nv - (d + 2);
        visit(s, u);
        s->path[d + 1] = u;
        if (remaining == 0) {
            bool ok = true;
            if (s->cycle) { /* the last cell must close the cycle */
                ok = false;
                for (int k = 0; k < s->deg[u]; k++)
                    if (s->nbr[(size_t)u * 8 + k] == s->start) ok = true;
            } else if (s->end != NONE32 && s->end != u) {
                ok = false;
            }
            if (ok) return KT_OK;
            unvisit(s, u);
            continue;
        }
        if (!feasible(s, v, u, remaining)) {
            unvisit(s, u);
            continue;
        }
        d++;
        candidates(s, d, u, remaining);
    }
}

/* The questions settled without a search (arguments, sizes, colour
 * balance): KT_OK when a search is needed (or the graph is one vertex),
 * else the answer. */
static kt_status precheck(const kt_graph *g, bool cycle, kt_cell start, kt_cell end)
{
    if (!cycle && ((start != KT_CELL_NONE && !kti_is_vertex(g, start)) ||
                   (end != KT_CELL_NONE && !kti_is_vertex(g, end))))
        return KT_EINVAL;
    if (!cycle && start != KT_CELL_NONE && start == end && g->nverts > 1) return KT_ENOTOUR;
    if (g->nverts == 0) return KT_ENOTOUR;
    if (g->nverts == 1) return KT_OK; /* the trivial tour */
    if (g->nverts > UINT32_MAX / 8) return KT_ETOOBIG;
    /* A cycle needs at least 3 cells (1 cell: the trivial tour). */
    if (cycle && g->nverts == 2) return KT_ENOTOUR;
    /* Colour balance: knight-like leapers (a + b odd) alternate colours. */
    if ((g->a + g->b) % 2 == 1) {
        size_t col[2];
        kti_colour_counts(g, col);
        size_t diff = col[0] > col[1] ? col[0] - col[1] : col[1] - col[0];
        if ((cycle && diff != 0) || diff > 1) return KT_ENOTOUR;
        if (!cycle && diff == 1) {
            /* Both ends must be on the majority colour. */
            unsigned major = col[0] > col[1] ? 0 : 1;
            if (start != KT_CELL_NONE && kti_colour(g, start) != major) return KT_ENOTOUR;
            if (end != KT_CELL_NONE && kti_colour(g, end) != major) return KT_ENOTOUR;
        }
    }
    return KT_OK;
}

static void search_free(search *s)
{
    const kt_allocator *al = &s->g->alloc;
    kti_free(al, s->cellv);
    kti_free(al, s->nbr);
    kti_free(al, s->deg);
    kti_free(al, s->avail);
    kti_free(al, s->visited);
    kti_free(al, s->vcell);
    kti_free(al, s->path);
    kti_free(al, s->cand);
    kti_free(al, s->ncand);
    kti_free(al, s->next);
}

/* Allocate the search state and number the vertices with their
 * neighbour lists. */
static kt_status search_new(search *s, const kt_graph *g, bool cycle)
{
    const kt_allocator *al = &g->alloc;
    uint32_t nv = (uint32_t)g->nverts;
    memset(s, 0, sizeof *s);
    s->g = g;
    s->nv = nv;
    s->cycle = cycle;
    s->cellv = kti_alloc(al, g->ncells * sizeof *s->cellv);
    s->nbr = kti_alloc(al, (size_t)nv * 8 * sizeof *s->nbr);
    s->deg = kti_calloc(al, nv, 1);
    s->avail = kti_calloc(al, nv, 1);
    s->visited = kti_calloc(al, nv, 1);
    s->vcell = kti_alloc(al, (size_t)nv * sizeof *s->vcell);
    s->path = kti_alloc(al, (size_t)nv * sizeof *s->path);
    s->cand = kti_alloc(al, (size_t)nv * 8);
    s->ncand = kti_alloc(al, nv);
    s->next = kti_alloc(al, nv);
    if (!s->cellv || !s->nbr || !s->deg || !s->avail || !s->visited || !s->vcell || !s->path ||
        !s->cand || !s->ncand || !s->next) {
        search_free(s);
        return KT_ENOMEM;
    }
    uint32_t k = 0;
    for (size_t c = 0; c < g->ncells; c++) {
        s->cellv[c] = NONE32;
        if (kti_is_vertex(g, c)) {
            s->vcell[k] = (uint32_t)c;
            s->cellv[c] = k++;
        }
    }
    for (uint32_t v = 0; v < nv; v++) {
        int dg = 0;
        for (int m = 0; m < 8; m++) {
            kt_cell d = kti_step(g, s->vcell[v], m);
            if (d != KT_CELL_NONE) s->nbr[(size_t)v * 8 + dg++] = s->cellv[d];
        }
        for (int m = dg; m < 8; m++) s->nbr[(size_t)v * 8 + m] = NONE32;
        s->deg[v] = (uint8_t)dg;
        s->avail[v] = (uint8_t)dg;
    }
    return KT_OK;
}

/* Search from the right starts: for a cycle one cell of least degree (any
 * cell lies on it); for a path its given start, else its given end (a path
 * ending at e is a path starting at e, reversed after), else every cell,
 * lowest degree first.  The budget counts the nodes of all of them. */
static kt_status search_all(search *s, kt_cell start, kt_cell end, uint64_t budget,
                            kti_progress *pr, uint64_t *nodes)
{
    uint32_t nv = s->nv;
    s->end = (!s->cycle && end != KT_CELL_NONE) ? s->cellv[end] : NONE32;
    if (s->cycle) {
        uint32_t best = 0;
        for (uint32_t v = 1; v < nv; v++)
            if (s->deg[v] < s->deg[best]) best = v;
        s->start = best;
        return dfs(s, best, budget, pr, nodes);
    }
    if (start != KT_CELL_NONE) {
        s->start = s->cellv[start];
        return dfs(s, s->start, budget, pr, nodes);
    }
    if (s->end != NONE32) {
        s->start = s->end;
        s->end = NONE32;
        kt_status st = dfs(s, s->start, budget, pr, nodes);
        for (uint32_t i = 0; st == KT_OK && i < nv / 2; i++) {
            uint32_t t = s->path[i];
            s->path[i] = s->path[nv - 1 - i];
            s->path[nv - 1 - i] = t;
        }
        return st;
    }
    kt_status st = KT_ENOTOUR;
    for (int dg = 0; dg <= 8 && st == KT_ENOTOUR; dg++)
        for (uint32_t v = 0; v < nv && st == KT_ENOTOUR; v++) {
            if (s->deg[v] != dg) continue;
            s->start = v;
            st = dfs(s, v, budget, pr, nodes);
        }
    return st;
}

kt_status kti_exhaustive_tour(kt_tourney **out, const kt_graph *g, kt_shape shape, kt_cell start,
                              kt_cell end, uint64_t budget, kti_progress *pr, uint64_t *nodes)
{
    uint64_t spent = 0;
    if (nodes == NULL) nodes = &spent;
    *nodes = 0;
    bool cycle = shape == KT_SHAPE_CYCLES;
    KTI_TRY(precheck(g, cycle, start, end));
    if (g->nverts == 1) { /* the trivial tour of a single cell */
        kt_cell only = KT_CELL_NONE;
        for (size_t c = 0; c < g->ncells && only == KT_CELL_NONE; c++)
            if (kti_is_vertex(g, c)) only = (kt_cell)c;
        return kt_tourney_from_order(out, g, &only, 1, shape, NULL);
    }
    search s;
    KTI_TRY(search_new(&s, g, cycle));
    kt_status st = search_all(&s, start, end, budget, pr, nodes);
    if (st == KT_OK) {
        /* the path as cells, in the vertex array (no longer needed) */
        kt_cell *order = s.vcell;
        for (uint32_t i = 0; i < s.nv; i++) s.path[i] = order[s.path[i]];
        st = kt_tourney_from_order(out, g, s.path, s.nv, shape, NULL);
    }
    search_free(&s);
    return st;
}

kt_status kt_exhaustive_tour(kt_tourney **out, const kt_graph *g, kt_shape shape, kt_cell start,
                             kt_cell end, const kt_options *run)
{
    if (out) *out = NULL;
    if (out == NULL || g == NULL) return KT_EINVAL;
    if (shape != KT_SHAPE_CYCLES && shape != KT_SHAPE_PATH) return KT_EINVAL;
    kti_run r;
    kti_run_resolve(&r, run);
    if (r.nshards > 1) return KT_EINVAL; /* one search: nothing to split */
    kti_progress pr;
    kti_progress_init(&pr, r.progress, r.progress_user);
    kt_tourney *t = NULL;
    uint64_t nodes = 0;
    kt_status st = kti_exhaustive_tour(&t, g, shape, start, end, r.budget, &pr, &nodes);
    /* the last report (done == total), which may still cancel */
    if (st == KT_OK && pr.fn != NULL && pr.fn(pr.user, nodes, nodes) != 0) st = KT_ECANCELED;
    if (st != KT_OK) {
        kt_tourney_free(t);
        t = NULL;
    }
    *out = t;
    return st;
}
