/* SPDX-License-Identifier: MIT */
/* The help text of `knight` (see help.h).  Keep it in step with the
 * option parsing of each cmd_*.c: tests/cli.sh checks that every
 * subcommand's --help names the options it accepts. */
#include "help.h"

#include <string.h>

#define END {NULL, NULL, NULL, NULL, NULL}
#define OUT_OPTS \
    {"--format", NULL, "F", "Output format: numbers, moves or svg (default: from the -o extension, " \
     "else as stated above).", "numbers moves svg"}, \
    {"-o", "--output", "FILE", "Write to FILE instead of standard output; its extension .txt, " \
     ".moves or .svg chooses the format unless --format is given.", "FILE"}
#define THREADS_OPT \
    {"--threads", NULL, "T", "Worker threads: 0 (the default) = one per online core, at most 256.", NULL}
#define SEED_OPT {"--seed", NULL, "N", "Random seed (default 0); the same seed gives the same result.", NULL}

const char help_description[] =
    "knight is the demo client of libknight, a library of knight's tour algorithms: it makes, "
    "checks, draws, transforms and counts knight's tours and tourneys (sets of disjoint closed "
    "tours covering the board).  `knight help SUB` and `knight SUB --help` print the help of "
    "one subcommand; the manual page knight(1) holds all of it.  `knight --version` prints the "
    "version.";

const help_opt help_common[] = {
    {"-h", "--help", NULL, "Print the help of the subcommand and exit with status 0.", NULL},
    {"-q", "--quiet", NULL, "No progress line and no informational messages on standard error "
     "(errors are still reported).", NULL},
    {"--", NULL, NULL, "End of options: every later argument is an operand, even if it starts with '-'.", NULL},
    END,
};

static const help_opt tour_opts[] = {
    {"--open", NULL, NULL, "Make an open tour (a Hamiltonian path) instead of a closed one.", NULL},
    {"--start", NULL, "SQ", "First cell of an open tour (implies --open); SQ is X,Y or a chess square.", NULL},
    {"--end", NULL, "SQ", "Last cell of an open tour (implies --open).", NULL},
    SEED_OPT,
    {"--method", NULL, "M", "Generator: blocks (the default), warnsdorff, neural, divide, braid or "
     "four-cover.  Methods that make tourneys are followed by a join unless --tourney is given.",
     "blocks warnsdorff neural divide braid four-cover"},
    {"--tie", NULL, "T", "Tie-break of --method warnsdorff: first, random, pohl, roth, wplus (Squirrel and Cull's W+) or w2 (default roth).", "first random pohl roth wplus w2"},
    {"--tourney", NULL, NULL, "Output the tourney itself (disjoint closed tours), not a single tour.", NULL},
    {"--obfuscate", NULL, NULL, "Shatter and join the closed tour 16 times (see obfuscate).", NULL},
    {"--uniform", NULL, NULL, "Draw the tour exactly uniformly at random among all tours of the board "
     "(closed, or open with the ends given), from exact counts prepared first; boards whose narrow "
     "side is at most 7, closed tours of boards of 8 columns (8x8: prepared by McKay's half-tours, "
     "see BENCHMARKS.md for the time), and open 8x8 tours (with both --start and --end given: minutes; "
     "with both ends free: 32 to 40 minutes and 16 GiB; with one of them given: the same preparation, "
     "then draws kept when they end there, exact too, 1 to 15 a second).  The same seed gives the same tours.", NULL},
    {"--count", NULL, "K", "With --uniform: draw K tours (independent draws of the seed), separated by "
     "blank lines.", NULL},
    OUT_OPTS,
    END,
};

static const help_opt check_opts[] = {
    {"--open", NULL, NULL, "Read a numbers file as an open tour even when its first and last "
     "cells are a knight's move apart.", NULL},
    END,
};

static const help_opt svg_opts[] = {
    {"-o", "--output", "FILE", "Write the SVG to FILE instead of standard output.", "FILE"},
    {"--numbers", NULL, NULL, "Draw the visit number in each cell (tours only).", NULL},
    {"--no-board", NULL, NULL, "Leave out the chequered board (smaller files).", NULL},
    END,
};

static const help_opt no_opts[] = {END};

static const help_opt walks_opts[] = {
    {"--marked", NULL, "LETTERS", "Labels of the marked cells (default AEIO).", NULL},
    {"--max", NULL, "K", "At most K visits to marked cells per walk (default 2).", NULL},
    END,
};

static const help_opt join_opts[] = {SEED_OPT, OUT_OPTS, END};

