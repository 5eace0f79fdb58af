/* SPDX-License-Identifier: MIT */
/*
 * The frontier (transfer-matrix) dynamic programme.
 *
 * Vertices are processed in order.  Processing vertex t chooses which of
 * its edges to earlier vertices belong to the cycle (or path); a vertex
 * leaves the frontier once its last neighbour has been processed, and must
 * then have degree 2 (or 1 for a path end).  A state describes the
 * frontier: for each frontier vertex its degree so far and, for a path end,
 * which frontier vertex is the other end of its path (and the voltage of
 * the path, for counting symmetric tours through a quotient graph).
 *
 * State key: 4 bits per frontier slot, slot 0 (oldest) in the low bits.
 *   0        degree 2 (done, waiting to leave)
 *   1        degree 0
 *   2..2+q-1 end of a path whose other end is a later slot (opener),
 *            the digit carrying the path's voltage (opener -> closer)
 *   2+q+k    end of the path opened by the k-th opener (closer)
 *   14       end of a path whose other end is a finished end of an open
 *            tour ("terminal-linked", open mode only)
 *   15, 12   closer of a path opened by the implicit slot 0 (see below),
 *            with voltage 0 or 1
 * A frontier of 17 slots (8-wide boards) does not fit 64 bits; there the
 * oldest slot has at most one future neighbour, so it has degree 1 or 2,
 * and it is left implicit: it is a path end iff some digit is 15.
 * Open tours break that rule (the oldest slot may still have degree 0, or
 * lead to a finished tour end), so an open count whose frontier reaches
 * 17 slots packs every key instead (the plan's `packed`, q = 1 only): a
 * slot of an open count takes 12 values (0, 1, the opener 2, closers 3..10
 * since 17 slots hold at most 8 paths, and 11 for the terminal-linked
 * end), and three slots fit 11 bits (12^3 = 1728 < 2048), so 17 slots fit
 * 5 x 11 + 8 = 63 bits.  The packed key is linear in the digits (slot j
 * weighs 12^(j mod 3) << 11 (j / 3)), so encoding stays a sum.
 * The encoding is canonical (openers are numbered in slot order), so equal
 * frontiers give equal keys.
 *
 * Layers are open-addressing hash tables of (key, 64-bit count) shared by
 * the worker threads (compare-and-swap on the key, atomic add on the
 * count); a carry out of 64 bits goes to a small side table of high words,
 * so counts are exact to 128 bits.
 */
#include "count_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXS 17
_Static_assert(MAXS == KTI_FRONTIER_MAX_SLOTS, "count.c's early width check");
#define MAXW 18
#define MAXB 16
#define MAXSUCC (1 + MAXB + MAXB * (MAXB - 1) / 2)
#define DIG_TERM 14u
#define DIG_IMPL 15u
#define DIG_IMPL1 12u   /* the same with voltage 1 (q = 2; 7 explicit paths at most) */
#define PK_TERM 11u     /* DIG_TERM in a packed key */
#define EMPTY UINT64_MAX

typedef struct step {
    uint8_t npre, npost, nback;
    bool last, impl_pre, impl_post;
    uint8_t back_slot[MAXB];
    uint8_t back_volt[MAXB];
    uint8_t leave[MAXW];
    uint8_t nleave, leaves[MAXW]; /* the working slots that leave at this step */
    uint8_t end_ok[MAXW];     /* per working slot */
    uint8_t post[MAXS];       /* working slot of each post slot */
    uint8_t pidx[MAXW];       /* post slot of each working slot (0 if it leaves) */
    uint32_t wt3[MAXW];       /* 3^(its post slot), 0 if it leaves: its weight in the memo index */
    uint8_t fut[MAXS];        /* future neighbours of each post slot */
    int8_t col[MAXS];         /* colour of each post slot, +1 or -1 (bipartite graphs) */
    int32_t bal;              /* twice (unprocessed +1 vertices - unprocessed -1 vertices) */
    int8_t fix_r;             /* fixed ends: the path ends still to come after this step, else -1 */
    const uint64_t *feas;     /* realizable demand vectors (open: 3 sets, 1 with fixed ends), or NULL */
    uint64_t *memo;           /* or, on small frontiers, their answers so far (la_solve) */
} step;

typedef struct plan {
    uint32_t n;
    unsigned q;
    bool open;
    step *st;
    uint64_t *feas_mem;       /* one block holding every step's feas bitset (or memo) */
    uint32_t max_slots;
    unsigned maxsucc;
    bool bip;                 /* the graph is bipartite: col and bal are set */
    bool packed;              /* keys packed 12 values a slot (open, 17 slots) */
    bool fixed;               /* open, exactly two vertices may end a path: fix_r is set */
} plan;

static const uint32_t pow3[MAXS + 1] = {
    1u, 3u, 9u, 27u, 81u, 243u, 729u, 2187u, 6561u, 19683u, 59049u, 177147u,
    531441u, 1594323u, 4782969u, 14348907u, 43046721u, 129140163u};

typedef struct dstate {
    int8_t deg[MAXW];
    int8_t mate[MAXW];        /* -1: terminal-linked */
    uint8_t volt[MAXW];       /* voltage from this end to its mate */
} dstate;

/* ------------------------------------------------------------------ plan */

/* A 2-colouring of cg into col[] (+1, -1), if it has one (a knight board
 * and its quotients do; an apex joined to two cells of different colours
 * does not).  Breadth first from each uncoloured vertex, with col[] as the
 * visited marks and queue[] (n entries) as the queue. */
static bool cg_colour(const kti_cgraph *cg, int8_t *col, uint32_t *queue)
{
    memset(col, 0, cg->n);
    for (uint32_t s = 0; s < cg->n; s++) {
        if (col[s] != 0) continue;
        size_t qh = 0, qt = 0;
        col[s] = 1;
        queue[qt++] = s;
        while (qh < qt) {
            uint32_t v = queue[qh++];
            for (uint32_t e = cg->start[v]; e < cg->start[v + 1]; e++) {
                uint32_t u = cg->to[e];
                if (col[u] == col[v]) return false;
                if (col[u] == 0) {
                    col[u] = (int8_t)-col[v];
                    queue[qt++] = u;
                }
            }
        }
    }
    return true;
}

static kt_status plan_build(const kti_cgraph *cg, const kt_allocator *al, plan *p)
{
    memset(p, 0, sizeof *p);
    p->n = cg->n;
    p->q = cg->q;
    p->open = cg->open;
    if (cg->n == 0) return KT_OK;
    if (cg->q != 1 && cg->q != 2 && cg->q != 4) return KT_EINVAL;
    uint32_t *last = kti_calloc(al, cg->n, sizeof *last);
    int8_t *col = kti_alloc(al, cg->n);
    p->st = kti_calloc(al, cg->n, sizeof *p->st);
    if (last == NULL || col == NULL || p->st == NULL) {
        kti_free(al, last);
        kti_free(al, col);
        kti_free(al, p->st);
        p->st = NULL;
        return KT_ENOMEM;
    }
    p->bip = cg_colour(cg, col, last);
    for (uint32_t v = 0; v < cg->n; v++) {
        last[v] = v;
        for (uint32_t e = cg->start[v]; e < cg->start[v + 1]; e++)
            if (cg->to[e] > last[v]) last[v] = cg->to[e];
    }
    uint32_t front[MAXW];
    uint32_t nf = 0;
    kt_status st = KT_OK;
    p->maxsucc = 1;
    for (uint32_t t = 0; t < cg->n && st == KT_OK; t++) {
        step *s = &p->st[t];
        s->npre = (uint8_t)nf;
        s->impl_pre = nf == MAXS && !cg->open;
        s->last = t + 1 == cg->n;
        unsigned nb = 0;
        for (uint32_t e = cg->start[t]; e < cg->start[t + 1]; e++) {
            uint32_t u = cg->to[e];
            if (u >= t) continue;
            uint32_t k = 0;
            while (k < nf && front[k] != u) k++;
            if (k == nf || nb == MAXB) { st = KT_EUNSUPPORTED; break; }
            s->back_slot[nb] = (uint8_t)k;
            s->back_volt[nb] = cg->volt[e];
            nb++;
        }
        s->nback = (uint8_t)nb;
        unsigned ns = 1 + nb + nb * (nb - 1) / 2;
        if (ns > p->maxsucc) p->maxsucc = ns;
        front[nf] = t;
        uint32_t nw = nf + 1, np = 0;
        for (uint32_t w = 0; w < nw; w++) {
            uint32_t v = front[w];
            s->end_ok[w] = cg->end_ok ? cg->end_ok[v] : 1;
            s->leave[w] = s->last || last[v] <= t;
            if (s->leave[w]) s->leaves[s->nleave++] = (uint8_t)w;
            if (!s->leave[w]) {
                if (np == MAXS) { st = KT_EUNSUPPORTED; break; }
                unsigned fut = 0;
                for (uint32_t e = cg->start[v]; e < cg->start[v + 1]; e++) fut += cg->to[e] > t;
                s->fut[np] = (uint8_t)(fut > 255 ? 255 : fut);
                s->col[np] = p->bip ? col[v] : 0;
                s->pidx[w] = (uint8_t)np;
                s->wt3[w] = pow3[np];
                s->post[np++] = (uint8_t)w;
            }
        }
        if (st != KT_OK) break;
        s->npost = (uint8_t)np;
        s->impl_post = np == MAXS && !cg->open;
        if (np == MAXS && cg->open) {
            if (cg->q != 1) st = KT_EUNSUPPORTED;
            p->packed = true;
        } else if (s->impl_post && (cg->q > 2 || s->fut[0] > 1)) {
            st = KT_EUNSUPPORTED;
        }
        if (np > p->max_slots) p->max_slots = np;
        uint32_t k = 0;
        for (uint32_t j = 0; j < np; j++) front[k++] = front[s->post[j]];
        nf = k;
    }
    /* With exactly two possible path ends (open tours between given
     * cells), both are ends, so the ends still to come after step t are
     * those of the two that have not left the frontier: one lookahead set
     * per step instead of three, and a state whose terminal digits
     * disagree is dead at once.  A vertex leaves at its last neighbour. */
    unsigned nok = 0;
    uint32_t leaves[2] = {0, 0};     /* the steps at which the two ends leave */
    for (uint32_t v = 0; v < cg->n && cg->open && nok <= 2; v++)
        if (cg->end_ok == NULL || cg->end_ok[v]) {
            if (nok < 2) leaves[nok] = last[v];
            nok++;
        }
    p->fixed = cg->open && nok == 2;
    for (uint32_t t = 0; t < cg->n && st == KT_OK; t++)
        p->st[t].fix_r = (int8_t)(p->fixed ? (leaves[0] > t) + (leaves[1] > t) : -1);
    if (p->bip && st == KT_OK) {
        int32_t bal = 0;
        for (uint32_t t = cg->n; t-- > 0;) {
            p->st[t].bal = bal;
            bal += 2 * col[t];
        }
    }
    kti_free(al, last);
    kti_free(al, col);
    if (st != KT_OK) {
        kti_free(al, p->st);
        p->st = NULL;
    }
    return st;
}

