/* SPDX-License-Identifier: MIT */
/* knight walks: count leaper walks on a labelled board (the keypad example). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* A phone-style keypad: 5 columns by 4 rows, the bottom corners missing. */
static const char keypad[] = "ABCDE\nFGHIJ\nKLMNO\n.123.\n";

int cmd_walks(int argc, char **argv)
{
    const char *maskpath = NULL, *marked_keys = "AEIO", *v;
    uint64_t length = 10, maxm = 2;
    bool have_len = false;
    for (int i = 1; i < argc; i++) {
        if (cli_opt(argc, argv, &i, "--marked", &v)) {
            if (v == NULL) return cli_usage("--marked wants the labels of the marked cells");
            marked_keys = v;
        } else if (cli_opt(argc, argv, &i, "--max", &v)) {
            if (!cli_parse_u64(v, &maxm) || maxm > UINT32_MAX) return cli_usage("--max wants a number");
        } else if (maskpath == NULL && cli_operand(argv, i)) {
            maskpath = argv[i];
        } else if (!have_len && cli_operand(argv, i)) {
            if (!cli_parse_u64(argv[i], &length) || length == 0 || length > UINT32_MAX)
                return cli_usage("walk length must be a positive number");
            have_len = true;
        } else {
            return cli_usage("walks: unexpected argument '%s'", argv[i]);
        }
    }
    char *text = NULL;
    size_t len = 0;
    if (maskpath != NULL) {
        text = cli_read_file(maskpath, &len);
        if (text == NULL) return 1;
    } else {
        text = malloc(sizeof keypad);
        if (text == NULL) return cli_fail("out of memory");
        memcpy(text, keypad, sizeof keypad);
        len = sizeof keypad - 1;
    }
    kt_graph *g = NULL;
    kt_diag d;
    kt_status st = kt_graph_parse_mask(&g, text, len, 2, 1, NULL, &d);
    if (st == KT_EPARSE) {
        free(text);
        return cli_fail("%s:%llu:%llu: malformed board", maskpath ? maskpath : "keypad",
                        (unsigned long long)d.line, (unsigned long long)d.column);
    }
    if (st != KT_OK) {
        free(text);
        return cli_fail_status("board", st);
    }
    /* Labels in cell order (the text without line breaks). */
    size_t n = kt_graph_cell_count(g);
    char *label = malloc(n + 1);
    uint8_t *marked = calloc(n, 1);
    uint64_t *per = calloc(n, sizeof *per);
    int rc = 0;
    if (label == NULL || marked == NULL || per == NULL) {
        rc = cli_fail("out of memory");
        goto out;
    }
    size_t k = 0;
    for (size_t i = 0; i < len && k < n; i++)
        if (text[i] != '\n' && text[i] != '\r') label[k++] = text[i];
    for (size_t c = 0; c < n; c++) marked[c] = kt_graph_is_cell(g, (kt_cell)c) && strchr(marked_keys, label[c]) != NULL;
    uint64_t total = 0;
    /* A progress bar for long walks (a length of 2^32 - 1 takes minutes). */
    kt_options *run = NULL;
    st = kt_options_new(&run, NULL);
    if (st == KT_OK) st = kt_options_set_progress(run, cli_progress, NULL);
    if (st == KT_OK) st = kt_walks_count(g, (uint32_t)length, marked, (uint32_t)maxm, run, per, n, &total);
    cli_progress_done();
    kt_options_free(run);
    if (st != KT_OK) {
        rc = cli_fail_status("walks", st);
        goto out;
    }
    printf("%llu-cell walks with at most %llu visits to {%s}\n", (unsigned long long)length,
           (unsigned long long)maxm, marked_keys);
    for (size_t c = 0; c < n; c++)
        if (kt_graph_is_cell(g, (kt_cell)c)) printf("%c %llu\n", label[c], (unsigned long long)per[c]);
    printf("total %llu\n", (unsigned long long)total);
out:
    free(label);
    free(marked);
    free(per);
    free(text);
    kt_graph_free(g);
    return rc;
}
