/* SPDX-License-Identifier: MIT */
/*
 * McKay's join, one upper type at a time (see halftour_internal.h).
 *
 * A closed tour is a lower structure SL, an upper structure SU and a set C
 * of crossing steps that gives every boundary cell as many steps as its
 * type digit (1 for a path end, 2 for a trivial path), such that the union
 * is one cycle.  For each upper type t:
 *  1. enumerate the step sets C that meet t's digits and leave the lower
 *     cells a degree vector that is a lower type (depth first over the
 *     upper cells, pruned by prefixes of the lower types);
 *  2. for each C, reduce it to segments between "ports" (lower ends, upper
 *     ends) through the trivial cells; then for each lower structure SL of
 *     that lower type, follow SL and the segments from each upper end to
 *     the next: the pairing of the upper ends they realise (dropped if a
 *     cycle closes without them), summed by pairing in a table local to t;
 *  3. an upper structure SU of type t closes a tour with such a pairing
 *     exactly when the two pairings form one cycle.
 * Types come in mirror pairs (the board's left-right reflection maps tours
 * to tours and t to its mirror image), so only one of each pair is run.
 * When the two halves are one set, the up-down flip swaps them too: then
 * each step set's (upper, lower) type pair is counted only when it is the
 * least of its orbit under both symmetries (types ordered by their number
 * of structures, largest first: the walks then meet the smaller type),
 * times the orbit's size; otherwise a mirror pair of upper types is counted
 * twice.  The table of step 2 holds one type's pairings, so memory stays
 * small; the work is the number of (C, SL) pairs and of step sets.
 *
 * Kept for the uniform sampler (kti_hjoin_*): every tour once, or with
 * the halves one set once per pair of flip images (flip_weight: a pair of
 * types is joined when its upper type comes first, and a partner then
 * stands for its tour and that tour's flip image), each upper structure's
 * partner weight; a seek walks one upper type's
 * search for one structure's partners (ranks, unranks); and for open
 * tours, blocks of each type's search with their weights, from which a
 * draw proposes partners by weight and keeps the first that completes its
 * upper structure (jblock).
 */
#include "halftour_internal.h"

#include <stdlib.h> /* qsort */

/* The pairing test of the combine step (cycles_vec) uses SSSE3's or
 * AVX2's byte shuffle where the processor has it (kti_cpu_vec). */
#if KTI_X86_VEC
#include <immintrin.h>
#endif

#define NC KT_HALFTOUR_MAX_CELLS
#define EMPTY UINT64_MAX

static inline unsigned nib(uint64_t k, unsigned i)
{
    return (unsigned)((k >> (4 * i)) & 15u);
}

/* Type digit of a key code: 0 trivial path -> 2, 1 interior -> 0, label -> 1. */
static inline unsigned digit_of_code(unsigned v)
{
    return v == 0 ? 2u : v == 1 ? 0u : 1u;
}

/* ---- one half, grouped by type ---- */

typedef struct pcount {
    uint64_t partner;    /* 4 bits per cell: the other end of its path */
    uint64_t count;
} pcount;

typedef struct half {
    size_t ntypes, n;
    uint32_t *type;      /* increasing; 2 bits per cell */
    size_t *first;       /* structures of type i: first[i] .. first[i+1]-1 */
    uint64_t *key;       /* per structure, in type order */
    pcount *pc;          /* per structure: its pairing and half-tours, side by
                          * side (the join reads both, type by type) */
    size_t *orig;        /* per structure: its index in the view (key order) */
    uint8_t *nterm;      /* open: per structure, its tour ends (TERM codes, 0-2) */
    size_t *ends_at;     /* open: per type i, its first structures with 1 and with 2
                          * tour ends (ends_at[2 i], ends_at[2 i + 1]); a type's
                          * structures come by their number of tour ends */
    uint32_t *slot;      /* type -> index + 1 (0 empty), open addressing */
    size_t mask;
    kti_half_weights wt; /* weighted join: the weights, in type order (the
                          * join reads a type's structures in a row) */
} half;

static inline size_t type_hash(uint32_t t, size_t mask)
{
    return (size_t)(((uint64_t)t * 0x9E3779B97F4A7C15u) >> 29) & mask;
}

static bool type_find(const half *h, uint32_t t, size_t *idx)
{
    for (size_t i = type_hash(t, h->mask);; i = (i + 1) & h->mask) {
        uint32_t s = h->slot[i];
        if (s == 0) return false;
        if (h->type[s - 1] == t) {
            *idx = s - 1;
            return true;
        }
    }
}

static void half_free(const kt_allocator *al, half *h)
{
    kti_free(al, h->type);
    kti_free(al, h->first);
    kti_free(al, h->key);
    kti_free(al, h->pc);
    kti_free(al, h->orig);
    kti_free(al, h->nterm);
    kti_free(al, h->ends_at);
    kti_free(al, h->slot);
    kti_half_weights_free(al, &h->wt);
    memset(h, 0, sizeof *h);
}

static uint32_t type_of_key(uint64_t key, unsigned ncb)
{
    uint32_t t = 0;
    for (unsigned i = 0; i < ncb; i++) t |= (uint32_t)digit_of_code(nib(key, i)) << (2 * i);
    return t;
}

/* The other end of each cell's path.  Open keys: the TERM ends of a
 * structure with two tour ends are paired (as if the tour closed between
 * its ends, which makes it a closed-tour structure); the TERM end of one
 * with a single tour end is its own partner (a path end that stops). */
static uint64_t partner_of_key(uint64_t key, unsigned ncb)
{
    uint8_t first[16];
    memset(first, 0xFF, sizeof first);
    uint64_t p = 0;
    for (unsigned i = 0; i < ncb; i++) {
        unsigned v = nib(key, i), j = i;
        if (v >= 2) {
            if (first[v] == 0xFF) {
                first[v] = (uint8_t)i; /* set when its partner comes */
                continue;
            }
            j = first[v];
            p |= (uint64_t)i << (4 * j);
        }
        p |= (uint64_t)j << (4 * i);
    }
    /* An unpaired first end keeps nibble 0 (a paired one names a later cell). */
    unsigned i = first[KTI_HDP_TERM];
    if (i != 0xFF && nib(p, i) == 0) p |= (uint64_t)i << (4 * i);
    return p;
}

static uint8_t terms_of_key(uint64_t key, unsigned ncb)
{
    uint8_t n = 0;
    for (unsigned i = 0; i < ncb; i++) n += nib(key, i) == KTI_HDP_TERM;
    return n;
}

static bool weights_alloc(const kt_allocator *al, const kti_half_weights *from, size_t n,
                          kti_half_weights *to)
{
    size_t rows = from->end_off[n], b1, b2;
    if (!kti_mul_ok(n ? n : 1, KTI_TURN_CLASSES * sizeof *to->turn, &b1) ||
        !kti_mul_ok(rows ? rows : 1, 8 * sizeof *to->dir, &b2))
        return false;
    to->turn = kti_alloc(al, b1);
    to->end_off = kti_alloc(al, (n + 1) * sizeof *to->end_off);
    to->dir = kti_alloc(al, b2);
    if (to->end_off != NULL) to->end_off[0] = 0;
    return to->turn != NULL && to->end_off != NULL && to->dir != NULL;
}

/* Structure i (type order) gets the weights of structure src (key order);
 * i = 0, 1, ... in turn, each row after the previous one's. */
static void weights_copy(kti_half_weights *to, size_t i, const kti_half_weights *from, size_t src)
{
    memcpy(&to->turn[KTI_TURN_CLASSES * i], &from->turn[KTI_TURN_CLASSES * src],
           KTI_TURN_CLASSES * sizeof *to->turn);
    size_t rows = from->end_off[src + 1] - from->end_off[src], at = to->end_off[i];
    to->end_off[i + 1] = at + rows;
    memcpy(&to->dir[8 * at], &from->dir[8 * from->end_off[src]], 8 * rows * sizeof *to->dir);
}

/* Open halves: where each type's structures with 1 and with 2 tour ends
 * begin (half_build sorts them so). */
static void find_ends_at(half *h)
{
    for (size_t t = 0; t < h->ntypes; t++) {
        size_t s = h->first[t];
        for (unsigned e = 1; e <= 2; e++) {
            while (s < h->first[t + 1] && h->nterm[s] < e) s++;
            h->ends_at[2 * t + e - 1] = s;
        }
    }
}

typedef struct geom geom;
static uint64_t turn_key(const geom *g, uint64_t key, unsigned ncb, bool merged, bool *mirrored);

/* half_build's passes over the structures, share by share: their sort
 * keys (type, tour ends), then, sorted, their fields in type order. */
typedef struct hbuild {
    const kti_half_view *v;
    half *h;
    uint64_t *ord, *idx;
    const geom *turn; /* the upper half's structures turned (kti_hjoin_new_sym), or NULL */
} hbuild;

/* Structure i of b's view, turned when b turns them. */
static inline uint64_t hbuild_key(const hbuild *b, size_t i)
{
    bool mirrored;
    uint64_t k = b->v->keys[i];
    return b->turn ? turn_key(b->turn, k, b->v->ncb, b->v->merged, &mirrored) : k;
}

static void hbuild_keys(void *ctx, unsigned share, size_t lo, size_t hi)
{
    (void)share;
    const hbuild *b = ctx;
    const kti_half_view *v = b->v;
    for (size_t i = lo; i < hi; i++) {
        uint64_t k = hbuild_key(b, i);
        b->ord[i] = (uint64_t)type_of_key(k, v->ncb) << 2 | (v->open ? terms_of_key(k, v->ncb) : 0u);
        b->idx[i] = i;
    }
}

static void hbuild_fill(void *ctx, unsigned share, size_t lo, size_t hi)
{
    (void)share;
    const hbuild *b = ctx;
    const kti_half_view *v = b->v;
    half *h = b->h;
    for (size_t i = lo; i < hi; i++) {
        size_t src = (size_t)b->idx[i];
        h->key[i] = hbuild_key(b, src);
        h->pc[i].partner = partner_of_key(h->key[i], v->ncb);
        h->pc[i].count = v->counts[src];
        h->orig[i] = src;
        if (h->nterm != NULL) h->nterm[i] = (uint8_t)(b->ord[i] & 3u);
    }
}

/* Half h: view v's structures grouped by type, with `threads` threads
 * for the passes over them (8x4 open: 243 M structures, a minute on one);
 * turned by turn_key when turn is not NULL (a key may then be there twice:
 * a structure and the image of another, each with its own count and
 * index in the view, and the same partners). */
static kt_status half_build(const kt_allocator *al, const kti_half_view *v, half *h, unsigned threads,
                            const geom *turn)
{
    memset(h, 0, sizeof *h);
    size_t n = v->n;
    h->n = n;
    unsigned T = kti_range_threads(threads, n);
    /* Structures in type order: sort key type << 2 | tour ends, value the
     * index.  Open halves thus have each type's structures by their number
     * of tour ends, so the join passes over a run of them at once: most
     * lower structures of a type suit no upper structure of the type it
     * meets (6x7: 79 % of those the join visited). */
    uint64_t *ord = kti_alloc(al, (n ? n : 1) * sizeof *ord);
    uint64_t *idx = kti_alloc(al, (n ? n : 1) * sizeof *idx);
    h->key = kti_alloc(al, (n ? n : 1) * sizeof *h->key);
    h->pc = kti_alloc(al, (n ? n : 1) * sizeof *h->pc);
    h->orig = kti_alloc(al, (n ? n : 1) * sizeof *h->orig);
    if (ord == NULL || idx == NULL || h->key == NULL || h->pc == NULL || h->orig == NULL)
        goto nomem;
    if (v->open && (h->nterm = kti_alloc(al, n ? n : 1)) == NULL) goto nomem;
    hbuild b = {v, h, ord, idx, turn};
    kti_parallel_range(T, n, hbuild_keys, &b);
    if (!kti_hdp_sort(al, ord, idx, n, threads)) goto nomem;
    size_t nt = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || (ord[i] >> 2) != (ord[i - 1] >> 2)) nt++;
    h->ntypes = nt;
    size_t cap = 4;
    while (cap < 2 * nt) cap *= 2;
    h->mask = cap - 1;
    if (v->wt != NULL) {
        /* add_pair() sums an end's moves in 16-bit lanes */
        for (size_t i = 0; i < n; i++)
            if (v->counts[i] > UINT16_MAX) {
                kti_free(al, ord);
                kti_free(al, idx);
                half_free(al, h);
                return KT_EOVERFLOW;
            }
        if (!weights_alloc(al, v->wt, n, &h->wt)) goto nomem;
    }
    h->type = kti_alloc(al, (nt ? nt : 1) * sizeof *h->type);
    h->first = kti_alloc(al, (nt + 1) * sizeof *h->first);
    h->slot = kti_calloc(al, cap, sizeof *h->slot);
    if (h->type == NULL || h->first == NULL || h->slot == NULL) goto nomem;
    if (v->open && (h->ends_at = kti_alloc(al, (nt ? nt : 1) * 2 * sizeof *h->ends_at)) == NULL)
        goto nomem;
    size_t t = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t ty = (uint32_t)(ord[i] >> 2);
        if (i == 0 || ty != h->type[t - 1]) {
            h->type[t] = ty;
            h->first[t] = i;
            size_t s = type_hash(ty, h->mask);
            while (h->slot[s] != 0) s = (s + 1) & h->mask;
            h->slot[s] = (uint32_t)(t + 1);
            t++;
        }
    }
    h->first[nt] = n;
    kti_parallel_range(T, n, hbuild_fill, &b);
    /* Each structure's weight rows follow the previous one's: in order. */
    if (v->wt != NULL)
        for (size_t i = 0; i < n; i++) weights_copy(&h->wt, i, v->wt, (size_t)idx[i]);
    if (h->ends_at != NULL) find_ends_at(h);
    kti_free(al, ord);
    kti_free(al, idx);
    return KT_OK;
nomem:
    kti_free(al, ord);
    kti_free(al, idx);
    half_free(al, h);
    return KT_ENOMEM;
}

/* ---- geometry of the crossing ---- */

struct geom {
    unsigned W, nl, nu;          /* width, lower and upper boundary cells */
    uint8_t uorder[NC];          /* upper cells in step order (by column) */
    uint8_t nnb[NC];             /* per step: lower neighbours of its cell */
    uint8_t nb[NC][4];
    uint8_t nfin0;               /* lower cells without crossing steps */
    uint8_t fin0[NC];
    uint8_t nfin[NC];            /* per step: lower cells final after it */
    uint8_t fin[NC][NC];
    uint8_t mirror[NC];          /* cell -> cell of the reflected column */
};

static bool crossing(unsigned W, unsigned l, unsigned u)
{
    unsigned rl = l / W, ru = u / W;
    int dx = (int)(l % W) - (int)(u % W);
    if (dx < 0) dx = -dx;
    return (rl + ru == 0 && dx == 2) || (rl + ru == 1 && dx == 1);
}

static void geom_build(geom *g, unsigned W, unsigned nl, unsigned nu)
{
    memset(g, 0, sizeof *g);
    g->W = W;
    g->nl = nl;
    g->nu = nu;
    unsigned s = 0;
    for (unsigned x = 0; x < W; x++)
        for (unsigned u = x; u < nu; u += W) g->uorder[s++] = (uint8_t)u;
    int last[NC];
    for (unsigned l = 0; l < nl; l++) last[l] = -1;
    for (s = 0; s < nu; s++) {
        unsigned u = g->uorder[s];
        for (unsigned l = 0; l < nl; l++) {
            if (!crossing(W, l, u)) continue;
            g->nb[s][g->nnb[s]++] = (uint8_t)l;
            last[l] = (int)s;
        }
    }
    for (unsigned l = 0; l < nl; l++) {
        if (last[l] < 0) g->fin0[g->nfin0++] = (uint8_t)l;
        else g->fin[last[l]][g->nfin[last[l]]++] = (uint8_t)l;
    }
    for (unsigned c = 0; c < NC; c++)
        g->mirror[c] = (uint8_t)(c < nu || c < nl ? (c / W) * W + (W - 1 - c % W) : c);
}

static uint32_t mirror_type(const geom *g, uint32_t t, unsigned ncb)
{
    uint32_t m = 0;
    for (unsigned c = 0; c < ncb; c++) m |= ((t >> (2 * c)) & 3u) << (2 * g->mirror[c]);
    return m;
}

/* Lower-type prefixes in the order lower cells become final:
 * bits[c][j][f] has bit v set when some lower type of class c and level j
 * has first f final digits that read v in base 3.  Level 0 holds every
 * lower type; with the flip, level j > 0 only those whose rank and mirror
 * image's rank are at least from[j] (orbit_weight counts no other type
 * below an upper type of that rank or more), so the search for a small
 * upper type leaves out the step sets that would meet only larger lower
 * types.  Class 0 holds every lower type; open halves also have class 1,
 * the types with a structure of no tour end, and class 2, those with one
 * of two: an upper type whose structures all hold both tour ends meets
 * only class 1 (and one whose structures hold none only class 2).  On
 * 7x6, 65 % of the open join's step sets met a lower type without the
 * tour ends they needed: most upper types hold both ends, most lower
 * types that fit them do too, and only the few types of closed-tour
 * structures complete them. */
#define PRE_LEVELS 12
#define PRE_CLASSES 3

