/* SPDX-License-Identifier: MIT */
/*
 * Internal: the frontier (transfer-matrix) engine behind halftour.c.
 *
 * A state gives each of up to 32 slots a 4-bit code: 0 = a cell with no
 * edge yet, 1 = a cell with two edges, 2..15 = one end of a path (the two
 * ends of a path share the label; labels are numbered in slot order).
 * A problem is a list of steps; each step puts one new cell into a slot,
 * joins it by 0, 1 or 2 edges to neighbour slots, then checks the final
 * degree of the slots whose last neighbour this was (and clears those that
 * leave).  Closing a cycle is refused, except at the last step of a
 * problem that allows it, where a state whose live slots all have two
 * edges is added to a separate total.
 */
#ifndef KNIGHT_HALFTOUR_INTERNAL_H
#define KNIGHT_HALFTOUR_INTERNAL_H

#include "internal.h"
#include <knight/halftour.h>

#define KTI_HDP_SLOTS 32

typedef struct kti_hent {
    uint64_t lo, hi;   /* slots 0-15, 16-31 */
    uint64_t cnt;
} kti_hent;

typedef struct kti_hstep {
    uint8_t slot;                      /* the new cell's slot */
    uint8_t nnb;                       /* neighbour slots it may join */
    uint8_t nb[8];
    uint8_t nfin;                      /* slots whose degree is now final */
    uint8_t fin[KTI_HDP_SLOTS];
    uint8_t finmask[KTI_HDP_SLOTS];    /* KTI_FIN_* bits: the final roles allowed */
    uint8_t finclear[KTI_HDP_SLOTS];   /* 1: the slot leaves (must then have degree 0 or 2) */
    uint8_t nin;                       /* live slots before the step, increasing */
    uint8_t in[KTI_HDP_SLOTS];
    uint8_t nout;                      /* live slots after the step, increasing */
    uint8_t out[KTI_HDP_SLOTS];
    uint8_t live[KTI_HDP_SLOTS];       /* per slot: 0xFF when live after the step, else 0
                                        * (the engine's vector keys mask by it) */
    /* The cells added so far are a set the half's left-right mirror maps
     * onto itself: the layer after this step may be folded
     * (kti_hprob::fold); mirror[s] is the slot of the mirror image of live
     * slot s's cell. */
    uint8_t fold;
    uint8_t mirror[KTI_HDP_SLOTS];
} kti_hstep;

/* The final roles of a slot (kti_hstep::finmask).  Closed mode uses the
 * first three (bit d: final degree d); open mode adds the two ways a cell
 * becomes an end of the tour. */
#define KTI_FIN_DEG0 1u    /* degree 0: a trivial path (two steps across the cut) */
#define KTI_FIN_DEG1 2u    /* degree 1: a path end that crosses the cut */
#define KTI_FIN_DEG2 4u    /* degree 2 */
#define KTI_FIN_END1 8u    /* open: degree 1 and a tour end (its path's other end becomes TERM) */
#define KTI_FIN_END0 16u   /* open: degree 0 and a tour end, one step across the cut (code TERM) */

/* Open mode: the code of a path end whose other end is an end of the tour
 * (labels then stop at 14).  A half holds at most two such codes, one per
 * tour end, since a path whose two ends are both tour ends is the whole
 * tour and is dropped. */
#define KTI_HDP_TERM 15u

/* Open counts only: a half with two tour ends is read as if the tour
 * closed between them (the join pairs its two TERM ends and makes the
 * closed test), so the futures of a state, and the tours a structure
 * joins, depend on its pairing alone, not on which of its paths leads to
 * the tour ends.  So move the two TERM codes onto the path of the first
 * labelled entry (code[at[0]], code[at[1]], ...; at NULL: code[0], ...):
 * states and structures that differ only in that choice become one (7x7
 * open: largest layer 15.9 M -> 11.2 M; 8x8 gains less, its one-end
 * states being most of a half's).  The uniform sampler looks its
 * half-tours' own structures up: it merges only halves too large to
 * enumerate otherwise, and splits a merged structure back into those it
 * stands for (kti_hpaths_split_key) when it draws or ranks. */
