/* SPDX-License-Identifier: MIT */
/* Shard results: the small text file `knight count --result FILE` writes,
 * and `knight reduce FILE...`, which checks a set of them and sums it.
 *
 * Format (version 1), one "key value" line each, in this order:
 *   knight-shard-result 1
 *   board WxH
 *   method frontier|halftours|semimagic
 *   flags closed|open[ directed][ symmetric][ classes]   (counts)
 *         the search's constraints, see cmd_semimagic.c     (semimagic)
 *   shard i/N
 *   run <16 hex digits: FNV-1a 64 of the board, method, flags and N>
 *   count <decimal>                 (tours, or numberings for semimagic)
 *   classes <decimal>               (semimagic only: symmetry classes)
 *   checksum <16 hex digits: FNV-1a 64 of every byte before this line>
 * The classes line came with 1.1; a semimagic shard sums like a count, since
 * the shards split the search by the class representatives it finds.
 */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 128-bit sums (a GNU extension, available in gcc and clang). */
__extension__ typedef unsigned __int128 u128;

#define RESULT_MAGIC "knight-shard-result 1\n"

uint64_t cli_fnv1a(const void *data, size_t n)
{
    const unsigned char *s = data;
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* "closed" or "open", then the other KT_COUNT_* flags by name. */
static void flag_names(unsigned flags, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%s%s", (flags & KT_COUNT_OPEN) ? "open" : "closed",
             (flags & KT_COUNT_DIRECTED) ? " directed" : "", (flags & KT_COUNT_SYMMETRIC) ? " symmetric" : "",
             (flags & KT_COUNT_CLASSES) ? " classes" : "");
}

/* The run id: a hash of everything that defines the count (not the shard index). */
static uint64_t run_id(const char *board, const char *method, const char *flags, uint32_t n)
{
    char buf[256];
    int len = snprintf(buf, sizeof buf, "board %s\nmethod %s\nflags %s\nshards %" PRIu32 "\n", board, method, flags, n);
    return cli_fnv1a(buf, len < 0 ? 0 : (size_t)len < sizeof buf ? (size_t)len : sizeof buf - 1);
}

int shard_result_write_record(const char *path, const char *board, const char *method, const char *flags,
                              uint32_t index, uint32_t count, kt_u128 n, const kt_u128 *classes)
{
    char num[48], cls[64] = "", body[1024], tmp[4096];
    kt_u128_to_string(&n, num, sizeof num);
    if (classes != NULL) {
        char c[48];
        kt_u128_to_string(classes, c, sizeof c);
        snprintf(cls, sizeof cls, "classes %s\n", c);
    }
    int len = snprintf(body, sizeof body,
                       RESULT_MAGIC "board %s\nmethod %s\nflags %s\nshard %" PRIu32 "/%" PRIu32 "\n"
                       "run %016" PRIx64 "\ncount %s\n%s",
                       board, method, flags, index, count, run_id(board, method, flags, count), num, cls);
    if (len < 0 || (size_t)len >= sizeof body) return cli_fail("result: record too long");
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= sizeof tmp)
        return cli_fail("result: path too long: %s", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL) return cli_fail("result: cannot write %s: %s", tmp, strerror(errno));
    fprintf(f, "%schecksum %016" PRIx64 "\n", body, cli_fnv1a(body, (size_t)len));
    bool ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return cli_fail("result: cannot write %s: %s", path, strerror(e));
    }
    return CLI_OK;
}

int shard_result_write(const char *path, uint32_t w, uint32_t h, const char *method, unsigned flags,
                       uint32_t index, uint32_t count, kt_u128 n)
{
    char board[32], fl[64];
    snprintf(board, sizeof board, "%" PRIu32 "x%" PRIu32, w, h);
    flag_names(flags, fl, sizeof fl);
    return shard_result_write_record(path, board, method, fl, index, count, n, NULL);
}

/* One parsed shard result. */
typedef struct shard_rec {
    const char *path;
    char board[32], method[16], flags[256], run[17];
    uint32_t index, count;
    u128 n, classes;
    bool has_classes; /* a semimagic search's shard */
} shard_rec;

