/* SPDX-License-Identifier: MIT */
/* knight walks: count leaper walks on a labelled board (the keypad example). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* A phone-style keypad: 5 columns by 4 rows, the bottom corners missing. */
static const char keypad[] = "ABCDE\nFGHIJ\nKLMNO\n.123.\n";

/* The command line of `knight walks`. */
typedef struct walks_args {
    const char *maskpath, *marked;
    uint64_t length, max;
} walks_args;

static int parse(int argc, char **argv, walks_args *a)
{
    const char *v;
    bool have_len = false;
    *a = (walks_args){NULL, "AEIO", 10, 2};
    for (int i = 1; i < argc; i++) {
        if (cli_opt(argc, argv, &i, "--marked", &v)) {
            if (v == NULL) return cli_usage("--marked wants the labels of the marked cells");
            a->marked = v;
        } else if (cli_opt(argc, argv, &i, "--max", &v)) {
            if (!cli_parse_u64(v, &a->max) || a->max > UINT32_MAX) return cli_usage("--max wants a number");
        } else if (a->maskpath == NULL && cli_operand(argv, i)) {
            a->maskpath = argv[i];
        } else if (!have_len && cli_operand(argv, i)) {
            if (!cli_parse_u64(argv[i], &a->length) || a->length == 0 || a->length > UINT32_MAX)
                return cli_usage("walk length must be a positive number, not '%s'", argv[i]);
            have_len = true;
        } else {
            return cli_usage("walks: unexpected argument '%s'", argv[i]);
        }
    }
    return 0;
}

/* The board text: MASKFILE or the keypad; NULL after a message. */
static char *board_text(const char *maskpath, size_t *len)
{
    if (maskpath != NULL) return cli_read_file(maskpath, len);
    char *text = malloc(sizeof keypad);
    if (text == NULL) {
        cli_fail("out of memory");
        return NULL;
    }
    memcpy(text, keypad, sizeof keypad);
    *len = sizeof keypad - 1;
    return text;
}

/* Count on g (labels in cell order) and print the walks per start cell. */
static int count_walks(const kt_graph *g, const char *label, const walks_args *a)
{
    size_t n = kt_graph_cell_count(g);
    uint8_t *marked = calloc(n, 1);
    uint64_t *per = calloc(n, sizeof *per), total = 0;
    kt_options *run = NULL;
    kt_status st = marked && per ? kt_options_new(&run, NULL) : KT_ENOMEM;
    for (size_t c = 0; st == KT_OK && c < n; c++)
        marked[c] = kt_graph_is_cell(g, (kt_cell)c) && strchr(a->marked, label[c]) != NULL;
    /* A progress bar for long walks (a length of 2^32 - 1 takes minutes). */
    if (st == KT_OK) st = kt_options_set_progress(run, cli_progress, NULL);
    if (st == KT_OK) st = kt_walks_count(g, (uint32_t)a->length, marked, (uint32_t)a->max, run, per, n, &total);
    cli_progress_done();
    kt_options_free(run);
    if (st == KT_OK) {
        printf("%llu-cell walks with at most %llu visits to {%s}\n", (unsigned long long)a->length,
               (unsigned long long)a->max, a->marked);
        for (size_t c = 0; c < n; c++)
            if (kt_graph_is_cell(g, (kt_cell)c)) printf("%c %llu\n", label[c], (unsigned long long)per[c]);
        printf("total %llu\n", (unsigned long long)total);
    }
    free(marked);
    free(per);
    return st == KT_OK ? 0 : cli_fail_status("walks", st);
}

int cmd_walks(int argc, char **argv)
{
    walks_args a;
    int rc = parse(argc, argv, &a);
    if (rc) return rc;
    size_t len = 0;
    char *text = board_text(a.maskpath, &len);
    if (text == NULL) return CLI_FAIL;
    kt_graph *g = NULL;
    kt_diag d;
    kt_status st = kt_graph_parse_mask(&g, text, len, 2, 1, NULL, &d);
    if (st == KT_EPARSE) rc = cli_fail("%s:%llu:%llu: malformed board", a.maskpath ? a.maskpath : "keypad",
                                       (unsigned long long)d.line, (unsigned long long)d.column);
    else if (st != KT_OK) rc = cli_fail_status(a.maskpath ? a.maskpath : "board", st);
    /* Labels in cell order (the text without line breaks). */
    size_t n = st == KT_OK ? kt_graph_cell_count(g) : 0, k = 0;
    char *label = st == KT_OK ? malloc(n + 1) : NULL;
    if (st == KT_OK && label == NULL) rc = cli_fail("out of memory");
    for (size_t i = 0; label != NULL && i < len && k < n; i++)
        if (text[i] != '\n' && text[i] != '\r') label[k++] = text[i];
    if (label != NULL) rc = count_walks(g, label, &a);
    free(label);
    free(text);
    kt_graph_free(g);
    return rc;
}
