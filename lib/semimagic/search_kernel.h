/* SPDX-License-Identifier: MIT */
/*
 * The search kernel, written once for both set widths and included twice
 * by search.c (no include guard on purpose).  The includer defines:
 *   SMK(x)      the name of x in this instance;
 *   SMK_CELLS   internal cells (64 or 256), SMK_STRIDE (8 or 16) and
 *               SMK_MAXL (most lines);
 *   SMK_WIDE    0 for one-word sets, 1 for four-word ones;
 *   smk_set, smk_num, smk_cell  the set type, the type of a number and
 *               of a cell index (SMK_NONE: no cell);
 *   SMK_KEYK, smk_key  the base of a line's key (one more than the most
 *               cells of one colour in a line: 9 on 8 x 8) and its type;
 *   the set operations S_* (S_FROM reads a plan set) and the masks
 *   SMK_L1, SMK_L2, SMK_R1, SMK_R2 (the cells that stay on their row
 *   after a shift by 1 or 2 towards lower / higher x) and SMK_ODD (bit
 *   k - 1 for every odd number k).
 * The pruning rules are those of semimagic_internal.h.
 */

/* A line's running figures. */
typedef struct SMK(line) {
    int16_t sum;    /* of the numbers it holds */
    uint8_t rem[2]; /* free cells per colour */
    smk_key key;    /* (free odd-number cells) * SMK_KEYK + (free even-number cells) */
} SMK(line);

/* The lines come last: a child copies the plan's nl of them only.  A
 * whole-struct copy compiled to `rep movsq` under gcc's generic tuning,
 * slow to start on AMD EPYC: a tenth of the run (BENCHMARKS.md). */
typedef struct SMK(state) {
    smk_set unvis; /* cells not yet on the path */
    smk_set asg;   /* cells with a number (on the path, given or pencilled) */
    smk_set freen; /* bit k-1: number k not assigned to any cell */
    int lo, hi;    /* next numbers to place at the low and high ends */
    int oddcol;    /* colour of the cells holding odd numbers */
    smk_num val[SMK_CELLS];
    smk_cell pos[SMK_CELLS + 2];
    SMK(line) line[SMK_MAXL];
} SMK(state);

enum { SMK(K) = SMK_KEYK };

/* ---- node state ---- */

static void SMK(state_empty)(const kti_sm_plan *S, SMK(state) *st, int oddcol)
{
    memset(st, 0, sizeof *st);
    st->unvis = S_FROM(S->board);
    st->freen = S_RANGE(0, S->N);
    st->lo = 1;
    st->hi = S->N;
    st->oddcol = oddcol;
    memset(st->pos, 0xFF, sizeof st->pos);
    for (int l = 0; l < S->nl; l++)
        for (smk_set b = S_FROM(S->lmask[l]); S_NZ(b); b = S_DROP(b)) {
            int c = S_CTZ(b);
            st->line[l].rem[S->col[c]]++;
            st->line[l].key = (smk_key)(st->line[l].key + (S->col[c] == oddcol ? SMK(K) : 1));
        }
}

static bool SMK(assign)(const kti_sm_plan *S, SMK(state) *st, int c, int k)
{
    if (!S_HAS(st->freen, k - 1)) return false;
    if ((k & 1) != (S->col[c] == st->oddcol)) return false;
    st->val[c] = (smk_num)k;
    st->pos[k] = (smk_cell)c;
    st->asg = S_OR(st->asg, S_BIT(c));
    st->freen = S_ANDN(st->freen, S_BIT(k - 1));
    int nl = S->nlof[c];
    for (int j = 0; j < nl; j++) {
        int l = S->lof[c][j];
        st->line[l].sum = (int16_t)(st->line[l].sum + k);
        st->line[l].rem[S->col[c]]--;
        st->line[l].key = (smk_key)(st->line[l].key - ((k & 1) ? SMK(K) : 1));
    }
    for (int j = 0; j < nl; j++) {
        int l = S->lof[c][j];
        int r = st->line[l].rem[0] + st->line[l].rem[1];
        if (r == 0) {
            if (st->line[l].sum != S->ltarget[l]) return false;
        } else if (r == 1) {
            int f = S->ltarget[l] - st->line[l].sum;
            if (f < 1 || f > S->N) return false;
            int d = S_CTZ(S_ANDN(S_FROM(S->lmask[l]), st->asg));
            if (!SMK(assign)(S, st, d, f)) return false;
        }
    }
    /* Under the half-turn the opposite cell's number follows (it may be
     * there already: this call may be that cell's own image step). */
    if (S->half) {
        int c2 = S->opp[c], k2 = kti_sm_partner(S, k);
        if (st->val[c2] != k2 && (st->val[c2] || !SMK(assign)(S, st, c2, k2))) return false;
    }
    return true;
}