/* The value of line "key value" at *p (advanced past it) into out; false if absent. */
static bool field(const char **p, const char *key, char *out, size_t size)
{
    size_t k = strlen(key);
    if (strncmp(*p, key, k) != 0 || (*p)[k] != ' ') return false;
    const char *v = *p + k + 1, *nl = strchr(v, '\n');
    if (nl == NULL || (size_t)(nl - v) >= size || nl == v) return false;
    memcpy(out, v, (size_t)(nl - v));
    out[nl - v] = '\0';
    *p = nl + 1;
    return true;
}

static bool parse_u128(const char *s, u128 *out)
{
    u128 v = 0, max = ~(u128)0;
    if (*s == '\0') return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return false;
        unsigned d = (unsigned)(*s - '0');
        if (v > (max - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

static bool parse_shard_field(const char *s, uint32_t *i, uint32_t *n)
{
    char *end;
    unsigned long a = strtoul(s, &end, 10), b;
    if (end == s || *end != '/') return false;
    s = end + 1;
    b = strtoul(s, &end, 10);
    if (end == s || *end != '\0' || b == 0 || a >= b || b > UINT32_MAX) return false;
    *i = (uint32_t)a;
    *n = (uint32_t)b;
    return true;
}

/* The optional "classes" line at *p; false if present but malformed. */
static bool optional_classes(const char **p, shard_rec *r)
{
    char v[64];
    if (strncmp(*p, "classes ", 8) != 0) return true;
    r->has_classes = field(p, "classes", v, sizeof v) && parse_u128(v, &r->classes);
    return r->has_classes;
}

/* Read and check one file; 0 or 1 after a message naming the file and the reason. */
static int read_rec(const char *path, shard_rec *r)
{
    size_t len;
    char *raw = cli_read_file(path, &len), shard[48], count[64], sum[20];
    if (raw == NULL) return CLI_FAIL;
    char *text = malloc(len + 1);
    if (text != NULL) {
        memcpy(text, raw, len);
        text[len] = '\0';
    }
    free(raw);
    if (text == NULL) return cli_fail_status("reduce", KT_ENOMEM);
    const char *p = text, *cs = strstr(text, "\nchecksum ");
    int rc = CLI_FAIL;
    memset(r, 0, sizeof *r);
    r->path = path;
    if (strlen(text) != len || strncmp(text, RESULT_MAGIC, strlen(RESULT_MAGIC)) != 0) {
        cli_fail("reduce: %s: not a shard result (version 1)", path);
    } else if (cs == NULL || !(p = cs + 1, field(&p, "checksum", sum, sizeof sum)) || *p != '\0' ||
               strtoull(sum, NULL, 16) != cli_fnv1a(text, (size_t)(cs + 1 - text)) || strlen(sum) != 16) {
        cli_fail("reduce: %s: damaged (checksum mismatch or truncated)", path);
    } else if (p = text + strlen(RESULT_MAGIC),
               !(field(&p, "board", r->board, sizeof r->board) && field(&p, "method", r->method, sizeof r->method) &&
                 field(&p, "flags", r->flags, sizeof r->flags) && field(&p, "shard", shard, sizeof shard) &&
                 field(&p, "run", r->run, sizeof r->run) && field(&p, "count", count, sizeof count)) ||
               !optional_classes(&p, r) || p != cs + 1 || !parse_shard_field(shard, &r->index, &r->count) ||
               !parse_u128(count, &r->n)) {
        cli_fail("reduce: %s: malformed shard result", path);
    } else if ((strcmp(r->method, "semimagic") == 0) != r->has_classes) {
        cli_fail("reduce: %s: malformed shard result (a semimagic search, and only one, has classes)", path);
    } else if (strtoull(r->run, NULL, 16) != run_id(r->board, r->method, r->flags, r->count)) {
        cli_fail("reduce: %s: run id %s does not match its board, method, flags and shard count", path, r->run);
    } else {
        rc = CLI_OK;
    }
    free(text);
    return rc;
}

/* Whether b belongs to a's run; else a message naming what differs. */
static int same_run(const shard_rec *a, const shard_rec *b)
{
    const char *what = strcmp(a->board, b->board) != 0     ? "board"
                       : strcmp(a->method, b->method) != 0 ? "method"
                       : strcmp(a->flags, b->flags) != 0   ? "flags"
                       : a->count != b->count              ? "shard count"
                       : strcmp(a->run, b->run) != 0       ? "run id"
                                                           : NULL;
    if (what == NULL) return CLI_OK;
    return cli_fail("reduce: mixed runs: %s (%s %s/%" PRIu32 " run %s) and %s (%s %s/%" PRIu32 " run %s) differ in %s",
                    a->path, a->board, a->flags, a->count, a->run, b->path, b->board, b->flags, b->count, b->run,
                    what);
}

/* v in decimal, in buf (48 bytes hold any u128). */
static const char *u128_text(u128 v, char buf[48])
{
    char *q = buf + 47;
    *q = '\0';
    do {
        *--q = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v != 0);
    return q;
}

/* A count prints as the bare number (scripts read it); a semimagic search
 * as the line `knight semimagic` itself ends with. */
static void print_sum(const shard_rec *first, u128 sum, u128 classes)
{
    char a[48], b[48];
    if (!first->has_classes) {
        printf("%s\n", u128_text(sum, a));
        return;
    }
    printf("%s symmetry class%s, %s numbering%s satisfying the constraints\n", u128_text(classes, a),
           classes == 1 ? "" : "es", u128_text(sum, b), sum == 1 ? "" : "s");
}

/* The shards present, in order; 0 or a message about the first duplicate or missing index. */
static int check_complete(const shard_rec *recs, size_t n)
{
    uint32_t total = recs[0].count;
    const shard_rec **seen = calloc(total, sizeof *seen);
    if (seen == NULL) return cli_fail_status("reduce", KT_ENOMEM);
    int rc = CLI_OK;
    for (size_t i = 0; i < n && rc == CLI_OK; i++) {
        if (seen[recs[i].index] != NULL)
            rc = cli_fail("reduce: duplicate shard %" PRIu32 "/%" PRIu32 ": %s and %s", recs[i].index, total,
                          seen[recs[i].index]->path, recs[i].path);
        seen[recs[i].index] = &recs[i];
    }
    uint32_t missing = 0, first = 0;
    for (uint32_t i = 0; i < total && rc == CLI_OK; i++)
        if (seen[i] == NULL && missing++ == 0) first = i;
    if (rc == CLI_OK && missing)
        rc = cli_fail("reduce: incomplete: %" PRIu32 " of %" PRIu32 " shards missing (the first: shard %" PRIu32
                      "/%" PRIu32 ")", missing, total, first, total);
    free(seen);
    return rc;
}

int cmd_reduce(int argc, char **argv)
{
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!cli_operand(argv, i)) return cli_usage("reduce: unexpected option '%s'", argv[i]);
        nfiles++;
    }
    if (nfiles == 0) return cli_usage("reduce: shard result files required");
    shard_rec *recs = calloc((size_t)nfiles, sizeof *recs);
    if (recs == NULL) return cli_fail_status("reduce", KT_ENOMEM);
    int rc = CLI_OK;
    u128 sum = 0, classes = 0;
    for (int i = 0; i < nfiles && rc == CLI_OK; i++) {
        rc = read_rec(argv[i + 1], &recs[i]);
        if (rc == CLI_OK) rc = same_run(&recs[0], &recs[i]);
        if (rc == CLI_OK && (sum + recs[i].n < sum || classes + recs[i].classes < classes))
            rc = cli_fail_status("reduce", KT_EOVERFLOW);
        sum += recs[i].n;
        classes += recs[i].classes;
    }
    if (rc == CLI_OK) rc = check_complete(recs, (size_t)nfiles);
    if (rc == CLI_OK) {
        cli_info("%s %s %s: %" PRIu32 " shards, run %s\n", recs[0].board, recs[0].method, recs[0].flags,
                 recs[0].count, recs[0].run);
        print_sum(&recs[0], sum, classes);
    }
    free(recs);
    return rc;
}
