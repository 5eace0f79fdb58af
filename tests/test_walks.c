/* SPDX-License-Identifier: MIT */
/* Walk counting: the phone-keypad example (knight moves between keys, at most
 * two vowels), brute force, and the run settings (cancel, budget). */
#include <knight/knight.h>

#include <string.h>

#include "check.h"

/* Published per-key counts of 10-key sequences with at most 2 vowels. */
static const char keys[] = "ABCDEFGHIJKLMNO123";
static const uint64_t published[18] = {30004, 49154, 73664, 48320, 32520, 64608,
                                       51053, 90089, 33308, 64021, 57937, 63155,
                                       63584, 70622, 37721, 64287, 56730, 62621};

/* Cancels on the first report; counts the reports. */
static int cancel_first(void *user, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    ++*(int *)user;
    return 1;
}

/* Never cancels; counts the reports. */
static int count_reports(void *user, uint64_t done, uint64_t total)
{
    (void)total;
    CHECK(done <= total);
    ++*(int *)user;
    return 0;
}

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
    CHECK_OK(kt_walks_count(g, 10, marked, 2, NULL, per, 20, &total));
    CHECK_EQ_U64(total, 1013398);
    for (int k = 0; k < 18; k++) {
        const char *at = strchr(cells, keys[k]);
        CHECK_EQ_U64(per[at - cells], published[k]);
    }
    CHECK_EQ_U64(per[15], 0); /* hole */
    /* Brute force agrees for shorter walks and other limits. */
    for (unsigned len = 1; len <= 7; len++)
        for (unsigned lim = 0; lim <= 3; lim++) {
            CHECK_OK(kt_walks_count(g, len, marked, lim, NULL, per, 20, &total));
            uint64_t sum = 0;
            for (kt_cell c = 0; c < 20; c++) {
                uint64_t b = kt_graph_is_cell(g, c) ? brute(g, c, len, marked, lim) : 0;
                CHECK_EQ_U64(per[c], b);
                sum += b;
            }
            CHECK_EQ_U64(total, sum);
        }
    CHECK_ST(kt_walks_count(g, 0, marked, 2, NULL, NULL, 0, NULL), KT_EINVAL);
    CHECK_ST(kt_walks_count(g, 5, marked, 2, NULL, per, 3, NULL), KT_ERANGE);
    kt_graph_free(g);
    /* Overflow is reported, not wrapped: 8^n walks on a big board pass 2^64. */
    CHECK_OK(kt_graph_new(&g, 20, 20));
    CHECK_ST(kt_walks_count(g, 40, NULL, 0, NULL, NULL, 0, &total), KT_EOVERFLOW);
    CHECK_OK(kt_walks_count(g, 12, NULL, 0, NULL, NULL, 0, &total));
    CHECK(total > 0);
    kt_graph_free(g);

    /* Run settings.  On 2x3 the knight has two moves, (0,0)-(1,2) and
     * (1,0)-(0,2), and two cells without any: every walk of 2 or more cells
     * goes back and forth on one edge, 4 walks for every length, so a very
     * long count neither overflows nor ends early. */
    CHECK_OK(kt_graph_new(&g, 2, 3));
    kt_options *run = NULL;
    CHECK_OK(kt_options_new(&run, NULL));
    uint64_t per6[6];
    CHECK_OK(kt_walks_count(g, 1000, NULL, 0, NULL, per6, 6, &total));
    CHECK_EQ_U64(total, 4);
    CHECK_EQ_U64(per6[0] + per6[1] + per6[4] + per6[5], 4);
    CHECK_EQ_U64(per6[2] + per6[3], 0);
    /* Budget: one step per cell after the first. */
    CHECK_OK(kt_options_set_budget(run, 998));
    total = 77;
    CHECK_ST(kt_walks_count(g, 1000, NULL, 0, run, NULL, 0, &total), KT_ELIMIT);
    CHECK_EQ_U64(total, 77);
    CHECK_OK(kt_options_set_budget(run, 999));
    CHECK_OK(kt_walks_count(g, 1000, NULL, 0, run, NULL, 0, &total));
    CHECK_EQ_U64(total, 4);
    CHECK_OK(kt_options_set_budget(run, 0));
    /* Cancel: 2^32 - 1 cells (minutes of work) stop at the first report,
     * and the outputs are left as they were. */
    int reports = 0;
    CHECK_OK(kt_options_set_progress(run, cancel_first, &reports));
    total = 77;
    for (int c = 0; c < 6; c++) per6[c] = 99;
    CHECK_ST(kt_walks_count(g, UINT32_MAX, NULL, 0, run, per6, 6, &total), KT_ECANCELED);
    CHECK(reports == 1);
    CHECK_EQ_U64(total, 77);
    for (int c = 0; c < 6; c++) CHECK_EQ_U64(per6[c], 99);
    /* A progress callback that lets the count run changes nothing. */
    reports = 0;
    CHECK_OK(kt_options_set_progress(run, count_reports, &reports));
    CHECK_OK(kt_walks_count(g, 4000000, NULL, 0, run, NULL, 0, &total));
    CHECK_EQ_U64(total, 4);
    CHECK_OK(kt_walks_count(g, 4000000, NULL, 0, run, NULL, 0, &total));
    CHECK_EQ_U64(total, 4);
    /* Shards do not apply. */
    CHECK_OK(kt_options_set_shard(run, 1, 2));
    CHECK_ST(kt_walks_count(g, 10, NULL, 0, run, NULL, 0, &total), KT_EINVAL);
    kt_graph_free(g);
    /* On one cell every walk of 2 or more cells is impossible: the count
     * ends as soon as a layer is all zero, even for 2^32 - 1 cells. */
    CHECK_OK(kt_graph_new(&g, 1, 1));
    CHECK_OK(kt_walks_count(g, UINT32_MAX, NULL, 0, NULL, NULL, 0, &total));
    CHECK_EQ_U64(total, 0);
    CHECK_OK(kt_walks_count(g, 1, NULL, 0, NULL, NULL, 0, &total));
    CHECK_EQ_U64(total, 1);
    kt_graph_free(g);
    kt_options_free(run);
    return check_done("test_walks");
}
