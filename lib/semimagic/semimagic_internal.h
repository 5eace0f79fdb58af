/* SPDX-License-Identifier: MIT */
/*
 * Internal: numbered knight's tours under line-sum constraints
 * (knight/semimagic.h).  The module is split along its seams:
 *   options.c  the options handle and the solution getters;
 *   plan.c     the static plan of one search (board masks, knight
 *              distances, lines, the symmetries that preserve the
 *              constraints, the root pairs) and the full check of a
 *              numbering (kt_semimagic_check);
 *   search.c   the search kernel (search_kernel.h: state updates,
 *              feasibility, the depth-first search), instantiated for the
 *              two set widths, and the work units it is split into;
 *   classes.c  symmetry classes: which numbering reports an orbit, class
 *              keys, the reversal relation, the user's callback;
 *   deliver.c  the public search calls: run settings, threads, shards,
 *              the progress estimate and the in-order delivery of
 *              solutions on the calling thread;
 *   puzzle.c   puzzles with a unique solution (greedy removal of given
 *              numbers, each kept removal proved by the completion search).
 *
 * The engine grows the path from both ends at once: numbers 1, 2, ... from
 * the cell of 1 and n^2, n^2-1, ... from the cell of n^2; at every node it
 * extends the end with fewer candidate moves.  The numbers still to place
 * are then exactly the interval [lo, hi] minus the "pencilled" ones, which
 * bounds every line from both sides at once.  Per node:
 *  - bitboards (internal cell index y*8+x, or y*16+x past 8x8) for
 *    unvisited cells, with precomputed knight attack masks;
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
 * The tree is split into work units (prefixes of a few moves) that threads
 * search independently; results are delivered in unit order, which is the
 * sequential depth-first order.
 *
 * Two cell layouts: the public index y*n+x (numberings, options) and the
 * internal index y*stride+x (bitboards); the plan converts (i2p, p2i).
 * The kernel (search_kernel.h) is compiled three times: with one-word sets
 * and stride 8 for boards of sides up to 8, one-word sets and stride 16
 * for at most 4 rows of up to 16, and four-word sets and stride 16 for
 * the other larger boards; the plan picks one.
 */
#ifndef KNIGHT_SEMIMAGIC_INTERNAL_H
#define KNIGHT_SEMIMAGIC_INTERNAL_H

#include "internal.h"

#include <knight/semimagic.h>

#define KTI_SM_MAXN 8   /* the largest side of a board with 64-bit cell sets */
#define KTI_SM_MAXS 16  /* the largest side */
#define KTI_SM_MAXC 256 /* the most cells (16 x 16) */
#define KTI_SM_WORDS 4  /* 64-bit words of a wide set (KTI_SM_MAXC bits) */
/* Lines: 64 half-rows and half-columns (nested 16x16) + 2 diagonals.  A
 * line has at most 16 cells of one colour (a diagonal is one colour). */
#define KTI_SM_MAXL 68
#define KTI_SM_MAXK 16
#define KTI_SM_BIG (1 << 20)
#define KTI_SM_PREFIX_DEPTH 3
/* Most random paths per work unit for the progress estimate (Knuth's
 * estimator; fewer for a unit whose probes cost more than its estimated
 * size, which is then searched faster than estimated).  The tree's size
 * has a heavy tail: 16 paths per unit put the nested 8x8 search at 0.3 of
 * its real size, 256 at 0.8. */
#define KTI_SM_PROBES 256
/* Nodes all the probes of one search may look at (a fraction of a second),
 * shared evenly by the units, so that the estimate never holds back the
 * first solution for long. */
#define KTI_SM_EST_COST (UINT64_C(1) << 23)
/* Search nodes between two looks at the shared state (stop flag, budget,
 * progress): rare enough to cost nothing, frequent enough to stop fast. */
#define KTI_SM_SYNC 4096u

/* A set of up to 256 cells or numbers (bit i of word i / 64). */
typedef struct kti_sm_wset {
    uint64_t w[KTI_SM_WORDS];
} kti_sm_wset;

static inline bool kti_sm_w_has(const kti_sm_wset *s, int i)
{
    return s->w[i >> 6] >> (i & 63) & 1;
}
static inline void kti_sm_w_add(kti_sm_wset *s, int i)
{
    s->w[i >> 6] |= UINT64_C(1) << (i & 63);
}
static inline bool kti_sm_w_any(const kti_sm_wset *s)
{
    return (s->w[0] | s->w[1] | s->w[2] | s->w[3]) != 0;
}

/* ---- the options handle and a reported solution (options.c) ---- */

struct kt_semimagic_opts {
    kt_allocator al;
    uint32_t n;            /* the side of a square board, 0 for a rectangle */
    uint32_t w, h;         /* width (columns) and height (rows) */
    unsigned flags;
    kti_sm_wset startm, endm; /* public-index cell sets; empty = any */
    uint16_t given[KTI_SM_MAXC]; /* public index; 0 = free */
    kt_semimagic_symmetry sym;
};

