/* SPDX-License-Identifier: MIT */
/*
 * Uniform closed tours by McKay's half-tours (the uniform sampler's path
 * for boards too wide for its frontier programme, such as 8x8).
 *
 * A closed tour is, exactly once, an upper half-tour, a set of crossing
 * steps and a lower half-tour (each half in its own coordinates, the
 * board's rows above and below the cut).  Preparation:
 *  1. enumerate the path structures of both halves (halftour.c);
 *  2. list every half-tour of each half as its set of edges, grouped by
 *     path structure (a depth-first search here, checked against the
 *     structures' counts);
 *  3. join the halves once with every tour counted once (join.c, no
 *     up-down orbits), keeping for each upper structure s the number
 *     part(s) of (step set, lower half-tour) partners it closes a tour
 *     with; the tours with upper structure s are count(s) * part(s).
 * The tours are ranked by upper structure, then partner (in the join's
 * search order, kti_hjoin_locate), then upper half-tour: the tour of a
 * rank is one binary search, one search of the join for one upper type,
 * and two lookups in the lists.  Both halves' half-tours are stored, so
 * the lists hold every half-tour of the board's halves once (70,433,448
 * of 16 bytes for 8x8, one list for both halves).
 */
#include "halftour_internal.h"

/* A half of at most 64 cells with at most 128 edges (8 x 6 has 116):
 * its half-tours are 128-bit edge sets. */
#define HS_CELLS 64u
#define HS_EDGES 128u
#define NONE8 0xFFu

/* The half-tours of one half, grouped by path structure. */
typedef struct hlist {
    uint32_t W, D;
    unsigned ncells, nedges, ncb;
    uint8_t ea[HS_EDGES], eb[HS_EDGES];     /* the cells of each edge bit */
    uint8_t ebit[HS_CELLS][HS_CELLS];       /* cells -> edge bit, NONE8 */
    kti_half_view v;                        /* the structures (borrowed) */
    size_t *first;                          /* n + 1: a structure's first half-tour */
    kti_u128 *mask;                         /* the half-tours, by structure */
} hlist;

struct kti_hsampler {
    kt_allocator al;
    uint32_t W, H, split;
    kt_halftours *hl, *hu;                  /* hu NULL when both halves are hl */
    hlist ll, lu;
    const hlist *L, *U;                     /* U is &ll when the halves are one set */
    kti_hjoin *join;
    kti_u128 *prefix;                       /* n_upper + 1: tours before structure i */
    uint8_t cbit[KT_HALFTOUR_MAX_CELLS][KT_HALFTOUR_MAX_CELLS]; /* (upper, lower) -> step bit */
    uint64_t bytes;
};

/* ---- the half-tours of one half ---- */

/* The depth-first search over the cells, farthest row first: each cell
 * takes 0, 1 or 2 edges back to cells already placed; ends[] pairs the two
 * ends of every path so far, which refuses cycles. */
typedef struct henum {
    const hlist *h;
    unsigned order[HS_CELLS];               /* processing order */
    unsigned nback[HS_CELLS];               /* per step: earlier neighbours */
    uint8_t back[HS_CELLS][8];
    uint8_t rem[HS_CELLS][8];               /* their neighbours still to come */
    uint8_t fwd[HS_CELLS];                  /* the step's cell's neighbours to come */
    uint8_t mindeg[HS_CELLS];               /* least final degree of a cell */
    uint8_t deg[HS_CELLS], end[HS_CELLS];
    kti_u128 mask;
    kti_hent *rec;
    size_t nrec, cap;
    uint64_t polls;
    kti_hprogress *prog;
    bool over, cancel;
} henum;

/* Knight moves across the cut from local cell (r, x) into a half of
 * depth `other`: the vertical distance is r + r' + 1. */
