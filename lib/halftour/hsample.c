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
 *     When the halves are one set (8x8, no given end), the up-down flip
 *     swaps them: the join then joins a pair of types only when the upper
 *     one comes first (the larger: the walks meet the smaller lower
 *     types), and such a partner counts twice, for its tour and the
 *     tour's flip image (kti_hjoin_pair_weight).  Given tour ends break
 *     the left-right mirror of the half that holds them only (all below
 *     the cut are first turned above it, by the up-down flip that every
 *     tour drawn or ranked then undoes): part(s) depends on s and the
 *     lower half alone, and the mirror maps s's partners onto those of
 *     its image, so the join runs one type of each mirror pair, about
 *     half the types (KTI_HJOIN_MIRROR_LOWER), and mirrors back the
 *     partners of the structures of the other.
 * The tours are ranked by upper structure, then partner (in the join's
 * search order, kti_hjoin_locate; a partner of weight 2 holds its lower
 * half-tours twice, as they are and then flipped), then upper half-tour:
 * the tour of a rank is one binary search, one search of the join for one
 * upper type, and two lookups in the lists.  Both halves' half-tours are stored, so
 * the lists hold every half-tour of the board's halves once (70,433,448
 * of 16 bytes for 8x8, one list for both halves).  A half whose lists
 * would pass HS_LIST_BYTES (the 7x5 half of open 7x9) is not listed: its
 * half-tours of one structure are counted, unranked and ranked at each
 * call by hpaths.c, in that programme's order.
 *
 * Open halves whose every half-tour cannot even be enumerated by structure
 * in one pass (the 8x4 halves of open 8x8 with an end free) are enumerated
 * as the count does it: in shards, merged (one structure per pairing, the
 * two tour ends' paths read as one; kti_hdp_merge_ends).  The join needs
 * no more; a draw splits the merged structure back into its structures
 * (kti_hpaths_split_key) and takes them in turn, ranked by hpaths.c.
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
    bool open;                              /* open tours: cells may be tour ends */
    uint8_t rule[HS_CELLS];                 /* open: tour-end rule (kti_halftours_make_open) */
    uint8_t cap[HS_CELLS];                  /* open: moves across the cut */
    size_t *first;                          /* n + 1: a structure's first half-tour */
    uint64_t *mask;                         /* the half-tours, by structure, `words` each */
    unsigned words;                         /* 1 when the half has at most 64 edges, else 2 */
    bool listed;                            /* false: no lists; hpaths.c per structure */
} hlist;

/* A half whose lists would pass this many bytes is not listed: each draw
 * counts and unranks its structure's half-tours (hpaths.c) instead, which
 * costs about 2 ms (an 8x4 structure) to 80 ms (7x5) a draw against a
 * lookup (BENCHMARKS.md, "Halves too large to list").
 * 7x8 open lists 6 GiB; the 7x5 half of open 7x9 would be far more. */
#define HS_LIST_BYTES ((uint64_t)8 << 30)
/* The draws' proposals (kti_hjoin_propose): blocks of about 65,536 (C, SL)
 * pairs, taken on types of 4 blocks or more, and the tries before a draw
 * seeks instead. */
#define HS_BLOCK ((uint64_t)1 << 16)
#define HS_MIN_BLOCKS 4u
#define HS_TRIES 64u

static inline kti_u128 hlist_mask(const hlist *h, size_t i)
{
    if (h->words == 1) return h->mask[i];
    return (kti_u128)h->mask[2 * i + 1] << 64 | h->mask[2 * i];
}