/* Put number k on cell c as a path step. */
static bool SMK(visit)(const kti_sm_plan *S, SMK(state) *st, int c, int k)
{
    if (st->val[c]) {
        if (st->val[c] != k) return false;
    } else if (!SMK(assign)(S, st, c, k)) {
        return false;
    }
    st->unvis = S_ANDN(st->unvis, S_BIT(c));
    return true;
}

/* Is there a pair of distinct free numbers x + y = R, x of the parity of
 * the line's first free cell and y of the second's?  (The parities of
 * the line's cells and R agree: lines_ok checked it.)  rev: see
 * lines_ok. */
static bool SMK(pair_ok)(const kti_sm_plan *S, const SMK(state) *st, int l, int R, smk_set *rev)
{
    smk_set m = S_ANDN(S_FROM(S->lmask[l]), st->asg);
    int c1 = S_CTZ(m);
    smk_set A = S_AND(st->freen, S->col[c1] == st->oddcol ? SMK_ODD : S_NOTODD);
#if SMK_WIDE
    /* y = R - x must be free; its parity follows from R's. */
    (void)rev;
    for (; S_NZ(A); A = S_DROP(A)) {
        int x = S_CTZ(A) + 1, y = R - x;
        if (y >= 1 && y <= S->N && y != x && S_HAS(st->freen, y - 1)) return true;
    }
    return false;
#else
    /* rev[p] is the bit-reversed mask of free numbers of parity p (1 =
     * odd): bit 64 - y stands for y, so x - 1 and 64 - R + x line up
     * after a shift. */
    int c2 = S_CTZ(S_DROP(m));
    if (rev[0] == 0 && rev[1] == 0) {
        rev[0] = sm_bitrev(st->freen & S_NOTODD);
        rev[1] = sm_bitrev(st->freen & SMK_ODD);
    }
    uint64_t G = rev[S->col[c2] == st->oddcol];
    int sh = 65 - R;
    uint64_t hit = A & (sh >= 0 ? G >> sh : G << -sh);
    if (!(R & 1)) hit &= ~(UINT64_C(1) << (R / 2 - 1));
    return hit != 0;
#endif
}

/* The sums of the j smallest and the j largest numbers of the set `a`,
 * j <= need (KTI_SM_BIG and -KTI_SM_BIG when it has fewer). */
static inline void SMK(sums)(smk_set a, int need, int *mn, int *mx)
{
    smk_set c = a;
    mn[0] = mx[0] = 0;
    for (int j = 1; j <= need; j++) {
        if (S_NZ(a)) {
            mn[j] = mn[j - 1] + S_CTZ(a) + 1;
            a = S_DROP(a);
            int h = S_HIGH(c);
            mx[j] = mx[j - 1] + h + 1;
            c = S_ANDN(c, S_BIT(h));
        } else {
            mn[j] = KTI_SM_BIG;
            mx[j] = -KTI_SM_BIG;
        }
    }
}

/* The same for the free numbers of each parity. */
static inline void SMK(extremes)(const SMK(state) *st, int need, int *minO, int *minE, int *maxO,
                                 int *maxE)
{
    SMK(sums)(S_AND(st->freen, SMK_ODD), need, minO, maxO);
    SMK(sums)(S_AND(st->freen, S_NOTODD), need, minE, maxE);
}

/* Line bounds: the free cells of a line get distinct free numbers of
 * their colour's parity, all in [lo, hi]; the remaining sum must lie
 * between the smallest and the largest such sums, and with two cells
 * left an exact pair must exist.  Bounds per line from its (odd, even)
 * count: the free numbers themselves, and numbers at least 2 apart from
 * lo upwards / hi downwards.  Computed per line, not tabulated for every
 * count: most nodes have fewer open lines than counts. */
