/* SPDX-License-Identifier: MIT */
/*
 * The processing order of the sampler and the transition of one cell.
 *
 * Cells are taken row by row along the narrow side of the board.  A state
 * describes the frontier (processed cells with unprocessed neighbours):
 * 4 bits per slot, oldest slot in the low bits,
 *   0      degree 0
 *   1      degree 2
 *   2      end of a path whose other end is a finished end of the open
 *          tour ("terminal-linked")
 *   3 + k  end of the k-th path with both ends on the frontier (paths
 *          numbered in slot order, so the key is canonical)
 * and bits 60-61 count the path ends spent from the free-end budget.
 */
#include "sample_internal.h"

typedef struct dstate {
    int8_t deg[KTI_SMP_MAXW];
    int8_t mate[KTI_SMP_MAXW];   /* the other end of a path end's path; -1: terminal-linked */
    unsigned used;               /* free ends spent */
    unsigned closures;           /* components finished by this cell */
} dstate;

/* The vertex index of every cell (UINT32_MAX for holes), oriented so that
 * rows run along the narrow side. */
static kt_status order_cells(kti_splan *p, const kt_graph *g, uint32_t *vid)
{
    bool tr = g->width > g->height;
    uint32_t w = tr ? g->height : g->width, h = tr ? g->width : g->height;
    uint32_t n = 0;
    for (size_t c = 0; c < g->ncells; c++) vid[c] = UINT32_MAX;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            kt_cell c = tr ? (kt_cell)((size_t)x * g->width + y) : (kt_cell)((size_t)y * g->width + x);
            if (!kti_is_vertex(g, c)) continue;
            p->cell[n] = c;
            vid[c] = n++;
        }
    p->n = n;
    return KT_OK;
}

static unsigned role_of(const kti_splan *p, kt_cell c, kt_cell start, kt_cell end)
{
    if (!p->open) return KTI_SMP_INNER;
    if (c == start || c == end) return KTI_SMP_MUSTEND;
    return p->free_ends > 0 ? KTI_SMP_MAYEND : KTI_SMP_INNER;
}

/*
 * The colour balance behind the cheapest global lookahead.  With a leaper
 * that alternates colours, every edge still to come joins a cell of colour
 * 0 to one of colour 1, and it ends at a frontier cell or an unprocessed
 * one.  Counting those edge ends on each side: 2 per unprocessed cell
 * (less one per tour end among them) plus the frontier's missing degrees
 * give the same total on both sides.  So the difference of the sides,
 * with every missing degree counted as if no end were left, is at most
 * the number of tour ends not yet placed, and of the same parity.  (With
 * no ends it holds for every state, as the edges already placed balance
 * the same way: so only open tours are checked, where it halves the
 * layers, 5x5: 25,976 -> 14,900 states at most.)  Precomputed here per
 * step: the unprocessed cells' share and the given ends not yet retired.
 */
static void plan_balance(kti_splan *p, const kt_graph *g, kt_cell start, kt_cell end)
{
    p->bipartite = (g->a + g->b) % 2 == 1;
    int32_t bal = 0;
    uint32_t must = (start != KT_CELL_NONE) + (end != KT_CELL_NONE);
    for (uint32_t v = 0; v < p->n; v++) bal += kti_colour(g, p->cell[v]) ? -2 : 2;
    for (uint32_t t = 0; t < p->n; t++) {
        kti_sstep *s = &p->st[t];
        bal -= kti_colour(g, p->cell[t]) ? -2 : 2;
        s->ubal = bal;
        /* a given end retires when it leaves the frontier */
        for (unsigned w = 0; w <= s->npre; w++)
            if (s->leave[w] && s->role[w] == KTI_SMP_MUSTEND) must--;
        s->must_open = must;
    }
}

