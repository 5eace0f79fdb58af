/* SPDX-License-Identifier: MIT */
/*
 * The search kernel: the state of a node and its updates (assigning and
 * pencilling numbers), the feasibility test of a node, the depth-first
 * search that grows the path from both ends, and the work units (prefixes)
 * the search tree is split into.  semimagic_internal.h describes the
 * pruning rules.
 */
#include "semimagic_internal.h"

void kti_sm_stop(kti_sm_shared *sh, kt_status why)
{
    int expected = KT_OK;
    atomic_compare_exchange_strong(&sh->status, &expected, (int)why);
}

/* ---- node state ---- */

static void sm_state_empty(const kti_sm_plan *S, kti_sm_state *st, int oddcol)
{
    memset(st, 0, sizeof *st);
    st->unvis = S->board;
    st->freen = S->N == 64 ? ~0ull : (1ull << S->N) - 1;
    st->lo = 1;
    st->hi = S->N;
    st->oddcol = oddcol;
    memset(st->pos, KTI_SM_NONE, sizeof st->pos);
    for (int l = 0; l < S->nl; l++)
        for (uint64_t b = S->line[l].mask; b; b &= b - 1) {
            int c = kti_sm_ctz(b);
            st->lrem[l][S->col[c]]++;
            st->lkey[l] = (uint8_t)(st->lkey[l] + (S->col[c] == oddcol ? KTI_SM_MAXN + 1 : 1));
        }
}

static bool sm_assign(const kti_sm_plan *S, kti_sm_state *st, int c, int k)
{
    if (!(st->freen >> (k - 1) & 1)) return false;
    if ((k & 1) != (S->col[c] == st->oddcol)) return false;
    st->val[c] = (uint8_t)k;
    st->pos[k] = (uint8_t)c;
    st->asg |= 1ull << c;
    st->freen &= ~(1ull << (k - 1));
    int nl = S->nlof[c];
    for (int j = 0; j < nl; j++) {
        int l = S->lof[c][j];
        st->lsum[l] = (int16_t)(st->lsum[l] + k);
        st->lrem[l][S->col[c]]--;
        st->lkey[l] = (uint8_t)(st->lkey[l] - ((k & 1) ? KTI_SM_MAXN + 1 : 1));
    }
    for (int j = 0; j < nl; j++) {
        int l = S->lof[c][j];
        int r = st->lrem[l][0] + st->lrem[l][1];
        if (r == 0) {
            if (st->lsum[l] != S->line[l].target) return false;
        } else if (r == 1) {
            int f = S->line[l].target - st->lsum[l];
            if (f < 1 || f > S->N) return false;
            int d = kti_sm_ctz(S->line[l].mask & ~st->asg);
            if (!sm_assign(S, st, d, f)) return false;
        }
    }
    return true;
}

/* Put number k on cell c as a path step. */
static bool sm_visit(const kti_sm_plan *S, kti_sm_state *st, int c, int k)
{
    if (st->val[c]) {
        if (st->val[c] != k) return false;
    } else if (!sm_assign(S, st, c, k)) {
        return false;
    }
    st->unvis &= ~(1ull << c);
    return true;
}

static inline uint64_t sm_bitrev(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
    return __builtin_bswap64(x);
}

/* Is there a pair of distinct free numbers x + y = R, x of the parity of
 * the line's first free cell and y of the second's?  rev[p] is the
 * bit-reversed mask of free numbers of parity p (1 = odd): bit 64 - y
 * stands for y, so x - 1 and 64 - R + x line up after a shift. */
static bool sm_pair_ok(const kti_sm_plan *S, const kti_sm_state *st, int l, int R, const uint64_t *rev)
{
    uint64_t m = S->line[l].mask & ~st->asg;
    int c1 = kti_sm_ctz(m), c2 = kti_sm_ctz(m & (m - 1));
    uint64_t A = st->freen & (S->col[c1] == st->oddcol ? KTI_SM_ODD : ~KTI_SM_ODD);
    uint64_t G = rev[S->col[c2] == st->oddcol];
    int sh = 65 - R;
    uint64_t hit = A & (sh >= 0 ? G >> sh : G << -sh);
    if (!(R & 1)) hit &= ~(1ull << (R / 2 - 1));
    return hit != 0;
}


