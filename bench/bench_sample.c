/* SPDX-License-Identifier: MIT */
/*
 * The uniform sampler: preparation time, memory, and tours per second.
 *   bench_sample                      6x6 closed, 5x5 open, 6x7 closed
 *   bench_sample WxH [open] [draws]   one board (7x8, 8x8: the long runs)
 *   bench_sample WxH open draws X,Y X,Y  open tours between two given cells
 *                                     (8x8: by open half-tours)
 *   bench_sample WxH halftours [draws [I/N]]  closed tours by half-tours
 *                                     (the path of 8x8) on a smaller board,
 *                                     or only the tours whose upper type is
 *                                     in the join's shard I of N (8x8: the
 *                                     draws' speed without the whole join)
 *   bench_sample WxH openhalves [draws [I/N [X,Y [X,Y]]]]  open tours by
 *                                     open half-tours, the larger half above,
 *                                     as kt_sampler_new() takes 8x8, with
 *                                     free ends or one or two given; I/N as
 *                                     above (8x8: the join's rate and the
 *                                     draws' speed from a part of its types)
 *   ... halftours|openhalves ... noflip  (last) the join without the up-down
 *                                     flip, every type pair joined (the
 *                                     comparison of BENCHMARKS.md)
 * Prints wall and CPU time of the preparation (one thread; 8x8 closed,
 * by half-tours, on every core), the states kept and the bytes of the
 * tables (kt_sample_stats), the peak resident memory of the process
 * (getrusage), and draws per second (each draw validated as a tour of the
 * kind) on one thread and on two (the sampler is shared, draws of one
 * seed dealt out by index), and that rank inverts the draws.
 */
#include <knight/knight.h>

#include "bench_clock.h"
#include "sample/sample_internal.h" /* kti_sampler_new_halftours */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Progress of a long preparation on stderr, about once a minute. */
static int report(void *user, uint64_t done, uint64_t total)
{
    double *last = user, now = bench_now();
    if (now - *last >= 60.0) {
        fprintf(stderr, "  prep %.1f%%\n", total ? 100.0 * (double)done / (double)total : 0.0);
        *last = now;
    }
    return 0;
}

typedef struct drawer {
    const kt_sampler *s;
    int open;
    uint64_t from, to, bad;
} drawer;

static void *draw_range(void *arg)
{
    drawer *d = arg;
    for (uint64_t i = d->from; i < d->to; i++) {
        kt_tourney *t = NULL;
        if (kt_sampler_draw(&t, d->s, 2, i) != KT_OK ||
            !(d->open ? kt_tourney_is_open_tour(t) : kt_tourney_is_closed_tour(t)))
            d->bad++;
        kt_tourney_free(t);
    }
    return NULL;
}

/* Draws per second (wall) on two threads sharing the sampler. */
static double two_threads(const kt_sampler *s, int open, uint64_t draws, uint64_t *bad)
{
    drawer d[2] = {{s, open, 0, draws / 2, 0}, {s, open, draws / 2, draws, 0}};
    pthread_t th;
    double t0 = bench_now();
    int started = pthread_create(&th, NULL, draw_range, &d[1]) == 0;
    draw_range(&d[0]);
    if (started) pthread_join(th, NULL);
    else draw_range(&d[1]);
    double dt = bench_now() - t0;
    *bad += d[0].bad + d[1].bad;
    return (double)draws / dt;
}

/* Rank inverts the first n draws: rank, unrank, compare. */
/* Draws ranked and unranked back; *secs the time of the unranks alone
 * (open tours by half-tours draw otherwise: kti_hsampler_draw). */
static uint64_t round_trips(const kt_sampler *s, uint64_t n, double *secs)
{
    uint64_t bad = 0;
    *secs = 0;
    for (uint64_t i = 0; i < n; i++) {
        kt_tourney *t = NULL, *u = NULL;
        kt_u128 r;
        bool ok = kt_sampler_draw(&t, s, 1, i) == KT_OK && kt_sampler_rank(s, t, &r) == KT_OK;
        double t0 = bench_now();
        ok = ok && kt_sampler_unrank(&u, s, &r) == KT_OK;
        *secs += bench_now() - t0;
        if (!ok || !kt_tourney_equal(t, u)) bad++;
        kt_tourney_free(t);
        kt_tourney_free(u);
    }
    return bad;
}

/* The open tour t has its ends at the given cells (KT_CELL_NONE: any). */
static bool has_ends(const kt_tourney *t, kt_cell start, kt_cell end)
{
    kt_cell a, b;
    if (start == KT_CELL_NONE && end == KT_CELL_NONE) return true;
    if (kt_tourney_ends(t, &a, &b) != KT_OK) return false;
    bool sa = start == KT_CELL_NONE || start == a || start == b;
    bool eb = end == KT_CELL_NONE || end == a || end == b;
    return sa && eb;
}