typedef struct ltype {
    uint32_t first, end;         /* its structures */
    uint32_t rank, mrank;        /* flip: its rank and its mirror image's */
    uint32_t end1, end2;         /* open: its first structures with 1 and with 2
                                  * tour ends (half::ends_at) */
} ltype;

typedef struct prefixes {
    uint64_t *bits[PRE_CLASSES][PRE_LEVELS][NC + 1];
    uint32_t from[PRE_LEVELS];
    unsigned nlevels, nclasses, n;
    /* The whole vectors ranked, to find a step set's lower type without a
     * hash probe: cum[i] is the number of bits set in the words of
     * bits[0][n] before word i, byrank[r] the lower type of the r-th bit
     * set and rec[r] what the leaf reads of it, in one cache line (leaves
     * are many and far apart: a hash probe and four arrays read per leaf
     * were half the search's time). */
    uint32_t *cum, *byrank;
    ltype *rec;
} prefixes;

/* Safe to call twice: a failed build frees what it made and the caller's
 * cleanup frees again (that was a double free once). */
static void prefixes_free(const kt_allocator *al, prefixes *p)
{
    for (unsigned c = 0; c < PRE_CLASSES; c++)
        for (unsigned j = 0; j < PRE_LEVELS; j++)
            for (unsigned f = 0; f <= NC; f++) {
                kti_free(al, p->bits[c][j][f]);
                p->bits[c][j][f] = NULL;
            }
    kti_free(al, p->cum);
    kti_free(al, p->byrank);
    kti_free(al, p->rec);
    p->cum = p->byrank = NULL;
    p->rec = NULL;
}

static inline bool has_prefix(uint64_t *const *bits, unsigned f, size_t v)
{
    return (bits[f][v >> 6] >> (v & 63)) & 1u;
}

/* The vector of lower type t, its digits in final order. */
static size_t type_vector(const uint8_t *order, unsigned n, uint32_t t)
{
    size_t v = 0;
    for (unsigned f = 0; f < n; f++) v = v * 3 + ((t >> (2 * order[f])) & 3u);
    return v;
}

/* The rank/select tables of the whole vectors (prefixes::cum, byrank). */
static kt_status prefixes_rank(const kt_allocator *al, const uint8_t *order, const half *lower,
                               const uint32_t *orank, size_t words, prefixes *p)
{
    const uint64_t *b = p->bits[0][0][p->n];
    size_t nt = lower->ntypes ? lower->ntypes : 1;
    if (lower->n > UINT32_MAX) return KT_EOVERFLOW;
    p->cum = kti_alloc(al, words * sizeof *p->cum);
    p->byrank = kti_alloc(al, nt * sizeof *p->byrank);
    p->rec = kti_alloc(al, nt * sizeof *p->rec);
    if (p->cum == NULL || p->byrank == NULL || p->rec == NULL) return KT_ENOMEM;
    uint32_t c = 0;
    for (size_t i = 0; i < words; i++) {
        p->cum[i] = c;
        c += (uint32_t)__builtin_popcountll(b[i]);
    }
    for (size_t i = 0; i < lower->ntypes; i++) {
        size_t v = type_vector(order, p->n, lower->type[i]);
        uint64_t below = b[v >> 6] & ((UINT64_C(1) << (v & 63)) - 1);
        uint32_t r = p->cum[v >> 6] + (uint32_t)__builtin_popcountll(below);
        p->byrank[r] = (uint32_t)i;
        p->rec[r].first = (uint32_t)lower->first[i];
        p->rec[r].end = (uint32_t)lower->first[i + 1];
        p->rec[r].rank = orank != NULL ? orank[2 * i] : 0;
        p->rec[r].mrank = orank != NULL ? orank[2 * i + 1] : 0;
        p->rec[r].end1 = (uint32_t)(lower->ends_at != NULL ? lower->ends_at[2 * i] : lower->first[i + 1]);
        p->rec[r].end2 = (uint32_t)(lower->ends_at != NULL ? lower->ends_at[2 * i + 1] : lower->first[i + 1]);
    }
    return KT_OK;
}

/* orank: per lower type its rank and its mirror image's (join_ranks), or
 * NULL for one level. */
static kt_status prefixes_build(const kt_allocator *al, const geom *g, const half *lower,
                                const uint32_t *orank, prefixes *p)
{
    memset(p, 0, sizeof *p);
    uint8_t order[NC];
    unsigned n = 0;
    for (unsigned i = 0; i < g->nfin0; i++) order[n++] = g->fin0[i];
    for (unsigned s = 0; s < g->nu; s++)
        for (unsigned i = 0; i < g->nfin[s]; i++) order[n++] = g->fin[s][i];
    p->n = n;
    p->nlevels = orank != NULL ? PRE_LEVELS : 1;
    size_t nt = lower->ntypes, words = 1;
    /* Level j from rank nt j / levels (8x8: 10 % of the leaves weigh 0
     * with these 12 levels, 34 % with 6 levels from nt (1 - 2^-j), 49 %
     * with one). */
    for (unsigned j = 0; j < p->nlevels; j++) p->from[j] = (uint32_t)(nt * j / p->nlevels);
    p->nclasses = lower->ends_at != NULL ? PRE_CLASSES : 1;
    for (unsigned c = 0; c < p->nclasses; c++)
        for (unsigned j = 0; j < p->nlevels; j++) {
            size_t pow3 = 1;
            for (unsigned f = 0; f <= n; f++, pow3 *= 3) {
                words = pow3 / 64 + 1;
                p->bits[c][j][f] = kti_calloc(al, words, sizeof(uint64_t));
                if (p->bits[c][j][f] == NULL) goto nomem;
                p->bits[c][j][f][0] = f == 0;
            }
        }
    for (size_t i = 0; i < nt; i++) {
        uint32_t t = lower->type[i];
        for (unsigned c = 0; c < p->nclasses; c++) {
            /* Class 1: a structure with no tour end; class 2: one with two. */
            if (c == 1 && lower->ends_at[2 * i] == lower->first[i]) continue;
            if (c == 2 && lower->ends_at[2 * i + 1] == lower->first[i + 1]) continue;
            for (unsigned j = 0; j < p->nlevels; j++) {
                if (j > 0 && (orank[2 * i] < p->from[j] || orank[2 * i + 1] < p->from[j])) break;
                size_t v = 0;
                for (unsigned f = 0; f < n; f++) {
                    v = v * 3 + ((t >> (2 * order[f])) & 3u);
                    p->bits[c][j][f + 1][v >> 6] |= UINT64_C(1) << (v & 63);
                }
            }
        }
    }
    kt_status rc = prefixes_rank(al, order, lower, orank, words, p);
    if (rc != KT_OK) prefixes_free(al, p);
    return rc;
nomem:
    prefixes_free(al, p);
    return KT_ENOMEM;
}

/* The rank among the whole vectors of v (see prefixes::rec); false when
 * no lower type has it. */
static inline bool prefix_type(const prefixes *p, size_t v, size_t *r)
{
    uint64_t word = p->bits[0][0][p->n][v >> 6];
    unsigned b = (unsigned)(v & 63);
    if (!((word >> b) & 1u)) return false;
    uint64_t below = word & ((UINT64_C(1) << b) - 1);
    *r = p->cum[v >> 6] + (uint32_t)__builtin_popcountll(below);
    return true;
}

/* ---- the pairings of one upper type ---- */

/* A slot's key and count side by side: an insert into a large table
 * then misses the cache once, not once per array. */
typedef struct pslot {
    uint64_t key, cnt;
} pslot;

typedef struct ptab {
    pslot *e;
    uint32_t *used;              /* the slots taken, in insertion order */
    uint32_t *pos;               /* slot -> its place in used */
    size_t cap, n;
} ptab;

/* Empty the table in O(entries), not O(capacity): one type's table may
 * have grown large, and most types after it are small. */
static void ptab_clear(ptab *t)
{
    for (size_t j = 0; j < t->n; j++) t->e[t->used[j]].key = EMPTY;
    t->n = 0;
}

static inline size_t ptab_index(uint64_t k, size_t mask)
{
    k ^= k >> 31;
    k *= 0x7FB5D329728EA185u;
    k ^= k >> 27;
    return (size_t)k & mask;
}

static bool ptab_grow(ptab *t, const kt_allocator *al)
{
    size_t ncap = t->cap ? 2 * t->cap : 1024, bytes;
    if (ncap > UINT32_MAX || !kti_mul_ok(ncap, sizeof(pslot), &bytes)) return false;
    pslot *k = kti_alloc(al, bytes);
    uint32_t *u = kti_alloc(al, ncap * sizeof *u), *p = kti_alloc(al, ncap * sizeof *p);
    if (k == NULL || u == NULL || p == NULL) {
        kti_free(al, k);
        kti_free(al, u);
        kti_free(al, p);
        return false;
    }
    for (size_t j = 0; j < ncap; j++) k[j].key = EMPTY;
    for (size_t e = 0; e < t->n; e++) {
        const pslot *from = &t->e[t->used[e]];
        size_t j = ptab_index(from->key, ncap - 1);
        while (k[j].key != EMPTY) j = (j + 1) & (ncap - 1);
        k[j] = *from;
        u[e] = (uint32_t)j;
        p[j] = (uint32_t)e;
    }
    kti_free(al, t->e);
    kti_free(al, t->used);
    kti_free(al, t->pos);
    t->e = k;
    t->used = u;
    t->pos = p;
    t->cap = ncap;
    return true;
}

/* ---- the work of one thread ---- */

/* A search for one upper structure's partners (the sampler's draws and
 * ranks): the step sets C and lower structures SL it closes a tour with,
 * in the order of the join's depth-first search, each weighing SL's
 * number of half-tours.  Locate finds the partner at cumulative weight
 * `target`; rank adds up the weight before a given (C, SL). */
typedef struct seek {
    bool rank;
    uint64_t pu;                 /* the upper structure's end pairing */
    kti_u128 target;             /* locate: the weight sought */
    uint64_t cmask;              /* rank: the step set; locate: found */
    size_t lower;                /* rank: the lower view index; locate: found */
    kti_u128 cum;                /* weight before the current partner */
    bool done;
    unsigned ends;               /* open: the tour ends its lower partners hold */
} seek;

typedef struct shared {
    const geom *g;
    const half *lower, *upper;
    const prefixes *pre;
    const size_t *work;          /* upper type indices, heaviest first */
    size_t nwork;
    const uint8_t *weight;       /* per work item: 1 or 2 */
    bool flip;                   /* halves equal: weigh (lower, upper) type pairs by orbit */
    bool hflip;                  /* the sampler's flip: by the pair's flip image only
                                  * (flip_weight) */
    bool open;                   /* open tours: structures hold 0-2 tour ends (TERM) */
    const uint32_t *orank;       /* flip: per type, its rank and its mirror image's
                                  * (join_ranks) */
    atomic_size_t next;
    atomic_size_t done;          /* the work of the types done (type_work) */
    uint64_t work_total;         /* ... and of all of them */
    atomic_bool cancel;
    kti_hprogress *prog;
    const kt_allocator *al;
    uint64_t budget;             /* pairings of one upper type; 0 = no bound */
    bool weighted;               /* also sum the turn classes */
    unsigned vec;                /* the processor's vector pairing test (VEC_*), 0: none */
    kti_u128 *parts;             /* optional: per upper view index, its partners' weight */
    const kti_half_view *uview;  /* parts: to find mirror images */
    uint64_t bquantum;           /* open join: the blocks' size (jblock), 0: none */
    size_t *bfirst;              /* ... per upper type: its first block in its
                                  * worker's list, */
    uint32_t *bcount;            /* how many (0: none, as for a type not run), */
    uint16_t *bworker;           /* which worker */
    uint8_t *bneed;              /* and the search's `need` (set_type) */
} shared;

/* Step set C reduced to segments between ports (lower ends by cell, 16 + e
 * upper end e): seg[p] is the port at the other end of p's segment. */
typedef struct segments {
    uint8_t seg[2 * NC];
    bool cycle;         /* some crossing steps close a cycle of their own */
    unsigned jl;        /* lower ends */
    unsigned l0;        /* the first lower end (when jl > 0) */
} segments;

/* A leaf waiting in its worker's batch (leaf()). */
typedef struct pending {
    segments sg;
    uint32_t r;                  /* its lower type (prefixes::rec) */
    bool cycle;                  /* C alone is the whole tour (no ends) */
    uint64_t mult;
    uint64_t cmask;              /* open: the step set C */
    uint64_t leaf;               /* open join: its index among the type's leaves */
} pending;

#define LEAF_BATCH 32

/* Inserts held back per table so that their slots are fetched together
 * (tab_add). */
#define INSERT_BATCH 16

/* The sampler's draws by rejection (open joins): the join cuts each upper
 * type's leaves, in the order of its search, into blocks of about
 * shared::bquantum lower structures walked, and keeps per block where the
 * search resumes and the weight so far of the (C, SL) partners it
 * realises (before any upper structure is tested against them), by the
 * lower structures' tour ends.  A proposal draws such a partner by weight
 * from one block's walk; it completes the drawn upper structure or not.
 * The blocks cost 40 bytes per some 65,000 (C, SL) pairs; a seek walked
 * the type from its start, half of it on average (8x8 open: 54 % of a
 * draw's time). */
typedef struct jblock {
    uint64_t leaf;               /* its first leaf, in the type's search order */
    uint64_t cmask;              /* that leaf's step set, where the search resumes */
    uint64_t cum[3];             /* the type's weight up to the block's end, by the
                                  * lower structures' tour ends */
} jblock;

/* A proposal walk of one block. */
typedef struct prop {
    unsigned j;                  /* the lower structures' tour ends */
    uint64_t target;             /* the weight sought within the block */
    uint64_t end;                /* the leaf after the block */
    bool done, found;
    uint64_t cmask, key;         /* found: the step set, the pairing it realises */
    size_t lower;                /* found: the lower view index */
} prop;

typedef struct worker {
    shared *sh;
    unsigned id;
    bool oom, ovf, limit;
    kti_u128 sum;
    ptab tab[3];                 /* by the lower structure's tour ends (closed: tab[0]) */
    uint64_t ikey[3][INSERT_BATCH], icnt[3][INSERT_BATCH];
    unsigned nins[3];            /* tab_add's inserts not yet made, per table */
    uint64_t *ck, *cc;           /* one type's pairings, compacted, tab[0] first */
    size_t ccap;
    uint8_t *cv;                 /* vector test: ck as 16 bytes each (ccap of them) */
    bool use_vec;                /* the current type's pairings are in cv */
    size_t coff[4];              /* entries of tab[j] are ck[coff[j] .. coff[j+1]) */
    uint64_t polls;
    /* the current upper type and its mirror image */
    uint32_t t, mt;
    uint32_t rt, mrt;            /* flip: their ranks */
    uint64_t *const *pbits;      /* the prefixes of the lower types it may meet */
    uint8_t udig[NC];            /* upper type digit per cell */
    uint8_t eidx[NC];            /* upper end index per cell */
    uint8_t ucell[NC];           /* upper end -> its cell */
    unsigned k;                  /* upper ends */
    unsigned need;               /* open: bit j when some upper structure of the type
                                  * matches lower ones with j tour ends */
    unsigned open_from;          /* open: the least such j that leaf_open walks */
    /* the current step set */
    uint8_t ldeg[NC];
    /* Its steps joined through trivial cells into paths, kept as the dfs
     * links them: fend[x] is the other end of the path that ends at cell x
     * (lower cell l is x = l, upper cell u is NC + u; an unlinked cell is
     * its own).  A leaf then reads its segments off the ends, where it
     * walked every path (segments_build: a tenth of the open 7x8 count),
     * and a step that closes a cycle is seen when it is made. */
    uint8_t fend[2 * NC];
    unsigned ncyc;               /* cycles of crossing steps closed */
    uint8_t lup[NC][2];          /* lower cell -> its upper cells */
    uint8_t ulo[NC][2];          /* upper cell -> its lower cells */
    uint8_t nlup[NC];
    /* weighted join: per pairing (in w->tab[0]'s insertion order) a row of
     * `stride` sums: 4 turn classes of everything but the upper ends, then
     * per upper end e and crossing move x (0..3) the lower side's count
     * (see add_pair) */
    kti_u128 wsum[KTI_TURN_CLASSES];
    uint64_t *val;
    size_t vrows;
    unsigned stride;
    /* the current step set: turns at its cells with two crossing steps,
     * the turn class of each move at each lower end, each upper end's
     * crossing move */
    uint64_t t2[KTI_TURN_CLASSES + 1];
    uint8_t lshift[NC][8];       /* 16 * turn class */
    uint8_t ucross[NC];
    unsigned nle;
    uint64_t cmask;              /* the step set: bit 4 * step + neighbour */
    seek *sk;                    /* not NULL: a seek instead of a join */
    prop *pr;                    /* not NULL: a proposal walk instead of a join */
    bool forced;                 /* the search resumes at step set fmask */
    uint64_t fmask;
    uint64_t wmult;              /* seek, proposal: the weight of the leaf walked */
    /* open join with blocks: the current type's leaves so far, its weight
     * so far, the block being filled, and every block of the worker */
    uint64_t nleaf, bvis, bcum[3];
    bool bopen, bovf;
    jblock bcur;
    jblock *blk;
    size_t nblk, cblk;
    bool bad;                    /* parts: a mirror image not in the set */
    pending batch[LEAF_BATCH];   /* closed and open join: leaves not yet walked */
    unsigned nbatch;
    pending held[LEAF_BATCH];    /* join: the batch before, its lines fetched, */
    unsigned nheld;              /* walked when the next batch is full */
} worker;