static inline bool SMK(lines_ok)(const kti_sm_plan *S, const SMK(state) *st)
{
    int lo = st->lo, hi = st->hi;
    int minO[SMK(K)], minE[SMK(K)], maxO[SMK(K)], maxE[SMK(K)];
    SMK(extremes)(st, S->maxneed, minO, minE, maxO, maxE);
    smk_set rev[2] = {S_ZERO, S_ZERO}; /* computed by the first pair test */
    for (int l = 0; l < S->nl; l++) {
        int key = st->line[l].key;
        if (key == 0) continue;
        int o = key / SMK(K), e = key % SMK(K), r = o + e;
        int R = S->ltarget[l] - st->line[l].sum;
        if ((R ^ o) & 1) return false;
        int mn = minO[o] + minE[e], g1 = r * lo + S->gap[o][e][lo & 1];
        if (R < (mn > g1 ? mn : g1)) return false;
        int mx = maxO[o] + maxE[e], g2 = r * hi - S->gap[o][e][hi & 1];
        if (R > (mx < g2 ? mx : g2)) return false;
        if (r == 2 && !SMK(pair_ok)(S, st, l, R, rev)) return false;
    }
    return true;
}

/* Assigned numbers between the ends must be reachable in order: the
 * knight distance between consecutive ones at most their difference. */
static inline bool SMK(order_ok)(const kti_sm_plan *S, const SMK(state) *st)
{
    int lo = st->lo, hi = st->hi;
    int hh = st->pos[hi + 1];
    int pk = lo - 1, pc = st->pos[pk];
    for (smk_set A = S_ANDN(S_RANGE(lo - 1, hi), st->freen); S_NZ(A); A = S_DROP(A)) {
        int k = S_CTZ(A) + 1, c = st->pos[k];
        if (S->dist[pc][c] > k - pk) return false;
        pk = k;
        pc = c;
    }
    return S->dist[pc][hh] <= hi + 1 - pk;
}

/* The knight moves of every cell of X, as 8 direction sets. */
static inline void SMK(dirs)(smk_set X, smk_set *dir)
{
    smk_set l1 = S_AND(S_SHR(X, 1), SMK_L1), l2 = S_AND(S_SHR(X, 2), SMK_L2);
    smk_set r1 = S_AND(S_SHL(X, 1), SMK_R1), r2 = S_AND(S_SHL(X, 2), SMK_R2);
    dir[0] = S_SHL(l1, 2 * SMK_STRIDE);
    dir[1] = S_SHR(l1, 2 * SMK_STRIDE);
    dir[2] = S_SHL(r1, 2 * SMK_STRIDE);
    dir[3] = S_SHR(r1, 2 * SMK_STRIDE);
    dir[4] = S_SHL(l2, SMK_STRIDE);
    dir[5] = S_SHR(l2, SMK_STRIDE);
    dir[6] = S_SHL(r2, SMK_STRIDE);
    dir[7] = S_SHR(r2, SMK_STRIDE);
}

/* The cells attacked at least once, twice and three times from X. */
static inline void SMK(counts)(smk_set X, smk_set *g1, smk_set *g2, smk_set *g3)
{
    smk_set dir[8];
    SMK(dirs)(X, dir);
    smk_set a = S_ZERO, b = S_ZERO, c = S_ZERO;
    for (int m = 0; m < 8; m++) {
        c = S_OR(c, S_AND(b, dir[m]));
        b = S_OR(b, S_AND(a, dir[m]));
        a = S_OR(a, dir[m]);
    }
    *g1 = a;
    *g2 = b;
    *g3 = c;
}

/* Degrees: every unvisited cell needs two usable neighbours (the path
 * ends count); a cell with exactly two next to an end forces that end's
 * move (*fl, *fh), and no cell can take three forced edges. */
