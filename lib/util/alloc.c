/* SPDX-License-Identifier: MIT */
/* The allocation shim: the default allocator and the helpers every module
 * allocates through, so a caller's allocator sees every byte. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE 1 /* madvise */
#endif
#include "util.h"

#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

static void *default_alloc(void *opaque, size_t size)
{
    (void)opaque;
    return malloc(size ? size : 1);
}

static void default_free(void *opaque, void *ptr)
{
    (void)opaque;
    free(ptr);
}

const kt_allocator kti_default_allocator = {default_alloc, default_free, NULL};

void *kti_alloc(const kt_allocator *al, size_t size)
{
    /* A zero-byte request still gets a unique block, so NULL always means failure. */
    return al->alloc(al->opaque, size ? size : 1);
}

void *kti_calloc(const kt_allocator *al, size_t count, size_t size)
{
    size_t bytes;
    if (!kti_mul_ok(count, size, &bytes)) return NULL;
    void *p = kti_alloc(al, bytes);
    if (p) memset(p, 0, bytes);
    return p;
}

void kti_free(const kt_allocator *al, void *p)
{
    if (p) al->free(al->opaque, p);
}

char *kti_strdup(const kt_allocator *al, const char *s)
{
    return kti_strcat2(al, s, "");
}

char *kti_strcat2(const kt_allocator *al, const char *a, const char *b)
{
    if (a == NULL) return NULL;
    size_t la = strlen(a), lb = strlen(b);
    if (la > SIZE_MAX - lb - 1) return NULL;
    char *p = kti_alloc(al, la + lb + 1);
    if (p == NULL) return NULL;
    memcpy(p, a, la);
    memcpy(p + la, b, lb + 1);
    return p;
}

void kti_advise_huge(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (p == NULL || bytes < 2 * huge) return;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t b = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (b > a) (void)madvise((void *)a, b - a, MADV_HUGEPAGE); /* advice only */
#else
    (void)p;
    (void)bytes;
#endif
}