static inline void kti_hdp_merge_ends(uint8_t *code, const uint8_t *at, unsigned n)
{
    unsigned nterm = 0;
    if (n > KTI_HDP_SLOTS) return;   /* never: tells the compiler the bound */
    for (unsigned i = 0; i < n; i++) nterm += code[at ? at[i] : i] == KTI_HDP_TERM;
    if (nterm != 2) return;
    /* 30 is no label: labels stop at 15, and the engine's fresh one is 31. */
    unsigned first = 0;
    for (unsigned i = 0; i < n; i++) {
        uint8_t *c = &code[at ? at[i] : i];
        if (*c == KTI_HDP_TERM) *c = 30;
        if (first == 0 && *c >= 2) first = *c;
    }
    for (unsigned i = 0; i < n; i++) {
        uint8_t *c = &code[at ? at[i] : i];
        if (*c == first) *c = KTI_HDP_TERM;
    }
}

/* The key of open boundary codes code[0..n) (n <= 16, codes below 32):
 * path labels renumbered in cell order, TERM kept; merge: the two TERMs
 * first moved to the first path in cell order (kti_hdp_merge_ends, which
 * changes code[]), the canonical form of a merged set's keys. */
static inline uint64_t kti_hdp_pack_open(uint8_t *code, unsigned n, bool merge)
{
    if (n > 16) n = 16;   /* never: tells the compiler the bound */
    if (merge) kti_hdp_merge_ends(code, NULL, n);
    uint8_t map[32] = {0};
    unsigned next = 2;
    uint64_t key = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned v = code[i] & 31u;
        if (v >= 2 && v != KTI_HDP_TERM) {
            if (map[v] == 0) map[v] = (uint8_t)next++;
            v = map[v];
        }
        key |= (uint64_t)v << (4 * i);
    }
    return key;
}

typedef struct kti_hprob {
    size_t nsteps;
    const kti_hstep *steps;
    bool allow_close;                  /* a single cycle may close at the last step */
    bool open;                         /* paths may end inside: KTI_FIN_END*, KTI_HDP_TERM */
    bool merge_ends;                   /* open: two TERMs kept on a canonical path (kti_hdp_merge_ends) */
    /* Fold the layers of the steps marked fold (the half's tour-end rules
     * must be the mirror's too): a state and its mirror
     * image have as many partial half-tours, and their futures are each
     * other's mirror images, so only the lesser key of the two is kept,
     * with both counts.  Every layer then holds about half the states; a
     * final state's count is its own plus its image's, when the two
     * differ (halftour.c's make_set unfolds the last layer). */
    bool fold;
    /* Optional: called for each new state (codes by slot) after step `step`;
     * false drops it. */
    bool (*filter)(const void *ctx, size_t step, const uint8_t *codes);
    const void *filter_ctx;
    /* The first step to run: the initial states are the layer after step
     * first - 1 (0: the empty start), so that runs sharing their first
     * steps can compute those once (the shards of enumerate_open). */
    size_t first;
} kti_hprob;

/* Progress reporting shared by the passes of one public call. */
typedef struct kti_hprogress {
    kti_progress p;
    uint64_t done, total;
} kti_hprogress;

/* Run the problem's steps prob->first .. nsteps - 1 from the states
 * init[0..ninit) (consumed: freed with run->alloc, also on failure), with
 * run->threads threads.  On success
 * *out holds the final states (distinct keys, unordered, allocated with
 * run->alloc) and *closed the total of closed cycles.  Each step adds 1 to
 * prog->done (prog may be NULL) and reports its number of states to
 * run->trace.  KT_ELIMIT when a layer holds more than run->budget states
 * (0 = no bound). */
KTI_HIDDEN kt_status kti_hdp_run(const kti_hprob *prob, const kti_run *run, kti_hent *init,
                                 size_t ninit, kti_hprogress *prog, kti_hent **out, size_t *nout,
                                 uint64_t *closed);

