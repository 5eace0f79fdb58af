/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for API sequences decoded from the input bytes: graph
 * creation with any size, mask and leaper; generation with any method and
 * parameters (bounded sizes); rail switches, join, shatter and obfuscate
 * on parsed tourneys; count, half-tours and semimagic search on small
 * boards with any flags (with budgets so that each input stays fast).
 * Every call must return a status; every object it returns must be
 * valid (a tourney's successors are checked against its graph).
 *
 * Built with -fsanitize=fuzzer it is a libFuzzer target (meson
 * -Dfuzz=true, clang); otherwise main() replays the corpus directory
 * given on the command line, plus corruptions of each file.  The corpus
 * is libFuzzer's merged (minimised) corpus of the runs so far.
 */
#include <knight/knight.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct in {
    const uint8_t *p;
    size_t n, at;
} in;

static unsigned byte(in *s)
{
    return s->at < s->n ? s->p[s->at++] : 0u;
}

static uint32_t upto(in *s, uint32_t max)   /* 0..max */
{
    uint32_t v = byte(s) | byte(s) << 8;
    return v % (max + 1);
}

static uint64_t u64(in *s)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | byte(s);
    return v;
}

static void check_tourney(const kt_tourney *t)
{
    const kt_graph *g = kt_tourney_graph(t);
    size_t n = kt_graph_cell_count(g);
    kt_cell *succ = malloc((n ? n : 1) * sizeof *succ);
    if (succ == NULL) return;
    if (kt_tourney_successors(t, succ, n) != KT_OK ||
        kt_tourney_validate_successors(g, succ, n, NULL) != KT_OK)
        abort();
    free(succ);
}

static kt_options *options(in *s, uint64_t budget)
{
    kt_options *o = NULL;
    if (kt_options_new(&o, NULL) != KT_OK) abort();
    kt_options_set_threads(o, 1 + (byte(s) & 1u));
    uint32_t n = 1 + upto(s, 3);
    kt_options_set_shard(o, upto(s, n), n);      /* sometimes invalid */
    kt_options_set_budget(o, budget);
    return o;
}

static void ok_or_error(kt_status st)
{
    if (st != KT_OK && !kt_is_error(st)) abort();
}

/* Any size, mask and leaper. */
static void op_graph(in *s)
{
    uint32_t w = upto(s, 40), h = upto(s, 40), a = upto(s, 6), b = upto(s, 6);
    bool masked = byte(s) & 1u;
    uint8_t *mask = NULL;
    if (masked && (size_t)w * h > 0) {
        mask = malloc((size_t)w * h);
        for (size_t i = 0; i < (size_t)w * h; i++) mask[i] = (uint8_t)(byte(s) & 1u);
    }
    kt_graph *g = NULL;
    kt_status st = kt_graph_new_custom(&g, w, h, a, b, mask, NULL);
    ok_or_error(st);
    if (st == KT_OK) {
        size_t n = kt_graph_cell_count(g);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                kt_cell c = kt_graph_cell(g, x, y);
                if (c == KT_CELL_NONE) continue;
                if ((size_t)c >= n) abort();
                for (int m = 0; m < 8; m++) {
                    kt_cell d = kt_graph_neighbor(g, c, m);
                    if (d != KT_CELL_NONE && (size_t)d >= n) abort();
                }
            }
        kt_graph_free(g);
    } else if (g != NULL) {
        abort();
    }
    free(mask);
}