struct kti_hsampler {
    kt_allocator al;
    uint32_t W, H, split;
    bool open;                              /* open tours (paths) */
    bool unlisted;                          /* list no half (the tests of hpaths' path) */
    bool merge_all;                         /* open: merge every half (the tests of that path) */
    bool small_blocks;                      /* open: KTI_HS_SMALL_BLOCKS */
    bool always_propose;                    /* open: KTI_HS_ALWAYS_PROPOSE */
    bool noflip;                            /* KTI_HS_NOFLIP */
    /* The given ends all lay below the cut: they are turned above it by
     * the board's up-down flip, which every tour drawn or ranked undoes. */
    bool turned;
    kt_cell given[2];                       /* open: the given tour ends (board cells) */
    unsigned ngiven;
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
    uint8_t maxdeg[HS_CELLS];               /* open: 1 for a cell that must be a tour end */
    uint8_t deg[HS_CELLS], end[HS_CELLS];
    uint8_t final[HS_CELLS];                /* open: the cell's degree can no longer change */
    unsigned nforced;                       /* open: final cells that must be tour ends */
    kti_u128 mask;
    size_t *at;                             /* per structure: its next half-tour's place */
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
            e->maxdeg[c] = 2;
            h->cap[c] = (uint8_t)cm;
            if (!h->open || h->rule[c] == 0) continue;
            /* A tour end: degree 1, or 0 on the boundary with a step across. */
            unsigned least = r < 2 && cm >= 1 ? 0u : 1u;
            if (least < e->mindeg[c] || h->rule[c] == 2) e->mindeg[c] = (uint8_t)least;
            if (h->rule[c] == 2) e->maxdeg[c] = 1;
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

/* Open tours: the key of a half-tour whose tour ends are the cells with
 * isend set (codes as in halftour.h, KTI_HDP_TERM included); deg, and oth
 * (the other end of a degree-1 cell's path) describe its edges.  Labels are
 * numbered in cell order as the enumeration's keys are.  false when the
 * marks are not those of a half-tour: a boundary path end that neither
 * crosses nor ends the tour. */
static bool open_key(const hlist *h, const uint8_t *deg, const uint8_t *oth, const uint8_t *isend,
                     uint64_t *key)
{
    uint8_t code[KT_HALFTOUR_MAX_CELLS];
    unsigned next = 2;
    uint64_t k = 0;
    for (unsigned i = 0; i < h->ncb; i++) {
        unsigned d = deg[i], o = oth[i], v;
        if (d == 2 || (d == 1 && isend[i])) v = 1;
        else if (d == 0) v = isend[i] ? KTI_HDP_TERM : 0;
        else if (isend[o]) v = KTI_HDP_TERM;
        else if (o >= h->ncb) return false;
        else v = o > i ? next++ : code[o];
        code[i] = (uint8_t)v;
        k |= (uint64_t)v << (4 * i);
    }
    *key = k;
    return true;
}

/* Open tours: may cell c (degree d) be a tour end, and may it be none
 * (the roles of fin_roles in halftour.c)? */
static void open_roles(const hlist *h, unsigned c, unsigned d, bool *end, bool *inner)
{
    bool bnd = c < h->ncb;
    unsigned rule = h->rule[c], cap = h->cap[c];
    *end = rule >= 1 && (d == 1 || (d == 0 && bnd && cap >= 1));
    *inner = rule != 2 && (d == 2 || (bnd && d == 1 && cap >= 1) || (bnd && d == 0 && cap >= 2));
}

/* File the current half-tour under its structure, in the order found. */
static void henum_put(henum *e, uint64_t key)
{
    const hlist *h = e->h;
    size_t s;
    if (!kti_half_view_find(&h->v, key, &s) || e->at[s] == h->first[s + 1]) {
        e->over = true; /* more half-tours than the structures count: a bug */
        return;
    }
    size_t i = e->at[s]++;
    if (h->words == 1) {
        h->mask[i] = (uint64_t)e->mask;
    } else {
        h->mask[2 * i] = (uint64_t)e->mask;
        h->mask[2 * i + 1] = (uint64_t)(e->mask >> 64);
    }
}

/* A finished half-tour: its structure key (codes as in halftour.h). */
static void henum_record(henum *e)
{
    const hlist *h = e->h;
    uint8_t code[KT_HALFTOUR_MAX_CELLS];
    for (unsigned i = 0; i < h->ncb; i++) {
        unsigned d = e->deg[i];
        /* ends share their partner's label: the lesser cell's index + 2 */
        unsigned o = e->end[i];
        code[i] = (uint8_t)(d == 0 ? 0 : d == 2 ? 1 : 2 + (o < i ? o : i));
    }
    henum_put(e, kti_pack_codes(code, h->ncb));
}

/* Open tours: the finished edge set with every choice of its tour ends
 * (at most two; a path may not have a tour end at both ends). */
static void henum_record_open(henum *e)
{
    const hlist *h = e->h;
    uint8_t isend[HS_CELLS] = {0}, opt[HS_CELLS];
    unsigned nforced = 0, nopt = 0;
    for (unsigned c = 0; c < h->ncells; c++) {
        bool end, inner;
        open_roles(h, c, e->deg[c], &end, &inner);
        if (!end && !inner) return;
        if (end && !inner) {
            if (nforced++ == 2) return;
            isend[c] = 1;
        } else if (end) {
            opt[nopt++] = (uint8_t)c;
        }
    }
    /* The choices: none (a = -1), {opt[a]} (b = a), {opt[a], opt[b]} (a < b). */
    for (int a = -1; a < (int)nopt; a++)
        for (int b = a; b < (int)nopt; b++) {
            if (a < 0 && b >= 0) break;
            if (nforced + (a >= 0) + (b > a) > 2) continue;
            if (a >= 0) isend[opt[a]] = 1;
            if (b > a) isend[opt[b]] = 1;
            bool ok = true;
            for (unsigned c = 0; c < h->ncells && ok; c++)
                ok = !(isend[c] && e->deg[c] == 1 && isend[e->end[c]]);
            uint64_t key;
            if (ok && open_key(h, e->deg, e->end, isend, &key)) henum_put(e, key);
            if (a >= 0) isend[opt[a]] = 0;
            if (b > a) isend[opt[b]] = 0;
        }
}

static void henum_cell(henum *e, unsigned p);

/* Open tours: the cells whose degree is now final; a cell away from the
 * boundary left with one edge is a tour end, and there are at most two,
 * never both ends of one path. */
static void henum_next_open(henum *e, unsigned p)
{
    const hlist *h = e->h;
    uint8_t fin[1 + 8];
    unsigned nf = 0, forced = e->nforced;
    bool ok = true;
    if (e->fwd[p] == 0) fin[nf++] = (uint8_t)e->order[p];
    for (unsigned k = 0; k < e->nback[p]; k++)
        if (e->rem[p][k] == 0) fin[nf++] = e->back[p][k];
    for (unsigned i = 0; i < nf; i++) {
        unsigned c = fin[i];
        e->final[c] = 1;
        if (c < h->ncb || e->deg[c] != 1) continue;
        unsigned o = e->end[c];
        forced++;
        if (o >= h->ncb && e->final[o] && e->deg[o] == 1) ok = false;
    }
    if (ok && forced <= 2) {
        unsigned save = e->nforced;
        e->nforced = forced;
        henum_cell(e, p + 1);
        e->nforced = save;
    }
    for (unsigned i = 0; i < nf; i++) e->final[fin[i]] = 0;
}

/* The cells whose degree cannot reach its least any more end the branch. */
static void henum_next(henum *e, unsigned p)
{
    unsigned c = e->order[p];
    if (e->deg[c] + e->fwd[p] < e->mindeg[c]) return;
    for (unsigned k = 0; k < e->nback[p]; k++) {
        unsigned b = e->back[p][k];
        if (e->deg[b] + e->rem[p][k] < e->mindeg[b]) return;
    }
    if (e->h->open) henum_next_open(e, p);
    else henum_cell(e, p + 1);
}

typedef struct hundo {
    uint8_t oa, ob, ea, eb;
} hundo;

/* Add the edge from step p's cell to its back neighbour k: false when it
 * would close a cycle or overfill the neighbour. */
static inline bool henum_link(henum *e, unsigned p, unsigned k, hundo *u)
{
    unsigned a = e->order[p], b = e->back[p][k];
    if (e->deg[b] >= e->maxdeg[b] || e->deg[a] >= e->maxdeg[a]) return false;
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
        if (e->h->open) henum_record_open(e);
        else henum_record(e);
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

/* Room for the half-tours of every structure of the view (the counts
 * say how many), and the places to fill. */
static kt_status hlist_alloc(const kt_allocator *al, hlist *h, size_t **at)
{
    const kti_half_view *v = &h->v;
    size_t total = 0, bytes;
    for (size_t s = 0; s < v->n; s++)
        if (__builtin_add_overflow(total, v->counts[s], &total)) return KT_ETOOBIG;
    if (!kti_mul_ok(total ? total : 1, h->words * sizeof *h->mask, &bytes) ||
        !kti_mul_ok(v->n + 1, sizeof *h->first, &bytes) || h->nedges > HS_EDGES)
        return KT_ETOOBIG;
    h->first = kti_alloc(al, (v->n + 1) * sizeof *h->first);
    h->mask = kti_alloc(al, (total ? total : 1) * h->words * sizeof *h->mask);
    *at = kti_alloc(al, (v->n + 1) * sizeof **at);
    if (h->first == NULL || h->mask == NULL || *at == NULL) return KT_ENOMEM;
    size_t i = 0;
    for (size_t s = 0; s < v->n; s++) {
        h->first[s] = (*at)[s] = i;
        i += (size_t)v->counts[s];
    }
    h->first[v->n] = i;
    return KT_OK;
}

/* Every half-tour of the half of view v (whose other half has `other`
 * rows), grouped by structure; rule: NULL for closed tours, else the open
 * half's tour-end rule. */
static kt_status hlist_build(const kt_allocator *al, hlist *h, const kti_half_view *v,
                             uint32_t other, const uint8_t *rule, bool unlisted,
                             kti_hprogress *prog)
{
    memset(h, 0, sizeof *h);
    h->open = rule != NULL;
    if (rule != NULL) memcpy(h->rule, rule, (size_t)v->width * v->depth);
    h->W = v->width;
    h->D = v->depth;
    h->ncells = v->width * v->depth;
    h->ncb = v->ncb;
    h->v = *v;
    henum *e = kti_alloc(al, sizeof *e);
    if (e == NULL) return KT_ENOMEM;
    henum_plan(e, h, other);
    h->words = h->nedges <= 64 ? 1 : 2;
    uint64_t total = 0;
    for (size_t i = 0; i < v->n; i++)
        if (__builtin_add_overflow(total, v->counts[i], &total)) total = UINT64_MAX;
    if (unlisted || v->merged || total > HS_LIST_BYTES / (8 * h->words)) {
        kti_free(al, e);
        return KT_OK;
    }
    h->listed = true;
    /* Each half-tour goes straight to its structure's place: no list of
     * records to sort, which would take 24 bytes more per half-tour (7x7
     * open: 253 million in the upper half). */
    kt_status rc = hlist_alloc(al, h, &e->at);
    if (rc == KT_OK) {
        e->prog = prog;
        henum_cell(e, 0);
        if (e->cancel) rc = KT_ECANCELED;
        else if (e->over) rc = KT_EUNSUPPORTED;
        for (size_t s = 0; rc == KT_OK && s < v->n; s++)
            if (e->at[s] != h->first[s + 1]) rc = KT_EUNSUPPORTED; /* never: a bug */
    }
    kti_free(al, e->at);
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
    if (s->open)
        kti_hjoin_set_blocks(s->join, s->small_blocks ? 4 : HS_BLOCK,
                             s->small_blocks || s->always_propose ? 1 : HS_MIN_BLOCKS);
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
    s->bytes += bytes + kti_hjoin_block_bytes(s->join);
    return KT_OK;
}

static uint64_t hlist_bytes(const hlist *h)
{
    if (!h->listed) return 0;
    return (uint64_t)(h->v.n + 1) * sizeof *h->first +
           (uint64_t)h->first[h->v.n] * h->words * sizeof *h->mask;
}

/* Open halves enumerated merged and in shards (kti_halftours_make_open_merged):
 * those of 8 columns and 4 rows or more without both tour ends given (the
 * 8x4 half passes 20 GiB in one pass, even merged), and halves of 42
 * cells or more (7x6: not measured, and 7x5 already holds billions of
 * half-tours).  The 7x5 half of open 7x9 is enumerated whole (its
 * structures unmerged: a draw ranks one of them, not several). */
static bool merged_half(const kti_hsampler *s, uint32_t D)
{
    if (!s->open) return false;
    if (s->merge_all) return true;
    uint64_t cells = (uint64_t)s->W * D;
    return s->ngiven < 2 && ((s->W >= 8 && D >= 4) || cells >= 42);
}

/* The progress steps of one half's enumeration. */
static uint64_t half_steps(const kti_hsampler *s, uint32_t D)
{
    if (!merged_half(s, D)) return (uint64_t)s->W * D;
    return kti_halftours_open_steps(s->W, D, s->merge_all ? 0 : KTI_OPEN_SHARDS_FROM);
}

/* One open half: merged (in shards where large) or whole. */
static kt_status open_half(const kti_hsampler *s, kt_halftours **out, uint32_t D, uint32_t O,
                           const uint8_t *rule, const kti_run *run, kti_hprogress *prog)
{
    if (!merged_half(s, D)) return kti_halftours_make_open(out, s->W, D, O, rule, run, prog);
    uint32_t from = s->merge_all ? 0 : KTI_OPEN_SHARDS_FROM;
    return kti_halftours_make_open_merged(out, s->W, D, O, rule, from, run, prog);
}

/* The halves' path structures: for open tours under the tour-end rules
 * rl, ru of the lower and upper half (board rows split.. downward and
 * split - 1.. upward), which are one set when the halves are alike. */
static kt_status hsampler_halves(kti_hsampler *s, const uint8_t *rl, const uint8_t *ru,
                                 const kti_run *run, kti_hprogress *prog)
{
    uint32_t DU = s->split, DL = s->H - s->split;
    if (!s->open) {
        KTI_TRY(kti_halftours_make(&s->hl, s->W, DL, DU, run, prog));
        if (DU != DL) KTI_TRY(kti_halftours_make(&s->hu, s->W, DU, DL, run, prog));
        return KT_OK;
    }
    KTI_TRY(open_half(s, &s->hl, DL, DU, rl, run, prog));
    if (DU != DL || s->ngiven != 0) KTI_TRY(open_half(s, &s->hu, DU, DL, ru, run, prog));
    return KT_OK;
}

/* The halves, their lists, the join and the crossing steps' bits. */
static kt_status hsampler_build(kti_hsampler *s, const kti_run *run, kti_hprogress *prog)
{
    uint32_t DU = s->split, DL = s->H - s->split;
    uint8_t rl[HS_CELLS], ru[HS_CELLS];
    if (s->open) {
        kti_halftours_open_rules(rl, s->W, DL, s->H, s->split, 1, s->given, s->ngiven);
        kti_halftours_open_rules(ru, s->W, DU, s->H, s->split - 1, -1, s->given, s->ngiven);
    }
    KTI_TRY(hsampler_halves(s, rl, ru, run, prog));
    kti_half_view vl = kti_halftours_view(s->hl);
    kti_half_view vu = kti_halftours_view(s->hu ? s->hu : s->hl);
    KTI_TRY(hlist_build(&s->al, &s->ll, &vl, DU, s->open ? rl : NULL, s->unlisted, prog));
    s->L = s->U = &s->ll;
    if (s->hu != NULL) {
        KTI_TRY(hlist_build(&s->al, &s->lu, &vu, DL, s->open ? ru : NULL, s->unlisted, prog));
        s->U = &s->lu;
    }
    s->bytes = hlist_bytes(&s->ll) + (s->hu != NULL ? hlist_bytes(&s->lu) : 0);
    /* Given ends break the left-right mirror of the half that holds
     * them: with the lower half keeping it, the join still runs one type
     * of each mirror pair (its pairing of each upper structure stays
     * whole: on open 8x8 from a corner about 10 % less time). */
    bool syml = !s->open || kti_halftours_rule_symmetric(rl, s->W, DL);
    bool symu = !s->open || kti_halftours_rule_symmetric(ru, s->W, DU);
    unsigned mirror = !syml ? KTI_HJOIN_NOMIRROR : symu ? KTI_HJOIN_MIRROR : KTI_HJOIN_MIRROR_LOWER;
    KTI_TRY(kti_hjoin_new_sym(&s->join, &s->ll.v, &s->U->v, mirror, !s->noflip, run->threads,
                              &s->al));
    memset(s->cbit, NONE8, sizeof s->cbit);
    for (unsigned bit = 0; bit < 64; bit++) {
        unsigned u, l;
        if (kti_hjoin_crossing(s->join, bit, &u, &l)) s->cbit[u][l] = (uint8_t)bit;
    }
    return hsampler_weigh(s, run, prog);
}

static kt_status hsampler_new(kti_hsampler **out, uint32_t width, uint32_t height,
                              uint32_t split, bool open, const kt_cell *given, unsigned ngiven,
                              unsigned flags, const kti_run *run)
{
    if (width == 0 || width > KT_HALFTOUR_MAX_WIDTH || split == 0 || split >= height)
        return KT_EINVAL;
    for (unsigned i = 0; i < ngiven; i++)
        if (given[i] >= (uint64_t)width * height) return KT_EINVAL;
    uint32_t DU = split, DL = height - split;
    if ((uint64_t)width * DU > HS_CELLS || (uint64_t)width * DL > HS_CELLS) return KT_EUNSUPPORTED;
    kti_hsampler *s = kti_calloc(run->alloc, 1, sizeof *s);
    if (s == NULL) return KT_ENOMEM;
    s->al = *run->alloc;
    s->W = width;
    s->H = height;
    s->split = split;
    s->open = open;
    s->unlisted = (flags & KTI_HS_UNLISTED) != 0;
    s->merge_all = (flags & KTI_HS_MERGED) != 0;
    s->small_blocks = (flags & KTI_HS_SMALL_BLOCKS) != 0;
    s->always_propose = (flags & KTI_HS_ALWAYS_PROPOSE) != 0;
    s->noflip = (flags & KTI_HS_NOFLIP) != 0;
    s->ngiven = ngiven;
    for (unsigned i = 0; i < ngiven; i++) s->given[i] = given[i];
    /* Given ends all below the cut go above it, where the join keeps the
     * lower half's mirror (hsampler_build): the board flipped up-down. */
    bool turn = open && ngiven > 0;
    for (unsigned i = 0; i < ngiven; i++)
        turn = turn && given[i] / width >= split && height - 1 - given[i] / width < split;
    if (turn) {
        s->turned = true;
        for (unsigned i = 0; i < ngiven; i++)
            s->given[i] = (height - 1 - given[i] / width) * width + given[i] % width;
    }
    kti_hprogress prog, *pp = NULL;
    if (run->progress != NULL) {
        kti_progress_init(&prog.p, run->progress, run->progress_user);
        prog.done = 0;
        prog.total = half_steps(s, DL) + (DL == DU && ngiven == 0 ? 0 : half_steps(s, DU)) +
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

kt_status kti_hsampler_new(kti_hsampler **out, uint32_t width, uint32_t height, uint32_t split,
                           unsigned flags, const kti_run *run)
{
    return hsampler_new(out, width, height, split, false, NULL, 0, flags, run);
}

kt_status kti_hsampler_new_open(kti_hsampler **out, uint32_t width, uint32_t height,
                                uint32_t split, kt_cell start, kt_cell end, unsigned flags,
                                const kti_run *run)
{
    kt_cell given[2];
    unsigned ngiven = 0;
    if (start != KT_CELL_NONE) given[ngiven++] = start;
    if (end != KT_CELL_NONE) given[ngiven++] = end;
    if (ngiven == 2 && start == end) return KT_EINVAL;
    return hsampler_new(out, width, height, split, true, given, ngiven, flags, run);
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

/* The board's up-down flip of a tour (rows y and H - 1 - y swapped), in
 * place: the join's partners of weight 2 stand for a tour and this image
 * (kti_hjoin_pair_weight).  Only a cell's first deg[c] neighbours are
 * read (build_tour leaves the rest unset at an open tour's ends). */
static void flip_tour(const kti_hsampler *s, uint32_t *nb, uint8_t *deg)
{
    uint32_t W = s->W, H = s->H, n = W * H;
    for (uint32_t c = 0; c < n; c++)
        for (unsigned k = 0; k < deg[c] && k < 2; k++)
            if (nb[2 * c + k] != KTI_HS_NONE)
                nb[2 * c + k] = (H - 1 - nb[2 * c + k] / W) * W + nb[2 * c + k] % W;
    for (uint32_t y = 0; y < H / 2; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint32_t a = y * W + x, b = (H - 1 - y) * W + x;
            uint32_t a0 = nb[2 * a], a1 = nb[2 * a + 1];
            uint8_t da = deg[a];
            nb[2 * a] = nb[2 * b];
            nb[2 * a + 1] = nb[2 * b + 1];
            deg[a] = deg[b];
            nb[2 * b] = a0;
            nb[2 * b + 1] = a1;
            deg[b] = da;
        }
}

/* Half-tour idx of structure sidx of an unlisted half, by hpaths.c: of a
 * merged structure, the structures it stands for in turn.  Their counts
 * must add up to the structure's (checked when idx lies in the last). */
static kt_status hpaths_unrank(const kt_allocator *al, const hlist *h, size_t sidx, uint64_t idx,
                               uint8_t (*nbr)[2])
{
    uint64_t sub[KT_HALFTOUR_MAX_CELLS / 2 + 1], seen = 0;
    unsigned n = kti_hpaths_split_key(h->v.keys[sidx], h->ncb, h->v.merged, sub);
    for (unsigned k = 0; k < n; k++) {
        kti_hpaths *p = NULL;
        KTI_TRY(kti_hpaths_new(&p, h->W, h->D, h->open, h->rule, sub[k], 0, al));
        uint64_t c = kti_hpaths_count(p);
        kt_status st = KT_OK;
        bool here = idx - seen < c;
        if (here) st = k + 1 < n || seen + c == h->v.counts[sidx]
                           ? kti_hpaths_unrank(p, idx - seen, nbr)
                           : KT_EUNSUPPORTED; /* never: the structures disagree */
        kti_hpaths_free(p);
        if (here) return st;
        seen += c;
    }
    return KT_EUNSUPPORTED; /* never: idx is below the structure's count */
}

/* Half-tour idx of structure sidx of half h, added to the tour: from the
 * lists, or unranked by hpaths.c when the half is not listed. */
static kt_status add_half(const kti_hsampler *s, const hlist *h, bool upper, size_t sidx,
                          uint64_t idx, uint32_t *nb, uint8_t *deg)
{
    if (h->listed) {
        kti_u128 mask = hlist_mask(h, h->first[sidx] + (size_t)idx);
        for (unsigned bit = 0; bit < h->nedges; bit++)
            if ((mask >> bit) & 1u)
                add_edge(nb, deg, board_cell(s, upper, h->ea[bit]), board_cell(s, upper, h->eb[bit]));
        return KT_OK;
    }
    uint8_t nbr[HS_CELLS][2];
    KTI_TRY(hpaths_unrank(&s->al, h, sidx, idx, nbr));
    for (unsigned c = 0; c < h->ncells; c++)
        for (unsigned k = 0; k < 2; k++)
            if (nbr[c][k] != NONE8 && nbr[c][k] > c)
                add_edge(nb, deg, board_cell(s, upper, c), board_cell(s, upper, nbr[c][k]));
    return KT_OK;
}

/* The tour ends of a half (degree 1 once its own edges and the steps
 * across are in: no other edge reaches its cells), into *ends, and those
 * that lie on cells `in` marks (where they will be after the flip, if
 * any), into *hits. */
static void half_ends(const kti_hsampler *s, bool upper, const uint8_t *deg, const uint8_t *in,
                      bool flip, unsigned *ends, unsigned *hits)
{
    uint32_t W = s->W, H = s->H;
    uint32_t r0 = upper ? 0 : s->split, r1 = upper ? s->split : H;
    for (uint32_t y = r0; y < r1; y++)
        for (uint32_t x = 0; x < W; x++) {
            if (deg[y * W + x] != 1) continue;
            ++*ends;
            *hits += in[(flip ? H - 1 - y : y) * W + x] != 0;
        }
}

/* The TERM codes of a key: the half's tour ends. */
static unsigned key_terms(uint64_t key, unsigned ncb)
{
    unsigned n = 0;
    for (unsigned i = 0; i < ncb; i++) n += ((key >> (4 * i)) & 15u) == KTI_HDP_TERM;
    return n;
}

/* The tour of upper structure lo, its half-tour iu, step set cmask,
 * lower structure li and its half-tour il; flipped up-down when `flip`.
 * in (open tours, or NULL) and more as kti_hsampler_draw's: the half with
 * a tour end (the upper one when both have one) is built first, and the
 * tour is skipped when its ends on `in` cannot number more than `more`. */
static kt_status build_tour(const kti_hsampler *s, size_t lo, uint64_t iu, uint64_t cmask,
                            size_t li, uint64_t il, bool flip, const uint8_t *in, unsigned more,
                            bool *skipped, uint32_t *nb, uint8_t *deg)
{
    memset(deg, 0, (size_t)s->W * s->H);
    for (unsigned bit = 0; bit < 64; bit++) {
        if (!((cmask >> bit) & 1u)) continue;
        unsigned u, l;
        bool ok = kti_hjoin_crossing(s->join, bit, &u, &l);
        KTI_ASSERT(ok);
        (void)ok;
        add_edge(nb, deg, board_cell(s, true, u), board_cell(s, false, l));
    }
    bool upper_first = in == NULL || key_terms(s->U->v.keys[lo], s->U->ncb) > 0;
    for (int k = 0; k < 2; k++) {
        bool upper = (k == 0) == upper_first;
        if (upper) KTI_TRY(add_half(s, s->U, true, lo, iu, nb, deg));
        else KTI_TRY(add_half(s, s->L, false, li, il, nb, deg));
        if (k == 0 && in != NULL) {
            /* An open tour has two ends: the other half has 2 - ends. */
            unsigned ends = 0, hits = 0;
            half_ends(s, upper, deg, in, flip != s->turned, &ends, &hits);
            KTI_ASSERT(ends <= 2);
            if (ends <= 2 && hits + (2 - ends) <= more) {
                *skipped = true;
                return KT_OK;
            }
        }
    }
    if (flip != s->turned) flip_tour(s, nb, deg);
    return KT_OK;
}

/* The tour at offset `off` of partner (cmask, li) of upper structure lo
 * (kti_hjoin_locate): a partner of weight 2 has the lower half-tours
 * twice, first as they are, then flipped. */
static kt_status build_located(const kti_hsampler *s, size_t lo, uint64_t iu, uint64_t cmask,
                               size_t li, kti_u128 off, const uint8_t *in, unsigned more,
                               bool *skipped, uint32_t *nb, uint8_t *deg)
{
    uint64_t cl = s->L->v.counts[li];
    bool flip = off >= cl;
    if (flip) off -= cl;
    if (off >= cl) return KT_EUNSUPPORTED; /* never: a weight of 2 at most */
    return build_tour(s, lo, iu, cmask, li, (uint64_t)off, flip, in, more, skipped, nb, deg);
}

/* The upper structure of rank r: the last whose prefix is <= r. */
static size_t upper_of_rank(const kti_hsampler *s, kti_u128 r)
{
    size_t lo = 0, hi = s->U->v.n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->prefix[mid] <= r) lo = mid;
        else hi = mid;
    }
    return lo;
}

kt_status kti_hsampler_draw(const kti_hsampler *s, kti_u128 r, kti_rng *g, const uint8_t *in,
                            unsigned more, bool *skipped, uint32_t *nb, uint8_t *deg)
{
    *skipped = false;
    if (r >= s->prefix[s->U->v.n]) return KT_ERANGE;
    if (!s->open) return kti_hsampler_unrank(s, r, nb, deg); /* (in: open tours only) */
    size_t lo = upper_of_rank(s, r);
    kti_u128 rs = r - s->prefix[lo], cu = s->U->v.counts[lo];
    /* The upper structure is drawn by its tours (r), its half-tour by rs
     * mod cu; the partner by rejection: each try draws one of the type's
     * partners by weight and keeps it when it completes the structure,
     * so an accepted one is uniform among the structure's partners.  An
     * upper structure with few partners among its type's could take many
     * tries: after HS_TRIES the seek draws the partner rs / cu, which is
     * uniform too and independent of the tries, so the draw stays exact. */
    for (unsigned t = 0; t < HS_TRIES; t++) {
        bool fits = false;
        uint64_t cmask;
        size_t li;
        kt_status st = kti_hjoin_propose(s->join, lo, g, &fits, &cmask, &li);
        if (st == KT_EUNSUPPORTED) break;
        KTI_TRY(st);
        if (fits) {
            /* Accepted in proportion to its weight: a partner of weight 2
             * stands for the tour and its flip image, one each. */
            uint64_t il = kti_rng_below(g, s->L->v.counts[li]);
            bool flip = kti_hjoin_pair_weight(s->join, lo, li) == 2 && kti_rng_below(g, 2) == 1;
            return build_tour(s, lo, (uint64_t)(rs % cu), cmask, li, il, flip, in, more, skipped, nb,
                              deg);
        }
    }
    kti_u128 off;
    uint64_t cmask;
    size_t li;
    KTI_TRY(kti_hjoin_locate(s->join, lo, rs / cu, &cmask, &li, &off));
    return build_located(s, lo, (uint64_t)(rs % cu), cmask, li, off, in, more, skipped, nb, deg);
}

kt_status kti_hsampler_unrank(const kti_hsampler *s, kti_u128 r, uint32_t *nb, uint8_t *deg)
{
    if (r >= s->prefix[s->U->v.n]) return KT_ERANGE;
    size_t lo = upper_of_rank(s, r);
    kti_u128 rs = r - s->prefix[lo], cu = s->U->v.counts[lo], off;
    uint64_t cmask;
    size_t li;
    bool skipped = false;
    KTI_TRY(kti_hjoin_locate(s->join, lo, rs / cu, &cmask, &li, &off));
    return build_located(s, lo, (uint64_t)(rs % cu), cmask, li, off, NULL, 0, &skipped, nb, deg);
}

/* The index of half-tour hn (structure key) among those of the unlisted
 * half's structure mkey (merged, or key itself): after the half-tours of
 * the structures mkey stands for before key (hpaths_unrank's order). */
static bool hpaths_rank(const kt_allocator *al, const hlist *h, uint64_t mkey, uint64_t key,
                        const uint8_t (*hn)[2], size_t *idx)
{
    uint64_t sub[KT_HALFTOUR_MAX_CELLS / 2 + 1], before = 0;
    unsigned n = kti_hpaths_split_key(mkey, h->ncb, h->v.merged, sub);
    for (unsigned k = 0; k < n; k++) {
        kti_hpaths *p = NULL;
        if (kti_hpaths_new(&p, h->W, h->D, h->open, h->rule, sub[k], 0, al) != KT_OK) return false;
        uint64_t r = 0;
        bool ok = sub[k] != key || kti_hpaths_rank(p, hn, &r) == KT_OK;
        uint64_t c = kti_hpaths_count(p);
        kti_hpaths_free(p);
        if (!ok) return false;
        if (sub[k] == key) {
            *idx = (size_t)(before + r);
            return true;
        }
        before += c;
    }
    return false;
}

/* The structure and index of a half-tour given as an edge set (and, for
 * open tours, its tour ends isend by local cell): false when it is none of
 * the half's half-tours. */
static bool half_locate(const kt_allocator *al, const hlist *h, kti_u128 mask,
                        const uint8_t *isend, size_t *sidx, size_t *idx)
{
    uint8_t deg[HS_CELLS] = {0}, nbr[HS_CELLS][2];
    for (unsigned bit = 0; bit < h->nedges; bit++) {
        if (!((mask >> bit) & 1u)) continue;
        unsigned a = h->ea[bit], b = h->eb[bit];
        nbr[a][deg[a]++] = (uint8_t)b;
        nbr[b][deg[b]++] = (uint8_t)a;
    }
    uint8_t code[KT_HALFTOUR_MAX_CELLS], oth[KT_HALFTOUR_MAX_CELLS];
    for (unsigned i = 0; i < h->ncb; i++) {
        code[i] = (uint8_t)(deg[i] == 0 ? 0 : deg[i] == 2 ? 1 : 2 + i);
        if (deg[i] != 1) continue;
        unsigned prev = i, c = nbr[i][0];
        while (deg[c] == 2) {
            unsigned n2 = nbr[c][0] == prev ? nbr[c][1] : nbr[c][0];
            prev = c;
            c = n2;
        }
        oth[i] = (uint8_t)c;
        if (c >= h->ncb && !h->open) return false;
        if (c < i) code[i] = code[c];
    }
    uint64_t key = kti_pack_codes(code, h->ncb), mkey;
    if (h->open && !open_key(h, deg, oth, isend, &key)) return false;
    mkey = key;
    if (h->v.merged) {
        uint8_t mc[KTI_HDP_SLOTS]; /* kti_hdp_merge_ends' bound, as the compiler sees it */
        for (unsigned i = 0; i < h->ncb; i++) mc[i] = (uint8_t)((key >> (4 * i)) & 15u);
        mkey = kti_hdp_pack_open(mc, h->ncb, true);
    }
    if (!kti_half_view_find(&h->v, mkey, sidx)) return false;
    if (!h->listed) {
        uint8_t hn[HS_CELLS][2];
        memset(hn, NONE8, sizeof hn);
        for (unsigned c = 0; c < h->ncells; c++)
            for (unsigned k = 0; k < deg[c]; k++) hn[c][k] = nbr[c][k];
        return hpaths_rank(al, h, mkey, key, (const uint8_t(*)[2])hn, idx);
    }
    for (size_t k = h->first[*sidx]; k < h->first[*sidx + 1]; k++)
        if (hlist_mask(h, k) == mask) {
            *idx = k - h->first[*sidx];
            return true;
        }
    return false;
}

/* A board cell's half (upper: rows above the cut) and local cell. */
static unsigned local_cell(const kti_hsampler *s, uint32_t a, bool *upper)
{
    uint32_t r = a / s->W;
    *upper = r < s->split;
    return (*upper ? s->split - 1 - r : r - s->split) * s->W + a % s->W;
}

static kt_status hsampler_rank(const kti_hsampler *s, const uint32_t *nb, bool flipped,
                               kti_u128 *rank);

/* Tour nb flipped up-down into fb (two slots a cell). */
static void flip_copy(const kti_hsampler *s, const uint32_t *nb, uint32_t *fb)
{
    uint32_t n = s->W * s->H;
    uint8_t fd[2 * HS_CELLS]; /* two halves of at most HS_CELLS cells */
    memcpy(fb, nb, 2 * (size_t)n * sizeof *fb);
    memset(fd, 2, n); /* both slots set, KTI_HS_NONE at a tour end */
    flip_tour(s, fb, fd);
}

kt_status kti_hsampler_rank(const kti_hsampler *s, const uint32_t *nb, kti_u128 *rank)
{
    if (!s->turned) return hsampler_rank(s, nb, false, rank);
    uint32_t fb[2 * 2 * HS_CELLS];
    flip_copy(s, nb, fb);
    return hsampler_rank(s, fb, false, rank);
}

/* The rank of tour nb, the flip image of the tour ranked when `flipped`. */
static kt_status hsampler_rank(const kti_hsampler *s, const uint32_t *nb, bool flipped,
                               kti_u128 *rank)
{
    kti_u128 mu = 0, ml = 0;
    uint64_t cmask = 0;
    uint32_t n = s->W * s->H;
    uint8_t endu[HS_CELLS] = {0}, endl[HS_CELLS] = {0};
    unsigned nends = 0;
    for (uint32_t a = 0; a < n; a++)
        for (unsigned k = 0; k < 2; k++) {
            uint32_t b = nb[2 * a + k];
            bool ua, ub;
            unsigned ca = local_cell(s, a, &ua);
            if (b == KTI_HS_NONE) {
                if (!s->open) return KT_EBADTOUR;
                (ua ? endu : endl)[ca] = 1;
                nends++;
                continue;
            }
            if (b <= a) continue;
            unsigned cb = local_cell(s, b, &ub), bit;
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
    if (s->open && nends != 2) return KT_EBADTOUR;
    for (unsigned i = 0; i < s->ngiven; i++)
        if (nb[2 * s->given[i]] != KTI_HS_NONE && nb[2 * s->given[i] + 1] != KTI_HS_NONE)
            return KT_EBADTOUR;
    size_t su, iu, sl, il;
    if (!half_locate(&s->al, s->U, mu, endu, &su, &iu) ||
        !half_locate(&s->al, s->L, ml, endl, &sl, &il))
        return KT_EBADTOUR;
    unsigned weight = kti_hjoin_pair_weight(s->join, su, sl);
    if (weight == 0) {
        /* Its flip image's partner stands for it (weight 2): rank that
         * image, as its second copy. */
        if (flipped) return KT_EUNSUPPORTED; /* never: the image weighs 2 */
        uint32_t fb[2 * 2 * HS_CELLS];
        flip_copy(s, nb, fb);
        return hsampler_rank(s, fb, true, rank);
    }
    if (flipped && weight != 2) return KT_EUNSUPPORTED; /* never */
    kti_u128 before;
    KTI_TRY(kti_hjoin_before(s->join, su, cmask, sl, &before));
    uint64_t cl = s->L->v.counts[sl];
    *rank = s->prefix[su] + (before + (flipped ? cl : 0) + il) * s->U->v.counts[su] + iu;
    return KT_OK;
}
