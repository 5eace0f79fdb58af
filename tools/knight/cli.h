/* SPDX-License-Identifier: MIT */
/* Shared helpers of the `knight` demo client (public API only). */
#ifndef KNIGHT_CLI_H
#define KNIGHT_CLI_H

#include <knight/knight.h>

#include <stdbool.h>
#include <stdio.h>

/* A subcommand: argv[0] is the subcommand name. Returns the exit status. */
typedef int (*cli_command_fn)(int argc, char **argv);

typedef struct cli_command {
    const char *name;
    cli_command_fn run;
} cli_command;

/* Exit statuses. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* -q/--quiet: no progress, no informational messages. */
extern bool cli_quiet;
/* Index (in the subcommand's argv) from which every argument is an operand
 * (the place of a removed `--`; argc when there is none). */
extern int cli_operands_from;
/* The running subcommand's name, for messages. */
extern const char *cli_command_name;

/* Print "knight: <message>" to stderr and return 1 (the failure exit status). */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A usage error: the message, a pointer to --help, and return 2. */
int cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An informational message on stderr, unless -q. */
void cli_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Whether argv[i] is an operand (not an option): after `--`, "-", or not starting with '-'. */
bool cli_operand(char **argv, int i);
/* Same, for a status from the library: "knight: <what>: <strerror>". */
int cli_fail_status(const char *what, kt_status st);

/* Read a whole file ("-" = stdin); NULL on failure (message printed). */
char *cli_read_file(const char *path, size_t *len);
/* Open an output stream ("-" or NULL = stdout); NULL on failure (message printed). */
FILE *cli_open_out(const char *path);
int cli_close_out(FILE *f, const char *path);
/* kt_write_fn writing to a FILE *. */
int cli_write_file(void *user, const char *data, size_t len);

/* Parse "WxH" (both >= 1), "X,Y", an unsigned number. */
bool cli_parse_size(const char *s, uint32_t *w, uint32_t *h);
bool cli_parse_xy(const char *s, uint32_t *x, uint32_t *y);
/* The cell named by s (X,Y or a chess square) into *c; NULL s leaves *c.
 * 0, or the usage status after a message naming flag. */
int cli_cell_arg(const kt_graph *g, const char *flag, const char *s, kt_cell *c);
/* A cell: "X,Y" (0-based from the top-left) or a chess square "a1" (file
 * a = x 0, rank r = y h - r on a board of height h). */
bool cli_parse_square(const char *s, uint32_t h, uint32_t *x, uint32_t *y);
/* --threads T: 0 (all cores) to KT_THREADS_MAX; 0 or the usage status after a message. */
int cli_parse_threads(const char *s, unsigned *threads);
bool cli_parse_u64(const char *s, uint64_t *v);
/* Format name -> kt_io_format (numbers, moves, svg). */
bool cli_parse_format(const char *s, kt_io_format *f);
/* The output format: --format if given, else the extension of path (.svg,
 * .txt, .moves), else dflt. */
kt_io_format cli_output_format(const char *path, bool given, kt_io_format fmt, kt_io_format dflt);

/* Load a tour or tourney file, printing a precise diagnostic on failure. */
kt_tourney *cli_load_tourney(const char *path, unsigned flags);
/* Write a tourney to path (NULL or "-" = stdout); numbers start at cell
 * start (KT_CELL_NONE: the canonical start). Returns exit status. */
int cli_save_tourney(const kt_tourney *t, kt_io_format f, unsigned flags, kt_cell start, const char *path);

/* Whether --name matches argv[*i]; when it takes a value, stores it and advances *i. */
bool cli_opt(int argc, char **argv, int *i, const char *name, const char **value);

/* A progress bar on stderr when stderr is a terminal (kt_progress_fn). */
int cli_progress(void *user, uint64_t done, uint64_t total);
void cli_progress_done(void);

/* Subcommands (one file each). */
int cmd_tour(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_svg(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_walks(int argc, char **argv);
int cmd_join(int argc, char **argv);
int cmd_shatter(int argc, char **argv);
int cmd_obfuscate(int argc, char **argv);
int cmd_rails(int argc, char **argv);
int cmd_semimagic(int argc, char **argv);
int cmd_halftours(int argc, char **argv);
int cmd_count(int argc, char **argv);
int cmd_reduce(int argc, char **argv);
/* Write a shard result (cmd_reduce.c) atomically: path.tmp.PID, then renamed.
 * The record form names the board and flags as text and, for a semimagic
 * search, carries its classes (NULL otherwise). */
/* FNV-1a 64: the shard results' checksum and run id (not for security). */
uint64_t cli_fnv1a(const void *data, size_t n);
int shard_result_write_record(const char *path, const char *board, const char *method, const char *flags,
                              uint32_t index, uint32_t count, kt_u128 n, const kt_u128 *classes);
/* The count form: flags are KT_COUNT_* bits. */
int shard_result_write(const char *path, uint32_t w, uint32_t h, const char *method, unsigned flags,
                       uint32_t index, uint32_t count, kt_u128 n);

#endif /* KNIGHT_CLI_H */
