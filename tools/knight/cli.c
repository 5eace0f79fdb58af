/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

bool cli_quiet;
int cli_operands_from = 1 << 30;
const char *cli_command_name = NULL;

int cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("knight: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_FAIL;
}

int cli_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("knight: ", stderr);
    vfprintf(stderr, fmt, ap);
    if (cli_command_name != NULL) fprintf(stderr, "\nTry 'knight %s --help'.\n", cli_command_name);
    else fputs("\nTry 'knight --help'.\n", stderr);
    va_end(ap);
    return CLI_USAGE;
}

void cli_info(const char *fmt, ...)
{
    if (cli_quiet) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

bool cli_operand(char **argv, int i)
{
    return i >= cli_operands_from || argv[i][0] != '-' || strcmp(argv[i], "-") == 0;
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
    int err = ferror(f) ? errno : 0;
    if (f != stdin) fclose(f);
    if (buf == NULL || err) {
        free(buf);
        cli_fail("%s: %s", path, strerror(buf == NULL ? ENOMEM : err ? err : EIO));
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
    if (f == stdout) return fflush(f) == 0 ? 0 : cli_fail("standard output: %s", strerror(errno));
    if (fclose(f) != 0) return cli_fail("%s: %s", path, strerror(errno));
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

/* "a1": letters a..z then a rank 1..h. */
static bool parse_chess(const char *s, uint32_t h, uint32_t *x, uint32_t *y)
{
    if (s[0] < 'a' || s[0] > 'z') return false;
    uint64_t rank;
    if (!cli_parse_u64(s + 1, &rank) || rank == 0 || rank > h) return false;
    *x = (uint32_t)(s[0] - 'a');
    *y = h - (uint32_t)rank;
    return true;
}

bool cli_parse_square(const char *s, uint32_t h, uint32_t *x, uint32_t *y)
{
    if (s == NULL) return false;
    return cli_parse_xy(s, x, y) || parse_chess(s, h, x, y);
}

int cli_parse_threads(const char *s, unsigned *threads)
{
    uint64_t t;
    if (!cli_parse_u64(s, &t) || t > KT_THREADS_MAX)
        return cli_usage("--threads wants 0 (one per core) to %u", KT_THREADS_MAX);
    *threads = (unsigned)t;
    return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

kt_io_format cli_output_format(const char *path, bool given, kt_io_format fmt, kt_io_format dflt)
{
    if (given) return fmt;
    if (path == NULL) return dflt;
    if (ends_with(path, ".svg")) return KT_IO_SVG;
    if (ends_with(path, ".txt")) return KT_IO_NUMBERS;
    if (ends_with(path, ".moves")) return KT_IO_MOVES;
    return dflt;
}

bool cli_parse_format(const char *s, kt_io_format *f)
{
    if (s == NULL) return false;
    if (strcmp(s, "numbers") == 0) *f = KT_IO_NUMBERS;
    else if (strcmp(s, "moves") == 0) *f = KT_IO_MOVES;
    else if (strcmp(s, "svg") == 0) *f = KT_IO_SVG;
    else return false;
    return true;
}

/* What kt_io_parse reported, with every piece of the diagnostic it has. */
static void load_error(const char *path, kt_status st, const kt_diag *d)
{
    char where[64] = "", cell[48] = "";
    if (d->line > 0)
        snprintf(where, sizeof where, ":%llu:%llu", (unsigned long long)d->line, (unsigned long long)d->column);
    if (d->cell != KT_CELL_NONE) snprintf(cell, sizeof cell, " at cell %lu", (unsigned long)d->cell);
    if (st == KT_EPARSE)
        cli_fail("%s%s: malformed input%s%s", path, where, d->rule != KT_RULE_NONE ? ": " : "",
                 d->rule != KT_RULE_NONE ? kt_rule_describe(d->rule) : "");
    else if (st == KT_EBADTOUR)
        cli_fail("%s%s: not a tour or tourney: %s%s", path, where, kt_rule_describe(d->rule), cell);
    else
        cli_fail_status(path, st);
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
    if (st != KT_OK) load_error(path, st, &d);
    return t;
}

int cli_save_tourney(const kt_tourney *t, kt_io_format f, unsigned flags, kt_cell start, const char *path)
{
    FILE *out = cli_open_out(path);
    if (out == NULL) return 1;
    kt_status st = kt_io_write(t, f, flags, start, cli_write_file, out);
    int rc = cli_close_out(out, path ? path : "-");
    if (st != KT_OK) return cli_fail_status("write", st);
    return rc;
}

bool cli_opt(int argc, char **argv, int *i, const char *name, const char **value)
{
    if (*i >= cli_operands_from) return false;
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
static double progress_t0;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "1h02m", "3m05s" or "42s". */
static void format_eta(char *buf, size_t n, double s)
{
    unsigned long t = s > 0 && s < 1e9 ? (unsigned long)(s + 0.5) : 0;
    if (t >= 3600) snprintf(buf, n, "%luh%02lum", t / 3600, t / 60 % 60);
    else if (t >= 60) snprintf(buf, n, "%lum%02lus", t / 60, t % 60);
    else snprintf(buf, n, "%lus", t);
}

static void progress_bar(uint64_t done, uint64_t total, double elapsed)
{
    double frac = (double)done / (double)total;
    int width = 30, fill = (int)(frac * width);
    if (fill > width) fill = width;
    char eta[32] = "?";
    if (done > 0 && elapsed > 0.5) format_eta(eta, sizeof eta, elapsed * (1.0 - frac) / frac);
    fprintf(stderr, "\r[%.*s%*s] %5.1f%%  ETA %s\033[K", fill, "##############################",
            width - fill, "", 100.0 * frac, eta);
}

int cli_progress(void *user, uint64_t done, uint64_t total)
{
    (void)user;
    if (cli_quiet || !isatty(2)) return 0;
    if (!progress_shown) progress_t0 = now();
    if (total > 0) progress_bar(done, total, now() - progress_t0);
    else fprintf(stderr, "\r%llu\033[K", (unsigned long long)done);
    progress_shown = true;
    return 0;
}

void cli_progress_done(void)
{
    if (progress_shown) fputs("\r\033[K", stderr);
    progress_shown = false;
}

int cli_cell_arg(const kt_graph *g, const char *flag, const char *s, kt_cell *c)
{
    uint32_t x, y;
    if (s == NULL) return 0;
    if (!cli_parse_square(s, kt_graph_height(g), &x, &y))
        return cli_usage("%s wants X,Y (0-based from the top-left) or a chess square such as a1, not '%s'", flag, s);
    *c = kt_graph_cell(g, x, y);
    if (*c == KT_CELL_NONE) return cli_usage("%s %s is off the %ux%u board", flag, s, kt_graph_width(g), kt_graph_height(g));
    return 0;
}