/* Sort key[0..n) increasing, val[] along (radix, stable), with up to
 * `threads` threads (the result is the same with any number); false when
 * out of memory (the arrays are then unchanged). */
KTI_HIDDEN bool kti_hdp_sort(const kt_allocator *al, uint64_t *key, uint64_t *val, size_t n,
                             unsigned threads);

static inline unsigned kti_hdp_nib(uint64_t lo, uint64_t hi, unsigned s)
{
    return (unsigned)(((s < 16 ? lo : hi) >> (4 * (s & 15))) & 15u);
}

/*
 * Internal: McKay's join of two halves, by upper type (join.c).
 */

/*
 * Internal: turn classes, for the exact relative-move distribution.
 *
 * A tour cell left by moves m1 and m2 (Parberry's numbering, both moves
 * leaving the cell) has relative move r = (m2 - m1 - 4) mod 8 walked one
 * way and 8 - r the other; its turn class is min(r, 8 - r), 0..3 (4 would
 * go back along the same edge).  Reflections map move m to c - m and
 * rotations to m + 2, so the class is the same in every frame of the
 * board: each half may use its own (x, distance from the cut).
 */
#define KTI_TURN_CLASSES 4

/* Parberry's move of displacement (dx, dy), or 8 if it is no knight move. */
static inline unsigned kti_ht_move(int dx, int dy)
{
    static const int8_t mdx[8] = {2, 1, -1, -2, -2, -1, 1, 2};
    static const int8_t mdy[8] = {-1, -2, -2, -1, 1, 2, 2, 1};
    for (unsigned m = 0; m < 8; m++)
        if (mdx[m] == dx && mdy[m] == dy) return m;
    return 8;
}

static inline unsigned kti_ht_turn(unsigned m1, unsigned m2)
{
    unsigned r = (m2 - m1 - 4) & 7u;
    return r <= 4 ? r : 8 - r;
}

/* Per path structure of one half (in key order), over its half-tours:
 * turn[4 i + c] cells of turn class c whose two edges lie in the half;
 * and for its j-th path end (boundary cells with one edge, in cell order),
 * row end_off[i] + j of dir: dir[8 * row + m] half-tours whose edge at
 * that end leaves it by move m (in the half's frame: x, distance from the
 * cut; moves with dy < 0 head for the cut). */
typedef struct kti_half_weights {
    uint64_t *turn;
    size_t *end_off;             /* n + 1 entries */
    uint16_t *dir;
} kti_half_weights;

/* The enumeration's steps for a half of width W, depth D facing a half of
 * depth O; bslot[c] receives the slot of boundary cell c (halftour.c). */
KTI_HIDDEN kt_status kti_halftour_steps(const kt_allocator *al, uint32_t W, uint32_t D, uint32_t O,
                                        const uint8_t *rule, kti_hstep **out, size_t *nsteps,
                                        uint8_t *bslot);

/* The weights of the structures keys[0..n) (increasing; every half-tour's
 * structure must be among them) of the half the steps enumerate, by a
 * depth-first walk over its half-tours (weights.c).  KT_EOVERFLOW when a
 * dir entry passes 65535. */
KTI_HIDDEN kt_status kti_half_weights_compute(const kti_hstep *steps, size_t nsteps,
                                              const uint8_t *bslot, uint32_t W, uint32_t D,
                                              const uint64_t *keys, size_t n,
                                              const kti_run *run, kti_half_weights *out);

KTI_HIDDEN void kti_half_weights_free(const kt_allocator *al, kti_half_weights *w);

/* The path structures of one half as the join reads them (borrowed from a
 * kt_halftours: keys increasing, codes as in halftour.h's key).  wt: their
 * weights, or NULL for a plain count. */
typedef struct kti_half_view {
    uint32_t width, depth, other;
    bool open;                   /* keys may hold KTI_HDP_TERM (open tours) */
    bool merged;                 /* open: two TERMs on a canonical path (kti_hdp_pack_open) */
    unsigned ncb;                /* boundary cells */
    size_t n;
    const uint64_t *keys;
    const uint64_t *counts;
    const kti_half_weights *wt;
} kti_half_view;

