/* SPDX-License-Identifier: MIT */
/*
 * The static plan of one semimagic search: everything that depends only on
 * the constraints, computed once before the search (board masks, knight
 * distances, the lines and their targets, the gap table of the line
 * bounds, the symmetries that preserve the constraints and the root pairs
 * they leave), and the full check of a numbering against it.
 */
#include "semimagic_internal.h"

#include <stdlib.h>

/* Board map t of a w x h board (a transpose, t & 4, only when square). */
static void sm_transform(int w, int h, int t, int x, int y, int *ox, int *oy)
{
    if ((t & 4) && w == h) {
        int s = x;
        x = y;
        y = s;
    }
    if (t & 1) x = w - 1 - x;
    if (t & 2) y = h - 1 - y;
    *ox = x;
    *oy = y;
}

/* The two cell layouts, the board mask, colours, given numbers and the
 * images of every cell under the 8 board symmetries. */
static void sm_plan_cells(kti_sm_plan *S, const kt_semimagic_opts *o)
{
    int n = S->n;
    for (int y = 0; y < S->h; y++)
        for (int x = 0; x < n; x++) {
            int p = y * n + x, i = y * S->stride + x;
            S->i2p[i] = (uint16_t)p;
            S->p2i[p] = (uint16_t)i;
            kti_sm_w_add(&S->board, i);
            S->col[i] = (uint8_t)((x + y) & 1);
            S->given[i] = o->given[p];
            for (int t = 0; t < 8; t++) {
                int tx, ty;
                sm_transform(n, S->h, t, x, y, &tx, &ty);
                S->tmap[t][p] = (uint16_t)(ty * n + tx);
            }
        }
}

/* Knight attack masks and all-pairs knight distances (255 = unreachable),
 * the latter for the reachability test of pencilled numbers (breadth
 * first from every cell, with a queue of internal cells). */
static void sm_plan_moves(kti_sm_plan *S)
{
    static const int kdx[8] = {2, 1, -1, -2, -2, -1, 1, 2};
    static const int kdy[8] = {-1, -2, -2, -1, 1, 2, 2, 1};
    int n = S->n, W = S->stride;
    for (int y = 0; y < S->h; y++)
        for (int x = 0; x < n; x++)
            for (int m = 0; m < 8; m++) {
                int u = x + kdx[m], v = y + kdy[m];
                if (u >= 0 && v >= 0 && u < n && v < S->h) kti_sm_w_add(&S->att[y * W + x], v * W + u);
            }
    memset(S->dist, 0xFF, sizeof S->dist);
    uint16_t queue[KTI_SM_MAXC];
    for (int p = 0; p < S->N; p++) {
        int s = S->p2i[p], head = 0, tail = 0;
        uint8_t *d = S->dist[s];
        d[s] = 0;
        queue[tail++] = (uint16_t)s;
        while (head < tail) {
            int c = queue[head++];
            for (int m = 0; m < 8; m++) {
                int u = c % W + kdx[m], v = c / W + kdy[m], t = v * W + u;
                if (u < 0 || v < 0 || u >= n || v >= S->h || d[t] != 0xFF) continue;
                d[t] = (uint8_t)(d[c] + 1);
                queue[tail++] = (uint16_t)t;
            }
        }
    }
}

static void sm_add_line(kti_sm_plan *S, const kti_sm_wset *mask, int target)
{
    S->lmask[S->nl] = *mask;
    S->ltarget[S->nl++] = target;
}

/* The line of len cells from (x, y) in steps (dx, dy). */
static void sm_line(kti_sm_plan *S, int x, int y, int dx, int dy, int len, int target)
{
    kti_sm_wset m;
    memset(&m, 0, sizeof m);
    for (int k = 0; k < len; k++) kti_sm_w_add(&m, (y + k * dy) * S->stride + x + k * dx);
    sm_add_line(S, &m, target);
}

