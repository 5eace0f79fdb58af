/* SPDX-License-Identifier: MIT */
/*
 * A puzzle-app use of libknight: complete a partly numbered semimagic
 * knight's tour, or check a player's full numbering.
 *
 *   semimagic_puzzle [--nested] GRID
 *
 * GRID is a text file with one board row per line and one token per cell:
 * a number 1..n^2, or '.' (or 0) for a free cell; 3 <= n <= 8.  A numbering
 * is a knight's tour visiting the cells in the order 1, 2, ..., n^2; it is
 * semimagic when every row and column adds up to n(n^2+1)/2 (260 on 8x8);
 * --nested asks for the Knight Errant rule as well (every 4x4 quadrant
 * semimagic, 1 in the leftmost column, n^2 in the rightmost).
 *
 * With free cells: prints the completed grid and "completed: ... passes
 * kt_semimagic_check", or "no completion exists" (a proof by exhaustion).
 * Without free cells: prints "valid" or "not valid".  The search runs on
 * two threads with a work budget, so an app can bound it.
 */
#include <knight/knight.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read the grid: returns n (0 on error); numbers[] gets n*n values. */
static uint32_t read_grid(const char *path, uint32_t numbers[64])
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        perror(path);
        return 0;
    }
    char line[512];
    uint32_t rows = 0, cols = 0, count = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        uint32_t here = 0;
        for (char *tok = strtok(line, " \t\r\n"); tok != NULL; tok = strtok(NULL, " \t\r\n")) {
            if (count == 64) {
                fclose(f);
                return 0;
            }
            numbers[count++] = strcmp(tok, ".") == 0 ? 0 : (uint32_t)strtoul(tok, NULL, 10);
            here++;
        }
        if (here == 0)
            continue;
        if (cols != 0 && here != cols)
            break;
        cols = here;
        rows++;
    }
    fclose(f);
    if (rows != cols || rows < 3 || rows > 8 || count != rows * cols) {
        fprintf(stderr, "%s: want a square grid of 3 to 8 rows\n", path);
        return 0;
    }
    return rows;
}

static void print_grid(const uint32_t *numbers, uint32_t n)
{
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++)
            printf("%2u%c", (unsigned)numbers[y * n + x], x + 1 == n ? '\n' : ' ');
}

int main(int argc, char **argv)
{
    int nested = argc > 2 && strcmp(argv[1], "--nested") == 0;
    if (argc != 2 + nested) {
        fprintf(stderr, "usage: semimagic_puzzle [--nested] GRID\n");
        return 2;
    }
    uint32_t given[64] = {0};
    uint32_t n = read_grid(argv[1 + nested], given);
    if (n == 0)
        return 2;
    uint32_t cells = n * n, free_cells = 0;
    for (uint32_t i = 0; i < cells; i++)
        free_cells += given[i] == 0;

    kt_semimagic_opts *o = NULL;
    kt_options *run = NULL;
    kt_status st = kt_semimagic_opts_new(&o, n, NULL);
    if (st == KT_OK)
        st = kt_semimagic_opts_set_flags(o, nested ? KT_SEMIMAGIC_NESTED : KT_SEMIMAGIC_LINES);
    if (st == KT_OK && nested)
        st = kt_semimagic_opts_set_puzzle_rule(o);
    if (st == KT_OK)
        st = kt_semimagic_opts_set_grid(o, given, cells);
    if (st == KT_OK)
        st = kt_options_new(&run, NULL);
    if (st == KT_OK)
        st = kt_options_set_threads(run, 2);
    /* Bound the work: about a billion search nodes, then KT_ELIMIT. */
    if (st == KT_OK)
        st = kt_options_set_budget(run, 1000000000u);

    int rc = 1, ok = 0, exists = 0;
    uint32_t numbers[64];
    if (st == KT_OK && free_cells == 0) {
        st = kt_semimagic_check(o, given, cells, &ok);
        if (st == KT_OK) {
            printf("%s\n", ok ? "valid" : "not valid");
            rc = ok ? 0 : 1;
        }
    } else if (st == KT_OK) {
        st = kt_semimagic_exists(o, run, &exists, numbers);
        if (st == KT_OK && !exists)
            printf("no completion exists\n");
        if (st == KT_OK && exists) {
            print_grid(numbers, n);
            /* Independent check of the answer. */
            st = kt_semimagic_check(o, numbers, cells, &ok);
            if (st == KT_OK)
                printf("completed: %u free cells filled; %s kt_semimagic_check\n", (unsigned)free_cells,
                       ok ? "passes" : "FAILS");
            rc = ok ? 0 : 1;
        }
    }
    if (st == KT_ELIMIT)
        fprintf(stderr, "semimagic_puzzle: gave up after the work budget; give more numbers\n");
    else if (st != KT_OK)
        fprintf(stderr, "semimagic_puzzle: %s\n", kt_strerror(st));
    kt_options_free(run);
    kt_semimagic_opts_free(o);
    return st == KT_OK ? rc : 1;
}