/* Add cnt to pairing key in table j (the lower structures' tour ends; 0
 * for closed tours); its slot, or SIZE_MAX when the pass must stop. */
static inline size_t tab_slot(worker *w, unsigned j, uint64_t key, uint64_t cnt)
{
    ptab *t = &w->tab[j];
    if ((t->n + 1) * 10 > t->cap * 7 && !ptab_grow(t, w->sh->al)) {
        w->oom = true;
        return SIZE_MAX;
    }
    size_t mask = t->cap - 1, i = ptab_index(key, mask);
    pslot *e = t->e;
    while (e[i].key != key && e[i].key != EMPTY) i = (i + 1) & mask;
    if (e[i].key == EMPTY) {
        if (w->sh->budget != 0 && w->tab[0].n + w->tab[1].n + w->tab[2].n >= w->sh->budget) {
            /* Stop the pass like an allocation failure would. */
            w->limit = true;
            return SIZE_MAX;
        }
        e[i].key = key;
        e[i].cnt = cnt;
        t->used[t->n++] = (uint32_t)i;
    } else if (__builtin_add_overflow(e[i].cnt, cnt, &e[i].cnt)) {
        w->ovf = true;
    }
    return i;
}

/* Make table j's held inserts, their slots prefetched first: a large
 * type's table is far larger than the cache, and its inserts, one after
 * another, each waited for their slot.  False when the pass must stop. */
static bool tab_flush(worker *w, unsigned j)
{
    unsigned n = w->nins[j];
    const ptab *t = &w->tab[j];
    w->nins[j] = 0;
    if (t->cap != 0)
        for (unsigned i = 0; i < n; i++) __builtin_prefetch(&t->e[ptab_index(w->ikey[j][i], t->cap - 1)], 1);
    for (unsigned i = 0; i < n; i++)
        if (tab_slot(w, j, w->ikey[j][i], w->icnt[j][i]) == SIZE_MAX) return false;
    return true;
}

/* Add cnt to pairing key in table j, held back until INSERT_BATCH of them
 * are (search_type makes the rest): false when the pass must stop. */
static inline bool tab_add(worker *w, unsigned j, uint64_t key, uint64_t cnt)
{
    unsigned i = w->nins[j]++;
    w->ikey[j][i] = key;
    w->icnt[j][i] = cnt;
    return i + 1 < INSERT_BATCH || tab_flush(w, j);
}

/* tab_slot's insert, giving the pairing's place in insertion order (the
 * weighted join's row) or SIZE_MAX. */
static size_t tab_put(worker *w, unsigned j, uint64_t key, uint64_t cnt)
{
    ptab *t = &w->tab[j];
    size_t n = t->n, i = tab_slot(w, j, key, cnt);
    if (i == SIZE_MAX) return SIZE_MAX;
    /* Only this caller reads pos: the join's inserts leave it be (a
     * second random write per new pairing). */
    if (t->n != n) t->pos[i] = (uint32_t)n;
    return t->pos[i];
}

/* Blocks: the weight of one leaf's lower structures with j tour ends
 * added to the type's (summed by the leaf's loop: a test per tab_add()
 * cost the join 10 %). */
static void block_weigh(worker *w, unsigned j, kti_u128 sum)
{
    if (w->sh->bquantum == 0) return;
    if (sum >> 64 != 0 || __builtin_add_overflow(w->bcum[j], (uint64_t)sum, &w->bcum[j]))
        w->bovf = true; /* the type keeps no blocks: its draws seek */
}

/* Close the block being filled: its weights are the type's so far. */
static void block_close(worker *w)
{
    if (w->nblk == w->cblk) {
        size_t nc = w->cblk ? 2 * w->cblk : 1024, bytes;
        jblock *b = NULL;
        if (kti_mul_ok(nc, sizeof *b, &bytes)) b = kti_alloc(w->sh->al, bytes);
        if (b == NULL) {
            w->oom = true;
            return;
        }
        if (w->nblk) memcpy(b, w->blk, w->nblk * sizeof *b);
        kti_free(w->sh->al, w->blk);
        w->blk = b;
        w->cblk = nc;
    }
    memcpy(w->bcur.cum, w->bcum, sizeof w->bcum);
    w->blk[w->nblk++] = w->bcur;
    w->bopen = false;
}

/* Leaf p (of lower type lt) comes next in the open join's walk: it opens
 * a block when none is open or the open one has its size. */
static void block_mark(worker *w, const pending *p, const ltype *lt)
{
    if (!w->bopen || w->bvis >= w->sh->bquantum) {
        if (w->bopen) block_close(w);
        w->bcur.leaf = p->leaf;
        w->bcur.cmask = p->cmask;
        w->bopen = true;
        w->bvis = 0;
    }
    w->bvis += lt->end - lt->first;
}

/* The weight of step set C (in w) with lower type gi when both halves are
 * one set: the board's left-right mirror and its up-down flip (which swaps
 * the halves) act on (upper, lower) type pairs; only the least pair of
 * each orbit is counted, times the orbit's size (0: not the least). */
static uint64_t orbit_weight(const worker *w, const ltype *lt)
{
    uint32_t tl = lt->rank, tu = w->rt, mtl = lt->mrank, mtu = w->mrt;
    uint64_t orbit[4] = {(uint64_t)tu << 32 | tl, (uint64_t)mtu << 32 | mtl,
                         (uint64_t)tl << 32 | tu, (uint64_t)mtl << 32 | mtu};
    unsigned distinct = 0;
    for (unsigned i = 0; i < 4; i++) {
        if (orbit[i] < orbit[0]) return 0;
        bool seen_before = false;
        for (unsigned j = 0; j < i; j++) seen_before |= orbit[j] == orbit[i];
        distinct += !seen_before;
    }
    return distinct;
}

/* The sampler's use of the up-down flip when both halves are one set: the
 * flip maps a tour with types (upper, lower) to one with (lower, upper),
 * so only the pairs whose upper type comes first are joined, by a key that
 * a type shares with its mirror image (the lesser of their ranks: the
 * sampler derives a mirror type's partners from its image's, so the pair
 * and its mirror image must be kept alike).  Weight 2: the pair stands for
 * itself and its flip image (a draw flips with a fair coin); 1: the flip
 * image is a pair of the same keys, joined on its own; 0: left to its flip
 * image.  The upper types then meet the smaller lower ones, as the count's
 * orbits have them: open 8x8 with both ends free joined in about an hour
 * on two cores, against some 2 to 2.3 hours with every pair. */
static inline uint64_t flip_weight(uint32_t tu, uint32_t mtu, uint32_t tl, uint32_t mtl)
{
    uint32_t ku = tu < mtu ? tu : mtu, kl = tl < mtl ? tl : mtl;
    return ku < kl ? 2 : ku == kl ? 1 : 0;
}

/* The weight of the current step set's leaf of lower type lt. */
static inline uint64_t leaf_mult(const worker *w, const ltype *lt)
{
    if (w->sh->flip) return orbit_weight(w, lt);
    if (w->sh->hflip) return flip_weight(w->rt, w->mrt, lt->rank, lt->mrank);
    return 1;
}

/* The port of path end x: a lower end is its cell, upper end e is 16 + e. */
static inline uint8_t port_of(const worker *w, unsigned x)
{
    return (uint8_t)(x < NC ? x : 16u + w->eidx[x - NC]);
}

/* C's segments, read off the paths' ends (worker::fend): at a leaf every
 * path ends at ports, as every cell has its steps. */
static void segments_build(const worker *w, segments *sg)
{
    unsigned nl = w->sh->g->nl;
    sg->cycle = w->ncyc != 0;
    sg->jl = 0;
    for (unsigned l = 0; l < nl; l++) {
        if (w->ldeg[l] != 1) continue;
        if (sg->jl++ == 0) sg->l0 = l;
        sg->seg[l] = port_of(w, w->fend[l]);
    }
    for (unsigned e = 0; e < w->k; e++) sg->seg[16 + e] = port_of(w, w->fend[NC + w->ucell[e]]);
}

/* C holds a cycle of trivial cells only: a tour just when that cycle is
 * everything (no ends on either side, and the cycle uses every step). */
static bool cycle_is_all(const worker *w, const segments *sg)
{
    if (sg->jl != 0 || w->k != 0) return false;
    unsigned m = 0;
    for (unsigned l = 0; l < w->sh->g->nl; l++) m += w->ldeg[l];
    unsigned l0 = 0;
    while (w->ldeg[l0] == 0) l0++;
    unsigned l = l0, u = w->lup[l0][0], n = 0;
    do {
        unsigned l2 = w->ulo[u][0] == l ? w->ulo[u][1] : w->ulo[u][0];
        u = w->lup[l2][0] == u ? w->lup[l2][1] : w->lup[l2][0];
        l = l2;
        n += 2;
    } while (l != l0 || u != w->lup[l0][0]);
    return n == m;
}

/* The pairing of the upper ends that lower structure pw realises with the
 * segments; false when a cycle closes without every lower end. */
static inline bool realise(const worker *w, const segments *sg, uint64_t pw, uint64_t *key)
{
    const uint8_t *seg = sg->seg;
    unsigned visited = 0;
    *key = 0;
    if (w->k == 0) {
        /* No upper ends: the lower ends and segments must close one cycle. */
        if (sg->jl != 0) {
            unsigned l0 = sg->l0, q = l0;
            do {
                q = seg[nib(pw, q)];
                visited += 2;
            } while (q != l0);
        }
    } else {
        uint32_t paired = 0;
        for (unsigned e = 0; e < w->k; e++) {
            if ((paired >> e) & 1u) continue;
            unsigned q = seg[16 + e];
            while (q < 16) {
                q = seg[nib(pw, q)];
                visited += 2;
            }
            unsigned f = q - 16;
            paired |= 1u << e | 1u << f;
            *key |= (uint64_t)f << (4 * e) | (uint64_t)e << (4 * f);
        }
    }
    return visited == sg->jl;
}

/* Open tours: the walk from each upper end through the segments and the
 * lower paths reaches another upper end, or (only when the lower structure
 * has one tour end, whose TERM end is its own partner) that tour end: the
 * upper end is then its own partner in the key.  A structure with two tour
 * ends is read as closed between them (partner_of_key).  False when some
 * lower path is left out (it then lies on a cycle, or on a path between
 * the two tour ends that misses the upper half). */
static inline bool realise_open(const worker *w, const segments *sg, uint64_t pw, uint64_t *key)
{
    const uint8_t *seg = sg->seg;
    unsigned visited = 0;
    *key = 0;
    uint32_t paired = 0;
    for (unsigned e = 0; e < w->k; e++) {
        if ((paired >> e) & 1u) continue;
        unsigned q = seg[16 + e], f = e;
        while (q < 16) {
            unsigned p = nib(pw, q);
            if (p == q) {
                visited++;
                break;
            }
            q = seg[p];
            visited += 2;
        }
        if (q >= 16) f = q - 16;
        paired |= 1u << e | 1u << f;
        *key |= (uint64_t)f << (4 * e) | (uint64_t)e << (4 * f);
    }
    return visited == sg->jl;
}

#if KTI_X86_VEC
/* Segment ends as walk codes: a lower end stays its cell, upper end f
 * (16 + f in segments) becomes 0x80 | f. */
__attribute__((target("ssse3"))) static inline __m128i walk_codes(__m128i v)
{
    __m128i up = _mm_cmpgt_epi8(v, _mm_set1_epi8(15));
    __m128i f = _mm_or_si128(_mm_sub_epi8(v, _mm_set1_epi8(16)), _mm_set1_epi8((char)0x80));
    return _mm_or_si128(_mm_and_si128(up, f), _mm_andnot_si128(up, v));
}

/* realise_open for every upper end at once, one byte lane per end: the
 * scalar walk costs a mispredicted branch or two per structure (its
 * paths' lengths vary), which was most of the open join's leaf time.
 * Codes: a lower end is its cell (0..15), upper end f is 0x80 | f, a
 * lower tour end 0xC0, so the sign bit marks a walk that has arrived.
 * T = one step of every walk from lower end q: the lower path to q's
 * partner, then the segment from there; arrived codes stay put.  The walks
 * take at most jl / 2 + 1 steps, so T is squared d times (2^d steps, by
 * pointer doubling: T'[q] = T[T[q]]) with C[q], the lower ends a walk from
 * q passes, summed alongside (C'[q] = C[q] + C[T[q]]); d <= 4 shuffle
 * rounds replace up to 9 dependent steps of a walk that tests each lane.
 * The key's nibble e is where end e arrives (e itself at a tour end);
 * visited counts the lower ends as the scalar walk does, each path between
 * two upper ends walked from both of them.  The segments' part, the same
 * for every lower structure of a type, is set up once (vwalk_init). */
typedef struct vwalk {
    __m128i sl;     /* the far end of the segment from each lower end */
    __m128i x0;     /* ... and from each upper end; lanes past k: arrived, nibble 0 */
    unsigned d;     /* squarings: 2^d >= jl / 2 + 1 steps (lower paths, and
                     * one into a tour end) */
    unsigned jl;
} vwalk;

__attribute__((target("ssse3"))) static void vwalk_init(vwalk *vw, const worker *w,
                                                        const segments *sg)
{
    const __m128i id = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    vw->sl = walk_codes(_mm_loadu_si128((const __m128i *)(const void *)sg->seg));
    __m128i x0 = walk_codes(_mm_loadu_si128((const __m128i *)(const void *)(sg->seg + 16)));
    __m128i lanes = _mm_cmpgt_epi8(_mm_set1_epi8((char)w->k), id);
    vw->x0 = _mm_or_si128(_mm_and_si128(lanes, x0), _mm_andnot_si128(lanes, _mm_set1_epi8((char)0x80)));
    unsigned steps = sg->jl / 2 + 1;
    vw->d = 0;
    while ((1u << vw->d) < steps) vw->d++;
    vw->jl = sg->jl;
}

/* Arrived lanes of x (sign set) as they are, the others looked up in t:
 * the shuffle gives 0 where the index has its sign bit. */
#define KTI_VSTEP(t, x) _mm_or_si128(_mm_shuffle_epi8((t), (x)), _mm_and_si128((x), _mm_cmpgt_epi8(zero, (x))))

/* The key of lower pairing pw, as realise_open's; false as it is false. */
__attribute__((target("ssse3"))) static inline bool vwalk_key(const vwalk *vw, uint64_t pw,
                                                              uint64_t *key)
{
    const __m128i id = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m128i lo4 = _mm_set1_epi8(0x0F), termc = _mm_set1_epi8((char)0xC0);
    const __m128i minus1 = _mm_set1_epi8(-1), zero = _mm_setzero_si128();
    __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)&pw);
    __m128i p = _mm_unpacklo_epi8(_mm_and_si128(v, lo4), _mm_and_si128(_mm_srli_epi16(v, 4), lo4));
    __m128i term = _mm_cmpeq_epi8(p, id);
    __m128i t = _mm_shuffle_epi8(vw->sl, p);
    t = _mm_or_si128(_mm_andnot_si128(term, t), _mm_and_si128(term, termc));
    __m128i c = _mm_set1_epi8(1);
    for (unsigned i = 0; i < vw->d; i++) {
        c = _mm_add_epi8(c, _mm_shuffle_epi8(c, t));
        t = KTI_VSTEP(t, t);
    }
    __m128i x = KTI_VSTEP(t, vw->x0);
    c = _mm_shuffle_epi8(c, vw->x0);
    /* a walk from an upper end never enters a cycle: all have arrived */
    KTI_ASSERT(_mm_movemask_epi8(x) == 0xFFFF);
    __m128i atterm = _mm_cmpeq_epi8(x, termc);
    /* per lane: c lower paths, or 2 (c - 1) + 1 ends at a tour end */
    __m128i vis = _mm_add_epi8(c, _mm_and_si128(atterm, _mm_add_epi8(c, minus1)));
    __m128i sum = _mm_sad_epu8(vis, zero);
    if ((unsigned)(_mm_cvtsi128_si32(sum) + _mm_extract_epi16(sum, 4)) != vw->jl) return false;
    /* lanes past k hold 0x80, whose nibble is 0 */
    __m128i f = _mm_or_si128(_mm_and_si128(atterm, id), _mm_andnot_si128(atterm, _mm_and_si128(x, lo4)));
    __m128i pk = _mm_maddubs_epi16(f, _mm_set1_epi16(0x1001));
    _mm_storel_epi64((__m128i *)(void *)key, _mm_packus_epi16(pk, pk));
    return true;
}

/* leaf_open's loop over the lower structures [s, s1) by vwalk_key (the
 * upper ends k > 0). */