/* Any generator on a board up to 24x24. */
static void op_generate(in *s)
{
    uint32_t w = upto(s, 24), h = upto(s, 24);
    unsigned kind = byte(s) % 6;
    uint64_t seed = u64(s);
    kt_graph *g = NULL;
    if (kt_graph_new(&g, w, h) != KT_OK) return;
    kt_options *o = options(s, 1 + upto(s, 2000));
    kt_tourney *t = NULL;
    kt_cell n = (kt_cell)kt_graph_cell_count(g);
    kt_cell a = (kt_cell)upto(s, n), b = (kt_cell)upto(s, n);
    kt_status st;
    switch (kind) {
    case 0: st = kt_generate_tourney(&t, g, (kt_generate_method)(byte(s) % 7), seed, o); break;
    case 1: st = kt_generate_closed_tour(&t, g, seed, o); break;
    case 2: st = kt_generate_open_tour(&t, g, a, b, seed, o); break;
    case 3:
        st = kt_generate_warnsdorff_tour(&t, g, (kt_shape)(byte(s) % 3), a,
                                         (kt_generate_tiebreak)(byte(s) % 5), seed, o);
        break;
    case 4: st = kt_generate_divide_tour(&t, g, seed, o); break;
    default:
        if (w * h > 30) st = KT_EINVAL;
        else st = kt_exhaustive_tour(&t, g, (kt_shape)(byte(s) % 3), a, b, o);
        break;
    }
    ok_or_error(st);
    if ((st == KT_OK) != (t != NULL)) abort();
    if (t != NULL) check_tourney(t);
    kt_tourney_free(t);
    kt_options_free(o);
    kt_graph_free(g);
}

/* Rail operations on a parsed tourney (the text is the rest). */
static void op_rails(in *s)
{
    unsigned ops = byte(s);
    uint64_t seed = u64(s);
    size_t off = s->at < s->n ? s->at : s->n;
    kt_tourney *t = NULL;
    if (kt_io_parse(&t, NULL, (const char *)s->p + off, s->n - off, KT_IO_AUTO, 0, NULL, NULL) != KT_OK)
        return;
    const kt_graph *g = kt_tourney_graph(t);
    kt_rails *r = NULL;
    if (kt_rails_new(&r, t) == KT_OK) {
        size_t nr = kt_rails_count(r);
        for (unsigned k = 0; k < (ops & 7u) && nr > 0; k++) {
            kt_rail rail;
            kt_rails_effect eff;
            if (kt_rails_get(r, (size_t)(seed >> (8 * k)) % nr, &rail) != KT_OK) abort();
            ok_or_error(kt_rails_switch(r, rail, &eff));
            kt_cell cells[4];
            if (kt_rails_cells(g, rail, cells) != KT_OK) abort();
        }
        kt_rails_free(r);
    }
    check_tourney(t);
    kt_options *o = options(s, 200);
    switch (ops >> 3 & 3u) {
    case 0: ok_or_error(kt_rails_join(t, seed, o)); break;
    case 1: ok_or_error(kt_rails_shatter(t, seed)); break;
    case 2: ok_or_error(kt_rails_shatter_sequential(t, seed)); break;
    default: ok_or_error(kt_rails_obfuscate(t, ops >> 5, seed, o)); break;
    }
    check_tourney(t);
    kt_options_free(o);
    kt_tourney_free(t);
}

/* Counts on boards up to 30 cells, any flags, a state budget. */
static void op_count(in *s)
{
    uint32_t w = 1 + upto(s, 8), h = 1 + upto(s, 8);
    unsigned flags = byte(s);
    if (w * h > 30) return;
    kt_graph *g = NULL;
    if (kt_graph_new(&g, w, h) != KT_OK) return;
    kt_options *o = options(s, 1 + upto(s, 5000));
    kt_u128 v = {7, 7};
    kt_status st = kt_count_tours(g, flags & 31u, o, &v, NULL);
    ok_or_error(st);
    if (st != KT_OK && (v.lo != 7 || v.hi != 7)) abort();
    kt_options_free(o);
    kt_graph_free(g);
}

static int visit(void *user, const kt_halftour_structure *ht)
{
    (void)ht;
    return ++*(unsigned *)user > 1000u;
}