/* ------------------------------------------------------------ lookahead */

/*
 * A state after step t can be completed only if the remaining degrees of
 * its frontier vertices (its demand vector, 0..2 per slot: 2 - degree) can
 * be supplied by some subgraph on the unprocessed vertices in which every
 * unprocessed vertex has degree 2.  The set R_t of such vectors is computed
 * backwards (R_{n-1} = {0}; R_{t-1} from R_t by letting vertex t pick its
 * edges to earlier vertices), once per plan.  Without it, states that the
 * last rows cannot finish survive until the vertices they starve leave the
 * frontier: on 8x8 that is most of them.
 *
 * Open mode: a path has two ends, each a vertex that leaves the frontier
 * with degree 1.  There is one set per number r = 0, 1, 2 of ends still to
 * come: R^r_t holds the vectors that the rest of the graph can supply with
 * exactly r more vertices leaving at degree 1 (frontier vertices or later
 * ones).  A state whose path ends already gone number T (its terminal
 * digits) must lie in R^{2-T}_t.  Without it, 6x6 peaks at 5.6 M states.
 *
 * Bitset layout: bit (hi << 7 | lo), lo = the first four base-3 digits
 * (0..80), hi = the others; so set bits decode without division.  In open
 * mode a step's three sets follow each other, la_words(np) words apart.
 */
#define LA_LO 4u

static inline size_t la_words(unsigned np)
{
    return np <= LA_LO ? 2u : (size_t)pow3[np - LA_LO] * 2u;
}

/* The bit of a vector is linear in its digits: digit k weighs la_wt(k). */
static inline size_t la_wt(unsigned k)
{
    return k < LA_LO ? pow3[k] : (size_t)pow3[k - LA_LO] << 7;
}

static inline void la_set(uint64_t *set, size_t bit)
{
    set[bit >> 6] |= (uint64_t)1 << (bit & 63);
}

/* The vectors before step s that lead to b after it by vertex s taking k
 * edges back (every choice of k distinct back edges) into set; base is
 * the bit of b itself. */
static void la_back(const step *s, const uint8_t *b, size_t base, unsigned k, uint64_t *set)
{
    unsigned nb = k ? s->nback : 0;
    if (k == 0) la_set(set, base);
    for (unsigned i = 0; i < nb; i++) {
        unsigned a1 = s->back_slot[i];
        if (k == 1) {
            if (b[a1] < 2) la_set(set, base + la_wt(a1));
            continue;
        }
        for (unsigned j = i + 1; j < nb; j++) {
            unsigned a2 = s->back_slot[j];
            if (a1 == a2 ? b[a1] == 0 : b[a1] < 2 && b[a2] < 2) la_set(set, base + la_wt(a1) + la_wt(a2));
        }
    }
}

/* The predecessors of the vector d (after step s, r ends to come) in the
 * sets prev, which hold the ends to come clo..chi before s (words apart;
 * closed mode 0..0, open 0..2, fixed ends one value).  A vertex leaving
 * at s keeps demand 0, or 1 as a path end (open mode: one more end to
 * come before s). */
static void la_pred(const step *s, const uint8_t *d, unsigned r, unsigned clo, unsigned chi, uint64_t *prev,
                    size_t words)
{
    unsigned np = s->npost, nw = s->npre, dt = 0, nl = 0;
    bool tin = false;
    uint8_t b[MAXW], lv[MAXW];
    size_t base = 0;
    memset(b, 0, nw);
    for (unsigned j = 0; j < np; j++) {
        if (s->post[j] == nw) {
            dt = d[j];
            tin = true;
        } else {
            b[s->post[j]] = d[j];
            base += d[j] * la_wt(s->post[j]);
        }
    }
    if (chi > 0)
        for (unsigned w = 0; w < nw; w++)
            if (s->leave[w] && s->end_ok[w]) lv[nl++] = (uint8_t)w;
    for (unsigned m = 0; m < 1u << nl; m++) {
        unsigned c = r;
        for (unsigned i = 0; i < nl; i++) c += m >> i & 1u;
        if (c > chi) continue;
        size_t bm = base;
        for (unsigned i = 0; i < nl; i++) {
            b[lv[i]] = (uint8_t)(m >> i & 1u);
            bm += b[lv[i]] * la_wt(lv[i]);
        }
        if (tin) {
            if (c >= clo) la_back(s, b, bm, 2 - dt, prev + (c - clo) * words);
        } else {
            if (c >= clo) la_back(s, b, bm, 2, prev + (c - clo) * words);
            if (c < chi && c + 1 >= clo && s->end_ok[nw]) la_back(s, b, bm, 1, prev + (c + 1 - clo) * words);
        }
    }
}

/* The ends to come of the sets a step keeps after it (lo..hi). */
static void la_range(const plan *p, const step *s, unsigned *lo, unsigned *hi)
{
    *lo = s->fix_r >= 0 ? (unsigned)s->fix_r : 0u;
    *hi = s->fix_r >= 0 ? (unsigned)s->fix_r : p->open ? 2u : 0u;
}

/* One backward step of the lookahead; true when the progress callback
 * asked to cancel (the build of a large board's tables takes seconds, so it
 * reports progress, with done = the count's start, on the calling thread). */
static bool la_step(const plan *p, const step *s, const uint64_t *cur, size_t cwords, uint64_t *prev,
                    size_t pwords, kti_progress *pr, uint64_t done, uint64_t total)
{
    unsigned np = s->npost;
    uint8_t d[MAXS];
    size_t nhi = np <= LA_LO ? 1u : pow3[np - LA_LO];
    unsigned nlo = np <= LA_LO ? pow3[np] : pow3[LA_LO];
    unsigned rlo, rhi, clo, chi;
    la_range(p, s, &rlo, &rhi);
    la_range(p, s - 1, &clo, &chi);
    for (unsigned r = rlo; r <= rhi; r++) {
        const uint64_t *set = cur + (r - rlo) * cwords;
        uint8_t hd[MAXS];
        memset(hd, 0, sizeof hd);
        for (size_t hi = 0; hi < nhi; hi++) {
            if (hi) {                   /* odometer over the high digits */
                for (unsigned k = LA_LO; k < np; k++) {
                    if (++hd[k] < 3) break;
                    hd[k] = 0;
                }
            }
            if ((hi & 15u) == 0 && pr->fn != NULL && kti_progress_tick(pr, done, total)) return true;
            if ((set[hi * 2] | set[hi * 2 + 1]) == 0) continue;
            for (unsigned lo = 0; lo < nlo; lo++) {
                if (!(set[hi * 2 + (lo >> 6)] >> (lo & 63) & 1u)) continue;
                unsigned x = lo;
                for (unsigned k = 0; k < LA_LO && k < np; k++, x /= 3) d[k] = (uint8_t)(x % 3);
                for (unsigned k = LA_LO; k < np; k++) d[k] = hd[k];
                la_pred(s, d, r, clo, chi, prev, pwords);
            }
        }
    }
    return false;
}

/*
 * The same sets computed on demand, for small frontiers: whether the
 * demand vector d after step t (r ends to come) can be completed, by
 * trying vertex t+1's choices and asking the same of the vector after it;
 * every answer is kept (2 bits: unknown, yes, no), so the work is
 * proportional to the vectors the count meets, not to all 3^f of them
 * (4x10 open: 40 steps of 3^9 vectors, 4,217 states at most).  Threads
 * may answer the same question twice, never differently.
 */

/* The memo's answer for index idx: 0 unknown, 1 yes, 2 no. */
static inline unsigned la_memo_get(const step *cs, size_t idx)
{
    return (unsigned)(__atomic_load_n(&cs->memo[idx >> 5], __ATOMIC_RELAXED) >> (2 * (idx & 31)) & 3u);
}

/* The colour balance a bipartite graph imposes: every edge still to come
 * joins the two colours, so the degrees still owed on each side (the
 * frontier's demands, two per unprocessed vertex) must differ exactly by
 * the ends to come on one side less those on the other: the difference
 * lies in -r..r with the parity of r.  One pass over the slots settles
 * most vectors the recursion below would search in vain. */
static inline bool la_balanced(const plan *p, const step *cs, const uint8_t *d, unsigned r)
{
    if (!p->bip) return true;
    int32_t x = cs->bal;
    for (unsigned j = 0; j < cs->npost; j++) x += cs->col[j] * d[j];
    if (x < 0) x = -x;
    return x <= (int32_t)r && ((unsigned)x & 1u) == (r & 1u);
}

