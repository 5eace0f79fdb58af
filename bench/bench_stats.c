/* SPDX-License-Identifier: MIT */
/*
 * Exact statistics of closed tours and how close obfuscation comes to them
 * (issue 17).  Usage:
 *   bench_stats exact              the exact move and relative-move distributions over
 *                                  all closed tours of 6x6 (two methods) and 6x8 (the
 *                                  weighted count: 5-9 minutes and 4.6 GB)
 *   bench_stats tv [SEEDS [KMAX]] [--svg DIR] [--side 6|8] [--uniform]
 *                                  the total-variation distance from the exact
 *                                  distributions of each generator's tours obfuscated
 *                                  k = 0..KMAX rounds (default 200 seeds, 64 rounds),
 *                                  on 6x6 and 8x8; with --svg, the charts
 *                                  DIR/obfuscation-tv-6x6.svg and -8x8.svg; with
 *                                  --side, that board only; with --uniform, the 8x8
 *                                  noise floor comes from SEEDS exactly uniform tours
 *                                  of kt_sampler (its preparation: about 15 minutes
 *                                  and 3.3 GiB), whose own distance from the exact
 *                                  distributions is printed as a check of both
 * Figures and the commands used are in BENCHMARKS.md, section "Exact statistics".
 */
#include <knight/knight.h>

#include "bench_clock.h"
#include "exact_stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KMAX_LIMIT 256
#define FLOOR_DRAWS 2000

/* ---- the generators: a closed tour from a seed --------------------------- */

typedef kt_status (*gen_fn)(kt_tourney **out, const kt_graph *g, uint64_t seed);

static kt_status joined(kt_tourney **out, const kt_graph *g, kt_generate_method m, uint64_t seed)
{
    kt_status st = kt_generate_tourney(out, g, m, seed, NULL);
    if (st == KT_OK) st = kt_rails_join(*out, seed, NULL);
    if (st != KT_OK) {
        kt_tourney_free(*out);
        *out = NULL;
    }
    return st;
}

static kt_status gen_warnsdorff(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    return kt_generate_warnsdorff_tour(out, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_GENERATE_TIE_RANDOM,
                                       seed, NULL);
}
static kt_status gen_neural(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    return joined(out, g, KT_GENERATE_NEURAL, seed);
}
static kt_status gen_divide(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    return kt_generate_divide_tour(out, g, seed, NULL);
}
static kt_status gen_braid(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    return joined(out, g, KT_GENERATE_BRAID, seed);
}
static kt_status gen_four_cover(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    return joined(out, g, KT_GENERATE_FOUR_COVER, seed);
}
static kt_status gen_default(kt_tourney **out, const kt_graph *g, uint64_t seed)
{
    return kt_generate_closed_tour(out, g, seed, NULL);
}

static const struct {
    const char *name, *colour;
    gen_fn make;
} gens[] = {
    {"Warnsdorff", "#d62728", gen_warnsdorff},   {"Takefuji-Lee", "#1f77b4", gen_neural},
    {"Div-and-Conq", "#2ca02c", gen_divide},     {"Braid", "#9467bd", gen_braid},
    {"Four-Cover", "#ff7f0e", gen_four_cover},   {"closed_tour", "#8c564b", gen_default},
};
#define NGEN (sizeof gens / sizeof gens[0])

/* ---- small helpers --------------------------------------------------------- */

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A tour's move (0-7) and relative-move (8-15) distributions, both directions. */
static void tour_freq(const kt_tourney *t, double f[16])
{
    uint64_t mv[8], rl[8];
    kt_tourney_move_counts(t, mv);
    kt_tourney_relative_move_counts(t, rl);
    es_both_directions(mv, rl, f, f + 8);
}

/* The TV distance of a sample's mean (vectors of 16, stride 16) from exact. */
static void sample_tv(const double *vec, const size_t *pick, size_t n, const double exact[16],
                      double tv[2])
{
    double mean[16] = {0};
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 16; j++) mean[j] += vec[16 * (pick ? pick[i] : i) + j] / (double)n;
    tv[0] = es_tv(mean, exact, 8);
    tv[1] = es_tv(mean + 8, exact + 8, 8);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* How far the mean of `seeds` tours drawn from the pool `vec` (n vectors)
 * lands from exact, by FLOOR_DRAWS draws with replacement: mean and 99.5th
 * percentile, per statistic.  `shift` recentres the pool on exact (a
 * bootstrap) when the pool is not itself the exact population. */