static inline bool SMK(degrees_ok)(const kti_sm_plan *S, const SMK(state) *st, smk_set *fl,
                                   smk_set *fh)
{
    int hl = st->pos[st->lo - 1], hh = st->pos[st->hi + 1];
    smk_set U = st->unvis;
    smk_set X = S_OR(U, S_OR(S_BIT(hl), S_BIT(hh)));
    smk_set g1, g2, g3;
    SMK(counts)(X, &g1, &g2, &g3);
    if (S_NZ(S_ANDN(U, g2))) return false;
    smk_set f2 = S_ANDN(U, g3);
    smk_set xl = S_AND(f2, S_FROM(S->att[hl])), xh = S_AND(f2, S_FROM(S->att[hh]));
    if (S_MULTI(xl) || S_MULTI(xh)) return false;
    if (S_NZ(xl) && S_EQ(xl, xh) && S_MULTI(U)) return false;
    *fl = xl;
    *fh = xh;
    /* A cell with exactly two usable neighbours forces an edge to each;
     * no unvisited cell can take three forced edges. */
    if (S_NZ(f2)) {
        SMK(counts)(f2, &g1, &g2, &g3);
        if (S_NZ(S_AND(g3, U))) return false;
    }
    return true;
}

/* Union of the knight moves from every cell of b. */
static inline smk_set SMK(katt)(smk_set b)
{
    smk_set l1 = S_AND(S_SHR(b, 1), SMK_L1), l2 = S_AND(S_SHR(b, 2), SMK_L2);
    smk_set r1 = S_AND(S_SHL(b, 1), SMK_R1), r2 = S_AND(S_SHL(b, 2), SMK_R2);
    smk_set h1 = S_OR(l1, r1), h2 = S_OR(l2, r2);
    return S_OR(S_OR(S_SHL(h1, 2 * SMK_STRIDE), S_SHR(h1, 2 * SMK_STRIDE)),
                S_OR(S_SHL(h2, SMK_STRIDE), S_SHR(h2, SMK_STRIDE)));
}

/* Connectivity of the unvisited cells to the low end, and the high end
 * must touch them. */
static inline bool SMK(connected)(const kti_sm_plan *S, const SMK(state) *st)
{
    int hl = st->pos[st->lo - 1], hh = st->pos[st->hi + 1];
    smk_set U = st->unvis;
    smk_set reach = S_AND(S_FROM(S->att[hl]), U), prev = S_ZERO;
    while (!S_EQ(reach, prev)) {
        prev = reach;
        reach = S_OR(reach, S_AND(SMK(katt)(reach), U));
    }
    return S_EQ(reach, U) && S_NZ(S_AND(S_FROM(S->att[hh]), U));
}

/* Feasibility of a node, cheapest and strongest tests first; on success
 * *fl and *fh are the cells the low/high end is forced to (empty if none). */
static inline bool SMK(feasible)(const kti_sm_plan *S, const SMK(state) *st, smk_set *fl,
                                 smk_set *fh)
{
    if (S->nl && !SMK(lines_ok)(S, st)) return false;
    if (!SMK(order_ok)(S, st)) return false;
    if (!SMK(degrees_ok)(S, st, fl, fh)) return false;
    return SMK(connected)(S, st);
}

/* ---- depth-first search ---- */

/* The unvisited neighbours of the cells of cand, summed. */
static inline int SMK(onward)(const kti_sm_plan *S, smk_set cand, smk_set unvis)
{
    int n = 0;
    for (; S_NZ(cand); cand = S_DROP(cand)) n += S_POPC(S_AND(S_FROM(S->att[S_CTZ(cand)]), unvis));
    return n;
}

/* The moves of a feasible node: the candidate cells *cand of the end that
 * moves (*low: the low end), false when there is none.  fl, fh: the
 * forced cells from feasible(). */
