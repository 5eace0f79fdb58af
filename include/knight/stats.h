/* SPDX-License-Identifier: MIT */
/**
 * @file stats.h
 * @brief Move and relative-move distributions over one or many tourneys.
 *
 * The move distribution of a tourney is the frequency of each move 0-7
 * along it (kt_tourney_move_counts() divided by their sum); the relative
 * move distribution that of each relative move (next - previous) mod 8,
 * 4 never occurring.  For a set of tourneys the per-tourney distributions
 * are averaged, and their standard deviation is kept too.
 *
 * Thread safety: an accumulator is used by one thread at a time.
 */
#ifndef KNIGHT_STATS_H
#define KNIGHT_STATS_H

#include <knight/common.h>
#include <knight/tourney.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Move distribution of one tourney.
 * @param t         The tourney.
 * @param[out] freq 8 frequencies summing to 1 (all 0 when it has no move).
 * @return ::KT_OK; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_stats_move_distribution(const kt_tourney *t, double freq[8]);

/**
 * @brief Relative move distribution of one tourney.
 * @param t         The tourney.
 * @param[out] freq 8 frequencies summing to 1, freq[4] = 0.
 * @return ::KT_OK; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_stats_relative_move_distribution(const kt_tourney *t, double freq[8]);

/** @brief Opaque accumulator of distributions over many tourneys. */
typedef struct kt_stats kt_stats;

/**
 * @brief Make an empty accumulator.
 * @param[out] out Receives it; NULL on failure.
 * @param alloc    NULL for malloc and free, otherwise the hooks the
 *                 accumulator is allocated and freed with.  Copied.
 * @return ::KT_OK; ::KT_EINVAL (NULL @p out, or an allocator with a NULL
 *         hook); ::KT_ENOMEM.
 */
KT_EXPORT kt_status kt_stats_new(kt_stats **out, const kt_allocator *alloc);

/** @brief Release an accumulator; NULL is harmless. @param s The accumulator. */
KT_EXPORT void kt_stats_free(kt_stats *s);

/**
 * @brief Add one tourney's distributions.
 * @param s The accumulator.
 * @param t The tourney.
 * @return ::KT_OK; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_stats_add(kt_stats *s, const kt_tourney *t);

/** @brief Number of tourneys added. @param s The accumulator. @return The count; 0 for NULL. */
KT_EXPORT uint64_t kt_stats_count(const kt_stats *s);

/**
 * @brief Mean and sample standard deviation of the move distributions.
 * @param s           The accumulator.
 * @param[out] mean   Optional: 8 means.
 * @param[out] stddev Optional: 8 standard deviations (0 with fewer than 2 samples).
 * @return ::KT_OK; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_stats_moves(const kt_stats *s, double mean[8], double stddev[8]);

/**
 * @brief Mean and sample standard deviation of the relative move distributions.
 * @param s           The accumulator.
 * @param[out] mean   Optional: 8 means (index 4 is 0).
 * @param[out] stddev Optional: 8 standard deviations.
 * @return ::KT_OK; ::KT_EINVAL.
 */
KT_EXPORT kt_status kt_stats_relative(const kt_stats *s, double mean[8], double stddev[8]);

#ifdef __cplusplus
}
#endif

#endif /* KNIGHT_STATS_H */
