/* SPDX-License-Identifier: MIT */
/*
 * Internal: numbered knight's tours under line-sum constraints
 * (knight/semimagic.h).  The module is split along its seams:
 *   options.c  the options handle and the solution getters;
 *   plan.c     the static plan of one search (board masks, knight
 *              distances, lines, the symmetries that preserve the
 *              constraints, the root pairs) and the full check of a
 *              numbering (kt_semimagic_check);
 *   search.c   the search kernel (state updates, feasibility, the
 *              depth-first search) and the work units it is split into;
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
 * The tree is split into work units (prefixes of a few moves) that threads
 * search independently; results are delivered in unit order, which is the
 * sequential depth-first order.
 *
 * Two cell layouts: the public index y*n+x (numberings, options) and the
 * internal index y*8+x (bitboards); the plan converts (i2p, p2i).
 */
#ifndef KNIGHT_SEMIMAGIC_INTERNAL_H
#define KNIGHT_SEMIMAGIC_INTERNAL_H

#include "internal.h"

#include <knight/semimagic.h>

#define KTI_SM_MAXN 8
#define KTI_SM_MAXL 40   /* lines: 32 half-rows and half-columns, or 16 + 2 diagonals */
#define KTI_SM_NONE 0xFFu
#define KTI_SM_BIG (1 << 20)
#define KTI_SM_ODD 0x5555555555555555ull /* bit k-1 for odd k */
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

/* ---- the options handle and a reported solution (options.c) ---- */

struct kt_semimagic_opts {
    kt_allocator al;
    uint32_t n;            /* the side of a square board, 0 for a rectangle */
    uint32_t w, h;         /* width (columns) and height (rows) */
    unsigned flags;
    uint64_t startm, endm; /* public-index bitmasks; 0 = any */
    uint8_t given[64];     /* public index; 0 = free */
    kt_semimagic_symmetry sym;
};

struct kt_semimagic_solution {
    uint32_t n, w, h;
    uint32_t num[64];
    uint64_t cls;
    uint32_t size, member, nsat;
    int sat;
    uint64_t rev;
    int revsat;
};

/* ---- the static plan of one search (plan.c) ---- */

typedef struct kti_sm_line {
    uint64_t mask; /* internal cells */
    int target;
} kti_sm_line;

typedef struct kti_sm_plan {
    int n, N;  /* n: the width (the side of a square) */
    int h;     /* the height */
    size_t nb; /* N as a size */
    unsigned flags;
    uint64_t board;
    uint64_t att[64];
    uint8_t dist[64][64];
    int nl;
    kti_sm_line line[KTI_SM_MAXL];
    uint8_t nlof[64], lof[64][4];
    uint8_t col[64];
    int maxneed;
    /* gap[o][e][p]: least sum of offsets b_i >= 0 such that base + b_i are
     * o odd and e even numbers, pairwise at least 2 apart (two cells of a
     * line are never a knight's move apart); p = parity of the base. */
    int16_t gap[KTI_SM_MAXN + 1][KTI_SM_MAXN + 1][2];
    uint8_t given[64];      /* internal index */
    uint64_t startm, endm;  /* internal, never 0 */
    uint64_t rootend[64];   /* per start cell (internal): end cells searched */
    uint8_t symok[16];      /* symmetries (t & 7 board, t & 8 reversal) preserving the constraints */
    uint8_t i2p[64], p2i[64];
    uint8_t tmap[8][64];    /* public cell -> image public cell */
    kt_semimagic_symmetry sym;
} kti_sm_plan;

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
KTI_HIDDEN int kti_sm_check(const kti_sm_plan *S, const uint8_t *num);
/* Image of a numbering under symmetry t (board map t & 7, reversal if t & 8). */
KTI_HIDDEN void kti_sm_image(const kti_sm_plan *S, int t, const uint8_t *num, uint8_t *img);

/* ---- the search kernel (search.c) ---- */

typedef struct kti_sm_state {
    uint64_t unvis; /* cells not yet on the path */
    uint64_t asg;   /* cells with a number (on the path, given or pencilled) */
    uint64_t freen; /* bit k-1: number k not assigned to any cell */
    int lo, hi;     /* next numbers to place at the low and high ends */
    int oddcol;     /* colour of the cells holding odd numbers */
    uint8_t val[64];
    uint8_t pos[66];
    int16_t lsum[KTI_SM_MAXL];
    uint8_t lrem[KTI_SM_MAXL][2]; /* free cells per colour */
    uint8_t lkey[KTI_SM_MAXL];    /* (free odd-number cells) * 9 + (free even-number cells) */
} kti_sm_state;

