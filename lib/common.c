/* SPDX-License-Identifier: MIT */
/* Status strings, version queries and the progress-callback throttle. */
#include "internal.h"

#include <time.h>

static const char *const status_text[KT_STATUS_COUNT] = {
    [KT_OK] = "success",
    [KT_EINVAL] = "invalid argument",
    [KT_ENOMEM] = "out of memory",
    [KT_ETOOBIG] = "size too large",
    [KT_EPARSE] = "malformed input",
    [KT_EBADTOUR] = "not a valid tour or tourney",
    [KT_ENOTOUR] = "no such tour exists on this board",
    [KT_ENOTFOUND] = "search ended without a result",
    [KT_ECANCELED] = "canceled",
    [KT_EOVERFLOW] = "count overflows its integer type",
    [KT_EIO] = "input/output error",
    [KT_EUNSUPPORTED] = "not supported for this board or object",
    [KT_EMISMATCH] = "objects belong to different boards",
    [KT_ERANGE] = "output buffer too small",
    [KT_ETHREAD] = "cannot start a thread",
    [KT_ELIMIT] = "budget exhausted",
};

static const char *const status_names[KT_STATUS_COUNT] = {
    [KT_OK] = "KT_OK",
    [KT_EINVAL] = "KT_EINVAL",
    [KT_ENOMEM] = "KT_ENOMEM",
    [KT_ETOOBIG] = "KT_ETOOBIG",
    [KT_EPARSE] = "KT_EPARSE",
    [KT_EBADTOUR] = "KT_EBADTOUR",
    [KT_ENOTOUR] = "KT_ENOTOUR",
    [KT_ENOTFOUND] = "KT_ENOTFOUND",
    [KT_ECANCELED] = "KT_ECANCELED",
    [KT_EOVERFLOW] = "KT_EOVERFLOW",
    [KT_EIO] = "KT_EIO",
    [KT_EUNSUPPORTED] = "KT_EUNSUPPORTED",
    [KT_EMISMATCH] = "KT_EMISMATCH",
    [KT_ERANGE] = "KT_ERANGE",
    [KT_ETHREAD] = "KT_ETHREAD",
    [KT_ELIMIT] = "KT_ELIMIT",
};

const char *kt_strerror(kt_status status)
{
    unsigned s = (unsigned)status;
    return s < KT_STATUS_COUNT ? status_text[s] : "unknown status";
}

const char *kt_status_name(kt_status status)
{
    unsigned s = (unsigned)status;
    return s < KT_STATUS_COUNT ? status_names[s] : "KT_UNKNOWN";
}

int kt_is_error(kt_status status)
{
    return status != KT_OK;
}

unsigned kt_version(void)
{
    return KT_VERSION_NUMBER;
}

const char *kt_version_string(void)
{
    return KT_VERSION_STRING;
}

double kti_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void kti_progress_init(kti_progress *p, kt_progress_fn fn, void *user)
{
    p->fn = fn;
    p->user = user;
    p->next_check = 0;
    p->last = fn ? kti_now() : 0.0;
}

/* Calls the callback at most about five times a second; reading the clock
 * is itself throttled by the caller's work counter. */
bool kti_progress_tick(kti_progress *p, uint64_t done, uint64_t total)
{
    if (p->fn == NULL) return false;
    double now = kti_now();
    if (now - p->last < 0.2 && done < total) return false;
    p->last = now;
    return p->fn(p->user, done, total) != 0;
}