/* la_query when the memo does not know yet; idx is the vector's index.
 * d holds MAXW bytes (those past the frontier unused): copied whole, a
 * fixed-size copy is two moves, a copy of nw bytes a call. */
static bool la_solve(const plan *p, uint32_t t, const uint8_t *d, unsigned r, size_t idx)
{
    const step *cs = &p->st[t], *s = &p->st[t + 1];
    unsigned np = cs->npost, nw = s->npre, must = 0;
    bool yes = la_balanced(p, cs, d, r);
    for (unsigned j = 0; j < np && yes; j++)
        /* a vertex short of neighbours must be a path end: no search then */
        if (d[j] > cs->fut[j] && (d[j] > cs->fut[j] + 1u || !cs->end_ok[cs->post[j]] || ++must > r))
            yes = false;
    if (!yes) {
        __atomic_fetch_or(&cs->memo[idx >> 5], (uint64_t)2u << (2 * (idx & 31)), __ATOMIC_RELAXED);
        return false;
    }
    yes = false;
    unsigned nb = s->nback, nq = s->npost;
    size_t rw = s->last ? 0 : pow3[nq];
    /* vertex t+1 takes no edge back (i = j = -1), one (j = i) or two */
    for (int i = -1; i < (int)nb && !yes; i++) {
        for (int j = i; j < (int)nb && !yes; j++) {
            if (i < 0 && j >= 0) break;
            uint8_t b[MAXW], dn[MAXW];
            memcpy(b, d, sizeof b);
            unsigned k = 0, rr = r;
            if (i >= 0) {
                if (b[s->back_slot[i]]-- == 0) continue;
                k++;
                if (j != i) {
                    if (b[s->back_slot[j]]-- == 0) continue;
                    k++;
                }
            }
            b[nw] = (uint8_t)(2 - k);
            bool ok = true;
            for (unsigned l = 0; l < s->nleave && ok; l++) {
                unsigned v = s->leaves[l];
                if (b[v] == 0) continue;
                if (b[v] == 1 && s->end_ok[v] && rr > 0) rr--;
                else ok = false;
            }
            if (!ok) continue;
            if (s->last) {
                yes = rr == 0;
                continue;
            }
            size_t nidx = rr * rw;
            for (unsigned q = 0; q < nq; q++) {
                dn[q] = b[s->post[q]];
                nidx += dn[q] * pow3[q];
            }
            unsigned known = la_memo_get(s, nidx);
            yes = known ? known == 1 : la_solve(p, t + 1, dn, rr, nidx);
        }
    }
    __atomic_fetch_or(&cs->memo[idx >> 5], (uint64_t)(yes ? 1u : 2u) << (2 * (idx & 31)), __ATOMIC_RELAXED);
    return yes;
}

/* The memo of la_solve when it is small (every step's frontier at most
 * LA_MEMO_SLOTS, the recursion at most LA_MEMO_DEPTH steps deep, the
 * table within budget bytes): true if it was set up. */
#define LA_MEMO_SLOTS 13u
#define LA_MEMO_DEPTH 512u
static bool la_memo(plan *p, const kt_allocator *al, size_t budget)
{
    unsigned nr = p->open ? 3u : 1u;
    size_t words = 0;
    if (p->n > LA_MEMO_DEPTH) return false;
    for (uint32_t t = 0; t + 1 < p->n; t++) {
        if (p->st[t].npost > LA_MEMO_SLOTS) return false;
        words += ((size_t)pow3[p->st[t].npost] * nr + 31) / 32;
    }
    if ((words + 1) * sizeof(uint64_t) > budget) return false;
    uint64_t *mem = kti_calloc(al, words + 1, sizeof *mem);
    if (mem == NULL) return false;
    p->feas_mem = mem;
    for (uint32_t t = 0; t + 1 < p->n; t++) {
        p->st[t].memo = mem;
        mem += ((size_t)pow3[p->st[t].npost] * nr + 31) / 32;
    }
    return true;
}

/* Builds the feas bitsets of the last steps, newest first, while they fit
 * in budget bytes; earlier steps go unfiltered.  KT_OK (also when memory
 * runs out: the lookahead is an optimisation only) or KT_ECANCELED. */
static kt_status la_build(plan *p, const kt_allocator *al, size_t budget, kti_progress *pr,
                          uint64_t done, uint64_t total)
{
    if (p->n < 2 || la_memo(p, al, budget)) return KT_OK;
    unsigned nr = p->open && !p->fixed ? 3u : 1u;   /* sets per step */
    size_t words = 0;
    uint32_t first = p->n;
    while (first > 1) {
        size_t w = la_words(p->st[first - 2].npost) * nr;
        if ((words + w) * sizeof(uint64_t) > budget) break;
        words += w;
        first--;
    }
    /* steps first-1 .. n-2 get a bitset (the last step needs none) */
    if (first >= p->n) return KT_OK;
    /* Zeroed step by step below, not at once: a 1 GiB memset would delay
     * the first progress report by most of a second. */
    uint64_t *mem = kti_alloc(al, (words + 2 * nr) * sizeof *mem);
    if (mem == NULL) return KT_OK;     /* an optimisation only: go without */
    kti_advise_huge(mem, (words + 2 * nr) * sizeof *mem);
    uint64_t *last = mem + words;       /* R_{n-1}: {0} with no end to come */
    memset(last, 0, 2 * nr * sizeof *mem);
    last[0] = 1u;
    const uint64_t *cur = last;
    size_t off = 0, cw = 2;
    for (uint32_t t = p->n - 1; t >= first; t--) {
        uint64_t *prev = mem + off;
        size_t pw = la_words(p->st[t - 1].npost), w = pw * nr;
        /* a step's bitset reaches hundreds of MB: zeroed in 1M-word
         * slices (8 MB, a few ms each), with a progress check between */
        for (size_t z = 0; z < w; z += (size_t)1 << 20) {
            size_t part = w - z < ((size_t)1 << 20) ? w - z : (size_t)1 << 20;
            memset(prev + z, 0, part * sizeof *prev);
            if (pr->fn != NULL && kti_progress_tick(pr, done, total)) {
                p->feas_mem = mem;
                return KT_ECANCELED;
            }
        }
        off += w;
        p->feas_mem = mem; /* plan_free releases it, whatever happens next */
        if (la_step(p, &p->st[t], cur, cw, prev, pw, pr, done, total)) return KT_ECANCELED;
        p->st[t - 1].feas = prev;
        cur = prev;
        cw = pw;
    }
    return KT_OK;
}

static void plan_free(plan *p, const kt_allocator *al)
{
    kti_free(al, p->feas_mem);
    kti_free(al, p->st);
    p->feas_mem = NULL;
    p->st = NULL;
}

/* ------------------------------------------------------------ encoding */

/* Weight of slot j in a packed key (see the top of the file). */
#define PK_WT(j) ((uint64_t)((j) % 3 == 0 ? 1u : (j) % 3 == 1 ? 12u : 144u) << (11 * ((j) / 3)))
static const uint64_t pk_wt[MAXS] = {PK_WT(0),  PK_WT(1),  PK_WT(2),  PK_WT(3),  PK_WT(4),  PK_WT(5),
                                     PK_WT(6),  PK_WT(7),  PK_WT(8),  PK_WT(9),  PK_WT(10), PK_WT(11),
                                     PK_WT(12), PK_WT(13), PK_WT(14), PK_WT(15), PK_WT(16)};

/* The digits of a packed key's first n slots, in the unpacked digit
 * values (DIG_TERM for PK_TERM). */
static inline void pk_unpack(uint64_t key, unsigned n, uint8_t *dig)
{
    unsigned grp = 0;
    for (unsigned s = 0; s < n; s++) {
        if (s % 3 == 0) grp = (unsigned)(key >> (11 * (s / 3))) & 2047u;
        unsigned v = grp % 12u;
        grp /= 12u;
        dig[s] = (uint8_t)(v == PK_TERM ? DIG_TERM : v);
    }
}

/* The digit of slot j as it goes into a key (packed or not). */
static inline uint64_t key_part(unsigned dig, unsigned j, bool packed)
{
    if (packed) return pk_wt[j] * (dig == DIG_TERM ? PK_TERM : dig);
    return (uint64_t)dig << (4 * j);
}

/* Whether a packed key is exactly the packing of its first n digits (no
 * slot past n, no group of 11 bits past 1727): checkpoints only. */
static bool pk_canonical(uint64_t key, unsigned n, uint8_t *dig)
{
    uint64_t back = 0;
    pk_unpack(key, n, dig);
    for (unsigned s = 0; s < n; s++) back += key_part(dig[s], s, true);
    return back == key;
}

static inline void decode(uint64_t key, unsigned n, bool impl, unsigned q, bool packed, dstate *d)
{
    int opener[MAXS];
    int nop = 0;
    unsigned base = impl ? 1u : 0u;
    uint8_t pd[MAXS];
    if (packed) pk_unpack(key, n, pd);   /* never impl: open counts only */
    if (impl) d->deg[0] = 2;
    for (unsigned s = base; s < n; s++) {
        unsigned dig = packed ? pd[s] : (unsigned)(key >> (4 * (s - base))) & 15u;
        if (dig == 0) {
            d->deg[s] = 2;
            d->mate[s] = (int8_t)s; /* unused, but encode_q1 reads it branch-free */
        } else if (dig == 1) {
            d->deg[s] = 0;
            d->mate[s] = (int8_t)s;
            d->volt[s] = 0;
        } else if (dig == DIG_TERM) {
            d->deg[s] = 1;
            d->mate[s] = -1;
            d->volt[s] = 0;
        } else if (dig == DIG_IMPL || dig == DIG_IMPL1) {
            unsigned v = dig == DIG_IMPL ? 0u : 1u;
            d->deg[s] = 1;
            d->mate[s] = 0;
            d->volt[s] = (uint8_t)v;
            d->deg[0] = 1;
            d->mate[0] = (int8_t)s;
            d->volt[0] = (uint8_t)v;
        } else if (dig < 2 + q) {
            d->deg[s] = 1;
            d->volt[s] = (uint8_t)(dig - 2);
            opener[nop++] = (int)s;
        } else {
            int o = opener[dig - 2 - q];
            d->deg[s] = 1;
            d->mate[s] = (int8_t)o;
            d->mate[o] = (int8_t)s;
            d->volt[s] = (uint8_t)((q - d->volt[o]) % q);
        }
    }
}

