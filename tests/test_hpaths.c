/* SPDX-License-Identifier: MIT */
/*
 * The half-tours of one path structure by the programme from the cut
 * outward (kti_hpaths, lib/halftour/hpaths.c) against the enumeration from
 * the far row (kti_halftours_make, kti_halftours_make_open): for every
 * structure of small closed and open halves (with free, coloured and given
 * tour ends) the two counts agree; every half-tour unranked is checked
 * here, without the programme, to have exactly that structure; they are
 * distinct, and ranking gives their index back.
 */
#include <knight/knight.h>

#include "check.h"
#include "halftour/halftour_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE 0xFFu
#define MAXC 64

/* A half-tour of structure `key`, checked by walking its paths. */
static bool has_structure(uint32_t W, uint32_t D, bool open, const uint8_t *rule, uint64_t key,
                          const uint8_t (*nbr)[2])
{
    unsigned n = W * D, ncb = W * (D >= 2 ? 2u : 1u);
    unsigned cross[MAXC] = {0}, deg[MAXC] = {0}, code[MAXC] = {0}, root[MAXC];
    for (unsigned v = 0; v < n; v++) {
        root[v] = v;
        code[v] = v < ncb ? (unsigned)(key >> (4 * v)) & 15u : 1u;
        cross[v] = code[v] == 0 ? 2u : code[v] == 1 ? 0u : 1u;
    }
    unsigned tour_ends = 0, terms = 0;
    for (unsigned v = 0; v < n; v++) {
        for (unsigned i = 0; i < 2; i++) {
            unsigned u = nbr[v][i];
            if (u == NONE) continue;
            if (u >= n || (nbr[u][0] != v && nbr[u][1] != v)) return false;
            int dx = (int)(u % W) - (int)(v % W), dy = (int)(u / W) - (int)(v / W);
            if (dx * dx + dy * dy != 5) return false;
            deg[v]++;
            if (u < v) continue;
            unsigned a = v, b = u;   /* union-find: an edge inside one component is a cycle */
            while (root[a] != a) a = root[a];
            while (root[b] != b) b = root[b];
            if (a == b) return false;
            root[a] = b;
        }
        unsigned total = deg[v] + cross[v];
        unsigned r = open ? rule[v] : 0;
        if (!(total == 2 && r != 2) && !(total == 1 && r != 0)) return false;
        if (total == 1 && cross[v] == 0) tour_ends++;
        if (total == 1 && cross[v] == 1) tour_ends++; /* a TERM crossing ending here */
    }
    for (unsigned b = 0; b < ncb; b++) {
        if (cross[b] != 1) continue;
        if (open && code[b] == KTI_HDP_TERM) terms++;
        unsigned prev = NONE, cur = b;
        for (bool moved = true; moved;) {
            moved = false;
            for (unsigned i = 0; i < 2 && !moved; i++) {
                unsigned u = nbr[cur][i];
                if (u != NONE && u != prev) {
                    prev = cur;
                    cur = u;
                    moved = true;
                }
            }
        }
        if (open && code[b] == KTI_HDP_TERM) {
            /* The crossing cell itself with no edge inside, or a tour end. */
            if (!(cur == b ? deg[b] == 0 : cross[cur] == 0 && deg[cur] == 1)) return false;
        } else if (cur == b || cross[cur] != 1 || code[cur] != code[b]) {
            return false;
        }
    }
    return tour_ends == terms;
}

static int cmp_bytes(const void *a, const void *b) { return memcmp(a, b, 2 * MAXC); }