static const help_opt shatter_opts[] = {
    SEED_OPT,
    {"--sequential", NULL, NULL, "Switch the rails one after another as Parberry's code does.", NULL},
    OUT_OPTS,
    END,
};

static const help_opt obfuscate_opts[] = {
    {"--rounds", NULL, "K", "Number of shatters before the join (default 16, at most 1000000).", NULL},
    SEED_OPT,
    {"--sequential", NULL, NULL, "Use the sequential shatter of Parberry's code.", NULL},
    OUT_OPTS,
    END,
};

static const help_opt rails_opts[] = {
    {"--count", NULL, NULL, "Only the counts and the rail graph, not the list of rails.", NULL},
    END,
};

static const help_opt semimagic_opts[] = {
    {"--nested", NULL, NULL, "Also every 4x4 quarter semimagic (side divisible by 4).", NULL},
    {"--magic", NULL, NULL, "Also both diagonals sum to the magic constant.", NULL},
    {"--closed", NULL, NULL, "Closed tours only.", NULL},
    {"--halfturn", NULL, NULL, "Only numberings symmetric under the half-turn: k and k + N/2 on opposite cells through the centre (closed tours; the search covers half the numbers).", NULL},
    {"--any-start", NULL, NULL, "Drop the puzzle rule (start in the left half, end in the right).", NULL},
    {"--first", NULL, NULL, "Stop at the first numbering found and print it (or 'none exists').", NULL},
    {"--members", NULL, NULL, "Print every member of each symmetry class that satisfies the constraints.", NULL},
    {"--all", NULL, NULL, "Print all members of each class, marking those that fail.", NULL},
    THREADS_OPT,
    {"--size", NULL, "N|WxH", "Board side, 3 to 16 (default 8), or a W x H rectangle (1 to 16 each).", NULL},
    {"--shard", NULL, "i/N", "Search only shard i of N (0 <= i < N): every N-th subtree; the classes and "
     "numberings of the N shards add up to those of the whole search.", NULL},
    {"--budget", NULL, "N", "Stop after about N search nodes (exit status 1 after printing what was found; "
     "0 = unlimited).", NULL},
    {"--seconds", NULL, "S", "Stop after about S seconds of wall time (likewise).", NULL},
    {"--checkpoint", NULL, "FILE", "Save the progress to FILE every few minutes and after the last subtree, "
     "and resume from it (the classes found before are counted, not printed again).", "FILE"},
    {"--result", NULL, "FILE", "Also write the classes and numberings found as a shard result for knight "
     "reduce (written to a temporary file, then renamed).", "FILE"},
    {"--rows", NULL, NULL, "Only the rows add up (a row of W cells to W(N+1)/2; rectangles).", NULL},
    {"--columns", NULL, NULL, "Only the columns add up (a column of H cells to H(N+1)/2; rectangles).", NULL},
    {"--grid", NULL, "FILE", "Complete a puzzle: FILE in the numbers format with '.' for an unknown cell "
     "(lines starting with # are comments).", "FILE"},
    {"--make-puzzle", NULL, NULL, "Make a puzzle whose completion is unique from the first tour found (that "
     "completes --grid, if given); prints it as a --grid file with its given count and difficulty "
     "(search nodes to solve).", NULL},
    {"--seed", NULL, "N", "With --make-puzzle: the order in which numbers are removed (default 0).", NULL},
    {"--check-budget", NULL, "N", "With --make-puzzle: most search nodes per uniqueness check (default "
     "1000000, 0 = unlimited); a number whose removal the search cannot settle stays given.", NULL},
    END,
};

static const help_opt halftours_opts[] = {
    {"--width", NULL, "W", "Columns, 1 to 8 (default 8).", NULL},
    {"--depth", NULL, "D", "Rows of the half (default 4).", NULL},
    {"--other", NULL, "D2", "Rows of the other half (default: the same as --depth).", NULL},
    THREADS_OPT,
    {"--join", NULL, NULL, "Join the halves: the number of closed tours of W x (D+D2).", NULL},
    END,
};

