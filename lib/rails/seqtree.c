/* SPDX-License-Identifier: MIT */
/*
 * Implicit treaps with lazy reversal (see rails_internal.h).
 */
#include "rails_internal.h"

#define NIL KTI_SEQ_NIL

/* A bijection of 32-bit values (odd multipliers and xor-shifts): distinct
 * nodes never tie, and the trees are as balanced as random ones. */
static inline uint32_t prio(uint32_t x)
{
    x *= 0x9E3779B1u;
    x ^= x >> 16;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    x *= 0xC2B2AE35u;
    x ^= x >> 16;
    return x;
}

static inline uint32_t sz(const kti_seq *s, uint32_t x)
{
    return x == NIL ? 0 : s->node[x].size;
}

static inline void update(kti_seq *s, uint32_t x)
{
    s->node[x].size = 1 + sz(s, s->node[x].left) + sz(s, s->node[x].right);
}

#ifndef NDEBUG
/* Debug builds: the treap invariants at node x.  Its size is one more than
 * its children's, its children point back to it, and neither child
 * outranks it (the priorities form a max-heap).  Split and join call this
 * on every node they rebuild; the nodes they do not reach keep their
 * children and sizes, so the whole forest stays valid by induction, at
 * O(1) per node visited (no change to the O(log n) cost).  Release builds
 * (NDEBUG) compile it away. */
static void check_node(const kti_seq *s, uint32_t x)
{
    const kti_seq_node *nd = &s->node[x];
    KTI_ASSERT(nd->size == 1 + sz(s, nd->left) + sz(s, nd->right));
    if (nd->left != NIL) {
        KTI_ASSERT(s->node[nd->left].parent == x);
        KTI_ASSERT(prio(nd->left) < prio(x));
    }
    if (nd->right != NIL) {
        KTI_ASSERT(s->node[nd->right].parent == x);
        KTI_ASSERT(prio(nd->right) < prio(x));
    }
}

/* Debug builds: a sequence's root has no parent and the expected length. */
static void check_root(const kti_seq *s, uint32_t root, size_t len)
{
    if (root == NIL) {
        KTI_ASSERT(len == 0);
        return;
    }
    KTI_ASSERT(s->node[root].parent == NIL);
    KTI_ASSERT(s->node[root].size == len);
    check_node(s, root);
}
#define CHECK_NODE(s, x) check_node(s, x)
#define CHECK_ROOT(s, root, len) check_root(s, root, len)
#else
#define CHECK_NODE(s, x) ((void)0)
#define CHECK_ROOT(s, root, len) ((void)0)
#endif

/* Apply x's pending reversal to its children. */
static inline void push(kti_seq *s, uint32_t x)
{
    if (!s->rev[x]) return;
    uint32_t l = s->node[x].left, r = s->node[x].right;
    s->node[x].left = r;
    s->node[x].right = l;
    if (l != NIL) s->rev[l] ^= 1u;
    if (r != NIL) s->rev[r] ^= 1u;
    s->rev[x] = 0;
}

kt_status kti_seq_init(kti_seq *s, const kt_allocator *al, size_t n)
{
    memset(s, 0, sizeof *s);
    s->al = al;
    s->n = n;
    size_t bytes;
    if (n >= NIL || !kti_mul_ok(n ? n : 1, sizeof(kti_seq_node), &bytes)) return KT_ETOOBIG;
    s->node = kti_alloc(al, bytes);
    s->rev = kti_calloc(al, n ? n : 1, 1);
    if (s->node == NULL || s->rev == NULL) {
        kti_seq_free(s);
        return KT_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) s->node[i] = (kti_seq_node){NIL, NIL, NIL, 1};
    return KT_OK;
}

void kti_seq_free(kti_seq *s)
{
    if (s->al == NULL) return; /* never initialised */
    kti_free(s->al, s->node);
    kti_free(s->al, s->rev);
    s->node = NULL;
    s->rev = NULL;
}