/* Closed tours made of a lower and an upper structure and crossing steps,
 * summed over the upper types of shard run->shard of run->nshards, with
 * run->threads threads, allocating with run->alloc.  KT_ELIMIT when the
 * pairings of one upper type exceed run->budget.  prog (optional) gets
 * KTI_HALFTOUR_JOIN_UNITS steps.  With open halves (both views open) the
 * count is of open tours: the two halves' tour ends (TERM codes) number
 * two in all.  sym: the halves are symmetric under the left-right mirror
 * (no given tour ends), so mirror images of upper types are counted once
 * (and the up-down flip is used when the halves are one set). */
KTI_HIDDEN kt_status kti_halftours_join(const kti_half_view *lower, const kti_half_view *upper,
                                        bool sym, const kti_run *run, kti_hprogress *prog,
                                        kti_u128 *count);

/* The same join weighted: also turns[c], the cells of turn class c summed
 * over all those tours (both views must carry weights). */
KTI_HIDDEN kt_status kti_halftours_join_turns(const kti_half_view *lower,
                                              const kti_half_view *upper, const kti_run *run,
                                              kti_hprogress *prog, kti_u128 *count,
                                              kti_u128 turns[KTI_TURN_CLASSES]);

/* Closed tours of the width x height board cut after `split` rows (as
 * kt_halftours_count_closed()) and turns[c], the cells of turn class c
 * summed over them: the relative-move distribution over directed tours is
 * 2 turns[0] at 0, turns[r] at r and 8 - r (r = 1..3), 0 at 4. */
KTI_HIDDEN kt_status kti_halftours_turn_classes(uint32_t width, uint32_t height, uint32_t split,
                                                const kt_options *run, kti_u128 *count,
                                                kti_u128 turns[KTI_TURN_CLASSES]);

/* The join's combine step, exposed for the tests and benches: the sum of
 * cnt[i] over the n pairings at pv (16 bytes each: byte e the partner of
 * end e, the ends from k on their own) that form a single cycle with the
 * pairing ub of the same k ends (k even), by the instruction set vec
 * (KTI_HJOIN_*; one the processor lacks falls back to the best it has,
 * and the vector tests take k from 4 to 16). */
enum { KTI_HJOIN_SCALAR = KTI_CPU_NONE, KTI_HJOIN_SSSE3 = KTI_CPU_SSSE3, KTI_HJOIN_AVX2 = KTI_CPU_AVX2 };
KTI_HIDDEN kti_u128 kti_hjoin_cycles(unsigned vec, const uint8_t *pv, const uint64_t *cnt, size_t n,
                                     const uint8_t *ub, unsigned k);

/* Progress steps the join reports. */
#define KTI_HALFTOUR_JOIN_UNITS 1000u

/*
 * The join kept for the uniform sampler (join.c): every tour counted once
 * (no up-down orbits), by upper structure.
 */
typedef struct kti_hjoin kti_hjoin;

/* Which halves the board's left-right mirror maps onto themselves: none
 * (given ends in the lower half), both, or the lower one alone (given
 * ends in the upper half only).  In the last case the join runs one type
 * of each mirror pair as with both: it takes every upper structure of the
 * other type as its mirror image (each keeping its own count and view
 * index), whose partners are the mirror images of its own, and mirrors
 * them back in kti_hjoin_propose, kti_hjoin_locate and kti_hjoin_before. */
enum { KTI_HJOIN_NOMIRROR, KTI_HJOIN_MIRROR, KTI_HJOIN_MIRROR_LOWER };

/* Prepare both halves grouped by type, with `threads` threads (the views
 * must outlive it).  mirror: KTI_HJOIN_* above (KTI_HJOIN_NOMIRROR for
 * open tours with given ends in both halves); open views join open
 * tours.  flip: when the halves are one set (KTI_HJOIN_MIRROR, equal
 * views), join only one pair of each two that the up-down flip swaps
 * (kti_hjoin_pair_weight): partners then weigh 2 (the tour or its flip
 * image), 1 or 0 (left to the image). */