static void noise_floor(const double *vec, size_t n, size_t seeds, const double exact[16],
                        bool shift, double mean[2], double q95[2])
{
    double pool_mean[16] = {0}, *tv[2];
    size_t *pick = malloc(seeds * sizeof *pick);
    tv[0] = malloc(FLOOR_DRAWS * sizeof(double));
    tv[1] = malloc(FLOOR_DRAWS * sizeof(double));
    if (pick == NULL || tv[0] == NULL || tv[1] == NULL) exit(2);
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 16; j++) pool_mean[j] += vec[16 * i + j] / (double)n;
    uint64_t s = 12345;
    for (int r = 0; r < FLOOR_DRAWS; r++) {
        double d[2];
        for (size_t i = 0; i < seeds; i++) pick[i] = splitmix(&s) % n;
        sample_tv(vec, pick, seeds, shift ? pool_mean : exact, d);
        tv[0][r] = d[0];
        tv[1][r] = d[1];
    }
    for (int k = 0; k < 2; k++) {
        mean[k] = 0;
        for (int r = 0; r < FLOOR_DRAWS; r++) mean[k] += tv[k][r] / FLOOR_DRAWS;
        qsort(tv[k], FLOOR_DRAWS, sizeof(double), cmp_double);
        q95[k] = tv[k][FLOOR_DRAWS * 995 / 1000];
        free(tv[k]);
    }
    free(pick);
}

static void print_dist(const char *label, const double f[8], bool relative)
{
    printf("| %s |", label);
    for (int k = 0; k < 8; k++)
        if (!relative || k != 4) printf(" %.6f |", f[k]);
    printf("\n");
}

/* ---- exact ----------------------------------------------------------------- */

static void exact_board(uint32_t w, uint32_t h, bool enumerate)
{
    es_totals a, b;
    double mv[8], rl[8];
    printf("== %ux%u ==\n", w, h);
    if (enumerate) {
        double t0 = bench_now();
        if (es_enumerate(w, h, &a, NULL, NULL) != 0) exit(2);
        printf("enumeration: %llu tours, %.2f s\n", (unsigned long long)a.tours, bench_now() - t0);
    }
    double t0 = bench_now();
    size_t peak = 0;
    if (es_weighted_count(w, h, 0, &b, &peak) != 0) exit(2);
    printf("weighted count: %llu tours, %.2f s, %zu states at most\n", (unsigned long long)b.tours,
           bench_now() - t0, peak);
    if (enumerate)
        printf("the two methods %s\n", memcmp(&a, &b, sizeof a) == 0 ? "agree on every figure"
                                                                       : "DISAGREE");
    kt_graph *g = NULL;
    kt_u128 n = {0, 0};
    if (kt_graph_new(&g, w, h) == KT_OK && kt_count_tours(g, 0, NULL, &n, NULL) == KT_OK)
        printf("kt_count_tours: %llu tours (%s)\n", (unsigned long long)n.lo,
               n.lo == b.tours && n.hi == 0 ? "agrees" : "DISAGREES");
    kt_graph_free(g);
    printf("totals over both directions of every tour (moves / relative moves):\n");
    for (int k = 0; k < 8; k++)
        printf("  %d: %llu / %llu\n", k, (unsigned long long)b.moves[k], (unsigned long long)b.relative[k]);
    es_frequencies(&b, w * h, mv, rl);
    printf("| %ux%u | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 |\n|---|---|---|---|---|---|---|---|---|\n", w, h);
    print_dist("moves", mv, false);
    printf("| %ux%u | 0 | 1 | 2 | 3 | 5 | 6 | 7 |\n|---|---|---|---|---|---|---|---|\n", w, h);
    print_dist("relative", rl, true);
    printf("\n");
}

/* ---- tv -------------------------------------------------------------------- */

typedef struct series {
    bool used;
    unsigned tours, failed;
    double tv[2][KMAX_LIMIT + 1];
    int settle[2]; /* first k from which the distance stays under the floor; -1 never */
} series;

