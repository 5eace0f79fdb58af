/* SPDX-License-Identifier: MIT */
/* knight tour: make a tour of a W x H board. */
#include "cli.h"

#include <string.h>

int cmd_tour(int argc, char **argv)
{
    uint32_t w = 0, h = 0, sx, sy, ex, ey;
    bool open = false, have_start = false, have_end = false;
    kt_format fmt = KT_FORMAT_NUMBERS;
    const char *outpath = NULL, *v;
    uint64_t seed = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_opt(argc, argv, &i, "--open", NULL)) open = true;
        else if (cli_opt(argc, argv, &i, "--start", &v)) {
            if (!cli_parse_xy(v, &sx, &sy)) return cli_fail("--start wants X,Y");
            have_start = open = true;
        } else if (cli_opt(argc, argv, &i, "--end", &v)) {
            if (!cli_parse_xy(v, &ex, &ey)) return cli_fail("--end wants X,Y");
            have_end = open = true;
        } else if (cli_opt(argc, argv, &i, "--seed", &v)) {
            if (!cli_parse_u64(v, &seed)) return cli_fail("--seed wants a number");
        } else if (cli_opt(argc, argv, &i, "--format", &v)) {
            if (v == NULL || !cli_parse_format(v, &fmt)) return cli_fail("--format wants numbers, moves or svg");
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
    (void)seed;
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
    st = kt_exhaustive_tour(&t, g, open ? KT_SHAPE_PATH : KT_SHAPE_CYCLES, start, end,
                            UINT64_C(200000000), cli_progress, NULL);
    cli_progress_done();
    kt_graph_free(g);
    if (st == KT_ENOTOUR)
        return cli_fail("no %s tour exists on %ux%u%s", open ? "open" : "closed", w, h,
                        (have_start || have_end) ? " with these ends" : "");
    if (st != KT_OK) return cli_fail_status("tour", st);
    int rc = cli_save_tourney(t, fmt, 0, outpath);
    kt_tourney_free(t);
    return rc;
}
