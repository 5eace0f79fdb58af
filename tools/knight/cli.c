/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("knight: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

int cli_fail_status(const char *what, kt_status st)
{
    return cli_fail("%s: %s", what, kt_strerror(st));
}

char *cli_read_file(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (f == NULL) {
        cli_fail("%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (n < cap) break;
        char *nb = realloc(buf, cap * 2);
        if (nb == NULL) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    bool err = ferror(f);
    if (f != stdin) fclose(f);
    if (buf == NULL || err) {
        free(buf);
        cli_fail("%s: cannot read", path);
        return NULL;
    }
    *len = n;
    return buf;
}

FILE *cli_open_out(const char *path)
{
    if (path == NULL || strcmp(path, "-") == 0) return stdout;
    FILE *f = fopen(path, "wb");
    if (f == NULL) cli_fail("%s: %s", path, strerror(errno));
    return f;
}

int cli_close_out(FILE *f, const char *path)
{
    if (f == stdout) return fflush(f) == 0 ? 0 : cli_fail("stdout: write error");
    if (fclose(f) != 0) return cli_fail("%s: write error", path);
    return 0;
}

int cli_write_file(void *user, const char *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)user) == len ? 0 : 1;
}

bool cli_parse_u64(const char *s, uint64_t *v)
{
    if (s == NULL || *s < '0' || *s > '9') return false;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end) return false;
    *v = x;
    return true;
}

static bool parse_pair(const char *s, char sep, uint32_t *a, uint32_t *b)
{
    if (s == NULL) return false;
    const char *p = strchr(s, sep);
    if (p == NULL || p == s) return false;
    char first[32];
    size_t n = (size_t)(p - s);
    if (n >= sizeof first) return false;
    memcpy(first, s, n);
    first[n] = '\0';
    uint64_t x, y;
    if (!cli_parse_u64(first, &x) || !cli_parse_u64(p + 1, &y)) return false;
    if (x > UINT32_MAX || y > UINT32_MAX) return false;
    *a = (uint32_t)x;
    *b = (uint32_t)y;
    return true;
}

bool cli_parse_size(const char *s, uint32_t *w, uint32_t *h)
{
    return parse_pair(s, 'x', w, h) && *w > 0 && *h > 0;
}

bool cli_parse_xy(const char *s, uint32_t *x, uint32_t *y)
{
    return parse_pair(s, ',', x, y);
}

bool cli_parse_format(const char *s, kt_io_format *f)
{
    if (strcmp(s, "numbers") == 0) *f = KT_IO_NUMBERS;
    else if (strcmp(s, "moves") == 0) *f = KT_IO_MOVES;
    else if (strcmp(s, "svg") == 0) *f = KT_IO_SVG;
    else return false;
    return true;
}

kt_tourney *cli_load_tourney(const char *path, unsigned flags)
{
    size_t len;
    char *text = cli_read_file(path, &len);
    if (text == NULL) return NULL;
    kt_tourney *t = NULL;
    kt_diag d;
    kt_status st = kt_io_parse(&t, NULL, text, len, KT_IO_AUTO, flags, NULL, &d);
    free(text);
    unsigned long long line = d.line, col = d.column;
    if (st == KT_EPARSE) {
        cli_fail("%s:%llu:%llu: malformed input", path, line, col);
    } else if (st == KT_EBADTOUR && line > 0) {
        cli_fail("%s:%llu:%llu: not a tour or tourney: %s", path, line, col, kt_rule_describe(d.rule));
    } else if (st == KT_EBADTOUR) {
        cli_fail("%s: not a tour or tourney: %s at cell %lu", path, kt_rule_describe(d.rule),
                 (unsigned long)d.cell);
    } else if (st != KT_OK) {
        cli_fail_status(path, st);
    }
    return t;
}

int cli_save_tourney(const kt_tourney *t, kt_io_format f, unsigned flags, const char *path)
{
    FILE *out = cli_open_out(path);
    if (out == NULL) return 1;
    kt_status st = kt_io_write(t, f, flags, KT_CELL_NONE, cli_write_file, out);
    int rc = cli_close_out(out, path ? path : "-");
    if (st != KT_OK) return cli_fail_status("write", st);
    return rc;
}

bool cli_opt(int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0) return false;
    if (value == NULL) return a[n] == '\0';
    if (a[n] == '=') {
        *value = a + n + 1;
        return true;
    }
    if (a[n] != '\0') return false;
    if (*i + 1 >= argc) {
        *value = NULL;
        return true;
    }
    *value = argv[++*i];
    return true;
}

static bool progress_shown;

int cli_progress(void *user, uint64_t done, uint64_t total)
{
    (void)user;
    if (!isatty(2)) return 0;
    if (total > 0) {
        int width = 40, fill = (int)((double)done / (double)total * width);
        if (fill > width) fill = width;
        fprintf(stderr, "\r[%.*s%*s] %5.1f%%", fill, "########################################",
                width - fill, "", 100.0 * (double)done / (double)total);
    } else {
        fprintf(stderr, "\r%llu", (unsigned long long)done);
    }
    progress_shown = true;
    return 0;
}

void cli_progress_done(void)
{
    if (progress_shown) fputs("\r\033[K", stderr);
    progress_shown = false;
}
