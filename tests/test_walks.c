/* SPDX-License-Identifier: MIT */
/* Walk counting: the keypad example of the encyclopedia seed, and brute force. */
#include <knight/knight.h>

#include <string.h>

#include "check.h"

/* Published per-key counts of 10-key sequences with at most 2 vowels. */
static const char keys[] = "ABCDEFGHIJKLMNO123";
static const uint64_t published[18] = {30004, 49154, 73664, 48320, 32520, 64608,
                                       51053, 90089, 33308, 64021, 57937, 63155,
                                       63584, 70622, 37721, 64287, 56730, 62621};

static uint64_t brute(const kt_graph *g, kt_cell c, unsigned left, const uint8_t *marked,
                      unsigned budget)
{
    if (marked[c]) {
        if (budget == 0) return 0;
        budget--;
    }
    if (left == 1) return 1;
    uint64_t s = 0;
    for (int m = 0; m < 8; m++) {
        kt_cell d = kt_graph_neighbor(g, c, m);
        if (d != KT_CELL_NONE) s += brute(g, d, left - 1, marked, budget);
    }
    return s;
}

int main(void)
{
    const char *text = "ABCDE\nFGHIJ\nKLMNO\n.123.\n";
    kt_graph *g = NULL;
    CHECK_OK(kt_graph_parse_mask(&g, text, strlen(text), 2, 1, NULL, NULL));
    const char *cells = "ABCDEFGHIJKLMNO.123.";
    uint8_t marked[20];
    for (int c = 0; c < 20; c++) marked[c] = strchr("AEIO", cells[c]) != NULL;
    uint64_t per[20], total = 0;
    CHECK_OK(kt_walks_count(g, 10, marked, 2, per, 20, &total));
    CHECK_EQ_U64(total, 1013398);
    for (int k = 0; k < 18; k++) {
        const char *at = strchr(cells, keys[k]);
        CHECK_EQ_U64(per[at - cells], published[k]);
    }
    CHECK_EQ_U64(per[15], 0); /* hole */
    /* Brute force agrees for shorter walks and other limits. */
    for (unsigned len = 1; len <= 7; len++)
        for (unsigned lim = 0; lim <= 3; lim++) {
            CHECK_OK(kt_walks_count(g, len, marked, lim, per, 20, &total));
            uint64_t sum = 0;
            for (kt_cell c = 0; c < 20; c++) {
                uint64_t b = kt_graph_is_cell(g, c) ? brute(g, c, len, marked, lim) : 0;
                CHECK_EQ_U64(per[c], b);
                sum += b;
            }
            CHECK_EQ_U64(total, sum);
        }
    CHECK_ST(kt_walks_count(g, 0, marked, 2, NULL, 0, NULL), KT_EINVAL);
    CHECK_ST(kt_walks_count(g, 5, marked, 2, per, 3, NULL), KT_ERANGE);
    kt_graph_free(g);
    /* Overflow is reported, not wrapped: 8^n walks on a big board pass 2^64. */
    CHECK_OK(kt_graph_new(&g, 20, 20));
    CHECK_ST(kt_walks_count(g, 40, NULL, 0, NULL, 0, &total), KT_EOVERFLOW);
    CHECK_OK(kt_walks_count(g, 12, NULL, 0, NULL, 0, &total));
    CHECK(total > 0);
    kt_graph_free(g);
    return check_done("test_walks");
}