KTI_HIDDEN kt_status kti_hjoin_new_sym(kti_hjoin **out, const kti_half_view *lower,
                                       const kti_half_view *upper, unsigned mirror, bool flip,
                                       unsigned threads, const kt_allocator *al);
/* The weight of the partners of upper structure `upper` with lower
 * structure `lower` (view indices): 2 when each stands for itself and its
 * flip image, 1 when for itself alone (always, without the flip), 0 when
 * its flip image stands for it. */
KTI_HIDDEN unsigned kti_hjoin_pair_weight(const kti_hjoin *j, size_t upper, size_t lower);
KTI_HIDDEN void kti_hjoin_free(kti_hjoin *j);
/* parts[i] (upper view index i): the number of (step set, lower
 * half-tour) partners that close a tour with structure i, each counted
 * kti_hjoin_pair_weight() times; *count the tours.  With run->threads threads; KT_ELIMIT as kti_halftours_join().
 * Shard i of N: only the upper types of the join's shard (the others'
 * parts stay as they are). */
KTI_HIDDEN kt_status kti_hjoin_parts(kti_hjoin *j, const kti_run *run, kti_hprogress *prog,
                                     kti_u128 *parts, kti_u128 *count);
/* The partner of upper structure `upper` at weight a (< parts[upper]), in
 * the order of the join's search: its step set, lower view index, and
 * the offset of a within that partner's weight (below the pair weight
 * times the lower structure's half-tours). */
KTI_HIDDEN kt_status kti_hjoin_locate(const kti_hjoin *j, size_t upper, kti_u128 a,
                                      uint64_t *cmask, size_t *lower, kti_u128 *offset);
/* The inverse: the weight of the partners before (cmask, lower);
 * KT_EBADTOUR when they close no tour with `upper`. */
KTI_HIDDEN kt_status kti_hjoin_before(const kti_hjoin *j, size_t upper, uint64_t cmask,
                                      size_t lower, kti_u128 *before);
/* Open joins: keep blocks of about `quantum` (C, SL) pairs of each upper
 * type's search for kti_hjoin_propose() (0: none, the default), which
 * takes the types of at least min_blocks blocks; set before
 * kti_hjoin_parts(). */
KTI_HIDDEN void kti_hjoin_set_blocks(kti_hjoin *j, uint64_t quantum, uint32_t min_blocks);
/* The bytes of the blocks kept. */
KTI_HIDDEN uint64_t kti_hjoin_block_bytes(const kti_hjoin *j);
/* One try of a draw by rejection for upper structure `upper`: a partner
 * (C, lower view index) of its type drawn with probability proportional
 * to the lower structure's half-tours among all the type's partners with
 * the right number of tour ends, and whether it closes a tour with
 * `upper` (*fits).  Accepted tries are uniform among the partners
 * kti_hjoin_locate() ranks.  KT_EUNSUPPORTED when the type keeps no
 * blocks or too few (then seek). */
KTI_HIDDEN kt_status kti_hjoin_propose(const kti_hjoin *j, size_t upper, kti_rng *g, bool *fits,
                                       uint64_t *cmask, size_t *lower);
/* Bit `bit` of a step set: its upper and lower boundary cells; false
 * for a bit no step has. */
KTI_HIDDEN bool kti_hjoin_crossing(const kti_hjoin *j, unsigned bit, unsigned *ucell,
                                   unsigned *lcell);

/* The index of a key among a view's keys. */
KTI_HIDDEN bool kti_half_view_find(const kti_half_view *v, uint64_t key, size_t *idx);

/* Whether the left-right mirror maps a half's tour-end rule onto itself
 * (NULL, closed tours: it does). */
KTI_HIDDEN bool kti_halftours_rule_symmetric(const uint8_t *rule, uint32_t W, uint32_t D);
/* halftour.c: one half enumerated (as kt_halftours_enumerate) and its view. */
KTI_HIDDEN kt_status kti_halftours_make(kt_halftours **out, uint32_t width, uint32_t depth,
                                        uint32_t other, const kti_run *run, kti_hprogress *prog);
