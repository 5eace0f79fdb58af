/* SPDX-License-Identifier: MIT */
/*
 * Internal: sequences of cells as implicit treaps with lazy reversal
 * (seqtree.c).  A forest over the nodes 0..n-1; each tree is one
 * sequence, ordered by its in-order traversal.  Split, join, reverse,
 * index of a node and root of a node each cost O(depth), O(log n)
 * expected: the priorities are a fixed hash of the node number, so the
 * result never depends on the order of operations and no state is
 * global.  The rails handle keeps one tree per cycle of a tourney, so a
 * switch inside a cycle can tell a split from a rewiring without walking
 * the cycle (an O(1) answer is impossible in general: Fredman, Johnson,
 * McGeoch and Ostheimer, "Data structures for traveling salesmen", 1995,
 * prove an Omega(log n / log log n) bound per operation for this task).
 */
#ifndef KNIGHT_SEQTREE_H
#define KNIGHT_SEQTREE_H

#include "internal.h"
#include <knight/rails.h>

#define KTI_SEQ_NIL UINT32_MAX

/* One node per element, 16 bytes, so a step down or up the tree touches
 * one cache line (plus the dense reversal flags). */
typedef struct kti_seq_node {
    uint32_t left, right, parent, size;
} kti_seq_node;

typedef struct kti_seq {
    kti_seq_node *node;
    uint8_t *rev;       /* the subtree's order is to be reversed (pending) */
    size_t n;
    const kt_allocator *al;
} kti_seq;

/* Room for n nodes (n < UINT32_MAX), every node a tree of its own. */
KTI_HIDDEN kt_status kti_seq_init(kti_seq *s, const kt_allocator *al, size_t n);
KTI_HIDDEN void kti_seq_free(kti_seq *s);

/* Make nodes order[0..k-1] (singletons) one sequence in that order, O(k);
 * stack has room for k entries.  Returns the root. */
KTI_HIDDEN uint32_t kti_seq_build(kti_seq *s, const uint32_t *order, size_t k, uint32_t *stack);

KTI_HIDDEN uint32_t kti_seq_root(const kti_seq *s, uint32_t x);
/* Position of x in its sequence, 0-based. */
KTI_HIDDEN size_t kti_seq_index(const kti_seq *s, uint32_t x);
static inline size_t kti_seq_len(const kti_seq *s, uint32_t root)
{
    return root == KTI_SEQ_NIL ? 0 : s->node[root].size;
}

/* Split the sequence of `root` after its first k nodes. */
KTI_HIDDEN void kti_seq_split(kti_seq *s, uint32_t root, size_t k, uint32_t *first,
                              uint32_t *rest);
/* Concatenate two sequences (either may be KTI_SEQ_NIL); returns the root. */
KTI_HIDDEN uint32_t kti_seq_join(kti_seq *s, uint32_t a, uint32_t b);
static inline void kti_seq_reverse(kti_seq *s, uint32_t root)
{
    if (root != KTI_SEQ_NIL) s->rev[root] ^= 1u;
}
/* Rotate so that position k comes first; returns the root. */
KTI_HIDDEN uint32_t kti_seq_rotate(kti_seq *s, uint32_t root, size_t k);

/* narrow.c: among all closed tours of g, one that keeps the most moves of
 * the move pairs mv (a tourney's), written to out (g->ncells bytes), by a
 * frontier dynamic programme along the long side.  KT_ENOTOUR when g has no
 * closed tour; KT_ENOTFOUND when the frontier is wider than 16 vertices or
 * more than max_states states would be stored (about 5 bytes each);
 * KT_ECANCELED from pr (ticked with done of total per vertex); KT_ENOMEM.
 * Linear in the vertices for a bounded frontier. */
KTI_HIDDEN kt_status kti_rails_nearest_tour(const kt_graph *g, const uint8_t *mv, uint8_t *out,
                                            size_t max_states, kti_progress *pr, uint64_t done,
                                            uint64_t total);

#endif /* KNIGHT_SEQTREE_H */