static inline uint64_t encode(const dstate *d, const step *s, unsigned q, bool packed)
{
    int8_t pidx[MAXW];
    uint8_t opk[MAXS];
    unsigned nop = 0;
    uint64_t key = 0;
    for (unsigned j = 0; j < s->npost; j++) pidx[s->post[j]] = (int8_t)j;
    unsigned base = s->impl_post ? 1u : 0u;
    for (unsigned j = base; j < s->npost; j++) {
        unsigned w = s->post[j], dig;
        if (d->deg[w] == 2) {
            dig = 0;
        } else if (d->deg[w] == 0) {
            dig = 1;
        } else if (d->mate[w] < 0) {
            dig = DIG_TERM;
        } else {
            int pm = pidx[d->mate[w]];
            if (base && pm == 0) {
                dig = d->volt[w] ? DIG_IMPL1 : DIG_IMPL;
            } else if (pm > (int)j) {
                dig = 2u + d->volt[w];
                opk[j] = (uint8_t)nop++;
            } else {
                dig = 2u + q + opk[pm];
            }
        }
        key += key_part(dig, j - base, packed);
    }
    return key;
}

/*
 * encode() for q = 1 without an implicit slot, branch-free (the kind of
 * each slot is data-dependent, and the branches of encode() were most of a
 * small board's time): an opener is a path end whose mate comes later, a
 * closer's digit counts the openers before its mate.
 */
static inline uint64_t encode_q1(const dstate *e, const step *s, bool packed)
{
    static const uint8_t base_dig[5] = {0u, 1u, DIG_TERM, 2u, 3u};
    uint64_t key = 0;
    uint8_t opk[MAXS];        /* openers before each slot */
    unsigned nop = 0;
    for (unsigned j = 0; j < s->npost; j++) {
        unsigned w = s->post[j];
        int dg = e->deg[w], m = e->mate[w];
        unsigned one = dg == 1, term = m < 0;
        /* only a path end's mate names a slot (others may hold a stale
         * value): index with 0 otherwise, whose result goes unused */
        unsigned pm = s->pidx[one && !term ? (unsigned)m : 0u], later = pm > j;
        opk[j] = (uint8_t)nop;
        nop += one & !term & later;
        unsigned k = opk[pm < j ? pm : j];
        unsigned type = (dg == 0) + one * (2u + !term * (1u + !later));
        unsigned dig = base_dig[type] + (type == 4u) * k;
        key += key_part(dig, j, packed);
    }
    return key;
}

/* Whether the memo's step s accepts the successor e, whose demand vector
 * has the index idx (without the ends-to-come term) and whose path ends
 * gone number gone: known answers at once, else la_solve. */
static inline bool viable_memo(const plan *p, const step *s, const dstate *e, size_t idx, unsigned gone,
                               bool open)
{
    if (gone > 2) return false;  /* a third path end has left */
    unsigned r = open ? 2 - gone : 0;
    idx += (size_t)r * pow3[s->npost];
    unsigned known = la_memo_get(s, idx);
    if (known) return known == 1;
    uint8_t dem[MAXW];
    for (unsigned jj = 0; jj < s->npost; jj++) dem[jj] = (uint8_t)(2 - e->deg[s->post[jj]]);
    return la_solve(p, (uint32_t)(s - p->st), dem, r, idx);
}

/* Adds the edge a-b (voltage v from a to b).  Returns 0 if impossible,
 * 1 if done, 2 if it closed a cycle or completed a path. */
static inline int add_edge(dstate *e, unsigned a, unsigned b, unsigned v, unsigned q, bool open)
{
    if (e->deg[a] >= 2 || e->deg[b] >= 2) return 0;
    int ea = e->deg[a] == 0 ? (int)a : e->mate[a];
    int eb = e->deg[b] == 0 ? (int)b : e->mate[b];
    e->deg[a]++;
    e->deg[b]++;
    if (ea == (int)b) {
        if (open) return 0;
        unsigned tot = (e->volt[a] + q - v) % q;
        if (q == 2 && tot != 1) return 0;
        if (q == 4 && (tot & 1u) == 0) return 0;
        return 2;
    }
    if (ea < 0 && eb < 0) return 2;
    unsigned V = ((ea >= 0 ? e->volt[ea] : 0u) + v + (eb >= 0 ? e->volt[b] : 0u)) % q;
    if (ea >= 0) {
        e->mate[ea] = (int8_t)eb;
        e->volt[ea] = (uint8_t)V;
    }
    if (eb >= 0) {
        e->mate[eb] = (int8_t)ea;
        e->volt[eb] = (uint8_t)((q - V) % q);
    }
    return 1;
}

/* Whether the successor e (after its leaving vertices are settled) may
 * still be completed: by the lookahead where the step has one, else by
 * each vertex's remaining neighbours and (open mode) the number of ends. */
static inline bool viable(const plan *p, const step *s, const dstate *e, bool open)
{
    unsigned np = s->npost, nt = 0;
    if (s->memo != NULL) {
        uint8_t dem[MAXW];
        unsigned gone = 0;     /* open mode: path ends already left (terminal digits) */
        size_t idx = 0;
        for (unsigned jj = 0; jj < np; jj++) {
            unsigned w = s->post[jj];
            dem[jj] = (uint8_t)(2 - e->deg[w]);
            idx += dem[jj] * pow3[jj];
            gone += e->deg[w] == 1 && e->mate[w] < 0;
        }
        if (gone > 2) return false;  /* a third path end has left */
        unsigned r = open ? 2 - gone : 0;
        idx += (size_t)r * pow3[np];
        unsigned known = la_memo_get(s, idx);
        return known ? known == 1 : la_solve(p, (uint32_t)(s - p->st), dem, r, idx);
    }
    /* Each vertex's remaining neighbours, and (open mode) the ends: cheap,
     * in cache, and it spares most dead successors the dense lookahead's
     * lookup in a table of megabytes (7x8 closed: 44 s to 34 s). */
    unsigned gone = 0;         /* path ends already left (terminal digits) */
    for (unsigned jj = 0; jj < np; jj++) {
        unsigned w = s->post[jj];
        unsigned need = (open && s->end_ok[w]) ? 1u : 2u;
        unsigned have = (unsigned)e->deg[w] + s->fut[jj];
        if (have < need) return false;
        if (open) {
            if (e->deg[w] == 1 && e->mate[w] < 0) nt++, gone++;
            else if (have == 1) nt++;
        }
    }
    if (nt > 2) return false;
    /* fixed ends: an end that left with degree 2 leaves one path end too few */
    if (s->fix_r >= 0 && gone + (unsigned)s->fix_r != 2) return false;
    if (s->feas != NULL) {
        size_t lo = 0, hi = 0;
        for (unsigned jj = 0; jj < np; jj++) {
            unsigned w = s->post[jj], dem = 2u - (unsigned)e->deg[w];
            if (jj < LA_LO) lo += dem * pow3[jj];
            else hi += dem * pow3[jj - LA_LO];
        }
        size_t bit = hi << 7 | lo;
        const uint64_t *set = s->feas + (open && s->fix_r < 0 ? (2 - gone) * la_words(np) : 0);
        return set[bit >> 6] >> (bit & 63) & 1u;
    }
    return true;
}

/* Successors of one state: keys to out[], returns their number; *done
 * counts completed cycles (paths).  Inlined into expand_q1 and expand_any
 * below, so that with q = 1 the voltage arithmetic folds away. */
