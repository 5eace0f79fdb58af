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
            int p = y * n + x, i = y * 8 + x;
            S->i2p[i] = (uint8_t)p;
            S->p2i[p] = (uint8_t)i;
            S->board |= 1ull << i;
            S->col[i] = (uint8_t)((x + y) & 1);
            S->given[i] = o->given[p];
            for (int t = 0; t < 8; t++) {
                int tx, ty;
                sm_transform(n, S->h, t, x, y, &tx, &ty);
                S->tmap[t][p] = (uint8_t)(ty * n + tx);
            }
        }
}

/* Knight attack masks and all-pairs knight distances (255 = unreachable),
 * the latter for the reachability test of pencilled numbers. */
static void sm_plan_moves(kti_sm_plan *S)
{
    static const int kdx[8] = {2, 1, -1, -2, -2, -1, 1, 2};
    static const int kdy[8] = {-1, -2, -2, -1, 1, 2, 2, 1};
    int n = S->n;
    for (int y = 0; y < S->h; y++)
        for (int x = 0; x < n; x++) {
            uint64_t a = 0;
            for (int m = 0; m < 8; m++) {
                int u = x + kdx[m], v = y + kdy[m];
                if (u >= 0 && v >= 0 && u < n && v < S->h) a |= 1ull << (v * 8 + u);
            }
            S->att[y * 8 + x] = a;
        }
    memset(S->dist, 0xFF, sizeof S->dist);
    for (uint64_t b = S->board; b; b &= b - 1) {
        int s = kti_sm_ctz(b);
        uint64_t seen = 1ull << s, front = seen;
        int d = 0;
        S->dist[s][s] = 0;
        while (front) {
            d++;
            uint64_t nf = 0;
            for (uint64_t f = front; f; f &= f - 1) nf |= S->att[kti_sm_ctz(f)];
            nf &= ~seen;
            seen |= nf;
            for (uint64_t f = nf; f; f &= f - 1) S->dist[s][kti_sm_ctz(f)] = (uint8_t)d;
            front = nf;
        }
    }
}

static void sm_add_line(kti_sm_plan *S, uint64_t mask, int target)
{
    S->line[S->nl++] = (kti_sm_line){mask, target};
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
                uint64_t r = 0, c = 0;
                for (int k = 0; k < h; k++) {
                    r |= 1ull << (y * 8 + part * h + k);
                    c |= 1ull << ((part * h + k) * 8 + y);
                }
                sm_add_line(S, r, full / 2);
                sm_add_line(S, c, full / 2);
            }
    } else {
        for (int y = 0; rows && y < S->h; y++) {
            uint64_t r = 0;
            for (int k = 0; k < n; k++) r |= 1ull << (y * 8 + k);
            sm_add_line(S, r, n * (S->N + 1) / 2);
        }
        for (int x = 0; cols && x < n; x++) {
            uint64_t c = 0;
            for (int k = 0; k < S->h; k++) c |= 1ull << (k * 8 + x);
            sm_add_line(S, c, S->h * (S->N + 1) / 2);
        }
    }
    if (S->flags & KT_SEMIMAGIC_MAGIC) {
        uint64_t d1 = 0, d2 = 0;
        for (int k = 0; k < n; k++) {
            d1 |= 1ull << (k * 8 + k);
            d2 |= 1ull << (k * 8 + n - 1 - k);
        }
        sm_add_line(S, d1, full);
        sm_add_line(S, d2, full);
    }
}

/* Least sum of offsets: next offset prev + 2 (same parity) or prev + 3. */
static int sm_gap_rec(int o, int e, int par, int prev, int sum)
{
    if (o == 0 && e == 0) return sum;
    int best = KTI_SM_BIG;
    for (int step = 0; step < 2; step++) {
        int x = prev < 0 ? step : prev + 2 + step;
        int odd = (par + x) & 1;
        if (odd ? o == 0 : e == 0) continue;
        int v = sm_gap_rec(o - odd, e - !odd, par, x, sum + x);
        if (v < best) best = v;
    }
    return best;
}

/* The lines through each cell, the most cells of one colour in a line,
 * and the gap table up to that count. */
static void sm_plan_gaps(kti_sm_plan *S)
{
    for (int l = 0; l < S->nl; l++) {
        int c0 = 0, c1 = 0;
        for (uint64_t b = S->line[l].mask; b; b &= b - 1) {
            int i = kti_sm_ctz(b);
            S->lof[i][S->nlof[i]++] = (uint8_t)l;
            if (S->col[i]) c1++;
            else c0++;
        }
        if (c0 > S->maxneed) S->maxneed = c0;
        if (c1 > S->maxneed) S->maxneed = c1;
    }
    for (int a = 0; a <= S->maxneed; a++)
        for (int b = 0; b <= S->maxneed; b++)
            for (int par = 0; par < 2; par++)
                S->gap[a][b][par] = (int16_t)sm_gap_rec(a, b, par, -1, 0);
}