__attribute__((target("ssse3"))) static void leaf_open_vec(worker *w, const segments *sg, size_t s,
                                                           size_t s1, unsigned ends, uint64_t mult)
{
    const half *L = w->sh->lower;
    vwalk vw;
    vwalk_init(&vw, w, sg);
    kti_u128 sum = 0;
    for (; s < s1; s++) {
        uint64_t key = 0;
        bool ok = vwalk_key(&vw, L->pc[s].partner, &key);
#ifndef NDEBUG
        uint64_t key1 = 0;
        bool ok1 = realise_open(w, sg, L->pc[s].partner, &key1);
        KTI_ASSERT(ok == ok1 && (!ok || key == key1));
#endif
        if (!ok) continue;
        if (!tab_add(w, ends, key, L->pc[s].count * mult)) return;
        sum += L->pc[s].count * mult;
    }
    block_weigh(w, ends, sum);
}

/* The same with AVX2: two lower structures a step, one in each 128-bit
 * half of the registers (the byte shuffle works within each half, so each
 * half walks its own structure against the same segments). */
#define KTI_VSTEP2(t, x) _mm256_or_si256(_mm256_shuffle_epi8((t), (x)), _mm256_and_si256((x), _mm256_cmpgt_epi8(zero, (x))))

__attribute__((target("avx2"))) static void leaf_open_avx2(worker *w, const segments *sg, size_t s,
                                                           size_t s1, unsigned ends, uint64_t mult)
{
    const half *L = w->sh->lower;
    vwalk vw;
    vwalk_init(&vw, w, sg);
    const __m256i id = _mm256_broadcastsi128_si256(
        _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    const __m256i lo4 = _mm256_set1_epi8(0x0F), termc = _mm256_set1_epi8((char)0xC0);
    const __m256i minus1 = _mm256_set1_epi8(-1), zero = _mm256_setzero_si256();
    const __m256i sl = _mm256_broadcastsi128_si256(vw.sl), x0 = _mm256_broadcastsi128_si256(vw.x0);
    const __m256i nib2 = _mm256_set1_epi16(0x1001);
    kti_u128 sum = 0;
    for (; s + 2 <= s1; s += 2) {
        /* A type's structures are read once, in a row: fetch ahead (the
         * walk is short next to a miss). */
        if (s + 24 < s1) __builtin_prefetch(&L->pc[s + 24]);
        __m256i v = _mm256_set_epi64x(0, (long long)L->pc[s + 1].partner, 0, (long long)L->pc[s].partner);
        __m256i p = _mm256_unpacklo_epi8(_mm256_and_si256(v, lo4),
                                         _mm256_and_si256(_mm256_srli_epi16(v, 4), lo4));
        __m256i term = _mm256_cmpeq_epi8(p, id);
        __m256i t = _mm256_shuffle_epi8(sl, p);
        t = _mm256_or_si256(_mm256_andnot_si256(term, t), _mm256_and_si256(term, termc));
        __m256i c = _mm256_set1_epi8(1);
        for (unsigned i = 0; i < vw.d; i++) {
            c = _mm256_add_epi8(c, _mm256_shuffle_epi8(c, t));
            t = KTI_VSTEP2(t, t);
        }
        __m256i x = KTI_VSTEP2(t, x0);
        c = _mm256_shuffle_epi8(c, x0);
        __m256i atterm = _mm256_cmpeq_epi8(x, termc);
        __m256i vis = _mm256_add_epi8(c, _mm256_and_si256(atterm, _mm256_add_epi8(c, minus1)));
        __m256i sad = _mm256_sad_epu8(vis, zero);
        __m256i f = _mm256_or_si256(_mm256_and_si256(atterm, id),
                                    _mm256_andnot_si256(atterm, _mm256_and_si256(x, lo4)));
        __m256i pk = _mm256_maddubs_epi16(f, nib2);
        pk = _mm256_packus_epi16(pk, pk);
        uint64_t sums[4], keys[4];
        _mm256_storeu_si256((__m256i *)(void *)sums, sad);
        _mm256_storeu_si256((__m256i *)(void *)keys, pk);
        for (unsigned h = 0; h < 2; h++) {
            size_t r = s + h;
            bool ok = sums[2 * h] + sums[2 * h + 1] == vw.jl;
#ifndef NDEBUG
            uint64_t key1 = 0;
            bool ok1 = realise_open(w, sg, L->pc[r].partner, &key1);
            KTI_ASSERT(ok == ok1 && (!ok || keys[2 * h] == key1));
#endif
            if (!ok) continue;
            if (!tab_add(w, ends, keys[2 * h], L->pc[r].count * mult)) return;
            sum += L->pc[r].count * mult;
        }
    }
    if (s < s1) {
        uint64_t key = 0;
        if (vwalk_key(&vw, L->pc[s].partner, &key)) {
            if (!tab_add(w, ends, key, L->pc[s].count * mult)) return;
            sum += L->pc[s].count * mult;
        }
    }
    block_weigh(w, ends, sum);
}
#undef KTI_VSTEP2
#undef KTI_VSTEP

/* vwalk_key for one structure, for callers outside an ssse3 function. */
__attribute__((target("ssse3"))) static bool realise_open_vec(const vwalk *vw, uint64_t pw,
                                                              uint64_t *key)
{
    return vwalk_key(vw, pw, key);
}
#endif

/* Open tours: the pairings realised by each lower structure of type lt,
 * filed by its number of tour ends. */
static void leaf_open(worker *w, const ltype *lt, const segments *sg, uint64_t mult)
{
    const half *L = w->sh->lower;
    const uint32_t lim[4] = {lt->first, lt->end1, lt->end2, lt->end};
    /* No upper ends: the lower half holds both tour ends, and its paths
     * closed between them must make one cycle with C. */
    for (unsigned ends = w->open_from; ends <= 2; ends++) {
        if (!((w->need >> ends) & 1u)) continue;
#if KTI_X86_VEC
        if (w->k != 0 && w->sh->vec) {
            if (w->sh->vec == KTI_HJOIN_AVX2)
                leaf_open_avx2(w, sg, lim[ends], lim[ends + 1], ends, mult);
            else
                leaf_open_vec(w, sg, lim[ends], lim[ends + 1], ends, mult);
            if (w->oom || w->limit) return;
            continue;
        }
#endif
        kti_u128 sum = 0;
        for (size_t s = lim[ends]; s < lim[ends + 1]; s++) {
            uint64_t key = 0;
            bool ok = w->k == 0 ? realise(w, sg, L->pc[s].partner, &key)
                                : realise_open(w, sg, L->pc[s].partner, &key);
            if (!ok) continue;
            if (!tab_add(w, ends, key, L->pc[s].count * mult)) return;
            sum += L->pc[s].count * mult;
        }
        block_weigh(w, ends, sum);
    }
}

/* The two pairings of k ends form a single cycle. */
static inline bool one_cycle(uint64_t pa, uint64_t pb, unsigned k)
{
    unsigned v = 0, steps = 0;
    do {
        v = nib(pa, v);
        v = nib(pb, v);
        steps++;
    } while (v != 0);
    return steps * 2 == k;
}

/* A pairing of ends as 16 bytes, byte e its partner (nibble e of p) for
 * the k ends and e itself past them, so that one byte shuffle applies it
 * to every end at once. */
static void pairing_bytes(uint64_t p, unsigned k, uint8_t *out)
{
    for (unsigned e = 0; e < 16; e++) out[e] = (uint8_t)(e < k ? nib(p, e) : e);
}

/* An open pairing (one end its own partner: its path stops at a tour end)
 * as the bytes of a pairing of k + 1 ends, that end paired with a virtual
 * end k.  Two such pairings make one path through all k ends exactly when
 * the extended ones make one cycle through k + 1 (the virtual end joins
 * the path's two ends), so the cycle test below serves open tours too. */
static void pairing_bytes_open(uint64_t p, unsigned k, uint8_t *out)
{
    pairing_bytes(p, k, out);
    for (unsigned e = 0; e < k; e++)
        if (out[e] == e) {
            out[e] = (uint8_t)k;
            out[k] = (uint8_t)e;
            break;
        }
}

#if KTI_X86_VEC
/* The combine step's inner loop: the counts of the n pairings (16 bytes
 * each at pv, counts at cnt) that form one cycle with pairing pu of the
 * k > 2 ends.  With sigma(v) = pu(pa(v)), each cycle of the union of the
 * two pairings makes two cycles of sigma of half its length, so the orbit
 * of end 0 under sigma has L <= H = k / 2 ends, and the pairings form one
 * cycle exactly when L = H (one_cycle walks the orbit end by end).  That
 * holds exactly when sigma^H(0) = 0 and sigma^(H/p)(0) != 0 for each prime
 * p dividing H (L then divides H and no H/p).  Here sigma is one byte
 * shuffle, its powers come by squaring (a shuffle each), and x_j holds
 * sigma^j(0) in every byte: 2 to 5 shuffles and two or three compares per
 * pairing, with no loads and no branches, where following the orbit took
 * H dependent shuffles and a compare after each (1.3 to 1.9 times faster
 * with AVX2, BENCHMARKS.md "The combine step by powers").  With AVX2 one
 * instruction takes two pairings, one per 16-byte lane (the shuffle stays
 * within a lane).  When 8x9 is cut with its 5-row half above, and in the
 * open 8x8 join, this loop is much of the join (upper types of thousands
 * of structures, each against thousands of pairings). */
#define KTI_ORBIT_OK(T, SH, OR, EQ, ANDNOT, s, H, z, out)                                \
    do {                                                                                 \
        T s2_, s3_, s4_, x1_, x2_, x3_, x4_;                                             \
        switch (H) {                                                                     \
        case 2:                                                                          \
            x1_ = SH(s, z);                                                              \
            (out) = ANDNOT(EQ(x1_, z), EQ(SH(s, x1_), z));                               \
            break;                                                                       \
        case 3:                                                                          \
            x1_ = SH(s, z);                                                              \
            (out) = ANDNOT(EQ(x1_, z), EQ(SH(s, SH(s, x1_)), z));                        \
            break;                                                                       \
        case 4:                                                                          \
            s2_ = SH(s, s);                                                              \
            x2_ = SH(s2_, z);                                                            \
            (out) = ANDNOT(EQ(x2_, z), EQ(SH(s2_, x2_), z));                             \
            break;                                                                       \
        case 5:                                                                          \
            s2_ = SH(s, s);                                                              \
            x1_ = SH(s, z);                                                              \
            (out) = ANDNOT(EQ(x1_, z), EQ(SH(s2_, SH(s2_, x1_)), z));                    \
            break;                                                                       \
        case 6:                                                                          \
            s2_ = SH(s, s);                                                              \
            s3_ = SH(s, s2_);                                                            \
            x3_ = SH(s3_, z);                                                            \
            (out) = ANDNOT(OR(EQ(SH(s2_, z), z), EQ(x3_, z)), EQ(SH(s3_, x3_), z));      \
            break;                                                                       \
        case 7:                                                                          \
            s2_ = SH(s, s);                                                              \
            s4_ = SH(s2_, s2_);                                                          \
            x1_ = SH(s, z);                                                              \
            (out) = ANDNOT(EQ(x1_, z), EQ(SH(s4_, SH(s2_, x1_)), z));                    \
            break;                                                                       \
        default: /* 8 */                                                                 \
            s2_ = SH(s, s);                                                              \
            s4_ = SH(s2_, s2_);                                                          \
            x4_ = SH(s4_, z);                                                            \
            (out) = ANDNOT(EQ(x4_, z), EQ(SH(s4_, x4_), z));                             \
            break;                                                                       \
        }                                                                                \
    } while (0)

__attribute__((target("ssse3"))) static inline kti_u128 cycles_ssse3_h(const uint8_t *pv,
                                                                       const uint64_t *cnt, size_t n,
                                                                       __m128i u, unsigned H)
{
    const __m128i zero = _mm_setzero_si128();
    kti_u128 sum = 0;
    for (size_t i = 0; i < n; i++) {
        __m128i sigma = _mm_shuffle_epi8(u, _mm_loadu_si128((const __m128i *)(const void *)(pv + 16 * i))), ok;
        KTI_ORBIT_OK(__m128i, _mm_shuffle_epi8, _mm_or_si128, _mm_cmpeq_epi8, _mm_andnot_si128, sigma, H,
                     zero, ok);
        sum += cnt[i] & (0 - (uint64_t)(_mm_cvtsi128_si32(ok) & 1));
    }
    return sum;
}

/* Four pairings a step.  Every byte of a lane's result is its pairing's
 * answer, so the answers of four pairings are four 64-bit masks of their
 * counts, summed in four 64-bit lanes with a carry count each (the scalar
 * 128-bit sum of each count was as costly as the shuffles). */
__attribute__((target("avx2"))) static inline kti_u128 cycles_avx2_h(const uint8_t *pv,
                                                                     const uint64_t *cnt, size_t n,
                                                                     __m128i u1, unsigned H)
{
    const __m256i zero = _mm256_setzero_si256(), u = _mm256_broadcastsi128_si256(u1);
    const __m256i sign = _mm256_set1_epi64x(INT64_MIN);
    __m256i acc = zero, carry = zero;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256i sa = _mm256_shuffle_epi8(u, _mm256_loadu_si256((const __m256i *)(const void *)(pv + 16 * i)));
        __m256i sb = _mm256_shuffle_epi8(u, _mm256_loadu_si256((const __m256i *)(const void *)(pv + 16 * i + 32)));
        __m256i oa, ob;
        KTI_ORBIT_OK(__m256i, _mm256_shuffle_epi8, _mm256_or_si256, _mm256_cmpeq_epi8, _mm256_andnot_si256,
                     sa, H, zero, oa);
        KTI_ORBIT_OK(__m256i, _mm256_shuffle_epi8, _mm256_or_si256, _mm256_cmpeq_epi8, _mm256_andnot_si256,
                     sb, H, zero, ob);
        /* the masks of pairings i, i + 2, i + 1, i + 3; the counts in that order */
        __m256i c = _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(cnt + i)), 0xD8);
        __m256i add = _mm256_and_si256(_mm256_unpacklo_epi64(oa, ob), c);
        acc = _mm256_add_epi64(acc, add);
        /* a lane wrapped when its new sum is below what it added (unsigned) */
        carry = _mm256_sub_epi64(carry, _mm256_cmpgt_epi64(_mm256_xor_si256(add, sign),
                                                           _mm256_xor_si256(acc, sign)));
    }
    uint64_t a[4], cy[4];
    _mm256_storeu_si256((__m256i *)(void *)a, acc);
    _mm256_storeu_si256((__m256i *)(void *)cy, carry);
    kti_u128 sum = 0;
    for (unsigned j = 0; j < 4; j++) sum += (kti_u128)a[j] + ((kti_u128)cy[j] << 64);
    if (i < n) sum += cycles_ssse3_h(pv + 16 * i, cnt + i, n - i, u1, H);
    return sum;
}

/* One case per orbit length, so that each is unrolled. */
#define KTI_CYCLES_CASES(fn)                                                             \
    switch (k / 2) {                                                                     \
    case 2: return fn(pv, cnt, n, u, 2);                                                 \
    case 3: return fn(pv, cnt, n, u, 3);                                                 \
    case 4: return fn(pv, cnt, n, u, 4);                                                 \
    case 5: return fn(pv, cnt, n, u, 5);                                                 \
    case 6: return fn(pv, cnt, n, u, 6);                                                 \
    case 7: return fn(pv, cnt, n, u, 7);                                                 \
    default: return fn(pv, cnt, n, u, 8);                                                \
    }

__attribute__((target("ssse3"))) static kti_u128 cycles_ssse3(const uint8_t *pv, const uint64_t *cnt,
                                                              size_t n, const uint8_t *ub, unsigned k)
{
    __m128i u = _mm_loadu_si128((const __m128i *)(const void *)ub);
    KTI_CYCLES_CASES(cycles_ssse3_h)
}

__attribute__((target("avx2"))) static kti_u128 cycles_avx2(const uint8_t *pv, const uint64_t *cnt,
                                                            size_t n, const uint8_t *ub, unsigned k)
{
    __m128i u = _mm_loadu_si128((const __m128i *)(const void *)ub);
    KTI_CYCLES_CASES(cycles_avx2_h)
}

/* The instruction sets of the vector test (shared::vec). */
enum { VEC_NONE = KTI_HJOIN_SCALAR, VEC_SSSE3 = KTI_HJOIN_SSSE3, VEC_AVX2 = KTI_HJOIN_AVX2 };

/* pu's pairing in bytes, ub (pairing_bytes or pairing_bytes_open), of k ends. */
static kti_u128 cycles_vec(unsigned vec, const uint8_t *pv, const uint64_t *cnt, size_t n,
                           const uint8_t *ub, unsigned k)
{
    return vec == VEC_AVX2 ? cycles_avx2(pv, cnt, n, ub, k) : cycles_ssse3(pv, cnt, n, ub, k);
}
#endif

/* Compatible with the sought upper structure: one cycle with its ends. */
static inline bool seek_fits(const worker *w, const segments *sg, uint64_t pw)
{
    uint64_t key;
    if (!realise(w, sg, pw, &key)) return false;
    return w->k == 0 || one_cycle(key, w->sk->pu, w->k);
}

/* The pairing q of the lower ends that the steps and the sought upper
 * structure's paths make between them (through any number of upper
 * paths); false when some upper paths close a cycle of their own, which
 * no lower structure can join. */
