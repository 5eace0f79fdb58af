/* SPDX-License-Identifier: MIT */
/*
 * lib/util/: the domain-free helpers every module shares, and the only
 * place each of them is written: the allocation shim, the parallel-for
 * with its one rule for a thread that cannot start, 128-bit integers and
 * hashing, the seeded random generator, the clock and the progress
 * throttle.  Nothing here knows about boards or tours; the graph-level
 * helpers (move lookup, colour balance) are in lib/internal.h.
 */
#ifndef KNIGHT_UTIL_H
#define KNIGHT_UTIL_H

#include <knight/common.h>
#include <knight/options.h>

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define KTI_HIDDEN __attribute__((visibility("hidden")))
#define KTI_LIKELY(x) __builtin_expect(!!(x), 1)
#define KTI_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define KTI_HIDDEN
#define KTI_LIKELY(x) (x)
#define KTI_UNLIKELY(x) (x)
#endif

/* Debug-build checks of invariants that the code relies on but cannot
 * afford to test in release builds (b_ndebug=if-release removes them). */
#define KTI_ASSERT(cond) assert(cond)

/* Forward a failure: evaluate a kt_status expression and return it unless OK. */
#define KTI_TRY(expr)                                                                    \
    do {                                                                                 \
        kt_status kti_try_st_ = (expr);                                                  \
        if (kti_try_st_ != KT_OK) return kti_try_st_;                                    \
    } while (0)

/* ---- allocation (util/alloc.c): every allocation of the library goes
 * through one of these with the caller's allocator ---- */
KTI_HIDDEN extern const kt_allocator kti_default_allocator; /* malloc and free */
/* The allocator given, or the default one for NULL. */
static inline const kt_allocator *kti_allocator_or_default(const kt_allocator *al)
{
    return al != NULL ? al : &kti_default_allocator;
}
KTI_HIDDEN void *kti_alloc(const kt_allocator *al, size_t size);
KTI_HIDDEN void *kti_calloc(const kt_allocator *al, size_t count, size_t size);
KTI_HIDDEN void kti_free(const kt_allocator *al, void *p);
/* A copy of the NUL-terminated s (NULL stays NULL; *ok false on failure). */
KTI_HIDDEN char *kti_strdup(const kt_allocator *al, const char *s);
/* A new string a followed by b, or NULL when out of memory. */
KTI_HIDDEN char *kti_strcat2(const kt_allocator *al, const char *a, const char *b);
/* Advise a large block into transparent huge pages (Linux; advice only):
 * fewer first-touch faults and TLB misses for big arrays probed at random. */
KTI_HIDDEN void kti_advise_huge(void *p, size_t bytes);
/* Multiply two sizes; false on overflow. */
static inline bool kti_mul_ok(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > SIZE_MAX / b) return false;
    *out = a * b;
    return true;
}

/* ---- run settings (options.c) ---- */
/* The settings of a call, resolved once at its start: NULL options give
 * the defaults, threads are counted (0 = online cores), shards normalised. */
typedef struct kti_run {
    unsigned threads;          /* at least 1, at most KT_THREADS_MAX */
    kt_progress_fn progress;
    void *progress_user;
    uint32_t shard, nshards;   /* nshards >= 1 */
    uint64_t budget;           /* 0 = unlimited */
    const char *checkpoint;    /* NULL = none; owned by the options */
    double checkpoint_interval;/* seconds */
    kt_trace_fn trace;
    void *trace_user;
    const kt_allocator *alloc; /* the options' allocator (default if none) */
} kti_run;
KTI_HIDDEN void kti_run_resolve(kti_run *r, const kt_options *o);

/* ---- threads (util/parallel.c) ---- */
/* Run fn(ctx + i * stride) for i = 0 .. n-1 (n capped at KT_THREADS_MAX):
 * i = 0 on the calling thread, the others on worker threads.  The one rule
 * for a thread the system refuses to start: its share runs on the calling
 * thread after its own, so the result never depends on how many started.
 * Returns when every share has finished. */
KTI_HIDDEN void kti_parallel(unsigned n, void (*fn)(void *), void *ctx, size_t stride);
/* Share i (of n, capped like kti_parallel's) of the indices 0 .. count-1
 * is [kti_range_first(n, count, i), kti_range_first(n, count, i + 1)):
 * fn(ctx, i, lo, hi) runs for each, as kti_parallel runs its shares.  The
 * same (n, count) always cut the same ranges, so passes over one array
 * can keep per-share results (a sort's counts) from one call to the next. */