/* Symmetries h = (board map t & 7, reversal if t & 8) that preserve
 * every constraint.  All line constraints are invariant under both
 * (every target is half the line length times N + 1); a reversal swaps
 * the roles of the start and end cells and maps given k to N + 1 - k.
 * sp and ep are the allowed cells of 1 and N (public layout). */
static void sm_plan_symmetries(kti_sm_plan *S, const kt_semimagic_opts *o, uint64_t sp,
                               uint64_t ep)
{
    int N = S->N;
    for (int t = 0; t < 16; t++) {
        int ok = kti_sm_map_ok(S, t), rev = t & 8;
        uint64_t s1 = rev ? ep : sp, e1 = rev ? sp : ep;
        for (int p = 0; p < N && ok; p++) {
            int q = S->tmap[t & 7][p];
            int gp = o->given[p], gq = o->given[q];
            if (rev && gp) gp = N + 1 - gp;
            if (gp != gq) ok = 0;
            if ((s1 >> p & 1) != (sp >> q & 1)) ok = 0;
            if ((e1 >> p & 1) != (ep >> q & 1)) ok = 0;
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
static void sm_plan_roots(kti_sm_plan *S, uint64_t sp, uint64_t ep)
{
    for (int ps = 0; ps < S->N; ps++) {
        if (!(sp >> ps & 1)) continue;
        for (int pe = 0; pe < S->N; pe++) {
            if (!(ep >> pe & 1) || pe == ps) continue;
            if (S->sym == KT_SEMIMAGIC_ALL || sm_root_is_rep(S, ps, pe))
                S->rootend[S->p2i[ps]] |= 1ull << S->p2i[pe];
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
    sm_plan_cells(S, o);
    sm_plan_moves(S);
    sm_plan_lines(S);
    sm_plan_gaps(S);
    /* Start and end cells: public masks for the symmetry tests, internal
     * ones for the search. */
    uint64_t all = N == 64 ? ~0ull : (1ull << N) - 1;
    uint64_t sp = o->startm ? o->startm : all, ep = o->endm ? o->endm : all;
    for (int p = 0; p < N; p++) {
        if (sp >> p & 1) S->startm |= 1ull << S->p2i[p];
        if (ep >> p & 1) S->endm |= 1ull << S->p2i[p];
    }
    sm_plan_symmetries(S, o, sp, ep);
    sm_plan_roots(S, sp, ep);
}

int kti_sm_check(const kti_sm_plan *S, const uint8_t *num)
{
    int n = S->n, N = S->N;
    uint8_t pos[65];
    memset(pos, KTI_SM_NONE, sizeof pos);
    for (int p = 0; p < N; p++) {
        int k = num[p];
        if (k < 1 || k > N || pos[k] != KTI_SM_NONE) return 0;
        pos[k] = (uint8_t)p;
    }
    for (int k = 1; k <= N; k++) {
        int a = pos[k], b = k < N ? pos[k + 1] : pos[1];
        if (k == N && !(S->flags & KT_SEMIMAGIC_CLOSED)) break;
        int dx = abs(a % n - b % n), dy = abs(a / n - b / n);
        if (!((dx == 1 && dy == 2) || (dx == 2 && dy == 1))) return 0;
    }
    for (int l = 0; l < S->nl; l++) {
        int s = 0;
        for (uint64_t b = S->line[l].mask; b; b &= b - 1) s += num[S->i2p[kti_sm_ctz(b)]];
        if (s != S->line[l].target) return 0;
    }
    if (!(S->startm >> S->p2i[pos[1]] & 1)) return 0;
    if (!(S->endm >> S->p2i[pos[N]] & 1)) return 0;
    for (int p = 0; p < N; p++)
        if (S->given[S->p2i[p]] && S->given[S->p2i[p]] != num[p]) return 0;
    return 1;
}

void kti_sm_image(const kti_sm_plan *S, int t, const uint8_t *num, uint8_t *img)
{
    int N = S->N;
    if (t & 8)
        for (int p = 0; p < N; p++) img[S->tmap[t & 7][p]] = (uint8_t)(N + 1 - num[p]);
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
    uint8_t num[64];
    for (size_t p = 0; p < N; p++) {
        if (numbers[p] < 1 || numbers[p] > N) return KT_OK;
        num[p] = (uint8_t)numbers[p];
    }
    kti_sm_plan *S = kti_alloc(&o->al, sizeof *S);
    if (S == NULL) return KT_ENOMEM;
    kti_sm_plan_init(S, o, o->sym);
    *ok = kti_sm_check(S, num);
    kti_free(&o->al, S);
    return KT_OK;
}
