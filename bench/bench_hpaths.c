/* SPDX-License-Identifier: MIT */
/*
 * The half-tours of one path structure without a list (kti_hpaths): what
 * one structure costs on halves too large to list, the upper halves of
 * open tours cut across the middle (7x5 of 7x9 and 7x10, 8x4 of 8x8).
 *
 *   bench_hpaths W H SPLIT N [open|closed|merged]
 *
 * N tours of the W x H board (kt_generate_open_tour between seeded random
 * ends of the colours the board allows, or kt_generate_closed_tour) are cut
 * below row SPLIT; the upper half's structure key is read off each tour,
 * its half-tours counted, and the tour's own half ranked and unranked back
 * (checked equal).  Prints the time and states per structure: a draw
 * through such a structure pays this once per half.  merged (open tours):
 * the key is merged as the sampler's sharded halves keep it (8x4 of 8x8)
 * and split back (kti_hpaths_split_key); each of the structures it stands
 * for is counted, which is what a draw pays at most on such a half (it
 * stops at the structure holding its half-tour: the mean time up to the
 * tour's own structure is printed too).
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

/* Time, states and half-tours per structure: sums and maxima. */
typedef struct tally {
    double tsum, tmax;
    uint64_t ssum, smax, csum, cmax;
    int done;
} tally;

static void tally_add(tally *t, double dt, uint64_t states, uint64_t count)
{
    t->tsum += dt;
    if (dt > t->tmax) t->tmax = dt;
    t->ssum += states;
    if (states > t->smax) t->smax = states;
    t->csum += count;
    if (count > t->cmax) t->cmax = count;
    t->done++;
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
    bool merged = argc >= 6 && strcmp(argv[5], "merged") == 0;
    if (W < 3 || W > 8 || split < 2 || split >= H || W * split > 64) return 2;
    kt_graph *g = NULL;
    if (kt_graph_new(&g, W, H) != KT_OK) return 1;
    uint8_t rule[64];
    kti_halftours_open_rules(rule, W, split, H, split - 1, -1, NULL, 0);
    kt_cell(*nb)[2] = calloc((size_t)W * H, sizeof *nb);
    uint64_t rng = 12345;
    tally ta = {0};
    int bad = 0;
    uint64_t msplit = 0;        /* merged: structures the merged keys stand for */
    double tmine = 0;           /* merged: time up to the tour's own structure */
    for (int k = 0; ta.done < n && k < 50 * n; k++) {
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
        if (merged) {
            uint8_t code[KTI_HDP_SLOTS];
            unsigned ncb = 2 * W;
            for (unsigned i = 0; i < ncb; i++) code[i] = (uint8_t)((key >> (4 * i)) & 15u);
            uint64_t sub[KT_HALFTOUR_MAX_CELLS / 2 + 1];
            unsigned ns = kti_hpaths_split_key(kti_hdp_pack_open(code, ncb, true), ncb, true, sub);
            uint64_t c = 0, s = 0;
            bool mine = false;
            for (unsigned j = 0; j < ns && st == KT_OK; j++) {
                kti_hpaths *p = NULL;
                st = kti_hpaths_new(&p, W, split, true, rule, sub[j], 0, NULL);
                if (st == KT_OK) {
                    c += kti_hpaths_count(p);
                    s += kti_hpaths_states(p);
                }
                kti_hpaths_free(p);
                if (!mine && sub[j] == key) tmine += now() - t0;
                mine |= sub[j] == key;
            }
            double dt = now() - t0;
            if (st != KT_OK || !mine) {
                bad++;
                continue;
            }
            msplit += ns;
            tally_add(&ta, dt, s, c);
            continue;
        }
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
        tally_add(&ta, dt, kti_hpaths_states(p), kti_hpaths_count(p));
        kti_hpaths_free(p);
    }
    int done = ta.done;
    if (merged)
        printf("merged keys stand for %.2f structures each (mean); the programmes up to the tour's own "
               "(what a draw builds): %.2f ms mean\n",
               done ? (double)msplit / done : 0, done ? 1e3 * tmine / done : 0);
    printf("%ux%u %s, upper half %ux%u: %d structures from tours, %d bad; per structure "
           "%.2f ms mean, %.2f ms max; states %.0f mean, %llu max; half-tours %.0f mean, %llu max\n",
           W, H, merged ? "open merged" : open ? "open" : "closed", W, split, done, bad,
           done ? 1e3 * ta.tsum / done : 0, 1e3 * ta.tmax, done ? (double)ta.ssum / done : 0,
           (unsigned long long)ta.smax, done ? (double)ta.csum / done : 0, (unsigned long long)ta.cmax);
    free(nb);
    kt_graph_free(g);
    return bad != 0;
}