static inline bool SMK(moves)(const kti_sm_plan *S, const SMK(state) *st, smk_set fl, smk_set fh,
                              smk_set *cand, int *low)
{
    int lo = st->lo, hi = st->hi;
    int hl = st->pos[lo - 1], hh = st->pos[hi + 1];
    smk_set cl, ch;
    if (st->pos[lo] != SMK_NONE) cl = S_AND(S_FROM(S->att[hl]), S_BIT(st->pos[lo]));
    else cl = S_ANDN(S_AND(S_FROM(S->att[hl]), st->unvis), st->asg);
    if (S_NZ(fl)) cl = S_AND(cl, fl);
    if (lo == hi) cl = S_AND(cl, S_FROM(S->att[hh]));
    if (!S_NZ(cl)) return false;
    *low = 1;
    if (lo < hi) {
        if (st->pos[hi] != SMK_NONE) ch = S_AND(S_FROM(S->att[hh]), S_BIT(st->pos[hi]));
        else ch = S_ANDN(S_AND(S_FROM(S->att[hh]), st->unvis), st->asg);
        if (S_NZ(fh)) ch = S_AND(ch, fh);
        if (!S_NZ(ch)) return false;
        /* Whole lines (S->balance 0): the end with fewer moves, and
         * between equals the end whose moves have fewer onward ones, so
         * the tree branches least (balanced ends, below, searched 1.3 to
         * 1.9 times the nodes there: bench_semimagic grid).  Half-lines:
         * forced moves first, then the end with fewer moves while the ends
         * stay within S->balance numbers of each other, else the end that
         * is behind, which keeps the free numbers centred on the
         * half-lines' average and their bounds tight (branching least
         * searched 4.8 times the nodes there). */
        int pl = S_POPC(cl), ph = S_POPC(ch);
        int imb = (lo - 1) - (S->N - hi);
        if (S->balance) {
            if (pl == 1) *low = 1;
            else if (ph == 1) *low = 0;
            else if (imb >= -S->balance && imb <= S->balance && pl != ph) *low = pl < ph;
            else *low = imb <= 0;
        } else if (pl != ph) {
            *low = pl < ph;
        } else {
            int dl = SMK(onward)(S, cl, st->unvis), dh = SMK(onward)(S, ch, st->unvis);
            *low = dl != dh ? dl < dh : imb <= 0;
        }
    } else {
        ch = S_ZERO;
    }
    *cand = *low ? cl : ch;
    return true;
}

/* The child of st by the move to c at the low or high end; false when
 * the numbers do not fit. */
static inline bool SMK(child)(const kti_sm_plan *S, const SMK(state) *st, int c, int low,
                              SMK(state) *child)
{
    memcpy(child, st, offsetof(SMK(state), line) + (size_t)S->nl * sizeof st->line[0]);
    if (low) {
        if (!SMK(visit)(S, child, c, st->lo)) return false;
        child->lo++;
    } else {
        if (!SMK(visit)(S, child, c, st->hi)) return false;
        child->hi--;
    }
    return true;
}

/* A complete numbering: hand it to emit in the public layout.  Out of
 * line, so the buffer is not on every frame of the search. */
static __attribute__((noinline)) int SMK(leaf)(kti_sm_worker *w, const SMK(state) *st, int depth)
{
    uint16_t num[KTI_SM_MAXC];
    for (int p = 0; p < w->S->N; p++) num[p] = st->val[w->S->p2i[p]];
    return w->emit(w, num, depth);
}

static int SMK(dfs)(kti_sm_worker *w, SMK(state) *st, int depth)
{
    const kti_sm_plan *S = w->S;
    if (KTI_UNLIKELY(++w->nodes >= w->period) && kti_sm_sync(w)) return 1;
    if (st->lo > st->hi) return SMK(leaf)(w, st, depth);
    smk_set fl, fh, cand;
    int low;
    if (!SMK(feasible)(S, st, &fl, &fh)) return 0;
    if (depth == w->limit) return w->emit(w, NULL, depth);
    if (!SMK(moves)(S, st, fl, fh, &cand, &low)) return 0;
    for (; S_NZ(cand); cand = S_DROP(cand)) {
        int c = S_CTZ(cand);
        SMK(state) child;
        if (!SMK(child)(S, st, c, low, &child)) continue;
        w->path[depth] = (uint16_t)(c | (low ? 0 : KTI_SM_HIGH));
        int r = SMK(dfs)(w, &child, depth + 1);
        if (r) return r;
    }
    return 0;
}

/* One random path below root (Knuth's estimator); *cost grows by the
 * nodes the probe looked at. */
