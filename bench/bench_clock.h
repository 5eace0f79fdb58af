/* SPDX-License-Identifier: MIT */
/* Clocks shared by the benchmarks: wall time and the process's CPU time
 * (user + system, all threads), both in seconds; and the peak resident
 * memory, the figure BENCHMARKS.md quotes beside them. */
#ifndef KNIGHT_BENCH_CLOCK_H
#define KNIGHT_BENCH_CLOCK_H

#include <sys/resource.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline double bench_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The process's peak resident set so far, in MiB (ru_maxrss is in
 * kilobytes on Linux). */
static inline double bench_peak_rss_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

#endif
