/* SPDX-License-Identifier: MIT */
/*
 * The neural network of Takefuji and Lee (1992): one neuron per edge of
 * the knight's graph, with state U (initially 0) and output V (initially
 * random 0/1), updated by their rule
 *     U <- U + 4 - deg(u) - deg(v)
 *     V <- 1 if U > 3, 0 if U < 0, else unchanged,
 * where deg counts the active edges at a cell, this neuron included.  For
 * an active neuron this is Takefuji and Lee's U += 2 - (sum of the outputs
 * of the neurons sharing an end with it); for an inactive one their
 * formula would add 2 less, and with it the network freezes with inactive
 * edges between cells of degree 1 (0 convergences in 100 runs on 6x6 to
 * 24x24), so we count the neuron's own output at both ends as Parberry's
 * code does.  The network has converged when every cell has two active
 * edges: no update changes anything any more, and the active edges are a
 * 2-regular spanning subgraph, i.e. a tourney (a cover of the board by
 * disjoint cycles, usually many; it is not a tour).
 *
 * Three standard improvements over the literal sweep-until-stable loop,
 * none of which changes the update rule:
 *  - Event-driven asynchronous updates.  A neuron whose two cells both
 *    have degree 2 gets U += 0, so an update can only change something at
 *    a cell whose degree is not 2.  We keep those cells in a set and
 *    update, in random order, the neurons at a random member; the degrees
 *    are kept incrementally.  Updating every neuron in turn (as the
 *    original sweeps do) spends almost all its time on no-op updates once
 *    most of the board has settled: 64x64 took about 8 s.
 *  - Local restarts.  The network can freeze or oscillate around a few
 *    cells (e.g. an inactive edge between a cell of degree 1 and one of
 *    degree 3 gets U += 0 for ever); on a large board some such spot is
 *    almost certain, which is why whole-network restarts never converged
 *    at 128x128.  A cell drawn AGE_MAX times while still unsatisfied has
 *    its neurons restarted as at the start (U = 0, a random output); the
 *    rest of the board keeps its state.  (Restarting every unsatisfied
 *    cell when their number stops falling kept about 25 of them unsettled
 *    for ever at 256x256.)
 *  - Full restarts from a new seeded random state after a fixed amount of
 *    work without convergence.
 * The budget counts work in sweeps: one sweep = as many neuron updates as
 * the network has neurons.
 */
#include "generate_internal.h"

/* Sweeps of work before a full restart. */
#define SWEEPS_PER_RUN 400u
/* Draws of a cell that stays unsatisfied before its local restart (32 to
 * 128 measured alike; restarting the neighbours too did not help). */
#define AGE_MAX 64u

/* The network: neuron slot 4 c + (m - 4) is the edge from cell c by its
 * downward move m (4..7), `ok` when that move stays on the board; U, V per
 * slot; deg per cell; the set of cells whose degree is not 2 (bad, with
 * each cell's index in it, or NOT_IN). */
typedef struct net {
    const kt_graph *g;
    size_t N, E;
    int32_t *U;
    uint8_t *V, *ok, *deg;
    kt_cell *bad;
    uint32_t *where;
    uint16_t *age; /* draws of each unsatisfied cell since it became so */
    size_t nbad;
} net;

#define NOT_IN UINT32_MAX

static void net_free(net *k)
{
    const kt_allocator *al = &k->g->alloc;
    kti_free(al, k->U);
    kti_free(al, k->V);
    kti_free(al, k->ok);
    kti_free(al, k->deg);
    kti_free(al, k->bad);
    kti_free(al, k->where);
    kti_free(al, k->age);
}

