/* SPDX-License-Identifier: MIT */
/* Move and relative-move distributions, one tourney or averaged over many. */
#include "internal.h"
#include <knight/stats.h>

#include <math.h>

static kt_status distribution(const kt_tourney *t, double freq[8], bool relative)
{
    if (t == NULL || freq == NULL) return KT_EINVAL;
    uint64_t counts[8];
    kt_status st = relative ? kt_tourney_relative_move_counts(t, counts)
                            : kt_tourney_move_counts(t, counts);
    if (st != KT_OK) return st;
    uint64_t sum = 0;
    for (int i = 0; i < 8; i++) sum += counts[i];
    for (int i = 0; i < 8; i++) freq[i] = sum ? (double)counts[i] / (double)sum : 0.0;
    return KT_OK;
}

kt_status kt_stats_move_distribution(const kt_tourney *t, double freq[8])
{
    return distribution(t, freq, false);
}

kt_status kt_stats_relative_move_distribution(const kt_tourney *t, double freq[8])
{
    return distribution(t, freq, true);
}

/* Welford's running mean and variance, per move and per relative move.
 * The accumulator keeps the allocator it was made with, to free itself. */
struct kt_stats {
    uint64_t n;
    double mean[2][8];
    double m2[2][8];
    kt_allocator alloc;
};

kt_status kt_stats_new(kt_stats **out, const kt_allocator *alloc)
{
    if (out == NULL) return KT_EINVAL;
    *out = NULL;
    if (alloc != NULL && (alloc->alloc == NULL || alloc->free == NULL)) return KT_EINVAL;
    const kt_allocator *al = kti_allocator_or_default(alloc);
    kt_stats *s = kti_calloc(al, 1, sizeof *s);
    if (s == NULL) return KT_ENOMEM;
    s->alloc = *al;
    *out = s;
    return KT_OK;
}

void kt_stats_free(kt_stats *s)
{
    if (s == NULL) return;
    kt_allocator al = s->alloc;
    kti_free(&al, s);
}

kt_status kt_stats_add(kt_stats *s, const kt_tourney *t)
{
    if (s == NULL || t == NULL) return KT_EINVAL;
    double f[2][8];
    kt_status st = distribution(t, f[0], false);
    if (st == KT_OK) st = distribution(t, f[1], true);
    if (st != KT_OK) return st;
    s->n++;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 8; i++) {
            double d = f[k][i] - s->mean[k][i];
            s->mean[k][i] += d / (double)s->n;
            s->m2[k][i] += d * (f[k][i] - s->mean[k][i]);
        }
    return KT_OK;
}

uint64_t kt_stats_count(const kt_stats *s)
{
    return s ? s->n : 0;
}

static kt_status report(const kt_stats *s, int k, double mean[8], double stddev[8])
{
    if (s == NULL) return KT_EINVAL;
    for (int i = 0; i < 8; i++) {
        if (mean) mean[i] = s->mean[k][i];
        if (stddev) stddev[i] = s->n > 1 ? sqrt(s->m2[k][i] / (double)(s->n - 1)) : 0.0;
    }
    return KT_OK;
}

kt_status kt_stats_moves(const kt_stats *s, double mean[8], double stddev[8])
{
    return report(s, 0, mean, stddev);
}

kt_status kt_stats_relative(const kt_stats *s, double mean[8], double stddev[8])
{
    return report(s, 1, mean, stddev);
}