static unsigned crossing_moves(uint32_t W, uint32_t other, unsigned r, unsigned x)
{
    unsigned n = 0;
    for (unsigned r2 = 0; r2 < other && r + r2 < 2; r2++)
        for (int dx = -2; dx <= 2; dx++) {
            int ax = dx < 0 ? -dx : dx, nx = (int)x + dx;
            if (nx < 0 || nx >= (int)W) continue;
            if ((r + r2 == 0 && ax == 2) || (r + r2 == 1 && ax == 1)) n++;
        }
    return n;
}

static bool knight_adjacent(uint32_t W, unsigned a, unsigned b)
{
    int dx = (int)(a % W) - (int)(b % W), dy = (int)(a / W) - (int)(b / W);
    return dx * dx + dy * dy == 5;
}

/* The half's cells and edges (numbered in processing order) and the
 * search's tables.  Far rows need degree 2; a boundary cell may end a path
 * with a move across the cut, or be a trivial path with two. */
static void henum_plan(henum *e, hlist *h, uint32_t other)
{
    memset(e, 0, sizeof *e);
    memset(h->ebit, NONE8, sizeof h->ebit);
    e->h = h;
    unsigned p = 0;
    for (unsigned r = h->D; r-- > 0;)
        for (unsigned x = 0; x < h->W; x++) {
            unsigned c = r * h->W + x;
            e->order[p++] = c;
            unsigned cm = r < 2 ? crossing_moves(h->W, other, r, x) : 0;
            e->mindeg[c] = (uint8_t)(2 - (cm < 2 ? cm : 2));
        }
    h->nedges = 0;
    for (p = 0; p < h->ncells; p++) {
        unsigned c = e->order[p];
        for (unsigned q = 0; q < p; q++) {
            unsigned b = e->order[q];
            if (!knight_adjacent(h->W, c, b)) continue;
            unsigned k = e->nback[p]++, bit = h->nedges++;
            e->back[p][k] = (uint8_t)b;
            h->ea[bit] = (uint8_t)c;
            h->eb[bit] = (uint8_t)b;
            h->ebit[c][b] = h->ebit[b][c] = (uint8_t)bit;
        }
        for (unsigned q = p + 1; q < h->ncells; q++)
            e->fwd[p] += knight_adjacent(h->W, c, e->order[q]);
    }
    for (p = 0; p < h->ncells; p++)
        for (unsigned k = 0; k < e->nback[p]; k++) {
            unsigned b = e->back[p][k];
            for (unsigned q = p + 1; q < h->ncells; q++)
                e->rem[p][k] += knight_adjacent(h->W, b, e->order[q]);
        }
}

/* A finished half-tour: its structure key (codes as in halftour.h). */
static void henum_record(henum *e)
{
    const hlist *h = e->h;
    if (e->nrec == e->cap) {
        e->over = true; /* more half-tours than the structures count: a bug */
        return;
    }
    uint8_t code[KT_HALFTOUR_MAX_CELLS];
    for (unsigned i = 0; i < h->ncb; i++) {
        unsigned d = e->deg[i];
        /* ends share their partner's label: the lesser cell's index + 2 */
        unsigned o = e->end[i];
        code[i] = (uint8_t)(d == 0 ? 0 : d == 2 ? 1 : 2 + (o < i ? o : i));
    }
    kti_hent *r = &e->rec[e->nrec++];
    r->lo = kti_pack_codes(code, h->ncb);
    r->hi = (uint64_t)(e->mask >> 64);
    r->cnt = (uint64_t)e->mask;
}

static void henum_cell(henum *e, unsigned p);

/* The cells whose degree cannot reach its least any more end the branch. */
static void henum_next(henum *e, unsigned p)
{
    unsigned c = e->order[p];
    if (e->deg[c] + e->fwd[p] < e->mindeg[c]) return;
    for (unsigned k = 0; k < e->nback[p]; k++) {
        unsigned b = e->back[p][k];
        if (e->deg[b] + e->rem[p][k] < e->mindeg[b]) return;
    }
    henum_cell(e, p + 1);
}

typedef struct hundo {
    uint8_t oa, ob, ea, eb;
} hundo;

/* Add the edge from step p's cell to its back neighbour k: false when it
 * would close a cycle or overfill the neighbour. */