static kt_status net_new(const kt_graph *g, net *k, kti_progress *pr)
{
    memset(k, 0, sizeof *k);
    k->g = g;
    k->N = g->ncells;
    size_t S;
    if (!kti_mul_ok(k->N, 4, &S)) return KT_ENOMEM;
    const kt_allocator *al = &g->alloc;
    /* written before they are read (U and deg by net_restart) */
    k->U = kti_gen_alloc(al, S, sizeof(int32_t));
    k->V = kti_alloc(al, S);
    k->ok = kti_alloc(al, S);
    k->deg = kti_alloc(al, k->N);
    k->bad = kti_gen_alloc(al, k->N, sizeof(kt_cell));
    k->where = kti_gen_alloc(al, k->N, sizeof(uint32_t));
    k->age = kti_gen_alloc(al, k->N, sizeof(uint16_t));
    if (!k->U || !k->V || !k->ok || !k->deg || !k->bad || !k->where || !k->age) {
        net_free(k);
        return KT_ENOMEM;
    }
    for (size_t c = 0; c < k->N; c++) {
        if ((c & 0xFFFFu) == 0 && kti_gen_tick(pr, 0, 0)) {
            net_free(k);
            return KT_ECANCELED;
        }
        for (int m = 4; m < 8; m++) {
            bool on = kti_step(g, (kt_cell)c, m) != KT_CELL_NONE;
            k->ok[4 * c + (size_t)(m - 4)] = on;
            k->E += on;
        }
    }
    return KT_OK;
}

static inline void bad_add(net *k, kt_cell c)
{
    if (k->where[c] != NOT_IN) return;
    k->age[c] = 0;
    k->where[c] = (uint32_t)k->nbad;
    k->bad[k->nbad++] = c;
}

static inline void bad_remove(net *k, kt_cell c)
{
    uint32_t i = k->where[c];
    kt_cell last = k->bad[--k->nbad];
    k->bad[i] = last;
    k->where[last] = i;
    k->where[c] = NOT_IN;
}

/* The neuron slot of the edge from c by move m (0..7) and its other end,
 * or SIZE_MAX when the move leaves the board. */
static inline size_t slot_of(const net *k, kt_cell c, int m, kt_cell *other)
{
    kt_cell d = kti_step(k->g, c, m);
    if (d == KT_CELL_NONE) return SIZE_MAX;
    *other = d;
    return m >= 4 ? 4 * (size_t)c + (size_t)(m - 4) : 4 * (size_t)d + (size_t)m;
}

/* Set the output of slot s between a and b, keeping degrees and the set. */
static inline void set_output(net *k, size_t s, kt_cell a, kt_cell b, uint8_t v)
{
    if (k->V[s] == v) return;
    k->V[s] = v;
    int d = v ? 1 : -1;
    k->deg[a] = (uint8_t)(k->deg[a] + d);
    k->deg[b] = (uint8_t)(k->deg[b] + d);
    bad_add(k, a); /* checked (and dropped if fine) when drawn */
    bad_add(k, b);
}

/* A restart of the neurons at cell c: U = 0, a random output. */
static void restart_cell(net *k, kt_cell c, kti_rng *rng)
{
    for (int m = 0; m < 8; m++) {
        kt_cell d;
        size_t s = slot_of(k, c, m, &d);
        if (s == SIZE_MAX) continue;
        k->U[s] = 0;
        set_output(k, s, c, d, (uint8_t)(kti_rng_next(rng) >> 63));
    }
}

/* A new run: every neuron restarted. */
static kt_status net_restart(net *k, kti_rng *rng, kti_progress *pr, uint64_t done, uint64_t total)
{
    size_t S = 4 * k->N;
    if (kti_gen_zero(k->U, S * sizeof(int32_t), pr, done, total) || kti_gen_zero(k->deg, k->N, pr, done, total))
        return KT_ECANCELED;
    k->nbad = 0;
    for (size_t c = 0; c < k->N; c++) {
        if ((c & 0xFFFFu) == 0 && kti_gen_tick(pr, done, total)) return KT_ECANCELED;
        k->where[c] = NOT_IN;
        bad_add(k, (kt_cell)c);
    }
    for (size_t s = 0; s < S; s++) {
        if ((s & 0x3FFFFu) == 0 && kti_gen_tick(pr, done, total)) return KT_ECANCELED;
        k->V[s] = 0;
        if (!k->ok[s]) continue;
        uint8_t v = (uint8_t)(kti_rng_next(rng) >> 63);
        kt_cell a = (kt_cell)(s / 4), b = kti_step(k->g, a, (int)(s % 4) + 4);
        k->V[s] = v;
        k->deg[a] += v;
        k->deg[b] += v;
    }
    return KT_OK;
}