static bool seek_chains(const worker *w, const segments *sg, uint8_t *q)
{
    unsigned seen = 0;
    for (unsigned l = 0; l < w->sh->g->nl; l++) {
        if (w->ldeg[l] != 1) continue;
        unsigned p = sg->seg[l];
        while (p >= 16) {
            p = sg->seg[16 + nib(w->sk->pu, p - 16)];
            seen += 2;
        }
        q[l] = (uint8_t)p;
    }
    /* every chain is walked from both of its lower ends */
    return seen / 2 == w->k;
}

/* Lower structure pw and the chains q make one cycle through all jl lower ends. */
static inline bool seek_cycle(const uint8_t *q, uint64_t pw, unsigned l0, unsigned jl)
{
    unsigned v = l0, n = 0;
    do {
        v = q[nib(pw, v)];
        n += 2;
    } while (v != l0);
    return n == jl;
}

/* The seek's leaf: walk the lower structures of type gi that close a tour
 * with step set C, adding their weights until the target (locate) or the
 * given partner (rank) is reached.  Whether one does depends only on its
 * pairing of the lower ends against the chains of the steps and the upper
 * structure (or on nothing, when there are no lower ends). */
static inline bool one_path(uint64_t pa, uint64_t pb, unsigned k);

/* Whether a lower structure's pairing pl of the k upper ends (k = 0: no
 * lower ends, nothing to test) closes upper pairing pu into one tour: an
 * open walk when the lower structure holds one of the tour ends (`lends`
 * 1), one cycle otherwise (closed tours; both tour ends below or none). */
static inline bool closes_tour(uint64_t pl, uint64_t pu, unsigned k, unsigned lends)
{
    return k == 0 || (lends == 1 ? one_path(pl, pu, k) : one_cycle(pl, pu, k));
}

static void seek_leaf(worker *w, size_t r)
{
    const half *L = w->sh->lower;
    seek *sk = w->sk;
    size_t gi = w->sh->pre->byrank[r];
    uint64_t mult = leaf_mult(w, &w->sh->pre->rec[r]);
    if (mult == 0) return;
    segments sg;
    segments_build(w, &sg);
    bool all = sg.cycle;
    uint8_t q[NC];
    unsigned l0 = 0;
    if (all) {
        /* leaf_cycle_only's test: the steps are one cycle and nothing else */
        if (!cycle_is_all(w, &sg)) return;
    } else if (sg.jl == 0) {
        /* the upper ends and the steps alone: the same for every lower structure */
        if (!seek_fits(w, &sg, 0)) return;
        all = true;
    } else {
        if (!seek_chains(w, &sg, q)) return;
        while (w->ldeg[l0] != 1) l0++;
    }
    bool here = sk->rank && sk->cmask == w->cmask;
    for (size_t s = L->first[gi], s1 = L->first[gi + 1]; s < s1; s++) {
        if (!all && !seek_cycle(q, L->pc[s].partner, l0, sg.jl)) continue;
        if (here && L->orig[s] == sk->lower) {
            sk->done = true;
            return;
        }
        if (!sk->rank && sk->target < sk->cum + L->pc[s].count * mult) {
            sk->cmask = w->cmask;
            sk->lower = L->orig[s];
            sk->target -= sk->cum;
            sk->done = true;
            return;
        }
        sk->cum += L->pc[s].count * mult;
    }
}

/* Advance the seek past lower structure s (view index orig, weight cnt)
 * of step set cmask: true when it is the partner sought. */
static inline bool seek_step(worker *w, uint64_t cmask, size_t orig, uint64_t cnt)
{
    seek *sk = w->sk;
    if (sk->rank && sk->cmask == cmask && orig == sk->lower) {
        sk->done = true;
        return true;
    }
    if (!sk->rank && sk->target < sk->cum + cnt) {
        sk->cmask = cmask;
        sk->lower = orig;
        sk->target -= sk->cum;
        sk->done = true;
        return true;
    }
    sk->cum += cnt;
    return false;
}

/* The first lower structure of type gi with j tour ends (L->pc order). */
static inline size_t ends_from(const half *L, size_t gi, unsigned j)
{
    return j == 0 ? L->first[gi] : j == 1 ? L->ends_at[2 * gi] : L->ends_at[2 * gi + 1];
}

/* Realise the lower structures [s, s1) against step set cmask reduced to
 * sg, in order (the byte-lane walk where the CPU has it, checked against
 * the scalar walk in builds with asserts), and hand each that realises a
 * pairing to visit with its key, until visit says stop (true).  The seek
 * and the proposals walk through it; both are inlined with their visitor. */
static inline void walk_lower(worker *w, const segments *sg, uint64_t cmask, size_t s, size_t s1,
                              bool (*visit)(worker *, size_t, uint64_t, uint64_t))
{
    const half *L = w->sh->lower;
#if KTI_X86_VEC
    vwalk vw;
    bool vec = w->k != 0 && w->sh->vec;
    if (vec) vwalk_init(&vw, w, sg);
#endif
    for (; s < s1; s++) {
        uint64_t key = 0;
        bool ok;
#if KTI_X86_VEC
        if (vec) {
            ok = realise_open_vec(&vw, L->pc[s].partner, &key);
#ifndef NDEBUG
            uint64_t key1 = 0;
            bool ok1 = realise_open(w, sg, L->pc[s].partner, &key1);
            KTI_ASSERT(ok == ok1 && (!ok || key == key1));
#endif
        } else
#endif
            ok = w->k == 0 ? realise(w, sg, L->pc[s].partner, &key)
                           : realise_open(w, sg, L->pc[s].partner, &key);
        if (ok && visit(w, s, key, cmask)) return;
    }
}

/* The open seek's test of lower structure s (key realised): it must close
 * the sought upper structure (tested as the join's table is: leaf_open,
 * then matches()); true when it is the partner sought. */
static bool seek_visit(worker *w, size_t s, uint64_t key, uint64_t cmask)
{
    const half *L = w->sh->lower;
    const seek *sk = w->sk;
    if (!closes_tour(key, sk->pu, w->k, sk->ends)) return false;
    return seek_step(w, cmask, L->orig[s], L->pc[s].count * w->wmult);
}

/* The open seek's walk of one leaf: the lower structures of type gi with
 * the tour ends the sought upper structure leaves them (sk->ends). */
static void seek_walk_open(worker *w, const segments *sg, uint64_t cmask, size_t gi)
{
    const half *L = w->sh->lower;
    unsigned j = w->sk->ends;
    walk_lower(w, sg, cmask, ends_from(L, gi, j), j == 2 ? L->first[gi + 1] : ends_from(L, gi, j + 1),
               seek_visit);
}

/* Walk the open seek's batch in the order its leaves came: the join's
 * reason to batch holds here too (each leaf's lower structures are a
 * cache miss away; a draw of 7x8 open between two cells spent a third of
 * its time waiting there), and walking in order keeps the ranks. */
static void flush_seek(worker *w)
{
    const half *L = w->sh->lower;
    const prefixes *pre = w->sh->pre;
    unsigned n = w->nbatch;
    w->nbatch = 0;
    for (unsigned i = 0; i < n; i++) {
        size_t gi = pre->byrank[w->batch[i].r];
        __builtin_prefetch(&L->pc[ends_from(L, gi, w->sk->ends)]);
        __builtin_prefetch(&L->orig[ends_from(L, gi, w->sk->ends)]);
    }
    for (unsigned i = 0; i < n && !w->sk->done; i++) {
        const pending *p = &w->batch[i];
        w->wmult = leaf_mult(w, &pre->rec[p->r]);
        if (w->wmult != 0) seek_walk_open(w, &p->sg, p->cmask, pre->byrank[p->r]);
    }
}

/* The seek's leaf for open tours: held in the batch unless no lower
 * structure of type gi can complete the sought upper one with C. */
static void seek_leaf_open(worker *w, size_t r)
{
    const half *L = w->sh->lower;
    unsigned j = w->sk->ends;
    if (j > 2 || (w->k == 0 && j != 2)) return;
    pending *p = &w->batch[w->nbatch];
    segments_build(w, &p->sg);
    if (p->sg.cycle) return; /* a cycle of crossing steps alone */
    p->r = (uint32_t)r;
    p->cmask = w->cmask;
    size_t gi = w->sh->pre->byrank[r];
    __builtin_prefetch(&L->first[gi]);
    __builtin_prefetch(&L->ends_at[2 * gi]);
    if (++w->nbatch == LEAF_BATCH) flush_seek(w);
}

/* The proposal's weighing of lower structure s (key realised, as
 * leaf_open files it): true when the target falls in its half-tours. */
static bool prop_visit(worker *w, size_t s, uint64_t key, uint64_t cmask)
{
    const half *L = w->sh->lower;
    prop *pr = w->pr;
    uint64_t c = L->pc[s].count * w->wmult;
    if (pr->target < c) {
        pr->found = pr->done = true;
        pr->cmask = cmask;
        pr->key = key;
        pr->lower = L->orig[s];
        return true;
    }
    pr->target -= c;
    return false;
}

/* Walk the proposal's batch in the order its leaves came (flush_seek's
 * reasons hold). */
static void flush_prop(worker *w)
{
    const half *L = w->sh->lower;
    const prefixes *pre = w->sh->pre;
    prop *pr = w->pr;
    unsigned n = w->nbatch;
    w->nbatch = 0;
    for (unsigned i = 0; i < n; i++) {
        const ltype *lt = &pre->rec[w->batch[i].r];
        size_t at = pr->j == 0 ? lt->first : pr->j == 1 ? lt->end1 : lt->end2;
        __builtin_prefetch(&L->pc[at]);
        __builtin_prefetch(&L->orig[at]);
    }
    for (unsigned i = 0; i < n && !pr->done; i++) {
        const pending *p = &w->batch[i];
        const ltype *lt = &pre->rec[p->r];
        const uint32_t lim[4] = {lt->first, lt->end1, lt->end2, lt->end};
        w->wmult = leaf_mult(w, lt);
        if (w->wmult != 0) walk_lower(w, &p->sg, p->cmask, lim[pr->j], lim[pr->j + 1], prop_visit);
    }
}

/* The proposal's leaf: counted as the join's leaf() counts it, walked
 * when it lies in the block. */
static void prop_leaf(worker *w, size_t r)
{
    pending *p = &w->batch[w->nbatch];
    segments_build(w, &p->sg);
    if (p->sg.cycle) return; /* a cycle of crossing steps: not a leaf of the join's */
    if (w->nleaf++ >= w->pr->end) {
        flush_prop(w);
        w->pr->done = true;
        return;
    }
    p->r = (uint32_t)r;
    p->cmask = w->cmask;
    __builtin_prefetch(&w->sh->pre->rec[r]);
    if (++w->nbatch == LEAF_BATCH) flush_prop(w);
}

/* ---- the weighted leaf ---- */

/* The move of a crossing step from boundary cell a of one half to b of the
 * other, in a's half's frame (x, distance from the cut). */
static unsigned cross_move(unsigned W, unsigned a, unsigned b)
{
    int dx = (int)(b % W) - (int)(a % W);
    int dy = -(int)(a / W + b / W + 1);
    return kti_ht_move(dx, dy);
}

/* What step set C fixes: the turns of the cells with two crossing steps,
 * the turn class of each internal move at each lower end, and the
 * crossing move of each upper end (0..3: every crossing move has dy < 0). */
static void prepare_c(worker *w)
{
    const geom *g = w->sh->g;
    unsigned W = g->W;
    memset(w->t2, 0, sizeof w->t2);
    w->nle = 0;
    for (unsigned l = 0; l < g->nl; l++) {
        if (w->ldeg[l] == 2) {
            w->t2[kti_ht_turn(cross_move(W, l, w->lup[l][0]), cross_move(W, l, w->lup[l][1]))]++;
        } else if (w->ldeg[l] == 1) {
            unsigned x = cross_move(W, l, w->lup[l][0]);
            /* Class 4 (m = x) would be an internal move that also crosses:
             * there is none, its count is 0, and a shift of 64 is undefined. */
            for (unsigned m = 0; m < 8; m++)
                w->lshift[w->nle][m] = (uint8_t)(16 * (kti_ht_turn(m, x) & 3u));
            w->nle++;
        }
    }
    for (unsigned u = 0; u < g->nu; u++) {
        if (w->udig[u] == 2)
            w->t2[kti_ht_turn(cross_move(W, u, w->ulo[u][0]), cross_move(W, u, w->ulo[u][1]))]++;
        else if (w->udig[u] == 1)
            w->ucross[w->eidx[u]] = (uint8_t)cross_move(W, u, w->ulo[u][0]);
    }
}

/* The row of w->val of entry `row` (rows are as long as the longest
 * stride, so a table's rows never move when the stride changes); NULL
 * when out of memory. */
static uint64_t *val_row(worker *w, size_t row)
{
    size_t st = w->stride;
    if (row >= w->vrows) {
        size_t nr = w->vrows ? 2 * w->vrows : 1024, bytes;
        while (nr <= row) nr *= 2;
        if (!kti_mul_ok(nr, KTI_TURN_CLASSES * (NC + 1) * sizeof *w->val, &bytes)) return NULL;
        uint64_t *v = kti_alloc(w->sh->al, bytes);
        if (v == NULL) return NULL;
        if (w->vrows) memcpy(v, w->val, w->vrows * KTI_TURN_CLASSES * (NC + 1) * sizeof *v);
        kti_free(w->sh->al, w->val);
        w->val = v;
        w->vrows = nr;
    }
    return &w->val[row * st];
}

/* Lower structure s with step set C realised pairing key: add its count,
 * its turns and C's, and the count per upper end and crossing move. */
static void add_pair(worker *w, size_t s, uint64_t key, uint64_t mult)
{
    const half *L = w->sh->lower;
    uint64_t nl = L->pc[s].count;
    size_t before = w->tab[0].n;
    size_t row = tab_put(w, 0, key, nl * mult);
    if (row == SIZE_MAX) return;
    uint64_t *v = val_row(w, row);
    if (v == NULL) {
        w->oom = true;
        return;
    }
    if (w->tab[0].n != before) memset(v, 0, w->stride * sizeof *v);
    const kti_half_weights *wt = &L->wt;
    const uint64_t *tl = &wt->turn[KTI_TURN_CLASSES * s];
    uint64_t a0 = nl * w->t2[0] + tl[0], a1 = nl * w->t2[1] + tl[1];
    uint64_t a2 = nl * w->t2[2] + tl[2], a3 = nl * w->t2[3] + tl[3];
    const uint16_t *d = &wt->dir[8 * wt->end_off[s]];
    /* Each end's moves summed by class in 16-bit lanes of one register (an
     * end's row sums to the structure's count, at most 65535), not through
     * memory: this loop runs for every (step set, lower structure). */
    for (unsigned j = 0; j < w->nle; j++, d += 8) {
        uint64_t acc = 0;
        for (unsigned m = 0; m < 8; m++) acc += (uint64_t)d[m] << w->lshift[j][m];
        a0 += acc & 0xFFFFu;
        a1 += (acc >> 16) & 0xFFFFu;
        a2 += (acc >> 32) & 0xFFFFu;
        a3 += acc >> 48;
    }
    v[0] += a0 * mult;
    v[1] += a1 * mult;
    v[2] += a2 * mult;
    v[3] += a3 * mult;
    for (unsigned e = 0; e < w->k; e++) v[KTI_TURN_CLASSES * (1 + e) + w->ucross[e]] += nl * mult;
}

/* leaf(), weighted. */
static void leaf_w(worker *w, size_t gi, uint64_t mult)
{
    const half *L = w->sh->lower;
    segments sg;
    segments_build(w, &sg);
    bool cycle = sg.cycle;
    if (cycle && !cycle_is_all(w, &sg)) return;
    prepare_c(w);
    for (size_t s = L->first[gi], s1 = L->first[gi + 1]; s < s1; s++) {
        uint64_t key = 0;
        if (!cycle && !realise(w, &sg, L->pc[s].partner, &key)) continue;
        add_pair(w, s, key, mult);
        if (w->oom || w->limit) return;
    }
}

/* The weighted join's leaf (see leaf()). */
static void leaf_now(worker *w, size_t r)
{
    const prefixes *pre = w->sh->pre;
    uint64_t mult = leaf_mult(w, &pre->rec[r]);
    if (mult != 0) leaf_w(w, pre->byrank[r], mult);
}

/* Fetch the first lower structures of the n leaves at b, and weigh them
 * (pending::mult; 0: left to another pair of types). */
static void fetch_leaves(worker *w, pending *b, unsigned n)
{
    const prefixes *pre = w->sh->pre;
    const half *L = w->sh->lower;
    for (unsigned i = 0; i < n; i++) {
        pending *p = &b[i];
        const ltype *lt = &pre->rec[p->r];
        p->mult = leaf_mult(w, lt);
        if (p->mult == 0) continue;
        /* Open: where leaf_open starts, at the first structures with as
         * many tour ends as the upper type needs. */
        uint32_t at = lt->first;
        if (w->sh->open) at = w->open_from == 0 ? lt->first : w->open_from == 1 ? lt->end1 : lt->end2;
        __builtin_prefetch(&L->pc[at]);
        __builtin_prefetch(&L->pc[at] + 4);
    }
}

/* Walk n fetched leaves: each lower structure of each leaf's type with
 * its step set gives a pairing of the upper ends, or none. */
