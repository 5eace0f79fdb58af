/* SPDX-License-Identifier: MIT */
/* The monotonic clock and the progress-callback throttle. */
#include "util.h"

#include <time.h>

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
    /* total 0 (unknown) must not mean "finished": throttle it too. */
    if (now - p->last < 0.2 && (total == 0 || done < total)) return false;
    p->last = now;
    return p->fn(p->user, done, total) != 0;
}