static inline bool henum_link(henum *e, unsigned p, unsigned k, hundo *u)
{
    unsigned a = e->order[p], b = e->back[p][k];
    if (e->deg[b] >= 2) return false;
    unsigned oa = e->end[a], ob = e->end[b];
    if (oa == b) return false;
    u->oa = (uint8_t)oa;
    u->ob = (uint8_t)ob;
    u->ea = e->end[oa];
    u->eb = e->end[ob];
    e->end[oa] = (uint8_t)ob;
    e->end[ob] = (uint8_t)oa;
    e->deg[a]++;
    e->deg[b]++;
    e->mask |= (kti_u128)1 << e->h->ebit[a][b];
    return true;
}

static inline void henum_unlink(henum *e, unsigned p, unsigned k, const hundo *u)
{
    unsigned a = e->order[p], b = e->back[p][k];
    e->mask &= ~((kti_u128)1 << e->h->ebit[a][b]);
    e->deg[a]--;
    e->deg[b]--;
    e->end[u->ob] = u->eb;
    e->end[u->oa] = u->ea;
}

static void henum_cell(henum *e, unsigned p)
{
    if (e->over || e->cancel) return;
    if (p == e->h->ncells) {
        henum_record(e);
        return;
    }
    if ((++e->polls & 0xFFFFFu) == 0 && e->prog != NULL &&
        kti_progress_tick(&e->prog->p, e->prog->done, e->prog->total))
        e->cancel = true;
    unsigned c = e->order[p], nb = e->nback[p];
    e->deg[c] = 0;
    e->end[c] = (uint8_t)c;
    henum_next(e, p);
    for (unsigned i = 0; i < nb; i++) {
        hundo u1;
        if (!henum_link(e, p, i, &u1)) continue;
        henum_next(e, p);
        for (unsigned j = i + 1; j < nb; j++) {
            hundo u2;
            if (!henum_link(e, p, j, &u2)) continue;
            henum_next(e, p);
            henum_unlink(e, p, j, &u2);
        }
        henum_unlink(e, p, i, &u1);
    }
}

static void hlist_free(const kt_allocator *al, hlist *h)
{
    kti_free(al, h->first);
    kti_free(al, h->mask);
    h->first = NULL;
    h->mask = NULL;
}

/* Group the records (sorted by structure key) by the view's structures,
 * checking that every structure has exactly its count of half-tours. */
static kt_status hlist_fill(const kt_allocator *al, hlist *h, const kti_hent *rec, size_t n)
{
    const kti_half_view *v = &h->v;
    size_t bytes;
    if (!kti_mul_ok(n ? n : 1, sizeof *h->mask, &bytes)) return KT_ETOOBIG;
    h->first = kti_alloc(al, (v->n + 1) * sizeof *h->first);
    h->mask = kti_alloc(al, bytes);
    if (h->first == NULL || h->mask == NULL) return KT_ENOMEM;
    size_t i = 0;
    for (size_t s = 0; s < v->n; s++) {
        h->first[s] = i;
        for (uint64_t k = 0; k < v->counts[s]; k++, i++) {
            if (i == n || rec[i].lo != v->keys[s]) return KT_EUNSUPPORTED; /* never: a bug */
            h->mask[i] = (kti_u128)rec[i].hi << 64 | rec[i].cnt;
        }
    }
    h->first[v->n] = i;
    return i == n ? KT_OK : KT_EUNSUPPORTED;
}

/* Every half-tour of the half of view v (whose other half has `other`
 * rows), grouped by structure. */