static inline __attribute__((always_inline)) unsigned expand_gen(const plan *p, const step *s, uint64_t key,
                                                                 uint64_t *out, unsigned *done,
                                                                 unsigned q, bool open, bool packed)
{
    dstate d;
    decode(key, s->npre, s->impl_pre, q, packed, &d);
    unsigned a = s->npre, nw = s->npre + 1u;
    d.deg[a] = 0;
    d.mate[a] = (int8_t)a;
    d.volt[a] = 0;
    unsigned nout = 0, nb = s->nback;
    /* With the memo (q = 1): the index of the parent's demand vector and
     * its path ends gone; a successor's follow from its new edges (each
     * lowers two demands) and the ends that leave, so that only successors
     * the lookahead accepts are encoded. */
    bool fast = q == 1 && s->memo != NULL && !s->impl_post;
    size_t base_ix = 0;
    unsigned base_gone = 0;
    if (fast)
        for (unsigned w = 0; w < nw; w++) {
            base_ix += (size_t)(2 - d.deg[w]) * s->wt3[w];
            base_gone += d.deg[w] == 1 && d.mate[w] < 0;  /* add_edge moves these, never drops one */
        }
    for (int i = -1; i < (int)nb; i++) {
        for (int j = i; j < (int)nb; j++) {
            if (i < 0 && j >= 0) break;
            dstate e = d;
            int flag = 0, r;
            size_t ix = base_ix;
            if (i >= 0) {
                r = add_edge(&e, a, s->back_slot[i], s->back_volt[i], q, open);
                if (r == 0) continue;
                if (r == 2) flag = 1;
                ix -= s->wt3[a] + s->wt3[s->back_slot[i]];
                if (j != i) {
                    if (flag) continue;
                    r = add_edge(&e, a, s->back_slot[j], s->back_volt[j], q, open);
                    if (r == 0) continue;
                    if (r == 2) flag = 1;
                    ix -= s->wt3[a] + s->wt3[s->back_slot[j]];
                }
            }
            if (s->last) {
                bool ok = true;
                if (!open || flag) {
                    if (!flag) continue;
                    for (unsigned w = 0; w < nw && ok; w++) ok = e.deg[w] == 2;
                } else {
                    unsigned np = 0, nt = 0;
                    for (unsigned w = 0; w < nw && ok; w++) {
                        if (e.deg[w] == 0) ok = false;
                        else if (e.deg[w] == 1) {
                            if (!s->end_ok[w]) ok = false;
                            else if (e.mate[w] < 0) nt++;
                            else np++;
                        }
                    }
                    ok = ok && np / 2 + nt == 1;
                }
                if (ok) (*done)++;
                continue;
            }
            if (flag) continue;
            bool ok = true;
            unsigned gone = base_gone;
            for (unsigned k = 0; k < s->nleave && ok; k++) {
                unsigned w = s->leaves[k];
                if (e.deg[w] == 2) continue;
                if (e.deg[w] == 0 || !open || !s->end_ok[w] || e.mate[w] < 0) {
                    ok = false;
                } else {
                    e.mate[e.mate[w]] = -1;
                    e.deg[w] = 2;
                    gone++;
                }
            }
            if (!ok) continue;
            if (fast) {
                if (viable_memo(p, s, &e, ix, gone, open)) out[nout++] = encode_q1(&e, s, packed);
                continue;
            }
            if (!viable(p, s, &e, open)) continue;
            out[nout++] = encode(&e, s, q, packed);
        }
    }
    return nout;
}

typedef unsigned (*expand_fn)(const plan *p, const step *s, uint64_t key, uint64_t *out,
                              unsigned *done);

static unsigned expand_q1(const plan *p, const step *s, uint64_t key, uint64_t *out, unsigned *done)
{
    if (!p->open) return expand_gen(p, s, key, out, done, 1u, false, false);
    return expand_gen(p, s, key, out, done, 1u, true, false);
}

/* Open counts of 8-wide boards (packed keys). */
static unsigned expand_packed(const plan *p, const step *s, uint64_t key, uint64_t *out, unsigned *done)
{
    return expand_gen(p, s, key, out, done, 1u, true, true);
}

static unsigned expand_any(const plan *p, const step *s, uint64_t key, uint64_t *out, unsigned *done)
{
    return expand_gen(p, s, key, out, done, p->q, p->open, false);
}

/* ---------------------------------------------------------- hash tables */

/* Key and count side by side: one cache line per probe. */
typedef struct entry {
    uint64_t key, cnt;
} entry;

typedef struct table {
    entry *e;
    size_t cap;
    size_t used;
} table;

typedef struct side {
    pthread_mutex_t mu;
    uint64_t *key;
    uint64_t *hi;
    size_t cap, n;
} side;

static inline size_t slot_of(uint64_t key, size_t cap)
{
    return (size_t)(((kti_u128)kti_mix64(key) * cap) >> 64);
}

static kt_status table_init(table *t, size_t cap, const kt_allocator *al)
{
    t->cap = cap;
    t->used = 0;
    if (cap > SIZE_MAX / sizeof *t->e) return KT_ENOMEM;
    t->e = kti_alloc(al, cap * sizeof *t->e);
    if (t->e == NULL) return KT_ENOMEM;
    kti_advise_huge(t->e, cap * sizeof *t->e);
    for (size_t i = 0; i < cap; i++) {
        t->e[i].key = EMPTY;
        t->e[i].cnt = 0;
    }
    return KT_OK;
}

static void table_free(table *t, const kt_allocator *al)
{
    kti_free(al, t->e);
    t->e = NULL;
    t->cap = t->used = 0;
}

/* Single-threaded insert of a fresh key (rehash, load). */
static size_t table_put(table *t, uint64_t key)
{
    size_t i = slot_of(key, t->cap);
    while (t->e[i].key != EMPTY && t->e[i].key != key)
        if (++i == t->cap) i = 0;
    if (t->e[i].key == EMPTY) {
        t->e[i].key = key;
        t->used++;
    }
    return i;
}

static kt_status side_init(side *s)
{
    memset(s, 0, sizeof *s);
    /* The only failure is a lack of resources (EAGAIN, ENOMEM). */
    if (pthread_mutex_init(&s->mu, NULL) != 0) return KT_ENOMEM;
    return KT_OK;
}

static void side_clear(side *s, const kt_allocator *al)
{
    kti_free(al, s->key);
    kti_free(al, s->hi);
    s->key = s->hi = NULL;
    s->cap = s->n = 0;
}

static uint64_t side_get(const side *s, uint64_t key)
{
    if (s->n == 0) return 0;
    size_t i = (size_t)kti_mix64(key) & (s->cap - 1);
    while (s->key[i] != EMPTY) {
        if (s->key[i] == key) return s->hi[i];
        i = (i + 1) & (s->cap - 1);
    }
    return 0;
}

/* Forgets the high word of key (a state dropped by the shard split). */
static void side_zero(side *s, uint64_t key)
{
    if (s->n == 0) return;
    size_t i = (size_t)kti_mix64(key) & (s->cap - 1);
    while (s->key[i] != EMPTY) {
        if (s->key[i] == key) s->hi[i] = 0;
        i = (i + 1) & (s->cap - 1);
    }
}

/* High words that are not zero (the ones a checkpoint holds). */
static uint64_t side_live(const side *s)
{
    uint64_t n = 0;
    for (size_t i = 0; i < s->cap; i++) n += s->key[i] != EMPTY && s->hi[i] != 0;
    return n;
}

/* Adds hi to the high word of key; caller holds the lock (or is alone). */
static bool side_add_locked(side *s, uint64_t key, uint64_t hi, const kt_allocator *al, bool *overflow)
{
    if (2 * (s->n + 1) > s->cap) {
        size_t ncap = s->cap ? 2 * s->cap : 64;
        uint64_t *nk = kti_alloc(al, ncap * sizeof *nk), *nh = kti_calloc(al, ncap, sizeof *nh);
        if (nk == NULL || nh == NULL) {
            kti_free(al, nk);
            kti_free(al, nh);
            return false;
        }
        memset(nk, 0xFF, ncap * sizeof *nk);
        for (size_t i = 0; i < s->cap; i++) {
            if (s->key[i] == EMPTY) continue;
            size_t j = (size_t)kti_mix64(s->key[i]) & (ncap - 1);
            while (nk[j] != EMPTY) j = (j + 1) & (ncap - 1);
            nk[j] = s->key[i];
            nh[j] = s->hi[i];
        }
        kti_free(al, s->key);
        kti_free(al, s->hi);
        s->key = nk;
        s->hi = nh;
        s->cap = ncap;
    }
    size_t i = (size_t)kti_mix64(key) & (s->cap - 1);
    while (s->key[i] != EMPTY && s->key[i] != key) i = (i + 1) & (s->cap - 1);
    if (s->key[i] == EMPTY) {
        s->key[i] = key;
        s->n++;
    }
    if (s->hi[i] + hi < hi) *overflow = true;
    s->hi[i] += hi;
    return true;
}

/* ------------------------------------------------------------- workers */

typedef struct run {
    const plan *p;
    const step *s;
    const kt_allocator *al;
    table *src, *dst;
    side *src_side, *dst_side;
    size_t chunk, nchunks;
    size_t next;              /* atomic: next chunk */
    size_t used;              /* atomic: keys in dst */
    size_t limit;             /* soft load limit of dst */
    int stop;                 /* atomic: cancel or error */
    bool mt;
    kt_status err;            /* guarded by dst_side->mu */
    bool overflow;
    kti_progress *prog;       /* main thread only */
    uint64_t pbase, ptotal;
} run;

/* One share of kti_parallel: the workers pull chunks from run::next, so
 * the layer and the sum of their done counts do not depend on how many
 * shares ran on their own thread. */
typedef struct worker {
    run *r;
    bool main;                /* share 0: on the calling thread, reports progress */
    kti_u128 done;            /* tours completed by this share's states */
} worker;

static void run_fail(run *r, kt_status st)
{
    pthread_mutex_lock(&r->dst_side->mu);
    if (r->err == KT_OK) r->err = st;
    pthread_mutex_unlock(&r->dst_side->mu);
    __atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
}

static inline void insert(run *r, uint64_t key, size_t i, uint64_t lo, uint64_t hi, size_t *fresh)
{
    table *t = r->dst;
    if (r->mt) {
        for (;;) {
            uint64_t k = __atomic_load_n(&t->e[i].key, __ATOMIC_RELAXED);
            if (k == key) break;
            if (k == EMPTY) {
                uint64_t exp = EMPTY;
                if (__atomic_compare_exchange_n(&t->e[i].key, &exp, key, false, __ATOMIC_RELAXED,
                                                __ATOMIC_RELAXED)) {
                    (*fresh)++;
                    break;
                }
                if (exp == key) break;
            }
            if (++i == t->cap) i = 0;
        }
        uint64_t old = __atomic_fetch_add(&t->e[i].cnt, lo, __ATOMIC_RELAXED);
        hi += old + lo < old;
        if (hi != 0) {
            bool ok;
            pthread_mutex_lock(&r->dst_side->mu);
            ok = side_add_locked(r->dst_side, key, hi, r->al, &r->overflow);
            pthread_mutex_unlock(&r->dst_side->mu);
            if (!ok) run_fail(r, KT_ENOMEM);
        }
    } else {
        for (;;) {
            uint64_t k = t->e[i].key;
            if (k == key) break;
            if (k == EMPTY) {
                t->e[i].key = key;
                (*fresh)++;
                break;
            }
            if (++i == t->cap) i = 0;
        }
        uint64_t old = t->e[i].cnt;
        t->e[i].cnt = old + lo;
        hi += old + lo < old;
        if (hi != 0 && !side_add_locked(r->dst_side, key, hi, r->al, &r->overflow)) run_fail(r, KT_ENOMEM);
    }
}

