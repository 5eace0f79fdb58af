/* SPDX-License-Identifier: MIT */
/*
 * The sampler object and its queries: preparation (plan.c, table.c),
 * unranking (a walk forward through the stored counts), uniform draws (a
 * uniform rank, unranked) and ranking (the same walk, led by a tour).
 */
#include "sample_internal.h"

#include <knight/sample.h>

/* The boards McKay's half-tours cover: a knight's board without holes at
 * most 8 columns wide, cut between two rows. */
static bool halftour_board(const kt_graph *g)
{
    if (!((g->a == 1 && g->b == 2) || (g->a == 2 && g->b == 1))) return false;
    if (g->mask != NULL)
        for (size_t c = 0; c < g->ncells; c++)
            if (!g->mask[c]) return false;
    return g->width >= 1 && g->width <= KT_HALFTOUR_MAX_WIDTH && g->height >= 2;
}

/* open: open tours between start and end (either may be KT_CELL_NONE). */
static kt_status new_halftours(kt_sampler **out, const kt_graph *g, uint32_t split, bool open,
                               kt_cell start, kt_cell end, unsigned flags, const kti_run *run)
{
    if (out == NULL || g == NULL || !halftour_board(g)) return KT_EINVAL;
    if (kti_colour_excludes(g, open, start, end)) return KT_ENOTOUR;
    kti_run r = *run;
    kt_sampler *s = kti_calloc(r.alloc, 1, sizeof *s);
    if (s == NULL) return KT_ENOMEM;
    s->alloc = *r.alloc;
    s->g = kti_graph_ref(g);
    s->open = open;
    s->start = start;
    s->end = end;
    s->whole = r.nshards == 1;
    kt_status st = open ? kti_hsampler_new_open(&s->hs, g->width, g->height, split, start, end,
                                                flags, &r)
                        : kti_hsampler_new(&s->hs, g->width, g->height, split, flags, &r);
    if (st != KT_OK) {
        kt_sampler_free(s);
        return st;
    }
    s->total = kti_hsampler_total(s->hs);
    s->stats.bytes = kti_hsampler_bytes(s->hs);
    *out = s;
    return KT_OK;
}

kt_status kti_sampler_new_halftours(kt_sampler **out, const kt_graph *g, uint32_t split,
                                    const kt_options *run)
{
    kti_run r;
    kti_run_resolve(&r, run);
    return new_halftours(out, g, split, false, KT_CELL_NONE, KT_CELL_NONE, 0, &r);
}

kt_status kti_sampler_new_halftours_open(kt_sampler **out, const kt_graph *g, uint32_t split,
                                         kt_cell start, kt_cell end, const kt_options *run)
{
    kti_run r;
    kti_run_resolve(&r, run);
    return new_halftours(out, g, split, true, start, end, 0, &r);
}

kt_status kti_sampler_new_halftours_flags(kt_sampler **out, const kt_graph *g, uint32_t split,
                                          bool open, unsigned flags, kt_cell start, kt_cell end,
                                          const kt_options *run)
{
    kti_run r;
    kti_run_resolve(&r, run);
    return new_halftours(out, g, split, open, start, end, flags, &r);
}

kt_status kt_sampler_new(kt_sampler **out, const kt_graph *g, kt_shape shape, kt_cell start,
                         kt_cell end, const kt_options *run)
{
    if (out == NULL || g == NULL || (shape != KT_SHAPE_CYCLES && shape != KT_SHAPE_PATH))
        return KT_EINVAL;
    bool open = shape == KT_SHAPE_PATH;
    if (!open && (start != KT_CELL_NONE || end != KT_CELL_NONE)) return KT_EINVAL;
    if (start != KT_CELL_NONE && !kti_is_vertex(g, start)) return KT_EINVAL;
    if (end != KT_CELL_NONE && !kti_is_vertex(g, end)) return KT_EINVAL;
    if (start != KT_CELL_NONE && start == end) return KT_EINVAL;
    if (kti_colour_excludes(g, open, start, end)) return KT_ENOTOUR;
    /* A frontier wider than 15 cells (both sides at least 8): closed
     * tours by half-tours, cut across the middle. */
    kti_run r;
    kti_run_resolve(&r, run);
    if (!open && g->width >= 8 && g->height >= 8 && halftour_board(g)) {
        r.shard = 0; /* the sampler's tours are all of them */
        r.nshards = 1;
        return new_halftours(out, g, g->height / 2, false, KT_CELL_NONE, KT_CELL_NONE, 0, &r);
    }
    /* Open tours of 7 columns from 7x7 on (the frontier programme's layers
     * pass 20 GiB there): by open half-tours, the larger half above (the
     * join walks the lower half's structures, so it costs less that way).
     * And 8x8: between two given cells the halves are listed; with an end
     * free they are enumerated merged, in shards, as the count does it
     * (hsample.c), which takes half an hour or more and 16 to 19 GiB
     * (BENCHMARKS.md); with one end given the two halves differ, so both
     * are enumerated and the join loses the up-down flip (it keeps the
     * left-right mirror of the half without the given end). */
    if (open && ((g->width == 7 && g->height >= 7) || (g->width == 8 && g->height == 8)) &&
        halftour_board(g)) {
        r.shard = 0;
        r.nshards = 1;
        return new_halftours(out, g, g->height - g->height / 2, true, start, end, 0, &r);
    }
    kt_sampler *s = kti_calloc(r.alloc, 1, sizeof *s);
    if (s == NULL) return KT_ENOMEM;
    s->alloc = *r.alloc;
    s->start = start;
    s->end = end;
    s->whole = true;
    kt_status st = kti_splan_build(&s->plan, g, open, start, end, &s->alloc);
    if (st == KT_OK) {
        s->g = kti_graph_ref(g);
        st = kti_stable_build(s, &r);
    }
    if (st != KT_OK) {
        kt_sampler_free(s);
        return st;
    }
    *out = s;
    return KT_OK;
}