typedef struct board_run {
    uint32_t side;
    unsigned seeds, kmax;
    double exact[16];
    bool have_relative; /* an exact relative-move distribution is known */
    bool uniform;       /* 8x8: draw the noise floor's tours with kt_sampler */
    double floor_mean[2], floor_q95[2];
    double uniform_tv[2]; /* the uniform sample's mean against exact */
    double pool_mean[16]; /* the last round's tours, all generators */
    series s[NGEN];
} board_run;

/* One generator: `seeds` tours, each shattered k = 1..kmax times in turn
 * and joined after every shatter (obfuscation with k rounds), the mean
 * distribution per k against the exact one.  The last round's tours go to
 * `pool` (16 doubles each) for the noise floor. */
static void run_generator(board_run *R, size_t gi, const kt_graph *g, double *pool, size_t *npool)
{
    series *S = &R->s[gi];
    double (*sum)[16] = calloc(R->kmax + 1, sizeof *sum);
    unsigned *cnt = calloc(R->kmax + 1, sizeof *cnt);
    if (sum == NULL || cnt == NULL) exit(2);
    for (unsigned seed = 0; seed < R->seeds; seed++) {
        kt_tourney *t0 = NULL;
        if (gens[gi].make(&t0, g, seed) != KT_OK) {
            S->failed++;
            continue;
        }
        S->tours++;
        kt_tourney *w = NULL;
        if (kt_tourney_copy(&w, t0) != KT_OK) exit(2);
        uint64_t rs = 0x5eed0000ull + seed;
        for (unsigned k = 0; k <= R->kmax; k++) {
            kt_tourney *u = NULL;
            if (k > 0 && kt_rails_shatter(w, splitmix(&rs)) != KT_OK) exit(2);
            if (kt_tourney_copy(&u, k ? w : t0) != KT_OK) exit(2);
            double f[16];
            if (k == 0 || kt_rails_join(u, splitmix(&rs), NULL) == KT_OK) {
                tour_freq(u, f);
                for (int j = 0; j < 16; j++) sum[k][j] += f[j];
                cnt[k]++;
                if (k == R->kmax) memcpy(pool + 16 * (*npool)++, f, sizeof f);
            }
            kt_tourney_free(u);
        }
        kt_tourney_free(w);
        kt_tourney_free(t0);
    }
    S->used = S->tours > 0;
    for (unsigned k = 0; k <= R->kmax && S->used; k++) {
        double mean[16];
        for (int j = 0; j < 16; j++) mean[j] = cnt[k] ? sum[k][j] / cnt[k] : 0;
        S->tv[0][k] = es_tv(mean, R->exact, 8);
        S->tv[1][k] = es_tv(mean + 8, R->exact + 8, 8);
    }
    free(sum);
    free(cnt);
}

static void settle(board_run *R)
{
    for (size_t gi = 0; gi < NGEN; gi++)
        for (int st = 0; st < 2; st++) {
            int k = (int)R->kmax;
            while (k >= 0 && R->s[gi].tv[st][k] <= R->floor_q95[st]) k--;
            R->s[gi].settle[st] = k == (int)R->kmax ? -1 : k + 1;
        }
}

/* 6x6: every tour's distributions, for the exact noise floor. */
typedef struct pool6 {
    double *vec;
    size_t n;
    uint32_t cells;
} pool6;

static void pool6_add(void *ctx, const uint64_t mv[8], const uint64_t rl[8])
{
    pool6 *P = ctx;
    for (int k = 0; k < 8; k++) {
        P->vec[16 * P->n + k] = (double)mv[k] / (2.0 * P->cells);
        P->vec[16 * P->n + 8 + k] = (double)rl[k] / (2.0 * P->cells);
    }
    P->n++;
}

/* The exact 8x8 relative-move distribution over directed tours: the cells
 * of each turn class (relative move r walked one way, 8 - r the other)
 * summed over all 13,267,364,410,532 closed tours, by the weighted
 * half-tour join: `bench_relmove 8 8 4 2 I 10` for I = 0..9, added
 * (BENCHMARKS.md, "Exact statistics"). */