/* Open tours with any ends: per class of cells under the board's
 * symmetries (the cells (x, y) with x <= y in the top-left quarter of a
 * square board, x < w/2 rounded up and y < h/2 rounded up otherwise), the
 * share of the draws with an end there, the tries per tour of
 * kt_sampler_draw_from that gives (the symmetries map every cell of the
 * orbit there) and the tours a second it gives on one thread, each
 * checked to be an open tour with that end. */
static uint64_t draws_from(const kt_sampler *s, uint32_t w, uint32_t h, uint64_t draws,
                           unsigned per_cell)
{
    uint64_t bad = 0, *ends = calloc((size_t)w * h, sizeof *ends);
    if (ends == NULL) return 1;
    for (uint64_t i = 0; i < draws; i++) {
        kt_tourney *t = NULL;
        kt_cell a, b;
        if (kt_sampler_draw(&t, s, 3, i) == KT_OK && kt_tourney_ends(t, &a, &b) == KT_OK) {
            ends[a]++;
            ends[b]++;
        } else {
            bad++;
        }
        kt_tourney_free(t);
    }
    printf("  kt_sampler_draw_from, %u tours from each class of cells (ends among %llu draws):\n",
           per_cell, (unsigned long long)draws);
    for (uint32_t y = 0; y < (h + 1) / 2; y++)
        for (uint32_t x = 0; x < (w + 1) / 2; x++) {
            if (w == h && x > y) continue;
            kt_cell c = (kt_cell)(y * w + x);
            double t0 = bench_now();
            unsigned got = 0;
            kt_status st = KT_OK;
            for (unsigned k = 0; k < per_cell; k++) {
                kt_tourney *t = NULL;
                kt_cell a, b;
                st = kt_sampler_draw_from(&t, s, c, 5, k, NULL);
                if (st == KT_ENOTOUR) break;
                if (st != KT_OK || !kt_tourney_is_open_tour(t) || kt_tourney_ends(t, &a, &b) != KT_OK ||
                    (a != c && b != c))
                    bad++;
                else
                    got++;
                kt_tourney_free(t);
            }
            double dt = bench_now() - t0;
            if (st == KT_ENOTOUR) {
                printf("    (%u,%u): no open tour ends here\n", x, y);
                continue;
            }
            /* The expected tries (kt_sampler_draw_from): kmax / (|O| share)
             * with O the cell's orbit under the board's symmetries and kmax
             * 2 when two of its cells can end one tour (a board of even area:
             * cells of both colours; odd: two cells of the larger colour,
             * which every orbit of two or more cells has) */
            unsigned norb = 0, col[2] = {0, 0};
            kt_cell orb[8];
            for (unsigned sym = 0; sym < (w == h ? 8u : 4u); sym++) {
                uint32_t sx = (sym & 1) ? w - 1 - x : x, sy = (sym & 2) ? h - 1 - y : y;
                kt_cell d = (sym & 4) ? (kt_cell)sx * w + sy : (kt_cell)sy * w + sx;
                bool seen = false;
                for (unsigned i = 0; i < norb; i++) seen |= orb[i] == d;
                if (!seen) {
                    orb[norb++] = d;
                    col[(d % w + d / w) & 1]++;
                }
            }
            unsigned kmax = norb < 2 ? 1 : (w * h) % 2 == 1 || (col[0] && col[1]) ? 2 : 1;
            double share = (double)ends[c] / (double)draws;
            printf("    (%u,%u): %5.2f %% of tours end here (%5.1f tries a tour by that cell alone, "
                   "%5.1f by its %u images), %7.1f tours/s\n",
                   x, y, 100.0 * share, share > 0 ? 1.0 / share : 0.0,
                   share > 0 ? kmax / (norb * share) : 0.0, norb, dt > 0 ? got / dt : 0.0);
        }
    free(ends);
    return bad;
}