void kt_sampler_free(kt_sampler *s)
{
    if (s == NULL) return;
    kt_allocator al = s->alloc;
    kti_hsampler_free(s->hs);
    kti_stable_free(s);
    kti_splan_free(&s->plan, &al);
    kt_graph_free(s->g);
    kti_free(&al, s);
}

kt_status kt_sampler_total(const kt_sampler *s, kt_u128 *total)
{
    if (s == NULL || total == NULL) return KT_EINVAL;
    *total = kti_u128_to(s->total);
    return KT_OK;
}

kt_status kt_sampler_stats(const kt_sampler *s, kt_sample_stats *stats)
{
    if (s == NULL || stats == NULL) return KT_EINVAL;
    *stats = s->stats;
    return KT_OK;
}

/* The tour of rank r by half-tours (g NULL), or drawn with r and g
 * (kti_hsampler_draw, which may skip it by in and more: *out NULL): the
 * neighbours of every cell, made a tourney and checked whole. */
static kt_status unrank_halftours(kt_tourney **out, const kt_sampler *s, kti_u128 r, kti_rng *g,
                                  const uint8_t *in, unsigned more)
{
    size_t n = s->g->ncells, bytes;
    if (!kti_mul_ok(n, 2 * sizeof(uint32_t) + 1, &bytes)) return KT_ETOOBIG;
    uint32_t *nb = kti_alloc(&s->alloc, bytes);
    if (nb == NULL) return KT_ENOMEM;
    uint8_t *deg = (uint8_t *)(nb + 2 * n);
    kt_tourney *t = NULL;
    bool skipped = false;
    kt_status st = g != NULL ? kti_hsampler_draw(s->hs, r, g, in, more, &skipped, nb, deg)
                             : kti_hsampler_unrank(s->hs, r, nb, deg);
    if (st == KT_OK && skipped) {
        kti_free(&s->alloc, nb);
        *out = NULL;
        return KT_OK;
    }
    if (st == KT_OK) st = kti_tourney_alloc(&t, s->g);
    size_t ends = 0;
    for (size_t c = 0; st == KT_OK && c < n; c++) {
        /* an open tour's two ends have one neighbour */
        if (deg[c] != 2 && !(s->open && deg[c] == 1 && ends++ < 2)) st = KT_EBADTOUR;
        for (unsigned k = 0; st == KT_OK && k < deg[c]; k++) {
            int m = kti_move_between(s->g, (kt_cell)c, nb[2 * c + k]);
            if (m == KT_MOVE_NONE || !kti_pair_add(t->mv, (kt_cell)c, m))
                st = KT_EBADTOUR; /* never: a bug in the lists */
        }
    }
    kti_free(&s->alloc, nb);
    if (st == KT_OK) st = kti_tourney_finish(t, NULL);
    if (st == KT_OK && t->size != 1) st = KT_EBADTOUR;
    if (st != KT_OK) {
        kt_tourney_free(t);
        return st;
    }
    *out = t;
    return KT_OK;
}

