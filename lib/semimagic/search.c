/* SPDX-License-Identifier: MIT */
/*
 * The search kernel (search_kernel.h) in its three instances, narrow
 * (boards of sides up to 8: cell and number sets in one 64-bit word, cell
 * index y*8+x), long (up to 4 rows of up to 16 cells: one word, y*16+x)
 * and wide (sides up to 16: sets of four words, y*16+x), the calls that
 * pick the instance of a plan, and the work units (prefixes)
 * the search tree is split into.  semimagic_internal.h describes the
 * pruning rules.
 */
#include "semimagic_internal.h"

void kti_sm_stop(kti_sm_shared *sh, kt_status why)
{
    int expected = KT_OK;
    atomic_compare_exchange_strong(&sh->status, &expected, (int)why);
}

/* Every KTI_SM_SYNC nodes (fewer under a small budget): add this thread's
 * nodes to the shared count, and stop when another thread stopped, the
 * budget is spent or the progress callback cancels.  Kept out of line:
 * the kernel pays one compare per node. */
__attribute__((noinline)) int kti_sm_sync(kti_sm_worker *w)
{
    kti_sm_shared *sh = w->sh;
    uint64_t total = atomic_fetch_add_explicit(&sh->nodes, w->nodes, memory_order_relaxed) + w->nodes;
    w->synced += w->nodes;
    w->nodes = 0;
    if (atomic_load_explicit(&sh->status, memory_order_relaxed) != KT_OK) return 1;
    if (sh->budget != 0 && total > sh->budget) {
        kti_sm_stop(sh, KT_ELIMIT);
        return 1;
    }
    return w->tick != NULL && w->tick(w);
}

static inline uint64_t sm_bitrev(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
    return __builtin_bswap64(x);
}

/* Bits [a, b) of a 64-bit word, 0 <= a <= b <= 64. */
static inline uint64_t sm_range64(int a, int b)
{
    uint64_t hi = b >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << b) - 1;
    return hi & ~((UINT64_C(1) << a) - 1);
}

/* ---- the one-word instances: stride 8 (sides up to 8), and stride 16
 * for at most 4 rows of up to 16 cells (the 4 x n boards) ---- */

typedef uint64_t sm_n_set;
typedef uint8_t sm_n_num;
typedef uint8_t sm_n_cell;

#define SMK_CELLS 64
#define SMK_MAXL 40 /* 32 half-rows and half-columns, or 16 + 2 diagonals */
#define SMK_WIDE 0
#define SMK_NONE 0xFFu
#define SMK_KEYK (KTI_SM_MAXN + 1)
#define smk_key uint8_t
#define smk_set sm_n_set
#define smk_num sm_n_num
#define smk_cell sm_n_cell
#define S_FROM(ws) ((ws).w[0])
#define S_ZERO UINT64_C(0)
#define S_AND(a, b) ((a) & (b))
#define S_OR(a, b) ((a) | (b))
#define S_ANDN(a, b) ((a) & ~(b))
#define S_NZ(a) ((a) != 0)
#define S_EQ(a, b) ((a) == (b))
#define S_BIT(i) (UINT64_C(1) << (i))
#define S_HAS(a, i) (((a) >> (i)) & 1)
#define S_CTZ(a) __builtin_ctzll(a)
#define S_HIGH(a) (63 - __builtin_clzll(a))
#define S_POPC(a) __builtin_popcountll(a)
#define S_DROP(a) ((a) & ((a) - 1))
#define S_MULTI(a) (((a) & ((a) - 1)) != 0)
#define S_SHL(a, k) ((a) << (k))
#define S_SHR(a, k) ((a) >> (k))
#define S_RANGE(a, b) sm_range64(a, b)
#define SMK_ODD UINT64_C(0x5555555555555555)
#define S_NOTODD UINT64_C(0xAAAAAAAAAAAAAAAA)

#define SMK(x) sm_n_##x
#define SMK_STRIDE 8
#define SMK_L1 UINT64_C(0x7f7f7f7f7f7f7f7f)
#define SMK_L2 UINT64_C(0x3f3f3f3f3f3f3f3f)
#define SMK_R1 UINT64_C(0xfefefefefefefefe)
#define SMK_R2 UINT64_C(0xfcfcfcfcfcfcfcfc)

#include "search_kernel.h"

#undef SMK
#undef SMK_STRIDE
#undef SMK_L1
#undef SMK_L2
#undef SMK_R1
#undef SMK_R2

#define SMK(x) sm_l_##x
#define SMK_STRIDE 16
#define SMK_L1 UINT64_C(0x7fff7fff7fff7fff)
#define SMK_L2 UINT64_C(0x3fff3fff3fff3fff)
#define SMK_R1 UINT64_C(0xfffefffefffefffe)
#define SMK_R2 UINT64_C(0xfffcfffcfffcfffc)

