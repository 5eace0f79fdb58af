/* SPDX-License-Identifier: MIT */
/* The help text of `knight`: one table that `knight help`, the manual page
 * knight(1) and the bash completion are all generated from (gen_doc.c). */
#ifndef KNIGHT_HELP_H
#define KNIGHT_HELP_H

#include <stddef.h>
#include <stdio.h>

/* One option: its spelling(s), its argument (NULL: none) and what it does. */
typedef struct help_opt {
    const char *flag;    /* "--open", or "-o" */
    const char *alias;   /* another spelling ("--output"), or NULL */
    const char *arg;     /* "FILE", or NULL for a switch */
    const char *text;
    const char *values;  /* completions of the argument: "a b c", "FILE" = files, or NULL */
} help_opt;

/* One subcommand.  text: paragraphs separated by "\n\n". */
typedef struct help_cmd {
    const char *name;
    const char *synopsis;      /* the arguments after the name */
    const char *summary;       /* one line */
    const char *text;
    const help_opt *opts;      /* ends with a {NULL} entry */
    const char *completes;     /* what operands are: "file", "size" or "" */
} help_cmd;

/* A section shared by all subcommands (formats, coordinates, ...). */
typedef struct help_section {
    const char *key;           /* `knight help KEY` */
    const char *title;
    const char *text;
} help_section;

extern const help_cmd help_cmds[];
extern const size_t help_cmd_count;
extern const help_section help_sections[];
extern const size_t help_section_count;
extern const help_opt help_common[];   /* options of every subcommand */
extern const char help_description[];

const help_cmd *help_find(const char *name);
const help_section *help_find_section(const char *key);

/* Plain-text help for a terminal (help_print.c). */
void help_print_overview(FILE *f, const char *version);
void help_print_command(FILE *f, const help_cmd *c);
void help_print_section(FILE *f, const help_section *s);

#endif /* KNIGHT_HELP_H */