/* Build the tour of rank r (below the total). */
static kt_status unrank(kt_tourney **out, const kt_sampler *s, kti_u128 r)
{
    if (s->hs != NULL) return unrank_halftours(out, s, r, NULL, NULL, 0);
    kt_tourney *t = NULL;
    KTI_TRY(kti_tourney_alloc(&t, s->g));
    const kti_splan *p = &s->plan;
    uint64_t key = 0;
    for (uint32_t v = 0; v < p->n; v++) {
        const kti_sstep *st = &p->st[v];
        kti_schoice ch;
        kti_schoices(st, &ch);
        uint64_t next[KTI_SMP_MAXCH];
        kti_sexpand(p, st, &ch, key, next);
        unsigned c = 0;
        for (; c < ch.n; c++) {
            if (next[c] == KTI_SMP_NONE) continue;
            kti_u128 n = kti_slayer_count(&s->layer[v + 1], next[c]);
            if (r < n) break;
            r -= n;
        }
        KTI_ASSERT(c < ch.n); /* the counts add up to the state's */
        for (int i = 0; i < 2; i++) {
            unsigned e = ch.e[c][i];
            if (e == 0xFF) continue;
            int m = st->back_move[e];
            kt_cell a = p->cell[v], b = kti_step(s->g, a, m);
            bool ok = kti_pair_add(t->mv, a, m) && kti_pair_add(t->mv, b, kti_move_between(s->g, b, a));
            KTI_ASSERT(ok);
            (void)ok;
        }
        key = next[c];
    }
    /* Sets shape and size, and checks the tour whole: a failure here
     * would be a bug in the tables, never a wrong tour returned. */
    kt_status stt = kti_tourney_finish(t, NULL);
    if (stt == KT_OK && t->size != 1) stt = KT_EBADTOUR;
    if (stt != KT_OK) {
        kt_tourney_free(t);
        return stt;
    }
    *out = t;
    return KT_OK;
}

kt_status kt_sampler_unrank(kt_tourney **out, const kt_sampler *s, const kt_u128 *rank)
{
    if (out == NULL) return KT_EINVAL;
    *out = NULL;
    if (s == NULL || rank == NULL) return KT_EINVAL;
    kti_u128 r = kti_u128_from(*rank);
    if (r >= s->total) return KT_ERANGE;
    return unrank(out, s, r);
}

/* A uniform number below bound (>= 1): rejection from the smallest power
 * of two above bound - 1, so there is no modulo bias; fewer than two
 * rounds expected. */
static kti_u128 below(kti_rng *g, kti_u128 bound)
{
    if (bound >> 64 == 0) return kti_rng_below(g, (uint64_t)bound);
    uint64_t hi = (uint64_t)((bound - 1) >> 64);
    int bits = 64 + (64 - __builtin_clzll(hi));
    kti_u128 mask = bits == 128 ? ~(kti_u128)0 : ((kti_u128)1 << bits) - 1;
    for (;;) {
        kti_u128 x = (kti_u128)kti_rng_next(g) << 64 | kti_rng_next(g);
        x &= mask;
        if (x < bound) return x;
    }
}

/* Each (seed, index) its own stream: seeding by a mix of both keeps
 * draws of one seed independent of each other. */
static void draw_stream(kti_rng *g, uint64_t seed, uint64_t index)
{
    kti_rng_seed(g, kti_mix64(seed) ^ kti_mix64(index ^ 0xA0761D6478BD642Fu));
}

/* The next uniform tour of stream g; with in (kt_sampler_draw_from), a
 * tour whose first half shows it has no more than `more` ends on cells
 * that `in` marks may be skipped (*out NULL): the half-tours' path, where
 * building a tour costs most.  Stream g goes on the same either way. */
static kt_status draw_next(kt_tourney **out, const kt_sampler *s, kti_rng *g, const uint8_t *in,
                           unsigned more)
{
    kti_u128 r = below(g, s->total);
    if (s->hs != NULL) return unrank_halftours(out, s, r, g, in, more);
    return unrank(out, s, r);
}

kt_status kt_sampler_draw(kt_tourney **out, const kt_sampler *s, uint64_t seed, uint64_t index)
{
    if (out == NULL) return KT_EINVAL;
    *out = NULL;
    if (s == NULL) return KT_EINVAL;
    kti_rng g;
    draw_stream(&g, seed, index);
    return draw_next(out, s, &g, NULL, 0);
}

/* The symmetries of the board that map the sampler's tours onto
 * themselves (the identity first): those that keep the board's vertices
 * and the set of its given ends.  None but the identity for a sampler of
 * a part of the tours. */
