/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the count checkpoint reader.  Input: one byte choosing
 * the count (board, flags, shard) and whether to repair the checksum (bit
 * 7), then the bytes of a checkpoint file.  Without repair, the count must
 * end with the correct value or an error, never a wrong value; with the
 * checksum repaired (so that mutations reach the key decoder), it must
 * end with a status and no memory error (a forged file is not damage).
 *
 * Built with -fsanitize=fuzzer it is a libFuzzer target (meson
 * -Dfuzz=true, clang).  Otherwise main() makes real checkpoints of each
 * count (half-way and finished), damages each of them at every bit and
 * truncates it at every length, then replays the corpus files given on
 * the command line: a plain regression test.
 */
#include <knight/knight.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#define NCONF 4

static const struct conf {
    uint32_t w, h;
    unsigned flags;
    uint32_t shard, nshards;
} confs[NCONF] = {
    {5, 6, 0, 0, 1},
    {4, 5, KT_COUNT_OPEN, 0, 1},
    {5, 6, 0, 1, 2},
    {3, 10, 0, 0, 1},
};

static kt_u128 expected[NCONF];
static bool have_expected[NCONF];
static char path[64];

/* Count c, from and to the checkpoint ck if not NULL (saved after every
 * vertex when budget is set, else only at the end). */
static kt_status run(int c, const char *ck, uint64_t budget, kt_u128 *v, kt_count_stats *cs)
{
    const struct conf *k = &confs[c];
    kt_graph *g = NULL;
    kt_options *o = NULL;
    kt_status st = kt_graph_new(&g, k->w, k->h);
    if (st == KT_OK) st = kt_options_new(&o, NULL);
    if (st == KT_OK) st = kt_options_set_threads(o, 1);
    if (st == KT_OK) st = kt_options_set_shard(o, k->shard, k->nshards);
    if (st == KT_OK) st = kt_options_set_budget(o, budget);
    if (st == KT_OK && ck != NULL) st = kt_options_set_checkpoint(o, ck, budget ? 0 : 1e9);
    if (st == KT_OK) st = kt_count_tours(g, k->flags, o, v, cs);
    kt_options_free(o);
    kt_graph_free(g);
    return st;
}

static void init(void)
{
    if (path[0] == 0) {
        /* In memory if possible: each run writes its checkpoint (fsync). */
        const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : ".";
        snprintf(path, sizeof path, "%s/fuzz_checkpoint.%ld.bin", dir, (long)getpid());
    }
    for (int c = 0; c < NCONF; c++) {
        if (have_expected[c]) continue;
        if (run(c, NULL, 0, &expected[c], NULL) != KT_OK) abort();
        have_expected[c] = true;
    }
}

static uint64_t fnv_words(const uint8_t *p, size_t words)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < words; i++) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--) w = w << 8 | p[8 * i + (size_t)b];
        h = (h ^ w) * 0x00000100000001B3ull;
    }
    return h;
}

/* Runs count c from the file holding data; returns its status. */
static kt_status try_file(int c, const uint8_t *data, size_t size, bool forged)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL || (size > 0 && fwrite(data, 1, size, f) != size)) abort();
    if (fclose(f) != 0) abort();
    kt_u128 v = {12345, 678};
    kt_status st = run(c, path, 0, &v, NULL);
    remove(path);
    if (st == KT_OK) {
        if (!forged && (v.lo != expected[c].lo || v.hi != expected[c].hi)) {
            fprintf(stderr, "wrong count from a damaged checkpoint (conf %d, %zu bytes)\n", c, size);
            abort();
        }
    } else if (v.lo != 12345 || v.hi != 678) {
        abort();                               /* output touched on failure */
    } else if (st != KT_EPARSE && st != KT_EMISMATCH && st != KT_EIO && st != KT_ENOMEM &&
               !(forged && st == KT_EOVERFLOW)) {
        /* A forged file (its checksum made right) may hold any counts: a
         * sum past 128 bits is then the true answer. */
        fprintf(stderr, "unexpected status %d (conf %d)\n", (int)st, c);
        abort();
    }
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    init();
    int c = data[0] % NCONF;
    bool repair = (data[0] & 0x80) != 0;
    const uint8_t *file = data + 1;
    size_t n = size - 1;
    if (!repair || n < 8) {
        try_file(c, file, n, false);
        return 0;
    }
    uint8_t *m = malloc(n);
    if (m == NULL) return 0;
    memcpy(m, file, n);
    size_t words = n / 8;
    uint64_t h = fnv_words(m, words - 1);
    for (int b = 0; b < 8; b++) m[8 * (words - 1) + (size_t)b] = (uint8_t)(h >> (8 * b));
    try_file(c, m, words * 8, true);
    free(m);
    return 0;
}

