/* SPDX-License-Identifier: MIT */
/* knight check: classify a tour file or say exactly what is wrong. */
#include "cli.h"

int cmd_check(int argc, char **argv)
{
    bool open = false;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_opt(argc, argv, &i, "--open", NULL)) open = true;
        else if (path == NULL && cli_operand(argv, i)) path = argv[i];
        else return cli_usage("check: unexpected argument '%s'", argv[i]);
    }
    if (path == NULL) return cli_usage("check: FILE required");
    kt_tourney *t = cli_load_tourney(path, open ? KT_IO_READ_OPEN : 0);
    if (t == NULL) return 1;
    const kt_graph *g = kt_tourney_graph(t);
    unsigned w = kt_graph_width(g), h = kt_graph_height(g);
    if (kt_tourney_is_closed_tour(t))
        printf("%s: closed tour of %ux%u\n", path, w, h);
    else if (kt_tourney_is_open_tour(t))
        printf("%s: open tour of %ux%u\n", path, w, h);
    else
        printf("%s: tourney of size %zu on %ux%u\n", path, kt_tourney_size(t), w, h);
    kt_tourney_free(t);
    return 0;
}
