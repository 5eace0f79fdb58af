/* SPDX-License-Identifier: MIT */
/* The library's one thread launcher (see kti_parallel in util.h).
 *
 * KTI_NO_THREADS (meson -Dthreads=false, and the WebAssembly build of
 * tools/web.sh, where no threads exist) runs every share on the calling
 * thread, in order: the same rule as for a thread the system refuses to
 * start, so every result is the same as with threads. */
#include "util.h"

#ifdef KTI_NO_THREADS

void kti_parallel(unsigned n, void (*fn)(void *), void *ctx, size_t stride)
{
    if (n > KT_THREADS_MAX) n = KT_THREADS_MAX;
    if (n == 0) n = 1;
    for (unsigned i = 0; i < n; i++) fn((char *)ctx + (size_t)i * stride);
}

unsigned kti_online_cores(void)
{
    return 1;
}

#else

#include <pthread.h>
#include <unistd.h>

typedef struct share {
    void (*fn)(void *);
    void *arg;
} share;

static void *share_main(void *a)
{
    share *s = a;
    s->fn(s->arg);
    return NULL;
}

void kti_parallel(unsigned n, void (*fn)(void *), void *ctx, size_t stride)
{
    /* Fixed arrays: no allocation, so starting threads cannot fail for
     * lack of memory, and the cap is the documented KT_THREADS_MAX. */
    pthread_t tid[KT_THREADS_MAX];
    share shares[KT_THREADS_MAX];
    bool started[KT_THREADS_MAX];
    if (n > KT_THREADS_MAX) n = KT_THREADS_MAX;
    if (n == 0) n = 1;
    for (unsigned i = 1; i < n; i++) {
        shares[i].fn = fn;
        shares[i].arg = (char *)ctx + (size_t)i * stride;
        started[i] = pthread_create(&tid[i], NULL, share_main, &shares[i]) == 0;
    }
    fn(ctx);
    /* A share whose thread could not start runs here: same result. */
    for (unsigned i = 1; i < n; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        else fn(shares[i].arg);
    }
}

unsigned kti_online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) return 1;
    return n > (long)KT_THREADS_MAX ? KT_THREADS_MAX : (unsigned)n;
}

#endif /* KTI_NO_THREADS */

/* kti_parallel_range's shares: one per thread, its range of indices. */
typedef struct range_share {
    kti_range_fn fn;
    void *ctx;
    unsigned i;
    size_t lo, hi;
} range_share;

static void range_main(void *a)
{
    range_share *r = a;
    r->fn(r->ctx, r->i, r->lo, r->hi);
}

static unsigned range_shares(unsigned n)
{
    return n == 0 ? 1 : n > KT_THREADS_MAX ? KT_THREADS_MAX : n;
}

size_t kti_range_first(unsigned n, size_t count, unsigned i)
{
    /* In 128 bits: count * i may pass 64. */
    return (size_t)((kti_u128)count * i / range_shares(n));
}

unsigned kti_range_threads(unsigned threads, size_t count)
{
    return count < ((size_t)1 << 16) || threads == 0 ? 1u : threads;
}

void kti_parallel_range(unsigned n, size_t count, kti_range_fn fn, void *ctx)
{
    range_share shares[KT_THREADS_MAX];
    n = range_shares(n);
    for (unsigned i = 0; i < n; i++)
        shares[i] = (range_share){fn, ctx, i, kti_range_first(n, count, i), kti_range_first(n, count, i + 1)};
    kti_parallel(n, range_main, shares, sizeof shares[0]);
}