/* Successors waiting to be inserted: their slots are prefetched first, so
 * the cache misses of a batch overlap. */
#define BATCH 64

typedef struct pending {
    uint64_t key, lo, hi;
    size_t slot;
} pending;

static void flush(run *r, pending *pb, unsigned n, size_t *fresh)
{
    for (unsigned k = 0; k < n; k++) insert(r, pb[k].key, pb[k].slot, pb[k].lo, pb[k].hi, fresh);
}

static void work(void *arg)
{
    worker *wk = arg;
    run *r = wk->r;
    uint64_t out[MAXSUCC];
    pending pb[BATCH + MAXSUCC];
    bool has_side = r->src_side->n != 0;
    const table *dt = r->dst;
    expand_fn ex = r->p->packed ? expand_packed : r->p->q == 1 ? expand_q1 : expand_any;
    for (;;) {
        if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) break;
        if (__atomic_load_n(&r->used, __ATOMIC_RELAXED) > r->limit) break;
        size_t c = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
        if (c >= r->nchunks) break;
        size_t lo = c * r->chunk, hi = lo + r->chunk;
        if (hi > r->src->cap) hi = r->src->cap;
        size_t fresh = 0;
        unsigned np = 0;
        for (size_t i = lo; i < hi; i++) {
            uint64_t key = r->src->e[i].key;
            if (key == EMPTY) continue;
            uint64_t clo = r->src->e[i].cnt, chi = has_side ? side_get(r->src_side, key) : 0;
            unsigned ndone = 0;
            unsigned n = ex(r->p, r->s, key, out, &ndone);
            if (ndone) wk->done += ((kti_u128)chi << 64 | clo) * ndone;
            for (unsigned k = 0; k < n; k++) {
                size_t sl = slot_of(out[k], dt->cap);
                __builtin_prefetch(&dt->e[sl], 1);
                pb[np].key = out[k];
                pb[np].lo = clo;
                pb[np].hi = chi;
                pb[np++].slot = sl;
            }
            if (np >= BATCH) {
                flush(r, pb, np, &fresh);
                np = 0;
            }
        }
        flush(r, pb, np, &fresh);
        if (fresh) __atomic_fetch_add(&r->used, fresh, __ATOMIC_RELAXED);
        if (wk->main && r->prog->fn != NULL) {
            uint64_t d = r->pbase + (uint64_t)((double)(c + 1) / (double)r->nchunks * KTI_FRONTIER_UNITS);
            if (kti_progress_tick(r->prog, d, r->ptotal)) run_fail(r, KT_ECANCELED);
        }
    }
}

static kt_status table_grow(table *t, size_t ncap, const kt_allocator *al)
{
    table n;
    kt_status st = table_init(&n, ncap, al);
    if (st != KT_OK) return st;
    for (size_t i = 0; i < t->cap; i++) {
        if (t->e[i].key == EMPTY) continue;
        size_t j = table_put(&n, t->e[i].key);
        n.e[j].cnt = t->e[i].cnt;
    }
    table_free(t, al);
    *t = n;
    return KT_OK;
}

/* ---------------------------------------------------------- checkpoint */

/*
 * Format (version 2), every field a little-endian 64-bit word:
 *   header   CK_HWORDS words (see ck_field), beginning with the magic;
 *   states   nstates pairs (key, low word of the count);
 *   side     nside pairs (key, high word of the count);
 *   checksum FNV-1a over the preceding words, a word at a time.
 * The reader trusts nothing: the file's length must be exactly what the
 * header announces (checked before anything is allocated), the checksum
 * must match, the header must describe this very count (else
 * KT_EMISMATCH), and every key must be a canonical state of the layer it
 * claims to be (else KT_EPARSE); so a damaged file gives an error, never
 * a crash or a wrong count.  It is written to a temporary file, flushed
 * to disk and renamed over the old one.
 */
#define CK_MAGIC 0x32544E554F43544Bull   /* "KTCOUNT2" */
#define CK_VERSION 2u
#define CK_FNV_BASIS 0xCBF29CE484222325ull
#define CK_FNV_PRIME 0x00000100000001B3ull

enum ck_field {
    CK_MAGIC_W, CK_VERSION_W, CK_TAG, CK_NVERTS, CK_Q, CK_MODE, CK_KIND, CK_SHARD_I, CK_SHARD_N,
    CK_SPLIT, CK_STEPS, CK_NSTATES, CK_NSIDE, CK_TOTAL_LO, CK_TOTAL_HI, CK_LAST_N, CK_HWORDS
};

/* What the file must belong to. */
typedef struct ck_want {
    uint64_t tag;
    uint32_t kind, si, sn;
    bool exists_only;
} ck_want;

typedef struct ckio {
    FILE *f;
    uint64_t hash;
    size_t n;                 /* words buffered (writer) */
    uint8_t buf[4096];
} ckio;

static uint64_t ck_get(const uint8_t *b)
{
    uint64_t w = 0;
    for (int i = 7; i >= 0; i--) w = w << 8 | b[i];
    return w;
}

static bool ck_flush(ckio *io)
{
    bool ok = io->n == 0 || fwrite(io->buf, 8, io->n, io->f) == io->n;
    io->n = 0;
    return ok;
}

static bool ck_put(ckio *io, uint64_t w)
{
    io->hash = (io->hash ^ w) * CK_FNV_PRIME;
    for (int i = 0; i < 8; i++) io->buf[io->n * 8 + (size_t)i] = (uint8_t)(w >> (8 * i));
    return ++io->n < sizeof io->buf / 8 || ck_flush(io);
}

/* Reads n words (n * 8 <= sizeof buf) into w and hashes them; KT_EIO on a
 * read error, KT_EPARSE at an early end (the file changed under us). */
static kt_status ck_take(ckio *io, uint64_t *w, size_t n)
{
    size_t got = fread(io->buf, 8, n, io->f);
    if (got != n) return ferror(io->f) ? KT_EIO : KT_EPARSE;
    for (size_t i = 0; i < n; i++) {
        w[i] = ck_get(io->buf + 8 * i);
        io->hash = (io->hash ^ w[i]) * CK_FNV_PRIME;
    }
    return KT_OK;
}

static kt_status ck_write(const char *path, const uint64_t *h, const table *t, const side *s,
                          const kt_allocator *al)
{
    char *tmp = kti_strcat2(al, path, ".tmp");
    if (tmp == NULL) return KT_ENOMEM;
    ckio io;
    io.f = fopen(tmp, "wb");
    if (io.f == NULL) {
        kti_free(al, tmp);
        return KT_EIO;
    }
    io.hash = CK_FNV_BASIS;
    io.n = 0;
    bool ok = true;
    for (unsigned i = 0; ok && i < CK_HWORDS; i++) ok = ck_put(&io, h[i]);
    for (size_t i = 0; ok && i < t->cap; i++)
        if (t->e[i].key != EMPTY) ok = ck_put(&io, t->e[i].key) && ck_put(&io, t->e[i].cnt);
    for (size_t i = 0; ok && i < s->cap; i++)
        if (s->key[i] != EMPTY && s->hi[i] != 0) ok = ck_put(&io, s->key[i]) && ck_put(&io, s->hi[i]);
    ok = ok && ck_put(&io, io.hash) && ck_flush(&io) && fflush(io.f) == 0 && fsync(fileno(io.f)) == 0;
    if (fclose(io.f) != 0) ok = false;
    if (ok && rename(tmp, path) != 0) ok = false;
    if (!ok) remove(tmp);
    kti_free(al, tmp);
    return ok ? KT_OK : KT_EIO;
}

/* Slots for n keys (load <= 0.75), at least floor.  Small: a small
 * board's layers hold tens of states, and a table of thousands of slots
 * per layer (cleared, compacted, paged in) was most of its time. */
static size_t cap_for(uint64_t n, size_t floor)
{
    uint64_t c = n + n / 3 + 64;
    if (c < floor) c = floor;
    return (size_t)c;
}

/* Whether key is a state the encoder can produce for a frontier of np
 * slots (the first implicit if impl; packed keys if packed): no digit
 * beyond the frontier, each digit within the encoding, every closer naming
 * an opener still open, every opener closed, at most one closer of the
 * implicit slot. */
static bool key_valid(uint64_t key, unsigned np, bool impl, unsigned q, bool open, bool packed)
{
    unsigned base = impl ? 1u : 0u, nexp = np - base;
    uint8_t pd[MAXS];
    if (packed) {
        if (impl || np > MAXS || !pk_canonical(key, np, pd)) return false;
    } else if (np < base || nexp > 16 || (nexp < 16 && key >> (4 * nexp) != 0)) {
        return false;
    }
    uint32_t closed = 0;
    unsigned nop = 0;
    bool implseen = false;
    for (unsigned s = 0; s < nexp; s++) {
        unsigned dig = packed ? pd[s] : (unsigned)(key >> (4 * s)) & 15u;
        if (dig <= 1) continue;
        if (dig == DIG_TERM) {
            if (!open) return false;
        } else if (dig == DIG_IMPL || dig == DIG_IMPL1) {
            if (!impl || implseen || (dig == DIG_IMPL1 && q != 2)) return false;
            implseen = true;
        } else if (dig < 2 + q) {
            nop++;
        } else {
            unsigned k = dig - 2 - q;
            if (k >= nop || (closed >> k & 1u)) return false;
            closed |= 1u << k;
        }
    }
    return closed == (nop ? (uint32_t)((1ull << nop) - 1) : 0u);
}