/* Line bounds: the free cells of a line get distinct free numbers of
 * their colour's parity, all in [lo, hi]; the remaining sum must lie
 * between the smallest and the largest such sums, and with two cells
 * left an exact pair must exist. */
static inline bool sm_lines_ok(const kti_sm_plan *S, const kti_sm_state *st)
{
    enum { K = KTI_SM_MAXN + 1 };
    int lo = st->lo, hi = st->hi;
    int minO[K], minE[K], maxO[K], maxE[K];
    int need = S->maxneed;
    uint64_t a = st->freen & KTI_SM_ODD, b = st->freen & ~KTI_SM_ODD;
    uint64_t c = a, d = b;
    minO[0] = minE[0] = maxO[0] = maxE[0] = 0;
    for (int j = 1; j <= need; j++) {
        if (a) {
            minO[j] = minO[j - 1] + kti_sm_ctz(a) + 1;
            a &= a - 1;
            int h = 63 - __builtin_clzll(c);
            maxO[j] = maxO[j - 1] + h + 1;
            c &= ~(1ull << h);
        } else {
            minO[j] = KTI_SM_BIG;
            maxO[j] = -KTI_SM_BIG;
        }
        if (b) {
            minE[j] = minE[j - 1] + kti_sm_ctz(b) + 1;
            b &= b - 1;
            int h = 63 - __builtin_clzll(d);
            maxE[j] = maxE[j - 1] + h + 1;
            d &= ~(1ull << h);
        } else {
            minE[j] = KTI_SM_BIG;
            maxE[j] = -KTI_SM_BIG;
        }
    }
    /* Bounds per line from its (odd, even) count: the free numbers
     * themselves, and numbers at least 2 apart from lo upwards / hi
     * downwards.  Computed per line, not tabulated for every count: most
     * nodes have fewer open lines than counts. */
    uint64_t rev[2] = {0, 0};
    for (int l = 0; l < S->nl; l++) {
        int key = st->lkey[l];
        if (key == 0) continue;
        int o = key / K, e = key % K, r = o + e;
        int R = S->line[l].target - st->lsum[l];
        if ((R ^ o) & 1) return false;
        int mn = minO[o] + minE[e], g1 = r * lo + S->gap[o][e][lo & 1];
        if (R < (mn > g1 ? mn : g1)) return false;
        int mx = maxO[o] + maxE[e], g2 = r * hi - S->gap[o][e][hi & 1];
        if (R > (mx < g2 ? mx : g2)) return false;
        if (r == 2) {
            if (rev[0] == 0 && rev[1] == 0) {
                rev[0] = sm_bitrev(st->freen & ~KTI_SM_ODD);
                rev[1] = sm_bitrev(st->freen & KTI_SM_ODD);
            }
            if (!sm_pair_ok(S, st, l, R, rev)) return false;
        }
    }
    return true;
}

/* Assigned numbers between the ends must be reachable in order: the
 * knight distance between consecutive ones at most their difference. */
static inline bool sm_order_ok(const kti_sm_plan *S, const kti_sm_state *st)
{
    int lo = st->lo, hi = st->hi;
    int hh = st->pos[hi + 1];
    int pk = lo - 1, pc = st->pos[pk];
    uint64_t range = (hi >= 64 ? ~0ull : (1ull << hi) - 1) & ~((1ull << (lo - 1)) - 1);
    for (uint64_t A = ~st->freen & range; A; A &= A - 1) {
        int k = kti_sm_ctz(A) + 1, c = st->pos[k];
        if (S->dist[pc][c] > k - pk) return false;
        pk = k;
        pc = c;
    }
    return S->dist[pc][hh] <= hi + 1 - pk;
}

/* Degrees: every unvisited cell needs two usable neighbours (the path
 * ends count); a cell with exactly two next to an end forces that end's
 * move (*fl, *fh), and no cell can take three forced edges. */
