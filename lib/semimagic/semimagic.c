/* SPDX-License-Identifier: MIT */
/*
 * Numbered knight's tours under line-sum constraints (semimagic, nested,
 * magic), with fixed start/end cells and given numbers.
 *
 * The engine grows the path from both ends at once: numbers 1, 2, ... from
 * the cell of 1 and n^2, n^2-1, ... from the cell of n^2; at every node it
 * extends the end with fewer candidate moves.  The numbers still to place
 * are then exactly the interval [lo, hi] minus the "pencilled" ones, which
 * bounds every line from both sides at once.  Per node:
 *  - bitboards (internal cell index y*8+x) for unvisited cells, with
 *    precomputed knight attack masks;
 *  - each line (row, half-row, column, half-column, diagonal) keeps its sum
 *    and its unnumbered cells per colour; a knight alternates colours, so
 *    every cell's number parity is fixed by the colour of 1.  A line's
 *    remaining sum must lie between the smallest and the largest sums of
 *    that many free numbers of the right parities, and with two cells left
 *    a pair of free numbers must add up to it exactly;
 *  - a line with one cell left forces ("pencils in") that cell's number;
 *    the pencilled numbers must be reachable in order: the knight distance
 *    between consecutive assigned numbers may not exceed their difference;
 *  - every unvisited cell needs two usable neighbours (both path ends are
 *    fixed), a cell with exactly two next to an end forces that end's
 *    move, and the unvisited cells must stay connected.
 * The tree is split into subtrees (prefixes of a few moves) that workers
 * search independently; results are delivered in prefix order, which is
 * the sequential depth-first order.
 */
#include "internal.h"

#include <knight/semimagic.h>

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define SM_MAXN 8
#define SM_MAXL 40
#define SM_NONE 0xFFu
#define SM_BIG (1 << 20)
#define SM_ODD 0x5555555555555555ull /* bit k-1 for odd k */
#define SM_PREFIX_DEPTH 3

/* ------------------------------------------------------------------ */
/* Options                                                             */

struct kt_semimagic_opts {
    kt_allocator al;
    uint32_t n;
    unsigned flags;
    uint64_t startm, endm; /* public-index bitmasks; 0 = any */
    uint8_t given[64];     /* public index; 0 = free */
    unsigned threads;
    kt_semimagic_symmetry sym;
    kt_progress_fn prog;
    void *puser;
};

struct kt_semimagic_solution {
    uint32_t n;
    uint32_t num[64];
    uint64_t cls;
    uint32_t size, member, nsat;
    int sat;
    uint64_t rev;
    int revsat;
};


kt_status kt_semimagic_opts_new(kt_semimagic_opts **out, uint32_t n, const kt_allocator *alloc)
{
    if (out == NULL) return KT_EINVAL;
    *out = NULL;
    if (alloc != NULL && (alloc->alloc == NULL || alloc->free == NULL)) return KT_EINVAL;
    if (n < 3 || n > SM_MAXN) return KT_EUNSUPPORTED;
    kt_allocator al = *kti_allocator_or_default(alloc);
    kt_semimagic_opts *o = kti_alloc(&al, sizeof *o);
    if (o == NULL) return KT_ENOMEM;
    memset(o, 0, sizeof *o);
    o->al = al;
    o->n = n;
    o->flags = KT_SEMIMAGIC_LINES;
    o->threads = 1;
    o->sym = KT_SEMIMAGIC_CLASSES;
    *out = o;
    return KT_OK;
}

void kt_semimagic_opts_free(kt_semimagic_opts *o)
{
    if (o == NULL) return;
    kt_allocator al = o->al;
    kti_free(&al, o);
}

uint32_t kt_semimagic_opts_size(const kt_semimagic_opts *o)
{
    return o ? o->n : 0;
}

kt_status kt_semimagic_opts_set_flags(kt_semimagic_opts *o, unsigned flags)
{
    if (o == NULL) return KT_EINVAL;
    if (flags & ~(unsigned)(KT_SEMIMAGIC_LINES | KT_SEMIMAGIC_NESTED | KT_SEMIMAGIC_MAGIC | KT_SEMIMAGIC_CLOSED))
        return KT_EINVAL;
    if ((flags & KT_SEMIMAGIC_NESTED) && o->n % 4 != 0) return KT_EUNSUPPORTED;
    if (flags & (KT_SEMIMAGIC_NESTED | KT_SEMIMAGIC_MAGIC)) flags |= KT_SEMIMAGIC_LINES;
    o->flags = flags;
    return KT_OK;
}

unsigned kt_semimagic_opts_flags(const kt_semimagic_opts *o)
{
    return o ? o->flags : 0;
}

static kt_status sm_cells_mask(const kt_semimagic_opts *o, const kt_cell *cells, size_t count,
                               uint64_t *out)
{
    if (o == NULL || (cells == NULL && count > 0)) return KT_EINVAL;
    uint64_t m = 0;
    for (size_t i = 0; i < count; i++) {
        if (cells[i] >= o->n * o->n) return KT_EINVAL;
        m |= 1ull << cells[i];
    }
    *out = m;
    return KT_OK;
}

kt_status kt_semimagic_opts_set_start_cells(kt_semimagic_opts *o, const kt_cell *cells,
                                            size_t count)
{
    uint64_t m;
    kt_status st = sm_cells_mask(o, cells, count, &m);
    if (st == KT_OK) o->startm = m;
    return st;
}

kt_status kt_semimagic_opts_set_end_cells(kt_semimagic_opts *o, const kt_cell *cells, size_t count)
{
    uint64_t m;
    kt_status st = sm_cells_mask(o, cells, count, &m);
    if (st == KT_OK) o->endm = m;
    return st;
}

static kt_status sm_column_mask(const kt_semimagic_opts *o, uint32_t x, uint64_t *out)
{
    if (o == NULL) return KT_EINVAL;
    if (x == KT_SEMIMAGIC_ANY) {
        *out = 0;
        return KT_OK;
    }
    if (x >= o->n) return KT_EINVAL;
    uint64_t m = 0;
    for (uint32_t y = 0; y < o->n; y++) m |= 1ull << (y * o->n + x);
    *out = m;
    return KT_OK;
}

kt_status kt_semimagic_opts_set_start_column(kt_semimagic_opts *o, uint32_t x)
{
    uint64_t m;
    kt_status st = sm_column_mask(o, x, &m);
    if (st == KT_OK) o->startm = m;
    return st;
}