static void exact8_relative(double rel[8])
{
    static const uint64_t tours = 13267364410532ull;
    static const uint64_t turn[4] = {51184099849576ull, 282428866361416ull, 244311902712808ull,
                                     271186453350248ull};
    const double den = 2.0 * 64 * (double)tours;
    for (int r = 0; r < 8; r++) {
        int c = r <= 4 ? r : 8 - r;
        rel[r] = c == 4 ? 0.0 : (double)turn[c] * (c == 0 ? 2.0 : 1.0) / den;
    }
}

/* `n` tours drawn exactly uniformly by kt_sampler (8x8: through McKay's
 * half-tours), each validated, their distributions in `vec`. */
static void uniform_pool(const kt_graph *g, unsigned n, double *vec)
{
    kt_sampler *s = NULL;
    fprintf(stderr, "uniform sample: preparing the sampler\n");
    double t0 = bench_now(), c0 = bench_cpu();
    if (kt_sampler_new(&s, g, KT_SHAPE_CYCLES, KT_CELL_NONE, KT_CELL_NONE, NULL) != KT_OK) exit(2);
    double t1 = bench_now(), c1 = bench_cpu();
    for (unsigned i = 0; i < n; i++) {
        kt_tourney *t = NULL;
        if (kt_sampler_draw(&t, s, 17, i) != KT_OK || !kt_tourney_is_closed_tour(t)) exit(2);
        tour_freq(t, vec + 16 * (size_t)i);
        kt_tourney_free(t);
    }
    fprintf(stderr, "uniform sample: preparation %.1f s wall, %.1f s CPU; %u draws %.1f s wall, %.1f s CPU\n",
            t1 - t0, c1 - c0, n, bench_now() - t1, bench_cpu() - c1);
    kt_sampler_free(s);
}

static void run_board(board_run *R)
{
    kt_graph *g = NULL;
    if (kt_graph_new(&g, R->side, R->side) != KT_OK) exit(2);
    double *pool = malloc((size_t)NGEN * R->seeds * 16 * sizeof(double));
    size_t npool = 0;
    if (pool == NULL) exit(2);
    if (R->side == 6) {
        es_totals t;
        pool6 P = {malloc(10000 * 16 * sizeof(double)), 0, 36};
        if (P.vec == NULL || es_enumerate(6, 6, &t, pool6_add, &P) != 0 || P.n != 9862) exit(2);
        es_frequencies(&t, 36, R->exact, R->exact + 8);
        R->have_relative = true;
        /* the floor: R->seeds tours drawn uniformly from all 9,862 */
        noise_floor(P.vec, P.n, R->seeds, R->exact, false, R->floor_mean, R->floor_q95);
        free(P.vec);
    } else {
        /* a square board's 8 symmetries take every move to every other */
        for (int k = 0; k < 8; k++) R->exact[k] = 0.125;
        exact8_relative(R->exact + 8);
        R->have_relative = true;
    }
    double t0 = bench_now();
    for (size_t gi = 0; gi < NGEN; gi++) run_generator(R, gi, g, pool, &npool);
    fprintf(stderr, "%ux%u: %.1f s\n", R->side, R->side, bench_now() - t0);
    double pm[16] = {0};
    for (size_t i = 0; i < npool; i++)
        for (int j = 0; j < 16; j++) pm[j] += pool[16 * i + j] / (double)npool;
    memcpy(R->pool_mean, pm, sizeof pm);
    if (R->side != 6 && R->uniform) {
        /* uniform tours: bootstrapped around their own mean, which should
         * itself lie within the floor of the exact distribution */
        uniform_pool(g, R->seeds, pool);
        sample_tv(pool, NULL, R->seeds, R->exact, R->uniform_tv);
        noise_floor(pool, R->seeds, R->seeds, R->exact, true, R->floor_mean, R->floor_q95);
    } else if (R->side != 6) {
        /* no uniform sample: bootstrap the last round's tours around the exact mean */
        noise_floor(pool, npool, R->seeds, R->exact, true, R->floor_mean, R->floor_q95);
    }
    settle(R);
    free(pool);
    kt_graph_free(g);
}