static inline bool sm_degrees_ok(const kti_sm_plan *S, const kti_sm_state *st, uint64_t *fl,
                                 uint64_t *fh)
{
    int hl = st->pos[st->lo - 1], hh = st->pos[st->hi + 1];
    uint64_t U = st->unvis;
    uint64_t X = U | (1ull << hl) | (1ull << hh);
    uint64_t l1 = (X >> 1) & 0x7f7f7f7f7f7f7f7full, l2 = (X >> 2) & 0x3f3f3f3f3f3f3f3full;
    uint64_t r1 = (X << 1) & 0xfefefefefefefefeull, r2 = (X << 2) & 0xfcfcfcfcfcfcfcfcull;
    uint64_t dir[8] = {l1 << 16, l1 >> 16, r1 << 16, r1 >> 16, l2 << 8, l2 >> 8, r2 << 8, r2 >> 8};
    uint64_t g1 = 0, g2 = 0, g3 = 0;
    for (int m = 0; m < 8; m++) {
        g3 |= g2 & dir[m];
        g2 |= g1 & dir[m];
        g1 |= dir[m];
    }
    if (U & ~g2) return false;
    uint64_t f2 = U & ~g3;
    uint64_t xl = f2 & S->att[hl], xh = f2 & S->att[hh];
    if ((xl & (xl - 1)) || (xh & (xh - 1))) return false;
    if (xl && xl == xh && (U & (U - 1))) return false;
    *fl = xl;
    *fh = xh;
    /* A cell with exactly two usable neighbours forces an edge to each;
     * no unvisited cell can take three forced edges. */
    if (f2) {
        uint64_t m1 = (f2 >> 1) & 0x7f7f7f7f7f7f7f7full, m2 = (f2 >> 2) & 0x3f3f3f3f3f3f3f3full;
        uint64_t p1 = (f2 << 1) & 0xfefefefefefefefeull, p2 = (f2 << 2) & 0xfcfcfcfcfcfcfcfcull;
        uint64_t fd[8] = {m1 << 16, m1 >> 16, p1 << 16, p1 >> 16, m2 << 8, m2 >> 8, p2 << 8, p2 >> 8};
        uint64_t h1 = 0, h2 = 0, h3 = 0;
        for (int m = 0; m < 8; m++) {
            h3 |= h2 & fd[m];
            h2 |= h1 & fd[m];
            h1 |= fd[m];
        }
        if (h3 & U) return false;
    }
    return true;
}

/* Connectivity of the unvisited cells to the low end, and the high end
 * must touch them. */
static inline bool sm_connected(const kti_sm_plan *S, const kti_sm_state *st)
{
    int hl = st->pos[st->lo - 1], hh = st->pos[st->hi + 1];
    uint64_t U = st->unvis;
    uint64_t reach = S->att[hl] & U, prev = 0;
    while (reach != prev) {
        prev = reach;
        reach |= kti_sm_katt(reach) & U;
    }
    return reach == U && (S->att[hh] & U) != 0;
}

/* Feasibility of a node, cheapest and strongest tests first; on success
 * *fl and *fh are the cells the low/high end is forced to (0 if none). */
static inline bool sm_feasible(const kti_sm_plan *S, const kti_sm_state *st, uint64_t *fl,
                               uint64_t *fh)
{
    if (S->nl && !sm_lines_ok(S, st)) return false;
    if (!sm_order_ok(S, st)) return false;
    if (!sm_degrees_ok(S, st, fl, fh)) return false;
    return sm_connected(S, st);
}

/* ---- depth-first search ---- */

/* Every KTI_SM_SYNC nodes (fewer under a small budget): add this thread's
 * nodes to the shared count, and stop when another thread stopped, the
 * budget is spent or the progress callback cancels.  Kept out of line:
 * the kernel pays one compare per node. */
static __attribute__((noinline)) int sm_sync(kti_sm_worker *w)
{
    kti_sm_shared *sh = w->sh;
    uint64_t total = atomic_fetch_add_explicit(&sh->nodes, w->nodes, memory_order_relaxed) + w->nodes;
    w->synced += w->nodes;
    w->nodes = 0;
    if (atomic_load_explicit(&sh->status, memory_order_relaxed) != KT_OK) return 1;
    if (sh->budget != 0 && total >= sh->budget) {
        kti_sm_stop(sh, KT_ELIMIT);
        return 1;
    }
    return w->tick != NULL && w->tick(w);
}

/* The moves of a feasible node: the candidate cells *cand of the end that
 * moves (*low: the low end), false when there is none.  fl, fh: the
 * forced cells from sm_feasible. */
