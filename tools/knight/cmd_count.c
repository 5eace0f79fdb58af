/* SPDX-License-Identifier: MIT */
/* knight count: exact numbers of closed or open tours (frontier DP). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double t_start;

static void trace_layer(void *user, uint64_t cell, uint64_t states)
{
    (void)user;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    fprintf(stderr, "cell %llu states %llu t %.1f s\n", (unsigned long long)cell,
            (unsigned long long)states, (double)ts.tv_sec + ts.tv_nsec * 1e-9 - t_start);
}

/* The command line of `knight count`, read before either method runs. */
typedef struct count_args {
    unsigned flags;              /* KT_COUNT_* */
    unsigned threads;            /* 0: one per core */
    uint32_t shard_index, shard_count;
    const char *checkpoint;
    double checkpoint_interval;  /* negative: the library's default */
    uint64_t max_states;         /* the frontier count's budget (states of a layer) */
    bool trace;
} count_args;

/* The run settings of the frontier count. */
static kt_status frontier_options(const count_args *a, kt_options **out)
{
    kt_options *run = NULL;
    kt_status st = kt_options_new(&run, NULL);
    if (st == KT_OK) st = kt_options_set_threads(run, a->threads);
    if (st == KT_OK) st = kt_options_set_shard(run, a->shard_index, a->shard_count);
    if (st == KT_OK) st = kt_options_set_budget(run, a->max_states);
    if (st == KT_OK) st = kt_options_set_checkpoint(run, a->checkpoint, a->checkpoint_interval);
    if (st == KT_OK) st = kt_options_set_progress(run, cli_progress, NULL);
    if (st == KT_OK && a->trace) st = kt_options_set_trace(run, trace_layer, NULL);
    if (st != KT_OK) {
        kt_options_free(run);
        run = NULL;
    }
    *out = run;
    return st;
}