static kt_status hlist_build(const kt_allocator *al, hlist *h, const kti_half_view *v,
                             uint32_t other, kti_hprogress *prog)
{
    memset(h, 0, sizeof *h);
    h->W = v->width;
    h->D = v->depth;
    h->ncells = v->width * v->depth;
    h->ncb = v->ncb;
    h->v = *v;
    henum *e = kti_alloc(al, sizeof *e);
    if (e == NULL) return KT_ENOMEM;
    henum_plan(e, h, other);
    uint64_t total = 0;
    for (size_t s = 0; s < v->n; s++) total += v->counts[s];
    size_t bytes;
    kt_status rc = KT_OK;
    if (h->nedges > HS_EDGES || !kti_mul_ok(total ? total : 1, sizeof *e->rec, &bytes))
        rc = KT_ETOOBIG;
    if (rc == KT_OK && (e->rec = kti_alloc(al, bytes)) == NULL) rc = KT_ENOMEM;
    if (rc == KT_OK) {
        e->cap = (size_t)total;
        e->prog = prog;
        henum_cell(e, 0);
        if (e->cancel) rc = KT_ECANCELED;
        else if (e->over) rc = KT_EUNSUPPORTED;
        else if (!kti_hdp_sort(al, e->rec, e->nrec)) rc = KT_ENOMEM;
    }
    if (rc == KT_OK) rc = hlist_fill(al, h, e->rec, e->nrec);
    kti_free(al, e->rec);
    kti_free(al, e);
    if (rc != KT_OK) hlist_free(al, h);
    return rc;
}

/* ---- the sampler ---- */

void kti_hsampler_free(kti_hsampler *s)
{
    if (s == NULL) return;
    kt_allocator al = s->al;
    kti_hjoin_free(s->join);
    hlist_free(&al, &s->ll);
    hlist_free(&al, &s->lu);
    kti_free(&al, s->prefix);
    kt_halftours_free(s->hl);
    kt_halftours_free(s->hu);
    kti_free(&al, s);
}

/* The join's weights turned into prefix sums of tours by upper structure;
 * they must add up to the join's own count. */
static kt_status hsampler_weigh(kti_hsampler *s, const kti_run *run, kti_hprogress *prog)
{
    const kti_half_view *vu = &s->U->v;
    size_t bytes;
    if (!kti_mul_ok(vu->n + 1, sizeof *s->prefix, &bytes)) return KT_ETOOBIG;
    s->prefix = kti_calloc(&s->al, vu->n + 1, sizeof *s->prefix);
    if (s->prefix == NULL) return KT_ENOMEM;
    kti_u128 count = 0, sum = 0;
    KTI_TRY(kti_hjoin_parts(s->join, run, prog, s->prefix, &count));
    for (size_t i = 0; i < vu->n; i++) {
        kti_u128 part = s->prefix[i], c = vu->counts[i];
        if (part != 0 && c > ~(kti_u128)0 / part) return KT_EOVERFLOW;
        s->prefix[i] = sum;
        if (sum + part * c < sum) return KT_EOVERFLOW;
        sum += part * c;
    }
    s->prefix[vu->n] = sum;
    if (sum != count) return KT_EUNSUPPORTED; /* never: the mirror images were wrong */
    if (sum == 0) return KT_ENOTOUR;
    s->bytes += bytes;
    return KT_OK;
}

static uint64_t hlist_bytes(const hlist *h)
{
    return (uint64_t)(h->v.n + 1) * sizeof *h->first + (uint64_t)h->first[h->v.n] * sizeof *h->mask;
}

/* The halves, their lists, the join and the crossing steps' bits. */
static kt_status hsampler_build(kti_hsampler *s, const kti_run *run, kti_hprogress *prog)
{
    uint32_t DU = s->split, DL = s->H - s->split;
    KTI_TRY(kti_halftours_make(&s->hl, s->W, DL, DU, run, prog));
    if (DU != DL) KTI_TRY(kti_halftours_make(&s->hu, s->W, DU, DL, run, prog));
    kti_half_view vl = kti_halftours_view(s->hl);
    kti_half_view vu = kti_halftours_view(s->hu ? s->hu : s->hl);
    KTI_TRY(hlist_build(&s->al, &s->ll, &vl, DU, prog));
    s->L = s->U = &s->ll;
    if (s->hu != NULL) {
        KTI_TRY(hlist_build(&s->al, &s->lu, &vu, DL, prog));
        s->U = &s->lu;
    }
    s->bytes = hlist_bytes(&s->ll) + (s->hu != NULL ? hlist_bytes(&s->lu) : 0);
    KTI_TRY(kti_hjoin_new(&s->join, &s->ll.v, &s->U->v, &s->al));
    memset(s->cbit, NONE8, sizeof s->cbit);
    for (unsigned bit = 0; bit < 64; bit++) {
        unsigned u, l;
        if (kti_hjoin_crossing(s->join, bit, &u, &l)) s->cbit[u][l] = (uint8_t)bit;
    }
    return hsampler_weigh(s, run, prog);
}

