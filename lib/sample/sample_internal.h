/* SPDX-License-Identifier: MIT */
/*
 * Internal: the uniform tour sampler (sample.h).  A frontier dynamic
 * programme of its own (the counting module's engine is tuned for one
 * pass and keeps no layers; this one keeps every layer): plan.c orders the
 * board and defines the transition of one cell, table.c runs the
 * programme forward to find the reachable states of every layer and then
 * backward to count the completions of each, sample.c walks forward
 * through the stored counts.  Not installed.
 */
#ifndef KNIGHT_SAMPLE_INTERNAL_H
#define KNIGHT_SAMPLE_INTERNAL_H

#include "internal.h"
#include <knight/sample.h>

#include "halftour/halftour_internal.h"

/* Post slots of a state: 4 bits each in the low 60 bits of a key (the
 * frontier of a knight board 7 wide is 15 cells). */
#define KTI_SMP_MAXS 15u
/* Working slots while a cell is processed: the frontier plus the cell. */
#define KTI_SMP_MAXW 16u
/* The choices of one cell: no edge back, one, or two of its back edges. */
#define KTI_SMP_MAXCH (1u + KT_MOVE_COUNT + KT_MOVE_COUNT * (KT_MOVE_COUNT - 1u) / 2u)
/* Progress units per cell and pass. */
#define KTI_SMP_UNITS 1024u
/* The key of the one state after the last cell (a finished tour). */
#define KTI_SMP_ACCEPT 0u
/* What a vertex may be at the end: interior only, an end if the free-end
 * budget allows, or an end necessarily (a given start or end). */
enum { KTI_SMP_INNER = 0, KTI_SMP_MAYEND = 1, KTI_SMP_MUSTEND = 2 };

/* One cell of the processing order. */
typedef struct kti_sstep {
    uint8_t npre, npost, nback;
    bool last;
    uint8_t back_slot[KT_MOVE_COUNT];  /* frontier slot of each earlier neighbour */
    uint8_t back_move[KT_MOVE_COUNT];  /* the move from this cell to it */
    uint8_t leave[KTI_SMP_MAXW];       /* per working slot: leaves after this cell */
    uint8_t role[KTI_SMP_MAXW];        /* per working slot: KTI_SMP_* */
    uint8_t post[KTI_SMP_MAXS];        /* working slot of each post slot */
    uint8_t fut[KTI_SMP_MAXS];         /* later neighbours of each post slot */
    uint8_t colour[KTI_SMP_MAXS];      /* colour of each post slot's cell */
    int32_t ubal;           /* 2 (cells of colour 0 - of colour 1) not yet processed */
    uint32_t must_open;     /* given ends not yet retired */
} kti_sstep;

/* The board in processing order. */
typedef struct kti_splan {
    uint32_t n;
    bool open;
    bool bipartite;         /* the leaper alternates colours (a + b odd) */
    unsigned free_ends;     /* path ends not fixed by the caller (0, 1 or 2) */
    kt_cell *cell;          /* per vertex: its cell */
    kti_sstep *st;          /* per vertex */
} kti_splan;

/* The choices of a cell: pairs of back-edge indices, 0xFF = none. */
typedef struct kti_schoice {
    uint8_t n;
    uint8_t e[KTI_SMP_MAXCH][2];
} kti_schoice;

/* One layer: the live states after a number of cells, keys sorted, and
 * the number of ways each can be completed to a tour. */
typedef struct kti_slayer {
    uint64_t n;
    uint64_t *key;
    kti_u128 *cnt;
} kti_slayer;

struct kt_sampler {
    kt_graph *g;            /* holds a reference */
    kt_allocator alloc;     /* the one the sampler was made with */
    kti_splan plan;
    kti_slayer *layer;      /* plan.n + 1 layers */
    kti_u128 total;
    kt_sample_stats stats;
    kti_hsampler *hs;       /* not NULL: tours by half-tours, no layers */
    bool open;              /* hs: open tours */
    kt_cell start, end;     /* the given ends of open tours, or KT_CELL_NONE */
    bool whole;             /* every tour of its kind (not a shard of the join's):
                             * a set the board's symmetries keep */
};

/* A sampler of the closed tours of g (a knight's board without holes, at
 * most 8 columns) by McKay's half-tours, cut below row split: the path
 * kt_sampler_new() takes where the frontier is too wide (8x8); here for
 * the tests on small boards and the benchmark.  Shard i of N (run): only
 * the tours whose upper type falls in the join's shard i (a sample of the
 * 8x8 sampler's draws for the benchmark, without its whole preparation). */
KTI_HIDDEN kt_status kti_sampler_new_halftours(kt_sampler **out, const kt_graph *g, uint32_t split,
                                               const kt_options *run);
/* The same for open tours (undirected) with the given ends or
 * KT_CELL_NONE: the path kt_sampler_new() takes for open tours of boards
 * of 7 columns from 7x7 on. */
KTI_HIDDEN kt_status kti_sampler_new_halftours_open(kt_sampler **out, const kt_graph *g,
                                                    uint32_t split, kt_cell start, kt_cell end,
                                                    const kt_options *run);
/* Either, with flags of kti_hsampler_new (KTI_HS_*): with no half listed,
 * every half-tour drawn or ranked through its structure's own count
 * (hpaths.c), the path of halves too large to list (the 7x5 half of open
 * 7x9), here on small boards for the tests; merged (open tours): every
 * half enumerated as the count does it, merged and in shards where it has
 * 4 rows (the path of open 8x8's halves); small blocks (open tours): the
 * draws' proposals resume their searches mid-type. */
KTI_HIDDEN kt_status kti_sampler_new_halftours_flags(kt_sampler **out, const kt_graph *g,
                                                     uint32_t split, bool open, unsigned flags,
                                                     kt_cell start, kt_cell end,
                                                     const kt_options *run);

KTI_HIDDEN kt_status kti_splan_build(kti_splan *p, const kt_graph *g, bool open, kt_cell start,
                                     kt_cell end, const kt_allocator *al);
KTI_HIDDEN void kti_splan_free(kti_splan *p, const kt_allocator *al);
/* The choices of step t, in the fixed order that ranks follow. */
KTI_HIDDEN void kti_schoices(const kti_sstep *s, kti_schoice *c);
/* All choices of step s at once: next[c] is the state after choice c, or
 * KTI_SMP_NONE; returns how many are states (one decode for all). */
#define KTI_SMP_NONE UINT64_MAX
KTI_HIDDEN unsigned kti_sexpand(const kti_splan *p, const kti_sstep *s, const kti_schoice *ch,
                                uint64_t key, uint64_t *next);
/* The forward and backward passes (table.c): fills s->layer and s->total. */
KTI_HIDDEN kt_status kti_stable_build(kt_sampler *s, const kti_run *run);
KTI_HIDDEN void kti_stable_free(kt_sampler *s);
/* The count stored for key in layer l, 0 if the state is not there. */
KTI_HIDDEN kti_u128 kti_slayer_count(const kti_slayer *l, uint64_t key);

#endif /* KNIGHT_SAMPLE_INTERNAL_H */
