/* SPDX-License-Identifier: MIT */
/*
 * The Takefuji-Lee neural network (1992): one neuron per edge of the
 * knight's graph, with state U (initially 0) and output V (initially random
 * 0/1).  A sweep updates every neuron once, in place, in a random order
 * fixed per run (asynchronous updates, as in Parberry's implementation):
 *     U <- U + 4 - deg(u) - deg(v)
 *     V <- 1 if U > 3, 0 if U < 0, else unchanged,
 * where deg counts the active edges at a cell, this neuron included.  For
 * an active neuron this is the seed's rule U += 2 - (sum of the outputs of
 * the neurons sharing an end with it); for an inactive one the seed's
 * formula would add 2 less, and with it the network freezes with inactive
 * edges between cells of degree 1 (we measured 0 convergences in 100 runs
 * on 6x6 to 24x24, synchronous or not), so we count the neuron's own
 * output at both ends as Parberry's code does.  The network has converged
 * when a sweep changes no output and every cell has two active edges: the
 * active edges are then a 2-regular spanning subgraph, i.e. a tourney.  A
 * run that has not converged after 400 sweeps (it may oscillate or freeze
 * elsewhere) is restarted from a new random state; the caller's budget
 * bounds the total sweeps (KT_ELIMIT).
 */
#include "generate_internal.h"

kt_status kti_neural_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed, uint64_t budget)
{
    size_t W = g->width, H = g->height, N = g->ncells;
    if ((N & 1) || W < 3 || H < 3 || (W == 3 && H == 3)) return KT_EUNSUPPORTED;
    if (budget == 0) budget = 100000;
    /* edges: every cell with its downward moves 4..7 */
    size_t E = 0;
    for (size_t c = 0; c < N; c++)
        for (int m = 4; m < 8; m++) E += kti_step(g, (kt_cell)c, m) != KT_CELL_NONE;
    const kt_allocator *al = &g->alloc;
    kt_cell *eu = kti_calloc(al, E, sizeof(kt_cell)), *ev = kti_calloc(al, E, sizeof(kt_cell));
    int32_t *U = kti_calloc(al, E, sizeof(int32_t));
    uint32_t *order = kti_calloc(al, E, sizeof(uint32_t));
    uint8_t *V = kti_calloc(al, E, 1), *em = kti_calloc(al, E, 1);
    uint8_t *deg = kti_calloc(al, N, 1);
    kt_tourney *t = NULL;
    kt_status st = KT_ENOMEM;
    if (!eu || !ev || !U || !V || !em || !order || !deg) goto done;
    E = 0;
    for (size_t c = 0; c < N; c++)
        for (int m = 4; m < 8; m++) {
            kt_cell d = kti_step(g, (kt_cell)c, m);
            if (d == KT_CELL_NONE) continue;
            eu[E] = (kt_cell)c;
            ev[E] = d;
            em[E++] = (uint8_t)m;
        }
    kti_rng rng;
    kti_rng_seed(&rng, seed);
    const uint64_t per_run = 400; /* sweeps per run before a restart */
    uint64_t spent = 0;
    st = KT_ELIMIT;
    while (spent < budget) {
        memset(U, 0, E * sizeof(int32_t));
        memset(deg, 0, N);
        for (size_t e = 0; e < E; e++) {
            V[e] = (uint8_t)(kti_rng_next(&rng) >> 63);
            deg[eu[e]] += V[e];
            deg[ev[e]] += V[e];
            order[e] = (uint32_t)e;
        }
        for (size_t i = 0; i + 1 < E; i++) {
            size_t j = i + (size_t)kti_rng_below(&rng, E - i);
            uint32_t tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
        bool ok = false;
        for (uint64_t it = 0; it < per_run && spent < budget; it++, spent++) {
            size_t nflip = 0;
            for (size_t k = 0; k < E; k++) {
                size_t e = order[k];
                int32_t u = U[e] + 4 - (int32_t)deg[eu[e]] - (int32_t)deg[ev[e]];
                U[e] = u;
                uint8_t nv = u > 3 ? 1 : u < 0 ? 0 : V[e];
                if (nv == V[e]) continue;
                nflip++;
                V[e] = nv;
                int d = nv ? 1 : -1;
                deg[eu[e]] = (uint8_t)(deg[eu[e]] + d);
                deg[ev[e]] = (uint8_t)(deg[ev[e]] + d);
            }
            if (nflip == 0) {
                bool all2 = true;
                for (size_t c = 0; c < N && all2; c++) all2 = deg[c] == 2;
                if (all2) {
                    ok = true;
                    break;
                }
            }
        }
        if (ok) {
            st = kti_tourney_alloc(&t, g);
            if (st != KT_OK) break;
            for (size_t e = 0; e < E; e++) {
                if (!V[e]) continue;
                kti_pair_add(t->mv, eu[e], em[e]);
                kti_pair_add(t->mv, ev[e], (em[e] + 4) & 7);
            }
            t->shape = KT_SHAPE_CYCLES;
            st = kti_tourney_recount(t);
            break;
        }
    }
done:
    kti_free(al, eu);
    kti_free(al, ev);
    kti_free(al, U);
    kti_free(al, V);
    kti_free(al, em);
    kti_free(al, order);
    kti_free(al, deg);
    if (st != KT_OK) {
        kt_tourney_free(t);
        return st;
    }
    *out = t;
    return KT_OK;
}