static void op_halftours(in *s)
{
    uint32_t w = upto(s, 9), d = upto(s, 4), od = upto(s, 4);
    kt_options *o = options(s, 1 + upto(s, 20000));
    kt_halftours *h = NULL;
    kt_status st = kt_halftours_enumerate(&h, w, d, od, o);
    ok_or_error(st);
    if (st == KT_OK) {
        unsigned calls = 0;
        ok_or_error(kt_halftours_foreach(h, visit, &calls));
        kt_u128 c;
        ok_or_error(kt_halftours_join(h, h, o, &c));
        kt_halftours_free(h);
    }
    kt_u128 c;
    ok_or_error(kt_halftours_count_closed(upto(s, 8), upto(s, 8), upto(s, 8), o, &c));
    kt_options_free(o);
}

static int on_magic(void *user, const kt_semimagic_solution *sol)
{
    (void)sol;
    return ++*(unsigned *)user > 50u;
}

static void op_semimagic(in *s)
{
    uint32_t n = upto(s, 10);
    kt_semimagic_opts *m = NULL;
    kt_status st = kt_semimagic_opts_new(&m, n, NULL);
    ok_or_error(st);
    if (st != KT_OK) return;
    ok_or_error(kt_semimagic_opts_set_flags(m, byte(s)));
    ok_or_error(kt_semimagic_opts_set_symmetry(m, (kt_semimagic_symmetry)(byte(s) % 4)));
    if (byte(s) & 1u) ok_or_error(kt_semimagic_opts_set_start_column(m, upto(s, 12)));
    if (byte(s) & 1u) ok_or_error(kt_semimagic_opts_set_end_column(m, upto(s, 12)));
    if (byte(s) & 1u) ok_or_error(kt_semimagic_opts_set_puzzle_rule(m));
    uint32_t grid[100];
    size_t cells = upto(s, 100);
    for (size_t i = 0; i < cells; i++) grid[i] = byte(s) ? upto(s, 101) : KT_SEMIMAGIC_ANY;
    if (cells > 0) {
        int ok;
        ok_or_error(kt_semimagic_check(m, grid, cells, &ok));
        if (byte(s) & 1u) ok_or_error(kt_semimagic_opts_set_grid(m, grid, cells));
    }
    kt_options *o = options(s, 1 + upto(s, 20000));
    unsigned calls = 0;
    uint64_t classes, sols;
    ok_or_error(kt_semimagic_search(m, o, on_magic, &calls, &classes, &sols));
    int ex;
    uint32_t nums[100];
    if (n <= 10) ok_or_error(kt_semimagic_exists(m, o, &ex, nums));
    kt_options_free(o);
    kt_semimagic_opts_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    in s = {data, size, 0};
    switch (byte(&s) % 6) {
    case 0: op_graph(&s); break;
    case 1: op_generate(&s); break;
    case 2: op_rails(&s); break;
    case 3: op_count(&s); break;
    case 4: op_halftours(&s); break;
    default: op_semimagic(&s); break;
    }
    return 0;
}

#ifndef KT_FUZZING
int main(int argc, char **argv)
{
    uint64_t x = 0x9E3779B97F4A7C15u;
    size_t runs = 0;
    bool light = getenv("KT_TEST_LIGHT") != NULL;
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        if (d == NULL) {
            perror(argv[i]);
            return 1;
        }
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.') continue;
            char name[4096];
            snprintf(name, sizeof name, "%s/%s", argv[i], e->d_name);
            FILE *f = fopen(name, "rb");
            if (f == NULL) {
                perror(name);
                return 1;
            }
            static uint8_t buf[1 << 16];
            size_t n = fread(buf, 1, sizeof buf, f);
            fclose(f);
            LLVMFuzzerTestOneInput(buf, n);
            runs++;
            /* Corruptions, the op byte kept (none with KT_TEST_LIGHT: valgrind). */
            for (int r = 0; r < (light ? 0 : 20) && n > 1; r++) {
                static uint8_t m[1 << 16];
                memcpy(m, buf, n);
                for (int k = 0; k <= r % 3; k++) {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    m[1 + x % (n - 1)] = (uint8_t)(x >> 32);
                }
                LLVMFuzzerTestOneInput(m, n);
                runs++;
            }
        }
        closedir(d);
    }
    printf("fuzz_api: %zu inputs, no failure\n", runs);
    return 0;
}
#endif