/* The constrained lines: rows and columns (or, nested, their halves) and
 * the two long diagonals for magic tours.  A line of k cells sums to
 * k(N+1)/2, the average number times k (the options refuse the lines
 * whose sum is not an integer). */
static void sm_plan_lines(kti_sm_plan *S)
{
    int n = S->n, full = n * (S->N + 1) / 2;
    bool rows = S->flags & (KT_SEMIMAGIC_LINES | KT_SEMIMAGIC_ROWS);
    bool cols = S->flags & (KT_SEMIMAGIC_LINES | KT_SEMIMAGIC_COLUMNS);
    if (S->flags & KT_SEMIMAGIC_NESTED) {
        int h = n / 2;
        for (int y = 0; y < n; y++)
            for (int part = 0; part < 2; part++) {
                sm_line(S, part * h, y, 1, 0, h, full / 2);
                sm_line(S, y, part * h, 0, 1, h, full / 2);
            }
    } else {
        for (int y = 0; rows && y < S->h; y++) sm_line(S, 0, y, 1, 0, n, n * (S->N + 1) / 2);
        for (int x = 0; cols && x < n; x++) sm_line(S, x, 0, 0, 1, S->h, S->h * (S->N + 1) / 2);
    }
    if (S->flags & KT_SEMIMAGIC_MAGIC) {
        sm_line(S, 0, 0, 1, 1, n, full);
        sm_line(S, n - 1, 0, -1, 1, n, full);
    }
}

/* The gap table by dynamic programming.  After an offset v, the k
 * numbers still to place each add the next step (2 keeps the parity, 3
 * flips it) on top of v, so their least sum is k * v + h(o, e, q), where
 * h depends only on the odd and even numbers left (o, e) and the parity
 * q of the number at v: h(o, e, q) = min over the step s of
 * k * s + h(o', e', q'). */
static void sm_gap_table(kti_sm_plan *S)
{
    enum { M = KTI_SM_MAXK + 1 };
    int h[M][M][2];
    for (int k = 0; k <= 2 * KTI_SM_MAXK; k++)
        for (int o = 0; o < M; o++) {
            int e = k - o;
            if (e < 0 || e >= M) continue;
            for (int q = 0; q < 2; q++) {
                int best = k == 0 ? 0 : KTI_SM_BIG;
                for (int st = 2; st <= 3 && k; st++) {
                    int q2 = st == 2 ? q : !q;
                    if (q2 ? o == 0 : e == 0) continue;
                    int v = k * st + h[o - q2][e - !q2][q2];
                    if (v < best) best = v;
                }
                h[o][e][q] = best;
            }
        }
    /* The first offset is 0 or 1 above the base. */
    for (int o = 0; o < M; o++)
        for (int e = 0; e < M; e++)
            for (int par = 0; par < 2; par++) {
                int k = o + e, best = k == 0 ? 0 : KTI_SM_BIG;
                for (int x = 0; x < 2 && k; x++) {
                    int q = (par + x) & 1;
                    if (q ? o == 0 : e == 0) continue;
                    int v = k * x + h[o - q][e - !q][q];
                    if (v < best) best = v;
                }
                S->gap[o][e][par] = (int16_t)best;
            }
}

/* The lines through each cell, the most cells of one colour in a line,
 * and the gap table up to that count. */
static void sm_plan_gaps(kti_sm_plan *S)
{
    for (int l = 0; l < S->nl; l++) {
        int c0 = 0, c1 = 0;
        for (int i = 0; i < KTI_SM_MAXC; i++) {
            if (!kti_sm_w_has(&S->lmask[l], i)) continue;
            S->lof[i][S->nlof[i]++] = (uint8_t)l;
            if (S->col[i]) c1++;
            else c0++;
        }
        if (c0 > S->maxneed) S->maxneed = c0;
        if (c1 > S->maxneed) S->maxneed = c1;
    }
    sm_gap_table(S);
}