/* A work unit: the root pair and the first moves of the search. */
typedef struct kti_sm_prefix {
    uint8_t start, end, len;
    uint8_t step[KTI_SM_PREFIX_DEPTH]; /* cell | 0x80 when placed at the high end */
} kti_sm_prefix;

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
    uint8_t path[64];
    /* Called with a complete state (or a prefix leaf when limit >= 0);
     * non-zero aborts (after recording the reason in sh). */
    int (*emit)(kti_sm_worker *w, const kti_sm_state *st, int depth);
    /* Optional hook at every sync, on the calling thread only (progress);
     * non-zero aborts (after recording the reason in sh). */
    int (*tick)(kti_sm_worker *w);
    void *ctx;
    uint8_t start, end;
};

/* Record why the search stops (the first reason wins). */
KTI_HIDDEN void kti_sm_stop(kti_sm_shared *sh, kt_status why);
/* Depth-first search below st; non-zero when it was aborted. */
KTI_HIDDEN int kti_sm_dfs(kti_sm_worker *w, kti_sm_state *st, int depth);
/* Knuth's estimator of the number of search nodes below root (root
 * included, counted as kti_sm_dfs counts them): one random path down the
 * tree, the sum over its depths of the product of the branching factors.
 * Unbiased; averaged over several probes it sizes a work unit.  *cost
 * grows by the nodes the probe looked at. */
KTI_HIDDEN double kti_sm_probe(const kti_sm_plan *S, const kti_sm_state *root, kti_rng *rng,
                               uint64_t *cost);
/* Rebuild the state at a work unit; false if it fails (it cannot: the
 * unit was reached by the same moves). */
KTI_HIDDEN bool kti_sm_replay(const kti_sm_plan *S, const kti_sm_prefix *p, kti_sm_state *st);
/* The work units of the whole search, in depth-first order (pl->v
 * allocated with al; the caller frees it also on failure). */
KTI_HIDDEN kt_status kti_sm_prefixes(const kti_sm_plan *S, kti_sm_shared *sh,
                                     const kt_allocator *al, kti_sm_plist *pl);
/* The public numbering of a complete state. */
KTI_HIDDEN void kti_sm_to_pub(const kti_sm_plan *S, const kti_sm_state *st, uint8_t *num);

/* ---- symmetry classes and the user's callback (classes.c) ---- */

typedef struct kti_sm_deliv {
    const kti_sm_plan *S;
    const kt_allocator *al;
    kt_semimagic_fn fn;
    void *user;
    uint64_t nclasses, nsol;
    uint64_t nreps;   /* ALL mode: numberings that are their class's representative */
    uint8_t *keys;    /* nclasses * N */
    uint32_t *counts; /* reports per class (ALL mode) */
    size_t cap;
} kti_sm_deliv;

/* Whether num (satisfying the constraints) is the one numbering that
 * reports its orbit; a pure function of num, so each orbit is reported
 * exactly once whatever the search order, thread count or shard. */
KTI_HIDDEN int kti_sm_designated(const kti_sm_plan *S, const uint8_t *num);
/* Report a designated numbering (its class, and its reversal's); KT_OK,
 * KT_ECANCELED when the callback asked to stop, or KT_ENOMEM. */
KTI_HIDDEN kt_status kti_sm_deliver(kti_sm_deliv *D, const uint8_t *num);

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

static inline int kti_sm_ctz(uint64_t x)
{
    return __builtin_ctzll(x);
}
static inline int kti_sm_popc(uint64_t x)
{
    return __builtin_popcountll(x);
}

/* Union of the knight moves from every cell of b (8-wide layout). */
static inline uint64_t kti_sm_katt(uint64_t b)
{
    uint64_t l1 = (b >> 1) & 0x7f7f7f7f7f7f7f7full, l2 = (b >> 2) & 0x3f3f3f3f3f3f3f3full;
    uint64_t r1 = (b << 1) & 0xfefefefefefefefeull, r2 = (b << 2) & 0xfcfcfcfcfcfcfcfcull;
    uint64_t h1 = l1 | r1, h2 = l2 | r2;
    return (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8);
}

#endif /* KNIGHT_SEMIMAGIC_INTERNAL_H */
