/* SPDX-License-Identifier: MIT */
/* The shared run settings (knight/options.h) and their resolution at the
 * start of a call (kti_run_resolve), so every module reads them alike. */
#include "internal.h"

#include <knight/options.h>

#define DEFAULT_CHECKPOINT_INTERVAL 300.0

struct kt_options {
#ifdef KTI_TEST_GROWN
    /* tests/upgrade builds the library with this stand-in for the fields a
     * later 1.x version adds: every offset below moves, and programs built
     * against 1.0 must not notice. */
    uint64_t grown[7];
#endif
    kt_allocator alloc;
    unsigned threads;
    kt_progress_fn progress;
    void *progress_user;
    uint32_t shard, nshards;
    uint64_t budget;
    char *checkpoint;
    double checkpoint_interval;
    kt_trace_fn trace;
    void *trace_user;
};

kt_status kt_options_new(kt_options **out, const kt_allocator *alloc)
{
    if (out == NULL) return KT_EINVAL;
    *out = NULL;
    if (alloc != NULL && (alloc->alloc == NULL || alloc->free == NULL)) return KT_EINVAL;
    const kt_allocator *al = kti_allocator_or_default(alloc);
    kt_options *o = kti_calloc(al, 1, sizeof *o);
    if (o == NULL) return KT_ENOMEM;
    o->alloc = *al;
    o->nshards = 1;
    o->checkpoint_interval = DEFAULT_CHECKPOINT_INTERVAL;
    *out = o;
    return KT_OK;
}

void kt_options_free(kt_options *o)
{
    if (o == NULL) return;
    kt_allocator al = o->alloc;
    kti_free(&al, o->checkpoint);
    kti_free(&al, o);
}

kt_status kt_options_copy(kt_options **out, const kt_options *o)
{
    if (out == NULL) return KT_EINVAL;
    *out = NULL;
    if (o == NULL) return KT_EINVAL;
    kt_options *c = kti_alloc(&o->alloc, sizeof *c);
    if (c == NULL) return KT_ENOMEM;
    *c = *o;
    c->checkpoint = NULL;
    if (o->checkpoint != NULL && (c->checkpoint = kti_strdup(&o->alloc, o->checkpoint)) == NULL) {
        kti_free(&o->alloc, c);
        return KT_ENOMEM;
    }
    *out = c;
    return KT_OK;
}

kt_status kt_options_set_threads(kt_options *o, unsigned threads)
{
    if (o == NULL || threads > KT_THREADS_MAX) return KT_EINVAL;
    o->threads = threads;
    return KT_OK;
}

unsigned kt_options_threads(const kt_options *o)
{
    return o != NULL ? o->threads : 0;
}

unsigned kt_options_thread_count(const kt_options *o)
{
    unsigned t = kt_options_threads(o);
    return t == 0 ? kti_online_cores() : t;
}

kt_status kt_options_set_progress(kt_options *o, kt_progress_fn fn, void *user)
{
    if (o == NULL) return KT_EINVAL;
    o->progress = fn;
    o->progress_user = fn != NULL ? user : NULL;
    return KT_OK;
}

kt_status kt_options_set_shard(kt_options *o, uint32_t index, uint32_t count)
{
    if (o == NULL) return KT_EINVAL;
    if (count == 0) count = 1;
    if (index >= count) return KT_EINVAL;
    o->shard = index;
    o->nshards = count;
    return KT_OK;
}

void kt_options_shard(const kt_options *o, uint32_t *index, uint32_t *count)
{
    if (index) *index = o != NULL ? o->shard : 0;
    if (count) *count = o != NULL ? o->nshards : 1;
}

kt_status kt_options_set_budget(kt_options *o, uint64_t budget)
{
    if (o == NULL) return KT_EINVAL;
    o->budget = budget;
    return KT_OK;
}

uint64_t kt_options_budget(const kt_options *o)
{
    return o != NULL ? o->budget : 0;
}

kt_status kt_options_set_checkpoint(kt_options *o, const char *path, double interval)
{
    if (o == NULL) return KT_EINVAL;
    char *copy = NULL;
    /* Copy first, so a failure leaves the object as it was. */
    if (path != NULL && (copy = kti_strdup(&o->alloc, path)) == NULL) return KT_ENOMEM;
    kti_free(&o->alloc, o->checkpoint);
    o->checkpoint = copy;
    o->checkpoint_interval = interval < 0 ? DEFAULT_CHECKPOINT_INTERVAL : interval;
    return KT_OK;
}

const char *kt_options_checkpoint(const kt_options *o)
{
    return o != NULL ? o->checkpoint : NULL;
}

kt_status kt_options_set_trace(kt_options *o, kt_trace_fn fn, void *user)
{
    if (o == NULL) return KT_EINVAL;
    o->trace = fn;
    o->trace_user = fn != NULL ? user : NULL;
    return KT_OK;
}

void kti_run_resolve(kti_run *r, const kt_options *o)
{
    memset(r, 0, sizeof *r);
    r->threads = kt_options_thread_count(o);
    r->nshards = 1;
    r->checkpoint_interval = DEFAULT_CHECKPOINT_INTERVAL;
    r->alloc = &kti_default_allocator;
    if (o == NULL) return;
    r->progress = o->progress;
    r->progress_user = o->progress_user;
    r->shard = o->shard;
    r->nshards = o->nshards;
    r->budget = o->budget;
    r->checkpoint = o->checkpoint;
    r->checkpoint_interval = o->checkpoint_interval;
    r->trace = o->trace;
    r->trace_user = o->trace_user;
    r->alloc = &o->alloc;
}

#ifdef KTI_TEST_GROWN
/* The stand-in for a setter a later version adds (tests/upgrade only). */
KT_EXPORT kt_status kt_options_set_grown(kt_options *o, uint64_t value);
kt_status kt_options_set_grown(kt_options *o, uint64_t value)
{
    if (o == NULL) return KT_EINVAL;
    o->grown[0] = value;
    return KT_OK;
}
#endif