static const help_opt count_opts[] = {
    {"--open", NULL, NULL, "Count open tours (Hamiltonian paths).", NULL},
    {"--start", NULL, "SQ", "Count the open tours that begin on SQ (implies --open; X,Y or a chess square); "
     "each is counted once, in its direction from SQ.", NULL},
    {"--end", NULL, "SQ", "Count the open tours that end on SQ (with --start: from one to the other).", NULL},
    {"--by-start", NULL, NULL, "The directed open tours from each cell, printed as the board's rows (top row "
     "first), then their total (implies --open; one count per class of cells under the board's symmetries).",
     NULL},
    {"--directed", NULL, NULL, "Count each tour in both directions (no change with --start or --end).", NULL},
    {"--symmetric", NULL, NULL, "Closed tours invariant under the 180-degree rotation.", NULL},
    {"--classes", NULL, NULL, "Classes of tours under the symmetries of the board.", NULL},
    {"--method", NULL, "M", "auto (the default: the library's choice, within the frontier's limits: a depth-first "
     "search on boards of at most 32 cells, or at least 5 wide and at most 36 cells for open tours, 40 for closed; "
     "half-tours on boards 5 to 8 wide whose halves hold at most 32 cells, and closed tours of 8x9 and 8x10; "
     "the frontier otherwise, and always "
     "with --shard, --checkpoint, --max-states or --trace), frontier (the frontier method only) or halftours "
     "(McKay's join of half-tours; closed or open tours, --start/--end too; narrow side at most 8).",
     "auto frontier halftours"},
    THREADS_OPT,
    {"--shard", NULL, "i/N", "Count only shard i of N (0 <= i < N); the N parts add up to the total.", NULL},
    {"--checkpoint", NULL, "FILE", "Save the state to FILE every few minutes and resume from it.", "FILE"},
    {"--checkpoint-interval", NULL, "S", "Seconds between checkpoints.", NULL},
    {"--result", NULL, "FILE", "Also write the count as a shard result for knight reduce (written to a "
     "temporary file, then renamed).", "FILE"},
    {"--max-states", NULL, "N", "Give up when a layer has more than N states.", NULL},
    {"--stats", NULL, NULL, "Print the frontier size and peak memory on standard error (none for the depth-first "
     "search).", NULL},
    {"--trace", NULL, NULL, "Print every layer's size and time on standard error.", NULL},
    END,
};

const help_cmd help_cmds[] = {
    {"tour", "[options] WxH", "make a closed (default) or open tour",
     "Makes a knight's tour of the W x H board and writes it in the numbers format (a tourney: "
     "in the moves format).  A closed tour exists on every board whose sides are both at least 5 "
     "with an even product, and on 3 x n for even n >= 10; an open tour with given ends exists "
     "only when the colours of the ends allow it.",
     tour_opts, "size"},
    {"check", "[--open] FILE", "say whether FILE holds a closed tour, an open tour or a tourney",
     "Reads FILE (numbers, moves or SVG, recognised by its content; - = standard input) and prints "
     "'closed tour of WxH', 'open tour of WxH' or 'tourney of size k on WxH'.  Otherwise it says "
     "what is wrong: FILE:LINE:COLUMN for malformed text, the rule broken and the cell (x,y) for a "
     "well-formed file that is not a tour, and exits with status 1.",
     check_opts, "file"},
    {"svg", "[options] FILE", "draw a tour or tourney as SVG",
     "Reads a tour or tourney and draws it: each cycle is a polyline in its own colour.",
     svg_opts, "file"},
    {"stats", "FILE...", "move and relative-move distributions",
     "Reads the tours in the FILEs and prints the mean (and, for several tours, the standard "
     "deviation) of the share of each move 0-7 and of each relative move (the turn between two "
     "consecutive moves).",
     no_opts, "file"},
    {"walks", "[options] [MASKFILE [LENGTH]]", "count leaper walks (no arguments: the keypad example)",
     "Counts the knight walks of LENGTH cells (default 10) on the board of MASKFILE that visit "
     "marked cells at most K times, per start cell.  Without MASKFILE: the phone keypad ABCDE / "
     "FGHIJ / KLMNO / .123. .",
     walks_opts, "file"},
    {"join", "[options] FILE", "join a tourney into one closed tour",
     "Switches rails between the cycles of a tourney until it is one closed tour (Parberry 2020).  "
     "Writes a closed tour in the numbers format, anything else in the moves format.",
     join_opts, "file"},
    {"shatter", "[options] FILE", "switch a random set of vertex-disjoint rails",
     "Switches a random set of vertex-disjoint rails of a tour or tourney, which usually splits it "
     "into several cycles.  Writes the moves format unless the result is a closed tour.",
     shatter_opts, "file"},
    {"obfuscate", "[options] FILE", "shatter K times (default 16), then join",
     "Obfuscates a closed tour: K random shatters then a join give an unrelated-looking closed tour.",
     obfuscate_opts, "file"},
    {"rails", "[--count] FILE", "count and list the rails and the rail graph",
     "Prints the number of rails of a tour or tourney by primary and cross move, the rail graph "
     "(edges joining different cycles, components), and the list of rails as x,y of the top cell.",
     rails_opts, "file"},
    {"semimagic", "[options]", "semimagic numbered tours; --grid completes a puzzle",
     "Searches the numbered tours of the N x N board whose rows and columns all have the same sum "
     "(by default the puzzle rule: start in the left half, end in the right half), and prints one "
     "representative per symmetry class with a progress line.",
     semimagic_opts, ""},
    {"halftours", "[options]", "McKay's half-tour statistics (default 8x8); --join counts closed tours",
     "Enumerates the half-tours of a W x D half board (McKay 1997) and prints their statistics; "
     "with --join, joins them with the other half to count the closed tours.",
     halftours_opts, ""},
    {"count", "[options] WxH", "exact number of closed (default) or open tours",
     "Counts exactly the knight's tours of a W x H board whose narrow side is at most 8 (the other side any "
     "length), in 128 bits.  Time and memory grow quickly: 8x8 closed takes 2.5 minutes and 1.4 GiB by half-tours, "
     "10 GiB by the frontier; 8x8 open about an hour and 15 GiB by half-tours.  "
     "Progress with an estimate of the time left is shown on a terminal.",
     count_opts, "size"},
    {"reduce", "FILE...", "check a set of shard results and print their exact sum",
     "Reads the shard results written by `knight count ... --shard i/N --result FILE` and prints "
     "the sum of their counts (128-bit), which is the count of the whole run; for the results of "
     "`knight semimagic ... --shard i/N --result FILE`, the summed classes and numberings in the "
     "line the search itself prints.  It refuses, with "
     "exit status 1 and the reason, a set with a shard missing, a shard given twice, files of "
     "different runs (board, method, flags or N), or a damaged file (checksum).  A result file "
     "holds 'key value' lines: knight-shard-result 1, board, method, flags, shard i/N, run (a hash "
     "of board, method, flags and N), count, classes (semimagic only), checksum (FNV-1a 64 of the "
     "lines before it).",
     no_opts, "file"},
    {"help", "[SUB|formats|coordinates|exit]", "print this help, a subcommand's or a topic's",
     "Without an argument lists the subcommands and the topics below; with one prints its help.  "
     "`knight help --list` prints the subcommand names, one per line.",
     no_opts, "help"},
};
const size_t help_cmd_count = sizeof help_cmds / sizeof help_cmds[0];