/* halftours: closed tours by half-tours, cut below row h / 2 */
static int one(uint32_t w, uint32_t h, int open, bool halftours, uint64_t draws, uint32_t shard,
               uint32_t nshards, kt_cell start, kt_cell end, bool noflip)
{
    kt_graph *g = NULL;
    kt_sampler *s = NULL;
    if (kt_graph_new(&g, w, h) != KT_OK) return 1;
    double t0 = bench_now(), c0 = bench_cpu(), last = t0;
    kt_options *run = NULL;
    if (kt_options_new(&run, NULL) != KT_OK || kt_options_set_progress(run, report, &last) != KT_OK ||
        kt_options_set_shard(run, shard, nshards) != KT_OK)
        return 1;
    kt_status st = halftours && noflip
                       ? kti_sampler_new_halftours_flags(&s, g, open ? h - h / 2 : h / 2, open,
                                                         KTI_HS_NOFLIP, start, end, run)
                   : halftours && open ? kti_sampler_new_halftours_open(&s, g, h - h / 2, start, end, run)
                   : halftours       ? kti_sampler_new_halftours(&s, g, h / 2, run)
                                     : kt_sampler_new(&s, g, open ? KT_SHAPE_PATH : KT_SHAPE_CYCLES,
                                                      start, end, run);
    kt_options_free(run);
    double prep = bench_now() - t0, prep_cpu = bench_cpu() - c0;
    if (st != KT_OK) {
        printf("%ux%u %-6s %s after %.1f s\n", w, h, open ? "open" : "closed", kt_strerror(st), prep);
        kt_graph_free(g);
        return 1;
    }
    kt_u128 total;
    kt_sample_stats ss;
    char buf[48];
    kt_sampler_total(s, &total);
    kt_sampler_stats(s, &ss);
    kt_u128_to_string(&total, buf, sizeof buf);
    uint64_t bad = 0;
    t0 = bench_now();
    c0 = bench_cpu();
    for (uint64_t i = 0; i < draws; i++) {
        kt_tourney *t = NULL;
        if (kt_sampler_draw(&t, s, 1, i) != KT_OK ||
            !(open ? kt_tourney_is_open_tour(t) : kt_tourney_is_closed_tour(t)) ||
            !has_ends(t, start, end))
            bad++;
        kt_tourney_free(t);
    }
    double dt = bench_now() - t0, dc = bench_cpu() - c0;
    double par = two_threads(s, open, draws, &bad);
    if (open && start == KT_CELL_NONE && end == KT_CELL_NONE)
        bad += draws_from(s, w, h, 2 * draws, w * h >= 64 ? 20 : 200);
    double usecs;
    uint64_t trips = draws < 200 ? draws : 200, tbad = round_trips(s, trips, &usecs);
    bad += tbad;
    printf("%ux%u %-6s tours %s  prep %.2f s (cpu %.2f s)  kept %llu states = %.1f MiB  "
           "peak layer %llu states, tables %.1f MiB  rss %.1f MiB  %.0f tours/s (cpu %.0f/s), "
           "2 threads %.0f tours/s; %llu rank round trips (%.0f unranks/s)%s\n",
           w, h, open ? "open" : halftours ? "closed (half-tours)" : "closed", buf, prep, prep_cpu, (unsigned long long)ss.states,
           (double)ss.bytes / 1048576.0, (unsigned long long)ss.peak_states,
           (double)ss.peak_bytes / 1048576.0, bench_peak_rss_mib(), (double)draws / dt,
           (double)draws / dc, par, (unsigned long long)(trips - tbad),
           usecs > 0 ? (double)trips / usecs : 0.0, bad ? "  INVALID DRAWS" : "");
    fflush(stdout);
    kt_sampler_free(s);
    kt_graph_free(g);
    return bad != 0;
}

int main(int argc, char **argv)
{
    bool noflip = argc > 3 && strcmp(argv[argc - 1], "noflip") == 0;
    if (noflip) argc--;
    if (argc > 1) {
        uint32_t w, h;
        if (sscanf(argv[1], "%ux%u", &w, &h) != 2) {
            fprintf(stderr, "usage: bench_sample [WxH [open|halftours|openhalves] [draws [I/N]] [X,Y [X,Y]]]\n");
            return 2;
        }
        bool oh = argc > 2 && strcmp(argv[2], "openhalves") == 0;
        int open = argc > 2 && (strcmp(argv[2], "open") == 0 || oh);
        bool ht = argc > 2 && (strcmp(argv[2], "halftours") == 0 || oh);
        int opt = open || ht;
        uint64_t draws = argc > 2 + opt ? strtoull(argv[2 + opt], NULL, 10) : 10000;
        uint32_t shard = 0, nshards = 1;
        if (ht && argc > 4 && sscanf(argv[4], "%u/%u", &shard, &nshards) != 2) return 2;
        kt_cell ends[2] = {KT_CELL_NONE, KT_CELL_NONE};
        int at = oh ? 5 : 4; /* openhalves: the given cells after I/N */
        for (int i = 0; open && (oh || !ht) && i < 2 && argc > at + i; i++) {
            unsigned x, y;
            if (sscanf(argv[at + i], "%u,%u", &x, &y) != 2 || x >= w || y >= h) return 2;
            ends[i] = (kt_cell)(y * w + x);
        }
        if (noflip && !ht) return 2;
        return one(w, h, open, ht, draws, shard, nshards, ends[0], ends[1], noflip);
    }
    const kt_cell N = KT_CELL_NONE;
    int rc = one(6, 6, 0, false, 100000, 0, 1, N, N, false);
    rc |= one(5, 5, 1, false, 100000, 0, 1, N, N, false);
    rc |= one(6, 7, 0, false, 20000, 0, 1, N, N, false);
    return rc;
}