static void print_board(const board_run *R)
{
    static const unsigned ks[] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};
    for (int st = 0; st < (R->have_relative ? 2 : 1); st++) {
        printf("\n%ux%u, %s: TV distance of the mean of %u tours from the exact distribution\n\n",
               R->side, R->side, st ? "relative moves" : "moves", R->seeds);
        printf("| k |");
        for (size_t gi = 0; gi < NGEN; gi++)
            if (R->s[gi].used) printf(" %s |", gens[gi].name);
        printf("\n|---|");
        for (size_t gi = 0; gi < NGEN; gi++)
            if (R->s[gi].used) printf("---|");
        printf("\n");
        for (size_t i = 0; i < sizeof ks / sizeof ks[0] && ks[i] <= R->kmax; i++) {
            printf("| %u |", ks[i]);
            for (size_t gi = 0; gi < NGEN; gi++)
                if (R->s[gi].used) printf(" %.4f |", R->s[gi].tv[st][ks[i]]);
            printf("\n");
        }
        printf("| within the floor from k = |");
        for (size_t gi = 0; gi < NGEN; gi++)
            if (!R->s[gi].used) continue;
            else if (R->s[gi].settle[st] < 0) printf(" never |");
            else printf(" %d |", R->s[gi].settle[st]);
        printf("\n\nnoise floor (%s): mean %.4f, 99.5th percentile %.4f\n",
               R->side == 6   ? "uniform draws from all tours"
               : R->uniform ? "bootstrap of the kt_sampler tours"
                              : "bootstrap of the last round",
               R->floor_mean[st], R->floor_q95[st]);
        if (R->uniform && R->side != 6)
            printf("the mean of the %u kt_sampler tours is at %.4f from the exact distribution (%s)\n",
                   R->seeds, R->uniform_tv[st],
                   R->uniform_tv[st] <= R->floor_q95[st] ? "within the floor" : "ABOVE THE FLOOR");
    }
    printf("\n%ux%u, the last round's tours of all generators against the exact distribution:\n\n",
           R->side, R->side);
    printf("| | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 |\n|---|---|---|---|---|---|---|---|---|\n");
    print_dist("exact moves", R->exact, false);
    print_dist("obfuscated moves", R->pool_mean, false);
    if (R->have_relative) print_dist("exact relative", R->exact + 8, false);
    print_dist("obfuscated relative", R->pool_mean + 8, false);
    for (size_t gi = 0; gi < NGEN; gi++)
        if (R->s[gi].failed) printf("%s: %u seeds gave no tour\n", gens[gi].name, R->s[gi].failed);
}

/* ---- svg ------------------------------------------------------------------- */

static double svg_y(double v, double y0, double h)
{
    if (v < 1e-3) v = 1e-3;
    return y0 + h * (-log10(v)) / 3.0; /* 1 at the top, 0.001 at the bottom */
}

static void svg_panel(FILE *f, const board_run *R, int st, double x0, double y0, double w, double h)
{
    fprintf(f, "<text x='%.0f' y='%.0f' font-size='14' text-anchor='middle'>%ux%u, %s</text>\n",
            x0 + w / 2, y0 - 10, R->side, R->side, st ? "relative moves" : "moves");
    fprintf(f, "<rect x='%.0f' y='%.0f' width='%.0f' height='%.0f' fill='none' stroke='#444'/>\n",
            x0, y0, w, h);
    for (int d = 0; d <= 3; d++) {
        double y = y0 + h * d / 3.0;
        fprintf(f, "<line x1='%.0f' y1='%.1f' x2='%.0f' y2='%.1f' stroke='#ddd'/>\n", x0, y, x0 + w, y);
        fprintf(f, "<text x='%.0f' y='%.1f' font-size='11' text-anchor='end'>%g</text>\n", x0 - 4,
                y + 4, pow(10, -d));
    }
    for (unsigned k = 0; k <= R->kmax; k += 8) {
        double x = x0 + w * k / R->kmax;
        fprintf(f, "<text x='%.1f' y='%.0f' font-size='11' text-anchor='middle'>%u</text>\n", x,
                y0 + h + 14, k);
    }
    fprintf(f, "<text x='%.0f' y='%.0f' font-size='12' text-anchor='middle'>obfuscation rounds k</text>\n",
            x0 + w / 2, y0 + h + 30);
    double fy = svg_y(R->floor_q95[st], y0, h);
    fprintf(f, "<line x1='%.0f' y1='%.1f' x2='%.0f' y2='%.1f' stroke='#000' stroke-dasharray='6,4'/>\n",
            x0, fy, x0 + w, fy);
    for (size_t gi = 0; gi < NGEN; gi++) {
        if (!R->s[gi].used) continue;
        fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='1.5' points='", gens[gi].colour);
        for (unsigned k = 0; k <= R->kmax; k++)
            fprintf(f, "%.1f,%.1f ", x0 + w * k / R->kmax, svg_y(R->s[gi].tv[st][k], y0, h));
        fprintf(f, "'/>\n");
    }
}