static void walk_leaves(worker *w, const pending *b, unsigned n)
{
    const prefixes *pre = w->sh->pre;
    const half *L = w->sh->lower;
    for (unsigned i = 0; i < n; i++) {
        const pending *p = &b[i];
        if (p->mult == 0) continue;
        const ltype *lt = &pre->rec[p->r];
        if (w->sh->open) {
            if (w->sh->bquantum != 0) block_mark(w, p, lt);
            leaf_open(w, lt, &p->sg, p->mult);
            if (w->oom || w->limit) return;
            continue;
        }
        for (size_t s = lt->first, s1 = lt->end; s < s1; s++) {
            uint64_t key = 0;
            if (!p->cycle && !realise(w, &p->sg, L->pc[s].partner, &key)) continue;
            if (!tab_add(w, 0, key, L->pc[s].count * p->mult)) return;
        }
    }
}

/* The batch is full: fetch its lines, walk the batch before it (fetched
 * one batch earlier, so its lines have had a batch's walk to arrive: with
 * the fetch just before the walk, the first leaves of every batch waited
 * for theirs), and hold this one.  Leaves are walked in the order they
 * came, as the blocks (block_mark) need. */
static void rotate_leaves(worker *w)
{
    fetch_leaves(w, w->batch, w->nbatch);
    walk_leaves(w, w->held, w->nheld);
    memcpy(w->held, w->batch, w->nbatch * sizeof *w->held);
    w->nheld = w->nbatch;
    w->nbatch = 0;
}

/* The end of a type's search: walk what is held, then the batch. */
static void flush_leaves(worker *w)
{
    walk_leaves(w, w->held, w->nheld);
    w->nheld = 0;
    if (w->oom || w->limit) return;
    fetch_leaves(w, w->batch, w->nbatch);
    walk_leaves(w, w->batch, w->nbatch);
    w->nbatch = 0;
}

/* Step set C (in w) is complete and leaves the lower cells the lower type
 * of rank r (prefixes::rec): add the pairing of the upper ends that each
 * lower structure of that type realises with C.  The join holds the
 * leaf in a batch, with C reduced to its segments, and walks it once the
 * batch after it is full (rotate_leaves): the leaves' types and
 * structures lie far apart in memory, and fetching a batch's of them
 * together overlaps the waits (two cache misses per leaf were 40 % of the
 * closed join's time, and three a third of the open join's before it
 * batched too). */
static void leaf(worker *w, size_t r)
{
    const prefixes *pre = w->sh->pre;
    if (w->pr != NULL) {
        prop_leaf(w, r);
        return;
    }
    if (w->sk != NULL) {
        if (w->sh->open) seek_leaf_open(w, r);
        else seek_leaf(w, r);
        return;
    }
    if (w->sh->weighted) {
        leaf_now(w, r);
        return;
    }
    pending *p = &w->batch[w->nbatch];
    segments_build(w, &p->sg);
    /* A cycle of crossing steps and trivial cells: a closed tour just when
     * it is everything; never part of an open tour. */
    p->cycle = p->sg.cycle;
    if (p->cycle && (w->sh->open || !cycle_is_all(w, &p->sg))) return;
    p->r = (uint32_t)r;
    p->cmask = w->cmask;
    p->leaf = w->nleaf++;
    __builtin_prefetch(&pre->rec[r]);
    if (++w->nbatch == LEAF_BATCH) rotate_leaves(w);
}

/* Poll for cancellation (and report progress from thread 0). */
static bool stopped(worker *w)
{
    shared *sh = w->sh;
    if (w->oom || w->limit) {
        /* The call fails anyway: stop the other threads too. */
        atomic_store(&sh->cancel, true);
        return true;
    }
    if (w->id == 0 && sh->prog != NULL) {
        kti_hprogress *p = sh->prog;
        uint64_t d = (uint64_t)atomic_load_explicit(&sh->done, memory_order_relaxed);
        uint64_t part = sh->work_total ? d * KTI_HALFTOUR_JOIN_UNITS / sh->work_total : 0;
        if (kti_progress_tick(&p->p, p->done + part, p->total)) atomic_store(&sh->cancel, true);
    }
    return atomic_load_explicit(&sh->cancel, memory_order_relaxed);
}

static void dfs(worker *w, unsigned s, unsigned f, size_t pv);

/* 3^m for the m <= 2 digits finals_allowed reads. */
static inline unsigned finals_len(unsigned m)
{
    return m == 0 ? 1u : m == 1 ? 3u : 9u;
}

/* The final digits that the m <= 2 lower cells made final by step s may
 * take after a prefix pv of f digits: bit 3 a + b (m = 2) or b (m = 1)
 * set when some lower type's prefix goes on with digits a, b.  Read once
 * per step from one word or two, not once per choice of its crossing
 * steps: most choices fail there, and each test was a cache miss. */
static inline uint32_t finals_allowed(const worker *w, unsigned m, unsigned f, size_t pv)
{
    if (m == 0) return 1;
    unsigned len = finals_len(m);
    size_t base = pv * len;
    const uint64_t *b = w->pbits[f + m];
    unsigned off = (unsigned)(base & 63);
    uint64_t v = b[base >> 6] >> off;
    if (off + len > 64) v |= b[(base >> 6) + 1] << (64 - off);
    return (uint32_t)(v & ((UINT64_C(1) << len) - 1));
}

/* The digits of the lower cells made final by step s appended to the
 * prefix (*f digits, value *pv) one by one, each checked against the
 * lower types' prefixes; false as soon as no type goes on so. */
static inline bool finals_each(const worker *w, unsigned s, unsigned *f, size_t *pv)
{
    const geom *g = w->sh->g;
    for (unsigned i = 0; i < g->nfin[s]; i++) {
        *pv = *pv * 3 + w->ldeg[g->fin[s][i]];
        if (!has_prefix(w->pbits, ++*f, *pv)) return false;
    }
    return true;
}

/* The lower cells whose last crossing neighbour was step s are final;
 * `allow` is finals_allowed's mask when there are at most two. */
static void finish_step(worker *w, unsigned s, unsigned f, size_t pv, uint32_t allow)
{
    const geom *g = w->sh->g;
    unsigned m = g->nfin[s];
    if (m <= 2) {
        unsigned idx = 0;
        for (unsigned i = 0; i < m; i++) idx = idx * 3 + w->ldeg[g->fin[s][i]];
        if ((allow >> idx) & 1u) dfs(w, s + 1, f + m, pv * finals_len(m) + idx);
        return;
    }
    if (finals_each(w, s, &f, &pv)) dfs(w, s + 1, f, pv);
}

/* Step (l, u) joins the paths ending at l and at u; *a and *b get their
 * far ends, for unlink.  True when it closes a cycle instead (the two are
 * one path). */
static inline bool link(worker *w, unsigned l, unsigned u, unsigned slot, unsigned *a,
                        unsigned *b)
{
    w->lup[l][w->ldeg[l]++] = (uint8_t)u;
    w->ulo[u][slot] = (uint8_t)l;
    *a = w->fend[l];
    *b = w->fend[NC + u];
    if (*a == NC + u) {
        w->ncyc++;
        return true;
    }
    w->fend[*a] = (uint8_t)*b;
    w->fend[*b] = (uint8_t)*a;
    return false;
}

static inline void unlink_step(worker *w, unsigned l, unsigned u, unsigned a, unsigned b,
                               bool cyc)
{
    w->ldeg[l]--;
    if (cyc) {
        w->ncyc--;
        return;
    }
    w->fend[a] = (uint8_t)l;
    w->fend[b] = (uint8_t)(NC + u);
}

/* Give the upper cell of step s its crossing steps, every way. */
static void dfs(worker *w, unsigned s, unsigned f, size_t pv)
{
    const geom *g = w->sh->g;
    if ((w->sk != NULL && w->sk->done) || (w->pr != NULL && w->pr->done)) return;
    /* Upper cells of digit 0 take no crossing step and only make lower
     * cells final: passed over here, not one call each (they were 40 % of
     * the calls of the open join on 7x6). */
    while (s < g->nu && w->udig[g->uorder[s]] == 0) {
        if (!finals_each(w, s, &f, &pv)) return;
        s++;
    }
    if (s == g->nu) {
        w->forced = false; /* a resumed search: its first leaf */
        if ((++w->polls & 0xFFFFu) == 0 && stopped(w)) return;
        /* Every lower cell is final here, and pv is its whole vector. */
        size_t r;
        if (prefix_type(w->sh->pre, pv, &r)) leaf(w, r);
        return;
    }
    if (w->oom || w->limit || atomic_load_explicit(&w->sh->cancel, memory_order_relaxed)) return;
    unsigned u = g->uorder[s], d = w->udig[u], nn = g->nnb[s];
    const uint8_t *nb = g->nb[s];
    uint32_t allow = g->nfin[s] <= 2 ? finals_allowed(w, g->nfin[s], f, pv) : 0;
    if (g->nfin[s] <= 2 && allow == 0) return;
    /* A resumed search (a proposal's block) takes the choices of fmask's
     * path first and none before them. */
    bool fz = w->forced;
    unsigned fbits = fz ? (unsigned)(w->fmask >> (4 * s)) & 15u : 0u;
    unsigned fa = fz ? (unsigned)__builtin_ctz(fbits | 16u) : 0u;
    unsigned fb = fz && d == 2 ? (unsigned)__builtin_ctz((fbits & (fbits - 1)) | 16u) : 0u;
    for (unsigned a = fa; a < nn; a++) {
        unsigned la = nb[a];
        if (w->ldeg[la] >= 2) continue;
        /* u has no step yet: this one closes no cycle */
        unsigned ea, eb;
        (void)link(w, la, u, 0, &ea, &eb);
        uint64_t ba = 1ull << (4 * s + a);
        w->cmask |= ba;
        if (d == 1) {
            w->forced = fz && a == fa;
            finish_step(w, s, f, pv, allow);
        } else {
            for (unsigned b = fz && a == fa ? fb : a + 1; b < nn; b++) {
                unsigned lb = nb[b];
                if (w->ldeg[lb] >= 2) continue;
                unsigned fa2, fb2;
                bool cyc = link(w, lb, u, 1, &fa2, &fb2);
                /* A cycle of crossing steps is never part of an open tour
                 * (leaf() drops it; now its whole subtree is passed over),
                 * and of a closed one only when it is everything. */
                if (!(cyc && w->sh->open)) {
                    w->forced = fz && a == fa && b == fb;
                    uint64_t bb = 1ull << (4 * s + b);
                    w->cmask |= bb;
                    finish_step(w, s, f, pv, allow);
                    w->cmask &= ~bb;
                }
                unlink_step(w, lb, u, fa2, fb2, cyc);
            }
        }
        w->cmask &= ~ba;
        unlink_step(w, la, u, ea, eb, false);
    }
}

/* The pairing of an upper structure's ends, by end index (cell order). */
static uint64_t end_pairing(uint64_t partner, const uint8_t *udig, const uint8_t *eidx,
                            unsigned ncb)
{
    uint64_t p = 0;
    for (unsigned c = 0; c < ncb; c++)
        if (udig[c] == 1) p |= (uint64_t)eidx[nib(partner, c)] << (4 * eidx[c]);
    return p;
}

/* The upper structures of type ti against the n pairings in w->ck, w->cc
 * and w->val, weighted: a structure s and a pairing that close one cycle
 * add n_s * (the pairing's turns) + (its count) * (s's turns) + per upper
 * end e and crossing move x (the pairing's count there) * (the turns of
 * s's internal moves at e against x). */
static void combine_w(worker *w, size_t ti, unsigned weight, size_t n)
{
    const half *U = w->sh->upper;
    const kti_half_weights *wt = &U->wt;
    unsigned k = w->k, st = w->stride;
    kti_u128 S[1 + KTI_TURN_CLASSES * (NC + 1)];
    for (size_t s = U->first[ti]; s < U->first[ti + 1]; s++) {
        uint64_t pu = end_pairing(U->pc[s].partner, w->udig, w->eidx, w->sh->g->nu);
        memset(S, 0, (1 + st) * sizeof *S);
        for (size_t i = 0; i < n; i++) {
            if (k != 0 && !one_cycle(w->ck[i], pu, k)) continue;
            S[0] += w->cc[i];
            const uint64_t *v = &w->val[i * st];
            for (unsigned q = 0; q < st; q++) S[1 + q] += v[q];
        }
        if (S[0] == 0) continue;
        uint64_t nu = U->pc[s].count;
        kti_u128 add[KTI_TURN_CLASSES + 1]; /* + class 4, never met (see prepare_c) */
        for (unsigned c = 0; c < KTI_TURN_CLASSES; c++)
            add[c] = (kti_u128)nu * S[1 + c] + S[0] * wt->turn[KTI_TURN_CLASSES * s + c];
        const uint16_t *d = &wt->dir[8 * wt->end_off[s]];
        for (unsigned e = 0; e < k; e++, d += 8)
            for (unsigned x = 0; x < 4; x++) {
                kti_u128 q = S[1 + KTI_TURN_CLASSES * (1 + e) + x];
                if (q == 0) continue;
                for (unsigned m = 0; m < 8; m++)
                    if (d[m] != 0) add[kti_ht_turn(m, x)] += q * d[m];
            }
        for (unsigned c = 0; c < KTI_TURN_CLASSES; c++) w->wsum[c] += add[c] * weight;
        w->sum += S[0] * nu * weight;
    }
}

/* Set the worker to upper type ti: its digits and ends, and for open
 * tours `need` (bit j: lower structures with j tour ends are wanted). */
static void set_type(worker *w, size_t ti, unsigned need)
{
    const shared *sh = w->sh;
    const geom *g = sh->g;
    uint32_t t = sh->upper->type[ti];
    w->t = t;
    w->mt = mirror_type(g, t, g->nu);
    unsigned lev = 0;
    if (sh->orank != NULL) {
        w->rt = sh->orank[2 * ti];
        w->mrt = sh->orank[2 * ti + 1];
        /* Both weights meet only lower types whose ranks (and their
         * mirror images') are at least the lesser of the upper type's. */
        uint32_t least = w->rt < w->mrt ? w->rt : w->mrt;
        while (lev + 1 < sh->pre->nlevels && sh->pre->from[lev + 1] <= least) lev++;
    }
    w->need = need;
    /* Only lower types with a structure of the tour ends wanted, when
     * only one number of ends is (prefixes). */
    unsigned cls = sh->pre->nclasses == 1 ? 0 : need == 1u ? 1 : need == 4u ? 2 : 0;
    w->pbits = sh->pre->bits[cls][lev];
    w->k = 0;
    for (unsigned c = 0; c < g->nu; c++) {
        w->udig[c] = (uint8_t)((t >> (2 * c)) & 3u);
        if (w->udig[c] == 1) {
            w->eidx[c] = (uint8_t)w->k;
            w->ucell[w->k++] = (uint8_t)c;
        }
    }
    w->stride = KTI_TURN_CLASSES * (1 + w->k);
    memset(w->ldeg, 0, sizeof w->ldeg);
    for (unsigned x = 0; x < 2 * NC; x++) w->fend[x] = (uint8_t)x;
    w->ncyc = 0;
    w->cmask = 0;
    w->nbatch = w->nheld = 0;
    for (unsigned j = 0; j < 3; j++) ptab_clear(&w->tab[j]);
}

/* The depth-first search over the step sets of the worker's type. */
static void search_type(worker *w)
{
    const geom *g = w->sh->g;
    if (has_prefix(w->pbits, g->nfin0, 0)) dfs(w, 0, g->nfin0, 0);
    if ((w->nbatch != 0 || w->nheld != 0) && !w->oom && !w->limit) {
        if (w->pr != NULL) flush_prop(w);
        else if (w->sk != NULL) flush_seek(w);
        else flush_leaves(w);
    }
    /* The held-back inserts (the seek and the proposals make none). */
    if (w->pr == NULL && w->sk == NULL)
        for (unsigned j = 0; j < 3 && !w->oom && !w->limit; j++) tab_flush(w, j);
}