kt_status kt_semimagic_opts_set_end_column(kt_semimagic_opts *o, uint32_t x)
{
    uint64_t m;
    kt_status st = sm_column_mask(o, x, &m);
    if (st == KT_OK) o->endm = m;
    return st;
}

kt_status kt_semimagic_opts_set_puzzle_rule(kt_semimagic_opts *o)
{
    if (o == NULL) return KT_EINVAL;
    kt_status st = kt_semimagic_opts_set_start_column(o, 0);
    if (st == KT_OK) st = kt_semimagic_opts_set_end_column(o, o->n - 1);
    return st;
}

kt_status kt_semimagic_opts_set_grid(kt_semimagic_opts *o, const uint32_t *numbers, size_t count)
{
    if (o == NULL) return KT_EINVAL;
    size_t N = (size_t)o->n * o->n;
    if (numbers == NULL) {
        if (count != 0) return KT_EINVAL;
        memset(o->given, 0, sizeof o->given);
        return KT_OK;
    }
    if (count != N) return KT_EINVAL;
    uint64_t seen = 0;
    for (size_t i = 0; i < N; i++) {
        uint32_t k = numbers[i];
        if (k == 0) continue;
        if (k > N) return KT_EINVAL;
        if (seen >> (k - 1) & 1u) return KT_EINVAL;
        seen |= 1ull << (k - 1);
    }
    memset(o->given, 0, sizeof o->given);
    for (size_t i = 0; i < N; i++) o->given[i] = (uint8_t)numbers[i];
    return KT_OK;
}

kt_status kt_semimagic_opts_set_threads(kt_semimagic_opts *o, unsigned threads)
{
    if (o == NULL || threads == 0 || threads > 256) return KT_EINVAL;
    o->threads = threads;
    return KT_OK;
}

kt_status kt_semimagic_opts_set_symmetry(kt_semimagic_opts *o, kt_semimagic_symmetry mode)
{
    if (o == NULL) return KT_EINVAL;
    if (mode != KT_SEMIMAGIC_CLASSES && mode != KT_SEMIMAGIC_MEMBERS && mode != KT_SEMIMAGIC_ALL) return KT_EINVAL;
    o->sym = mode;
    return KT_OK;
}

kt_status kt_semimagic_opts_set_progress(kt_semimagic_opts *o, kt_progress_fn fn, void *user)
{
    if (o == NULL) return KT_EINVAL;
    o->prog = fn;
    o->puser = user;
    return KT_OK;
}

/* Solution accessors. */
const uint32_t *kt_semimagic_solution_numbers(const kt_semimagic_solution *s)
{
    return s->num;
}
uint32_t kt_semimagic_solution_size(const kt_semimagic_solution *s)
{
    return s->n;
}
uint64_t kt_semimagic_solution_class(const kt_semimagic_solution *s)
{
    return s->cls;
}
uint32_t kt_semimagic_solution_class_size(const kt_semimagic_solution *s)
{
    return s->size;
}
uint32_t kt_semimagic_solution_member(const kt_semimagic_solution *s)
{
    return s->member;
}
int kt_semimagic_solution_satisfies(const kt_semimagic_solution *s)
{
    return s->sat;
}
uint32_t kt_semimagic_solution_class_satisfying(const kt_semimagic_solution *s)
{
    return s->nsat;
}
uint64_t kt_semimagic_solution_reverse_class(const kt_semimagic_solution *s)
{
    return s->rev;
}
int kt_semimagic_solution_reverse_satisfies(const kt_semimagic_solution *s)
{
    return s->revsat;
}

/* ------------------------------------------------------------------ */
/* Static search data                                                  */

typedef struct sm_line {
    uint64_t mask; /* internal cells */
    int target;
} sm_line;

typedef struct sm_static {
    int n, N;
    size_t nb; /* N as a size */
    unsigned flags;
    uint64_t board;
    uint64_t att[64];
    uint8_t dist[64][64];
    int nl;
    sm_line line[SM_MAXL];
    uint8_t nlof[64], lof[64][4];
    uint8_t col[64];
    uint8_t fam[SM_MAXL]; /* 0 = rows, 1 = columns (each partitions the board), 2 = diagonal */
    int maxneed;
    /* gap[o][e][p]: least sum of offsets b_i >= 0 such that base + b_i are
     * o odd and e even numbers, pairwise at least 2 apart (two cells of a
     * line are never a knight's move apart); p = parity of the base. */
    int16_t gap[SM_MAXN + 1][SM_MAXN + 1][2];
    uint8_t given[64];      /* internal index */
    uint64_t startm, endm;  /* internal, never 0 */
    uint64_t rootend[64];   /* per start cell (internal): end cells searched */
    uint8_t symok[16];      /* symmetries (t & 7 board, t & 8 reversal) preserving the constraints */
    uint8_t i2p[64], p2i[64];
    uint8_t tmap[8][64];    /* public cell -> image public cell */
    kt_semimagic_symmetry sym;
} sm_static;

typedef struct sm_state {
    uint64_t unvis; /* cells not yet on the path */
    uint64_t asg;   /* cells with a number (on the path, given or pencilled) */
    uint64_t freen; /* bit k-1: number k not assigned to any cell */
    int lo, hi;     /* next numbers to place at the low and high ends */
    int oddcol;     /* colour of the cells holding odd numbers */
    uint8_t val[64];
    uint8_t pos[66];
    int16_t lsum[SM_MAXL];
    uint8_t lrem[SM_MAXL][2]; /* free cells per colour */
    uint8_t lkey[SM_MAXL];    /* (free odd-number cells) * 9 + (free even-number cells) */
} sm_state;

static inline int sm_ctz(uint64_t x)
{
    return __builtin_ctzll(x);
}
static inline int sm_popc(uint64_t x)
{
    return __builtin_popcountll(x);
}

/* Union of the knight moves from every cell of b (8-wide layout). */
static inline uint64_t sm_katt(uint64_t b)
{
    uint64_t l1 = (b >> 1) & 0x7f7f7f7f7f7f7f7full, l2 = (b >> 2) & 0x3f3f3f3f3f3f3f3full;
    uint64_t r1 = (b << 1) & 0xfefefefefefefefeull, r2 = (b << 2) & 0xfcfcfcfcfcfcfcfcull;
    uint64_t h1 = l1 | r1, h2 = l2 | r2;
    return (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8);
}