static inline bool sm_moves(const kti_sm_plan *S, const kti_sm_state *st, uint64_t fl,
                            uint64_t fh, uint64_t *cand, int *low)
{
    int lo = st->lo, hi = st->hi;
    int hl = st->pos[lo - 1], hh = st->pos[hi + 1];
    uint64_t cl, ch;
    if (st->pos[lo] != KTI_SM_NONE) cl = S->att[hl] & (1ull << st->pos[lo]);
    else cl = S->att[hl] & st->unvis & ~st->asg;
    if (fl) cl &= fl;
    if (lo == hi) cl &= S->att[hh];
    if (!cl) return false;
    *low = 1;
    if (lo < hi) {
        if (st->pos[hi] != KTI_SM_NONE) ch = S->att[hh] & (1ull << st->pos[hi]);
        else ch = S->att[hh] & st->unvis & ~st->asg;
        if (fh) ch &= fh;
        if (!ch) return false;
        /* Forced moves first; otherwise keep the two ends nearly balanced
         * (lo - 1 close to N - hi), which keeps the free numbers centred
         * on the line average and the line bounds tight. */
        int pl = kti_sm_popc(cl), ph = kti_sm_popc(ch);
        if (pl == 1) *low = 1;
        else if (ph == 1) *low = 0;
        else {
            /* the end with fewer moves while the ends stay within 3
             * numbers of each other, else the end that is behind */
            int imb = (lo - 1) - (S->N - hi);
            if (imb >= -3 && imb <= 3 && pl != ph) *low = pl < ph;
            else *low = imb <= 0;
        }
    } else {
        ch = 0;
    }
    *cand = *low ? cl : ch;
    return true;
}

/* The child of st by the move to c at the low or high end; false when
 * the numbers do not fit. */
static inline bool sm_child(const kti_sm_plan *S, const kti_sm_state *st, int c, int low,
                            kti_sm_state *child)
{
    *child = *st;
    if (low) {
        if (!sm_visit(S, child, c, st->lo)) return false;
        child->lo++;
    } else {
        if (!sm_visit(S, child, c, st->hi)) return false;
        child->hi--;
    }
    return true;
}

int kti_sm_dfs(kti_sm_worker *w, kti_sm_state *st, int depth)
{
    const kti_sm_plan *S = w->S;
    if (KTI_UNLIKELY(++w->nodes >= w->period) && sm_sync(w)) return 1;
    if (st->lo > st->hi) return w->emit(w, st, depth);
    uint64_t fl, fh, cand;
    int low;
    if (!sm_feasible(S, st, &fl, &fh)) return 0;
    if (depth == w->limit) return w->emit(w, st, depth);
    if (!sm_moves(S, st, fl, fh, &cand, &low)) return 0;
    for (; cand; cand &= cand - 1) {
        int c = kti_sm_ctz(cand);
        kti_sm_state child;
        if (!sm_child(S, st, c, low, &child)) continue;
        w->path[depth] = (uint8_t)(c | (low ? 0 : 0x80));
        int r = kti_sm_dfs(w, &child, depth + 1);
        if (r) return r;
    }
    return 0;
}

double kti_sm_probe(const kti_sm_plan *S, const kti_sm_state *root, kti_rng *rng, uint64_t *cost)
{
    kti_sm_state st = *root, kids[8];
    double est = 1, width = 1;
    for (;;) {
        uint64_t fl, fh, cand;
        int low, k = 0;
        if (st.lo > st.hi || !sm_feasible(S, &st, &fl, &fh) || !sm_moves(S, &st, fl, fh, &cand, &low))
            return est;
        for (; cand; cand &= cand - 1)
            if (sm_child(S, &st, kti_sm_ctz(cand), low, &kids[k])) k++;
        *cost += (uint64_t)k + 1;
        if (k == 0) return est;
        /* Every child is a node of the search; one of them, drawn
         * uniformly, stands for all of them below. */
        width *= k;
        est += width;
        st = kids[kti_rng_below(rng, (uint64_t)k)];
    }
}