struct kt_semimagic_solution {
    uint32_t n, w, h;
    uint32_t num[KTI_SM_MAXC];
    uint64_t cls;
    uint32_t size, member, nsat;
    int sat;
    uint64_t rev;
    int revsat;
};

/* ---- the static plan of one search (plan.c) ---- */

/* Internal cell index: y * stride + x, stride 8 on boards of sides up to 8
 * (cell sets in one word: the "narrow" kernel, as fast as before boards
 * grew) and 16 on larger ones: one word still for at most 4 rows (the
 * "long" kernel, for 4 x n), else four words (the "wide" kernel).  The
 * plan keeps every cell set in four words; the one-word kernels read
 * word 0. */
enum { KTI_SM_NARROW, KTI_SM_LONG, KTI_SM_WIDE };
typedef struct kti_sm_plan {
    int n, N;  /* n: the width (the side of a square) */
    int h;     /* the height */
    size_t nb; /* N as a size */
    unsigned flags;
    int kernel; /* KTI_SM_NARROW, KTI_SM_LONG or KTI_SM_WIDE */
    int stride; /* 8 or 16 */
    kti_sm_wset board;
    kti_sm_wset att[KTI_SM_MAXC];
    int nl;
    kti_sm_wset lmask[KTI_SM_MAXL]; /* internal cells of each line */
    int ltarget[KTI_SM_MAXL];
    uint8_t nlof[KTI_SM_MAXC], lof[KTI_SM_MAXC][4];
    uint8_t col[KTI_SM_MAXC];
    int maxneed;
    /* The search's choice of end (kernel's moves): 0, the end with fewer
     * moves; b > 0, that end only while the two ends' numbers are within
     * b of balance (lo - 1 against N - hi), else the one behind. */
    int balance;
    /* gap[o][e][p]: least sum of offsets b_i >= 0 such that base + b_i are
     * o odd and e even numbers, pairwise at least 2 apart (two cells of a
     * line are never a knight's move apart); p = parity of the base. */
    int16_t gap[KTI_SM_MAXK + 1][KTI_SM_MAXK + 1][2];
    uint16_t given[KTI_SM_MAXC]; /* internal index */
    kti_sm_wset startm, endm;    /* internal, never empty */
    kti_sm_wset rootend[KTI_SM_MAXC]; /* per start cell (internal): end cells searched */
    uint8_t symok[16]; /* symmetries (t & 7 board, t & 8 reversal) preserving the constraints */
    uint16_t i2p[KTI_SM_MAXC], p2i[KTI_SM_MAXC];
    uint16_t tmap[8][KTI_SM_MAXC]; /* public cell -> image public cell */
    uint8_t dist[KTI_SM_MAXC][KTI_SM_MAXC];
    kt_semimagic_symmetry sym;
    /* KT_SEMIMAGIC_HALFTURN: N / 2 (else 0), and each internal cell's image
     * under the half-turn, which holds its number plus or minus half. */
    int half;
    uint16_t opp[KTI_SM_MAXC];
} kti_sm_plan;

/* Under KT_SEMIMAGIC_HALFTURN, the number on the cell opposite that of k. */
static inline int kti_sm_partner(const kti_sm_plan *S, int k)
{
    return k > S->half ? k - S->half : k + S->half;
}

/* Whether board map t (t & 7) exists on the board: a transpose (t & 4)
 * only on a square. */
static inline bool kti_sm_map_ok(const kti_sm_plan *S, int t)
{
    return !(t & 4) || S->n == S->h;
}

/* Fill the plan for the constraints of o, reporting in mode sym. */
KTI_HIDDEN void kti_sm_plan_init(kti_sm_plan *S, const kt_semimagic_opts *o,
                                 kt_semimagic_symmetry sym);
/* Whether a numbering (public layout) satisfies every constraint. */
KTI_HIDDEN int kti_sm_check(const kti_sm_plan *S, const uint16_t *num);
/* Image of a numbering under symmetry t (board map t & 7, reversal if t & 8). */
KTI_HIDDEN void kti_sm_image(const kti_sm_plan *S, int t, const uint16_t *num, uint16_t *img);

/* ---- the search kernel (search.c, search_kernel.h) ---- */

/* A work unit: the root pair and the first moves of the search. */
typedef struct kti_sm_prefix {
    uint16_t start, end, len;
    uint16_t step[KTI_SM_PREFIX_DEPTH]; /* cell | KTI_SM_HIGH when placed at the high end */
} kti_sm_prefix;
#define KTI_SM_HIGH 0x8000u

typedef struct kti_sm_plist {
    const kt_allocator *al;
    kti_sm_prefix *v;
    size_t len, cap;
} kti_sm_plist;

/* What every search thread of one call shares: why the search stopped
 * (KT_OK while it runs; the first reason wins) and the node count held
 * against the budget. */
typedef struct kti_sm_shared {
    atomic_int status;
    atomic_uint_fast64_t nodes;
    uint64_t budget;   /* 0 = unlimited */
    unsigned period;   /* nodes between two syncs of a thread */
} kti_sm_shared;

