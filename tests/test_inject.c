/* SPDX-License-Identifier: MIT */
/*
 * Allocation-failure injection over a representative call of every module.
 *
 * A counting allocator fails the k-th allocation of the call under test,
 * either once or from k on, for every k up to the number of allocations the
 * call makes without failures.  Each run must:
 * - return KT_ENOMEM, or KT_OK when the failure was absorbed;
 * - give, when it returns KT_OK, the same result as the run without
 *   injection (same seed, same tour, same count);
 * - leave its inputs unchanged when it fails (tourneys compared with
 *   kt_tourney_equal() against a copy made before);
 * - leak nothing: as many frees as successful allocations once the inputs
 *   and results are freed.
 * The inputs are made before the failures are armed, with the same
 * allocator, so that the objects made from them (which free through it)
 * are counted too.  The test prints the number of allocation points failed.
 */
#include <knight/knight.h>

#include "check.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

typedef struct inj {
    atomic_ulong allocs, frees, failed;
    atomic_ulong armed_allocs; /* allocations requested while armed */
    unsigned long fail_at;     /* 1-based index among the armed ones; 0 = never */
    bool from_on;              /* fail every allocation from fail_at on */
    atomic_bool armed;
} inj;

static void *inj_alloc(void *opaque, size_t size)
{
    inj *c = opaque;
    if (atomic_load(&c->armed)) {
        unsigned long k = atomic_fetch_add(&c->armed_allocs, 1) + 1;
        if (c->fail_at != 0 && (k == c->fail_at || (c->from_on && k > c->fail_at))) {
            atomic_fetch_add(&c->failed, 1);
            return NULL;
        }
    }
    void *p = malloc(size ? size : 1);
    if (p != NULL) atomic_fetch_add(&c->allocs, 1);
    return p;
}

static void inj_free(void *opaque, void *p)
{
    inj *c = opaque;
    if (p == NULL) return;
    atomic_fetch_add(&c->frees, 1);
    free(p);
}

/* One case: set up inputs (unarmed), run the call (armed), fingerprint the
 * result, check the inputs, release everything.  `run` returns the call's
 * status and stores a digest of its result (only read on KT_OK). */
typedef struct ctx {
    const kt_allocator *al;
    inj *c;
    kt_options *run; /* with the allocator; 1 thread unless the case says */
    kt_graph *g;
    kt_tourney *t, *copy; /* an input and its copy */
} ctx;

typedef kt_status (*case_fn)(ctx *x, uint64_t *digest);

static void arm(ctx *x) { atomic_store(&x->c->armed, true); }
static void disarm(ctx *x) { atomic_store(&x->c->armed, false); }

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t tourney_digest(const kt_tourney *t)
{
    if (t == NULL) return 0;
    size_t n = kt_graph_cell_count(kt_tourney_graph(t));
    uint8_t *m = malloc(n ? n : 1);
    uint64_t h = 0xcbf29ce484222325ull;
    if (m != NULL && kt_tourney_move_pairs(t, m, n) == KT_OK) h = fnv(h, m, n);
    free(m);
    size_t s = kt_tourney_size(t);
    return fnv(h, &s, sizeof s);
}

static uint64_t u128_digest(kt_u128 v) { return fnv(fnv(1, &v.lo, 8), &v.hi, 8); }

/* Inputs: a board and a tourney on it made by `method` (or none). */
static void make_inputs(ctx *x, uint32_t w, uint32_t h, int method, uint64_t seed)
{
    CHECK_ST(kt_graph_new_custom(&x->g, w, h, 2, 1, NULL, x->al), KT_OK);
    if (method >= 0) {
        CHECK_ST(kt_generate_tourney(&x->t, x->g, (kt_generate_method)method, seed, NULL), KT_OK);
        CHECK_ST(kt_tourney_copy(&x->copy, x->t), KT_OK);
    }
}

/* A failed call must leave the input tourney as it was. */
static void check_unchanged(ctx *x, kt_status st)
{
    if (st != KT_OK && x->t != NULL) CHECK(kt_tourney_equal(x->t, x->copy) == 1);
}

/* ---- the cases ---- */

static kt_status c_graph_new(ctx *x, uint64_t *d)
{
    kt_graph *g = NULL;
    arm(x);
    kt_status st = kt_graph_new_custom(&g, 13, 11, 2, 1, NULL, x->al);
    disarm(x);
    CHECK((st == KT_OK) == (g != NULL));
    *d = kt_graph_edge_count(g);
    kt_graph_free(g);
    return st;
}