static unsigned sampler_symmetries(const kt_sampler *s, unsigned sym[8])
{
    unsigned n = 0;
    for (unsigned k = 0; k < 8; k++) {
        if (k != 0 && (!s->whole || !kti_sym_keeps(s->g, k))) continue;
        bool keeps = true;
        kt_cell ends[2] = {s->start, s->end};
        for (int i = 0; i < 2 && keeps; i++) {
            if (ends[i] == KT_CELL_NONE) continue;
            kt_cell im = kti_sym_cell(s->g, k, ends[i]);
            keeps = im == s->start || im == s->end;
        }
        if (keeps) sym[n++] = k;
    }
    return n;
}

/* The symmetries among sym[0..n) that take cell a to cell b, into to[];
 * their number. */
static unsigned symmetries_to(const kt_graph *g, const unsigned *sym, unsigned n, kt_cell a,
                              kt_cell b, unsigned *to)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (kti_sym_cell(g, sym[i], a) == b) to[k++] = sym[i];
    return k;
}

kt_status kt_sampler_draw_from(kt_tourney **out, const kt_sampler *s, kt_cell cell,
                               uint64_t seed, uint64_t index, const kt_options *run)
{
    if (out == NULL) return KT_EINVAL;
    *out = NULL;
    bool open = s != NULL && (s->hs != NULL ? s->open : s->plan.open);
    if (s == NULL || !open || !kti_is_vertex(s->g, cell)) return KT_EINVAL;
    if (kti_colour_excludes(s->g, true, cell, KT_CELL_NONE)) return KT_ENOTOUR;
    kti_run r;
    kti_run_resolve(&r, run);
    kti_progress prog;
    kti_progress_init(&prog, r.progress, r.progress_user);
    /* Each try is a uniform tour t of the sampler's, from kt_sampler_draw's
     * stream (its first try is that draw).  The board's symmetries that
     * keep the sampler's tours (group G) map a tour with an end at a cell
     * of the orbit O of `cell` onto one with an end at `cell`, so every
     * tour of the orbit serves, not only those that end at `cell`: with k
     * of t's ends in O (0, 1 or 2), t is kept with probability k / kmax,
     * then one of those ends e and one of the symmetries g with g(e) = cell
     * are taken uniformly, and g(t) returned.  A tour u with an end at
     * `cell` then comes from each g in G once, from the tour g^-1(u), which
     * has k(u) ends in O: each way has probability
     * (1 / total) (k / kmax) (1 / (k |G_cell|)), the same for every u, so
     * the tour returned is exactly uniform.  kmax is 2 when two cells of
     * O can both be ends of one tour (colours allow it, and no given end
     * takes one of the two), else 1; a tour is kept |O| / kmax times as
     * often as by waiting for an end at `cell` (open 8x8: 4 times for most
     * cells, 2 for the corners, the edges' middles and the diagonals).
     * The choices (keep with k / kmax as k > j for j uniform below kmax,
     * drawn before the try; the end; the symmetry) come from a second
     * stream, so the tries are kt_sampler_draw's stream whatever they
     * decide, and a try whose first half shows k <= j is not built. */
    unsigned sym[8], nsym = sampler_symmetries(s, sym), orbit_sym[8];
    kt_cell orbit[8];
    unsigned norbit = 0;
    for (unsigned i = 0; i < nsym; i++) {
        kt_cell c = kti_sym_cell(s->g, sym[i], cell);
        bool seen = false;
        for (unsigned j = 0; j < norbit; j++) seen |= orbit[j] == c;
        if (!seen) orbit[norbit++] = c;
    }
    /* With one given end, G fixes it, so it lies in O only when it is
     * `cell`, whose orbit is then itself: k is at most 1. */
    bool one_given = (s->start == KT_CELL_NONE) != (s->end == KT_CELL_NONE);
    unsigned kmax = 1;
    for (unsigned i = 0; i < norbit && kmax == 1 && !one_given; i++)
        for (unsigned j = i + 1; j < norbit; j++)
            if (!kti_colour_excludes(s->g, true, orbit[i], orbit[j])) kmax = 2;
    size_t n = s->g->ncells, bytes;
    if (!kti_mul_ok(n, 2, &bytes)) return KT_ETOOBIG;
    uint8_t *in = kti_calloc(&s->alloc, bytes, 1), *tmp = in + n;
    if (in == NULL) return KT_ENOMEM;
    for (unsigned j = 0; j < norbit; j++) in[orbit[j]] = 1;
    kti_rng g, gk;
    draw_stream(&g, seed, index);
    draw_stream(&gk, seed ^ 0x6A09E667F3BCC909u, index);
    kt_status st = KT_OK;
    for (uint64_t tries = 0;; tries++) {
        if (r.budget != 0 && tries >= r.budget) {
            st = KT_ELIMIT;
            break;
        }
        if (kti_progress_tick(&prog, tries, r.budget)) {
            st = KT_ECANCELED;
            break;
        }
        unsigned j = kmax == 1 ? 0u : (unsigned)kti_rng_below(&gk, kmax);
        kt_tourney *t = NULL;
        st = draw_next(&t, s, &g, in, j);
        if (st != KT_OK) break;
        if (t == NULL) continue; /* its first half showed k <= j */
        kt_cell end[2], hit[2];
        unsigned k = 0;
        if (kt_tourney_ends(t, &end[0], &end[1]) == KT_OK)
            for (int i = 0; i < 2; i++)
                if (in[end[i]]) hit[k++] = end[i];
        KTI_ASSERT(k <= kmax);
        if (k <= j) {
            kt_tourney_free(t);
            continue;
        }
        kt_cell e = hit[k == 1 ? 0 : kti_rng_below(&gk, k)];
        unsigned nto = symmetries_to(s->g, sym, nsym, e, cell, orbit_sym);
        KTI_ASSERT(nto >= 1);
        unsigned pick = orbit_sym[nto == 1 ? 0 : kti_rng_below(&gk, nto)];
        if (pick != 0) kti_tourney_map_sym(t, pick, tmp);
        *out = t;
        break;
    }
    kti_free(&s->alloc, in);
    return st;
}