/* Update the neurons of a random unsatisfied cell (in a random order);
 * returns the updates made. */
static unsigned update_cell(net *k, kti_rng *rng)
{
    kt_cell c = k->bad[kti_rng_below(rng, k->nbad)];
    if (k->deg[c] == 2) {
        bad_remove(k, c);
        return 0;
    }
    if (++k->age[c] > AGE_MAX) { /* stuck here: a local restart */
        restart_cell(k, c, rng);
        k->age[c] = 0;
        return 8;
    }
    unsigned first = (unsigned)(kti_rng_next(rng) & 7), n = 0;
    for (unsigned i = 0; i < 8; i++) {
        int m = (int)((first + i) & 7);
        kt_cell d;
        size_t s = slot_of(k, c, m, &d);
        if (s == SIZE_MAX) continue;
        int32_t u = k->U[s] + 4 - (int32_t)k->deg[c] - (int32_t)k->deg[d];
        k->U[s] = u;
        set_output(k, s, c, d, u > 3 ? 1 : u < 0 ? 0 : k->V[s]);
        n++;
    }
    return n;
}

/* The active edges of a converged network as a tourney. */
static kt_status net_tourney(const net *k, kt_tourney **out)
{
    const kt_graph *g = k->g;
    kt_tourney *t = NULL;
    KTI_TRY(kti_tourney_alloc(&t, g));
    for (size_t s = 0; s < 4 * k->N; s++) {
        if (!k->V[s]) continue;
        kt_cell a = (kt_cell)(s / 4);
        int m = (int)(s % 4) + 4;
        bool ok = kti_pair_add(t->mv, a, m);
        ok &= kti_pair_add(t->mv, kti_step(g, a, m), (m + 4) & 7);
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

/* One run: updates until convergence (KT_OK), the run's or the budget's
 * end (KT_ELIMIT) or a cancel.  *spent counts neuron updates. */
static kt_status net_run(net *k, kti_rng *rng, uint64_t *spent, uint64_t limit, uint64_t run_end,
                         kti_progress *pr, uint64_t sweeps)
{
    uint64_t next_tick = *spent;
    while (k->nbad > 0) {
        if (*spent >= limit || *spent >= run_end) return KT_ELIMIT;
        if (*spent >= next_tick) {
            next_tick = *spent + 4096;
            if (kti_gen_tick(pr, *spent / k->E, sweeps)) return KT_ECANCELED;
        }
        *spent += update_cell(k, rng) + 1;
    }
    return KT_OK;
}

kt_status kti_neural_tourney(kt_tourney **out, const kt_graph *g, uint64_t seed, uint64_t sweeps,
                             kti_progress *pr)
{
    size_t W = g->width, H = g->height;
    if ((g->ncells & 1) || W < 3 || H < 3 || (W == 3 && H == 3)) return KT_EUNSUPPORTED;
    net k;
    KTI_TRY(net_new(g, &k, pr));
    kti_rng rng;
    kti_rng_seed(&rng, seed);
    uint64_t spent = 0, limit = sweeps > UINT64_MAX / k.E ? UINT64_MAX : sweeps * k.E;
    kt_status st = KT_ELIMIT;
    while (spent < limit && st == KT_ELIMIT) {
        st = net_restart(&k, &rng, pr, spent / k.E, sweeps);
        if (st != KT_OK) break;
        uint64_t run_end = spent + (uint64_t)SWEEPS_PER_RUN * k.E;
        st = net_run(&k, &rng, &spent, limit, run_end, pr, sweeps);
        if (st == KT_OK) st = net_tourney(&k, out);
    }
    net_free(&k);
    return st;
}
