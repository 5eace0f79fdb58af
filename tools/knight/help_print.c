/* SPDX-License-Identifier: MIT */
/* Plain-text rendering of the help table for a terminal. */
#include "help.h"

#include <string.h>

#define WIDTH 79

/* Print text filled to WIDTH columns, every line indented by indent;
 * "\n\n" separates paragraphs. */
static void fill(FILE *f, const char *text, int indent)
{
    int col = 0;
    const char *p = text;
    while (*p) {
        if (p[0] == '\n') {
            fputs(col ? "\n\n" : "\n", f);
            col = 0;
            p += p[1] == '\n' ? 2 : 1;
            continue;
        }
        if (*p == ' ') {
            p++;
            continue;
        }
        size_t n = strcspn(p, " \n");
        if (col > indent && col + 1 + (int)n > WIDTH) {
            fputc('\n', f);
            col = 0;
        }
        if (col == 0) col = fprintf(f, "%*s", indent, "");
        else col += fprintf(f, " ");
        col += fprintf(f, "%.*s", (int)n, p);
        p += n;
    }
    if (col) fputc('\n', f);
}

static void print_opts(FILE *f, const help_opt *o)
{
    for (; o->flag != NULL; o++) {
        char head[64];
        snprintf(head, sizeof head, "%s%s%s%s%s", o->flag, o->alias ? ", " : "",
                 o->alias ? o->alias : "", o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(f, "  %s\n", head);
        fill(f, o->text, 6);
    }
}

void help_print_command(FILE *f, const help_cmd *c)
{
    fprintf(f, "usage: knight %s %s\n\n", c->name, c->synopsis);
    fill(f, c->text, 0);
    if (c->opts[0].flag != NULL) {
        fprintf(f, "\noptions:\n");
        print_opts(f, c->opts);
    }
    fprintf(f, "\ncommon options:\n");
    print_opts(f, help_common);
    fprintf(f, "\nSee also: knight help formats, knight help coordinates, knight help exit.\n");
}

void help_print_section(FILE *f, const help_section *s)
{
    fprintf(f, "%s\n\n", s->title);
    fill(f, s->text, 2);
}

void help_print_overview(FILE *f, const char *version)
{
    fprintf(f, "usage: knight [-q] COMMAND [OPTIONS] [ARGS]\n\n");
    fill(f, help_description, 0);
    fprintf(f, "\ncommands:\n");
    for (size_t i = 0; i < help_cmd_count; i++)
        fprintf(f, "  %-10s %s\n", help_cmds[i].name, help_cmds[i].summary);
    fprintf(f, "\ncommon options:\n");
    print_opts(f, help_common);
    fputc('\n', f);
    for (size_t i = 0; i < help_section_count; i++) {
        help_print_section(f, &help_sections[i]);
        fputc('\n', f);
    }
    fprintf(f, "libknight %s\n", version);
}
