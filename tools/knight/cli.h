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
    const char *usage;        /* one line: arguments */
    const char *help;         /* one line: what it does */
} cli_command;

/* Print "knight: <message>" to stderr and return 1 (the failure exit status). */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
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
bool cli_parse_u64(const char *s, uint64_t *v);
/* Format name -> kt_io_format (numbers, moves, svg). */
bool cli_parse_format(const char *s, kt_io_format *f);

/* Load a tour or tourney file, printing a precise diagnostic on failure. */
kt_tourney *cli_load_tourney(const char *path, unsigned flags);
/* Write a tourney to path (NULL or "-" = stdout). Returns exit status. */
int cli_save_tourney(const kt_tourney *t, kt_io_format f, unsigned flags, const char *path);

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

#endif /* KNIGHT_CLI_H */