typedef void (*kti_range_fn)(void *ctx, unsigned i, size_t lo, size_t hi);
KTI_HIDDEN void kti_parallel_range(unsigned n, size_t count, kti_range_fn fn, void *ctx);
KTI_HIDDEN size_t kti_range_first(unsigned n, size_t count, unsigned i);
/* The threads for a pass over count items when `threads` are allowed: one
 * when the items are few (below 65,536 starting threads costs more than
 * they save), else `threads` (0 means 1). */
KTI_HIDDEN unsigned kti_range_threads(unsigned threads, size_t count);
/* Online cores (at least 1). */
KTI_HIDDEN unsigned kti_online_cores(void);

/* ---- 128-bit integers and hashing ---- */
__extension__ typedef unsigned __int128 kti_u128;
static inline kti_u128 kti_u128_from(kt_u128 v) { return (kti_u128)v.hi << 64 | v.lo; }
static inline kt_u128 kti_u128_to(kti_u128 v)
{
    kt_u128 r = {(uint64_t)v, (uint64_t)(v >> 64)};
    return r;
}
/* A strong 64-bit mixer (the finaliser of splitmix64 / murmur3): every
 * input bit affects every output bit, so keys can index tables by their
 * low bits. */
static inline uint64_t kti_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* ---- the random generator: xoshiro256** seeded through splitmix64.
 * Every randomized algorithm takes an explicit 64-bit seed and keeps its
 * generator on the stack, so runs are reproducible and threads never
 * share state. ---- */
static inline uint64_t kti_splitmix64(uint64_t *x)
{
    return kti_mix64(*x += 0x9E3779B97F4A7C15u);
}

typedef struct kti_rng {
    uint64_t s[4];
} kti_rng;

static inline void kti_rng_seed(kti_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = kti_splitmix64(&seed);
}

static inline uint64_t kti_rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t kti_rng_next(kti_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = kti_rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = kti_rotl64(s[3], 45);
    return result;
}

/* Uniform integer in [0, bound) for bound >= 1 (Lemire's multiply-shift, unbiased). */
static inline uint64_t kti_rng_below(kti_rng *r, uint64_t bound)
{
    uint64_t x = kti_rng_next(r);
    kti_u128 m = (kti_u128)x * bound;
    uint64_t l = (uint64_t)m;
    if (l < bound) {
        uint64_t t = -bound % bound;
        while (l < t) {
            x = kti_rng_next(r);
            m = (kti_u128)x * bound;
            l = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* Uniform double in [0, 1). */
static inline double kti_rng_double(kti_rng *r)
{
    return (double)(kti_rng_next(r) >> 11) * 0x1.0p-53;
}

/* ---- clock and progress throttle (util/progress.c) ---- */
KTI_HIDDEN double kti_now(void);
/* Seconds between two progress calls (the first comes after about 50 ms). */
#define KTI_PROGRESS_PERIOD 0.1
typedef struct kti_progress {
    kt_progress_fn fn;
    void *user;
    uint64_t next_check;      /* work units between clock reads */
    double last;              /* seconds */
} kti_progress;
KTI_HIDDEN void kti_progress_init(kti_progress *p, kt_progress_fn fn, void *user);
/* Report if enough time passed; true when the callback asked to cancel. */
KTI_HIDDEN bool kti_progress_tick(kti_progress *p, uint64_t done, uint64_t total);

/* ---- the processor's vector extensions (util/cpu.c) ----
 * The portable build targets plain x86-64, so kernels that want SSSE3 or
 * AVX2 are compiled with a target attribute and chosen at run time.
 * KTI_X86_VEC says such kernels can be compiled here at all (x86 with a
 * GNU-style compiler); a kernel using 64-bit-only intrinsics (for example
 * _mm256_extract_epi64) adds its own __x86_64__ test. */
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define KTI_X86_VEC 1
#else
#define KTI_X86_VEC 0
#endif
/* The widest extension this processor runs, ordered so that a request can
 * be capped by a comparison: none, then SSSE3, then AVX2. */
enum { KTI_CPU_NONE, KTI_CPU_SSSE3, KTI_CPU_AVX2 };
KTI_HIDDEN unsigned kti_cpu_vec(void);

#endif /* KNIGHT_UTIL_H */