typedef struct kti_sm_worker kti_sm_worker;
struct kti_sm_worker {
    const kti_sm_plan *S;
    kti_sm_shared *sh;
    unsigned nodes;  /* since the last sync */
    uint64_t synced; /* nodes before the last sync */
    unsigned period; /* sh->period, kept here off the shared cache line */
    int limit;      /* prefix depth, or -1 */
    uint16_t path[KTI_SM_MAXC];
    /* Called with a complete numbering (public layout), or with NULL at a
     * prefix leaf when limit >= 0 (the moves in path[0..depth)); non-zero
     * aborts (after recording the reason in sh). */
    int (*emit)(kti_sm_worker *w, const uint16_t *num, int depth);
    /* Optional hook at every sync, on the calling thread only (progress);
     * non-zero aborts (after recording the reason in sh). */
    int (*tick)(kti_sm_worker *w);
    void *ctx;
    uint16_t start, end;
};

/* Record why the search stops (the first reason wins). */
KTI_HIDDEN void kti_sm_stop(kti_sm_shared *sh, kt_status why);
/* Search work unit p to the end; non-zero when it was aborted. */
KTI_HIDDEN int kti_sm_search_unit(kti_sm_worker *w, const kti_sm_prefix *p);
/* The size of work unit p in search nodes (as the search counts them) by
 * Knuth's estimator: up to KTI_SM_PROBES random paths down the tree (at
 * least one, fewer when their cost passes the estimate or cap), each the
 * sum over its depths of the product of the branching factors.  Unbiased;
 * from seed, so reproducible. */
KTI_HIDDEN double kti_sm_estimate_unit(const kti_sm_plan *S, const kti_sm_prefix *p, uint64_t seed,
                                       uint64_t cap);
/* The work units of the whole search, in depth-first order (pl->v
 * allocated with al; the caller frees it also on failure). */
KTI_HIDDEN kt_status kti_sm_prefixes(const kti_sm_plan *S, kti_sm_shared *sh,
                                     const kt_allocator *al, kti_sm_plist *pl);
/* Append a prefix leaf of w (path[0..depth)) to w->ctx, a kti_sm_plist. */
KTI_HIDDEN int kti_sm_emit_prefix(kti_sm_worker *w, const uint16_t *num, int depth);
/* Every KTI_SM_SYNC nodes: share the node count, check stop, budget and
 * progress; non-zero stops the search. */
KTI_HIDDEN int kti_sm_sync(kti_sm_worker *w);

/* ---- symmetry classes and the user's callback (classes.c) ---- */

typedef struct kti_sm_deliv {
    const kti_sm_plan *S;
    const kt_allocator *al;
    kt_semimagic_fn fn;
    void *user;
    uint64_t nclasses, nsol;
    uint64_t nreps;   /* ALL mode: numberings that are their class's representative */
    uint16_t *keys;   /* nclasses * N */
    uint32_t *counts; /* reports per class (ALL mode) */
    size_t cap;
} kti_sm_deliv;

/* Whether num (satisfying the constraints) is the one numbering that
 * reports its orbit; a pure function of num, so each orbit is reported
 * exactly once whatever the search order, thread count or shard. */
KTI_HIDDEN int kti_sm_designated(const kti_sm_plan *S, const uint16_t *num);
/* Report a designated numbering (its class, and its reversal's); KT_OK,
 * KT_ECANCELED when the callback asked to stop, or KT_ENOMEM. */
KTI_HIDDEN kt_status kti_sm_deliver(kti_sm_deliv *D, const uint16_t *num);

/* ---- checkpoints (checkpoint.c) ---- */

/* What a checkpoint holds: the units of this shard delivered and the
 * counts reported with them; key names the search (kti_sm_ck_key). */
typedef struct kti_sm_ck {
    uint64_t key, delivered, classes, solutions;
} kti_sm_ck;

/* A hash of everything that decides a search's units and their order. */
KTI_HIDDEN uint64_t kti_sm_ck_key(const kt_semimagic_opts *o, kt_semimagic_symmetry sym,
                                  uint32_t shard, uint32_t nshards, size_t units);
/* Write ck to path (through path.tmp and a rename); KT_EIO on failure. */
KTI_HIDDEN kt_status kti_sm_ck_save(const char *path, const kt_allocator *al, const kti_sm_ck *ck);
/* Read path: KT_ENOTFOUND when absent, KT_EIO when damaged, KT_EMISMATCH
 * for another search's file. */
KTI_HIDDEN kt_status kti_sm_ck_load(const char *path, uint64_t key, kti_sm_ck *ck);

/* ---- the search calls (deliver.c) ---- */

/* kt_semimagic_search with resolved run settings and the reporting mode
 * sym; *nodes (if not NULL) receives the search nodes spent, which for a
 * search run to the end is the same for every thread count. */
KTI_HIDDEN kt_status kti_sm_run_search(const kt_semimagic_opts *o, kt_semimagic_symmetry sym,
                                       const kti_run *r, kt_semimagic_fn fn, void *user,
                                       uint64_t *classes, uint64_t *solutions, uint64_t *nodes);

#endif /* KNIGHT_SEMIMAGIC_INTERNAL_H */
