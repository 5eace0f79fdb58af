/* SPDX-License-Identifier: MIT */
/* knight tour: make a tour (or tourney) of a W x H board with any generator. */
#include "cli.h"

#include <string.h>

/* The command line of `knight tour`. */
typedef struct tour_args {
    uint32_t w, h;
    const char *start, *end;     /* cells as given (X,Y or a chess square) */
    bool open, tourney, obfuscate, have_method, have_format, uniform;
    kt_io_format fmt;
    kt_generate_method method;
    kt_generate_tiebreak tie;
    const char *outpath;
    uint64_t seed;
    uint64_t count;              /* --count: tours to draw (--uniform) */
    bool have_count;
} tour_args;

static bool parse_tie(const char *s, kt_generate_tiebreak *tie)
{
    for (unsigned k = 0; k < KT_GENERATE_TIE_COUNT; k++)
        if (s != NULL && strcmp(s, kt_generate_tiebreak_name((kt_generate_tiebreak)k)) == 0) {
            *tie = (kt_generate_tiebreak)k;
            return true;
        }
    return false;
}

/* One option with a value; 0, or the usage status after a message. */
static int value_opt(int argc, char **argv, int *i, tour_args *a, bool *matched)
{
    const char *v;
    *matched = true;
    if (cli_opt(argc, argv, i, "--start", &v)) {
        if (v == NULL) return cli_usage("--start wants X,Y or a chess square");
        a->start = v;
        a->open = true;
    } else if (cli_opt(argc, argv, i, "--end", &v)) {
        if (v == NULL) return cli_usage("--end wants X,Y or a chess square");
        a->end = v;
        a->open = true;
    } else if (cli_opt(argc, argv, i, "--seed", &v)) {
        if (!cli_parse_u64(v, &a->seed)) return cli_usage("--seed wants a number");
    } else if (cli_opt(argc, argv, i, "--count", &v)) {
        if (!cli_parse_u64(v, &a->count) || a->count == 0) return cli_usage("--count wants a positive number");
        a->have_count = true;
    } else if (cli_opt(argc, argv, i, "--method", &v)) {
        if (v == NULL || kt_generate_method_parse(v, &a->method) != KT_OK)
            return cli_usage("--method wants blocks, warnsdorff, neural, divide, braid or four-cover");
        a->have_method = true;
    } else if (cli_opt(argc, argv, i, "--tie", &v)) {
        if (!parse_tie(v, &a->tie)) return cli_usage("--tie wants first, random, pohl, roth, wplus or w2");
    } else if (cli_opt(argc, argv, i, "--format", &v)) {
        if (!cli_parse_format(v, &a->fmt)) return cli_usage("--format wants numbers, moves or svg");
        a->have_format = true;
    } else if (cli_opt(argc, argv, i, "-o", &v) || cli_opt(argc, argv, i, "--output", &v)) {
        if (v == NULL) return cli_usage("-o wants a file name");
        a->outpath = v;
    } else {
        *matched = false;
    }
    return 0;
}

static int parse(int argc, char **argv, tour_args *a)
{
    memset(a, 0, sizeof *a);
    a->fmt = KT_IO_NUMBERS;
    a->method = KT_GENERATE_BLOCKS;
    a->tie = KT_GENERATE_TIE_ROTH;
    for (int i = 1; i < argc; i++) {
        bool matched;
        int rc = value_opt(argc, argv, &i, a, &matched);
        if (rc) return rc;
        if (matched) continue;
        if (cli_opt(argc, argv, &i, "--open", NULL)) a->open = true;
        else if (cli_opt(argc, argv, &i, "--tourney", NULL)) a->tourney = true;
        else if (cli_opt(argc, argv, &i, "--obfuscate", NULL)) a->obfuscate = true;
        else if (cli_opt(argc, argv, &i, "--uniform", NULL)) a->uniform = true;
        else if (cli_operand(argv, i) && a->w == 0) {
            if (!cli_parse_size(argv[i], &a->w, &a->h))
                return cli_usage("bad board size '%s' (want WxH)", argv[i]);
        } else {
            return cli_usage("tour: unexpected argument '%s'", argv[i]);
        }
    }
    if (a->w == 0) return cli_usage("tour: board size WxH required");
    if (a->uniform && (a->tourney || a->obfuscate || a->have_method))
        return cli_usage("tour: --uniform excludes --tourney, --obfuscate and --method");
    if (a->have_count && !a->uniform) return cli_usage("tour: --count needs --uniform");
    if (a->tourney && a->open) return cli_usage("tour: --tourney and an open tour exclude each other");
    if (a->obfuscate && (a->open || a->tourney))
        return cli_usage("tour: --obfuscate applies to closed tours only");
    if (a->open && a->have_method && a->method != KT_GENERATE_WARNSDORFF && a->method != KT_GENERATE_BLOCKS)
        return cli_usage("tour: --method %s makes tourneys, not open tours", kt_generate_method_name(a->method));
    if (a->end != NULL && a->have_method && a->method == KT_GENERATE_WARNSDORFF)
        return cli_usage("tour: --method warnsdorff takes --start only");
    return 0;
}

/* A tourney of a method, joined into a closed tour unless --tourney. */
static kt_status method_tour(kt_tourney **t, const kt_graph *g, const tour_args *a)
{
    kt_status st = kt_generate_tourney(t, g, a->method, a->seed, NULL);
    if (st == KT_OK && !a->tourney && (st = kt_rails_join(*t, a->seed, NULL)) != KT_OK) {
        kt_tourney_free(*t);
        *t = NULL;
    }
    return st;
}

