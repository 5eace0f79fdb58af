/* SPDX-License-Identifier: MIT */
/* knight: the libknight demo client.  Each subcommand lives in its own file. */
#include "cli.h"

#include <string.h>

static const cli_command commands[] = {
    {"tour", cmd_tour,
     "WxH [--open] [--start X,Y] [--end X,Y] [--seed N] [--method M] [--tie T] [--tourney] [--obfuscate] [--format F] [-o FILE]",
     "make a closed (default) or open tour"},
    {"check", cmd_check, "FILE", "say whether FILE holds a closed tour, an open tour or a tourney"},
    {"svg", cmd_svg, "FILE [-o OUT.svg] [--numbers]", "draw a tour or tourney as SVG"},
    {"stats", cmd_stats, "FILE...", "move and relative-move distributions"},
    {"walks", cmd_walks, "[MASKFILE LENGTH [--marked LETTERS] [--max K]]",
     "count leaper walks (no arguments: the keypad example)"},
    {"join", cmd_join, "FILE [--seed N] [--format F] [-o FILE]", "join a tourney into one closed tour"},
    {"shatter", cmd_shatter, "FILE [--seed N] [--sequential] [--format F] [-o FILE]",
     "switch a random set of vertex-disjoint rails"},
    {"obfuscate", cmd_obfuscate, "FILE [--rounds K] [--seed N] [--sequential] [--format F] [-o FILE]",
     "shatter K times (default 16), then join"},
    {"rails", cmd_rails, "FILE [--count]", "count and list the rails and the rail graph"},
    {"semimagic", cmd_semimagic,
     "[--nested] [--magic] [--closed] [--any-start] [--threads T] [--grid FILE] [--size N] [--members|--all] [--first]",
     "semimagic numbered tours (default: start left, end right); --grid completes a puzzle"},
    {"halftours", cmd_halftours, "[--width W] [--depth D] [--other D2] [--threads T] [--join]",
     "McKay's half-tour statistics (default 8x8); --join counts closed tours"},
    {"count", cmd_count,
     "WxH [--open] [--directed] [--symmetric] [--classes] [--method frontier|halftours] [--threads T] [--shard i/N] [--checkpoint FILE] [--stats] [--trace] [--max-states N]",
     "exact number of closed (default) or open tours"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: knight COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-9s %s\n  %-9s   %s\n", commands[i].name, commands[i].usage, "",
                commands[i].help);
    fprintf(f, "\nFormats: numbers (visit numbers), moves (Parberry's digits), svg.\n"
               "libknight %s\n", kt_version_string());
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("knight (libknight) %s\n", kt_version_string());
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    cli_fail("unknown command '%s' (try 'knight --help')", argv[1]);
    return 2;
}