/* Symmetries h = (board map t & 7, reversal if t & 8) that preserve
 * every constraint.  All line constraints are invariant under both
 * (every target is half the line length times N + 1); a reversal swaps
 * the roles of the start and end cells and maps given k to N + 1 - k.
 * sp and ep are the allowed cells of 1 and N (public layout). */
static void sm_plan_symmetries(kti_sm_plan *S, const kt_semimagic_opts *o, const kti_sm_wset *sp,
                               const kti_sm_wset *ep)
{
    int N = S->N;
    for (int t = 0; t < 16; t++) {
        int ok = kti_sm_map_ok(S, t), rev = t & 8;
        const kti_sm_wset *s1 = rev ? ep : sp, *e1 = rev ? sp : ep;
        for (int p = 0; p < N && ok; p++) {
            int q = S->tmap[t & 7][p];
            int gp = o->given[p], gq = o->given[q];
            if (rev && gp) gp = N + 1 - gp;
            if (gp != gq) ok = 0;
            if (kti_sm_w_has(s1, p) != kti_sm_w_has(sp, q)) ok = 0;
            if (kti_sm_w_has(e1, p) != kti_sm_w_has(ep, q)) ok = 0;
        }
        S->symok[t] = (uint8_t)ok;
    }
}

/* Whether (ps, pe) is the smallest pair of its orbit under the preserving
 * symmetries (a reversal swaps the cells of 1 and N). */
static int sm_root_is_rep(const kti_sm_plan *S, int ps, int pe)
{
    for (int t = 1; t < 16; t++) {
        if (!S->symok[t]) continue;
        int a = S->tmap[t & 7][ps], b = S->tmap[t & 7][pe];
        if (t & 8) {
            int x = a;
            a = b;
            b = x;
        }
        if (a < ps || (a == ps && b < pe)) return 0;
    }
    return 1;
}

/* Root pairs (cell of 1, cell of N): the smallest (start, end) pair of
 * each orbit (all pairs in ALL mode, which reports every member). */
static void sm_plan_roots(kti_sm_plan *S, const kti_sm_wset *sp, const kti_sm_wset *ep)
{
    for (int ps = 0; ps < S->N; ps++) {
        if (!kti_sm_w_has(sp, ps)) continue;
        for (int pe = 0; pe < S->N; pe++) {
            if (!kti_sm_w_has(ep, pe) || pe == ps) continue;
            if (S->sym == KT_SEMIMAGIC_ALL || sm_root_is_rep(S, ps, pe))
                kti_sm_w_add(&S->rootend[S->p2i[ps]], S->p2i[pe]);
        }
    }
}

void kti_sm_plan_init(kti_sm_plan *S, const kt_semimagic_opts *o, kt_semimagic_symmetry sym)
{
    memset(S, 0, sizeof *S);
    int n = (int)o->w, N = n * (int)o->h;
    S->n = n;
    S->h = (int)o->h;
    S->N = N;
    S->nb = (size_t)N;
    S->flags = o->flags;
    S->sym = sym;
    /* Nested searches keep their two ends' numbers balanced; searches on
     * whole lines branch least, which measured fewer nodes on each (see
     * the kernel's moves). */
    S->balance = o->flags & KT_SEMIMAGIC_NESTED ? 3 : 0;
    /* A one-word kernel whenever the board fits in 64 bits of a layout. */
    bool big = n > KTI_SM_MAXN || S->h > KTI_SM_MAXN;
    S->kernel = !big ? KTI_SM_NARROW : S->h <= 64 / KTI_SM_MAXS ? KTI_SM_LONG : KTI_SM_WIDE;
    S->stride = big ? KTI_SM_MAXS : KTI_SM_MAXN;
    sm_plan_cells(S, o);
    if (o->flags & KT_SEMIMAGIC_HALFTURN) {
        /* Board map 3 mirrors both ways: the half-turn.  With N odd the
         * centre is its own image, so no numbering passes (assign and
         * kti_sm_check both refuse it). */
        S->half = N / 2;
        for (int p = 0; p < N; p++) S->opp[S->p2i[p]] = S->p2i[S->tmap[3][p]];
    }
    sm_plan_moves(S);
    sm_plan_lines(S);
    sm_plan_gaps(S);
    /* Start and end cells: public sets for the symmetry tests, internal
     * ones for the search. */
    kti_sm_wset sp = o->startm, ep = o->endm;
    if (!kti_sm_w_any(&sp) || !kti_sm_w_any(&ep))
        for (int p = 0; p < N; p++) {
            if (!kti_sm_w_any(&o->startm)) kti_sm_w_add(&sp, p);
            if (!kti_sm_w_any(&o->endm)) kti_sm_w_add(&ep, p);
        }
    for (int p = 0; p < N; p++) {
        if (kti_sm_w_has(&sp, p)) kti_sm_w_add(&S->startm, S->p2i[p]);
        if (kti_sm_w_has(&ep, p)) kti_sm_w_add(&S->endm, S->p2i[p]);
    }
    sm_plan_symmetries(S, o, &sp, &ep);
    sm_plan_roots(S, &sp, &ep);
}