/* Root state for a start cell (1 placed, givens assigned); false if impossible. */
static bool sm_root(const kti_sm_plan *S, kti_sm_state *st, int s)
{
    sm_state_empty(S, st, S->col[s]);
    for (int i = 0; i < 64; i++) {
        int k = S->given[i];
        if (!k) continue;
        if (st->val[i]) {
            if (st->val[i] != k) return false;
        } else if (!sm_assign(S, st, i, k)) {
            return false;
        }
    }
    if (!sm_visit(S, st, s, 1)) return false;
    st->lo = 2;
    return true;
}

static bool sm_root_end(const kti_sm_plan *S, kti_sm_state *st, int e)
{
    /* With two cells the path is complete at the root, before any move
     * could check that 1 and N are a knight's move apart. */
    if (S->N == 2 && !(S->att[st->pos[1]] >> e & 1)) return false;
    if (!sm_visit(S, st, e, S->N)) return false;
    st->hi = S->N - 1;
    return true;
}

/* Rebuild the state at a prefix; false if it fails (should not happen). */
bool kti_sm_replay(const kti_sm_plan *S, const kti_sm_prefix *p, kti_sm_state *st)
{
    if (!sm_root(S, st, p->start) || !sm_root_end(S, st, p->end)) return false;
    for (int i = 0; i < p->len; i++) {
        int c = p->step[i] & 0x7F;
        if (p->step[i] & 0x80) {
            if (!sm_visit(S, st, c, st->hi)) return false;
            st->hi--;
        } else {
            if (!sm_visit(S, st, c, st->lo)) return false;
            st->lo++;
        }
    }
    return true;
}

/* ---- work units ---- */

/* A prefix leaf: append the path so far as a work unit. */
static int sm_emit_prefix(kti_sm_worker *w, const kti_sm_state *st, int depth)
{
    (void)st;
    kti_sm_plist *pl = w->ctx;
    if (pl->len == pl->cap) {
        size_t nc = pl->cap ? pl->cap * 2 : 256, bytes;
        kti_sm_prefix *nv = kti_mul_ok(nc, sizeof(kti_sm_prefix), &bytes) ? kti_alloc(pl->al, bytes) : NULL;
        if (nv == NULL) {
            kti_sm_stop(w->sh, KT_ENOMEM);
            return 1;
        }
        if (pl->len) memcpy(nv, pl->v, pl->len * sizeof(kti_sm_prefix));
        kti_free(pl->al, pl->v);
        pl->v = nv;
        pl->cap = nc;
    }
    kti_sm_prefix *p = &pl->v[pl->len++];
    memset(p, 0, sizeof *p);
    p->start = w->start;
    p->end = w->end;
    p->len = (uint8_t)depth;
    memcpy(p->step, w->path, (size_t)depth);
    return 0;
}

kt_status kti_sm_prefixes(const kti_sm_plan *S, kti_sm_shared *sh, const kt_allocator *al,
                          kti_sm_plist *pl)
{
    kti_sm_worker w;
    memset(&w, 0, sizeof w);
    w.S = S;
    w.sh = sh;
    w.period = sh->period;
    w.limit = KTI_SM_PREFIX_DEPTH;
    w.emit = sm_emit_prefix;
    w.ctx = pl;
    pl->al = al;
    for (int ps = 0; ps < S->N; ps++) {
        int s = S->p2i[ps];
        if (!S->rootend[s]) continue;
        kti_sm_state r0;
        if (!sm_root(S, &r0, s)) continue;
        uint64_t eb = S->rootend[s];
        if (S->flags & KT_SEMIMAGIC_CLOSED) eb &= S->att[s];
        for (; eb; eb &= eb - 1) {
            int e = kti_sm_ctz(eb);
            kti_sm_state r1 = r0;
            if (!sm_root_end(S, &r1, e)) continue;
            w.start = (uint8_t)s;
            w.end = (uint8_t)e;
            if (kti_sm_dfs(&w, &r1, 0)) return (kt_status)atomic_load(&sh->status);
        }
    }
    /* The plan's nodes count against the budget too. */
    atomic_fetch_add(&sh->nodes, w.nodes);
    return KT_OK;
}

void kti_sm_to_pub(const kti_sm_plan *S, const kti_sm_state *st, uint8_t *num)
{
    for (int p = 0; p < S->N; p++) num[p] = st->val[S->p2i[p]];
}