#include "search_kernel.h"

#undef SMK
#undef SMK_STRIDE
#undef SMK_L1
#undef SMK_L2
#undef SMK_R1
#undef SMK_R2
#undef SMK_CELLS
#undef SMK_MAXL
#undef SMK_WIDE
#undef SMK_NONE
#undef SMK_KEYK
#undef smk_key
#undef smk_set
#undef smk_num
#undef smk_cell
#undef S_FROM
#undef S_ZERO
#undef S_AND
#undef S_OR
#undef S_ANDN
#undef S_NZ
#undef S_EQ
#undef S_BIT
#undef S_HAS
#undef S_CTZ
#undef S_HIGH
#undef S_POPC
#undef S_DROP
#undef S_MULTI
#undef S_SHL
#undef S_SHR
#undef S_RANGE
#undef SMK_ODD
#undef S_NOTODD

/* ---- the wide instance: four words, stride 16 ---- */

typedef kti_sm_wset sm_w_set;

static inline sm_w_set sw_and(sm_w_set a, sm_w_set b)
{
    for (int i = 0; i < KTI_SM_WORDS; i++) a.w[i] &= b.w[i];
    return a;
}
static inline sm_w_set sw_or(sm_w_set a, sm_w_set b)
{
    for (int i = 0; i < KTI_SM_WORDS; i++) a.w[i] |= b.w[i];
    return a;
}
static inline sm_w_set sw_andn(sm_w_set a, sm_w_set b)
{
    for (int i = 0; i < KTI_SM_WORDS; i++) a.w[i] &= ~b.w[i];
    return a;
}
static inline bool sw_nz(sm_w_set a)
{
    return (a.w[0] | a.w[1] | a.w[2] | a.w[3]) != 0;
}
static inline bool sw_has(sm_w_set a, int i)
{
    return a.w[i >> 6] >> (i & 63) & 1;
}
static inline bool sw_eq(sm_w_set a, sm_w_set b)
{
    return ((a.w[0] ^ b.w[0]) | (a.w[1] ^ b.w[1]) | (a.w[2] ^ b.w[2]) | (a.w[3] ^ b.w[3])) == 0;
}
static inline sm_w_set sw_bit(int i)
{
    sm_w_set s = {{0, 0, 0, 0}};
    s.w[i >> 6] = UINT64_C(1) << (i & 63);
    return s;
}
/* Lowest set bit; the set must not be empty. */
static inline int sw_ctz(sm_w_set a)
{
    int i = 0;
    while (a.w[i] == 0) i++;
    return i * 64 + __builtin_ctzll(a.w[i]);
}
static inline int sw_high(sm_w_set a)
{
    int i = KTI_SM_WORDS - 1;
    while (a.w[i] == 0) i--;
    return i * 64 + 63 - __builtin_clzll(a.w[i]);
}
static inline int sw_popc(sm_w_set a)
{
    return __builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]) + __builtin_popcountll(a.w[2]) +
           __builtin_popcountll(a.w[3]);
}
/* Without its lowest set bit. */
static inline sm_w_set sw_drop(sm_w_set a)
{
    for (int i = 0; i < KTI_SM_WORDS; i++)
        if (a.w[i]) {
            a.w[i] &= a.w[i] - 1;
            break;
        }
    return a;
}
static inline bool sw_multi(sm_w_set a)
{
    return sw_popc(a) > 1;
}
/* Shifts by 0 < k < 64. */
static inline sm_w_set sw_shl(sm_w_set a, int k)
{
    sm_w_set r;
    r.w[0] = a.w[0] << k;
    for (int i = 1; i < KTI_SM_WORDS; i++) r.w[i] = a.w[i] << k | a.w[i - 1] >> (64 - k);
    return r;
}
static inline sm_w_set sw_shr(sm_w_set a, int k)
{
    sm_w_set r;
    for (int i = 0; i < KTI_SM_WORDS - 1; i++) r.w[i] = a.w[i] >> k | a.w[i + 1] << (64 - k);
    r.w[KTI_SM_WORDS - 1] = a.w[KTI_SM_WORDS - 1] >> k;
    return r;
}
/* Bits [a, b), 0 <= a <= b <= 256. */
static inline sm_w_set sw_range(int a, int b)
{
    sm_w_set s;
    for (int i = 0; i < KTI_SM_WORDS; i++) {
        int lo = a - 64 * i, hi = b - 64 * i;
        lo = lo < 0 ? 0 : lo > 64 ? 64 : lo;
        hi = hi < 0 ? 0 : hi > 64 ? 64 : hi;
        s.w[i] = lo >= hi ? 0 : sm_range64(lo, hi);
    }
    return s;
}
static inline sm_w_set sw_rep(uint64_t x)
{
    sm_w_set s = {{x, x, x, x}};
    return s;
}

