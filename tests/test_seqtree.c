/* SPDX-License-Identifier: MIT */
/* The sequence trees of lib/rails/seqtree.c (the rails handle's cycles) against a
 * plain array model: random splits, joins, reversals and rotations, every
 * node's index and root checked after each step. */
#include "rails/rails_internal.h"

#include "check.h"

#define N 600
#define MAXSEQ N

typedef struct model {
    uint32_t item[MAXSEQ][N]; /* sequence s: item[s][0 .. len[s]-1] */
    size_t len[MAXSEQ];
    uint32_t root[MAXSEQ];
    size_t nseq;
} model;

static uint64_t rng = 0x2545F4914F6CDD1Du;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void verify(const kti_seq *s, const model *m)
{
    size_t total = 0;
    for (size_t q = 0; q < m->nseq; q++) {
        CHECK_EQ_U64(kti_seq_len(s, m->root[q]), m->len[q]);
        for (size_t i = 0; i < m->len[q]; i++) {
            uint32_t x = m->item[q][i];
            CHECK_EQ_U64(kti_seq_index(s, x), i);
            CHECK_EQ_U64(kti_seq_root(s, x), m->root[q]);
        }
        total += m->len[q];
    }
    CHECK_EQ_U64(total, N);
}

static void remove_seq(model *m, size_t q)
{
    m->nseq--;
    if (q != m->nseq) {
        memcpy(m->item[q], m->item[m->nseq], m->len[m->nseq] * sizeof(uint32_t));
        m->len[q] = m->len[m->nseq];
        m->root[q] = m->root[m->nseq];
    }
}

int main(void)
{
    static model m;
    kti_seq s;
    CHECK_ST(kti_seq_init(&s, &kti_default_allocator, N), KT_OK);
    static uint32_t stack[N];
    /* start: a shuffled permutation cut into 12 sequences */
    uint32_t perm[N];
    for (uint32_t i = 0; i < N; i++) perm[i] = i;
    for (uint32_t i = N - 1; i > 0; i--) {
        uint32_t j = (uint32_t)(next() % (i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    m.nseq = 12;
    for (size_t q = 0, at = 0; q < m.nseq; q++) {
        size_t len = N / m.nseq;
        memcpy(m.item[q], perm + at, len * sizeof(uint32_t));
        m.len[q] = len;
        m.root[q] = kti_seq_build(&s, m.item[q], len, stack);
        at += len;
    }
    verify(&s, &m);
    for (int step = 0; step < 3000 && check_failures == 0; step++) {
        size_t q = (size_t)(next() % m.nseq);
        switch (next() % 4) {
        case 0: { /* split */
            size_t k = (size_t)(next() % (m.len[q] + 1));
            uint32_t a, b;
            kti_seq_split(&s, m.root[q], k, &a, &b);
            if (k == 0 || k == m.len[q]) {
                CHECK(k == 0 ? a == KTI_SEQ_NIL && b == m.root[q] : b == KTI_SEQ_NIL);
                m.root[q] = k == 0 ? b : a;
                break;
            }
            size_t r = m.nseq++;
            memcpy(m.item[r], m.item[q] + k, (m.len[q] - k) * sizeof(uint32_t));
            m.len[r] = m.len[q] - k;
            m.root[r] = b;
            m.len[q] = k;
            m.root[q] = a;
            break;
        }
        case 1: { /* join two */
            size_t r = (size_t)(next() % m.nseq);
            if (r == q) break;
            memcpy(m.item[q] + m.len[q], m.item[r], m.len[r] * sizeof(uint32_t));
            m.len[q] += m.len[r];
            m.root[q] = kti_seq_join(&s, m.root[q], m.root[r]);
            remove_seq(&m, r);
            break;
        }
        case 2: /* reverse */
            kti_seq_reverse(&s, m.root[q]);
            for (size_t i = 0, j = m.len[q] - 1; i < j; i++, j--) {
                uint32_t t = m.item[q][i];
                m.item[q][i] = m.item[q][j];
                m.item[q][j] = t;
            }
            break;
        default: { /* rotate */
            size_t k = (size_t)(next() % m.len[q]);
            m.root[q] = kti_seq_rotate(&s, m.root[q], k);
            uint32_t tmp[N];
            for (size_t i = 0; i < m.len[q]; i++) tmp[i] = m.item[q][(i + k) % m.len[q]];
            memcpy(m.item[q], tmp, m.len[q] * sizeof(uint32_t));
            break;
        }
        }
        verify(&s, &m);
    }
    /* depth stays logarithmic: one long sequence of every node */
    while (m.nseq > 1) {
        m.root[0] = kti_seq_join(&s, m.root[0], m.root[m.nseq - 1]);
        m.nseq--;
    }
    size_t deepest = 0;
    for (uint32_t x = 0; x < N; x++) {
        size_t d = 0;
        for (uint32_t y = x; s.node[y].parent != KTI_SEQ_NIL; y = s.node[y].parent) d++;
        if (d > deepest) deepest = d;
    }
    CHECK(deepest < 40); /* 600 nodes: a random treap is about 20 deep */
    kti_seq_free(&s);
    kti_seq_free(&s); /* harmless twice */
    return check_done("seqtree");
}