static kt_status generate(kt_tourney **t, const kt_graph *g, const tour_args *a, kt_cell start, kt_cell end)
{
    if (a->have_method && a->method == KT_GENERATE_WARNSDORFF && !a->tourney)
        return kt_generate_warnsdorff_tour(t, g, a->open ? KT_SHAPE_PATH : KT_SHAPE_CYCLES, start, a->tie,
                                           a->seed, NULL);
    if (a->have_method && a->method == KT_GENERATE_DIVIDE && !a->tourney && !a->open)
        return kt_generate_divide_tour(t, g, a->seed, NULL); /* structured base tours, joined */
    if (a->have_method && (a->tourney || a->method != KT_GENERATE_BLOCKS)) return method_tour(t, g, a);
    if (a->tourney) return kt_generate_tourney(t, g, KT_GENERATE_BLOCKS, a->seed, NULL);
    if (a->open) return kt_generate_open_tour(t, g, start, end, a->seed, NULL);
    return kt_generate_closed_tour(t, g, a->seed, NULL);
}

static int report(kt_status st, const tour_args *a)
{
    const char *what = a->tourney ? "tourney" : a->open ? "open tour" : "closed tour";
    if (st == KT_ENOTOUR)
        return cli_fail("no %s exists on %ux%u%s", what, a->w, a->h, (a->start || a->end) ? " with these ends" : "");
    if (st == KT_EUNSUPPORTED)
        return cli_fail("method %s does not apply to %ux%u", kt_generate_method_name(a->method), a->w, a->h);
    return cli_fail_status("tour", st);
}

/* --uniform: prepare the sampler once, then draw tours 0 .. count-1 of the
 * seed, separated by blank lines.  Open 8x8 with one given end: the
 * sampler of every open tour (32 to 40 minutes to prepare) and draws kept
 * when they end there (kt_sampler_draw_from: exact, some 9 to 110 tries a
 * tour), not the sampler of that end alone (some 2.5 hours; BENCHMARKS.md). */
static int uniform_tours(const kt_graph *g, const tour_args *a, kt_cell start, kt_cell end)
{
    kt_sampler *s = NULL;
    kt_options *run = NULL;
    bool one_end = a->open && a->w == 8 && a->h == 8 && (start == KT_CELL_NONE) != (end == KT_CELL_NONE);
    kt_cell from = start != KT_CELL_NONE ? start : end;
    kt_status st = kt_options_new(&run, NULL);
    if (st == KT_OK) st = kt_options_set_progress(run, cli_progress, NULL);
    if (st == KT_OK)
        st = kt_sampler_new(&s, g, a->open ? KT_SHAPE_PATH : KT_SHAPE_CYCLES, one_end ? KT_CELL_NONE : start,
                            one_end ? KT_CELL_NONE : end, run);
    cli_progress_done();
    kt_options_free(run);
    if (st == KT_EUNSUPPORTED)
        return cli_fail("--uniform needs a board whose narrow side is at most 7 (closed tours: or 8 "
                        "columns, by half-tours; open tours: or 8x8), not %ux%u", a->w, a->h);
    if (st != KT_OK) return report(st, a);
    kt_io_format f = cli_output_format(a->outpath, a->have_format, a->fmt, KT_IO_NUMBERS);
    FILE *out = cli_open_out(a->outpath);
    int rc = out == NULL;
    uint64_t n = a->have_count ? a->count : 1;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        kt_tourney *t = NULL;
        st = one_end ? kt_sampler_draw_from(&t, s, from, a->seed, i, NULL) : kt_sampler_draw(&t, s, a->seed, i);
        if (st == KT_OK && i > 0 && fputc('\n', out) == EOF) st = KT_EIO;
        if (st == KT_OK) st = kt_io_write(t, f, 0, start, cli_write_file, out);
        if (st != KT_OK) rc = cli_fail_status("tour", st);
        kt_tourney_free(t);
    }
    if (out != NULL && cli_close_out(out, a->outpath ? a->outpath : "-") != 0) rc = 1;
    kt_sampler_free(s);
    return rc;
}

int cmd_tour(int argc, char **argv)
{
    tour_args a;
    int rc = parse(argc, argv, &a);
    if (rc) return rc;
    kt_graph *g = NULL;
    kt_status st = kt_graph_new(&g, a.w, a.h);
    if (st != KT_OK) return cli_fail_status("board", st);
    kt_cell start = KT_CELL_NONE, end = KT_CELL_NONE;
    kt_tourney *t = NULL;
    rc = cli_cell_arg(g, "--start", a.start, &start);
    if (rc == 0) rc = cli_cell_arg(g, "--end", a.end, &end);
    if (rc == 0 && start != KT_CELL_NONE && start == end) rc = cli_usage("tour: --start and --end are the same cell");
    if (rc == 0 && a.uniform) {
        rc = uniform_tours(g, &a, start, end);
        kt_graph_free(g);
        return rc;
    }
    if (rc == 0 && (st = generate(&t, g, &a, start, end)) != KT_OK) rc = report(st, &a);
    kt_graph_free(g);
    if (rc) return rc;
    if (a.obfuscate && (st = kt_rails_obfuscate(t, 0, a.seed, NULL)) != KT_OK) {
        kt_tourney_free(t);
        return cli_fail_status("obfuscate", st);
    }
    /* visit numbers need a single tour: tourneys default to the moves format */
    kt_io_format dflt = kt_tourney_size(t) > 1 ? KT_IO_MOVES : KT_IO_NUMBERS;
    rc = cli_save_tourney(t, cli_output_format(a.outpath, a.have_format, a.fmt, dflt), 0, start, a.outpath);
    kt_tourney_free(t);
    return rc;
}