int cmd_count(int argc, char **argv)
{
    const char *size = NULL, *v, *method = "frontier";
    count_args opt = {0};
    opt.checkpoint_interval = -1.0;
    bool verbose = false;
    for (int i = 1; i < argc; i++) {
        if (cli_opt(argc, argv, &i, "--open", NULL)) {
            opt.flags |= KT_COUNT_OPEN;
        } else if (cli_opt(argc, argv, &i, "--directed", NULL)) {
            opt.flags |= KT_COUNT_DIRECTED;
        } else if (cli_opt(argc, argv, &i, "--symmetric", NULL)) {
            opt.flags |= KT_COUNT_SYMMETRIC;
        } else if (cli_opt(argc, argv, &i, "--classes", NULL)) {
            opt.flags |= KT_COUNT_CLASSES;
        } else if (cli_opt(argc, argv, &i, "--stats", NULL)) {
            verbose = true;
        } else if (cli_opt(argc, argv, &i, "--trace", NULL)) {
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            t_start = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
            opt.trace = true;
        } else if (cli_opt(argc, argv, &i, "--max-states", &v)) {
            if (!cli_parse_u64(v, &opt.max_states)) return cli_fail("--max-states wants a number");
        } else if (cli_opt(argc, argv, &i, "--method", &v)) {
            if (v == NULL) return cli_fail("--method wants frontier or halftours");
            method = v;
        } else if (cli_opt(argc, argv, &i, "--threads", &v)) {
            uint64_t t;
            if (!cli_parse_u64(v, &t) || t > KT_THREADS_MAX)
                return cli_fail("--threads wants a number up to %u", KT_THREADS_MAX);
            opt.threads = (unsigned)t;
        } else if (cli_opt(argc, argv, &i, "--shard", &v)) {
            unsigned long a, b;
            char *end;
            if (v == NULL) return cli_fail("--shard wants i/N");
            a = strtoul(v, &end, 10);
            if (end == v || *end != '/') return cli_fail("--shard wants i/N (0 <= i < N)");
            b = strtoul(end + 1, &end, 10);
            if (*end != '\0' || b == 0 || a >= b || b > UINT32_MAX) return cli_fail("--shard wants i/N (0 <= i < N)");
            opt.shard_index = (uint32_t)a;
            opt.shard_count = (uint32_t)b;
        } else if (cli_opt(argc, argv, &i, "--checkpoint", &v)) {
            if (v == NULL) return cli_fail("--checkpoint wants a file");
            opt.checkpoint = v;
        } else if (cli_opt(argc, argv, &i, "--checkpoint-interval", &v)) {
            uint64_t t;
            if (!cli_parse_u64(v, &t)) return cli_fail("--checkpoint-interval wants seconds");
            opt.checkpoint_interval = (double)t;
        } else if (size == NULL && argv[i][0] != '-') {
            size = argv[i];
        } else {
            return cli_fail("count: unexpected argument '%s'", argv[i]);
        }
    }
    uint32_t w, h;
    if (size == NULL || !cli_parse_size(size, &w, &h)) return cli_fail("count wants a board size WxH");
    if (strcmp(method, "halftours") == 0) {
        /* McKay's method (halftour.h): closed tours only, cut across the
         * middle; the rows must be at most KT_HALFTOUR_MAX_WIDTH wide. */
        if (opt.flags & (KT_COUNT_OPEN | KT_COUNT_SYMMETRIC | KT_COUNT_CLASSES))
            return cli_fail("count: --method halftours counts closed tours only");
        if (opt.checkpoint != NULL)
            return cli_fail("count: --method halftours has no --checkpoint (run it in --shard parts)");
        if (w > KT_HALFTOUR_MAX_WIDTH || (h < w && h >= 2)) {
            uint32_t t = w;
            w = h;
            h = t;
        }
        if (w > KT_HALFTOUR_MAX_WIDTH || h < 2) return cli_fail("count: board too wide for --method halftours");
        /* Run settings from the flags; --max-states bounds the states of
         * one layer of the enumeration (and the pairings of one type). */
        kt_options *run = NULL;
        kt_status hs = kt_options_new(&run, NULL);
        if (hs == KT_OK) hs = kt_options_set_threads(run, opt.threads);
        if (hs == KT_OK) hs = kt_options_set_progress(run, cli_progress, NULL);
        if (hs == KT_OK) hs = kt_options_set_shard(run, opt.shard_index, opt.shard_count);
        if (hs == KT_OK) hs = kt_options_set_budget(run, opt.max_states);
        kt_u128 hv = {0, 0};
        if (hs == KT_OK) hs = kt_halftours_count_closed(w, h, h / 2, run, &hv);
        kt_options_free(run);
        cli_progress_done();
        if (hs != KT_OK) return cli_fail_status("count", hs);
        if (opt.flags & KT_COUNT_DIRECTED) {
            if (hv.hi >> 63) return cli_fail_status("count", KT_EOVERFLOW);
            hv.hi = hv.hi << 1 | hv.lo >> 63;
            hv.lo <<= 1;
        }
        char hb[48];
        kt_u128_to_string(&hv, hb, sizeof hb);
        printf("%s\n", hb);
        return 0;
    }
    if (strcmp(method, "frontier") != 0) return cli_fail("--method wants frontier or halftours");
    /* kt_count_tours() refuses a full board whose smaller side exceeds 17
     * plus twice the leap (21 for the knight) before building anything;
     * refuse it before the graph too (3000x3000 would build 1.4 GB first). */
    if ((w < h ? w : h) > 21) return cli_fail_status("count", KT_EUNSUPPORTED);
    kt_graph *g = NULL;
    kt_status st = kt_graph_new(&g, w, h);
    if (st != KT_OK) return cli_fail_status("board", st);
    kt_options *run = NULL;
    kt_u128 n;
    kt_count_stats stats;
    st = frontier_options(&opt, &run);
    if (st == KT_OK) st = kt_count_tours(g, opt.flags, run, &n, &stats);
    cli_progress_done();
    kt_options_free(run);
    kt_graph_free(g);
    if (st != KT_OK) return cli_fail_status("count", st);
    char buf[48];
    kt_u128_to_string(&n, buf, sizeof buf);
    if (verbose)
        fprintf(stderr, "frontier %u cells, peak %llu states, %llu bytes of layers\n", stats.frontier,
                (unsigned long long)stats.peak_states, (unsigned long long)stats.peak_bytes);
    printf("%s\n", buf);
    return 0;
}
