/* SPDX-License-Identifier: MIT */
/* knight svg: draw a tour or tourney. */
#include "cli.h"

int cmd_svg(int argc, char **argv)
{
    const char *path = NULL, *outpath = NULL, *v;
    unsigned flags = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_opt(argc, argv, &i, "-o", &v) || cli_opt(argc, argv, &i, "--output", &v)) {
            if (v == NULL) return cli_usage("-o wants a file name");
            outpath = v;
        } else if (cli_opt(argc, argv, &i, "--numbers", NULL)) {
            flags |= KT_IO_WRITE_SVG_NUMBERS;
        } else if (cli_opt(argc, argv, &i, "--no-board", NULL)) {
            flags |= KT_IO_WRITE_SVG_NO_BOARD;
        } else if (path == NULL && cli_operand(argv, i)) {
            path = argv[i];
        } else {
            return cli_usage("svg: unexpected argument '%s'", argv[i]);
        }
    }
    if (path == NULL) return cli_usage("svg: FILE required");
    kt_tourney *t = cli_load_tourney(path, 0);
    if (t == NULL) return 1;
    if ((flags & KT_IO_WRITE_SVG_NUMBERS) && kt_tourney_size(t) != 1) {
        kt_tourney_free(t);
        return cli_fail("svg: --numbers needs a tour, not a tourney");
    }
    int rc = cli_save_tourney(t, KT_IO_SVG, flags, KT_CELL_NONE, outpath);
    kt_tourney_free(t);
    return rc;
}