/* Fill the steps from the order; KT_EUNSUPPORTED when the frontier is too wide. */
static kt_status plan_steps(kti_splan *p, const kt_graph *g, const uint32_t *vid, uint32_t *last,
                            kt_cell start, kt_cell end)
{
    for (uint32_t v = 0; v < p->n; v++) {
        last[v] = v;
        for (int m = 0; m < KT_MOVE_COUNT; m++) {
            kt_cell d = kti_step(g, p->cell[v], m);
            if (d != KT_CELL_NONE && vid[d] > last[v]) last[v] = vid[d];
        }
    }
    uint32_t front[KTI_SMP_MAXW];
    unsigned nf = 0;
    for (uint32_t t = 0; t < p->n; t++) {
        kti_sstep *s = &p->st[t];
        s->npre = (uint8_t)nf;
        s->last = t + 1 == p->n;
        for (int m = 0; m < KT_MOVE_COUNT; m++) {
            kt_cell d = kti_step(g, p->cell[t], m);
            if (d == KT_CELL_NONE || vid[d] >= t) continue;
            unsigned k = 0;
            while (k < nf && front[k] != vid[d]) k++;
            KTI_ASSERT(k < nf); /* an earlier neighbour is still on the frontier */
            s->back_slot[s->nback] = (uint8_t)k;
            s->back_move[s->nback++] = (uint8_t)m;
        }
        front[nf] = t;
        unsigned nw = nf + 1, np = 0;
        for (unsigned w = 0; w < nw; w++) {
            uint32_t v = front[w];
            s->role[w] = (uint8_t)role_of(p, p->cell[v], start, end);
            s->leave[w] = s->last || last[v] <= t;
            if (s->leave[w]) continue;
            if (np == KTI_SMP_MAXS) return KT_EUNSUPPORTED;
            unsigned fut = 0;
            for (int m = 0; m < KT_MOVE_COUNT; m++) {
                kt_cell d = kti_step(g, p->cell[v], m);
                fut += d != KT_CELL_NONE && vid[d] > t;
            }
            s->fut[np] = (uint8_t)fut;
            s->colour[np] = (uint8_t)kti_colour(g, p->cell[v]);
            s->post[np++] = (uint8_t)w;
        }
        s->npost = (uint8_t)np;
        for (unsigned j = 0; j < np; j++) front[j] = front[s->post[j]];
        nf = np;
    }
    plan_balance(p, g, start, end);
    return KT_OK;
}

kt_status kti_splan_build(kti_splan *p, const kt_graph *g, bool open, kt_cell start, kt_cell end,
                          const kt_allocator *al)
{
    memset(p, 0, sizeof *p);
    p->open = open;
    p->free_ends = open ? 2u - (start != KT_CELL_NONE) - (end != KT_CELL_NONE) : 0u;
    size_t bytes;
    if (!kti_mul_ok(g->ncells, sizeof(uint32_t), &bytes)) return KT_ETOOBIG;
    uint32_t *vid = kti_alloc(al, bytes), *last = kti_alloc(al, bytes);
    p->cell = kti_calloc(al, g->ncells, sizeof *p->cell);
    p->st = kti_calloc(al, g->ncells, sizeof *p->st);
    kt_status st = KT_ENOMEM;
    if (vid != NULL && last != NULL && p->cell != NULL && p->st != NULL) {
        st = order_cells(p, g, vid);
        if (st == KT_OK) st = plan_steps(p, g, vid, last, start, end);
    }
    kti_free(al, vid);
    kti_free(al, last);
    if (st != KT_OK) kti_splan_free(p, al);
    return st;
}

void kti_splan_free(kti_splan *p, const kt_allocator *al)
{
    kti_free(al, p->cell);
    kti_free(al, p->st);
    p->cell = NULL;
    p->st = NULL;
}

void kti_schoices(const kti_sstep *s, kti_schoice *c)
{
    unsigned k = 0;
    c->e[k][0] = c->e[k][1] = 0xFF;
    k++;
    for (unsigned a = 0; a < s->nback; a++) {
        c->e[k][0] = (uint8_t)a;
        c->e[k++][1] = 0xFF;
    }
    for (unsigned a = 0; a < s->nback; a++)
        for (unsigned b = a + 1; b < s->nback; b++) {
            c->e[k][0] = (uint8_t)a;
            c->e[k++][1] = (uint8_t)b;
        }
    c->n = (uint8_t)k;
}

static void decode(const kti_sstep *s, uint64_t key, dstate *d)
{
    int8_t first[16];
    memset(first, -1, sizeof first);
    d->used = (unsigned)(key >> 60) & 3u;
    d->closures = 0;
    for (unsigned i = 0; i < s->npre; i++) {
        unsigned v = (unsigned)(key >> (4 * i)) & 0xFu;
        d->deg[i] = (int8_t)(v == 0 ? 0 : v == 1 ? 2 : 1);
        d->mate[i] = -1;
        if (v >= 3) {
            if (first[v] < 0) {
                first[v] = (int8_t)i;
            } else {
                d->mate[i] = first[v];
                d->mate[(int)first[v]] = (int8_t)i;
            }
        }
    }
    d->deg[s->npre] = 0;
    d->mate[s->npre] = -1;
}