static kt_status c_graph_parse(ctx *x, uint64_t *d)
{
    static const char mask[] = "........\n.x....x.\n........\n...xx...\n........\n";
    kt_graph *g = NULL;
    kt_diag diag;
    arm(x);
    kt_status st = kt_graph_parse_mask(&g, mask, strlen(mask), 2, 1, x->al, &diag);
    disarm(x);
    CHECK((st == KT_OK) == (g != NULL));
    *d = kt_graph_edge_count(g) * 1000 + kt_graph_vertex_count(g);
    kt_graph_free(g);
    return st;
}

static kt_status c_io(ctx *x, uint64_t *d)
{
    make_inputs(x, 8, 8, KT_GENERATE_BLOCKS, 3);
    char buf[4096];
    size_t len = 0;
    kt_tourney *u = NULL;
    CHECK_ST(kt_io_write_buffer(x->t, KT_IO_NUMBERS, 0, KT_CELL_NONE, buf, sizeof buf, &len), KT_OK);
    arm(x);
    kt_status st = kt_io_parse(&u, x->g, buf, len, KT_IO_AUTO, 0, x->al, NULL);
    char out[8192];
    size_t olen = 0;
    if (st == KT_OK) st = kt_io_write_buffer(u, KT_IO_SVG, 0, KT_CELL_NONE, out, sizeof out, &olen);
    if (st == KT_OK) st = kt_io_write_buffer(u, KT_IO_MOVES, 0, KT_CELL_NONE, out, sizeof out, &olen);
    disarm(x);
    *d = tourney_digest(u) ^ olen;
    kt_tourney_free(u);
    return st;
}

static kt_status c_tourney_copy(ctx *x, uint64_t *d)
{
    make_inputs(x, 10, 10, KT_GENERATE_WARNSDORFF, 1);
    kt_tourney *u = NULL;
    arm(x);
    kt_status st = kt_tourney_copy(&u, x->t);
    uint32_t label[100];
    if (st == KT_OK) st = kt_tourney_cycle_labels(u, label, 100);
    disarm(x);
    CHECK((st == KT_OK) == (u != NULL) || u != NULL);
    *d = tourney_digest(u);
    kt_tourney_free(u);
    return st;
}

static kt_status c_stats(ctx *x, uint64_t *d)
{
    make_inputs(x, 8, 8, KT_GENERATE_BLOCKS, 2);
    kt_stats *s = NULL;
    double mean[8], sd[8];
    arm(x);
    kt_status st = kt_stats_new(&s, x->al);
    if (st == KT_OK) st = kt_stats_add(s, x->t);
    if (st == KT_OK) st = kt_stats_relative(s, mean, sd);
    disarm(x);
    *d = st == KT_OK ? fnv(7, mean, sizeof mean) : 0;
    kt_stats_free(s);
    return st;
}

static kt_status c_walks(ctx *x, uint64_t *d)
{
    make_inputs(x, 6, 6, -1, 0);
    uint64_t total = 0, per[36];
    arm(x);
    kt_status st = kt_walks_count(x->g, 8, NULL, 0, x->run, per, 36, &total);
    disarm(x);
    *d = total;
    return st;
}

static kt_status c_exhaustive(ctx *x, uint64_t *d)
{
    make_inputs(x, 5, 5, -1, 0);
    kt_tourney *u = NULL;
    arm(x);
    kt_status st = kt_exhaustive_tour(&u, x->g, KT_SHAPE_PATH, 0, KT_CELL_NONE, x->run);
    disarm(x);
    *d = tourney_digest(u);
    kt_tourney_free(u);
    return st;
}

/* Generators: which one, by a number (0-3 the tour calls, 4.. the methods). */
static int gen_which;

static kt_status c_generate(ctx *x, uint64_t *d)
{
    int k = gen_which;
    uint32_t side = k == 1 ? 6 : (k - 4 == KT_GENERATE_NEURAL ? 6 : 12);
    make_inputs(x, side, side, -1, 0);
    kt_tourney *u = NULL;
    kt_status st;
    arm(x);
    switch (k) {
        case 0: st = kt_generate_closed_tour(&u, x->g, 1, x->run); break;
        case 1: st = kt_generate_open_tour(&u, x->g, 0, KT_CELL_NONE, 1, x->run); break;
        case 2: st = kt_generate_divide_tour(&u, x->g, 1, x->run); break;
        case 3:
            st = kt_generate_warnsdorff_tour(&u, x->g, KT_SHAPE_PATH, 0, KT_GENERATE_TIE_RANDOM,
                                             1, x->run);
            break;
        default: st = kt_generate_tourney(&u, x->g, (kt_generate_method)(k - 4), 1, x->run); break;
    }
    disarm(x);
    CHECK((st == KT_OK) == (u != NULL));
    *d = tourney_digest(u);
    kt_tourney_free(u);
    return st;
}

/* The Warnsdorff tourney on a board large enough for its buckets to grow
 * (more than 1024 cells) and with several seeds, some needing restarts. */