KTI_HIDDEN kti_half_view kti_halftours_view(const kt_halftours *h);
/* Open tours: one half enumerated under the tour-end rule `rule` (per
 * local cell r * W + x: 0 never a tour end, 1 may be one, 2 must be one),
 * and the rule of the half whose local row r is board row first + dir * r
 * on a board of H rows, given ends given[0..ngiven) (board cells). */
KTI_HIDDEN kt_status kti_halftours_make_open(kt_halftours **out, uint32_t width, uint32_t depth,
                                             uint32_t other, const uint8_t *rule,
                                             const kti_run *run, kti_hprogress *prog);
/* The same merged (kti_hdp_merge_ends: one structure per pairing, as the
 * count's), in shards by type digits when the half has at least `from`
 * cells and 4 rows, so that halves too large for one pass fit (8x4);
 * *steps (optional) receives the progress steps it reports. */
KTI_HIDDEN kt_status kti_halftours_make_open_merged(kt_halftours **out, uint32_t width,
                                                    uint32_t depth, uint32_t other,
                                                    const uint8_t *rule, uint32_t from,
                                                    const kti_run *run, kti_hprogress *prog);
KTI_HIDDEN uint64_t kti_halftours_open_steps(uint32_t width, uint32_t depth, uint32_t from);
/* The count's threshold of kti_halftours_make_open_merged (the 8x4 halves). */
#define KTI_OPEN_SHARDS_FROM 32u
/* kt_halftours_count_open() whose halves of at least `from` cells and 4
 * rows are enumerated in shards by type digits (the public call: from 32,
 * the 8x4 halves of 8x8), for the tests. */
KTI_HIDDEN kt_status kti_halftours_count_open_shards(uint32_t width, uint32_t height,
                                                     uint32_t split, kt_cell start, kt_cell end,
                                                     uint32_t from, unsigned flags,
                                                     const kt_options *run, kt_u128 *count);
KTI_HIDDEN void kti_halftours_open_rules(uint8_t *rule, uint32_t W, uint32_t D, uint32_t H,
                                         uint32_t first, int dir, const kt_cell *given,
                                         unsigned ngiven);

/*
 * The half-tours of one path structure (hpaths.c), counted, ranked and
 * unranked by a frontier programme from the cut outward started from the
 * structure, for halves whose half-tours are too many to list.  A half of
 * width x depth cells (local cell r * width + x, row 0 at the cut); key as
 * the enumeration's (4 bits per boundary cell; open: KTI_HDP_TERM codes,
 * never merged); rule (open mode) as kti_halftours_make_open's.  A
 * half-tour is given as up to two neighbours per local cell (0xFF none).
 * KT_ELIMIT when a layer holds more than budget states (0: no bound).
 */
typedef struct kti_hpaths kti_hpaths;
KTI_HIDDEN kt_status kti_hpaths_new(kti_hpaths **out, uint32_t width, uint32_t depth, bool open,
                                    const uint8_t *rule, uint64_t key, uint64_t budget,
                                    const kt_allocator *al);
KTI_HIDDEN void kti_hpaths_free(kti_hpaths *p);
/* The number of half-tours with the structure. */
KTI_HIDDEN uint64_t kti_hpaths_count(const kti_hpaths *p);
/* The states kept, all layers together. */
KTI_HIDDEN uint64_t kti_hpaths_states(const kti_hpaths *p);
/* The half-tour of rank index (below the count): nbr[cell][0..1]. */
KTI_HIDDEN kt_status kti_hpaths_unrank(const kti_hpaths *p, uint64_t index, uint8_t (*nbr)[2]);
/* The rank of a half-tour; KT_ENOTOUR when it is not one of the structure. */
KTI_HIDDEN kt_status kti_hpaths_rank(const kti_hpaths *p, const uint8_t (*nbr)[2],
                                     uint64_t *index);

/* The structures (never merged, as kti_hpaths_new takes them) that merged
 * key `key` of an open half with ncb boundary cells stands for: with two
 * TERMs, one per path pair (the TERM pair included) leading to the two
 * tour ends, in the order of the pairs' first cells (at most ncb / 2);
 * otherwise the key itself.  Their half-tours add up to the merged
 * structure's.  Returns how many were written to sub[]. */