/* The index of key among the view's (increasing) keys. */
bool kti_half_view_find(const kti_half_view *v, uint64_t key, size_t *idx)
{
    size_t lo = 0, hi = v->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->keys[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    if (lo == v->n || v->keys[lo] != key) return false;
    *idx = lo;
    return true;
}

/* The key of a structure's mirror image (columns reflected), its path
 * labels renumbered in cell order as every key's are; in a merged set the
 * two TERMs move to the mirror's first path, as its keys have them. */
static uint64_t mirror_key(const geom *g, uint64_t key, unsigned ncb, bool merged)
{
    uint8_t code[NC];
    for (unsigned c = 0; c < ncb; c++) code[g->mirror[c]] = (uint8_t)nib(key, c);
    return kti_hdp_pack_open(code, ncb, merged);
}

/* A structure turned to the lesser type of its mirror pair (itself when
 * its type is that or its own image), as the join with the mirror runs
 * types; *mirrored when it became its image. */
static uint64_t turn_key(const geom *g, uint64_t key, unsigned ncb, bool merged, bool *mirrored)
{
    uint32_t t = type_of_key(key, ncb);
    *mirrored = mirror_type(g, t, ncb) < t;
    return *mirrored ? mirror_key(g, key, ncb, merged) : key;
}

/* Keep upper structure s's partner weight (and, for a type counted for
 * its mirror image too, the mirror structure's: the reflection maps the
 * tours of one to those of the other). */
static void store_part(worker *w, size_t s, kti_u128 part, unsigned weight)
{
    const shared *sh = w->sh;
    sh->parts[sh->upper->orig[s]] = part;
    if (weight != 2) return;
    size_t m;
    if (kti_half_view_find(sh->uview, mirror_key(sh->g, sh->upper->key[s], sh->g->nu, sh->uview->merged), &m))
        sh->parts[m] = part;
    else
        w->bad = true;
}

/* The alternating walk of two pairings of k ends, each with one fixed
 * point (an end whose path stops at a tour end), from pa's fixed point to
 * pb's: an open tour when it passes every end. */
static inline bool one_path(uint64_t pa, uint64_t pb, unsigned k)
{
    unsigned v = 0, n = 1;
    while (nib(pa, v) != v) v++;
    for (;;) {
        unsigned u = nib(pb, v);
        if (u == v) return n == k;
        v = nib(pa, u);
        n += 2;
    }
}

/* Copy the pairings of the tables into ck/cc (tab[j] at coff[j], each in
 * insertion order) and clear them; false when out of memory. */
static bool compact_tables(worker *w)
{
    const shared *sh = w->sh;
    size_t n = w->tab[0].n + w->tab[1].n + w->tab[2].n;
    if (n > w->ccap) {
        size_t nc = w->ccap ? w->ccap : 1024;
        while (nc < n) nc *= 2;
        uint64_t *ck = kti_alloc(sh->al, nc * sizeof *ck), *cc = kti_alloc(sh->al, nc * sizeof *cc);
        if (ck == NULL || cc == NULL) {
            kti_free(sh->al, ck);
            kti_free(sh->al, cc);
            w->oom = true;
            return false;
        }
        uint8_t *cv = NULL;
        if (sh->vec && (cv = kti_alloc(sh->al, nc * 16)) == NULL) {
            kti_free(sh->al, ck);
            kti_free(sh->al, cc);
            w->oom = true;
            return false;
        }
        kti_free(sh->al, w->ck);
        kti_free(sh->al, w->cc);
        kti_free(sh->al, w->cv);
        w->ck = ck;
        w->cc = cc;
        w->cv = cv;
        w->ccap = nc;
    }
    size_t k = 0;
    for (unsigned j = 0; j < 3; j++) {
        ptab *tb = &w->tab[j];
        w->coff[j] = k;
        for (size_t i = 0; i < tb->n; i++, k++) {
            w->ck[k] = tb->e[tb->used[i]].key;
            w->cc[k] = tb->e[tb->used[i]].cnt;
        }
        ptab_clear(tb);
    }
    w->coff[3] = k;
    return true;
}

/* The pairings that close a tour with upper structure s, summed: for open
 * tours, those of lower structures with 2 - (s's tour ends) tour ends. */
static kti_u128 matches(const worker *w, size_t s)
{
    const half *U = w->sh->upper;
    uint64_t pu = end_pairing(U->pc[s].partner, w->udig, w->eidx, w->sh->g->nu);
    unsigned ends = U->nterm != NULL ? U->nterm[s] : 0, j = w->sh->open ? 2 - ends : 0;
    if (j > 2) return 0;
    size_t first = w->coff[j], n = w->coff[j + 1] - first;
    kti_u128 part = 0;
#if KTI_X86_VEC
    if (w->use_vec) {
        /* An odd number of upper ends: open pairings, one end a tour end's. */
        uint8_t ub[16];
        unsigned odd = w->k & 1u;
        if (odd) pairing_bytes_open(pu, w->k, ub);
        else pairing_bytes(pu, w->k, ub);
        part = cycles_vec(w->sh->vec, w->cv + 16 * first, w->cc + first, n, ub, w->k + odd);
#ifndef NDEBUG
        /* Debug builds check the vector tests on the smaller tables
         * against the scalar one, and both where the processor has AVX2
         * (the SSSE3 test is otherwise never run there). */
        if (n <= 256) {
            kti_u128 scalar = 0;
            for (size_t i = first; i < first + n; i++)
                if (closes_tour(w->ck[i], pu, w->k, j)) scalar += w->cc[i];
            KTI_ASSERT(part == scalar);
            KTI_ASSERT(cycles_vec(VEC_SSSE3, w->cv + 16 * first, w->cc + first, n, ub, w->k + odd) == part);
        }
#endif
        return part;
    }
#endif
    for (size_t i = first; i < first + n; i++) {
        if (closes_tour(w->ck[i], pu, w->k, j)) part += w->cc[i];
    }
    return part;
}

static void run_type(worker *w, size_t ti, unsigned weight)
{
    const shared *sh = w->sh;
    const half *U = sh->upper;
    /* Only lower structures that some upper one of the type can complete. */
    unsigned need = 0;
    for (size_t s = U->first[ti]; U->nterm != NULL && s < U->first[ti + 1]; s++)
        need |= 4u >> U->nterm[s];
    set_type(w, ti, need);
    memset(w->nins, 0, sizeof w->nins);
    w->open_from = w->k == 0 ? 2 : 0;
    while (w->open_from < 2 && !((w->need >> w->open_from) & 1u)) w->open_from++;
    size_t bfirst = w->nblk;
    w->nleaf = 0;
    w->bopen = w->bovf = false;
    memset(w->bcum, 0, sizeof w->bcum);
    search_type(w);
    if (sh->bquantum != 0 && !w->oom) {
        if (w->bopen) block_close(w);
        if (w->bovf) w->nblk = bfirst;
        sh->bfirst[ti] = bfirst;
        sh->bcount[ti] = (uint32_t)(w->nblk - bfirst);
        sh->bworker[ti] = (uint16_t)w->id;
        sh->bneed[ti] = (uint8_t)need;
    }
    if (w->oom || w->limit || atomic_load(&w->sh->cancel)) return;
    /* Combine: every upper structure of type t with every pairing. */
    if (!compact_tables(w)) return;
    if (sh->weighted) {
        /* closed tours only: every pairing is in tab[0], in insertion order */
        size_t n = w->coff[1];
        /* Rows hold up to 64 times a count: keep the counts far from 2^64. */
        for (size_t j = 0; j < n; j++)
            if (w->cc[j] >> 56) w->ovf = true;
        combine_w(w, ti, weight, n);
        return;
    }
    /* The vector test pays for the conversion of the pairings from a few
     * upper structures on; with k <= 2 ends every test is trivial. */
    w->use_vec = sh->vec && w->k > 2 && U->first[ti + 1] - U->first[ti] >= 4;
    for (size_t i = 0; w->use_vec && i < w->coff[3]; i++) {
        /* An odd number of upper ends: every pairing has one tour end's
         * (tab[1] only) and takes the virtual end of pairing_bytes_open. */
        if (w->k & 1u) pairing_bytes_open(w->ck[i], w->k, w->cv + 16 * i);
        else pairing_bytes(w->ck[i], w->k, w->cv + 16 * i);
    }
    for (size_t s = U->first[ti]; s < U->first[ti + 1]; s++) {
        kti_u128 part = matches(w, s);
        if (sh->parts != NULL) store_part(w, s, part, weight);
        kti_u128 c = (kti_u128)U->pc[s].count * weight;
        if (part != 0 && c > ~(kti_u128)0 / part) w->ovf = true;
        kti_u128 add = part * c;
        if (w->sum + add < w->sum) w->ovf = true;
        w->sum += add;
    }
}

/* A type's share of the join's work, for progress: its structures (the
 * types run largest first, and the combine step is most of the work where
 * types are large; counting types instead kept the bar at a few percent
 * for most of 8x9's join). */
static uint64_t type_work(const half *U, size_t ti)
{
    return (uint64_t)(U->first[ti + 1] - U->first[ti]) + 1;
}

static void worker_main(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    for (;;) {
        if (stopped(w)) break;
        size_t j = atomic_fetch_add(&sh->next, 1);
        if (j >= sh->nwork) break;
        run_type(w, sh->work[j], sh->weight[j]);
        atomic_fetch_add(&sh->done, type_work(sh->upper, sh->work[j]));
    }
}

typedef struct witem {
    size_t ti, size;
    uint8_t weight;
} witem;

static int cmp_witem(const void *x, const void *y)
{
    const witem *a = x, *b = y;
    if (a->size != b->size) return a->size < b->size ? 1 : -1;
    return (a->ti > b->ti) - (a->ti < b->ti);
}

/* Everything one join allocates, so one function frees it all, once. */
typedef struct join_state {
    const kt_allocator *al;
    geom g;
    half hl, hu;
    const half *U;               /* &hl when both halves are one set */
    bool same;
    bool open;
    bool noflip;                 /* count every tour once, not by up-down orbits */
    bool hflip;                  /* ... but join only one of each pair of flip images
                                  * (flip_weight; the sampler, halves one set) */
    kti_half_view uview;         /* the upper view (mirror lookups) */
    kti_half_view lview;         /* the lower view (a proposal's mirror image) */
    /* The blocks of the sampler's proposals (jblock): per worker of the
     * last run its list, per upper type where its blocks are; types with
     * fewer than bmin blocks have their draws seek. */
    uint64_t bquantum;
    uint32_t bmin;
    jblock **blk;
    unsigned nblk;
    size_t *bfirst;
    uint32_t *bcount;
    uint16_t *bworker;
    uint8_t *bneed;
    prefixes pre;
    uint32_t *orank;             /* flip: per type, its rank and its mirror image's */
    bool sym;                    /* the halves have the board's left-right mirror */
    bool turn;                   /* the lower half alone has it: upper structures turned (turn_key) */
    size_t *work;                /* this shard's upper types, heaviest first */
    uint8_t *weight;
    size_t nwork;
    worker *w;
    unsigned nthreads;
} join_state;

/* The sampler's join by flip images (flip_weight): it counts every tour
 * (noflip) but joins one of each pair of flip images' type pairs. */
static inline bool pairs_by_flip(const join_state *js)
{
    return js->same && js->hflip && js->noflip;
}

static void join_workers_free(join_state *js)
{
    const kt_allocator *al = js->al;
    if (js->w != NULL)
        for (unsigned i = 0; i < js->nthreads; i++) {
            for (unsigned j = 0; j < 3; j++) {
                kti_free(al, js->w[i].tab[j].e);
                kti_free(al, js->w[i].tab[j].used);
                kti_free(al, js->w[i].tab[j].pos);
            }
            kti_free(al, js->w[i].val);
            kti_free(al, js->w[i].blk);
            kti_free(al, js->w[i].ck);
            kti_free(al, js->w[i].cc);
            kti_free(al, js->w[i].cv);
        }
    kti_free(al, js->w);
    js->w = NULL;
}

/* The proposals' blocks of the last run, gone. */
static void join_blocks_free(join_state *js)
{
    const kt_allocator *al = js->al;
    for (unsigned i = 0; js->blk != NULL && i < js->nblk; i++) kti_free(al, js->blk[i]);
    kti_free(al, js->blk);
    kti_free(al, js->bfirst);
    kti_free(al, js->bcount);
    kti_free(al, js->bworker);
    kti_free(al, js->bneed);
    js->blk = NULL;
    js->nblk = 0;
    js->bfirst = NULL;
    js->bcount = NULL;
    js->bworker = NULL;
    js->bneed = NULL;
}

static void join_state_free(join_state *js)
{
    const kt_allocator *al = js->al;
    join_workers_free(js);
    join_blocks_free(js);
    kti_free(al, js->work);
    kti_free(al, js->weight);
    kti_free(al, js->orank);
    prefixes_free(al, &js->pre);
    half_free(al, &js->hl);
    half_free(al, &js->hu);
    js->w = NULL;
    js->work = NULL;
    js->weight = NULL;
    js->orank = NULL;
}

typedef struct rank_item {
    size_t size;
    uint32_t type, idx;
} rank_item;

static int cmp_rank_item(const void *x, const void *y)
{
    const rank_item *a = x, *b = y;
    if (a->size != b->size) return a->size < b->size ? 1 : -1;
    return (a->type > b->type) - (a->type < b->type);
}

/* The order in which the up-down flip picks the (upper, lower) type pair
 * of an orbit (orbit_weight): types with more structures first, then by
 * value.  The pair counted then has the larger type above and the smaller
 * below, and the join walks every lower structure per step set but meets
 * the upper ones only through the table: 8x8 walks 3.3 times fewer
 * (step set, lower structure) pairs than with the order by value.  A type
 * and its mirror image have as many structures, so the one of each mirror
 * pair that join_plan keeps (the lesser value) is also the lesser rank. */
static kt_status join_ranks(join_state *js)
{
    const kt_allocator *al = js->al;
    const half *h = &js->hl;
    size_t nt = h->ntypes;
    rank_item *it = kti_alloc(al, (nt ? nt : 1) * sizeof *it);
    js->orank = kti_alloc(al, (nt ? nt : 1) * 2 * sizeof *js->orank);
    if (it == NULL || js->orank == NULL) {
        kti_free(al, it);
        return KT_ENOMEM;
    }
    for (size_t i = 0; i < nt; i++) {
        it[i].size = h->first[i + 1] - h->first[i];
        it[i].type = h->type[i];
        it[i].idx = (uint32_t)i;
    }
    qsort(it, nt, sizeof *it, cmp_rank_item);
    for (size_t r = 0; r < nt; r++) js->orank[2 * it[r].idx] = (uint32_t)r;
    kti_free(al, it);
    for (size_t i = 0; i < nt; i++) {
        size_t m;
        /* The flip is used only for halves with the left-right mirror. */
        if (!type_find(h, mirror_type(&js->g, h->type[i], js->g.nl), &m)) return KT_EUNSUPPORTED;
        js->orank[2 * i + 1] = js->orank[2 * m];
    }
    return KT_OK;
}

/* Both halves grouped by type, the crossing geometry, the lower-type
 * prefixes and (for the flip) the types' ranks. */
static kt_status join_prepare(join_state *js, const kti_half_view *lower,
                              const kti_half_view *upper)
{
    const kt_allocator *al = js->al;
    geom_build(&js->g, lower->width, lower->ncb, upper->ncb);
    js->same = js->sym && lower->keys == upper->keys && lower->n == upper->n &&
               lower->ncb == upper->ncb;
    KTI_TRY(half_build(al, lower, &js->hl, js->nthreads, NULL));
    js->U = &js->hl;
    if (!js->same) {
        KTI_TRY(half_build(al, upper, &js->hu, js->nthreads, js->turn ? &js->g : NULL));
        js->U = &js->hu;
    }
    if (js->same && (!js->noflip || js->hflip)) KTI_TRY(join_ranks(js));
    return prefixes_build(al, &js->g, &js->hl, js->orank, &js->pre);
}

/* The upper types of shard `shard` of `nshards`, one of each mirror pair
 * (dealt round-robin, so shards get about equal work), heaviest first so
 * the threads finish together. */
static kt_status join_plan(join_state *js, uint32_t shard, uint32_t nshards)
{
    const kt_allocator *al = js->al;
    const half *U = js->U;
    witem *items = kti_alloc(al, (U->ntypes ? U->ntypes : 1) * sizeof *items);
    if (items == NULL) return KT_ENOMEM;
    size_t ncanon = 0, nwork = 0;
    for (size_t i = 0; i < U->ntypes; i++) {
        uint32_t t = U->type[i], mt = mirror_type(&js->g, t, js->g.nu);
        size_t mi;
        bool has_mirror = js->sym && type_find(U, mt, &mi);
        if (has_mirror && mt < t) continue;
        if (ncanon++ % nshards != shard) continue;
        items[nwork].ti = i;
        items[nwork].size = U->first[i + 1] - U->first[i];
        bool flip = js->same && !js->noflip;
        items[nwork].weight = (uint8_t)(!flip && has_mirror && mt != t ? 2 : 1);
        nwork++;
    }
    qsort(items, nwork, sizeof *items, cmp_witem);
    js->work = kti_alloc(al, (nwork ? nwork : 1) * sizeof *js->work);
    js->weight = kti_alloc(al, (nwork ? nwork : 1) * sizeof *js->weight);
    if (js->work == NULL || js->weight == NULL) {
        kti_free(al, items);
        return KT_ENOMEM;
    }
    for (size_t i = 0; i < nwork; i++) {
        js->work[i] = items[i].ti;
        js->weight[i] = items[i].weight;
    }
    js->nwork = nwork;
    kti_free(al, items);
    return KT_OK;
}

/* The two pairings form one cycle: one_cycle on pairing_bytes packed back
 * into nibbles. */
static bool one_cycle_bytes(const uint8_t *pa, const uint8_t *pb, unsigned k)
{
    uint64_t a = 0, b = 0;
    for (unsigned e = 0; e < k; e++) {
        a |= (uint64_t)(pa[e] & 15u) << (4 * e);
        b |= (uint64_t)(pb[e] & 15u) << (4 * e);
    }
    return one_cycle(a, b, k);
}

kti_u128 kti_hjoin_cycles(unsigned vec, const uint8_t *pv, const uint64_t *cnt, size_t n,
                          const uint8_t *ub, unsigned k)
{
    unsigned have = kti_cpu_vec();
    if (vec > have) vec = have;
#if KTI_X86_VEC
    if (vec != VEC_NONE && k >= 4 && k <= 16 && k % 2 == 0) return cycles_vec(vec, pv, cnt, n, ub, k);
#endif
    kti_u128 sum = 0;
    for (size_t i = 0; i < n; i++)
        if (one_cycle_bytes(pv + 16 * i, ub, k)) sum += cnt[i];
    return sum;
}

/* Run the planned types on the threads and add up their sums. */
static kt_status join_run(join_state *js, const kti_run *run, kti_hprogress *prog,
                          kti_u128 *parts, kti_u128 *count, kti_u128 *turns)
{
    unsigned T = js->nthreads;
    js->w = kti_calloc(js->al, T, sizeof *js->w);
    if (js->w == NULL) return KT_ENOMEM;
    shared sh;
    sh.g = &js->g;
    sh.lower = &js->hl;
    sh.upper = js->U;
    sh.pre = &js->pre;
    sh.work = js->work;
    sh.nwork = js->nwork;
    sh.work_total = 0;
    for (size_t i = 0; i < js->nwork; i++) sh.work_total += type_work(js->U, js->work[i]);
    sh.weight = js->weight;
    sh.flip = js->same && !js->noflip;
    sh.hflip = pairs_by_flip(js);
    sh.open = js->open;
    sh.parts = parts;
    sh.uview = &js->uview;
    sh.orank = js->orank;
    atomic_init(&sh.next, 0);
    atomic_init(&sh.done, 0);
    atomic_init(&sh.cancel, false);
    sh.prog = prog;
    sh.al = js->al;
    sh.budget = run->budget;
    sh.weighted = turns != NULL;
    sh.vec = kti_cpu_vec();
    sh.bquantum = js->bfirst != NULL ? js->bquantum : 0;
    sh.bfirst = js->bfirst;
    sh.bcount = js->bcount;
    sh.bworker = js->bworker;
    sh.bneed = js->bneed;
    for (unsigned i = 0; i < T; i++) {
        js->w[i].sh = &sh;
        js->w[i].id = i;
    }
    kti_parallel(T, worker_main, js->w, sizeof *js->w);
    kt_status rc = KT_OK;
    kti_u128 total = 0, tt[KTI_TURN_CLASSES] = {0};
    for (unsigned i = 0; i < T; i++) {
        const worker *w = &js->w[i];
        for (unsigned c = 0; c < KTI_TURN_CLASSES; c++) tt[c] += w->wsum[c];
        if (w->oom) rc = KT_ENOMEM;
        else if (w->bad) rc = KT_EUNSUPPORTED; /* a set without mirror symmetry: a bug */
        else if (w->limit && rc != KT_ENOMEM) rc = KT_ELIMIT;
        else if (w->ovf || total + w->sum < total) rc = rc == KT_OK ? KT_EOVERFLOW : rc;
        total += w->sum;
    }
    if (rc == KT_OK && atomic_load(&sh.cancel)) rc = KT_ECANCELED;
    if (rc == KT_OK && prog != NULL) {
        prog->done += KTI_HALFTOUR_JOIN_UNITS;
        if (kti_progress_tick(&prog->p, prog->done, prog->total)) rc = KT_ECANCELED;
    }
    if (rc == KT_OK) *count = total;
    if (rc == KT_OK && turns != NULL) memcpy(turns, tt, sizeof tt);
    return rc;
}

static kt_status join_all(const kti_half_view *lower, const kti_half_view *upper, bool sym,
                          const kti_run *run, kti_hprogress *prog, kti_u128 *count,
                          kti_u128 *turns)
{
    join_state js;
    memset(&js, 0, sizeof js);
    js.sym = sym;
    js.open = lower->open;
    js.al = run->alloc;
    js.nthreads = run->threads ? run->threads : 1;
    kt_status rc = join_prepare(&js, lower, upper);
    if (rc == KT_OK) rc = join_plan(&js, run->shard, run->nshards ? run->nshards : 1);
    if (rc == KT_OK) rc = join_run(&js, run, prog, NULL, count, turns);
    join_state_free(&js);
    return rc;
}

kt_status kti_halftours_join(const kti_half_view *lower, const kti_half_view *upper, bool sym,
                             const kti_run *run, kti_hprogress *prog, kti_u128 *count)
{
    kti_half_view l = *lower, u = *upper;
    l.wt = u.wt = NULL;
    return join_all(&l, &u, sym, run, prog, count, NULL);
}

kt_status kti_halftours_join_turns(const kti_half_view *lower, const kti_half_view *upper,
                                   const kti_run *run, kti_hprogress *prog, kti_u128 *count,
                                   kti_u128 turns[KTI_TURN_CLASSES])
{
    if (lower->wt == NULL || upper->wt == NULL) return KT_EINVAL;
    return join_all(lower, upper, true, run, prog, count, turns);
}

/* ---- the join kept for the sampler ---- */

struct kti_hjoin {
    kt_allocator al;
    join_state js;
};

kt_status kti_hjoin_new_sym(kti_hjoin **out, const kti_half_view *lower,
                            const kti_half_view *upper, unsigned mirror, bool flip, unsigned threads,
                            const kt_allocator *al)
{
    kti_hjoin *j = kti_calloc(al, 1, sizeof *j);
    if (j == NULL) return KT_ENOMEM;
    j->al = *al;
    j->js.al = &j->al;
    j->js.noflip = true;
    j->js.hflip = flip;
    j->js.sym = mirror == KTI_HJOIN_MIRROR;
    j->js.turn = mirror == KTI_HJOIN_MIRROR_LOWER;
    j->js.open = lower->open;
    j->js.uview = *upper;
    j->js.lview = *lower;
    /* kti_hjoin_parts sets the join's own threads. */
    j->js.nthreads = threads ? threads : 1;
    kt_status rc = join_prepare(&j->js, lower, upper);
    if (rc != KT_OK) {
        kti_hjoin_free(j);
        return rc;
    }
    *out = j;
    return KT_OK;
}

void kti_hjoin_free(kti_hjoin *j)
{
    if (j == NULL) return;
    join_state_free(&j->js);
    kt_allocator al = j->al;
    kti_free(&al, j);
}

kt_status kti_hjoin_parts(kti_hjoin *j, const kti_run *run, kti_hprogress *prog, kti_u128 *parts,
                          kti_u128 *count)
{
    join_state *js = &j->js;
    js->nthreads = run->threads ? run->threads : 1;
    kti_free(js->al, js->work);
    kti_free(js->al, js->weight);
    js->work = NULL;
    js->weight = NULL;
    KTI_TRY(join_plan(js, run->shard, run->nshards ? run->nshards : 1));
    join_blocks_free(js);
    if (js->bquantum != 0 && js->open) {
        size_t nt = js->U->ntypes ? js->U->ntypes : 1;
        js->bfirst = kti_calloc(js->al, nt, sizeof *js->bfirst);
        js->bcount = kti_calloc(js->al, nt, sizeof *js->bcount);
        js->bworker = kti_calloc(js->al, nt, sizeof *js->bworker);
        js->bneed = kti_calloc(js->al, nt, sizeof *js->bneed);
        js->blk = kti_calloc(js->al, js->nthreads, sizeof *js->blk);
        if (js->bfirst == NULL || js->bcount == NULL || js->bworker == NULL ||
            js->bneed == NULL || js->blk == NULL || js->nthreads > UINT16_MAX) {
            join_blocks_free(js);
            return KT_ENOMEM;
        }
        js->nblk = js->nthreads;
    }
    kt_status rc = join_run(js, run, prog, parts, count, NULL);
    /* The workers' tables are not needed by the seeks; their blocks are
     * kept for the proposals. */
    for (unsigned i = 0; rc == KT_OK && js->blk != NULL && i < js->nthreads; i++) {
        js->blk[i] = js->w[i].blk;
        js->w[i].blk = NULL;
    }
    if (rc != KT_OK) join_blocks_free(js);
    join_workers_free(js);
    return rc;
}

/* What one search of one upper type on the caller's thread shares (a
 * seek or a proposal). */
static void search_shared(const join_state *js, shared *sh)
{
    memset(sh, 0, sizeof *sh);
    sh->g = &js->g;
    sh->lower = &js->hl;
    sh->upper = js->U;
    sh->pre = &js->pre;
    sh->al = js->al;
    sh->open = js->open;
    sh->hflip = pairs_by_flip(js);
    sh->orank = js->orank;
    sh->vec = kti_cpu_vec(); /* the open leaves' byte-lane walk (walk_lower) */
    atomic_init(&sh->next, 0);
    atomic_init(&sh->done, 0);
    atomic_init(&sh->cancel, false);
}

void kti_hjoin_set_blocks(kti_hjoin *j, uint64_t quantum, uint32_t min_blocks)
{
    j->js.bquantum = quantum;
    j->js.bmin = min_blocks;
}

uint64_t kti_hjoin_block_bytes(const kti_hjoin *j)
{
    const join_state *js = &j->js;
    uint64_t n = 0;
    for (size_t t = 0; js->bcount != NULL && t < js->U->ntypes; t++) n += js->bcount[t];
    return n * sizeof(jblock);
}

/* Step set cmask reflected left to right. */
static uint64_t mirror_cmask(const geom *g, uint64_t cmask)
{
    uint64_t m = 0;
    for (uint64_t b = cmask; b != 0; b &= b - 1) {
        unsigned bit = (unsigned)__builtin_ctzll(b), s = bit / 4;
        unsigned mu = g->mirror[g->uorder[s]], ml = g->mirror[g->nb[s][bit % 4]];
        for (unsigned s2 = 0; s2 < g->nu; s2++) {
            if (g->uorder[s2] != mu) continue;
            for (unsigned a = 0; a < g->nnb[s2]; a++)
                if (g->nb[s2][a] == ml) m |= UINT64_C(1) << (4 * s2 + a);
        }
    }
    return m;
}

/* Upper view structure `upper` as the join's upper half holds it: turned
 * (*mirrored when so) if the join turns them. */
static uint64_t upper_key(const join_state *js, size_t upper, bool *mirrored)
{
    *mirrored = false;
    uint64_t key = js->uview.keys[upper];
    return js->turn ? turn_key(&js->g, key, js->g.nu, js->uview.merged, mirrored) : key;
}

/* A partner (step set, lower view index) reflected: the mirror image's. */
static kt_status mirror_partner(const join_state *js, uint64_t *cmask, size_t *lower)
{
    *cmask = mirror_cmask(&js->g, *cmask);
    uint64_t lk = mirror_key(&js->g, js->lview.keys[*lower], js->g.nl, js->lview.merged);
    return kti_half_view_find(&js->lview, lk, lower) ? KT_OK : KT_EUNSUPPORTED; /* never */
}

kt_status kti_hjoin_propose(const kti_hjoin *j, size_t upper, kti_rng *g, bool *fits,
                            uint64_t *cmask, size_t *lower)
{
    const join_state *js = &j->js;
    const half *U = js->U;
    unsigned nu = js->g.nu;
    if (js->bcount == NULL || upper >= js->uview.n) return KT_EUNSUPPORTED;
    bool mirrored;
    uint64_t key = upper_key(js, upper, &mirrored);
    size_t ti;
    if (!type_find(U, type_of_key(key, nu), &ti)) return KT_ERANGE;
    /* The mirror image of a type not run: its partners are the mirror
     * images of the mirror structure's. */
    if (js->bcount[ti] == 0 && js->sym) {
        uint64_t mk = mirror_key(&js->g, key, nu, js->uview.merged);
        size_t mti;
        if (type_find(U, type_of_key(mk, nu), &mti) && js->bcount[mti] != 0) {
            key = mk;
            ti = mti;
            mirrored = true;
        }
    }
    if (js->bcount[ti] == 0) return KT_EUNSUPPORTED; /* not run here, or its weights passed 64 bits */
    /* A try walks half a block on average and a draw takes a few; a seek
     * walks half the type: on a type of one block or two it costs less
     * (7x7 open, whose types are small: 2,456 draws a second by proposals
     * against 3,257 by the seek). */
    if (js->bcount[ti] < js->bmin) return KT_EUNSUPPORTED;
    unsigned ends = terms_of_key(key, nu);
    if (ends > 2) return KT_ERANGE;
    unsigned jc = 2 - ends;
    const jblock *B = js->blk[js->bworker[ti]] + js->bfirst[ti];
    size_t nb = js->bcount[ti];
    if (B[nb - 1].cum[jc] == 0) return KT_ERANGE;
    uint64_t o = kti_rng_below(g, B[nb - 1].cum[jc]);
    size_t lo = 0, hi = nb - 1; /* the first block whose weight so far passes o */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (B[mid].cum[jc] > o) hi = mid;
        else lo = mid + 1;
    }
    if (lo > 0) o -= B[lo - 1].cum[jc];
    shared sh;
    search_shared(js, &sh);
    worker w;
    memset(&w, 0, sizeof w);
    w.sh = &sh;
    prop pr;
    memset(&pr, 0, sizeof pr);
    pr.j = jc;
    pr.target = o;
    pr.end = lo + 1 < nb ? B[lo + 1].leaf : UINT64_MAX;
    w.pr = &pr;
    /* The join's search of the type: the same need, so the same leaves. */
    set_type(&w, ti, js->bneed[ti]);
    w.nleaf = B[lo].leaf;
    w.forced = B[lo].leaf != 0;
    w.fmask = B[lo].cmask;
    search_type(&w);
    if (!pr.found) return KT_EUNSUPPORTED; /* never: the block holds the weight */
    uint64_t pu = end_pairing(partner_of_key(key, nu), w.udig, w.eidx, nu);
    *fits = closes_tour(pr.key, pu, w.k, jc);
    *cmask = pr.cmask;
    *lower = pr.lower;
    if (mirrored) return mirror_partner(js, cmask, lower);
    return KT_OK;
}

