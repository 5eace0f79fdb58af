/* SPDX-License-Identifier: MIT */
/*
 * Internal: the frontier (transfer-matrix) dynamic programme behind
 * count.c.  It counts Hamiltonian cycles (or paths) of an ordered graph
 * whose edges carry a voltage in Z_q (q = 1, 2 or 4), so that the same
 * engine counts tours of a board and symmetric tours through the quotient
 * of the board by a symmetry.  Not installed.
 */
#ifndef KNIGHT_COUNT_FRONTIER_H
#define KNIGHT_COUNT_FRONTIER_H

#include "internal.h"
#include <knight/count.h>


/* An ordered graph: vertices 0..n-1 are processed in this order. */
typedef struct kti_cgraph {
    uint32_t n;
    uint32_t *start;        /* n + 1 offsets into to[] / volt[] */
    uint32_t *to;           /* neighbours (multi-edges allowed, no loops) */
    uint8_t *volt;          /* voltage of the edge v -> to, in Z_q */
    uint8_t *end_ok;        /* open mode: 1 if the vertex may be a path end */
    unsigned q;             /* 1, 2 or 4 */
    bool open;              /* count Hamiltonian paths instead of cycles */
    uint64_t tag;           /* identifies the problem in checkpoints (set only with one) */
} kti_cgraph;

/* The settings of one frontier count, resolved by the caller (count.c). */
typedef struct kti_frontier_opts {
    unsigned threads;           /* at least 1, at most KT_THREADS_MAX */
    uint32_t shard_index, shard_count; /* shard_count >= 1 */
    const char *checkpoint;     /* NULL: none */
    double checkpoint_interval; /* seconds between checkpoint writes */
    uint32_t kind;              /* which count (quotient, open), recorded in the checkpoint */
    kt_progress_fn progress;
    void *progress_user;
    uint64_t progress_base;     /* added to done; total is progress_total */
    uint64_t progress_total;    /* 0: this run alone */
    const kt_allocator *alloc;
    uint64_t budget;            /* 0: no limit, else KT_ELIMIT when a layer holds more states */
    size_t lookahead_bytes;     /* 0: KTI_LOOKAHEAD_BYTES */
    bool exists_only;           /* counts clamped to 0/1 after every layer */
    bool known_zero;            /* the caller proved the count is 0: only check that it fits */
    kt_trace_fn trace;          /* NULL, or called after each vertex with the layer size */
    void *trace_user;
    /* statistics (out) */
    uint64_t peak_states;
    uint64_t peak_bytes;
    uint32_t max_slots;
} kti_frontier_opts;

/* Count; *out receives the number of undirected cycles (paths) of cg. */
KTI_HIDDEN kt_status kti_frontier_count(const kti_cgraph *cg, kti_frontier_opts *o, kti_u128 *out);
/* Whether g has a closed tour (count.c), by the frontier DP with clamped
 * counts; statuses as kti_path_exists().  Settles joins on masked boards. */
KTI_HIDDEN kt_status kti_tour_exists(const kt_graph *g, uint64_t max_states, bool *yes);
/* Whether g has a Hamiltonian path from a to b (count.c), by the frontier
 * DP with clamped counts; KT_ELIMIT when a layer passes max_states (0: no
 * limit), KT_EUNSUPPORTED when the frontier is too wide.  Decides open
 * tours with given ends on narrow boards (generate/open.c). */
KTI_HIDDEN kt_status kti_path_exists(const kt_graph *g, kt_cell a, kt_cell b, uint64_t max_states,
                                     bool *yes);
/* Whether a run asks for none of the frontier's own settings (shards,
 * layer budget, checkpoint, layer trace): only then may a count leave the
 * frontier for the search of small.c or McKay's half-tours, which honour
 * none of them. */
static inline bool kti_run_plain(const kti_run *run)
{
    return run->nshards <= 1 && run->budget == 0 && run->checkpoint == NULL && run->trace == NULL;
}
/* Whether the depth-first search of small.c counts g's tours (open or
 * closed) faster than the frontier: a knight board without holes, both
 * sides at least 3, at most 32 cells, or when at least 5 wide 36 (open) or
 * 40 (closed). */
KTI_HIDDEN bool kti_small_suits(const kt_graph *g, bool open);
/* Tours of such a board by that search, on the calling thread: undirected
 * closed tours (!open), undirected open tours (no end given), or directed
 * open tours from start (to end), or ending on end.  Reports progress and
 * may return KT_ECANCELED (*out then unchanged); memory: a memo of 1 or 2
 * MiB on boards of more than 25 cells once the search is not short,
 * skipped if it cannot be had. */
KTI_HIDDEN kt_status kti_small_count(const kt_graph *g, bool open, kt_cell start, kt_cell end,
                                     const kti_run *run, kti_u128 *out);
/* Whether kti_halves_count() suits g (halves.c): a knight board without
 * holes 5 to 8 cells wide whose halves hold at most 32 cells (40 for
 * closed tours 8 wide), and a run that asks for none of the frontier's own
 * settings. */
KTI_HIDDEN bool kti_halves_suit(const kt_graph *g, bool open, const kti_run *run);
/* g's undirected closed tours, or open tours (from start, to end, as
 * kti_small_count()), by the public half-tour counts of halftour.h. */
KTI_HIDDEN kt_status kti_halves_count(const kt_graph *g, bool open, kt_cell start, kt_cell end,
                                      const kti_run *run, kti_u128 *out);
/* Memory for the demand-vector lookahead (bitsets of the last steps). */
#define KTI_LOOKAHEAD_BYTES ((size_t)1 << 30)
/* Lookahead bytes per state of a caller's budget: a count allowed B states
 * per layer builds at most B * this much lookahead, so a small budget gives
 * KT_ELIMIT at once instead of after a 1 GiB build (8x8: 10 s). */
#define KTI_LOOKAHEAD_PER_STATE 64u
/* The widest frontier the state encoding holds (MAXS of frontier.c). */
#define KTI_FRONTIER_MAX_SLOTS 17u
/* Progress units per vertex. */
#define KTI_FRONTIER_UNITS 1024u

/* Image of cell c (y * w + x) of a w x h board under symmetry k of the
 * board: 0-3 the rectangle's (identity, mirror in x, in y, half turn),
 * 4-7 the square's others (w == h).  Every leaper's graph on a board
 * without holes is invariant under them; the small search and the table
 * of tours by start cell (bystart.c) use them to search one start cell
 * per class. */
static inline unsigned kti_cell_image(unsigned w, unsigned h, unsigned c, unsigned k)
{
    unsigned x = c % w, y = c / w, X = x, Y = y;
    switch (k) {
    case 1: X = w - 1 - x; break;
    case 2: Y = h - 1 - y; break;
    case 3: X = w - 1 - x; Y = h - 1 - y; break;
    case 4: X = y; Y = x; break;
    case 5: X = h - 1 - y; Y = x; break;
    case 6: X = y; Y = w - 1 - x; break;
    case 7: X = h - 1 - y; Y = w - 1 - x; break;
    default: break;
    }
    return Y * w + X;
}

#endif /* KNIGHT_COUNT_FRONTIER_H */