const help_section help_sections[] = {
    {"formats", "FILE FORMATS",
     "numbers (.txt): one board row per line, top row first, the visit number 1..N of each cell "
     "separated by spaces, '.' for a hole.  A tour is closed when N and 1 are a knight's move "
     "apart (unless read with check --open).\n\n"
     "moves (.moves): one board row per line, one character per cell: the move digit 0-7 to the "
     "cell's successor (0: x+2,y-1; 1: x+1,y-2; 2: x-1,y-2; 3: x-2,y-1; 4: x-2,y+1; 5: x-1,y+2; "
     "6: x+1,y+2; 7: x+2,y+1; y grows downwards), '-' for the last cell of an open tour, '.' for a "
     "hole.  Describes any tourney.\n\n"
     "svg (.svg): a picture, one polyline per cycle; knight reads back the SVG it writes.\n\n"
     "masks (walks): one board row per line, one character per cell, '.' = hole, any other "
     "character is a cell and its label.\n\n"
     "Input files are recognised by their content; - is standard input.  Output goes to standard "
     "output unless -o FILE is given."},
    {"coordinates", "COORDINATES",
     "A cell is X,Y: 0-based, x the column counted from the left, y the row counted from the top "
     "(the first line of a file is y = 0).  A chess square such as a1 is also accepted: the file "
     "letter a, b, c, ... is x = 0, 1, 2, ... and rank r (1-based, counted from the bottom) is "
     "y = h - r on a board of height h.  So a1 is the bottom-left cell 0,h-1, and on 8x8 h8 is 7,0 "
     "and e4 is 4,4.  Files go up to z (boards up to 26 wide)."},
    {"exit", "EXIT STATUS",
     "0: success.  1: failure (no tour exists, a file cannot be read or is not a tour, a limit is "
     "exceeded, out of memory).  2: usage error (unknown subcommand or option, a missing or "
     "malformed argument).  Every error message on standard error names the reason."},
};
const size_t help_section_count = sizeof help_sections / sizeof help_sections[0];

const help_cmd *help_find(const char *name)
{
    for (size_t i = 0; i < help_cmd_count; i++)
        if (strcmp(help_cmds[i].name, name) == 0) return &help_cmds[i];
    return NULL;
}

const help_section *help_find_section(const char *key)
{
    for (size_t i = 0; i < help_section_count; i++)
        if (strcmp(help_sections[i].key, key) == 0) return &help_sections[i];
    return NULL;
}
