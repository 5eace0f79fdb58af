/* SPDX-License-Identifier: MIT */
/*
 * McKay's half-tours (see include/knight/halftour.h).
 *
 * Enumeration: a frontier pass over the half, farthest row first, using the
 * engine of dp.c.  Cells of local rows 0 and 1 stay in the state to the
 * end, so the last layer is exactly the set of path structures.
 *
 * Join (join.c): one upper type at a time, every set of crossing
 * steps that meets it, every lower structure of the lower type those steps
 * leave; the pairings of the upper ends they realise are summed in a small
 * table and matched against the upper structures of the type (a tour
 * exactly when the two pairings form one cycle).
 */
#include "halftour_internal.h"

struct kt_halftours {
    kt_allocator al;
    uint32_t width, depth, other;
    bool open;                  /* open tours: keys may hold KTI_HDP_TERM (count_open) */
    bool merged;                /* open: keys merged (kti_hdp_merge_ends) */
    unsigned ncb;               /* boundary cells: width * min(2, depth) */
    size_t n;
    uint64_t *keys;             /* increasing */
    uint64_t *counts;
    kt_halftour_stats stats;
};


static inline unsigned nib(uint64_t k, unsigned i)
{
    return (unsigned)((k >> (4 * i)) & 15u);
}

/* ---- sorting ---- */