static int warn_seed;

static kt_status c_warnsdorff(ctx *x, uint64_t *d)
{
    make_inputs(x, warn_seed < 2 ? 40 : 8, warn_seed < 2 ? 36 : 8, -1, 0);
    kt_tourney *u = NULL;
    arm(x);
    kt_status st = kt_generate_tourney(&u, x->g, KT_GENERATE_WARNSDORFF, (uint64_t)warn_seed, x->run);
    disarm(x);
    CHECK((st == KT_OK) == (u != NULL));
    *d = tourney_digest(u);
    kt_tourney_free(u);
    return st;
}

static int rails_which;

static kt_status c_rails(ctx *x, uint64_t *d)
{
    /* case 5: a 3-row board, where the join ends in its exact step */
    if (rails_which == 5) make_inputs(x, 30, 3, KT_GENERATE_WARNSDORFF, 4);
    else make_inputs(x, 10, 10, KT_GENERATE_WARNSDORFF, 4);
    kt_status st = KT_OK;
    *d = 0;
    arm(x);
    if (rails_which == 0) {
        kt_rails *r = NULL;
        st = kt_rails_new(&r, x->t);
        kt_rail rail;
        kt_rails_effect eff = KT_RAILS_KEEP;
        size_t edges = 0, comps = 0;
        if (st == KT_OK) st = kt_rails_graph(r, &edges, &comps);
        if (st == KT_OK && kt_rails_count(r) > 0) {
            CHECK_ST(kt_rails_get(r, 0, &rail), KT_OK);
            st = kt_rails_switch(r, rail, &eff);
        }
        *d = edges * 1000 + comps + (uint64_t)eff * 1000000;
        disarm(x);
        *d ^= tourney_digest(x->t);
        kt_rails_free(r);
        return st;
    }
    switch (rails_which) {
        case 1:
        case 5: st = kt_rails_join(x->t, 5, x->run); break;
        case 2: st = kt_rails_shatter(x->t, 5); break;
        case 3: st = kt_rails_shatter_sequential(x->t, 5); break;
        default: st = kt_rails_obfuscate(x->t, 2, 5, x->run); break;
    }
    disarm(x);
    check_unchanged(x, st);
    *d = tourney_digest(x->t);
    return st;
}

static int count_which;

static kt_status c_count(ctx *x, uint64_t *d)
{
    static const uint32_t dims[][2] = {{6, 6}, {3, 10}, {5, 5}, {4, 3}};
    int b = count_which % 4;
    unsigned flags = b == 2 || b == 3 ? KT_COUNT_OPEN : 0;
    make_inputs(x, dims[b][0], dims[b][1], -1, 0);
    kt_u128 n = {0, 0};
    kt_count_stats cs;
    if (count_which >= 4) CHECK_ST(kt_options_set_threads(x->run, 2), KT_OK);
    arm(x);
    kt_status st = kt_count_tours(x->g, flags, x->run, &n, &cs);
    disarm(x);
    *d = u128_digest(n);
    return st;
}

static int bystart_which;

/* The table by start cell: 5x5 by the search on 2 threads, 4x5 by the
 * frontier (a budget), each class through its own options; a failed call
 * leaves the table as it was. */
static kt_status c_bystart(ctx *x, uint64_t *d)
{
    kt_u128 t[25], keep[25];
    memset(t, 0x5A, sizeof t);
    memcpy(keep, t, sizeof t);
    make_inputs(x, bystart_which ? 4 : 5, 5, -1, 0);
    if (bystart_which == 0) CHECK_ST(kt_options_set_threads(x->run, 2), KT_OK);
    else CHECK_ST(kt_options_set_budget(x->run, (uint64_t)1 << 40), KT_OK);
    arm(x);
    kt_status st = kt_count_open_by_start(x->g, 0, x->run, t, 25);
    disarm(x);
    if (st != KT_OK) CHECK(memcmp(t, keep, sizeof t) == 0);
    *d = fnv(1, t, sizeof t);
    return st;
}

static int half_which;

static kt_status c_halftours(ctx *x, uint64_t *d)
{
    kt_u128 n = {0, 0};
    kt_status st;
    if (half_which >= 1) CHECK_ST(kt_options_set_threads(x->run, 2), KT_OK);
    arm(x);
    st = kt_halftours_count_closed(6, 6, 3, x->run, &n);
    disarm(x);
    *d = u128_digest(n);
    return st;
}

static int sm_count(void *user, const kt_semimagic_solution *s)
{
    uint64_t *h = user;
    *h = fnv(*h, kt_semimagic_solution_numbers(s),
             sizeof(uint32_t) * kt_semimagic_solution_size(s) * kt_semimagic_solution_size(s));
    return 0;
}