/* Join working slots a and c by an edge; false if that cannot lead to a tour. */
static bool add_edge(bool open, dstate *d, int a, int c)
{
    if (d->deg[a] >= 2 || d->deg[c] >= 2) return false;
    if (d->deg[a] == 0 && d->deg[c] == 0) {
        d->mate[a] = (int8_t)c;
        d->mate[c] = (int8_t)a;
    } else if (d->deg[a] == 0 || d->deg[c] == 0) {
        int e = d->deg[a] == 0 ? a : c, f = d->deg[a] == 0 ? c : a; /* e new end, f extended */
        d->mate[e] = d->mate[f];
        if (d->mate[f] >= 0) d->mate[(int)d->mate[f]] = (int8_t)e;
    } else if (d->mate[a] == c) {
        if (open) return false; /* a cycle is never part of a path */
        d->closures++;
    } else if (d->mate[a] < 0 && d->mate[c] < 0) {
        d->closures++;          /* both ends of the open tour finished */
    } else {
        int ma = d->mate[a], mc = d->mate[c];
        if (ma >= 0) d->mate[ma] = (int8_t)mc;
        if (mc >= 0) d->mate[mc] = (int8_t)ma;
    }
    d->deg[a]++;
    d->deg[c]++;
    return true;
}

/* Retire the slots that leave the frontier; false if one cannot be finished. */
static bool retire(const kti_splan *p, const kti_sstep *s, dstate *d)
{
    for (unsigned w = 0; w <= s->npre; w++) {
        if (!s->leave[w]) continue;
        unsigned r = s->role[w];
        if (d->deg[w] == 0) return false;
        if (d->deg[w] == 2) {
            if (r == KTI_SMP_MUSTEND) return false;
            continue;
        }
        if (r == KTI_SMP_INNER) return false;
        if (r == KTI_SMP_MAYEND && ++d->used > p->free_ends) return false;
        if (d->mate[w] >= 0) d->mate[(int)d->mate[w]] = -1;
        else d->closures++;
        d->deg[w] = 2;
    }
    return true;
}

/* The state after choice e from the decoded state dd; false if it cannot
 * be part of a tour. */
static bool apply(const kti_splan *p, const kti_sstep *s, const dstate *dd, const uint8_t e[2],
                  uint64_t *next)
{
    dstate d = *dd;
    for (int i = 0; i < 2; i++)
        if (e[i] != 0xFF && !add_edge(p->open, &d, s->back_slot[e[i]], s->npre)) return false;
    if (!retire(p, s, &d)) return false;
    if (s->last) {
        if (d.closures != 1) return false;
        *next = KTI_SMP_ACCEPT;
        return true;
    }
    if (d.closures != 0) return false; /* a finished component with cells still to come */
    int8_t label[KTI_SMP_MAXW];
    memset(label, -1, sizeof label);
    unsigned next_label = 3, forced = 0;
    int32_t bal = s->ubal;
    uint64_t k = (uint64_t)d.used << 60;
    for (unsigned j = 0; j < s->npost; j++) {
        unsigned w = s->post[j], r = s->role[w];
        int deg = d.deg[w];
        /* Cheap lookahead: the edges still needed must exist. */
        unsigned need = r == KTI_SMP_INNER ? 2u - (unsigned)deg
                        : r == KTI_SMP_MUSTEND ? (deg <= 1 ? 1u - (unsigned)deg : 99u)
                        : (deg == 0 ? 1u : 0u);
        if (need > s->fut[j]) return false;
        /* a path end that cannot reach degree 2 will be an end of the tour */
        forced += r == KTI_SMP_MAYEND && deg + s->fut[j] < 2;
        bal += s->colour[j] ? deg - 2 : 2 - deg;
        unsigned v;
        if (deg == 0) {
            v = 0;
        } else if (deg == 2) {
            v = 1;
        } else if (d.mate[w] < 0) {
            v = 2;
        } else if (label[(int)d.mate[w]] >= 0) {
            v = (unsigned)label[(int)d.mate[w]];
        } else {
            v = next_label++;
            label[w] = (int8_t)v;
        }
        k |= (uint64_t)v << (4 * j);
    }
    if (d.used + forced > p->free_ends) return false;
    if (p->bipartite && p->open) {
        int32_t ends = (int32_t)(p->free_ends - d.used + s->must_open);
        if (bal > ends || -bal > ends || ((bal - ends) & 1)) return false;
    }
    *next = k;
    return true;
}

unsigned kti_sexpand(const kti_splan *p, const kti_sstep *s, const kti_schoice *ch, uint64_t key,
                     uint64_t *next)
{
    dstate d;
    decode(s, key, &d);
    unsigned k = 0;
    for (unsigned c = 0; c < ch->n; c++) {
        const uint8_t *e = ch->e[c];
        /* a slot already of degree 2 takes no edge: most choices end here */
        if ((e[0] != 0xFF && d.deg[s->back_slot[e[0]]] == 2) ||
            (e[1] != 0xFF && d.deg[s->back_slot[e[1]]] == 2) ||
            !apply(p, s, &d, e, &next[c])) {
            next[c] = KTI_SMP_NONE;
            continue;
        }
        k++;
    }
    return k;
}