/* LSD radix sort of 32-bit values, 16 bits a pass; tmp holds n values. */
static void sort_u32(uint32_t *a, uint32_t *tmp, size_t n, size_t *cnt)
{
    uint32_t *src = a, *dst = tmp;
    for (unsigned pass = 0; pass < 2; pass++) {
        unsigned sh = 16 * pass;
        memset(cnt, 0, 65536 * sizeof *cnt);
        for (size_t i = 0; i < n; i++) cnt[(src[i] >> sh) & 0xFFFF]++;
        size_t sum = 0;
        for (size_t b = 0; b < 65536; b++) {
            size_t c = cnt[b];
            cnt[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) dst[cnt[(src[i] >> sh) & 0xFFFF]++] = src[i];
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
}

/* ---- structures ---- */

/* McKay's type value of a half-tour boundary cell code. */
static inline unsigned type_of_code(unsigned v)
{
    return v == 0 ? 2u : v == 1 ? 0u : 1u;
}

static uint32_t type_key(uint64_t key, unsigned ncb)
{
    uint32_t t = 0;
    for (unsigned i = 0; i < ncb; i++) t |= (uint32_t)type_of_code(nib(key, i)) << (2 * i);
    return t;
}

static void describe(const kt_halftours *h, size_t idx, kt_halftour_structure *s)
{
    uint64_t k = h->keys[idx];
    memset(s, 0, sizeof *s);
    memset(s->partner, KT_HALFTOUR_INTERIOR, sizeof s->partner);
    s->key = k;
    s->count = h->counts[idx];
    for (unsigned i = 0; i < h->ncb; i++) {
        unsigned v = nib(k, i);
        s->type[i] = (uint8_t)type_of_code(v);
        if (v == 0) s->partner[i] = (uint8_t)i;
        else if (v >= 2)
            for (unsigned j = 0; j < h->ncb; j++)
                if (j != i && nib(k, j) == v) s->partner[i] = (uint8_t)j;
    }
}

/* Number of knight moves across the cut from local cell (x, r). */
static unsigned crossing_cap(uint32_t W, uint32_t other, uint32_t x, uint32_t r)
{
    unsigned c = 0;
    int64_t xs = x;
    if (r == 0) {
        c += (xs - 2 >= 0) + (xs + 2 < (int64_t)W);
        if (other >= 2) c += (xs - 1 >= 0) + (xs + 1 < (int64_t)W);
    } else if (r == 1) {
        c += (xs - 1 >= 0) + (xs + 1 < (int64_t)W);
    }
    return c;
}

/* ---- the enumeration problem ---- */

typedef struct cellref {
    int32_t x, r;
} cellref;

static void list_sorted(uint32_t live, uint8_t *n, uint8_t *out)
{
    *n = 0;
    for (unsigned s = 0; s < 32; s++)
        if ((live >> s) & 1u) out[(*n)++] = (uint8_t)s;
}

/* The final roles a cell may take (KTI_FIN_*): in local row 0 or 1 with
 * cap steps across the cut, under tour-end rule `rule` (open mode: 0 not a
 * tour end, 1 may be one, 2 must be one; closed mode: -1). */
static uint8_t fin_roles(bool boundary, unsigned cap, int rule)
{
    unsigned m = KTI_FIN_DEG2;
    if (boundary) m |= (cap >= 1 ? KTI_FIN_DEG1 : 0u) | (cap >= 2 ? KTI_FIN_DEG0 : 0u);
    if (rule == 2) m = 0;
    if (rule >= 1) m |= KTI_FIN_END1 | (boundary && cap >= 1 ? KTI_FIN_END0 : 0u);
    return (uint8_t)m;
}

/* The cells (local r * W + x) in the order the enumeration adds them:
 * farthest row first, each row left to right.  Open halves of depth 3 or
 * less take the two rows at the cut column by column instead, (x, 1) then
 * (x, 0): a cell of row 2 then leaves the state a column or two after its
 * own, not after most of row 0 (the 8x3 open half of 8x5: largest layer
 * 41.7 M -> 27.0 M states, 89 -> 67 s CPU).  Deeper halves do better row
 * by row (6x4: 1.7 M states row by row, 5.4 M so). */
static void cell_order(uint32_t W, uint32_t D, bool open, uint32_t *ord)
{
    size_t s = 0;
    uint32_t top = open && D <= 3 ? (D < 2 ? D : 2u) : 0u;
    for (uint32_t r = D; r-- > top;)
        for (uint32_t x = 0; x < W; x++) ord[s++] = r * W + x;
    for (uint32_t x = 0; x < W && top != 0; x++)
        for (uint32_t r = top; r-- > 0;) ord[s++] = r * W + x;
}

/* Knight moves (dx, dr); row by row the first four reach the earlier
 * cells, in the order weights.c expects. */
static const int knight_moves[8][2] = {{-2, 1},  {2, 1},  {-1, 2},  {1, 2},
                                       {-2, -1}, {2, -1}, {-1, -2}, {1, -2}};

/* The step of cell (x, r) + move k, or SIZE_MAX outside the half. */
static size_t step_of(const uint32_t *pos, uint32_t W, uint32_t D, uint32_t x, uint32_t r,
                      unsigned k)
{
    int64_t nx = (int64_t)x + knight_moves[k][0], nr = (int64_t)r + knight_moves[k][1];
    if (nx < 0 || nx >= W || nr < 0 || nr >= D) return SIZE_MAX;
    return pos[(size_t)nr * W + (size_t)nx];
}

/* The mirror image of local cell q = r W + x: r W + W - 1 - x. */
static inline size_t mirror_cell(size_t q, uint32_t W)
{
    return q - q % W + (W - 1 - q % W);
}

/* The half's tour-end rules (NULL: closed) are the same on each cell and
 * its mirror image: its layers fold (kti_hprob::fold). */
bool kti_halftours_rule_symmetric(const uint8_t *rule, uint32_t W, uint32_t D)
{
    for (size_t q = 0; rule != NULL && q < (size_t)W * D; q++)
        if (rule[q] != rule[mirror_cell(q, W)]) return false;
    return true;
}

/* The steps of the enumeration of a half (W, D, O); rule (open mode, or
 * NULL) gives each local cell r * W + x its tour-end rule (fin_roles). */
kt_status kti_halftour_steps(const kt_allocator *al, uint32_t W, uint32_t D, uint32_t O,
                             const uint8_t *rule, kti_hstep **out, size_t *nsteps, uint8_t *bslot)
{
    size_t n = (size_t)W * D, bytes;
    kti_hstep *st = kti_calloc(al, n, sizeof *st);
    uint32_t *ord = kti_mul_ok(n, 2 * sizeof *ord, &bytes) ? kti_alloc(al, bytes) : NULL;
    size_t *last = kti_alloc(al, n * sizeof *last);
    uint8_t *slot = kti_alloc(al, n);
    if (st == NULL || ord == NULL || last == NULL || slot == NULL) {
        kti_free(al, st);
        kti_free(al, ord);
        kti_free(al, last);
        kti_free(al, slot);
        return KT_ENOMEM;
    }
    uint32_t *pos = ord + n;
    cell_order(W, D, rule != NULL, ord);
    for (size_t s = 0; s < n; s++) pos[ord[s]] = (uint32_t)s;
    /* last[s]: the step after which step s's cell has all its neighbours;
     * no cell waits more than `window` steps. */
    size_t window = 0;
    for (size_t s = 0; s < n; s++) {
        size_t l = s;
        for (unsigned k = 0; k < 8; k++) {
            size_t o = step_of(pos, W, D, ord[s] % W, ord[s] / W, k);
            if (o != SIZE_MAX && o > l) l = o;
        }
        last[s] = l;
        if (l - s > window) window = l - s;
    }
    uint32_t live = 0;
    size_t cell_at[KTI_HDP_SLOTS];  /* the step whose cell holds each live slot */
    size_t unmatched = 0;           /* cells added whose mirror image is not yet */
    kt_status rc = KT_OK;
    for (size_t s = 0; s < n; s++) {
        uint32_t r = ord[s] / W, x = ord[s] % W;
        kti_hstep *p = &st[s];
        list_sorted(live, &p->nin, p->in);
        if (live == UINT32_MAX) {
            rc = KT_EUNSUPPORTED;
            break;
        }
        unsigned c = 0;
        while ((live >> c) & 1u) c++;
        slot[s] = (uint8_t)c;
        p->slot = (uint8_t)c;
        live |= 1u << c;
        cell_at[c] = s;
        if (x != W - 1 - x) {
            if (pos[r * W + (W - 1 - x)] < s) unmatched--;
            else unmatched++;
        }
        for (unsigned k = 0; k < 8; k++) {
            size_t o = step_of(pos, W, D, x, r, k);
            if (o < s) p->nb[p->nnb++] = slot[o];
        }
        /* Cells whose last neighbour is this one (this one included). */
        for (size_t q = s >= window ? s - window : 0; q <= s; q++) {
            if (last[q] != s) continue;
            uint32_t qr = ord[q] / W, qx = ord[q] % W;
            uint8_t i = p->nfin++;
            p->fin[i] = slot[q];
            int qrule = rule ? rule[(size_t)qr * W + qx] : -1;
            if (qr <= 1) {
                p->finmask[i] = fin_roles(true, crossing_cap(W, O, qx, qr), qrule);
                p->finclear[i] = 0;
                bslot[qr * W + qx] = slot[q];
            } else {
                p->finmask[i] = fin_roles(false, 0, qrule);
                p->finclear[i] = 1;
                live &= ~(1u << slot[q]);
            }
        }
        list_sorted(live, &p->nout, p->out);
        for (unsigned i = 0; i < p->nout; i++) p->live[p->out[i]] = 0xFF;
        p->fold = unmatched == 0;
        for (unsigned i = 0; p->fold && i < p->nout; i++) {
            uint32_t q = ord[cell_at[p->out[i]]];
            p->mirror[p->out[i]] = slot[pos[mirror_cell(q, W)]];
        }
    }
    kti_free(al, ord);
    kti_free(al, last);
    kti_free(al, slot);
    if (rc != KT_OK) {
        kti_free(al, st);
        return rc;
    }
    *out = st;
    *nsteps = n;
    return KT_OK;
}

static void compute_stats(kt_halftours *h, uint32_t *types, uint32_t *tmp, size_t *cnt)
{
    kt_halftour_stats *s = &h->stats;
    memset(s, 0, sizeof *s);
    s->structures = h->n;
    if (h->n == 0) return;
    s->min_count = UINT64_MAX;
    for (size_t i = 0; i < h->n; i++) {
        uint64_t c = h->counts[i];
        s->halftours = s->halftours + c < s->halftours ? UINT64_MAX : s->halftours + c;
        if (c < s->min_count) s->min_count = c;
        if (c > s->max_count) s->max_count = c;
    }
    if (types == NULL) return;
    uint32_t W = h->width;
    uint32_t amask = W >= 16 ? UINT32_MAX : (uint32_t)((1u << (2 * W)) - 1u);
    for (int pass = 0; pass < 3; pass++) {
        for (size_t i = 0; i < h->n; i++) {
            uint32_t t = type_key(h->keys[i], h->ncb);
            types[i] = pass == 0 ? t : pass == 1 ? (t & amask) : (t >> (2 * W));
        }
        sort_u32(types, tmp, h->n, cnt);
        uint64_t distinct = 0, run = 0, maxrun = 0;
        for (size_t i = 0; i < h->n; i++) {
            if (i == 0 || types[i] != types[i - 1]) {
                distinct++;
                run = 0;
            }
            if (++run > maxrun) maxrun = run;
        }
        if (pass == 0) {
            s->types = distinct;
            s->max_per_type = maxrun;
        } else if (pass == 1) {
            s->a_values = distinct;
        } else {
            s->b_values = h->depth >= 2 ? distinct : 0;
        }
    }
}

/* The key of boundary codes code[0..n): labels renumbered in cell order
 * (kti_pack_codes), keeping the open mode's TERM; merge: two TERMs moved
 * to the first path in cell order (kti_hdp_merge_ends; code[] changes). */
static uint64_t pack_boundary(uint8_t *code, unsigned n, bool open, bool merge)
{
    if (!open) return kti_pack_codes(code, n);
    return kti_hdp_pack_open(code, n, merge);
}

/* The set's figures (compute_stats), with the room they need. */
static kt_status set_stats(kt_halftours *h)
{
    const kt_allocator *al = &h->al;
    size_t n = h->n ? h->n : 1;
    uint32_t *types = h->open ? NULL : kti_alloc(al, n * 2 * sizeof *types);
    size_t *cnt = h->open ? NULL : kti_alloc(al, 65536 * sizeof *cnt);
    kt_status rc = KT_OK;
    if (!h->open && (types == NULL || cnt == NULL)) rc = KT_ENOMEM;
    /* McKay's type figures describe closed half-tours only. */
    else compute_stats(h, types, types ? types + n : NULL, cnt);
    kti_free(al, types);
    kti_free(al, cnt);
    return rc;
}

/* The key of the mirror image of the structure of key k (cell order). */
static uint64_t image_key(uint64_t k, uint32_t W, unsigned ncb, bool open, bool merge)
{
    uint8_t img[KTI_HDP_SLOTS];   /* kti_hdp_merge_ends' bound */
    for (unsigned c = 0; c < ncb; c++) img[c] = (uint8_t)((k >> (4 * mirror_cell(c, W))) & 15u);
    return pack_boundary(img, ncb, open, merge);
}


/* make_set's re-keying of fin into h's arrays, share by share. */
typedef struct rekey {
    const kti_hent *fin;
    kt_halftours *h;
    const uint8_t *bslot;
    bool folded;
} rekey;

static void rekey_share(void *ctx, unsigned share, size_t lo, size_t hi)
{
    (void)share;
    const rekey *r = ctx;
    kt_halftours *h = r->h;
    for (size_t i = lo; i < hi; i++) {
        uint8_t code[KTI_HDP_SLOTS];   /* kti_hdp_merge_ends' bound */
        for (unsigned c = 0; c < h->ncb; c++)
            code[c] = (uint8_t)kti_hdp_nib(r->fin[i].lo, r->fin[i].hi, r->bslot[c]);
        uint64_t key = pack_boundary(code, h->ncb, h->open, h->merged);
        if (r->folded) {
            uint64_t ikey = image_key(key, h->width, h->ncb, h->open, h->merged);
            if (ikey < key) key = ikey;
        }
        h->keys[i] = key;
        h->counts[i] = r->fin[i].cnt;
    }
}

/* A new set of geometry (W, D, O) holding the final states of the
 * enumeration, re-keyed by boundary cell and sorted; fin is consumed.
 * folded: the last layer was folded (kti_hprob::fold), and the set stays
 * so, each structure under the lesser key of it and its mirror image, for
 * the caller to unfold (unfold_set) once every part is summed: a shard's
 * structure and its image may fall in different shards. */
static kt_status make_set(kt_halftours **out, const kt_allocator *al, uint32_t W, uint32_t D,
                          uint32_t O, bool open, bool merge, bool folded, const uint8_t *bslot,
                          kti_hent *fin, size_t nfin, unsigned threads)
{
    kt_halftours *h = kti_calloc(al, 1, sizeof *h);
    if (h == NULL) {
        kti_free(al, fin);
        return KT_ENOMEM;
    }
    h->al = *al;
    h->width = W;
    h->depth = D;
    h->other = O;
    h->ncb = W * (D >= 2 ? 2u : 1u);
    h->open = open;
    h->merged = open && merge;
    h->keys = kti_alloc(al, (nfin ? nfin : 1) * sizeof *h->keys);
    h->counts = kti_alloc(al, (nfin ? nfin : 1) * sizeof *h->counts);
    if (h->keys == NULL || h->counts == NULL) goto nomem;
    /* Re-key by boundary cell, into the set's own arrays: fin goes before
     * the sort needs its room. */
    rekey rk = {fin, h, bslot, folded};
    kti_parallel_range(kti_range_threads(threads, nfin), nfin, rekey_share, &rk);
    kti_free(al, fin);
    fin = NULL;
    h->n = nfin;
    if (!kti_hdp_sort(al, h->keys, h->counts, nfin, threads)) goto nomem;
    if (merge || folded) {
        /* The engine's canonical path is the first in slot order, the
         * key's the first in cell order: equal keys can remain. */
        size_t m = 0;
        for (size_t i = 0; i < nfin; i++) {
            if (m > 0 && h->keys[m - 1] == h->keys[i]) {
                if (__builtin_add_overflow(h->counts[m - 1], h->counts[i], &h->counts[m - 1])) {
                    kt_halftours_free(h);
                    return KT_EOVERFLOW;
                }
                continue;
            }
            h->keys[m] = h->keys[i];
            h->counts[m++] = h->counts[i];
        }
        h->n = nfin = m;
    }
    /* A folded set's figures wait for its unfolding. */
    if (!folded && set_stats(h) != KT_OK) goto nomem;
    *out = h;
    return KT_OK;
nomem:
    kti_free(al, fin);
    kt_halftours_free(h);
    return KT_ENOMEM;
}

/* unfold_set's pass, share by share: share i writes its range's keys
 * from 2 * lo on (each gives one or two), then they close up. */
typedef struct unfold {
    const kt_halftours *h;
    uint64_t *keys, *counts;
    size_t out[KT_THREADS_MAX];
} unfold;

static void unfold_share(void *ctx, unsigned share, size_t lo, size_t hi)
{
    unfold *u = ctx;
    const kt_halftours *h = u->h;
    size_t n = 2 * lo;
    for (size_t i = lo; i < hi; i++) {
        uint64_t k = h->keys[i], c = h->counts[i], ik = image_key(k, h->width, h->ncb, h->open, h->merged);
        u->keys[n] = k;
        if (ik == k) {
            u->counts[n++] = c;
            continue;
        }
        KTI_ASSERT(c % 2 == 0 && ik > k);
        u->counts[n++] = c / 2;
        u->keys[n] = ik;
        u->counts[n++] = c / 2;
    }
    u->out[share] = n - 2 * lo;
}

/* Set h, folded (make_set's, shards summed), unfolded: each key
 * K gives itself and its image with half its count when they differ (the
 * images are never kept keys: a kept key is the lesser of its pair). */
static kt_status unfold_set(kt_halftours *h, unsigned threads)
{
    const kt_allocator *al = &h->al;
    size_t bytes;
    if (!kti_mul_ok(h->n, 2 * sizeof *h->keys, &bytes)) return KT_ENOMEM;
    unfold *u = kti_alloc(al, sizeof *u);
    uint64_t *keys = kti_alloc(al, bytes ? bytes : 8), *counts = kti_alloc(al, bytes ? bytes : 8);
    if (u == NULL || keys == NULL || counts == NULL) {
        kti_free(al, u);
        kti_free(al, keys);
        kti_free(al, counts);
        return KT_ENOMEM;
    }
    *u = (unfold){.h = h, .keys = keys, .counts = counts};
    unsigned T = kti_range_threads(threads, h->n);
    kti_parallel_range(T, h->n, unfold_share, u);
    size_t n = u->out[0];
    for (unsigned i = 1; i < T; i++) {
        size_t from = 2 * kti_range_first(T, h->n, i);
        memmove(keys + n, keys + from, u->out[i] * sizeof *keys);
        memmove(counts + n, counts + from, u->out[i] * sizeof *counts);
        n += u->out[i];
    }
    kti_free(al, u);
    kti_free(al, h->keys);
    kti_free(al, h->counts);
    h->keys = keys;
    h->counts = counts;
    h->n = n;
    if (!kti_hdp_sort(al, keys, counts, n, threads)) return KT_ENOMEM;
    return set_stats(h);
}

/* Shards of a large open half by type digits (enumerate_open, below). */
typedef struct digit_shard digit_shard;
static bool digit_filter(const void *ctx, size_t step, const uint8_t *codes);

/* Where a run of the half's programme starts and stops: from the layer
 * init[0..ninit) after step first - 1 (consumed; NULL: the empty start)
 * up to step stop - 1 (0: the last step). */
typedef struct span {
    kti_hent *init;
    size_t ninit, first, stop;
} span;

static kt_status run_half(uint32_t W, uint32_t D, uint32_t O, const uint8_t *rule, bool merge,
                          const digit_shard *ds, span sp, const kti_run *run, kti_hprogress *prog,
                          kti_hent **fin, size_t *nfin, uint8_t *bslot);

/* The path structures of a half (W, D, O); rule: NULL for closed tours,
 * else the open mode's tour-end rule of each local cell (kti_halftour_steps);
 * merge: two tour ends on a canonical path (kti_hdp_merge_ends). */
static kt_status enumerate(kt_halftours **out, uint32_t W, uint32_t D, uint32_t O,
                           const uint8_t *rule, bool merge, const kti_run *run,
                           kti_hprogress *prog)
{
    kti_hent *fin = NULL;
    size_t nfin = 0;
    uint8_t bslot[KT_HALFTOUR_MAX_CELLS];
    span sp = {NULL, 0, 0, 0};
    KTI_TRY(run_half(W, D, O, rule, merge, NULL, sp, run, prog, &fin, &nfin, bslot));
    bool fold = kti_halftours_rule_symmetric(rule, W, D);
    KTI_TRY(make_set(out, run->alloc, W, D, O, rule != NULL, merge && rule != NULL, fold, bslot, fin,
                     nfin, run->threads));
    kt_status rc = fold ? unfold_set(*out, run->threads) : KT_OK;
    if (rc != KT_OK) {
        kt_halftours_free(*out);
        *out = NULL;
    }
    return rc;
}

/* The states of a half (W, D, O) that pass ds (or all) over the span sp:
 * the layer after its last step into *fin (*nfin states), the slots of the
 * half's bottom cells into bslot. */
static kt_status run_half(uint32_t W, uint32_t D, uint32_t O, const uint8_t *rule, bool merge,
                          const digit_shard *ds, span sp, const kti_run *run, kti_hprogress *prog,
                          kti_hent **fin, size_t *nfin, uint8_t *bslot)
{
    const kt_allocator *al = run->alloc;
    kti_hstep *steps = NULL;
    size_t nsteps = 0;
    kt_status rc = kti_halftour_steps(al, W, D, O, rule, &steps, &nsteps, bslot);
    if (rc != KT_OK) {
        kti_free(al, sp.init);
        return rc;
    }
    kti_hprob prob = {.nsteps = sp.stop ? sp.stop : nsteps,
                      .steps = steps,
                      .allow_close = false,
                      .open = rule != NULL,
                      .merge_ends = merge && rule != NULL,
                      .fold = kti_halftours_rule_symmetric(rule, W, D),
                      .filter = ds != NULL ? digit_filter : NULL,
                      .filter_ctx = ds,
                      .first = sp.first};
    if (sp.init == NULL && (sp.init = kti_alloc(al, sizeof *sp.init)) != NULL) {
        sp.init->lo = 0;
        sp.init->hi = 0;
        sp.init->cnt = 1;
        sp.ninit = 1;
    }
    uint64_t closed = 0;
    rc = sp.init != NULL ? kti_hdp_run(&prob, run, sp.init, sp.ninit, prog, fin, nfin, &closed) : KT_ENOMEM;
    kti_free(al, steps);
    return rc;
}

/* Progress over `total` steps, or NULL when the run has no callback. */
static kti_hprogress *progress_start(kti_hprogress *prog, const kti_run *run, uint64_t total)
{
    if (run->progress == NULL) return NULL;
    kti_progress_init(&prog->p, run->progress, run->progress_user);
    prog->done = 0;
    prog->total = total;
    return prog;
}

/* The geometry checks every enumeration makes. */
static kt_status check_geometry(uint32_t width, uint32_t rows)
{
    if (width > KT_HALFTOUR_MAX_WIDTH) return KT_EUNSUPPORTED;
    if ((uint64_t)width * rows > 1u << 20) return KT_ETOOBIG;
    return KT_OK;
}

kt_status kt_halftours_enumerate(kt_halftours **out, uint32_t width, uint32_t depth,
                                 uint32_t other_depth, const kt_options *run)
{
    if (out == NULL) return KT_EINVAL;
    *out = NULL;
    if (width == 0 || depth == 0 || other_depth == 0) return KT_EINVAL;
    kti_run r;
    kti_run_resolve(&r, run);
    /* One half's structures cannot be split into parts that sum. */
    if (r.nshards > 1) return KT_EINVAL;
    KTI_TRY(check_geometry(width, depth));
    kti_hprogress prog;
    kti_hprogress *pp = progress_start(&prog, &r, (uint64_t)width * depth);
    return enumerate(out, width, depth, other_depth, NULL, false, &r, pp);
}

void kt_halftours_free(kt_halftours *h)
{
    if (h == NULL) return;
    kt_allocator al = h->al;
    kti_free(&al, h->keys);
    kti_free(&al, h->counts);
    kti_free(&al, h);
}

void kt_halftours_geometry(const kt_halftours *h, uint32_t *width, uint32_t *depth,
                           uint32_t *other_depth)
{
    if (width) *width = h ? h->width : 0;
    if (depth) *depth = h ? h->depth : 0;
    if (other_depth) *other_depth = h ? h->other : 0;
}

size_t kt_halftours_count(const kt_halftours *h)
{
    return h ? h->n : 0;
}

kt_status kt_halftours_stats(const kt_halftours *h, kt_halftour_stats *st)
{
    if (h == NULL || st == NULL) return KT_EINVAL;
    *st = h->stats;
    return KT_OK;
}

kt_status kt_halftours_at(const kt_halftours *h, size_t index, kt_halftour_structure *out)
{
    if (h == NULL || out == NULL || index >= h->n) return KT_EINVAL;
    describe(h, index, out);
    return KT_OK;
}

kt_status kt_halftours_find(const kt_halftours *h, const uint8_t *partner, size_t *index,
                            uint64_t *count)
{
    if (h == NULL || partner == NULL) return KT_EINVAL;
    uint8_t code[KT_HALFTOUR_MAX_CELLS];
    unsigned label = 2;
    for (unsigned i = 0; i < h->ncb; i++) code[i] = 0xFF;
    for (unsigned i = 0; i < h->ncb; i++) {
        unsigned p = partner[i];
        if (p == KT_HALFTOUR_INTERIOR) {
            code[i] = 1;
        } else if (p == i) {
            code[i] = 0;
        } else {
            if (p >= h->ncb || partner[p] != i) return KT_EINVAL;
            if (p > i) {
                code[i] = (uint8_t)label;
                code[p] = (uint8_t)label;
                label++;
            }
        }
    }
    uint64_t key = kti_pack_codes(code, h->ncb);
    size_t lo = 0, hi = h->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (h->keys[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    if (lo < h->n && h->keys[lo] == key) {
        if (index) *index = lo;
        if (count) *count = h->counts[lo];
        return KT_OK;
    }
    if (count) *count = 0;
    return KT_ENOTFOUND;
}

kt_status kt_halftours_foreach(const kt_halftours *h,
                               int (*fn)(void *user, const kt_halftour_structure *s), void *user)
{
    if (h == NULL || fn == NULL) return KT_EINVAL;
    kt_halftour_structure s;
    for (size_t i = 0; i < h->n; i++) {
        describe(h, i, &s);
        if (fn(user, &s) != 0) return KT_ECANCELED;
    }
    return KT_OK;
}

/* ---- compatibility ---- */

/* Place the demand of b[x..] on a[] (remaining capacities). */
static bool compat_rec(uint32_t W, uint8_t *cap, const uint8_t *b, uint32_t x)
{
    if (x == W) return true;
    unsigned need = b[x];
    int64_t l = (int64_t)x - 1, r = (int64_t)x + 1;
    bool hl = l >= 0 && cap[l] > 0, hr = r < (int64_t)W && cap[r] > 0;
    if (need == 0) return compat_rec(W, cap, b, x + 1);
    if (need >= 2) {
        if (!hl || !hr) return false;
        cap[l]--;
        cap[r]--;
        bool ok = compat_rec(W, cap, b, x + 1);
        cap[l]++;
        cap[r]++;
        return ok;
    }
    /* Prefer the left: it is not needed by later columns. */
    if (hl) {
        cap[l]--;
        bool ok = compat_rec(W, cap, b, x + 1);
        cap[l]++;
        if (ok) return true;
    }
    if (hr) {
        cap[r]--;
        bool ok = compat_rec(W, cap, b, x + 1);
        cap[r]++;
        if (ok) return true;
    }
    return false;
}

kt_status kt_halftours_types_compatible(uint32_t width, const uint8_t *a_lower,
                                        const uint8_t *b_upper, int *compatible)
{
    if (compatible == NULL || width == 0 || width > KT_HALFTOUR_MAX_WIDTH || a_lower == NULL ||
        b_upper == NULL)
        return KT_EINVAL;
    uint8_t cap[KT_HALFTOUR_MAX_WIDTH];
    for (uint32_t x = 0; x < width; x++) {
        if (a_lower[x] > 2 || b_upper[x] > 2) return KT_EINVAL;
        cap[x] = a_lower[x];
    }
    *compatible = compat_rec(width, cap, b_upper, 0) ? 1 : 0;
    return KT_OK;
}

/* ---- the join (join.c) ---- */

static kti_half_view view_of(const kt_halftours *h)
{
    kti_half_view v = {.width = h->width, .depth = h->depth, .other = h->other, .open = h->open,
                       .merged = h->merged, .ncb = h->ncb, .n = h->n, .keys = h->keys, .counts = h->counts, .wt = NULL};
    return v;
}

kti_half_view kti_halftours_view(const kt_halftours *h)
{
    return view_of(h);
}

kt_status kti_halftours_make(kt_halftours **out, uint32_t width, uint32_t depth, uint32_t other,
                             const kti_run *run, kti_hprogress *prog)
{
    KTI_TRY(check_geometry(width, depth));
    return enumerate(out, width, depth, other, NULL, false, run, prog);
}

static kt_status join(const kt_halftours *lower, const kt_halftours *upper, bool sym,
                      const kti_run *run, kti_hprogress *prog, kti_u128 *result)
{
    kti_half_view vl = view_of(lower), vu = view_of(upper);
    return kti_halftours_join(&vl, &vu, sym, run, prog, result);
}

static kt_status check_pair(const kt_halftours *lower, const kt_halftours *upper)
{
    if (lower->width != upper->width || lower->depth != upper->other ||
        upper->depth != lower->other)
        return KT_EMISMATCH;
    return KT_OK;
}

kt_status kt_halftours_join(const kt_halftours *lower, const kt_halftours *upper,
                            const kt_options *run, kt_u128 *count)
{
    if (lower == NULL || upper == NULL || count == NULL) return KT_EINVAL;
    KTI_TRY(check_pair(lower, upper));
    kti_run r;
    kti_run_resolve(&r, run);
    kti_hprogress prog;
    kti_hprogress *pp = progress_start(&prog, &r, KTI_HALFTOUR_JOIN_UNITS);
    kti_u128 n = 0;
    KTI_TRY(join(lower, upper, true, &r, pp, &n));
    *count = kti_u128_to(n);
    return KT_OK;
}

/* The weights of h's structures (see weights.c). */
static kt_status weigh(const kt_halftours *h, const kti_run *run, kti_half_weights *wt)
{
    kti_hstep *steps = NULL;
    size_t nsteps = 0;
    uint8_t bslot[KT_HALFTOUR_MAX_CELLS];
    KTI_TRY(kti_halftour_steps(run->alloc, h->width, h->depth, h->other, NULL, &steps, &nsteps, bslot));
    kt_status rc =
        kti_half_weights_compute(steps, nsteps, bslot, h->width, h->depth, h->keys, h->n, run, wt);
    kti_free(run->alloc, steps);
    return rc;
}

/* Both halves of the board, weighed when turns is not NULL, joined. */
static kt_status count_closed(uint32_t width, uint32_t height, uint32_t split,
                              const kt_options *run, kti_u128 *count, kti_u128 *turns)
{
    if (width == 0 || height < 2 || split == 0 || split >= height) return KT_EINVAL;
    KTI_TRY(check_geometry(width, height));
    /* As for open tours (kt_halftours_count_open): the join walks the lower
     * structures but meets the upper ones only through their type's table
     * of pairings, so the deeper half goes above (8x7 cut 4 above 3: 23.7 s
     * of join CPU, against 79.5 s cut 3 above 4; 6x9: 0.44 s against
     * 0.82 s).  The up-down flip maps closed tours to closed tours and turn
     * classes to turn classes. */
    if (height - split > split) split = height - split;
    kti_run r;
    kti_run_resolve(&r, run);
    uint32_t DU = split, DL = height - split;
    kti_hprogress prog;
    kti_hprogress *pp = progress_start(
        &prog, &r,
        (uint64_t)width * DL + (DL == DU ? 0 : (uint64_t)width * DU) + KTI_HALFTOUR_JOIN_UNITS);
    kt_halftours *lower = NULL, *upper = NULL;
    kti_half_weights wl, wu;
    memset(&wl, 0, sizeof wl);
    memset(&wu, 0, sizeof wu);
    kt_status rc = enumerate(&lower, width, DL, DU, NULL, false, &r, pp);
    if (rc == KT_OK && DL != DU) rc = enumerate(&upper, width, DU, DL, NULL, false, &r, pp);
    if (rc == KT_OK && turns != NULL) rc = weigh(lower, &r, &wl);
    if (rc == KT_OK && turns != NULL && upper != NULL) rc = weigh(upper, &r, &wu);
    if (rc == KT_OK && turns == NULL) rc = join(lower, upper ? upper : lower, true, &r, pp, count);
    if (rc == KT_OK && turns != NULL) {
        kti_half_view vl = view_of(lower), vu = view_of(upper ? upper : lower);
        vl.wt = &wl;
        vu.wt = upper ? &wu : &wl;
        rc = kti_halftours_join_turns(&vl, &vu, &r, pp, count, turns);
    }
    kti_half_weights_free(r.alloc, &wl);
    kti_half_weights_free(r.alloc, &wu);
    kt_halftours_free(lower);
    kt_halftours_free(upper);
    return rc;
}

kt_status kt_halftours_count_closed(uint32_t width, uint32_t height, uint32_t split,
                                    const kt_options *run, kt_u128 *count)
{
    if (count == NULL) return KT_EINVAL;
    kti_u128 n = 0;
    KTI_TRY(count_closed(width, height, split, run, &n, NULL));
    *count = kti_u128_to(n);
    return KT_OK;
}

/* ---- the weighted join: turn classes over all closed tours ---- */

kt_status kti_halftours_turn_classes(uint32_t width, uint32_t height, uint32_t split,
                                     const kt_options *run, kti_u128 *count,
                                     kti_u128 turns[KTI_TURN_CLASSES])
{
    if (count == NULL || turns == NULL) return KT_EINVAL;
    return count_closed(width, height, split, run, count, turns);
}

/* ---- open tours ---- */

/* The tour-end rule of every cell of one half (enumerate): the given ends
 * must be tour ends, and the other cells may be one unless both are given.
 * On a board of odd area the knight's colour classes differ by one cell,
 * so a Hamiltonian path has both ends on the larger class (x + y even):
 * the other cells are never tour ends.  Their half-tours could join no
 * tour, and they are most of an open half's states (7x7: ends in either
 * half on 24 of 49 cells).  The half's local row r is board row
 * first + dir * r. */
static void open_rules(uint8_t *rule, uint32_t W, uint32_t D, uint32_t H, uint32_t first, int dir,
                       const kt_cell *given, unsigned ngiven)
{
    bool odd = (W & H & 1u) != 0;
    for (uint32_t r = 0; r < D; r++)
        for (uint32_t x = 0; x < W; x++) {
            uint64_t row = (uint64_t)((int64_t)first + dir * (int64_t)r);
            uint64_t cell = row * W + x;
            uint8_t v = ngiven < 2 && !(odd && ((row + x) & 1u)) ? 1 : 0;
            for (unsigned i = 0; i < ngiven; i++)
                if (given[i] == cell) v = 2;
            rule[(size_t)r * W + x] = v;
        }
}

void kti_halftours_open_rules(uint8_t *rule, uint32_t W, uint32_t D, uint32_t H, uint32_t first,
                              int dir, const kt_cell *given, unsigned ngiven)
{
    open_rules(rule, W, D, H, first, dir, given, ngiven);
}

kt_status kti_halftours_make_open(kt_halftours **out, uint32_t width, uint32_t depth,
                                  uint32_t other, const uint8_t *rule, const kti_run *run,
                                  kti_hprogress *prog)
{
    KTI_TRY(check_geometry(width, depth));
    return enumerate(out, width, depth, other, rule, false, run, prog);
}

/* ---- large open halves in shards by type digits ---- */

/* Open halves of at least this many cells (and 4 rows or more) are
 * enumerated in shards: the 8x4 half of 8x8 holds 254 M states after 28
 * of its 32 cells in one pass, 19 GB, and passes 20 GiB in the next. */
#define OPEN_SHARDS_FROM KTI_OPEN_SHARDS_FROM
/* The cells of row 0 whose digits split the shards: 3^2 shards. */
#define SHARD_CELLS 2u

/* A cell of row 0 (at the cut) is added after every neighbour it has in
 * its half (rows 1 and 2, added row by row before it), so its degree, and
 * with it its digit of the type (crossing steps: 2 for code 0, 0 for code
 * 1, 1 for a path end), is final at its own step and never changes after.
 * A shard keeps the states whose first SHARD_CELLS cells of row 0 have the
 * shard's digits, dropping the others at those cells' steps: the shards'
 * structures are the half's, split by type, and each shard's layers past
 * row 0's first cells hold only its own states. */
struct digit_shard {
    unsigned n;
    size_t step[SHARD_CELLS];
    uint8_t slot[SHARD_CELLS];
    uint8_t want[SHARD_CELLS];
};

static unsigned code_class(unsigned v)
{
    return v == 0 ? 0u : v == 1 ? 1u : 2u;
}

static bool digit_filter(const void *ctx, size_t step, const uint8_t *codes)
{
    const digit_shard *ds = ctx;
    for (unsigned i = 0; i < ds->n; i++)
        if (ds->step[i] == step && code_class(codes[ds->slot[i]]) != ds->want[i]) return false;
    return true;
}

/* merge_sorted's shares: share i merges the keys of a key range of both
 * lists, from (ia[i], ib[i]) up to (ia[i + 1], ib[i + 1]), into the output
 * from ia[i] + ib[i] on (equal keys fall in one share: the bounds are
 * where both lists reach a key); then they close up. */
typedef struct merge_job {
    const uint64_t *xk, *xc, *bk, *bc;
    uint64_t *nk, *nc;
    size_t ia[KT_THREADS_MAX + 1], ib[KT_THREADS_MAX + 1], out[KT_THREADS_MAX];
    bool ovf[KT_THREADS_MAX];
} merge_job;

static size_t lower_bound(const uint64_t *a, size_t n, uint64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void merge_share(void *ctx, unsigned share, size_t lo, size_t hi)
{
    (void)lo;
    (void)hi;
    merge_job *m = ctx;
    size_t i = m->ia[share], n = m->ia[share + 1], j = m->ib[share], nb = m->ib[share + 1];
    size_t k = i + j, k0 = k;
    const uint64_t *xk = m->xk, *xc = m->xc, *bk = m->bk, *bc = m->bc;
    while (i < n || j < nb) {
        uint64_t key, c;
        if (j == nb || (i < n && xk[i] < bk[j])) {
            key = xk[i];
            c = xc[i++];
        } else if (i == n || bk[j] < xk[i]) {
            key = bk[j];
            c = bc[j++];
        } else {
            key = xk[i];
            c = xc[i++];
            if (__builtin_add_overflow(c, bc[j++], &c)) m->ovf[share] = true;
        }
        m->nk[k] = key;
        m->nc[k++] = c;
    }
    m->out[share] = k - k0;
}

/* Merge the sorted structures (bk, bc)[0..nb) into the sorted *ak, *ac
 * (na of them), summing the counts of equal keys, with up to `threads`
 * threads; the old arrays are freed.  On failure *ak, *ac are as they
 * were. */
static kt_status merge_sorted(const kt_allocator *al, uint64_t **ak, uint64_t **ac, size_t *na,
                              const uint64_t *bk, const uint64_t *bc, size_t nb, unsigned threads)
{
    size_t n = *na, m = n + nb;
    uint64_t *nk = kti_alloc(al, (m ? m : 1) * sizeof *nk);
    uint64_t *nc = kti_alloc(al, (m ? m : 1) * sizeof *nc);
    merge_job *job = kti_alloc(al, sizeof *job);
    if (nk == NULL || nc == NULL || job == NULL) {
        kti_free(al, nk);
        kti_free(al, nc);
        kti_free(al, job);
        return KT_ENOMEM;
    }
    *job = (merge_job){.xk = *ak, .xc = *ac, .bk = bk, .bc = bc, .nk = nk, .nc = nc};
    /* Cut at keys of the longer list, spaced evenly through it. */
    unsigned T = kti_range_threads(threads, m);
    const uint64_t *cut = n >= nb ? *ak : bk;
    size_t ncut = n >= nb ? n : nb;
    job->ia[T] = n;
    job->ib[T] = nb;
    for (unsigned i = 1; i < T; i++) {
        uint64_t key = cut[kti_range_first(T, ncut, i)];
        job->ia[i] = lower_bound(*ak, n, key);
        job->ib[i] = lower_bound(bk, nb, key);
    }
    kti_parallel_range(T, T, merge_share, job);
    size_t k = 0;
    bool ovf = false;
    for (unsigned i = 0; i < T; i++) {
        size_t from = job->ia[i] + job->ib[i];
        memmove(nk + k, nk + from, job->out[i] * sizeof *nk);
        memmove(nc + k, nc + from, job->out[i] * sizeof *nc);
        k += job->out[i];
        ovf |= job->ovf[i];
    }
    kti_free(al, job);
    if (ovf) {
        kti_free(al, nk);
        kti_free(al, nc);
        return KT_EOVERFLOW;
    }
    kti_free(al, *ak);
    kti_free(al, *ac);
    *ak = nk;
    *ac = nc;
    *na = k;
    return KT_OK;
}

/* The steps of the programme enumerate_open runs (the shards share the
 * steps before the first of their cells), for the progress total. */
static uint64_t open_steps(uint32_t W, uint32_t D, size_t nsh)
{
    return nsh ? (uint64_t)(D - 1) * W + (uint64_t)W * nsh : (uint64_t)W * D;
}

/* The shards enumerate_open makes: 0 for one pass. */
static size_t open_shards(uint32_t W, uint32_t D, uint32_t from)
{
    if (D < 4 || (uint64_t)W * D < from || W < SHARD_CELLS) return 0;
    size_t n = 1;
    for (unsigned i = 0; i < SHARD_CELLS; i++) n *= 3;
    return n;
}

/* One open half, in shards by type digits when open_shards() says so. */
static kt_status enumerate_open(kt_halftours **out, uint32_t W, uint32_t D, uint32_t O,
                                const uint8_t *rule, uint32_t from, const kti_run *run,
                                kti_hprogress *prog)
{
    size_t nsh = open_shards(W, D, from);
    if (nsh == 0) return enumerate(out, W, D, O, rule, true, run, prog);
    const kt_allocator *al = run->alloc;
    /* The steps of row 0's first cells (rows farthest first, 4 or more of
     * them: row by row, as kti_halftour_steps orders them) and their slots. */
    kti_hstep *steps = NULL;
    size_t nsteps = 0;
    uint8_t bslot[KT_HALFTOUR_MAX_CELLS];
    KTI_TRY(kti_halftour_steps(al, W, D, O, rule, &steps, &nsteps, bslot));
    digit_shard ds;
    ds.n = SHARD_CELLS;
    for (unsigned i = 0; i < SHARD_CELLS; i++) {
        ds.step[i] = (size_t)(D - 1) * W + i;
        ds.slot[i] = steps[ds.step[i]].slot;
    }
    kti_free(al, steps);
    /* The steps before row 0's first cell are every shard's: run them
     * once, and start each shard from a copy of that layer (8x4: 24 of
     * 32 steps, 21 M states, about 25 s that 9 shards repeated). */
    size_t first = ds.step[0], npre = 0;
    kti_hent *pre = NULL;
    span sp = {NULL, 0, 0, first};
    KTI_TRY(run_half(W, D, O, rule, true, NULL, sp, run, prog, &pre, &npre, bslot));
    kt_halftours *set = kti_calloc(al, 1, sizeof *set);
    if (set == NULL) {
        kti_free(al, pre);
        return KT_ENOMEM;
    }
    set->al = *al;
    set->width = W;
    set->depth = D;
    set->other = O;
    set->ncb = W * 2u;
    set->open = true;
    set->merged = true;
    bool fold = kti_halftours_rule_symmetric(rule, W, D);
    kt_status rc = KT_OK;
    for (size_t j = 0; rc == KT_OK && j < nsh; j++) {
        for (unsigned i = 0, v = (unsigned)j; i < SHARD_CELLS; i++, v /= 3) ds.want[i] = (uint8_t)(v % 3);
        kti_hent *init = kti_alloc(al, (npre ? npre : 1) * sizeof *init), *fin = NULL;
        size_t nfin = 0;
        if (init == NULL) {
            rc = KT_ENOMEM;
            break;
        }
        if (npre) memcpy(init, pre, npre * sizeof *init);
        span part = {init, npre, first, 0};
        kt_halftours *h = NULL;
        rc = run_half(W, D, O, rule, true, &ds, part, run, prog, &fin, &nfin, bslot);
        if (rc == KT_OK)
            rc = make_set(&h, al, W, D, O, true, true, fold, bslot, fin, nfin, run->threads);
        if (rc == KT_OK)
            rc = merge_sorted(al, &set->keys, &set->counts, &set->n, h->keys, h->counts, h->n,
                              run->threads);
        kt_halftours_free(h);
    }
    kti_free(al, pre);
    /* The summed set's figures, as enumerate() takes them. */
    if (rc == KT_OK) rc = fold ? unfold_set(set, run->threads) : set_stats(set);
    if (rc == KT_OK) {
        *out = set;
        return KT_OK;
    }
    kt_halftours_free(set);
    return rc;
}

kt_status kti_halftours_make_open_merged(kt_halftours **out, uint32_t width, uint32_t depth,
                                         uint32_t other, const uint8_t *rule, uint32_t from,
                                         const kti_run *run, kti_hprogress *prog)
{
    KTI_TRY(check_geometry(width, depth));
    return enumerate_open(out, width, depth, other, rule, from, run, prog);
}

uint64_t kti_halftours_open_steps(uint32_t width, uint32_t depth, uint32_t from)
{
    return open_steps(width, depth, open_shards(width, depth, from));
}

/* Enumerate the open halves and join them.  Without given ends the halves
 * are symmetric: one set serves both when they have the same depth. */
static kt_status count_open_halves(uint32_t W, uint32_t H, uint32_t DU, const kt_cell *given,
                                   unsigned ngiven, uint32_t from, const kti_run *r, kti_u128 *n)
{
    const kt_allocator *al = r->alloc;
    uint32_t DL = H - DU;
    bool shared_set = ngiven == 0 && DL == DU;
    uint8_t *rl = kti_alloc(al, (size_t)W * DL), *ru = kti_alloc(al, (size_t)W * DU);
    kt_halftours *lower = NULL, *upper = NULL;
    kt_status rc = rl != NULL && ru != NULL ? KT_OK : KT_ENOMEM;
    size_t sl = open_shards(W, DL, from), su = open_shards(W, DU, from);
    kti_hprogress prog;
    kti_hprogress *pp = progress_start(&prog, r,
                                       open_steps(W, DL, sl) + (shared_set ? 0 : open_steps(W, DU, su)) +
                                           KTI_HALFTOUR_JOIN_UNITS);
    if (rc == KT_OK) {
        /* Board rows DU .. H-1 are the lower half, DU-1 .. 0 the upper one. */
        open_rules(rl, W, DL, H, DU, 1, given, ngiven);
        open_rules(ru, W, DU, H, DU - 1, -1, given, ngiven);
        rc = enumerate_open(&lower, W, DL, DU, rl, from, r, pp);
    }
    if (rc == KT_OK && !shared_set) rc = enumerate_open(&upper, W, DU, DL, ru, from, r, pp);
    if (rc == KT_OK) rc = join(lower, upper ? upper : lower, ngiven == 0, r, pp, n);
    kt_halftours_free(lower);
    kt_halftours_free(upper);
    kti_free(al, rl);
    kti_free(al, ru);
    return rc;
}

static kt_status count_open(uint32_t width, uint32_t height, uint32_t split, kt_cell start,
                            kt_cell end, unsigned flags, uint32_t from, const kt_options *run,
                            kt_u128 *count)
{
    if (count == NULL || width == 0 || height < 2 || split == 0 || split >= height ||
        (flags & ~(unsigned)KT_HALFTOUR_DIRECTED) != 0)
        return KT_EINVAL;
    KTI_TRY(check_geometry(width, height));
    uint64_t cells = (uint64_t)width * height;
    kt_cell given[2];
    unsigned ngiven = 0;
    if (start != KT_CELL_NONE) given[ngiven++] = start;
    if (end != KT_CELL_NONE) given[ngiven++] = end;
    for (unsigned i = 0; i < ngiven; i++)
        if (given[i] >= cells) return KT_EINVAL;
    if (ngiven == 2 && start == end) return KT_EINVAL;
    /* The join walks every lower structure of each lower type the crossing
     * steps meet, but meets the upper structures only through their type's
     * table of pairings: it costs less with the larger half above (7x7 cut
     * 4 rows above 3: 51 s CPU, against 85 s cut 3 above 4).  The board's
     * up-down flip maps open tours to open tours, so cut it that way. */
    if (height - split > split) {
        split = height - split;
        for (unsigned i = 0; i < ngiven; i++)
            given[i] = (height - 1 - given[i] / width) * width + given[i] % width;
    }
    kti_run r;
    kti_run_resolve(&r, run);
    kti_u128 n = 0;
    KTI_TRY(count_open_halves(width, height, split, given, ngiven, from, &r, &n));
    /* With an end given, each tour is counted once, from that end. */
    if ((flags & KT_HALFTOUR_DIRECTED) && ngiven == 0) {
        if (n >> 127) return KT_EOVERFLOW;
        n <<= 1;
    }
    *count = kti_u128_to(n);
    return KT_OK;
}

kt_status kt_halftours_count_open(uint32_t width, uint32_t height, uint32_t split, kt_cell start,
                                  kt_cell end, unsigned flags, const kt_options *run,
                                  kt_u128 *count)
{
    return count_open(width, height, split, start, end, flags, OPEN_SHARDS_FROM, run, count);
}

kt_status kti_halftours_count_open_shards(uint32_t width, uint32_t height, uint32_t split,
                                          kt_cell start, kt_cell end, uint32_t from,
                                          unsigned flags, const kt_options *run, kt_u128 *count)
{
    return count_open(width, height, split, start, end, flags, from, run, count);
}