kt_status kti_hsampler_new(kti_hsampler **out, uint32_t width, uint32_t height, uint32_t split,
                           const kti_run *run)
{
    if (width == 0 || width > KT_HALFTOUR_MAX_WIDTH || split == 0 || split >= height)
        return KT_EINVAL;
    uint32_t DU = split, DL = height - split;
    if ((uint64_t)width * DU > HS_CELLS || (uint64_t)width * DL > HS_CELLS) return KT_EUNSUPPORTED;
    kti_hsampler *s = kti_calloc(run->alloc, 1, sizeof *s);
    if (s == NULL) return KT_ENOMEM;
    s->al = *run->alloc;
    s->W = width;
    s->H = height;
    s->split = split;
    kti_hprogress prog, *pp = NULL;
    if (run->progress != NULL) {
        kti_progress_init(&prog.p, run->progress, run->progress_user);
        prog.done = 0;
        prog.total = (uint64_t)width * DL + (DL == DU ? 0 : (uint64_t)width * DU) +
                     KTI_HALFTOUR_JOIN_UNITS;
        pp = &prog;
    }
    kt_status rc = hsampler_build(s, run, pp);
    if (rc != KT_OK) {
        kti_hsampler_free(s);
        return rc;
    }
    *out = s;
    return KT_OK;
}

kti_u128 kti_hsampler_total(const kti_hsampler *s)
{
    return s->prefix[s->U->v.n];
}

uint64_t kti_hsampler_bytes(const kti_hsampler *s)
{
    return s->bytes;
}

/* Board cell of a half's local cell: the upper half's rows run upward
 * from the cut, the lower half's downward. */
static uint32_t board_cell(const kti_hsampler *s, bool upper, unsigned c)
{
    unsigned r = c / s->W, x = c % s->W;
    uint32_t row = upper ? s->split - 1 - r : s->split + r;
    return row * s->W + x;
}

static void add_edge(uint32_t *nb, uint8_t *deg, uint32_t a, uint32_t b)
{
    nb[2 * a + deg[a]++] = b;
    nb[2 * b + deg[b]++] = a;
}

static void add_half(const kti_hsampler *s, const hlist *h, bool upper, kti_u128 mask,
                     uint32_t *nb, uint8_t *deg)
{
    for (unsigned bit = 0; bit < h->nedges; bit++)
        if ((mask >> bit) & 1u)
            add_edge(nb, deg, board_cell(s, upper, h->ea[bit]), board_cell(s, upper, h->eb[bit]));
}

kt_status kti_hsampler_unrank(const kti_hsampler *s, kti_u128 r, uint32_t *nb, uint8_t *deg)
{
    const hlist *U = s->U, *L = s->L;
    size_t lo = 0, hi = U->v.n; /* the last structure whose prefix is <= r */
    if (r >= s->prefix[hi]) return KT_ERANGE;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->prefix[mid] <= r) lo = mid;
        else hi = mid;
    }
    kti_u128 rs = r - s->prefix[lo], cu = U->v.counts[lo], off;
    uint64_t cmask;
    size_t li;
    KTI_TRY(kti_hjoin_locate(s->join, lo, rs / cu, &cmask, &li, &off));
    memset(deg, 0, (size_t)s->W * s->H);
    add_half(s, U, true, U->mask[U->first[lo] + (size_t)(rs % cu)], nb, deg);
    add_half(s, L, false, L->mask[L->first[li] + (size_t)off], nb, deg);
    for (unsigned bit = 0; bit < 64; bit++) {
        if (!((cmask >> bit) & 1u)) continue;
        unsigned u, l;
        bool ok = kti_hjoin_crossing(s->join, bit, &u, &l);
        KTI_ASSERT(ok);
        (void)ok;
        add_edge(nb, deg, board_cell(s, true, u), board_cell(s, false, l));
    }
    return KT_OK;
}