static bool same_board(const kt_graph *a, const kt_graph *b)
{
    if (a == b) return true;
    if (a->width != b->width || a->height != b->height || a->a != b->a || a->b != b->b) return false;
    for (size_t c = 0; c < a->ncells; c++)
        if (kti_is_vertex(a, c) != kti_is_vertex(b, c)) return false;
    return true;
}

/* The rank by half-tours of a closed or open tour. */
static kt_status rank_halftours(const kt_sampler *s, const kt_tourney *t, kt_u128 *rank)
{
    if (!(s->open ? kt_tourney_is_open_tour(t) : kt_tourney_is_closed_tour(t))) return KT_EBADTOUR;
    size_t n = s->g->ncells, bytes;
    if (!kti_mul_ok(n, 2 * sizeof(uint32_t), &bytes)) return KT_ETOOBIG;
    uint32_t *nb = kti_alloc(&s->alloc, bytes);
    if (nb == NULL) return KT_ENOMEM;
    for (size_t c = 0; c < n; c++) {
        uint8_t p = t->mv[c];
        unsigned lo = p & 0xF, hi = p >> 4;
        nb[2 * c] = lo == KTI_NOMOVE ? KTI_HS_NONE : (uint32_t)kti_step(s->g, (kt_cell)c, (int)lo);
        nb[2 * c + 1] = hi == KTI_NOMOVE ? KTI_HS_NONE : (uint32_t)kti_step(s->g, (kt_cell)c, (int)hi);
    }
    kti_u128 r = 0;
    kt_status st = kti_hsampler_rank(s->hs, nb, &r);
    kti_free(&s->alloc, nb);
    if (st == KT_OK) *rank = kti_u128_to(r);
    return st;
}

kt_status kt_sampler_rank(const kt_sampler *s, const kt_tourney *t, kt_u128 *rank)
{
    if (s == NULL || t == NULL || rank == NULL) return KT_EINVAL;
    if (!same_board(s->g, t->g)) return KT_EMISMATCH;
    if (s->hs != NULL) return rank_halftours(s, t, rank);
    const kti_splan *p = &s->plan;
    kti_u128 r = 0;
    uint64_t key = 0;
    for (uint32_t v = 0; v < p->n; v++) {
        const kti_sstep *st = &p->st[v];
        uint8_t pair = t->mv[p->cell[v]];
        uint8_t want[2] = {0xFF, 0xFF};
        unsigned k = 0;
        for (unsigned e = 0; e < st->nback; e++)
            if ((pair & 0xF) == st->back_move[e] || (pair >> 4) == st->back_move[e]) want[k++] = (uint8_t)e;
        kti_schoice ch;
        kti_schoices(st, &ch);
        bool found = false;
        uint64_t next[KTI_SMP_MAXCH];
        kti_sexpand(p, st, &ch, key, next);
        for (unsigned c = 0; c < ch.n && !found; c++) {
            if (next[c] == KTI_SMP_NONE) continue;
            kti_u128 n = kti_slayer_count(&s->layer[v + 1], next[c]);
            if (ch.e[c][0] == want[0] && ch.e[c][1] == want[1]) {
                if (n == 0) return KT_EBADTOUR;
                found = true;
                key = next[c];
            } else {
                r += n;
            }
        }
        if (!found) return KT_EBADTOUR;
    }
    *rank = kti_u128_to(r);
    return KT_OK;
}