KTI_HIDDEN unsigned kti_hpaths_split_key(uint64_t key, unsigned ncb, bool merged, uint64_t *sub);

/*
 * Uniform closed tours by half-tours (hsample.c), for the sampler module
 * (sample.h): a board of width columns and height rows cut below row
 * split.  Tours are given as two neighbours per board cell (row-major).
 */
typedef struct kti_hsampler kti_hsampler;

KTI_HIDDEN kt_status kti_hsampler_new(kti_hsampler **out, uint32_t width, uint32_t height,
                                      uint32_t split, unsigned flags, const kti_run *run);
/* flags: list no half, whatever its size (hpaths.c draws every half-tour;
 * for the tests of that path on small boards). */
#define KTI_HS_UNLISTED 1u
/* flags, open tours: enumerate every half merged (in shards where it has 4
 * rows or more), as the largest halves are (for the tests of that path). */
#define KTI_HS_MERGED 2u
/* flags, open tours: blocks of a few (C, SL) pairs for the draws'
 * proposals, so that small boards resume searches mid-type; or proposals
 * on every type, however few its blocks (tests). */
#define KTI_HS_SMALL_BLOCKS 4u
#define KTI_HS_ALWAYS_PROPOSE 8u
/* flags: join every (upper, lower) type pair, not one of each two the
 * up-down flip swaps (kti_hjoin_new_sym; tests and benches compare). */
#define KTI_HS_NOFLIP 16u
/* Open tours (undirected Hamiltonian paths), with the given ends (or
 * KT_CELL_NONE): tours are then given with KTI_HS_NONE for the missing
 * neighbour of each tour end. */
KTI_HIDDEN kt_status kti_hsampler_new_open(kti_hsampler **out, uint32_t width, uint32_t height,
                                           uint32_t split, kt_cell start, kt_cell end,
                                           unsigned flags, const kti_run *run);
#define KTI_HS_NONE UINT32_MAX
KTI_HIDDEN void kti_hsampler_free(kti_hsampler *s);
KTI_HIDDEN kti_u128 kti_hsampler_total(const kti_hsampler *s);
/* Bytes of the stored half-tours and weights. */
KTI_HIDDEN uint64_t kti_hsampler_bytes(const kti_hsampler *s);
/* The tour of rank r: nb[2c], nb[2c+1] the neighbours of cell c (deg[c]
 * of them: 1 at an open tour's ends); deg is one byte per cell.  KT_ERANGE when r is not below the total. */
KTI_HIDDEN kt_status kti_hsampler_unrank(const kti_hsampler *s, kti_u128 r, uint32_t *nb,
                                         uint8_t *deg);
/* A tour drawn uniformly: r uniform below the total, g for the rest
 * (open tours: the partner across the cut by kti_hjoin_propose(), else as
 * kti_hsampler_unrank(s, r)); given as kti_hsampler_unrank()'s.
 * in (open tours; NULL: none): one byte per board cell, and more: the
 * tour is wanted only when more than `more` of its ends lie on cells with
 * in[c] != 0.  A tour that has fewer is not built when its first half
 * shows it (the draw's half-tours cost most of it): *skipped is then true
 * and nb, deg unspecified.  g is used as without `in`, so the tours that
 * are built are the same. */
KTI_HIDDEN kt_status kti_hsampler_draw(const kti_hsampler *s, kti_u128 r, kti_rng *g,
                                       const uint8_t *in, unsigned more, bool *skipped,
                                       uint32_t *nb, uint8_t *deg);
/* The rank of a tour given so (KTI_HS_NONE for an open tour end's
 * missing neighbour); KT_EBADTOUR when it is not a tour of the sampler's. */
KTI_HIDDEN kt_status kti_hsampler_rank(const kti_hsampler *s, const uint32_t *nb,
                                       kti_u128 *rank);

#endif /* KNIGHT_HALFTOUR_INTERNAL_H */
