/* SPDX-License-Identifier: MIT */
/*
 * The neural network of Takefuji and Lee (1992): one neuron per edge of
 * the knight's graph, with state U (initially 0) and output V (initially
 * random 0/1).  A sweep updates every neuron once, in place, in a random
 * order fixed per run (asynchronous updates, as in Parberry's
 * implementation):
 *     U <- U + 4 - deg(u) - deg(v)
 *     V <- 1 if U > 3, 0 if U < 0, else unchanged,
 * where deg counts the active edges at a cell, this neuron included.  For
 * an active neuron this is Takefuji and Lee's rule U += 2 - (sum of the
 * outputs of the neurons sharing an end with it); for an inactive one
 * their formula would add 2 less, and with it the network freezes with
 * inactive edges between cells of degree 1 (we measured 0 convergences in
 * 100 runs on 6x6 to 24x24, synchronous or not), so we count the neuron's
 * own output at both ends as Parberry's code does.  The network has
 * converged when a sweep changes no output and every cell has two active
 * edges: the active edges are then a 2-regular spanning subgraph, i.e. a
 * tourney.  A run that has not converged after 400 sweeps (it may
 * oscillate or freeze elsewhere) is restarted from a new random state; the
 * caller's budget bounds the total sweeps (KT_ELIMIT).
 */
#include "generate_internal.h"

/* Sweeps per run before a restart. */
#define SWEEPS_PER_RUN 400u

/* The network: edges (eu, ev) with the move em from eu, and per edge the
 * state U, the output V and the update order; deg per cell. */
typedef struct net {
    size_t N, E;
    kt_cell *eu, *ev;
    int32_t *U;
    uint32_t *order;
    uint8_t *V, *em, *deg;
} net;

static void net_free(const kt_allocator *al, net *k)
{
    kti_free(al, k->eu);
    kti_free(al, k->ev);
    kti_free(al, k->U);
    kti_free(al, k->V);
    kti_free(al, k->em);
    kti_free(al, k->order);
    kti_free(al, k->deg);
}

/* One neuron per edge: every cell with its downward moves 4..7. */
static kt_status net_new(const kt_graph *g, net *k)
{
    memset(k, 0, sizeof *k);
    k->N = g->ncells;
    for (size_t c = 0; c < k->N; c++)
        for (int m = 4; m < 8; m++) k->E += kti_step(g, (kt_cell)c, m) != KT_CELL_NONE;
    const kt_allocator *al = &g->alloc;
    size_t E = k->E;
    k->eu = kti_calloc(al, E, sizeof(kt_cell));
    k->ev = kti_calloc(al, E, sizeof(kt_cell));
    k->U = kti_calloc(al, E, sizeof(int32_t));
    k->order = kti_calloc(al, E, sizeof(uint32_t));
    k->V = kti_calloc(al, E, 1);
    k->em = kti_calloc(al, E, 1);
    k->deg = kti_calloc(al, k->N, 1);
    if (!k->eu || !k->ev || !k->U || !k->V || !k->em || !k->order || !k->deg) {
        net_free(al, k);
        return KT_ENOMEM;
    }
    E = 0;
    for (size_t c = 0; c < k->N; c++)
        for (int m = 4; m < 8; m++) {
            kt_cell d = kti_step(g, (kt_cell)c, m);
            if (d == KT_CELL_NONE) continue;
            k->eu[E] = (kt_cell)c;
            k->ev[E] = d;
            k->em[E++] = (uint8_t)m;
        }
    return KT_OK;
}

/* A new run: U = 0, random outputs, a random update order. */
static void net_restart(net *k, kti_rng *rng)
{
    size_t E = k->E;
    memset(k->U, 0, E * sizeof(int32_t));
    memset(k->deg, 0, k->N);
    for (size_t e = 0; e < E; e++) {
        k->V[e] = (uint8_t)(kti_rng_next(rng) >> 63);
        k->deg[k->eu[e]] += k->V[e];
        k->deg[k->ev[e]] += k->V[e];
        k->order[e] = (uint32_t)e;
    }
    for (size_t i = 0; i + 1 < E; i++) {
        size_t j = i + (size_t)kti_rng_below(rng, E - i);
        uint32_t tmp = k->order[i];
        k->order[i] = k->order[j];
        k->order[j] = tmp;
    }
}

/* One sweep; true when the network has converged to a tourney. */
static bool net_sweep(net *k)
{
    size_t nflip = 0;
    for (size_t i = 0; i < k->E; i++) {
        size_t e = k->order[i];
        int32_t u = k->U[e] + 4 - (int32_t)k->deg[k->eu[e]] - (int32_t)k->deg[k->ev[e]];
        k->U[e] = u;
        uint8_t nv = u > 3 ? 1 : u < 0 ? 0 : k->V[e];
        if (nv == k->V[e]) continue;
        nflip++;
        k->V[e] = nv;
        int d = nv ? 1 : -1;
        k->deg[k->eu[e]] = (uint8_t)(k->deg[k->eu[e]] + d);
        k->deg[k->ev[e]] = (uint8_t)(k->deg[k->ev[e]] + d);
    }
    if (nflip != 0) return false;
    for (size_t c = 0; c < k->N; c++)
        if (k->deg[c] != 2) return false;
    return true;
}

/* The active edges of a converged network as a tourney. */
static kt_status net_tourney(const net *k, const kt_graph *g, kt_tourney **out)
{
    kt_tourney *t = NULL;
    KTI_TRY(kti_tourney_alloc(&t, g));
    for (size_t e = 0; e < k->E; e++) {
        if (!k->V[e]) continue;
        bool ok = kti_pair_add(t->mv, k->eu[e], k->em[e]);
        ok &= kti_pair_add(t->mv, k->ev[e], (k->em[e] + 4) & 7);
        KTI_ASSERT(ok); /* converged: two active edges per cell */
        (void)ok;
    }
    t->shape = KT_SHAPE_CYCLES;
    kt_status st = kti_tourney_recount(t);
    if (st != KT_OK) {
        kt_tourney_free(t);
        return st;
    }
    *out = t;
    return KT_OK;
}

kt_status kti_neural_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed, uint64_t sweeps,
                             kti_progress *pr)
{
    size_t W = g->width, H = g->height;
    if ((g->ncells & 1) || W < 3 || H < 3 || (W == 3 && H == 3)) return KT_EUNSUPPORTED;
    net k;
    KTI_TRY(net_new(g, &k));
    kti_rng rng;
    kti_rng_seed(&rng, seed);
    uint64_t spent = 0;
    kt_status st = KT_ELIMIT;
    while (spent < sweeps && st == KT_ELIMIT) {
        net_restart(&k, &rng);
        for (uint64_t it = 0; it < SWEEPS_PER_RUN && spent < sweeps; it++, spent++) {
            if (kti_gen_tick(pr, spent, sweeps)) {
                st = KT_ECANCELED;
                break;
            }
            if (net_sweep(&k)) {
                st = net_tourney(&k, g, out);
                break;
            }
        }
    }
    net_free(&g->alloc, &k);
    return st;
}