static void sm_transform(int n, int t, int x, int y, int *ox, int *oy)
{
    if (t & 4) {
        int s = x;
        x = y;
        y = s;
    }
    if (t & 1) x = n - 1 - x;
    if (t & 2) y = n - 1 - y;
    *ox = x;
    *oy = y;
}

/* Least sum of offsets: next offset prev + 2 (same parity) or prev + 3. */
static int sm_gap_rec(int o, int e, int par, int prev, int sum)
{
    if (o == 0 && e == 0) return sum;
    int best = SM_BIG;
    for (int step = 0; step < 2; step++) {
        int x = prev < 0 ? step : prev + 2 + step;
        int odd = (par + x) & 1;
        if (odd ? o == 0 : e == 0) continue;
        int v = sm_gap_rec(o - odd, e - !odd, par, x, sum + x);
        if (v < best) best = v;
    }
    return best;
}

static void sm_static_init(sm_static *S, const kt_semimagic_opts *o)
{
    memset(S, 0, sizeof *S);
    int n = (int)o->n, N = n * n;
    S->n = n;
    S->N = N;
    S->nb = (size_t)N;
    S->flags = o->flags;
    S->sym = o->sym;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * n + x, i = y * 8 + x;
            S->i2p[i] = (uint8_t)p;
            S->p2i[p] = (uint8_t)i;
            S->board |= 1ull << i;
            S->col[i] = (uint8_t)((x + y) & 1);
            S->given[i] = o->given[p];
            for (int t = 0; t < 8; t++) {
                int tx, ty;
                sm_transform(n, t, x, y, &tx, &ty);
                S->tmap[t][p] = (uint8_t)(ty * n + tx);
            }
        }
    static const int kdx[8] = {2, 1, -1, -2, -2, -1, 1, 2};
    static const int kdy[8] = {-1, -2, -2, -1, 1, 2, 2, 1};
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            uint64_t a = 0;
            for (int m = 0; m < 8; m++) {
                int u = x + kdx[m], v = y + kdy[m];
                if (u >= 0 && v >= 0 && u < n && v < n) a |= 1ull << (v * 8 + u);
            }
            S->att[y * 8 + x] = a;
        }
    /* Knight distances (255 = unreachable). */
    memset(S->dist, 0xFF, sizeof S->dist);
    for (uint64_t b = S->board; b; b &= b - 1) {
        int s = sm_ctz(b);
        uint64_t seen = 1ull << s, front = seen;
        int d = 0;
        S->dist[s][s] = 0;
        while (front) {
            d++;
            uint64_t nf = 0;
            for (uint64_t f = front; f; f &= f - 1) nf |= S->att[sm_ctz(f)];
            nf &= ~seen;
            seen |= nf;
            for (uint64_t f = nf; f; f &= f - 1) S->dist[s][sm_ctz(f)] = (uint8_t)d;
            front = nf;
        }
    }
    /* Lines. */
    int full = n * (N + 1) / 2;
    if (o->flags & KT_SEMIMAGIC_NESTED) {
        int h = n / 2;
        for (int y = 0; y < n; y++)
            for (int part = 0; part < 2; part++) {
                uint64_t r = 0, c = 0;
                for (int k = 0; k < h; k++) {
                    r |= 1ull << (y * 8 + part * h + k);
                    c |= 1ull << ((part * h + k) * 8 + y);
                }
                S->fam[S->nl] = 0;
                S->line[S->nl++] = (sm_line){r, full / 2};
                S->fam[S->nl] = 1;
                S->line[S->nl++] = (sm_line){c, full / 2};
            }
    } else if (o->flags & KT_SEMIMAGIC_LINES) {
        for (int y = 0; y < n; y++) {
            uint64_t r = 0, c = 0;
            for (int k = 0; k < n; k++) {
                r |= 1ull << (y * 8 + k);
                c |= 1ull << (k * 8 + y);
            }
            S->fam[S->nl] = 0;
            S->line[S->nl++] = (sm_line){r, full};
            S->fam[S->nl] = 1;
            S->line[S->nl++] = (sm_line){c, full};
        }
    }
    if (o->flags & KT_SEMIMAGIC_MAGIC) {
        uint64_t d1 = 0, d2 = 0;
        for (int k = 0; k < n; k++) {
            d1 |= 1ull << (k * 8 + k);
            d2 |= 1ull << (k * 8 + n - 1 - k);
        }
        S->fam[S->nl] = 2;
        S->line[S->nl++] = (sm_line){d1, full};
        S->fam[S->nl] = 2;
        S->line[S->nl++] = (sm_line){d2, full};
    }
    for (int l = 0; l < S->nl; l++) {
        int c0 = 0, c1 = 0;
        for (uint64_t b = S->line[l].mask; b; b &= b - 1) {
            int i = sm_ctz(b);
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
    /* Start and end cells (internal). */
    uint64_t sp = o->startm ? o->startm : (N == 64 ? ~0ull : (1ull << N) - 1);
    uint64_t ep = o->endm ? o->endm : (N == 64 ? ~0ull : (1ull << N) - 1);
    for (int p = 0; p < N; p++) {
        if (sp >> p & 1) S->startm |= 1ull << S->p2i[p];
        if (ep >> p & 1) S->endm |= 1ull << S->p2i[p];
    }
    /* Symmetries h = (board map t & 7, reversal if t & 8) that preserve
     * every constraint.  All line constraints are invariant under both
     * (every target is half the line length times N + 1); a reversal swaps
     * the roles of the start and end cells and maps given k to N + 1 - k. */
    for (int t = 0; t < 16; t++) {
        int ok = 1, rev = t & 8;
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
    /* Root pairs (cell of 1, cell of N): the smallest (start, end) pair of
     * each orbit under the preserving symmetries (all pairs in ALL mode). */
    for (int ps = 0; ps < N; ps++) {
        if (!(sp >> ps & 1)) continue;
        for (int pe = 0; pe < N; pe++) {
            if (!(ep >> pe & 1) || pe == ps) continue;
            int rep = 1;
            if (o->sym != KT_SEMIMAGIC_ALL)
                for (int t = 1; t < 16 && rep; t++) {
                    if (!S->symok[t]) continue;
                    int a = S->tmap[t & 7][ps], b = S->tmap[t & 7][pe];
                    if (t & 8) {
                        int x = a;
                        a = b;
                        b = x;
                    }
                    if (a < ps || (a == ps && b < pe)) rep = 0;
                }
            if (rep) S->rootend[S->p2i[ps]] |= 1ull << S->p2i[pe];
        }
    }
}

/* Full check of a numbering in public layout. */
static int sm_check_pub(const sm_static *S, const uint8_t *num)
{
    int n = S->n, N = S->N;
    uint8_t pos[65];
    memset(pos, SM_NONE, sizeof pos);
    for (int p = 0; p < N; p++) {
        int k = num[p];
        if (k < 1 || k > N || pos[k] != SM_NONE) return 0;
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
        for (uint64_t b = S->line[l].mask; b; b &= b - 1) s += num[S->i2p[sm_ctz(b)]];
        if (s != S->line[l].target) return 0;
    }
    if (!(S->startm >> S->p2i[pos[1]] & 1)) return 0;
    if (!(S->endm >> S->p2i[pos[N]] & 1)) return 0;
    for (int p = 0; p < N; p++)
        if (S->given[S->p2i[p]] && S->given[S->p2i[p]] != num[p]) return 0;
    return 1;
}

/* Image of a numbering under symmetry t (board map t & 7, reversal if t & 8). */
static void sm_image(const sm_static *S, int t, const uint8_t *num, uint8_t *img)
{
    int N = S->N;
    if (t & 8)
        for (int p = 0; p < N; p++) img[S->tmap[t & 7][p]] = (uint8_t)(N + 1 - num[p]);
    else
        for (int p = 0; p < N; p++) img[S->tmap[t][p]] = num[p];
}

/* Would the search enumerate this (constraint-satisfying) numbering? */
static int sm_enumerated(const sm_static *S, const uint8_t *num)
{
    int one = 0, last = 0;
    for (int p = 0; p < S->N; p++) {
        if (num[p] == 1) one = p;
        if (num[p] == S->N) last = p;
    }
    if (!(S->rootend[S->p2i[one]] >> S->p2i[last] & 1)) return 0;
    return sm_check_pub(S, num);
}

/* Is num the one numbering, among the enumerated images of num under the
 * 16 symmetries (board maps, with and without reversal), that delivers
 * the classes of num and of its reversal?  Each such orbit is then
 * delivered exactly once, whatever the search order or thread count. */
static int sm_designated(const sm_static *S, const uint8_t *num)
{
    if (S->sym == KT_SEMIMAGIC_ALL) return 1;
    uint8_t img[64];
    for (int t = 1; t < 16; t++) {
        sm_image(S, t, num, img);
        if (memcmp(img, num, S->nb) >= 0) continue;
        if (sm_enumerated(S, img)) return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Search state                                                        */

static void sm_state_empty(const sm_static *S, sm_state *st, int oddcol)
{
    memset(st, 0, sizeof *st);
    st->unvis = S->board;
    st->freen = S->N == 64 ? ~0ull : (1ull << S->N) - 1;
    st->lo = 1;
    st->hi = S->N;
    st->oddcol = oddcol;
    memset(st->pos, SM_NONE, sizeof st->pos);
    for (int l = 0; l < S->nl; l++)
        for (uint64_t b = S->line[l].mask; b; b &= b - 1) {
            int c = sm_ctz(b);
            st->lrem[l][S->col[c]]++;
            st->lkey[l] = (uint8_t)(st->lkey[l] + (S->col[c] == oddcol ? SM_MAXN + 1 : 1));
        }
}

static bool sm_assign(const sm_static *S, sm_state *st, int c, int k)
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
        st->lkey[l] = (uint8_t)(st->lkey[l] - ((k & 1) ? SM_MAXN + 1 : 1));
    }
    for (int j = 0; j < nl; j++) {
        int l = S->lof[c][j];
        int r = st->lrem[l][0] + st->lrem[l][1];
        if (r == 0) {
            if (st->lsum[l] != S->line[l].target) return false;
        } else if (r == 1) {
            int f = S->line[l].target - st->lsum[l];
            if (f < 1 || f > S->N) return false;
            int d = sm_ctz(S->line[l].mask & ~st->asg);
            if (!sm_assign(S, st, d, f)) return false;
        }
    }
    return true;
}

/* Put number k on cell c as a path step. */
static bool sm_visit(const sm_static *S, sm_state *st, int c, int k)
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
static bool sm_pair_ok(const sm_static *S, const sm_state *st, int l, int R, const uint64_t *rev)
{
    uint64_t m = S->line[l].mask & ~st->asg;
    int c1 = sm_ctz(m), c2 = sm_ctz(m & (m - 1));
    uint64_t A = st->freen & (S->col[c1] == st->oddcol ? SM_ODD : ~SM_ODD);
    uint64_t G = rev[S->col[c2] == st->oddcol];
    int sh = 65 - R;
    uint64_t hit = A & (sh >= 0 ? G >> sh : G << -sh);
    if (!(R & 1)) hit &= ~(1ull << (R / 2 - 1));
    return hit != 0;
}

/* Feasibility of a node; on success *fl and *fh are the cells the low/high
 * end is forced to (0 if none). */
static bool sm_feasible(const sm_static *S, const sm_state *st, uint64_t *fl, uint64_t *fh)
{
    /* Line bounds: the free cells of a line get distinct free numbers of
     * their colour's parity, all in [lo, hi]; the remaining sum must lie
     * between the smallest and the largest such sums, and with two cells
     * left an exact pair must exist. */
    int lo = st->lo, hi = st->hi;
    int hl = st->pos[lo - 1], hh = st->pos[hi + 1];
    if (S->nl) {
        enum { K = SM_MAXN + 1 };
        int minO[K], minE[K], maxO[K], maxE[K];
        int need = S->maxneed;
        uint64_t a = st->freen & SM_ODD, b = st->freen & ~SM_ODD;
        uint64_t c = a, d = b;
        minO[0] = minE[0] = maxO[0] = maxE[0] = 0;
        for (int j = 1; j <= need; j++) {
            if (a) {
                minO[j] = minO[j - 1] + sm_ctz(a) + 1;
                a &= a - 1;
                int h = 63 - __builtin_clzll(c);
                maxO[j] = maxO[j - 1] + h + 1;
                c &= ~(1ull << h);
            } else {
                minO[j] = SM_BIG;
                maxO[j] = -SM_BIG;
            }
            if (b) {
                minE[j] = minE[j - 1] + sm_ctz(b) + 1;
                b &= b - 1;
                int h = 63 - __builtin_clzll(d);
                maxE[j] = maxE[j - 1] + h + 1;
                d &= ~(1ull << h);
            } else {
                minE[j] = SM_BIG;
                maxE[j] = -SM_BIG;
            }
        }
        /* Bounds per (odd, even) count: the free numbers themselves, and
         * numbers at least 2 apart from lo upwards / hi downwards. */
        int minT[K * K], maxT[K * K];
        for (int o = 0; o <= need; o++)
            for (int e = 0; e <= need; e++) {
                int r = o + e;
                int mn = minO[o] + minE[e], mx = maxO[o] + maxE[e];
                int g1 = r * lo + S->gap[o][e][lo & 1], g2 = r * hi - S->gap[o][e][hi & 1];
                minT[o * K + e] = mn > g1 ? mn : g1;
                maxT[o * K + e] = mx < g2 ? mx : g2;
            }
        uint64_t rev[2];
        rev[0] = sm_bitrev(st->freen & ~SM_ODD);
        rev[1] = sm_bitrev(st->freen & SM_ODD);
        for (int l = 0; l < S->nl; l++) {
            int key = st->lkey[l];
            if (key == 0) continue;
            int R = S->line[l].target - st->lsum[l];
            if (((R ^ (key / K)) & 1) || R < minT[key] || R > maxT[key]) return false;
            if ((key == 2 || key == K + 1 || key == 2 * K) && !sm_pair_ok(S, st, l, R, rev)) return false;
        }
    }
    /* Assigned numbers between the ends must be reachable in order. */
    int pk = lo - 1, pc = st->pos[pk];
    uint64_t range = (hi >= 64 ? ~0ull : (1ull << hi) - 1) & ~((1ull << (lo - 1)) - 1);
    for (uint64_t A = ~st->freen & range; A; A &= A - 1) {
        int k = sm_ctz(A) + 1, c = st->pos[k];
        if (S->dist[pc][c] > k - pk) return false;
        pk = k;
        pc = c;
    }
    if (S->dist[pc][hh] > hi + 1 - pk) return false;
    /* Degrees. */
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
    /* Connectivity of the unvisited cells to the low end. */
    uint64_t reach = S->att[hl] & U, prev = 0;
    while (reach != prev) {
        prev = reach;
        reach |= sm_katt(reach) & U;
    }
    if (reach != U) return false;
    if (!(S->att[hh] & U)) return false;
    return true;
}

/* ------------------------------------------------------------------ */
/* Depth-first search                                                  */

typedef struct sm_prefix {
    uint8_t start, end, len;
    uint8_t step[SM_PREFIX_DEPTH]; /* cell | 0x80 when placed at the high end */
} sm_prefix;

typedef struct sm_worker sm_worker;
struct sm_worker {
    const sm_static *S;
    uint64_t nodes;
    atomic_int *stop;
    int limit; /* prefix depth, or -1 */
    uint8_t path[64];
    /* Called with a complete state (or a prefix leaf when limit >= 0);
     * non-zero aborts. */
    int (*emit)(sm_worker *w, const sm_state *st, int depth);
    /* Optional hook every 2^16 nodes (single-threaded progress). */
    int (*tick)(sm_worker *w);
    void *ctx;
    uint8_t start, end;
};

static int sm_dfs(sm_worker *w, sm_state *st, int depth)
{
    const sm_static *S = w->S;
    if (KTI_UNLIKELY((++w->nodes & 0xFFF) == 0)) {
        if (atomic_load_explicit(w->stop, memory_order_relaxed)) return 1;
        if (w->tick && (w->nodes & 0xFFFF) == 0 && w->tick(w)) return 1;
    }
    if (st->lo > st->hi) return w->emit(w, st, depth);
    uint64_t fl, fh;
    if (!sm_feasible(S, st, &fl, &fh)) return 0;
    if (depth == w->limit) return w->emit(w, st, depth);
    int lo = st->lo, hi = st->hi;
    int hl = st->pos[lo - 1], hh = st->pos[hi + 1];
    uint64_t cl, ch;
    if (st->pos[lo] != SM_NONE) cl = S->att[hl] & (1ull << st->pos[lo]);
    else cl = S->att[hl] & st->unvis & ~st->asg;
    if (fl) cl &= fl;
    if (lo == hi) cl &= S->att[hh];
    if (!cl) return 0;
    int low = 1;
    if (lo < hi) {
        if (st->pos[hi] != SM_NONE) ch = S->att[hh] & (1ull << st->pos[hi]);
        else ch = S->att[hh] & st->unvis & ~st->asg;
        if (fh) ch &= fh;
        if (!ch) return 0;
        /* Forced moves first; otherwise keep the two ends nearly balanced
         * (lo - 1 close to N - hi), which keeps the free numbers centred
         * on the line average and the line bounds tight. */
        int pl = sm_popc(cl), ph = sm_popc(ch);
        if (pl == 1) low = 1;
        else if (ph == 1) low = 0;
        else {
            /* the end with fewer moves while the ends stay within 3
             * numbers of each other, else the end that is behind */
            int imb = (lo - 1) - (S->N - hi);
            if (imb >= -3 && imb <= 3 && pl != ph) low = pl < ph;
            else low = imb <= 0;
        }
    } else {
        ch = 0;
    }
    uint64_t cand = low ? cl : ch;
    for (; cand; cand &= cand - 1) {
        int c = sm_ctz(cand);
        sm_state child = *st;
        if (low) {
            if (!sm_visit(S, &child, c, lo)) continue;
            child.lo++;
        } else {
            if (!sm_visit(S, &child, c, hi)) continue;
            child.hi--;
        }
        w->path[depth] = (uint8_t)(c | (low ? 0 : 0x80));
        int r = sm_dfs(w, &child, depth + 1);
        if (r) return r;
    }
    return 0;
}

/* Root state for a start cell (1 placed, givens assigned); false if impossible. */
static bool sm_root(const sm_static *S, sm_state *st, int s)
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

static bool sm_root_end(const sm_static *S, sm_state *st, int e)
{
    if (!sm_visit(S, st, e, S->N)) return false;
    st->hi = S->N - 1;
    return true;
}

/* Rebuild the state at a prefix; false if it fails (should not happen). */
static bool sm_replay(const sm_static *S, const sm_prefix *p, sm_state *st)
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

/* Prefix enumeration. */
typedef struct sm_plist {
    const kt_allocator *al;
    sm_prefix *v;
    size_t len, cap;
    bool nomem;
} sm_plist;

static int sm_emit_prefix(sm_worker *w, const sm_state *st, int depth)
{
    (void)st;
    sm_plist *pl = w->ctx;
    if (pl->len == pl->cap) {
        size_t nc = pl->cap ? pl->cap * 2 : 256, bytes;
        if (!kti_mul_ok(nc, sizeof(sm_prefix), &bytes)) {
            pl->nomem = true;
            return 1;
        }
        sm_prefix *nv = kti_alloc(pl->al, bytes);
        if (nv == NULL) {
            pl->nomem = true;
            return 1;
        }
        if (pl->len) memcpy(nv, pl->v, pl->len * sizeof(sm_prefix));
        kti_free(pl->al, pl->v);
        pl->v = nv;
        pl->cap = nc;
    }
    sm_prefix *p = &pl->v[pl->len++];
    memset(p, 0, sizeof *p);
    p->start = w->start;
    p->end = w->end;
    p->len = (uint8_t)depth;
    memcpy(p->step, w->path, (size_t)depth);
    return 0;
}

static kt_status sm_prefixes(const sm_static *S, const kt_allocator *al, sm_plist *pl)
{
    atomic_int stop;
    atomic_init(&stop, 0);
    sm_worker w;
    memset(&w, 0, sizeof w);
    w.S = S;
    w.stop = &stop;
    w.limit = SM_PREFIX_DEPTH;
    w.emit = sm_emit_prefix;
    w.ctx = pl;
    pl->al = al;
    for (int ps = 0; ps < S->N; ps++) {
        int s = S->p2i[ps];
        if (!S->rootend[s]) continue;
        sm_state r0;
        if (!sm_root(S, &r0, s)) continue;
        uint64_t eb = S->rootend[s];
        if (S->flags & KT_SEMIMAGIC_CLOSED) eb &= S->att[s];
        for (; eb; eb &= eb - 1) {
            int e = sm_ctz(eb);
            sm_state r1 = r0;
            if (!sm_root_end(S, &r1, e)) continue;
            w.start = (uint8_t)s;
            w.end = (uint8_t)e;
            if (sm_dfs(&w, &r1, 0)) return pl->nomem ? KT_ENOMEM : KT_ECANCELED;
        }
    }
    return KT_OK;
}

/* ------------------------------------------------------------------ */
/* Delivery (calling thread)                                           */

typedef struct sm_deliv {
    const sm_static *S;
    const kt_allocator *al;
    kt_semimagic_fn fn;
    void *user;
    uint64_t nclasses, nsol;
    uint8_t *keys;    /* nclasses * N */
    uint32_t *counts; /* reports per class (ALL mode) */
    size_t cap;
    bool nomem;
} sm_deliv;

static uint64_t sm_find_class(const sm_deliv *D, const uint8_t *key)
{
    size_t N = D->S->nb;
    for (uint64_t i = 0; i < D->nclasses; i++)
        if (memcmp(D->keys + i * N, key, N) == 0) return i;
    return KT_SEMIMAGIC_NO_CLASS;
}

/* The distinct board images of a numbering, which of them satisfy the
 * constraints, and the smallest satisfying one (-1 if none). */
typedef struct sm_class {
    uint8_t img[8][64];
    uint8_t sat[8];
    int nd, nsat, rep;
    uint8_t key[64]; /* smallest image */
} sm_class;

static void sm_class_info(const sm_static *S, const uint8_t *num, sm_class *c)
{
    c->nd = c->nsat = 0;
    c->rep = -1;
    for (int t = 0; t < 8; t++) {
        uint8_t *im = c->img[c->nd];
        sm_image(S, t, num, im);
        int dup = 0;
        for (int j = 0; j < c->nd && !dup; j++) dup = memcmp(c->img[j], im, S->nb) == 0;
        if (dup) continue;
        c->sat[c->nd] = (uint8_t)sm_check_pub(S, im);
        if (c->sat[c->nd]) {
            c->nsat++;
            if (c->rep < 0 || memcmp(im, c->img[c->rep], S->nb) < 0) c->rep = c->nd;
        }
        if (c->nd == 0 || memcmp(im, c->key, S->nb) < 0) memcpy(c->key, im, S->nb);
        c->nd++;
    }
}

static bool sm_keys_push(sm_deliv *D, const uint8_t *key)
{
    size_t N = D->S->nb;
    if (D->nclasses == D->cap) {
        size_t nc = D->cap ? D->cap * 2 : 16, kb, cb;
        if (!kti_mul_ok(nc, N, &kb) || !kti_mul_ok(nc, sizeof(uint32_t), &cb)) return false;
        uint8_t *nk = kti_alloc(D->al, kb);
        uint32_t *ncn = kti_alloc(D->al, cb);
        if (nk == NULL || ncn == NULL) {
            kti_free(D->al, nk);
            kti_free(D->al, ncn);
            return false;
        }
        if (D->nclasses) {
            memcpy(nk, D->keys, (size_t)D->nclasses * N);
            memcpy(ncn, D->counts, (size_t)D->nclasses * sizeof(uint32_t));
        }
        kti_free(D->al, D->keys);
        kti_free(D->al, D->counts);
        D->keys = nk;
        D->counts = ncn;
        D->cap = nc;
    }
    memcpy(D->keys + D->nclasses * N, key, N);
    D->counts[D->nclasses] = 0;
    D->nclasses++;
    return true;
}

/* Report one class (its representative, then in MEMBERS mode the other
 * images); non-zero stops. */
static int sm_emit_class(sm_deliv *D, const sm_class *c, uint64_t cls, uint64_t rev, int revsat)
{
    const sm_static *S = D->S;
    D->nsol += (uint64_t)c->nsat;
    if (D->fn == NULL) return 0;
    kt_semimagic_solution sol;
    memset(&sol, 0, sizeof sol);
    sol.n = (uint32_t)S->n;
    sol.cls = cls;
    sol.size = (uint32_t)c->nd;
    sol.nsat = (uint32_t)c->nsat;
    sol.rev = rev;
    sol.revsat = revsat;
    sol.sat = 1;
    for (int p = 0; p < S->N; p++) sol.num[p] = c->img[c->rep][p];
    if (D->fn(D->user, &sol)) return 1;
    if (S->sym == KT_SEMIMAGIC_MEMBERS) {
        uint32_t m = 1;
        for (int j = 0; j < c->nd; j++) {
            if (j == c->rep) continue;
            sol.member = m++;
            sol.sat = c->sat[j];
            for (int p = 0; p < S->N; p++) sol.num[p] = c->img[j][p];
            if (D->fn(D->user, &sol)) return 1;
        }
    }
    return 0;
}

/* Deliver a designated numbering found by the search; non-zero stops. */
static int sm_deliver(sm_deliv *D, const uint8_t *num)
{
    const sm_static *S = D->S;
    sm_class A, B;
    uint8_t rev[64];
    sm_image(S, 8, num, rev);
    sm_class_info(S, num, &A);
    sm_class_info(S, rev, &B);
    int self = memcmp(A.key, B.key, S->nb) == 0;
    if (S->sym == KT_SEMIMAGIC_ALL) {
        uint64_t cls = sm_find_class(D, A.key);
        if (cls == KT_SEMIMAGIC_NO_CLASS) {
            if (!sm_keys_push(D, A.key)) {
                D->nomem = true;
                return 1;
            }
            cls = D->nclasses - 1;
        }
        uint64_t rc = self ? cls : sm_find_class(D, B.key);
        D->nsol++;
        if (D->fn == NULL) return 0;
        kt_semimagic_solution sol;
        memset(&sol, 0, sizeof sol);
        sol.n = (uint32_t)S->n;
        sol.cls = cls;
        sol.size = (uint32_t)A.nd;
        sol.nsat = (uint32_t)A.nsat;
        sol.rev = rc;
        sol.revsat = B.nsat > 0;
        sol.member = D->counts[cls]++;
        sol.sat = 1;
        for (int p = 0; p < S->N; p++) sol.num[p] = num[p];
        return D->fn(D->user, &sol);
    }
    uint64_t ia = D->nclasses;
    uint64_t ib = self ? ia : (B.nsat > 0 ? ia + 1 : KT_SEMIMAGIC_NO_CLASS);
    D->nclasses++;
    if (sm_emit_class(D, &A, ia, ib, B.nsat > 0)) return 1;
    if (!self && B.nsat > 0) {
        D->nclasses++;
        if (sm_emit_class(D, &B, ib, ia, 1)) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Running subtrees                                                    */

typedef struct sm_sols {
    uint8_t *v; /* len * N */
    size_t len, cap;
} sm_sols;

typedef struct sm_run {
    const sm_static *S;
    const kt_allocator *al;
    const sm_plist *pl;
    atomic_int stop;
    atomic_size_t next;
    atomic_size_t ndone;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint8_t *done; /* per prefix, under mu */
    sm_sols *res;  /* per prefix */
    bool nomem;    /* under mu */
    /* single-threaded */
    sm_deliv *D;
    kti_progress prog;
    size_t cur;
    bool cancelled;
} sm_run;

static void sm_to_pub(const sm_static *S, const sm_state *st, uint8_t *num)
{
    for (int p = 0; p < S->N; p++) num[p] = st->val[S->p2i[p]];
}

static int sm_emit_direct(sm_worker *w, const sm_state *st, int depth)
{
    (void)depth;
    sm_run *R = w->ctx;
    uint8_t num[64];
    sm_to_pub(w->S, st, num);
    if (!sm_designated(w->S, num)) return 0;
    return sm_deliver(R->D, num);
}

static int sm_tick_direct(sm_worker *w)
{
    sm_run *R = w->ctx;
    if (kti_progress_tick(&R->prog, R->cur, R->pl->len)) {
        R->cancelled = true;
        return 1;
    }
    return 0;
}

typedef struct sm_wctx {
    sm_run *R;
    size_t idx;
} sm_wctx;

static int sm_emit_store(sm_worker *w, const sm_state *st, int depth)
{
    (void)depth;
    sm_wctx *c = w->ctx;
    sm_run *R = c->R;
    uint8_t num[64];
    size_t N = (size_t)w->S->N;
    sm_to_pub(w->S, st, num);
    if (!sm_designated(w->S, num)) return 0;
    sm_sols *s = &R->res[c->idx];
    if (s->len == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 4, bytes;
        uint8_t *nv = kti_mul_ok(nc, N, &bytes) ? kti_alloc(R->al, bytes) : NULL;
        if (nv == NULL) {
            pthread_mutex_lock(&R->mu);
            R->nomem = true;
            pthread_mutex_unlock(&R->mu);
            atomic_store(&R->stop, 1);
            return 1;
        }
        if (s->len) memcpy(nv, s->v, s->len * N);
        kti_free(R->al, s->v);
        s->v = nv;
        s->cap = nc;
    }
    memcpy(s->v + s->len * N, num, N);
    s->len++;
    return 0;
}

static void *sm_thread(void *arg)
{
    sm_run *R = arg;
    sm_worker w;
    sm_wctx c;
    memset(&w, 0, sizeof w);
    w.S = R->S;
    w.stop = &R->stop;
    w.limit = -1;
    w.emit = sm_emit_store;
    w.ctx = &c;
    c.R = R;
    for (;;) {
        if (atomic_load(&R->stop)) break;
        size_t i = atomic_fetch_add(&R->next, 1);
        if (i >= R->pl->len) break;
        c.idx = i;
        sm_state st;
        if (sm_replay(R->S, &R->pl->v[i], &st)) {
            if (sm_dfs(&w, &st, 0)) break;
        }
        pthread_mutex_lock(&R->mu);
        R->done[i] = 1;
        atomic_fetch_add(&R->ndone, 1);
        pthread_cond_signal(&R->cv);
        pthread_mutex_unlock(&R->mu);
    }
    pthread_mutex_lock(&R->mu);
    pthread_cond_signal(&R->cv);
    pthread_mutex_unlock(&R->mu);
    return NULL;
}

static kt_status sm_run_threads(sm_run *R, unsigned T)
{
    const kt_allocator *al = R->al;
    size_t np = R->pl->len;
    kt_status status = KT_OK;
    R->done = kti_calloc(al, np ? np : 1, 1);
    R->res = kti_calloc(al, np ? np : 1, sizeof(sm_sols));
    pthread_t *th = kti_calloc(al, T, sizeof(pthread_t));
    if (R->done == NULL || R->res == NULL || th == NULL) {
        kti_free(al, R->done);
        kti_free(al, R->res);
        kti_free(al, th);
        return KT_ENOMEM;
    }
    pthread_mutex_init(&R->mu, NULL);
    pthread_cond_init(&R->cv, NULL);
    unsigned started = 0;
    for (; started < T; started++)
        if (pthread_create(&th[started], NULL, sm_thread, R) != 0) break;
    if (started == 0) status = KT_ETHREAD;
    size_t deliver = 0;
    size_t N = (size_t)R->S->N;
    while (status == KT_OK && deliver < np) {
        pthread_mutex_lock(&R->mu);
        while (!R->done[deliver] && !R->nomem) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 100000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&R->cv, &R->mu, &ts);
            if (R->done[deliver] || R->nomem) break;
            pthread_mutex_unlock(&R->mu);
            bool c = kti_progress_tick(&R->prog, atomic_load(&R->ndone), np);
            pthread_mutex_lock(&R->mu);
            if (c) {
                R->cancelled = true;
                break;
            }
        }
        bool ready = R->done[deliver] != 0, nomem = R->nomem;
        pthread_mutex_unlock(&R->mu);
        if (nomem) status = KT_ENOMEM;
        else if (R->cancelled) status = KT_ECANCELED;
        if (status != KT_OK || !ready) break;
        sm_sols *s = &R->res[deliver];
        for (size_t j = 0; j < s->len && status == KT_OK; j++)
            if (sm_deliver(R->D, s->v + j * N)) status = R->D->nomem ? KT_ENOMEM : KT_ECANCELED;
        kti_free(al, s->v);
        s->v = NULL;
        deliver++;
        if (status == KT_OK && kti_progress_tick(&R->prog, atomic_load(&R->ndone), np))
            status = KT_ECANCELED;
    }
    atomic_store(&R->stop, 1);
    for (unsigned i = 0; i < started; i++) pthread_join(th[i], NULL);
    pthread_cond_destroy(&R->cv);
    pthread_mutex_destroy(&R->mu);
    for (size_t i = 0; i < np; i++) kti_free(al, R->res[i].v);
    kti_free(al, R->res);
    kti_free(al, R->done);
    kti_free(al, th);
    return status;
}

static kt_status sm_search(const kt_semimagic_opts *o, kt_semimagic_symmetry sym, kt_semimagic_fn fn,
                           void *user, uint64_t *classes, uint64_t *solutions)
{
    const kt_allocator *al = &o->al;
    sm_static *S = kti_alloc(al, sizeof *S);
    if (S == NULL) return KT_ENOMEM;
    kt_semimagic_opts tmp = *o;
    tmp.sym = sym;
    sm_static_init(S, &tmp);
    sm_plist pl;
    memset(&pl, 0, sizeof pl);
    kt_status status = sm_prefixes(S, al, &pl);
    sm_deliv D;
    memset(&D, 0, sizeof D);
    D.S = S;
    D.al = al;
    D.fn = fn;
    D.user = user;
    if (status == KT_OK) {
        sm_run *R = kti_alloc(al, sizeof *R);
        if (R == NULL) {
            status = KT_ENOMEM;
        } else {
            memset(R, 0, sizeof *R);
            R->S = S;
            R->al = al;
            R->pl = &pl;
            R->D = &D;
            atomic_init(&R->stop, 0);
            atomic_init(&R->next, 0);
            atomic_init(&R->ndone, 0);
            kti_progress_init(&R->prog, o->prog, o->puser);
            if (o->prog && o->prog(o->puser, 0, pl.len)) status = KT_ECANCELED;
            if (status != KT_OK) {
                /* cancelled before the start */
            } else if (o->threads <= 1 || pl.len <= 1) {
                sm_worker w;
                memset(&w, 0, sizeof w);
                w.S = S;
                w.stop = &R->stop;
                w.limit = -1;
                w.emit = sm_emit_direct;
                w.tick = o->prog ? sm_tick_direct : NULL;
                w.ctx = R;
                for (size_t i = 0; i < pl.len && status == KT_OK; i++) {
                    R->cur = i;
                    sm_state st;
                    if (sm_replay(S, &pl.v[i], &st) && sm_dfs(&w, &st, 0))
                        status = D.nomem ? KT_ENOMEM : KT_ECANCELED;
                    if (status == KT_OK && kti_progress_tick(&R->prog, i + 1, pl.len))
                        status = KT_ECANCELED;
                }
            } else {
                status = sm_run_threads(R, o->threads);
            }
            kti_free(al, R);
        }
    }
    if (classes) *classes = D.nclasses;
    if (solutions) *solutions = D.nsol;
    kti_free(al, D.keys);
    kti_free(al, D.counts);
    kti_free(al, pl.v);
    kti_free(al, S);
    return status;
}

kt_status kt_semimagic_search(const kt_semimagic_opts *o, kt_semimagic_fn fn, void *user,
                              uint64_t *classes, uint64_t *solutions)
{
    if (classes) *classes = 0;
    if (solutions) *solutions = 0;
    if (o == NULL) return KT_EINVAL;
    return sm_search(o, o->sym, fn, user, classes, solutions);
}

typedef struct sm_first {
    int found;
    uint32_t num[64];
} sm_first;

static int sm_first_cb(void *user, const kt_semimagic_solution *s)
{
    sm_first *f = user;
    f->found = 1;
    memcpy(f->num, s->num, sizeof f->num);
    return 1;
}

kt_status kt_semimagic_exists(const kt_semimagic_opts *o, int *exists, uint32_t *numbers)
{
    if (o == NULL || exists == NULL) return KT_EINVAL;
    *exists = 0;
    sm_first f;
    memset(&f, 0, sizeof f);
    kt_status st = sm_search(o, KT_SEMIMAGIC_CLASSES, sm_first_cb, &f, NULL, NULL);
    if (f.found) {
        *exists = 1;
        if (numbers) memcpy(numbers, f.num, (size_t)o->n * o->n * sizeof(uint32_t));
        return KT_OK;
    }
    return st;
}

kt_status kt_semimagic_check(const kt_semimagic_opts *o, const uint32_t *numbers, size_t count,
                             int *ok)
{
    if (o == NULL || numbers == NULL || ok == NULL) return KT_EINVAL;
    size_t N = (size_t)o->n * o->n;
    if (count != N) return KT_EINVAL;
    *ok = 0;
    uint8_t num[64];
    for (size_t p = 0; p < N; p++) {
        if (numbers[p] < 1 || numbers[p] > N) return KT_OK;
        num[p] = (uint8_t)numbers[p];
    }
    sm_static *S = kti_alloc(&o->al, sizeof *S);
    if (S == NULL) return KT_ENOMEM;
    sm_static_init(S, o);
    *ok = sm_check_pub(S, num);
    kti_free(&o->al, S);
    return KT_OK;
}