/* Every structure of one enumerated half (every `stride`-th), checked. */
static void check_half(const kt_halftours *h, bool open, const uint8_t *rule, size_t stride,
                       uint64_t all)
{
    kti_half_view v = kti_halftours_view(h);
    uint64_t sum = 0;
    size_t checked = 0, unranked = 0;
    for (size_t i = 0; i < v.n; i += stride) {
        kti_hpaths *p = NULL;
        kt_status st = kti_hpaths_new(&p, v.width, v.depth, open, rule, v.keys[i], 0, NULL);
        CHECK(st == KT_OK);
        if (st != KT_OK) return;
        uint64_t c = kti_hpaths_count(p);
        if (c != v.counts[i]) {
            fprintf(stderr, "%ux%u (other %u, %s) key %016llx: %llu half-tours, the enumeration %llu\n",
                    v.width, v.depth, v.other, open ? "open" : "closed",
                    (unsigned long long)v.keys[i], (unsigned long long)c,
                    (unsigned long long)v.counts[i]);
            CHECK(c == v.counts[i]);
        }
        sum += c;
        checked++;
        /* All of a small structure, a spread of a large one. */
        uint64_t take = c < 40 ? c : 40;
        uint8_t(*seen)[2 * MAXC] = calloc(take ? take : 1, sizeof *seen);
        CHECK(seen != NULL);
        for (uint64_t k = 0; seen != NULL && k < take; k++) {
            uint64_t idx = c < 40 ? k : k * (c / 40) + (k == take - 1 ? c % 40 : 0);
            if (k == take - 1) idx = c - 1;
            uint8_t nbr[MAXC][2];
            uint64_t back = UINT64_MAX;
            CHECK(kti_hpaths_unrank(p, idx, nbr) == KT_OK);
            CHECK(has_structure(v.width, v.depth, open, rule, v.keys[i], (const uint8_t(*)[2])nbr));
            CHECK(kti_hpaths_rank(p, (const uint8_t(*)[2])nbr, &back) == KT_OK && back == idx);
            memset(seen[k], NONE, sizeof seen[k]);
            memcpy(seen[k], nbr, (size_t)v.width * v.depth * 2);
            unranked++;
        }
        if (seen != NULL && take > 1) {
            qsort(seen, take, sizeof *seen, cmp_bytes);
            for (uint64_t k = 1; k < take; k++) CHECK(memcmp(seen[k - 1], seen[k], sizeof *seen) != 0);
        }
        free(seen);
        kti_hpaths_free(p);
    }
    if (stride == 1) CHECK(sum == all);
    printf("%ux%u half (other %u, %s): %zu of %zu structures, %zu half-tours unranked\n", v.width,
           v.depth, v.other, open ? "open" : "closed", checked, v.n, unranked);
}

static void closed_half(uint32_t W, uint32_t D, uint32_t O, size_t stride)
{
    kti_run run;
    kti_run_resolve(&run, NULL);
    kt_halftours *h = NULL;
    CHECK(kti_halftours_make(&h, W, D, O, &run, NULL) == KT_OK);
    if (h == NULL) return;
    kt_halftour_stats s;
    CHECK(kt_halftours_stats(h, &s) == KT_OK);
    check_half(h, false, NULL, stride, s.halftours);
    kt_halftours_free(h);
}

/* An open half of board W x H (its local row r is board row first + dir
 * r), tour ends as the enumeration of kt_halftours_count_open allows. */
static void open_half(uint32_t W, uint32_t D, uint32_t H, uint32_t first, int dir,
                      const kt_cell *given, unsigned ngiven, size_t stride)
{
    uint8_t rule[MAXC];
    kti_halftours_open_rules(rule, W, D, H, first, dir, given, ngiven);
    kti_run run;
    kti_run_resolve(&run, NULL);
    kt_halftours *h = NULL;
    CHECK(kti_halftours_make_open(&h, W, D, H - D, rule, &run, NULL) == KT_OK);
    if (h == NULL) return;
    kt_halftour_stats s;
    CHECK(kt_halftours_stats(h, &s) == KT_OK);
    check_half(h, true, rule, stride, s.halftours);
    kt_halftours_free(h);
}