/* Pass 1: the length announced by the header is the file's, and the
 * checksum over everything matches.  Nothing is allocated. */
static kt_status ck_verify(FILE *f, uint64_t *h)
{
    struct stat sb;
    memset(&sb, 0, sizeof sb);   /* for MemorySanitizer, which may not see fstat write it */
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) return KT_EIO;
    ckio io;
    io.f = f;
    io.hash = CK_FNV_BASIS;
    uint64_t len = (uint64_t)sb.st_size;
    if (len < (CK_HWORDS + 1) * 8u || len % 16 != 8) return KT_EPARSE;
    KTI_TRY(ck_take(&io, h, CK_HWORDS));
    if (h[CK_MAGIC_W] != CK_MAGIC || h[CK_VERSION_W] != CK_VERSION) return KT_EPARSE;
    uint64_t recs = (len - (CK_HWORDS + 1) * 8u) / 16;
    if (h[CK_NSTATES] > recs || h[CK_NSIDE] != recs - h[CK_NSTATES]) return KT_EPARSE;
    uint64_t words = 2 * recs, w[sizeof io.buf / 8];
    while (words > 0) {
        size_t n = words < sizeof io.buf / 8 ? (size_t)words : sizeof io.buf / 8;
        KTI_TRY(ck_take(&io, w, n));
        words -= n;
    }
    uint64_t want = io.hash;
    KTI_TRY(ck_take(&io, w, 1));
    return w[0] == want ? KT_OK : KT_EPARSE;
}

/* The header of a sound file: whether it is this count's, and consistent. */
static kt_status ck_check_head(const uint64_t *h, const plan *p, const ck_want *cw)
{
    if (h[CK_TAG] != cw->tag || h[CK_NVERTS] != p->n || h[CK_Q] != p->q ||
        h[CK_MODE] != ((p->open ? 1u : 0u) | (cw->exists_only ? 2u : 0u)) || h[CK_KIND] != cw->kind ||
        h[CK_SHARD_I] != cw->si || h[CK_SHARD_N] != cw->sn)
        return KT_EMISMATCH;
    uint64_t steps = h[CK_STEPS];
    if (steps == 0 || steps > p->n || h[CK_SPLIT] > 1 || (cw->sn == 1 && h[CK_SPLIT] != 1))
        return KT_EPARSE;
    if (steps == p->n && (h[CK_NSTATES] != 0 || h[CK_NSIDE] != 0)) return KT_EPARSE;
    if (h[CK_NSIDE] > h[CK_NSTATES]) return KT_EPARSE;
    if (cw->exists_only && (h[CK_NSIDE] != 0 || h[CK_TOTAL_HI] != 0 || h[CK_TOTAL_LO] > 1))
        return KT_EPARSE;
    return KT_OK;
}

static bool table_has(const table *t, uint64_t key)
{
    size_t i = slot_of(key, t->cap);
    while (t->e[i].key != EMPTY) {
        if (t->e[i].key == key) return true;
        if (++i == t->cap) i = 0;
    }
    return false;
}

/* Pass 2: the states and the high words, each checked. */
static kt_status ck_load(ckio *io, const uint64_t *h, const plan *p, const ck_want *cw, table *t,
                         side *s, const kt_allocator *al)
{
    const step *sp = &p->st[h[CK_STEPS] - 1];
    KTI_TRY(table_init(t, cap_for(h[CK_NSTATES], 64), al));
    for (uint64_t i = 0; i < h[CK_NSTATES] + h[CK_NSIDE]; i++) {
        uint64_t r[2];
        KTI_TRY(ck_take(io, r, 2));
        if (i < h[CK_NSTATES]) {
            if (!key_valid(r[0], sp->npost, sp->impl_post, p->q, p->open, p->packed) || table_has(t, r[0]) ||
                (cw->exists_only && r[1] > 1) ||
                (h[CK_SPLIT] && kti_mix64(r[0] ^ 0x5bd1e995u) % cw->sn != cw->si))
                return KT_EPARSE;
            t->e[table_put(t, r[0])].cnt = r[1];
        } else {
            bool ovf = false;
            if (r[1] == 0 || !table_has(t, r[0]) || side_get(s, r[0]) != 0) return KT_EPARSE;
            if (!side_add_locked(s, r[0], r[1], al, &ovf)) return KT_ENOMEM;
        }
    }
    return KT_OK;
}

/* Reads a checkpoint into h, t and s; KT_ENOTFOUND if there is none. */
static kt_status ck_read(const char *path, uint64_t *h, const plan *p, const ck_want *cw, table *t,
                         side *s, const kt_allocator *al)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return errno == ENOENT ? KT_ENOTFOUND : KT_EIO;
    kt_status st = ck_verify(f, h);
    if (st == KT_OK) st = ck_check_head(h, p, cw);
    if (st == KT_OK) st = fseek(f, CK_HWORDS * 8, SEEK_SET) == 0 ? KT_OK : KT_EIO;
    if (st == KT_OK) {
        ckio io;
        io.f = f;
        io.hash = CK_FNV_BASIS;
        st = ck_load(&io, h, p, cw, t, s, al);
    }
    fclose(f);
    if (st != KT_OK) {
        table_free(t, al);
        side_clear(s, al);
    }
    return st;
}

/* --------------------------------------------------------------- driver */

/*
 * The driver, split along its seams: fc_init (plan, lookahead, side
 * tables), fc_resume (checkpoint or the initial layer), then per vertex
 * fc_step (expand one layer into the next, in parallel), fc_swap (the new
 * layer becomes the source, compacted) and fc_after_layer (budget, trace,
 * shard split, checkpoint save), and fc_free.  The hot loops are work(),
 * expand() and insert() above; nothing here runs per state except the
 * single passes of compaction, clamping and the shard split.
 */

/* Everything one count holds from layer to layer. */
typedef struct fcount {
    const kti_cgraph *cg;
    kti_frontier_opts *o;
    const kt_allocator *al;
    plan p;
    table src, dst;          /* the current layer and the one being built */
    table spare;             /* a cleared table kept for the next layer */
    side sside, dside;       /* high words of the counts of src and dst */
    int nsides;              /* side tables whose mutex is initialised */
    kti_u128 total;          /* tours completed so far */
    uint64_t t0;             /* first vertex to process (after a resume) */
    uint64_t last_n, prev_n; /* sizes of the two latest layers (growth guess) */
    bool split_done;         /* the shard split has been applied */
    unsigned nth;            /* threads */
    uint32_t si, sn;         /* shard si of sn */
    kti_progress prog;
    uint64_t ptotal;         /* progress total */
    double last_ck;          /* time of the last checkpoint save */
} fcount;

static void fc_free(fcount *f)
{
    const kt_allocator *al = f->al;
    table_free(&f->src, al);
    table_free(&f->dst, al);
    table_free(&f->spare, al);
    side_clear(&f->sside, al);
    side_clear(&f->dside, al);
    if (f->nsides > 0) pthread_mutex_destroy(&f->sside.mu);
    if (f->nsides > 1) pthread_mutex_destroy(&f->dside.mu);
    plan_free(&f->p, al);
}

/* The plan, the settings, and the side tables (the lookahead comes after
 * the checkpoint is read: a bad file fails before that work). */
static kt_status fc_init(fcount *f, const kti_cgraph *cg, kti_frontier_opts *o)
{
    memset(f, 0, sizeof *f);
    f->cg = cg;
    f->o = o;
    f->al = o->alloc;
    KTI_TRY(plan_build(cg, f->al, &f->p));
    kti_progress_init(&f->prog, o->progress, o->progress_user);
    f->ptotal = o->progress_total ? o->progress_total : (uint64_t)cg->n * KTI_FRONTIER_UNITS;
    o->max_slots = f->p.max_slots;
    f->sn = o->shard_count ? o->shard_count : 1;
    f->si = o->shard_index;
    f->nth = o->threads ? o->threads : 1;
    if (f->nth > KT_THREADS_MAX) f->nth = KT_THREADS_MAX;
    f->last_n = 1;
    f->split_done = f->sn == 1;
    f->last_ck = kti_now();
    kt_status st = side_init(&f->sside);
    if (st == KT_OK) {
        f->nsides = 1;
        st = side_init(&f->dside);
        if (st == KT_OK) f->nsides = 2;
    }
    return st;
}

/* Continue from the checkpoint file if there is one, else start from the
 * layer holding the empty frontier once. */
static kt_status fc_resume(fcount *f)
{
    kt_status st = KT_OK;
    if (f->o->checkpoint != NULL) {
        uint64_t h[CK_HWORDS];
        ck_want cw = {f->cg->tag, f->o->kind, f->si, f->sn, f->o->exists_only};
        st = ck_read(f->o->checkpoint, h, &f->p, &cw, &f->src, &f->sside, f->al);
        if (st == KT_OK) {
            f->t0 = h[CK_STEPS];
            f->split_done = h[CK_SPLIT] != 0;
            f->total = (kti_u128)h[CK_TOTAL_HI] << 64 | h[CK_TOTAL_LO];
            f->last_n = h[CK_LAST_N] ? h[CK_LAST_N] : 1;
        } else if (st == KT_ENOTFOUND) {
            st = KT_OK;
        }
    }
    if (st == KT_OK && f->src.e == NULL && f->t0 == 0) {
        st = table_init(&f->src, cap_for(1, 64), f->al);
        if (st == KT_OK) f->src.e[table_put(&f->src, 0)].cnt = 1;
    }
    f->prev_n = f->src.used ? f->src.used : 1;
    return st;
}

