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
    /* Back-date the last call so the first one comes about 50 ms after the
     * start (well inside the 100 ms a caller may wait to learn that the call
     * is alive and cancellable), and the next ones every 100 ms. */
    p->last = fn ? kti_now() - (KTI_PROGRESS_PERIOD - 0.05) : 0.0;
}

/* Calls the callback about ten times a second; reading the clock is itself
 * throttled by the caller's work counter. */
bool kti_progress_tick(kti_progress *p, uint64_t done, uint64_t total)
{
    if (p->fn == NULL) return false;
    double now = kti_now();
    /* total 0 (unknown) must not mean "finished": throttle it too. */
    if (now - p->last < KTI_PROGRESS_PERIOD && (total == 0 || done < total)) return false;
    p->last = now;
    return p->fn(p->user, done, total) != 0;
}