static void svg_write(const board_run *R, const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/obfuscation-tv-%ux%u.svg", dir, R->side, R->side);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        exit(2);
    }
    int panels = R->have_relative ? 2 : 1;
    double pw = 360, ph = 240, W = 70 + panels * (pw + 60) + 150, H = ph + 90;
    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' "
               "font-family='sans-serif'>\n<rect width='100%%' height='100%%' fill='white'/>\n", W, H);
    fprintf(f, "<text x='14' y='%.0f' font-size='12' transform='rotate(-90 14 %.0f)' "
               "text-anchor='middle'>TV distance from all tours (log)</text>\n", 30 + ph / 2, 30 + ph / 2);
    for (int st = 0; st < panels; st++) svg_panel(f, R, st, 70 + st * (pw + 60), 30, pw, ph);
    double lx = 70 + panels * (pw + 60), ly = 40;
    for (size_t gi = 0; gi < NGEN; gi++) {
        if (!R->s[gi].used) continue;
        fprintf(f, "<line x1='%.0f' y1='%.0f' x2='%.0f' y2='%.0f' stroke='%s' stroke-width='2'/>"
                   "<text x='%.0f' y='%.0f' font-size='12'>%s</text>\n",
                lx, ly, lx + 20, ly, gens[gi].colour, lx + 26, ly + 4, gens[gi].name);
        ly += 18;
    }
    fprintf(f, "<line x1='%.0f' y1='%.0f' x2='%.0f' y2='%.0f' stroke='#000' stroke-dasharray='6,4'/>"
               "<text x='%.0f' y='%.0f' font-size='12'>uniform, 99.5%%</text>\n",
            lx, ly, lx + 20, ly, lx + 26, ly + 4);
    fprintf(f, "<text x='%.0f' y='%.0f' font-size='11' fill='#555'>%u tours per point</text>\n</svg>\n",
            lx, ly + 22, R->seeds);
    fclose(f);
    printf("wrote %s\n", path);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "tv";
    if (strcmp(what, "exact") == 0) {
        exact_board(6, 6, true);
        exact_board(6, 8, false);
        return 0;
    }
    if (strcmp(what, "tv") != 0) {
        fprintf(stderr, "usage: bench_stats exact | tv [SEEDS [KMAX]] [--svg DIR] [--side 6|8] [--uniform]\n");
        return 2;
    }
    const char *svg = NULL;
    unsigned num[2] = {200, 64}, nn = 0, only = 0;
    bool uniform = false;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc) svg = argv[++i];
        else if (strcmp(argv[i], "--uniform") == 0) uniform = true;
        else if (strcmp(argv[i], "--side") == 0 && i + 1 < argc)
            only = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (nn < 2) num[nn++] = (unsigned)strtoul(argv[i], NULL, 10);
    }
    if (num[0] == 0 || num[1] == 0 || num[1] > KMAX_LIMIT) return 2;
    static board_run runs[2];
    static const uint32_t sides[2] = {6, 8};
    for (int b = 0; b < 2; b++) {
        if (only != 0 && only != sides[b]) continue;
        runs[b].side = sides[b];
        runs[b].seeds = num[0];
        runs[b].kmax = num[1];
        runs[b].uniform = uniform;
        run_board(&runs[b]);
        print_board(&runs[b]);
        if (svg) svg_write(&runs[b], svg);
    }
    return 0;
}