typedef uint16_t sm_w_num;
typedef uint16_t sm_w_cell;

#define SMK(x) sm_w_##x
#define SMK_CELLS KTI_SM_MAXC
#define SMK_STRIDE 16
#define SMK_MAXL KTI_SM_MAXL
#define SMK_WIDE 1
#define SMK_NONE 0xFFFFu
#define SMK_KEYK (KTI_SM_MAXK + 1)
#define smk_key uint16_t
#define smk_set sm_w_set
#define smk_num sm_w_num
#define smk_cell sm_w_cell
#define S_FROM(ws) (ws)
#define S_ZERO sw_rep(0)
#define S_AND(a, b) sw_and(a, b)
#define S_OR(a, b) sw_or(a, b)
#define S_ANDN(a, b) sw_andn(a, b)
#define S_NZ(a) sw_nz(a)
#define S_EQ(a, b) sw_eq(a, b)
#define S_BIT(i) sw_bit(i)
#define S_HAS(a, i) sw_has(a, i)
#define S_CTZ(a) sw_ctz(a)
#define S_HIGH(a) sw_high(a)
#define S_POPC(a) sw_popc(a)
#define S_DROP(a) sw_drop(a)
#define S_MULTI(a) sw_multi(a)
#define S_SHL(a, k) sw_shl(a, k)
#define S_SHR(a, k) sw_shr(a, k)
#define S_RANGE(a, b) sw_range(a, b)
#define SMK_ODD sw_rep(UINT64_C(0x5555555555555555))
#define S_NOTODD sw_rep(UINT64_C(0xAAAAAAAAAAAAAAAA))
#define SMK_L1 sw_rep(UINT64_C(0x7fff7fff7fff7fff))
#define SMK_L2 sw_rep(UINT64_C(0x3fff3fff3fff3fff))
#define SMK_R1 sw_rep(UINT64_C(0xfffefffefffefffe))
#define SMK_R2 sw_rep(UINT64_C(0xfffcfffcfffcfffc))

#include "search_kernel.h"

/* ---- the calls: the instance of the plan ---- */

int kti_sm_search_unit(kti_sm_worker *w, const kti_sm_prefix *p)
{
    switch (w->S->kernel) {
    case KTI_SM_NARROW: return sm_n_search_unit(w, p);
    case KTI_SM_LONG: return sm_l_search_unit(w, p);
    default: return sm_w_search_unit(w, p);
    }
}

double kti_sm_estimate_unit(const kti_sm_plan *S, const kti_sm_prefix *p, uint64_t seed, uint64_t cap)
{
    switch (S->kernel) {
    case KTI_SM_NARROW: return sm_n_estimate_unit(S, p, seed, cap);
    case KTI_SM_LONG: return sm_l_estimate_unit(S, p, seed, cap);
    default: return sm_w_estimate_unit(S, p, seed, cap);
    }
}

/* ---- work units ---- */

int kti_sm_emit_prefix(kti_sm_worker *w, const uint16_t *num, int depth)
{
    (void)num;
    kti_sm_plist *pl = w->ctx;
    if (pl->len == pl->cap) {
        size_t nc = pl->cap ? pl->cap * 2 : 256, bytes;
        kti_sm_prefix *nv = kti_mul_ok(nc, sizeof(kti_sm_prefix), &bytes) ? kti_alloc(pl->al, bytes) : NULL;
        if (nv == NULL) {
            kti_sm_stop(w->sh, KT_ENOMEM);
            return 1;
        }
        if (pl->len) memcpy(nv, pl->v, pl->len * sizeof(kti_sm_prefix));
        kti_free(pl->al, pl->v);
        pl->v = nv;
        pl->cap = nc;
    }
    kti_sm_prefix *p = &pl->v[pl->len++];
    memset(p, 0, sizeof *p);
    p->start = w->start;
    p->end = w->end;
    p->len = (uint16_t)depth;
    memcpy(p->step, w->path, (size_t)depth * sizeof p->step[0]);
    return 0;
}

kt_status kti_sm_prefixes(const kti_sm_plan *S, kti_sm_shared *sh, const kt_allocator *al,
                          kti_sm_plist *pl)
{
    kti_sm_worker w;
    memset(&w, 0, sizeof w);
    w.S = S;
    w.sh = sh;
    w.period = sh->period;
    w.limit = KTI_SM_PREFIX_DEPTH;
    w.emit = kti_sm_emit_prefix;
    w.ctx = pl;
    pl->al = al;
    kt_status st = S->kernel == KTI_SM_NARROW ? sm_n_prefixes(S, &w)
                   : S->kernel == KTI_SM_LONG ? sm_l_prefixes(S, &w)
                                              : sm_w_prefixes(S, &w);
    /* The plan's nodes count against the budget too. */
    if (st == KT_OK) atomic_fetch_add(&sh->nodes, w.nodes);
    return st;
}