/* The structure and index of a half-tour given as an edge set: false when
 * it is none of the half's half-tours. */
static bool half_locate(const hlist *h, kti_u128 mask, size_t *sidx, size_t *idx)
{
    uint8_t deg[HS_CELLS] = {0}, nbr[HS_CELLS][2];
    for (unsigned bit = 0; bit < h->nedges; bit++) {
        if (!((mask >> bit) & 1u)) continue;
        unsigned a = h->ea[bit], b = h->eb[bit];
        nbr[a][deg[a]++] = (uint8_t)b;
        nbr[b][deg[b]++] = (uint8_t)a;
    }
    uint8_t code[KT_HALFTOUR_MAX_CELLS];
    for (unsigned i = 0; i < h->ncb; i++) {
        code[i] = (uint8_t)(deg[i] == 0 ? 0 : deg[i] == 2 ? 1 : 2 + i);
        if (deg[i] != 1) continue;
        unsigned prev = i, c = nbr[i][0];
        while (deg[c] == 2) {
            unsigned n2 = nbr[c][0] == prev ? nbr[c][1] : nbr[c][0];
            prev = c;
            c = n2;
        }
        if (c >= h->ncb) return false;
        if (c < i) code[i] = code[c];
    }
    if (!kti_half_view_find(&h->v, kti_pack_codes(code, h->ncb), sidx)) return false;
    for (size_t k = h->first[*sidx]; k < h->first[*sidx + 1]; k++)
        if (h->mask[k] == mask) {
            *idx = k - h->first[*sidx];
            return true;
        }
    return false;
}

kt_status kti_hsampler_rank(const kti_hsampler *s, const uint32_t *nb, kti_u128 *rank)
{
    kti_u128 mu = 0, ml = 0;
    uint64_t cmask = 0;
    uint32_t n = s->W * s->H;
    for (uint32_t a = 0; a < n; a++)
        for (unsigned k = 0; k < 2; k++) {
            uint32_t b = nb[2 * a + k];
            if (b <= a) continue;
            uint32_t ra = a / s->W, rb = b / s->W;
            bool ua = ra < s->split, ub = rb < s->split;
            unsigned ca = ua ? (s->split - 1 - ra) * s->W + a % s->W : (ra - s->split) * s->W + a % s->W;
            unsigned cb = ub ? (s->split - 1 - rb) * s->W + b % s->W : (rb - s->split) * s->W + b % s->W;
            unsigned bit;
            if (ua == ub) {
                bit = (ua ? s->U : s->L)->ebit[ca][cb];
                if (bit == NONE8) return KT_EBADTOUR;
                if (ua) mu |= (kti_u128)1 << bit;
                else ml |= (kti_u128)1 << bit;
                continue;
            }
            unsigned u = ua ? ca : cb, l = ua ? cb : ca;
            if (u >= KT_HALFTOUR_MAX_CELLS || l >= KT_HALFTOUR_MAX_CELLS) return KT_EBADTOUR;
            bit = s->cbit[u][l];
            if (bit == NONE8) return KT_EBADTOUR;
            cmask |= 1ull << bit;
        }
    size_t su, iu, sl, il;
    if (!half_locate(s->U, mu, &su, &iu) || !half_locate(s->L, ml, &sl, &il)) return KT_EBADTOUR;
    kti_u128 before;
    KTI_TRY(kti_hjoin_before(s->join, su, cmask, sl, &before));
    *rank = s->prefix[su] + (before + il) * s->U->v.counts[su] + iu;
    return KT_OK;
}
