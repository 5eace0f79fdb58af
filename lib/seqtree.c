/* SPDX-License-Identifier: MIT */
/*
 * Implicit treaps with lazy reversal (see seqtree.h).
 */
#include "seqtree.h"

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
    return x == NIL ? 0 : s->size[x];
}

static inline void update(kti_seq *s, uint32_t x)
{
    s->size[x] = 1 + sz(s, s->left[x]) + sz(s, s->right[x]);
}

/* Apply x's pending reversal to its children. */
static inline void push(kti_seq *s, uint32_t x)
{
    if (!s->rev[x]) return;
    uint32_t l = s->left[x], r = s->right[x];
    s->left[x] = r;
    s->right[x] = l;
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
    if (n >= NIL || !kti_mul_ok(n ? n : 1, sizeof(uint32_t), &bytes)) return KT_ETOOBIG;
    s->left = kti_alloc(al, bytes);
    s->right = kti_alloc(al, bytes);
    s->parent = kti_alloc(al, bytes);
    s->size = kti_alloc(al, bytes);
    s->rev = kti_calloc(al, n ? n : 1, 1);
    if (s->left == NULL || s->right == NULL || s->parent == NULL || s->size == NULL ||
        s->rev == NULL) {
        kti_seq_free(s);
        return KT_ENOMEM;
    }
    memset(s->left, 0xFF, bytes);
    memset(s->right, 0xFF, bytes);
    memset(s->parent, 0xFF, bytes);
    for (size_t i = 0; i < n; i++) s->size[i] = 1;
    return KT_OK;
}

void kti_seq_free(kti_seq *s)
{
    if (s->al == NULL) return; /* never initialised */
    kti_free(s->al, s->left);
    kti_free(s->al, s->right);
    kti_free(s->al, s->parent);
    kti_free(s->al, s->size);
    kti_free(s->al, s->rev);
    s->left = s->right = s->parent = s->size = NULL;
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
        s->left[x] = last;
        if (last != NIL) s->parent[last] = x;
        if (top > 0) {
            s->right[stack[top - 1]] = x;
            s->parent[x] = stack[top - 1];
        }
        stack[top++] = x;
    }
    while (top > 0) update(s, stack[--top]);
    uint32_t root = k ? stack[0] : NIL;
    if (root != NIL) s->parent[root] = NIL;
    return root;
}

uint32_t kti_seq_root(const kti_seq *s, uint32_t x)
{
    while (s->parent[x] != NIL) x = s->parent[x];
    return x;
}

size_t kti_seq_index(const kti_seq *s, uint32_t x)
{
    /* f(y) = xor of the pending flags of y and its ancestors: y's children
     * are swapped when it is set.  One walk for f(x), one to add up. */
    unsigned f = 0;
    for (uint32_t y = x; y != NIL; y = s->parent[y]) f ^= s->rev[y];
    size_t idx = sz(s, f ? s->right[x] : s->left[x]);
    for (uint32_t y = x, p = s->parent[x]; p != NIL; y = p, p = s->parent[p]) {
        f ^= s->rev[y]; /* now f(p) */
        uint32_t eleft = f ? s->right[p] : s->left[p];
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
    size_t ls = sz(s, s->left[t]);
    if (k <= ls) {
        uint32_t x, y;
        split_rec(s, s->left[t], k, &x, &y);
        s->left[t] = y;
        if (y != NIL) s->parent[y] = t;
        update(s, t);
        *a = x;
        *b = t;
    } else {
        uint32_t x, y;
        split_rec(s, s->right[t], k - ls - 1, &x, &y);
        s->right[t] = x;
        if (x != NIL) s->parent[x] = t;
        update(s, t);
        *a = t;
        *b = y;
    }
}

void kti_seq_split(kti_seq *s, uint32_t root, size_t k, uint32_t *first, uint32_t *rest)
{
    split_rec(s, root, k, first, rest);
    if (*first != NIL) s->parent[*first] = NIL;
    if (*rest != NIL) s->parent[*rest] = NIL;
}

static uint32_t join_rec(kti_seq *s, uint32_t a, uint32_t b)
{
    if (a == NIL) return b;
    if (b == NIL) return a;
    if (prio(a) > prio(b)) {
        push(s, a);
        uint32_t r = join_rec(s, s->right[a], b);
        s->right[a] = r;
        s->parent[r] = a;
        update(s, a);
        return a;
    }
    push(s, b);
    uint32_t l = join_rec(s, a, s->left[b]);
    s->left[b] = l;
    s->parent[l] = b;
    update(s, b);
    return b;
}

uint32_t kti_seq_join(kti_seq *s, uint32_t a, uint32_t b)
{
    uint32_t r = join_rec(s, a, b);
    if (r != NIL) s->parent[r] = NIL;
    return r;
}

uint32_t kti_seq_rotate(kti_seq *s, uint32_t root, size_t k)
{
    if (k == 0) return root;
    uint32_t a, b;
    kti_seq_split(s, root, k, &a, &b);
    return kti_seq_join(s, b, a);
}
