/* SPDX-License-Identifier: MIT */
/* knight tour: make a tour (or tourney) of a W x H board with any generator. */
#include "cli.h"

#include <string.h>

static bool parse_tie(const char *s, kt_generate_tiebreak *tie)
{
    for (unsigned k = 0; k < KT_GENERATE_TIE_COUNT; k++)
        if (s != NULL && strcmp(s, kt_generate_tiebreak_name((kt_generate_tiebreak)k)) == 0) {
            *tie = (kt_generate_tiebreak)k;
            return true;
        }
    return false;
}

int cmd_tour(int argc, char **argv)
{
    uint32_t w = 0, h = 0, sx, sy, ex, ey;
    bool open = false, have_start = false, have_end = false, tourney = false, have_method = false;
    bool have_format = false, obfuscate = false;
    kt_io_format fmt = KT_IO_NUMBERS;
    kt_generate_method method = KT_GENERATE_BLOCKS;
    kt_generate_tiebreak tie = KT_GENERATE_TIE_ROTH;
    const char *outpath = NULL, *v;
    uint64_t seed = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_opt(argc, argv, &i, "--open", NULL)) open = true;
        else if (cli_opt(argc, argv, &i, "--tourney", NULL)) tourney = true;
        else if (cli_opt(argc, argv, &i, "--obfuscate", NULL)) obfuscate = true;
        else if (cli_opt(argc, argv, &i, "--start", &v)) {
            if (!cli_parse_xy(v, &sx, &sy)) return cli_fail("--start wants X,Y");
            have_start = open = true;
        } else if (cli_opt(argc, argv, &i, "--end", &v)) {
            if (!cli_parse_xy(v, &ex, &ey)) return cli_fail("--end wants X,Y");
            have_end = open = true;
        } else if (cli_opt(argc, argv, &i, "--seed", &v)) {
            if (!cli_parse_u64(v, &seed)) return cli_fail("--seed wants a number");
        } else if (cli_opt(argc, argv, &i, "--method", &v)) {
            if (v == NULL || kt_generate_method_parse(v, &method) != KT_OK)
                return cli_fail("--method wants blocks, warnsdorff, neural, divide, braid or four-cover");
            have_method = true;
        } else if (cli_opt(argc, argv, &i, "--tie", &v)) {
            if (!parse_tie(v, &tie)) return cli_fail("--tie wants first, random, pohl or roth");
        } else if (cli_opt(argc, argv, &i, "--format", &v)) {
            if (v == NULL || !cli_parse_format(v, &fmt)) return cli_fail("--format wants numbers, moves or svg");
            have_format = true;
        } else if (cli_opt(argc, argv, &i, "-o", &v)) {
            if (v == NULL) return cli_fail("-o wants a file name");
            outpath = v;
        } else if (argv[i][0] != '-' && w == 0) {
            if (!cli_parse_size(argv[i], &w, &h)) return cli_fail("bad board size '%s' (want WxH)", argv[i]);
        } else {
            return cli_fail("tour: unexpected argument '%s'", argv[i]);
        }
    }
    if (w == 0) return cli_fail("tour: board size WxH required");
    if (tourney && open) return cli_fail("tour: --tourney and an open tour exclude each other");
    if (obfuscate && (open || tourney)) return cli_fail("tour: --obfuscate applies to closed tours only");
    kt_graph *g = NULL;
    kt_status st = kt_graph_new(&g, w, h);
    if (st != KT_OK) return cli_fail_status("board", st);
    kt_cell start = KT_CELL_NONE, end = KT_CELL_NONE;
    if (have_start && (start = kt_graph_cell(g, sx, sy)) == KT_CELL_NONE) {
        kt_graph_free(g);
        return cli_fail("--start %u,%u is off the board", sx, sy);
    }
    if (have_end && (end = kt_graph_cell(g, ex, ey)) == KT_CELL_NONE) {
        kt_graph_free(g);
        return cli_fail("--end %u,%u is off the board", ex, ey);
    }
    kt_tourney *t = NULL;
    const char *what = open ? "open tour" : "closed tour";
    if (have_method && method == KT_GENERATE_WARNSDORFF && !tourney) {
        if (have_end) {
            kt_graph_free(g);
            return cli_fail("tour: --method warnsdorff takes --start only");
        }
        st = kt_generate_warnsdorff_tour(&t, g, open ? KT_SHAPE_PATH : KT_SHAPE_CYCLES, start, tie, seed, NULL);
    } else if (have_method && method == KT_GENERATE_DIVIDE && !tourney && !open) {
        st = kt_generate_divide_tour(&t, g, seed, NULL); /* structured base tours, joined */
    } else if (have_method && (tourney || method != KT_GENERATE_BLOCKS)) {
        if (open) {
            kt_graph_free(g);
            return cli_fail("tour: --method %s makes tourneys, not open tours", kt_generate_method_name(method));
        }
        st = kt_generate_tourney(&t, g, method, seed, NULL);
        if (tourney) {
            what = "tourney";
        } else if (st == KT_OK) {
            /* A tourney becomes a closed tour by joining its cycles. */
            st = kt_rails_join(t, seed, NULL);
            if (st != KT_OK) {
                kt_tourney_free(t);
                t = NULL;
            }
        }
    } else if (tourney) {
        what = "tourney";
        st = kt_generate_tourney(&t, g, KT_GENERATE_BLOCKS, seed, NULL);
    } else if (open) {
        st = kt_generate_open_tour(&t, g, start, end, seed, NULL);
    } else {
        st = kt_generate_closed_tour(&t, g, seed, NULL);
    }
    kt_graph_free(g);
    if (st == KT_ENOTOUR)
        return cli_fail("no %s exists on %ux%u%s", what, w, h, (have_start || have_end) ? " with these ends" : "");
    if (st == KT_EUNSUPPORTED)
        return cli_fail("method %s does not apply to %ux%u", kt_generate_method_name(method), w, h);
    if (st != KT_OK) return cli_fail_status("tour", st);
    if (obfuscate && (st = kt_rails_obfuscate(t, 0, seed, NULL)) != KT_OK) {
        kt_tourney_free(t);
        return cli_fail_status("obfuscate", st);
    }
    /* visit numbers need a single tour: tourneys default to the moves format */
    if (!have_format && kt_tourney_size(t) > 1) fmt = KT_IO_MOVES;
    int rc = cli_save_tourney(t, fmt, 0, outpath);
    kt_tourney_free(t);
    return rc;
}
