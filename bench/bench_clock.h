/* SPDX-License-Identifier: MIT */
/* Clocks shared by the benchmarks: wall time and the process's CPU time
 * (user + system, all threads), both in seconds. */
#ifndef KNIGHT_BENCH_CLOCK_H
#define KNIGHT_BENCH_CLOCK_H

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

#endif