/* A merged open half (the count's enumeration, in shards from `from`
 * cells) against the same half whole: every merged structure splits
 * (kti_hpaths_split_key) into structures whose hpaths counts add up to its
 * count, each with half-tours one of the whole half's with that count,
 * and together they are every structure of the whole half once (every
 * `stride`-th merged structure: the last check only when all are). */
static void merged_half(uint32_t W, uint32_t D, uint32_t H, uint32_t first, int dir,
                        const kt_cell *given, unsigned ngiven, uint32_t from, size_t stride)
{
    uint8_t rule[MAXC];
    kti_halftours_open_rules(rule, W, D, H, first, dir, given, ngiven);
    kti_run run;
    kti_run_resolve(&run, NULL);
    kt_halftours *m = NULL, *h = NULL;
    CHECK(kti_halftours_make_open_merged(&m, W, D, H - D, rule, from, &run, NULL) == KT_OK);
    CHECK(kti_halftours_make_open(&h, W, D, H - D, rule, &run, NULL) == KT_OK);
    if (m == NULL || h == NULL) {
        kt_halftours_free(m);
        kt_halftours_free(h);
        return;
    }
    kti_half_view vm = kti_halftours_view(m), vh = kti_halftours_view(h);
    CHECK(vm.merged && !vh.merged && vm.n < vh.n);
    uint8_t *hit = calloc(vh.n ? vh.n : 1, 1);
    CHECK(hit != NULL);
    size_t split = 0, covered = 0;
    size_t checked = 0;
    for (size_t i = 0; hit != NULL && i < vm.n; i += stride, checked++) {
        uint64_t sub[MAXC / 2 + 1], sum = 0;
        unsigned n = kti_hpaths_split_key(vm.keys[i], vm.ncb, true, sub);
        CHECK(n >= 1 && n <= vm.ncb / 2);
        split += n > 1;
        for (unsigned k = 0; k < n; k++) {
            kti_hpaths *p = NULL;
            CHECK(kti_hpaths_new(&p, W, D, true, rule, sub[k], 0, NULL) == KT_OK);
            uint64_t c = p != NULL ? kti_hpaths_count(p) : 0;
            kti_hpaths_free(p);
            size_t j;
            bool found = kti_half_view_find(&vh, sub[k], &j);
            CHECK(found ? vh.counts[j] == c && !hit[j] : c == 0);
            if (found && !hit[j]) {
                hit[j] = 1;
                covered++;
            }
            sum += c;
        }
        CHECK(sum == vm.counts[i]);
    }
    if (stride == 1) CHECK(covered == vh.n);
    printf("%ux%u half (other %u, merged, from %u): %zu structures for %zu, %zu checked, %zu split\n",
           W, D, H - D, from, vm.n, vh.n, checked, split);
    free(hit);
    kt_halftours_free(m);
    kt_halftours_free(h);
}