unsigned kti_hjoin_pair_weight(const kti_hjoin *j, size_t upper, size_t lower)
{
    const join_state *js = &j->js;
    if (!pairs_by_flip(js) || upper >= js->uview.n || lower >= js->lview.n) return 1;
    size_t tu, tl;
    if (!type_find(js->U, type_of_key(js->uview.keys[upper], js->g.nu), &tu) ||
        !type_find(&js->hl, type_of_key(js->lview.keys[lower], js->g.nl), &tl))
        return 1; /* never: the views' keys are the halves' */
    return (unsigned)flip_weight(js->orank[2 * tu], js->orank[2 * tu + 1], js->orank[2 * tl],
                                 js->orank[2 * tl + 1]);
}

bool kti_hjoin_crossing(const kti_hjoin *j, unsigned bit, unsigned *ucell, unsigned *lcell)
{
    const geom *g = &j->js.g;
    if (bit / 4 >= g->nu || bit % 4 >= g->nnb[bit / 4]) return false;
    *ucell = g->uorder[bit / 4];
    *lcell = g->nb[bit / 4][bit % 4];
    return true;
}

/* Run a seek for upper structure `key` (as the join's upper half holds
 * it: upper_key): false when it is not a structure of the set. */
static bool seek_run(const kti_hjoin *j, uint64_t key, seek *sk)
{
    const join_state *js = &j->js;
    const half *U = js->U;
    size_t ti;
    if (!type_find(U, type_of_key(key, js->g.nu), &ti)) return false;
    size_t s = U->first[ti];
    while (s < U->first[ti + 1] && U->key[s] != key) s++;
    if (s == U->first[ti + 1]) return false;
    shared sh;
    search_shared(js, &sh);
    worker w;
    memset(&w, 0, sizeof w);
    w.sh = &sh;
    w.sk = sk;
    sk->cum = 0;
    sk->done = false;
    sk->ends = js->open ? 2u - U->nterm[s] : 0u;
    /* The seek walks only lower structures with sk->ends tour ends
     * (seek_leaf_open): its search may leave out the types without. */
    set_type(&w, ti, js->open ? 1u << sk->ends : 0u);
    sk->pu = end_pairing(U->pc[s].partner, w.udig, w.eidx, js->g.nu);
    search_type(&w);
    return true;
}

kt_status kti_hjoin_locate(const kti_hjoin *j, size_t upper, kti_u128 a, uint64_t *cmask,
                           size_t *lower, kti_u128 *offset)
{
    seek sk;
    memset(&sk, 0, sizeof sk);
    sk.target = a;
    if (upper >= j->js.uview.n) return KT_ERANGE;
    bool mirrored;
    uint64_t key = upper_key(&j->js, upper, &mirrored);
    if (!seek_run(j, key, &sk) || !sk.done) return KT_ERANGE;
    *cmask = sk.cmask;
    *lower = sk.lower;
    *offset = sk.target;
    return mirrored ? mirror_partner(&j->js, cmask, lower) : KT_OK;
}

kt_status kti_hjoin_before(const kti_hjoin *j, size_t upper, uint64_t cmask, size_t lower,
                           kti_u128 *before)
{
    seek sk;
    memset(&sk, 0, sizeof sk);
    sk.rank = true;
    sk.cmask = cmask;
    sk.lower = lower;
    if (upper >= j->js.uview.n || lower >= j->js.lview.n) return KT_EBADTOUR;
    bool mirrored;
    uint64_t key = upper_key(&j->js, upper, &mirrored);
    /* A turned structure's partners are the mirror images of its own. */
    if (mirrored && mirror_partner(&j->js, &sk.cmask, &sk.lower) != KT_OK) return KT_EBADTOUR;
    if (!seek_run(j, key, &sk) || !sk.done) return KT_EBADTOUR;
    *before = sk.cum;
    return KT_OK;
}