/* The table for the next layer, sized by the last growth ratio (a wrong
 * guess costs a rehash in fc_step, not a wrong result). */
static kt_status fc_next_table(fcount *f, const step *s)
{
    double ratio = (double)f->prev_n / (double)f->last_n;
    if (ratio < 1.0) ratio = 1.0;
    if (ratio > 2.5) ratio = 2.5;
    uint64_t est = s->last ? 1 : (uint64_t)((double)f->src.used * ratio * 1.05) + 16;
    if (est > (uint64_t)SIZE_MAX / 64) est = (uint64_t)SIZE_MAX / 64;
    /* fc_step lets every thread add a chunk (at least one state's
     * successors) past the load limit of 0.8: the floor keeps that below
     * 1/16 of the table. */
    size_t floor = (size_t)16 * f->nth * f->p.maxsucc, cap = cap_for(est, floor);
    if (f->spare.e != NULL && f->spare.cap >= cap && f->spare.cap <= 2 * cap) {
        f->dst = f->spare;        /* already cleared by the compaction */
        f->dst.used = 0;
        memset(&f->spare, 0, sizeof f->spare);
        return KT_OK;
    }
    table_free(&f->spare, f->al);
    return table_init(&f->dst, cap, f->al);
}

/* Expand the layer src into dst for vertex t.  The source slots are cut
 * into chunks that the workers pull; when dst reaches its load limit the
 * pass stops, dst doubles, and the next pass starts at the first chunk not
 * yet processed. */
static kt_status fc_step(fcount *f, uint64_t t)
{
    const step *s = &f->p.st[t];
    KTI_TRY(fc_next_table(f, s));
    run r;
    memset(&r, 0, sizeof r);
    r.p = &f->p;
    r.s = s;
    r.al = f->al;
    r.dst = &f->dst;
    r.src_side = &f->sside;
    r.dst_side = &f->dside;
    r.mt = f->nth > 1;
    r.prog = &f->prog;
    r.pbase = f->o->progress_base + t * KTI_FRONTIER_UNITS;
    r.ptotal = f->ptotal;
    worker wk[KT_THREADS_MAX];
    size_t pos = 0;
    while (pos < f->src.cap) {
        /* one thread overshoots the load limit by one chunk at most: the
         * chunks may be twice as large (a small board's states were a
         * chunk each, and the chunks' bookkeeping a tenth of its time) */
        size_t margin = (size_t)(f->nth > 1 ? 2 * f->nth : 1) * f->p.maxsucc;
        size_t chunk = (f->dst.cap / 8) / margin;
        if (chunk > 8192) chunk = 8192;
        if (chunk < 1) chunk = 1;
        r.chunk = chunk;
        r.nchunks = (f->src.cap - pos + chunk - 1) / chunk;
        r.next = 0;
        r.used = f->dst.used;
        r.limit = f->dst.cap - f->dst.cap / 5;
        /* Shift the source window: work() indexes from slot 0. */
        table win = f->src;
        win.e += pos;
        win.cap = f->src.cap - pos;
        r.src = &win;
        for (unsigned k = 0; k < f->nth; k++) {
            wk[k].r = &r;
            wk[k].main = k == 0;
            wk[k].done = 0;
        }
        kti_parallel(f->nth, work, wk, sizeof wk[0]);
        for (unsigned k = 0; k < f->nth; k++) f->total += wk[k].done;
        f->dst.used = r.used;
        if (r.err != KT_OK) return r.err;
        size_t bytes = (f->src.cap + f->dst.cap) * 2 * sizeof(uint64_t);
        if (bytes > f->o->peak_bytes) f->o->peak_bytes = bytes;
        /* every chunk below min(next, nchunks) has been processed */
        if (r.next >= r.nchunks) break;
        pos += r.next * chunk;
        KTI_TRY(table_grow(&f->dst, f->dst.cap * 2, f->al));
    }
    return r.overflow ? KT_EOVERFLOW : KT_OK;
}

/* Compact the layer into exact-size arrays: the next step holds this dense
 * layer and one hash table, not two hash tables.  The cleared table serves
 * the next layer (no page faults).  Without memory it stays as it is. */
static void fc_compact(fcount *f)
{
    table *src = &f->src;
    if (src->used == 0 || src->used + src->used / 8 >= src->cap) return;
    table c;
    c.cap = c.used = src->used;
    c.e = kti_alloc(f->al, src->used * sizeof *c.e);
    if (c.e == NULL) return;
    kti_advise_huge(c.e, src->used * sizeof *c.e);
    size_t j = 0;
    for (size_t i = 0; i < src->cap; i++) {
        if (src->e[i].key == EMPTY) continue;
        c.e[j++] = src->e[i];
        src->e[i].key = EMPTY;
        src->e[i].cnt = 0;
    }
    f->spare = *src;
    *src = c;
}

/* The new layer becomes the source (its side table too; the mutexes stay
 * where they were initialised). */
static void fc_swap(fcount *f)
{
    table_free(&f->src, f->al);
    side_clear(&f->sside, f->al);
    f->src = f->dst;
    memset(&f->dst, 0, sizeof f->dst);
    side sw = f->sside;
    f->sside.key = f->dside.key;
    f->sside.hi = f->dside.hi;
    f->sside.cap = f->dside.cap;
    f->sside.n = f->dside.n;
    f->dside.key = sw.key;
    f->dside.hi = sw.hi;
    f->dside.cap = sw.cap;
    f->dside.n = sw.n;
    f->last_n = f->prev_n;
    f->prev_n = f->src.used ? f->src.used : 1;
    fc_compact(f);
}

/* Keep only this shard's states, once the layer is large enough for the
 * split to be even (or the count is about to end): a state belongs to the
 * shard its hashed key selects, so the shards partition the tours. */
static void fc_split(fcount *f, uint64_t t)
{
    if (f->split_done || (f->src.used < 4096u * (uint64_t)f->sn && t + 2 < f->cg->n)) return;
    for (size_t i = 0; i < f->src.cap; i++)
        if (f->src.e[i].key != EMPTY && kti_mix64(f->src.e[i].key ^ 0x5bd1e995u) % f->sn != f->si) {
            side_zero(&f->sside, f->src.e[i].key);
            f->src.e[i].key = EMPTY;
            f->src.used--;
        }
    if (f->si != 0) f->total = 0;   /* tours completed before the split: shard 0's */
    f->split_done = true;
}

/* Save the layer after vertex t when the interval has passed, and always
 * after the last vertex (a finished file answers a repeated call). */
static kt_status fc_save(fcount *f, uint64_t t)
{
    const kti_frontier_opts *o = f->o;
    if (o->checkpoint == NULL) return KT_OK;
    if (kti_now() - f->last_ck < o->checkpoint_interval && t + 1 != f->cg->n) return KT_OK;
    uint64_t h[CK_HWORDS] = {
        [CK_MAGIC_W] = CK_MAGIC, [CK_VERSION_W] = CK_VERSION, [CK_TAG] = f->cg->tag,
        [CK_NVERTS] = f->cg->n, [CK_Q] = f->p.q,
        [CK_MODE] = (f->p.open ? 1u : 0u) | (o->exists_only ? 2u : 0u), [CK_KIND] = o->kind,
        [CK_SHARD_I] = f->si, [CK_SHARD_N] = f->sn, [CK_SPLIT] = f->split_done, [CK_STEPS] = t + 1,
        [CK_NSTATES] = f->src.used, [CK_NSIDE] = side_live(&f->sside), [CK_TOTAL_LO] = (uint64_t)f->total,
        [CK_TOTAL_HI] = (uint64_t)(f->total >> 64), [CK_LAST_N] = f->last_n};
    kt_status st = ck_write(o->checkpoint, h, &f->src, &f->sside, f->al);
    f->last_ck = kti_now();
    return st;
}

/* The bookkeeping after vertex t: clamping (existence only), the trace,
 * the budget, the statistics, the shard split and the checkpoint. */
static kt_status fc_after_layer(fcount *f, uint64_t t)
{
    kti_frontier_opts *o = f->o;
    if (o->exists_only) {
        /* Only whether a count is zero matters: clamp, so that no count
         * can overflow however many paths there are. */
        for (size_t i = 0; i < f->src.cap; i++)
            if (f->src.e[i].key != EMPTY) f->src.e[i].cnt = 1;
        side_clear(&f->sside, f->al);
        if (f->total > 1) f->total = 1;
    }
    if (o->trace) o->trace(o->trace_user, t, f->src.used);
    if (o->budget && f->src.used > o->budget) return KT_ELIMIT;
    if (f->src.used > o->peak_states) o->peak_states = f->src.used;
    fc_split(f, t);
    return fc_save(f, t);
}

kt_status kti_frontier_count(const kti_cgraph *cg, kti_frontier_opts *o, kti_u128 *out)
{
    fcount f;
    kt_status st = fc_init(&f, cg, o);
    if (st == KT_OK && (cg->n == 0 || o->known_zero)) {
        fc_free(&f);
        *out = 0;
        return KT_OK;
    }
    if (st == KT_OK) st = fc_resume(&f);
    if (st == KT_OK)
        st = la_build(&f.p, f.al, o->lookahead_bytes ? o->lookahead_bytes : KTI_LOOKAHEAD_BYTES, &f.prog,
                      o->progress_base, f.ptotal);
    for (uint64_t t = f.t0; st == KT_OK && t < cg->n; t++) {
        st = fc_step(&f, t);
        if (st != KT_OK) break;
        fc_swap(&f);
        st = fc_after_layer(&f, t);
    }
    if (st == KT_OK && !f.split_done && f.si != 0) f.total = 0;
    if (st == KT_OK) *out = f.total;
    fc_free(&f);
    return st;
}