static double SMK(probe)(const kti_sm_plan *S, const SMK(state) *root, kti_rng *rng, uint64_t *cost)
{
    SMK(state) st = *root, kids[8];
    double est = 1, width = 1;
    for (;;) {
        smk_set fl, fh, cand;
        int low, k = 0;
        if (st.lo > st.hi || !SMK(feasible)(S, &st, &fl, &fh) || !SMK(moves)(S, &st, fl, fh, &cand, &low))
            return est;
        for (; S_NZ(cand); cand = S_DROP(cand))
            if (SMK(child)(S, &st, S_CTZ(cand), low, &kids[k])) k++;
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
static bool SMK(root)(const kti_sm_plan *S, SMK(state) *st, int s)
{
    SMK(state_empty)(S, st, S->col[s]);
    for (int i = 0; i < SMK_CELLS; i++) {
        int k = S->given[i];
        if (!k) continue;
        if (st->val[i]) {
            if (st->val[i] != k) return false;
        } else if (!SMK(assign)(S, st, i, k)) {
            return false;
        }
    }
    if (!SMK(visit)(S, st, s, 1)) return false;
    st->lo = 2;
    return true;
}

static bool SMK(root_end)(const kti_sm_plan *S, SMK(state) *st, int e)
{
    /* With two cells the path is complete at the root, before any move
     * could check that 1 and N are a knight's move apart. */
    if (S->N == 2 && !kti_sm_w_has(&S->att[st->pos[1]], e)) return false;
    if (!SMK(visit)(S, st, e, S->N)) return false;
    st->hi = S->N - 1;
    return true;
}

/* Rebuild the state at a prefix; false if it fails (it cannot: the unit
 * was reached by the same moves). */
static bool SMK(replay)(const kti_sm_plan *S, const kti_sm_prefix *p, SMK(state) *st)
{
    if (!SMK(root)(S, st, p->start) || !SMK(root_end)(S, st, p->end)) return false;
    for (int i = 0; i < p->len; i++) {
        int c = p->step[i] & ~KTI_SM_HIGH;
        if (p->step[i] & KTI_SM_HIGH) {
            if (!SMK(visit)(S, st, c, st->hi)) return false;
            st->hi--;
        } else {
            if (!SMK(visit)(S, st, c, st->lo)) return false;
            st->lo++;
        }
    }
    return true;
}

static int SMK(search_unit)(kti_sm_worker *w, const kti_sm_prefix *p)
{
    SMK(state) st;
    return SMK(replay)(w->S, p, &st) ? SMK(dfs)(w, &st, 0) : 0;
}

static double SMK(estimate_unit)(const kti_sm_plan *S, const kti_sm_prefix *p, uint64_t seed,
                                 uint64_t cap)
{
    SMK(state) st;
    double sum = 0;
    int k = 0;
    if (SMK(replay)(S, p, &st)) {
        kti_rng rng;
        kti_rng_seed(&rng, seed);
        uint64_t cost = 0;
        while (k < KTI_SM_PROBES) {
            sum += SMK(probe)(S, &st, &rng, &cost);
            k++;
            if ((double)cost > sum / k || cost > cap) break;
        }
    }
    return k ? sum / k : 1;
}

/* The prefix leaves of every root pair, through w (limit, emit, ctx set). */
static kt_status SMK(prefixes)(const kti_sm_plan *S, kti_sm_worker *w)
{
    for (int ps = 0; ps < S->N; ps++) {
        int s = S->p2i[ps];
        if (!kti_sm_w_any(&S->rootend[s])) continue;
        SMK(state) r0;
        if (!SMK(root)(S, &r0, s)) continue;
        smk_set eb = S_FROM(S->rootend[s]);
        if (S->flags & KT_SEMIMAGIC_CLOSED) eb = S_AND(eb, S_FROM(S->att[s]));
        for (; S_NZ(eb); eb = S_DROP(eb)) {
            int e = S_CTZ(eb);
            SMK(state) r1 = r0;
            if (!SMK(root_end)(S, &r1, e)) continue;
            w->start = (uint16_t)s;
            w->end = (uint16_t)e;
            if (SMK(dfs)(w, &r1, 0)) return (kt_status)atomic_load(&w->sh->status);
        }
    }
    return KT_OK;
}
