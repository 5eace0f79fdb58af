/* SPDX-License-Identifier: MIT */
/* knight stats: move and relative-move distributions of tours. */
#include "cli.h"

static void row(const char *name, const double v[8], bool skip4)
{
    printf("%-10s", name);
    for (int i = 0; i < 8; i++)
        if (!(skip4 && i == 4)) printf(" %.4f", v[i]);
    putchar('\n');
}

int cmd_stats(int argc, char **argv)
{
    if (argc < 2) return cli_usage("stats: FILE... required");
    for (int i = 1; i < argc; i++)
        if (!cli_operand(argv, i)) return cli_usage("stats: unexpected option '%s'", argv[i]);
    kt_stats *s = NULL;
    kt_status st = kt_stats_new(&s, NULL);
    if (st != KT_OK) return cli_fail_status("stats", st);
    for (int i = 1; i < argc; i++) {
        kt_tourney *t = cli_load_tourney(argv[i], 0);
        if (t == NULL) {
            kt_stats_free(s);
            return 1;
        }
        st = kt_stats_add(s, t);
        kt_tourney_free(t);
        if (st != KT_OK) {
            kt_stats_free(s);
            return cli_fail_status(argv[i], st);
        }
    }
    double mean[8], sd[8];
    printf("tours: %llu\n", (unsigned long long)kt_stats_count(s));
    printf("%-10s      0      1      2      3      4      5      6      7\n", "move");
    kt_stats_moves(s, mean, sd);
    row("mean", mean, false);
    if (kt_stats_count(s) > 1) row("stddev", sd, false);
    printf("%-10s      0      1      2      3      5      6      7\n", "relative");
    kt_stats_relative(s, mean, sd);
    row("mean", mean, true);
    if (kt_stats_count(s) > 1) row("stddev", sd, true);
    kt_stats_free(s);
    return 0;
}
