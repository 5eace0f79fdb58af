/* SPDX-License-Identifier: MIT */
/*
 * The half-tours of one path structure without a list (kti_hpaths): what
 * one structure costs on halves too large to list, the upper halves of
 * open tours cut across the middle (7x5 of 7x9 and 7x10, 8x4 of 8x8).
 *
 *   bench_hpaths W H SPLIT N [open|closed]
 *
 * N tours of the W x H board (kt_generate_open_tour between seeded random
 * ends of the colours the board allows, or kt_generate_closed_tour) are cut
 * below row SPLIT; the upper half's structure key is read off each tour,
 * its half-tours counted, and the tour's own half ranked and unranked back
 * (checked equal).  Prints the time and states per structure: a draw
 * through such a structure pays this once per half.
 */
#include <knight/knight.h>

#include "halftour/halftour_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NONE 0xFFu

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The upper half's key (local row r = board row split - 1 - r) and its
 * in-half edges, read off a tour given as two neighbours per cell. */
static uint64_t upper_key(uint32_t W, uint32_t split, const kt_cell (*nb)[2], uint8_t (*half)[2])
{
    unsigned D = split, n = W * D, ncb = W * (D >= 2 ? 2u : 1u);
    unsigned cross[64] = {0};
    memset(half, NONE, (size_t)n * sizeof *half);
    for (unsigned v = 0; v < n; v++) {
        unsigned x = v % W, r = v / W;
        kt_cell c = (kt_cell)((split - 1 - r) * W + x);
        for (unsigned i = 0; i < 2; i++) {
            kt_cell d = nb[c][i];
            if (d == KT_CELL_NONE) continue;
            uint32_t dr = (uint32_t)(d / W);
            if (dr >= split) {
                cross[v]++;
                continue;
            }
            unsigned u = (split - 1 - dr) * W + (unsigned)(d % W);
            half[v][half[v][0] != NONE] = (uint8_t)u;
        }
    }
    uint64_t key = 0;
    uint8_t label[64] = {0};
    unsigned next = 2;
    for (unsigned b = 0; b < ncb; b++) {
        unsigned code = cross[b] == 2 ? 0u : cross[b] == 0 ? 1u : 0u;
        if (cross[b] == 1) {
            if (label[b] == 0) {
                unsigned prev = NONE, cur = b;
                for (bool moved = true; moved;) {
                    moved = false;
                    for (unsigned i = 0; i < 2 && !moved; i++)
                        if (half[cur][i] != NONE && half[cur][i] != prev) {
                            prev = cur;
                            cur = half[cur][i];
                            moved = true;
                        }
                }
                if (cur != b && cur < ncb && cross[cur] == 1) {
                    label[b] = label[cur] = (uint8_t)next++;
                } else {
                    label[b] = KTI_HDP_TERM;
                }
            }
            code = label[b];
        }
        key |= (uint64_t)code << (4 * b);
    }
    return key;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: bench_hpaths W H SPLIT N [open|closed]\n");
        return 2;
    }
    uint32_t W = (uint32_t)atoi(argv[1]), H = (uint32_t)atoi(argv[2]);
    uint32_t split = (uint32_t)atoi(argv[3]);
    int n = atoi(argv[4]);
    bool open = argc < 6 || strcmp(argv[5], "closed") != 0;
    if (W < 3 || W > 8 || split < 2 || split >= H || W * split > 64) return 2;
    kt_graph *g = NULL;
    if (kt_graph_new(&g, W, H) != KT_OK) return 1;
    uint8_t rule[64];
    kti_halftours_open_rules(rule, W, split, H, split - 1, -1, NULL, 0);
    kt_cell(*nb)[2] = calloc((size_t)W * H, sizeof *nb);
    uint64_t rng = 12345;
    double tsum = 0, tmax = 0;
    uint64_t ssum = 0, smax = 0, csum = 0, cmax = 0;
    int done = 0, bad = 0;
    for (int k = 0; done < n && k < 50 * n; k++) {
        kt_tourney *t = NULL;
        kt_status st;
        if (open) {
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            kt_cell a = (kt_cell)((rng >> 33) % ((uint64_t)W * H));
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            kt_cell b = (kt_cell)((rng >> 33) % ((uint64_t)W * H));
            st = kt_generate_open_tour(&t, g, a, b, (uint64_t)k, NULL);
        } else {
            st = kt_generate_closed_tour(&t, g, (uint64_t)k, NULL);
        }
        if (st != KT_OK) continue;
        for (kt_cell c = 0; c < (kt_cell)(W * H); c++) kt_tourney_neighbors(t, c, &nb[c][0], &nb[c][1]);
        kt_tourney_free(t);
        uint8_t half[64][2], back[64][2];
        uint64_t key = upper_key(W, split, (const kt_cell(*)[2])nb, half);
        double t0 = now();
        kti_hpaths *p = NULL;
        st = kti_hpaths_new(&p, W, split, open, rule, key, 0, NULL);
        uint64_t idx = 0;
        if (st == KT_OK) st = kti_hpaths_rank(p, (const uint8_t(*)[2])half, &idx);
        if (st == KT_OK) st = kti_hpaths_unrank(p, idx, back);
        double dt = now() - t0;
        if (st != KT_OK) {
            fprintf(stderr, "key %016llx: %s\n", (unsigned long long)key, kt_strerror(st));
            bad++;
            kti_hpaths_free(p);
            continue;
        }
        for (unsigned v = 0; v < W * split; v++) {
            bool same = (back[v][0] == half[v][0] && back[v][1] == half[v][1]) ||
                        (back[v][0] == half[v][1] && back[v][1] == half[v][0]);
            if (!same) {
                bad++;
                break;
            }
        }
        uint64_t c = kti_hpaths_count(p), s = kti_hpaths_states(p);
        kti_hpaths_free(p);
        tsum += dt;
        if (dt > tmax) tmax = dt;
        ssum += s;
        if (s > smax) smax = s;
        csum += c;
        if (c > cmax) cmax = c;
        done++;
    }
    printf("%ux%u %s, upper half %ux%u: %d structures from tours, %d bad; per structure "
           "%.2f ms mean, %.2f ms max; states %.0f mean, %llu max; half-tours %.0f mean, %llu max\n",
           W, H, open ? "open" : "closed", W, split, done, bad, done ? 1e3 * tsum / done : 0,
           1e3 * tmax, done ? (double)ssum / done : 0, (unsigned long long)smax,
           done ? (double)csum / done : 0, (unsigned long long)cmax);
    free(nb);
    kt_graph_free(g);
    return bad != 0;
}