int kti_sm_check(const kti_sm_plan *S, const uint16_t *num)
{
    int n = S->n, N = S->N;
    uint16_t pos[KTI_SM_MAXC + 1];
    memset(pos, 0xFF, sizeof pos);
    for (int p = 0; p < N; p++) {
        int k = num[p];
        if (k < 1 || k > N || pos[k] != 0xFFFF) return 0;
        pos[k] = (uint16_t)p;
    }
    for (int k = 1; k <= N; k++) {
        int a = pos[k], b = k < N ? pos[k + 1] : pos[1];
        if (k == N && !(S->flags & KT_SEMIMAGIC_CLOSED)) break;
        int dx = abs(a % n - b % n), dy = abs(a / n - b / n);
        if (!((dx == 1 && dy == 2) || (dx == 2 && dy == 1))) return 0;
    }
    for (int l = 0; l < S->nl; l++) {
        int s = 0;
        for (int p = 0; p < N; p++)
            if (kti_sm_w_has(&S->lmask[l], S->p2i[p])) s += num[p];
        if (s != S->ltarget[l]) return 0;
    }
    if (S->half)
        for (int p = 0; p < N; p++)
            if (num[S->tmap[3][p]] != kti_sm_partner(S, num[p])) return 0;
    if (!kti_sm_w_has(&S->startm, S->p2i[pos[1]])) return 0;
    if (!kti_sm_w_has(&S->endm, S->p2i[pos[N]])) return 0;
    for (int p = 0; p < N; p++)
        if (S->given[S->p2i[p]] && S->given[S->p2i[p]] != num[p]) return 0;
    return 1;
}

void kti_sm_image(const kti_sm_plan *S, int t, const uint16_t *num, uint16_t *img)
{
    int N = S->N;
    if (t & 8)
        for (int p = 0; p < N; p++) img[S->tmap[t & 7][p]] = (uint16_t)(N + 1 - num[p]);
    else
        for (int p = 0; p < N; p++) img[S->tmap[t][p]] = num[p];
}

kt_status kt_semimagic_check(const kt_semimagic_opts *o, const uint32_t *numbers, size_t count,
                             int *ok)
{
    if (o == NULL || numbers == NULL || ok == NULL) return KT_EINVAL;
    size_t N = (size_t)o->w * o->h;
    if (count != N) return KT_EINVAL;
    *ok = 0;
    uint16_t num[KTI_SM_MAXC];
    for (size_t p = 0; p < N; p++) {
        if (numbers[p] < 1 || numbers[p] > N) return KT_OK;
        num[p] = (uint16_t)numbers[p];
    }
    kti_sm_plan *S = kti_alloc(&o->al, sizeof *S);
    if (S == NULL) return KT_ENOMEM;
    kti_sm_plan_init(S, o, o->sym);
    *ok = kti_sm_check(S, num);
    kti_free(&o->al, S);
    return KT_OK;
}