static kt_status c_semimagic(ctx *x, uint64_t *d)
{
    kt_semimagic_opts *o = NULL;
    CHECK_ST(kt_semimagic_opts_new(&o, 5, x->al), KT_OK);
    CHECK_ST(kt_semimagic_opts_set_flags(o, 0), KT_OK);
    uint64_t classes = 0, sols = 0, h = 1;
    arm(x);
    kt_status st = kt_semimagic_search(o, x->run, sm_count, &h, &classes, &sols);
    disarm(x);
    *d = fnv(h, &sols, 8) ^ classes;
    kt_semimagic_opts_free(o);
    return st;
}

/* ---- the harness ---- */

static unsigned long points_failed, runs;

/* One run of a case with the k-th armed allocation failing (0: none). */
static kt_status one_run(case_fn fn, unsigned long k, bool from_on, uint64_t *digest,
                         unsigned long *armed)
{
    inj c;
    atomic_init(&c.allocs, 0);
    atomic_init(&c.frees, 0);
    atomic_init(&c.failed, 0);
    atomic_init(&c.armed_allocs, 0);
    atomic_init(&c.armed, false);
    c.fail_at = k;
    c.from_on = from_on;
    kt_allocator al = {inj_alloc, inj_free, &c};
    ctx x = {&al, &c, NULL, NULL, NULL, NULL};
    CHECK_ST(kt_options_new(&x.run, &al), KT_OK);
    CHECK_ST(kt_options_set_threads(x.run, 1), KT_OK);
    *digest = 0;
    kt_status st = fn(&x, digest);
    kt_tourney_free(x.t);
    kt_tourney_free(x.copy);
    kt_graph_free(x.g);
    kt_options_free(x.run);
    CHECK_EQ_U64(atomic_load(&c.allocs), atomic_load(&c.frees));
    if (armed) *armed = atomic_load(&c.armed_allocs);
    runs++;
    return st;
}

static const char *only; /* argv[1]: run only the cases whose name contains it */

static void inject(const char *name, case_fn fn)
{
    if (only != NULL && strstr(name, only) == NULL) return;
    uint64_t want = 0, got = 0;
    unsigned long total = 0;
    kt_status st0 = one_run(fn, 0, false, &want, &total);
    CHECK_ST(st0, KT_OK);
    unsigned long enomem = 0;
    for (int mode = 0; mode < 2; mode++)
        for (unsigned long k = 1; k <= total; k++) {
            kt_status st = one_run(fn, k, mode == 1, &got, NULL);
            points_failed++;
            if (st == KT_ENOMEM) {
                enomem++;
                continue;
            }
            if (st != KT_OK || got != want) {
                fprintf(stderr, "%s: allocation %lu of %lu failing (%s): %s%s\n", name, k, total,
                        mode ? "from on" : "once", kt_status_name(st),
                        st == KT_OK ? ", a different result" : "");
                check_failures++;
            }
        }
    printf("%-28s %5lu allocations, %5lu KT_ENOMEM\n", name, total, enomem);
}

int main(int argc, char **argv)
{
    char name[64];
    only = argc > 1 ? argv[1] : NULL;
    inject("graph new", c_graph_new);
    inject("graph parse mask", c_graph_parse);
    inject("io parse + write", c_io);
    inject("tourney copy + labels", c_tourney_copy);
    inject("stats", c_stats);
    inject("walks", c_walks);
    inject("exhaustive 5x5", c_exhaustive);
    for (gen_which = 0; gen_which < 4 + KT_GENERATE_METHOD_COUNT; gen_which++) {
        snprintf(name, sizeof name, "generate %d", gen_which);
        inject(name, c_generate);
    }
    for (warn_seed = 0; warn_seed < 6; warn_seed++) {
        snprintf(name, sizeof name, "warnsdorff tourney %d", warn_seed);
        inject(name, c_warnsdorff);
    }
    for (rails_which = 0; rails_which < 6; rails_which++) {
        snprintf(name, sizeof name, "rails %d", rails_which);
        inject(name, c_rails);
    }
    for (count_which = 0; count_which < 8; count_which++) {
        snprintf(name, sizeof name, "count %d (%s)", count_which,
                 count_which >= 4 ? "2 threads" : "1 thread");
        inject(name, c_count);
    }
    for (bystart_which = 0; bystart_which < 2; bystart_which++) {
        snprintf(name, sizeof name, "count by start %d", bystart_which);
        inject(name, c_bystart);
    }
    for (half_which = 0; half_which < 2; half_which++) {
        snprintf(name, sizeof name, "halftours %d", half_which);
        inject(name, c_halftours);
    }
    inject("semimagic 5x5", c_semimagic);
    printf("allocation points failed: %lu in %lu runs\n", points_failed, runs);
    return check_failures ? 1 : 0;
}
