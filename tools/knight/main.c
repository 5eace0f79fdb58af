/* SPDX-License-Identifier: MIT */
/* knight: the libknight demo client.  Each subcommand lives in its own file;
 * the help text of all of them is the table in help.c. */
#include "cli.h"
#include "help.h"

#include <string.h>

static int cmd_help(int argc, char **argv);

static const cli_command commands[] = {
    {"tour", cmd_tour},           {"check", cmd_check},       {"svg", cmd_svg},
    {"stats", cmd_stats},         {"walks", cmd_walks},       {"join", cmd_join},
    {"shatter", cmd_shatter},     {"obfuscate", cmd_obfuscate}, {"rails", cmd_rails},
    {"semimagic", cmd_semimagic}, {"halftours", cmd_halftours}, {"count", cmd_count},
    {"reduce", cmd_reduce},       {"help", cmd_help},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static bool is_help(const char *a)
{
    return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0;
}

static bool is_quiet(const char *a)
{
    return strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0;
}

/* knight help [SUB|TOPIC] (also --list: the subcommand names). */
static int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        help_print_overview(stdout, kt_version_string());
        return CLI_OK;
    }
    if (argc > 2) return cli_usage("help takes one argument");
    const help_cmd *c = help_find(argv[1]);
    const help_section *s = help_find_section(argv[1]);
    if (strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < N_COMMANDS; i++) printf("%s\n", commands[i].name);
    } else if (c != NULL) {
        help_print_command(stdout, c);
    } else if (s != NULL) {
        help_print_section(stdout, s);
    } else {
        return cli_usage("no help on '%s' (a subcommand, formats, coordinates or exit)", argv[1]);
    }
    return CLI_OK;
}

/* Take out the common options (-q, -h, --) before the subcommand's own
 * parser runs; *help is set for -h/--help.  Returns the new argc. */
static int common_options(int argc, char **argv, bool *help)
{
    int out = 1;
    for (int i = 1; i < argc; i++) {
        if (cli_operands_from <= out) {
            argv[out++] = argv[i];
        } else if (strcmp(argv[i], "--") == 0) {
            cli_operands_from = out;
        } else if (is_quiet(argv[i])) {
            cli_quiet = true;
        } else {
            if (is_help(argv[i])) *help = true;
            argv[out++] = argv[i];
        }
    }
    if (cli_operands_from > out) cli_operands_from = out;
    argv[out] = NULL;
    return out;
}

static int run(const cli_command *c, int argc, char **argv)
{
    bool help = false;
    cli_command_name = c->name;
    argc = common_options(argc, argv, &help);
    if (help) {
        help_print_command(stdout, help_find(c->name));
        return CLI_OK;
    }
    return c->run(argc, argv);
}

int main(int argc, char **argv)
{
    int first = 1;
    while (first < argc && is_quiet(argv[first])) {
        cli_quiet = true;
        first++;
    }
    if (first >= argc) {
        help_print_overview(stderr, kt_version_string());
        return CLI_USAGE;
    }
    const char *name = argv[first];
    if (is_help(name)) return cmd_help(1, argv);
    if (strcmp(name, "--version") == 0) {
        printf("knight (libknight) %s\n", kt_version_string());
        return CLI_OK;
    }
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0) return run(&commands[i], argc - first, argv + first);
    return cli_usage("unknown command '%s'", name);
}