uint32_t kti_seq_build(kti_seq *s, const uint32_t *order, size_t k, uint32_t *stack)
{
    /* Cartesian tree by priority with a stack: a node popped from the stack
     * gets no more children, so its size is final then. */
    size_t top = 0;
    for (size_t i = 0; i < k; i++) {
        uint32_t x = order[i], last = NIL, px = prio(x);
        while (top > 0 && prio(stack[top - 1]) < px) {
            last = stack[--top];
            update(s, last);
        }
        s->node[x].left = last;
        if (last != NIL) s->node[last].parent = x;
        if (top > 0) {
            s->node[stack[top - 1]].right = x;
            s->node[x].parent = stack[top - 1];
        }
        stack[top++] = x;
    }
    while (top > 0) update(s, stack[--top]);
    uint32_t root = k ? stack[0] : NIL;
    if (root != NIL) s->node[root].parent = NIL;
    CHECK_ROOT(s, root, k);
    return root;
}

uint32_t kti_seq_root(const kti_seq *s, uint32_t x)
{
    while (s->node[x].parent != NIL) x = s->node[x].parent;
    return x;
}

size_t kti_seq_index(const kti_seq *s, uint32_t x)
{
    /* f(y) = xor of the pending flags of y and its ancestors: y's children
     * are swapped when it is set.  One walk for f(x), one to add up. */
    unsigned f = 0;
    for (uint32_t y = x; y != NIL; y = s->node[y].parent) f ^= s->rev[y];
    size_t idx = sz(s, f ? s->node[x].right : s->node[x].left);
    for (uint32_t y = x, p = s->node[x].parent; p != NIL; y = p, p = s->node[p].parent) {
        f ^= s->rev[y]; /* now f(p) */
        uint32_t eleft = f ? s->node[p].right : s->node[p].left;
        if (y != eleft) idx += (size_t)sz(s, eleft) + 1;
    }
    return idx;
}

static void split_rec(kti_seq *s, uint32_t t, size_t k, uint32_t *a, uint32_t *b)
{
    if (t == NIL) {
        *a = *b = NIL;
        return;
    }
    push(s, t);
    size_t ls = sz(s, s->node[t].left);
    if (k <= ls) {
        uint32_t x, y;
        split_rec(s, s->node[t].left, k, &x, &y);
        s->node[t].left = y;
        if (y != NIL) s->node[y].parent = t;
        update(s, t);
        CHECK_NODE(s, t);
        *a = x;
        *b = t;
    } else {
        uint32_t x, y;
        split_rec(s, s->node[t].right, k - ls - 1, &x, &y);
        s->node[t].right = x;
        if (x != NIL) s->node[x].parent = t;
        update(s, t);
        CHECK_NODE(s, t);
        *a = t;
        *b = y;
    }
}

void kti_seq_split(kti_seq *s, uint32_t root, size_t k, uint32_t *first, uint32_t *rest)
{
#ifndef NDEBUG
    size_t len = kti_seq_len(s, root), k1 = k < len ? k : len;
#endif
    split_rec(s, root, k, first, rest);
    if (*first != NIL) s->node[*first].parent = NIL;
    if (*rest != NIL) s->node[*rest].parent = NIL;
    CHECK_ROOT(s, *first, k1);
    CHECK_ROOT(s, *rest, len - k1);
}

static uint32_t join_rec(kti_seq *s, uint32_t a, uint32_t b)
{
    if (a == NIL) return b;
    if (b == NIL) return a;
    if (prio(a) > prio(b)) {
        push(s, a);
        uint32_t r = join_rec(s, s->node[a].right, b);
        s->node[a].right = r;
        s->node[r].parent = a;
        update(s, a);
        CHECK_NODE(s, a);
        return a;
    }
    push(s, b);
    uint32_t l = join_rec(s, a, s->node[b].left);
    s->node[b].left = l;
    s->node[l].parent = b;
    update(s, b);
    CHECK_NODE(s, b);
    return b;
}

uint32_t kti_seq_join(kti_seq *s, uint32_t a, uint32_t b)
{
#ifndef NDEBUG
    size_t len = kti_seq_len(s, a) + kti_seq_len(s, b);
    KTI_ASSERT(a == NIL || s->node[a].parent == NIL);
    KTI_ASSERT(b == NIL || s->node[b].parent == NIL);
#endif
    uint32_t r = join_rec(s, a, b);
    if (r != NIL) s->node[r].parent = NIL;
    CHECK_ROOT(s, r, len);
    return r;
}

uint32_t kti_seq_rotate(kti_seq *s, uint32_t root, size_t k)
{
    if (k == 0) return root;
    uint32_t a, b;
    kti_seq_split(s, root, k, &a, &b);
    return kti_seq_join(s, b, a);
}