#ifndef KT_FUZZING
static uint8_t *slurp(const char *name, size_t *n)
{
    FILE *f = fopen(name, "rb");
    if (f == NULL) return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, len = 0, got;
    do {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *nb = realloc(buf, cap);
            if (nb == NULL) break;
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    *n = len;
    return buf;
}

/* A real checkpoint of count c: stopped by a budget half-way (half) or
 * finished. */
static uint8_t *make_checkpoint(int c, bool half, size_t *n)
{
    kt_u128 v;
    kt_count_stats cs;
    remove(path);
    if (run(c, NULL, 0, &v, &cs) != KT_OK) abort();
    kt_status st = run(c, path, half ? cs.peak_states / 8 + 1 : 0, &v, NULL);
    if (st != (half ? KT_ELIMIT : KT_OK)) abort();
    uint8_t *buf = slurp(path, n);
    remove(path);
    if (buf == NULL) abort();
    return buf;
}

/* Every single-bit flip (or one bit per byte) and every truncation gives the right count or an
 * error; returns the number of runs. */
static size_t damage_all(int c, const uint8_t *buf, size_t n, bool every_bit)
{
    size_t runs = 0, wrong_ok = 0;
    uint8_t *m = malloc(n + 1);
    if (m == NULL) abort();
    if (try_file(c, buf, n, false) != KT_OK) abort();   /* the intact file resumes */
    for (size_t i = 0; i < n; i++) {
        for (int b = 0; b < 8; b++) {
            if (!every_bit && b != (int)(i % 8)) continue;
            memcpy(m, buf, n);
            m[i] ^= (uint8_t)(1u << b);
            if (try_file(c, m, n, false) == KT_OK) wrong_ok++;
            runs++;
        }
    }
    for (size_t len = 0; len < n; len++) {
        if (try_file(c, buf, len, false) == KT_OK) wrong_ok++;
        runs++;
    }
    /* One byte appended. */
    memcpy(m, buf, n);
    m[n] = 0;
    if (try_file(c, m, n + 1, false) == KT_OK) wrong_ok++;
    runs++;
    if (wrong_ok != 0) {
        fprintf(stderr, "conf %d: %zu damaged files accepted\n", c, wrong_ok);
        abort();
    }
    free(m);
    return runs;
}

/* Writes the seed corpus: each count's real checkpoints, as they are
 * (first byte c) and to be repaired (c | 0x80). */
static int write_seeds(const char *dir)
{
    size_t n;
    /* KT_TEST_LIGHT (valgrind): the first count, one bit per byte. */
    bool light = getenv("KT_TEST_LIGHT") != NULL;
    for (int c = 0; c < (light ? 1 : NCONF); c++) {
        for (int half = 0; half < 2; half++) {
            uint8_t *buf = make_checkpoint(c, half, &n);
            for (int rep = 0; rep < 2; rep++) {
                char name[4096];
                snprintf(name, sizeof name, "%s/conf%d-%s%s.bin", dir, c, half ? "half" : "done",
                         rep ? "-repair" : "");
                FILE *f = fopen(name, "wb");
                uint8_t head = (uint8_t)(c | (rep ? 0x80 : 0));
                if (f == NULL || fwrite(&head, 1, 1, f) != 1 || fwrite(buf, 1, n, f) != n) abort();
                fclose(f);
            }
            free(buf);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    init();
    if (argc == 3 && strcmp(argv[1], "--seeds") == 0) return write_seeds(argv[2]);
    size_t runs = 0;
    /* A directory is an I/O error; a file of another count a mismatch. */
    if (mkdir(path, 0700) != 0) abort();
    kt_u128 v;
    if (run(0, path, 0, &v, NULL) != KT_EIO) abort();
    rmdir(path);
    size_t n;
    uint8_t *fin = make_checkpoint(0, false, &n);
    if (try_file(2, fin, n, false) != KT_EMISMATCH) abort();
    free(fin);
    /* A forged file (checksum recomputed) whose first state is a closer
     * without its opener: rejected, not decoded. */
    uint8_t *half = make_checkpoint(0, true, &n);
    if (n < 8 * 19) abort();
    memset(half + 8 * 16, 0, 8);
    half[8 * 16] = 3;                          /* q = 1: digit 3 closes opener 0 */
    uint64_t h = fnv_words(half, n / 8 - 1);
    for (int b = 0; b < 8; b++) half[n - 8 + (size_t)b] = (uint8_t)(h >> (8 * b));
    if (try_file(0, half, n, true) != KT_EPARSE) abort();
    free(half);
    /* KT_TEST_LIGHT (valgrind): the first count, one bit per byte. */
    bool light = getenv("KT_TEST_LIGHT") != NULL;
    for (int c = 0; c < (light ? 1 : NCONF); c++) {
        for (int half = 0; half < 2; half++) {
            uint8_t *buf = make_checkpoint(c, half, &n);
            printf("conf %d (%ux%u), %s: %zu bytes\n", c, confs[c].w, confs[c].h,
                   half ? "half-way" : "finished", n);
            runs += damage_all(c, buf, n, !light);
            free(buf);
        }
    }
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        while (d != NULL && (e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.') continue;
            char name[4096];
            snprintf(name, sizeof name, "%s/%s", argv[i], e->d_name);
            uint8_t *buf = slurp(name, &n);
            if (buf == NULL) {
                perror(name);
                return 1;
            }
            LLVMFuzzerTestOneInput(buf, n);
            free(buf);
            runs++;
        }
        if (d == NULL) {
            perror(argv[i]);
            return 1;
        }
        closedir(d);
    }
    printf("fuzz_checkpoint: %zu runs, no damaged checkpoint accepted\n", runs);
    return 0;
}
#endif
