/* SPDX-License-Identifier: MIT */
/* knight join / shatter / obfuscate / rails: Parberry's rail operations. */
#include "cli.h"

#include <string.h>

typedef struct rails_args {
    const char *in, *out;
    kt_io_format fmt;
    bool fmt_given;
    uint64_t seed;
    uint64_t rounds;
    bool list;
    bool sequential;     /* the shatter of Parberry's code */
} rails_args;

/* Common options: FILE [-o OUT] [--format F] [--seed N] [--rounds K]; rails: FILE [--count]. */
static int parse(int argc, char **argv, rails_args *a, bool rounds_ok, bool list_ok)
{
    const char *v;
    memset(a, 0, sizeof *a);
    a->fmt = KT_IO_MOVES;
    a->list = list_ok;
    for (int i = 1; i < argc; i++) {
        if (list_ok && !cli_operand(argv, i) && strcmp(argv[i], "--count") != 0) {
            return cli_usage("rails: unexpected argument '%s'", argv[i]);
        } else if (cli_opt(argc, argv, &i, "--seed", &v)) {
            if (v == NULL || !cli_parse_u64(v, &a->seed)) return cli_usage("--seed wants a number");
        } else if (rounds_ok && cli_opt(argc, argv, &i, "--rounds", &v)) {
            if (v == NULL || !cli_parse_u64(v, &a->rounds) || a->rounds > 1000000)
                return cli_usage("--rounds wants a number up to 1000000");
        } else if (cli_opt(argc, argv, &i, "--format", &v)) {
            if (v == NULL || !cli_parse_format(v, &a->fmt))
                return cli_usage("--format wants numbers, moves or svg");
            a->fmt_given = true;
        } else if (cli_opt(argc, argv, &i, "-o", &v) || cli_opt(argc, argv, &i, "--output", &v)) {
            if (v == NULL) return cli_usage("-o wants a file name");
            a->out = v;
        } else if (cli_opt(argc, argv, &i, "--sequential", NULL)) {
            a->sequential = true;
        } else if (list_ok && cli_opt(argc, argv, &i, "--count", NULL)) {
            a->list = false;
        } else if (cli_operand(argv, i) && a->in == NULL) {
            a->in = argv[i];
        } else {
            return cli_usage("%s: unexpected argument '%s'", argv[0], argv[i]);
        }
    }
    if (a->in == NULL) return cli_usage("%s: FILE required", argv[0]);
    return 0;
}

/* Write the result: a closed tour in numbers format unless told otherwise. */
static int save(const kt_tourney *t, rails_args *a)
{
    kt_io_format dflt = kt_tourney_is_closed_tour(t) ? KT_IO_NUMBERS : KT_IO_MOVES;
    return cli_save_tourney(t, cli_output_format(a->out, a->fmt_given, a->fmt, dflt), 0, KT_CELL_NONE, a->out);
}

static int run(int argc, char **argv, int op)
{
    rails_args a;
    int rc = parse(argc, argv, &a, op == 2, false);
    if (rc) return rc;
    if (op == 0 && a.sequential) return cli_usage("join: --sequential is for shatter and obfuscate");
    kt_tourney *t = cli_load_tourney(a.in, 0);
    if (t == NULL) return 1;
    size_t before = kt_tourney_size(t);
    kt_status st;
    if (op == 0) {
        st = kt_rails_join(t, a.seed, NULL);
    } else if (!a.sequential) {
        st = op == 1 ? kt_rails_shatter(t, a.seed)
                     : kt_rails_obfuscate(t, (unsigned)a.rounds, a.seed, NULL);
    } else {
        /* the paper's way: its shatter (rounds times to obfuscate), then join */
        uint64_t rounds = op == 1 ? 1 : a.rounds ? a.rounds : KT_RAILS_OBFUSCATE_ROUNDS;
        st = KT_OK;
        for (uint64_t r = 0; r < rounds && st == KT_OK; r++)
            st = kt_rails_shatter_sequential(t, a.seed * 1000003u + r);
        if (st == KT_OK && op == 2) st = kt_rails_join(t, a.seed, NULL);
    }
    if (st == KT_ENOTOUR) {
        kt_tourney_free(t);
        return cli_fail("%s: the board has no closed tour (the tourney is left as it was)", argv[0]);
    }
    if (st != KT_OK) {
        kt_tourney_free(t);
        return cli_fail_status(argv[0], st);
    }
    cli_info("%s: %zu cycle(s) -> %zu cycle(s)\n", argv[0], before, kt_tourney_size(t));
    rc = save(t, &a);
    kt_tourney_free(t);
    return rc;
}

int cmd_join(int argc, char **argv) { return run(argc, argv, 0); }
int cmd_shatter(int argc, char **argv) { return run(argc, argv, 1); }
int cmd_obfuscate(int argc, char **argv) { return run(argc, argv, 2); }

static const char *const move_name = "01234567";

int cmd_rails(int argc, char **argv)
{
    rails_args a;
    int rc = parse(argc, argv, &a, false, true);
    if (rc) return rc;
    kt_tourney *t = cli_load_tourney(a.in, 0);
    if (t == NULL) return 1;
    kt_rails *r = NULL;
    kt_status st = kt_rails_new(&r, t);
    if (st != KT_OK) {
        kt_tourney_free(t);
        return cli_fail_status("rails", st);
    }
    const kt_graph *g = kt_tourney_graph(t);
    size_t n = kt_rails_count(r), edges = 0, comps = 0;
    uint64_t by[4][4];
    kt_rails_counts(r, by);
    kt_rails_graph(r, &edges, &comps);
    size_t cells = kt_graph_vertex_count(g);
    printf("board %ux%u, %zu cycle(s), %zu rails (%.4f per cell)\n", kt_graph_width(g),
           kt_graph_height(g), kt_tourney_size(t), n, cells ? (double)n / (double)cells : 0.0);
    printf("rail graph: %zu edge(s) joining cycles, %zu component(s)\n", edges, comps);
    printf("by primary (rows) and cross (columns) move:\n         4      5      6      7\n");
    for (int i = 0; i < 4; i++)
        printf("  %d %6llu %6llu %6llu %6llu\n", i + 4, (unsigned long long)by[i][0],
               (unsigned long long)by[i][1], (unsigned long long)by[i][2], (unsigned long long)by[i][3]);
    if (a.list) {
        printf("top(x,y) primary cross joins\n");
        for (size_t i = 0; i < n; i++) {
            kt_rail rl;
            uint32_t x = 0, y = 0;
            int joins = 0;
            kt_rails_get(r, i, &rl);
            kt_graph_coords(g, rl.top, &x, &y);
            kt_rails_joins(r, rl, &joins, NULL, NULL);
            printf("%u,%u %c %c %s\n", x, y, move_name[rl.primary], move_name[rl.cross],
                   joins ? "yes" : "no");
        }
    }
    kt_rails_free(r);
    kt_tourney_free(t);
    return 0;
}