/* Arguments and refusals. */
static void edges(void)
{
    kti_hpaths *p = (kti_hpaths *)1;
    CHECK(kti_hpaths_new(&p, 0, 3, false, NULL, 0, 0, NULL) == KT_EINVAL && p == NULL);
    CHECK(kti_hpaths_new(&p, 5, 3, true, NULL, 0, 0, NULL) == KT_EINVAL);
    CHECK(kti_hpaths_new(&p, 9, 3, false, NULL, 0, 0, NULL) == KT_EUNSUPPORTED);
    CHECK(kti_hpaths_new(NULL, 5, 3, false, NULL, 0, 0, NULL) == KT_EINVAL);
    kti_hpaths_free(NULL);
    /* 5x3, every boundary cell interior (no step across): no half-tour is
     * a path cover with no ends, so none. */
    uint64_t interior = 0;
    for (unsigned i = 0; i < 10; i++) interior |= (uint64_t)1 << (4 * i);
    CHECK(kti_hpaths_new(&p, 5, 3, false, NULL, interior, 0, NULL) == KT_OK);
    if (p != NULL) {
        CHECK(kti_hpaths_count(p) == 0);
        uint8_t nbr[MAXC][2];
        CHECK(kti_hpaths_unrank(p, 0, nbr) == KT_EINVAL);
        kti_hpaths_free(p);
    }
    /* A budget of one state per layer is passed at once. */
    kti_run run;
    kti_run_resolve(&run, NULL);
    kt_halftours *h = NULL;
    CHECK(kti_halftours_make(&h, 6, 3, 3, &run, NULL) == KT_OK);
    if (h != NULL) {
        kti_half_view v = kti_halftours_view(h);
        size_t big = 0;
        for (size_t i = 0; i < v.n; i++)
            if (v.counts[i] > v.counts[big]) big = i;
        p = NULL;
        CHECK(kti_hpaths_new(&p, 6, 3, false, NULL, v.keys[big], 1, NULL) == KT_ELIMIT && p == NULL);
        CHECK(kti_hpaths_new(&p, 6, 3, false, NULL, v.keys[big], 0, NULL) == KT_OK);
        if (p != NULL) {
            /* A half-tour of another structure is not one of this one. */
            size_t other = big == 0 ? 1 : 0;
            kti_hpaths *q = NULL;
            CHECK(kti_hpaths_new(&q, 6, 3, false, NULL, v.keys[other], 0, NULL) == KT_OK);
            uint8_t nbr[MAXC][2];
            uint64_t idx = 0;
            if (q != NULL && kti_hpaths_count(q) > 0) {
                CHECK(kti_hpaths_unrank(q, 0, nbr) == KT_OK);
                CHECK(kti_hpaths_rank(p, (const uint8_t(*)[2])nbr, &idx) == KT_ENOTOUR);
            }
            /* An edge that is no knight's move of the half. */
            CHECK(kti_hpaths_unrank(p, 0, nbr) == KT_OK);
            nbr[0][nbr[0][0] == NONE ? 0 : 1] = 1;
            nbr[1][nbr[1][0] == NONE ? 0 : 1] = 0;
            CHECK(kti_hpaths_rank(p, (const uint8_t(*)[2])nbr, &idx) == KT_ENOTOUR);
            kti_hpaths_free(q);
            kti_hpaths_free(p);
        }
        kt_halftours_free(h);
    }
}

int main(void)
{
    /* KT_TEST_LIGHT (valgrind): fewer of the sharded merged half's structures. */
    size_t light = getenv("KT_TEST_LIGHT") != NULL ? 8 : 1;
    edges();
    /* Closed halves: every structure, or every n-th of the larger. */
    closed_half(5, 3, 3, 1);
    closed_half(6, 3, 3, 3);
    closed_half(4, 4, 4, 1);
    closed_half(8, 2, 2, 1);
    closed_half(6, 4, 4, 97);
    /* Open halves: tour ends anywhere (5x6 cut 3/3), on the larger colour
     * (5x5 cut 3/2: both halves), at given cells (6x6 from a corner to a
     * cell of the far side; one end given on 5x6); every n-th structure of
     * the larger. */
    open_half(5, 3, 6, 2, -1, NULL, 0, 7);
    open_half(5, 3, 5, 2, -1, NULL, 0, 3);
    open_half(5, 2, 5, 3, 1, NULL, 0, 1);
    kt_cell ends[2] = {0, 6 * 5 + 4};
    open_half(6, 3, 6, 2, -1, ends, 2, 1);
    open_half(6, 3, 6, 3, 1, ends, 2, 1);
    open_half(5, 3, 6, 2, -1, ends, 1, 1);
    open_half(6, 3, 6, 2, -1, NULL, 0, 211);
    /* Merged halves split back: 5x6 cut 3/3, 6x8's 6x4 half in shards, one
     * end given on 5x6. */
    merged_half(5, 3, 6, 2, -1, NULL, 0, 64, 1);
    merged_half(5, 4, 8, 3, -1, NULL, 0, 0, 13 * light);
    merged_half(5, 3, 6, 2, -1, ends, 1, 64, 1);
    return check_done("hpaths");
}
