/* SPDX-License-Identifier: MIT */
/* Text formats (visit numbers, Parberry's move digits) and SVG, both ways. */
#include "internal.h"
#include <knight/io.h>

#include <stdio.h>

/* ------------------------------------------------------------------ */
/* Output buffering                                                    */

void kti_out_bytes(kti_out *o, const char *s, size_t n)
{
    if (o->failed) return;
    while (n > 0) {
        size_t room = sizeof o->buf - o->len;
        size_t k = n < room ? n : room;
        memcpy(o->buf + o->len, s, k);
        o->len += k;
        s += k;
        n -= k;
        if (o->len == sizeof o->buf) {
            if (o->fn(o->user, o->buf, o->len) != 0) {
                o->failed = true;
                return;
            }
            o->len = 0;
        }
    }
}

void kti_out_str(kti_out *o, const char *s)
{
    kti_out_bytes(o, s, strlen(s));
}

void kti_out_u64(kti_out *o, uint64_t v)
{
    char tmp[24];
    size_t k = sizeof tmp;
    do {
        tmp[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    kti_out_bytes(o, tmp + k, sizeof tmp - k);
}

kt_status kti_out_flush(kti_out *o)
{
    if (!o->failed && o->len > 0 && o->fn(o->user, o->buf, o->len) != 0) o->failed = true;
    o->len = 0;
    return o->failed ? KT_EIO : KT_OK;
}

static void out_pad(kti_out *o, uint64_t v, unsigned width)
{
    unsigned d = 1;
    for (uint64_t x = v; x >= 10; x /= 10) d++;
    for (; d < width; d++) kti_out_bytes(o, " ", 1);
    kti_out_u64(o, v);
}

static unsigned digits(uint64_t v)
{
    unsigned d = 1;
    for (; v >= 10; v /= 10) d++;
    return d;
}

/* ------------------------------------------------------------------ */
/* Visit numbers of a tour                                             */

/* Fill num[c] = 1-based visit number (0 at holes), walking from start. */
static kt_status visit_numbers(const kt_tourney *t, kt_cell start, bool reverse, uint32_t *num)
{
    const kt_graph *g = t->g;
    if (t->size != 1) return KT_EUNSUPPORTED;
    for (size_t c = 0; c < g->ncells; c++) num[c] = 0;
    if (g->nverts == 0) return KT_OK;
    kt_cell s = start;
    int dir = reverse ? 1 : 0;
    if (t->shape == KT_SHAPE_PATH) {
        kt_cell a, b;
        kt_tourney_ends(t, &a, &b);
        if (s == KT_CELL_NONE) s = reverse ? b : a;
        else if (s != a && s != b) return KT_EINVAL;
        dir = 0;
    } else if (s == KT_CELL_NONE) {
        for (size_t c = 0; c < g->ncells; c++)
            if (kti_is_vertex(g, c)) {
                s = (kt_cell)c;
                break;
            }
    }
    if (!kti_is_vertex(g, s)) return KT_EINVAL;
    uint8_t p = t->mv[s];
    unsigned out = dir ? (unsigned)(p >> 4) : (p & 0xFu);
    uint32_t k = 1;
    num[s] = k++;
    kt_cell c = s;
    while (out != KTI_NOMOVE) {
        kt_cell d = (kt_cell)((int64_t)c + g->off[out]);
        if (d == s) break;
        num[d] = k++;
        uint8_t q = t->mv[d];
        unsigned back = (out + 4) & 7;
        out = (q & 0xF) == back ? (unsigned)(q >> 4) : (q & 0xFu);
        c = d;
    }
    return KT_OK;
}

static kt_status write_numbers(const kt_tourney *t, unsigned flags, kt_cell start, kti_out *o)
{
    const kt_graph *g = t->g;
    uint32_t *num = kti_calloc(&g->alloc, g->ncells, sizeof *num);
    if (num == NULL) return KT_ENOMEM;
    kt_status st = visit_numbers(t, start, (flags & KT_IO_WRITE_REVERSE) != 0, num);
    if (st == KT_OK) {
        unsigned w = digits(g->nverts);
        for (uint32_t y = 0; y < g->height; y++) {
            for (uint32_t x = 0; x < g->width; x++) {
                size_t c = (size_t)y * g->width + x;
                if (x > 0) kti_out_bytes(o, " ", 1);
                if (kti_is_vertex(g, c)) {
                    out_pad(o, num[c], w);
                } else {
                    for (unsigned i = 1; i < w; i++) kti_out_bytes(o, " ", 1);
                    kti_out_bytes(o, ".", 1);
                }
            }
            kti_out_bytes(o, "\n", 1);
        }
    }
    kti_free(&g->alloc, num);
    return st;
}

/* ------------------------------------------------------------------ */
/* Move digits                                                         */

static void digit_edge(void *ctx, kt_cell from, int move)
{
    ((char *)ctx)[from] = (char)('0' + move);
}

static kt_status write_moves(const kt_tourney *t, kti_out *o)
{
    const kt_graph *g = t->g;
    /* One character per cell, filled by the canonical walk. */
    char *digits = kti_alloc(&g->alloc, g->ncells);
    if (digits == NULL) return KT_ENOMEM;
    for (size_t c = 0; c < g->ncells; c++) digits[c] = kti_is_vertex(g, c) ? '-' : '.';
    kti_walker w = {digit_edge, NULL, digits};
    kt_status st = kti_tourney_walk(t, &w);
    if (st == KT_OK)
        for (uint32_t y = 0; y < g->height; y++) {
            kti_out_bytes(o, digits + (size_t)y * g->width, g->width);
            kti_out_bytes(o, "\n", 1);
        }
    kti_free(&g->alloc, digits);
    return st;
}

/* ------------------------------------------------------------------ */
/* SVG: cells are 2x2 units, centres at odd coordinates, so every point
 * is a pair of small integers and large boards stay compact. */

static void svg_colour(kti_out *o, size_t k)
{
    /* Golden-angle hues give neighbouring cycle indices distant colours. */
    unsigned hue = (unsigned)((k * 137u + 210u) % 360u);
    unsigned light = 35u + (unsigned)(k % 3u) * 8u;
    kti_out_str(o, "hsl(");
    kti_out_u64(o, hue);
    kti_out_str(o, ",75%,");
    kti_out_u64(o, light);
    kti_out_str(o, "%)");
}

typedef struct svg_ctx {
    kti_out *o;
    const kt_graph *g;
    size_t index;
    bool open;            /* an element is open */
    kt_cell first;
} svg_ctx;

static void svg_point(kti_out *o, const kt_graph *g, kt_cell c)
{
    kti_out_u64(o, 2u * (c % g->width) + 1u);
    kti_out_bytes(o, ",", 1);
    kti_out_u64(o, 2u * (c / g->width) + 1u);
}

static void svg_edge(void *ctx, kt_cell from, int move)
{
    svg_ctx *s = ctx;
    kti_out *o = s->o;
    if (!s->open) {
        kti_out_str(o, "<path class=\"kt-cycle\" stroke=\"");
        svg_colour(o, s->index);
        kti_out_str(o, "\" d=\"M");
        svg_point(o, s->g, from);
        s->open = true;
        s->first = from;
    }
    kt_cell to = (kt_cell)((int64_t)from + s->g->off[move]);
    if (to == s->first) {
        kti_out_str(o, "Z");
        return;
    }
    kti_out_str(o, " ");
    svg_point(o, s->g, to);
}

static void svg_end(void *ctx, bool cycle)
{
    (void)cycle;
    svg_ctx *s = ctx;
    if (s->open) kti_out_str(s->o, "\"/>\n");
    s->open = false;
    s->index++;
}

static kt_status write_svg(const kt_tourney *t, unsigned flags, kt_cell start, kti_out *o)
{
    const kt_graph *g = t->g;
    uint64_t W = 2u * (uint64_t)g->width, H = 2u * (uint64_t)g->height;
    /* Display size: about 24 px per cell, at most 2400 px. */
    uint64_t maxside = g->width > g->height ? g->width : g->height;
    uint64_t px = maxside * 24u > 2400u ? 2400u : maxside * 24u;
    uint64_t dw = px * g->width / maxside, dh = px * g->height / maxside;
    kti_out_str(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"");
    kti_out_u64(o, dw ? dw : 1);
    kti_out_str(o, "\" height=\"");
    kti_out_u64(o, dh ? dh : 1);
    kti_out_str(o, "\" viewBox=\"0 0 ");
    kti_out_u64(o, W);
    kti_out_str(o, " ");
    kti_out_u64(o, H);
    kti_out_str(o, "\" data-kt-width=\"");
    kti_out_u64(o, g->width);
    kti_out_str(o, "\" data-kt-height=\"");
    kti_out_u64(o, g->height);
    kti_out_str(o, "\" data-kt-leaper=\"");
    kti_out_u64(o, g->a);
    kti_out_str(o, ",");
    kti_out_u64(o, g->b);
    kti_out_str(o, "\">\n");
    if (!(flags & KT_IO_WRITE_SVG_NO_BOARD)) {
        kti_out_str(o, "<defs><pattern id=\"kt-board\" width=\"4\" height=\"4\" "
                       "patternUnits=\"userSpaceOnUse\"><rect width=\"4\" height=\"4\" "
                       "fill=\"#f0d9b5\"/><path d=\"M2 0h2v2h-2zM0 2h2v2h-2z\" "
                       "fill=\"#b58863\"/></pattern></defs>\n<rect width=\"");
        kti_out_u64(o, W);
        kti_out_str(o, "\" height=\"");
        kti_out_u64(o, H);
        kti_out_str(o, "\" fill=\"url(#kt-board)\"/>\n");
    }
    if (g->mask != NULL) {
        kti_out_str(o, "<path class=\"kt-holes\" fill=\"#222\" d=\"");
        for (size_t c = 0; c < g->ncells; c++)
            if (!g->mask[c]) {
                kti_out_str(o, "M");
                kti_out_u64(o, 2u * (c % g->width));
                kti_out_str(o, " ");
                kti_out_u64(o, 2u * (c / g->width));
                kti_out_str(o, "h2v2h-2z");
            }
        kti_out_str(o, "\"/>\n");
    }
    /* Thinner, translucent lines when visit numbers sit on top. */
    kti_out_str(o, (flags & KT_IO_WRITE_SVG_NUMBERS)
                       ? "<g fill=\"none\" stroke-width=\"0.09\" stroke-opacity=\"0.55\" "
                         "stroke-linejoin=\"round\" stroke-linecap=\"round\">\n"
                       : "<g fill=\"none\" stroke-width=\"0.16\" stroke-linejoin=\"round\" "
                         "stroke-linecap=\"round\">\n");
    svg_ctx s = {o, g, 0, false, KT_CELL_NONE};
    kti_walker w = {svg_edge, svg_end, &s};
    kt_status st = kti_tourney_walk(t, &w);
    if (st != KT_OK) return st;
    kti_out_str(o, "</g>\n");
    if (flags & KT_IO_WRITE_SVG_NUMBERS) {
        uint32_t *num = kti_calloc(&g->alloc, g->ncells, sizeof *num);
        if (num == NULL) return KT_ENOMEM;
        st = visit_numbers(t, start, (flags & KT_IO_WRITE_REVERSE) != 0, num);
        if (st == KT_OK) {
            kti_out_str(o, "<g font-family=\"sans-serif\" font-size=\"0.7\" text-anchor=\"middle\" "
                           "fill=\"#000\">\n");
            for (size_t c = 0; c < g->ncells; c++) {
                if (num[c] == 0) continue;
                kti_out_str(o, "<text x=\"");
                kti_out_u64(o, 2u * (c % g->width) + 1u);
                kti_out_str(o, "\" y=\"");
                kti_out_u64(o, 2u * (c / g->width) + 1u);
                kti_out_str(o, ".25\">");
                kti_out_u64(o, num[c]);
                kti_out_str(o, "</text>\n");
            }
            kti_out_str(o, "</g>\n");
        }
        kti_free(&g->alloc, num);
        if (st != KT_OK) return st;
    }
    kti_out_str(o, "</svg>\n");
    return KT_OK;
}

kt_status kt_io_write(const kt_tourney *t, kt_io_format format, unsigned flags, kt_cell start,
                           kt_write_fn fn, void *user)
{
    if (t == NULL || fn == NULL) return KT_EINVAL;
    kti_out *o = kti_alloc(&t->g->alloc, sizeof *o);
    if (o == NULL) return KT_ENOMEM;
    o->fn = fn;
    o->user = user;
    o->len = 0;
    o->failed = false;
    kt_status st;
    switch (format) {
    case KT_IO_NUMBERS: st = write_numbers(t, flags, start, o); break;
    case KT_IO_MOVES: st = write_moves(t, o); break;
    case KT_IO_SVG: st = write_svg(t, flags, start, o); break;
    default: st = KT_EINVAL; break;
    }
    kt_status fs = kti_out_flush(o);
    kti_free(&t->g->alloc, o);
    return st != KT_OK ? st : fs;
}

typedef struct buf_sink {
    char *buf;
    size_t cap, len;
} buf_sink;

static int buf_write(void *user, const char *data, size_t len)
{
    buf_sink *b = user;
    if (b->len < b->cap) {
        size_t k = b->cap - b->len < len ? b->cap - b->len : len;
        memcpy(b->buf + b->len, data, k);
    }
    b->len += len;
    return 0;
}

kt_status kt_io_write_buffer(const kt_tourney *t, kt_io_format format, unsigned flags,
                                  kt_cell start, char *buf, size_t cap, size_t *len)
{
    if (t == NULL || len == NULL || (buf == NULL && cap > 0)) return KT_EINVAL;
    buf_sink b = {buf, cap, 0};
    kt_status st = kt_io_write(t, format, flags, start, buf_write, &b);
    if (st != KT_OK) return st;
    *len = b.len;
    if (b.len >= cap) return KT_ERANGE;
    buf[b.len] = '\0';
    return KT_OK;
}

/* ------------------------------------------------------------------ */
/* Readers                                                             */

/* The state of one kt_io_parse call.  Readers record the offset of an
 * error and kt_io_parse turns it into a line and column once. */
typedef struct parser {
    const char *s;
    size_t len;
    size_t err_at;        /* offset of the error */
    bool located;         /* err_at is meaningful (parse errors; bad cells of grids) */
    kt_diag *d;           /* never NULL: the call's own when the caller passed none */
} parser;

static kt_status perr(parser *p, size_t at)
{
    p->err_at = at;
    p->located = true;
    return KT_EPARSE;
}

/* After a validation failure, point the reported position at the
 * offending cell's text; tok[c] is the offset of cell c's token. */
static void locate_cell(parser *p, kt_status st, const size_t *tok, size_t ntok)
{
    if (st != KT_EBADTOUR || p->d->cell >= ntok) return;
    p->err_at = tok[p->d->cell];
    p->located = true;
}

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

/* Make or check the graph for a W x H text board with the given holes. */
static kt_status board_for(const kt_graph *g, uint32_t w, uint32_t h, const uint8_t *mask,
                           const kt_allocator *alloc, kt_graph **made, const kt_graph **use)
{
    *made = NULL;
    if (g != NULL) {
        if (g->width != w || g->height != h) return KT_EMISMATCH;
        for (size_t c = 0; c < g->ncells; c++)
            if ((mask[c] != 0) != kti_is_vertex(g, c)) return KT_EMISMATCH;
        *use = g;
        return KT_OK;
    }
    kt_status st = kt_graph_new_custom(made, w, h, 2, 1, mask, alloc);
    *use = *made;
    return st;
}

/* ---- numbers: rows of whitespace-separated tokens, one per cell ---- */

typedef struct grid_t {
    uint32_t w, h;
    size_t *tok;          /* offset of each token, row-major */
    size_t ntok, cap;
} grid_t;

static kt_status grid_push(grid_t *gr, size_t off, const kt_allocator *al)
{
    if (gr->ntok == gr->cap) {
        size_t ncap = gr->cap ? gr->cap * 2 : 256, bytes;
        if (!kti_mul_ok(ncap, sizeof *gr->tok, &bytes)) return KT_ETOOBIG;
        size_t *n = kti_alloc(al, bytes);
        if (n == NULL) return KT_ENOMEM;
        if (gr->tok) memcpy(n, gr->tok, gr->ntok * sizeof *gr->tok);
        kti_free(al, gr->tok);
        gr->tok = n;
        gr->cap = ncap;
    }
    gr->tok[gr->ntok++] = off;
    return KT_OK;
}

/* Find the tokens and the board size.  Errors point at a lone CR, the
 * first token past the width of a long row, the line end of a short row,
 * or the first non-blank byte after a blank line. */
static kt_status grid_scan(parser *p, grid_t *gr, const kt_allocator *al)
{
    size_t row = 0, inrow = 0;
    const char *s = p->s;
    size_t i = 0, n = p->len;
    while (i < n) {
        char c = s[i];
        if (c == '\r') { /* only as part of a CRLF line end */
            if (i + 1 < n && s[i + 1] == '\n') { i++; continue; }
            return perr(p, i);
        }
        if (c == '\n') {
            if (inrow == 0) {
                /* Only trailing blank lines are allowed. */
                for (size_t j = i; j < n; j++)
                    if (!(s[j] == '\n' || s[j] == '\r' || is_blank(s[j]))) return perr(p, j);
                break;
            }
            if (row > 0 && inrow != gr->w) return perr(p, i > 0 && s[i - 1] == '\r' ? i - 1 : i);
            if (row == 0) gr->w = (uint32_t)inrow;
            row++;
            inrow = 0;
            i++;
            continue;
        }
        if (is_blank(c)) {
            i++;
            continue;
        }
        if (row > 0 && inrow >= gr->w) return perr(p, i);
        if (inrow >= UINT32_MAX - 1) return KT_ETOOBIG;
        KTI_TRY(grid_push(gr, i, al));
        inrow++;
        while (i < n && !is_blank(s[i]) && s[i] != '\n' && s[i] != '\r') i++;
    }
    if (inrow > 0) {
        if (row > 0 && inrow != gr->w) return perr(p, n);
        if (row == 0) gr->w = (uint32_t)inrow;
        row++;
    }
    if (row == 0) return perr(p, 0);
    if (row > UINT32_MAX) return KT_ETOOBIG;
    gr->h = (uint32_t)row;
    if ((uint64_t)gr->w * gr->h > KTI_MAX_CELLS) return KT_ETOOBIG;
    return KT_OK;
}

/* Read each token: `.` is a hole (mask 0), otherwise a visit number in
 * 1..(number of vertices); *verts receives the number of vertices. */
static kt_status numbers_values(parser *p, const grid_t *gr, uint8_t *mask, uint32_t *num,
                                size_t *verts)
{
    size_t n = gr->ntok, v_count = 0;
    for (size_t k = 0; k < n; k++) {
        const char *t = p->s + gr->tok[k];
        size_t tl = 0;
        while (gr->tok[k] + tl < p->len && !is_blank(t[tl]) && t[tl] != '\n' && t[tl] != '\r') tl++;
        if (tl == 1 && t[0] == '.') {
            mask[k] = 0;
            continue;
        }
        uint64_t v = 0;
        for (size_t j = 0; j < tl; j++) {
            if (t[j] < '0' || t[j] > '9') return perr(p, gr->tok[k] + j);
            v = v * 10 + (uint64_t)(t[j] - '0');
            if (v > n) return perr(p, gr->tok[k]);
        }
        if (v == 0) return perr(p, gr->tok[k]);
        mask[k] = 1;
        num[k] = (uint32_t)v;
        v_count++;
    }
    /* Every number must lie in 1..verts. */
    for (size_t k = 0; k < n; k++)
        if (mask[k] && num[k] > v_count) return perr(p, gr->tok[k]);
    *verts = v_count;
    return KT_OK;
}

/* The visit order from the numbers, then the tour: closed when the last
 * cell is a move from the first (unless KT_IO_READ_OPEN). */
static kt_status numbers_tour(parser *p, const kt_graph *use, const uint8_t *mask,
                              const uint32_t *num, size_t n, size_t verts, unsigned flags,
                              kt_tourney **out)
{
    kt_cell *order = kti_alloc(&use->alloc, (verts ? verts : 1) * sizeof *order);
    if (order == NULL) return KT_ENOMEM;
    for (size_t v = 0; v < verts; v++) order[v] = KT_CELL_NONE;
    kt_status st = KT_OK;
    for (size_t k = 0; k < n && st == KT_OK; k++) {
        if (!mask[k]) continue;
        if (order[num[k] - 1] != KT_CELL_NONE) st = kti_diag_bad(p->d, KT_RULE_REPEATED, k);
        else order[num[k] - 1] = (kt_cell)k;
    }
    if (st == KT_OK) {
        kt_shape shape = KT_SHAPE_PATH;
        if (!(flags & KT_IO_READ_OPEN) && verts > 2 &&
            kt_graph_move(use, order[verts - 1], order[0]) != KT_MOVE_NONE)
            shape = KT_SHAPE_CYCLES;
        if (verts == 1) shape = KT_SHAPE_CYCLES;
        st = kt_tourney_from_order(out, use, order, verts, shape, p->d);
    }
    kti_free(&use->alloc, order);
    return st;
}

static kt_status parse_numbers(parser *p, const kt_graph *g, unsigned flags,
                               const kt_allocator *al, kt_tourney **out)
{
    grid_t gr = {0, 0, NULL, 0, 0};
    uint8_t *mask = NULL;
    uint32_t *num = NULL;
    kt_graph *made = NULL;
    const kt_graph *use = NULL;
    size_t verts = 0;
    kt_status st = grid_scan(p, &gr, al);
    if (st == KT_OK) {
        mask = kti_alloc(al, gr.ntok);
        num = kti_calloc(al, gr.ntok, sizeof *num);
        if (mask == NULL || num == NULL) st = KT_ENOMEM;
    }
    if (st == KT_OK) st = numbers_values(p, &gr, mask, num, &verts);
    if (st == KT_OK) st = board_for(g, gr.w, gr.h, mask, al, &made, &use);
    if (st == KT_OK) st = numbers_tour(p, use, mask, num, gr.ntok, verts, flags, out);
    locate_cell(p, st, gr.tok, gr.ntok);
    kti_free(al, mask);
    kti_free(al, num);
    kti_free(al, gr.tok);
    kt_graph_free(made);
    return st;
}

/* ---- moves: one character per cell, so cell (x, y) sits at line y + 1,
 * column x + 1, and the move pairs are filled directly from the digits ---- */

/* Pass 1: the board size; every byte is a digit 0-7, `-`, `.` or a line
 * break.  Errors point at the bad byte, the first character past the width
 * of a long row, the line end of a short row, or the first byte after a
 * blank line. */
static kt_status moves_scan(parser *p, size_t *width, size_t *height)
{
    const char *s = p->s;
    size_t n = p->len, w = 0, h = 0, i = 0;
    while (i < n) {
        size_t start = i;
        while (i < n && s[i] != '\n' && s[i] != '\r') {
            char c = s[i];
            if (!((c >= '0' && c <= '7') || c == '-' || c == '.')) return perr(p, i);
            if (h > 0 && i - start >= w) return perr(p, i);
            i++;
        }
        size_t len = i - start;
        if (i < n && s[i] == '\r' && (i + 1 >= n || s[i + 1] != '\n')) return perr(p, i);
        if (len == 0) { /* only trailing blank lines */
            for (size_t j = start; j < n; j++)
                if (s[j] != '\n' && s[j] != '\r') return perr(p, j);
            break;
        }
        if (h > 0 && len != w) return perr(p, i);
        if (len > UINT32_MAX) return KT_ETOOBIG;
        w = len;
        h++;
        if (i < n && s[i] == '\r') i++;
        if (i < n) i++; /* the newline */
    }
    if (h == 0) return perr(p, 0);
    if (h > UINT32_MAX || (uint64_t)w * h > KTI_MAX_CELLS) return KT_ETOOBIG;
    *width = w;
    *height = h;
    return KT_OK;
}

/* Pass 2: each digit adds its edge to both ends. */
static kt_status moves_fill(parser *p, const kt_graph *use, const uint8_t *mask, kt_tourney *t)
{
    const char *s = p->s;
    size_t cells = use->ncells, w = use->width, h = use->height, k = 0;
    for (size_t i = 0; i < p->len && k < cells; i++) {
        char c = s[i];
        if (c == '\n' || c == '\r') continue;
        kt_cell here = (kt_cell)k++;
        if (c < '0' || c > '7') continue;
        int m = c - '0';
        int64_t nx = (int64_t)(here % w) + use->dx[m], ny = (int64_t)(here / w) + use->dy[m];
        kt_cell d = (kt_cell)((int64_t)here + use->off[m]);
        if (nx < 0 || ny < 0 || nx >= (int64_t)w || ny >= (int64_t)h || !mask[d])
            return kti_diag_bad(p->d, KT_RULE_NOT_A_MOVE, here);
        if (!kti_pair_add(t->mv, here, m)) return kti_diag_bad(p->d, KT_RULE_DEGREE, here);
        if (!kti_pair_add(t->mv, d, (m + 4) & 7)) return kti_diag_bad(p->d, KT_RULE_REPEATED, d);
    }
    return KT_OK;
}

/* Point the position at cell c: line c / w + 1, column c % w + 1. */
static void moves_locate(parser *p, kt_status st, size_t w, size_t cells)
{
    kt_cell c = p->d->cell;
    if (st != KT_EBADTOUR || c >= cells) return;
    size_t line = c / w, at = 0;
    for (size_t ln = 0; ln < line; at++)
        if (p->s[at] == '\n') ln++;
    p->err_at = at + c % w;
    p->located = true;
}

static kt_status parse_moves(parser *p, const kt_graph *g, const kt_allocator *al,
                             kt_tourney **out)
{
    size_t w = 0, h = 0;
    KTI_TRY(moves_scan(p, &w, &h));
    size_t cells = w * h;
    uint8_t *mask = kti_alloc(al, cells);
    if (mask == NULL) return KT_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < p->len && k < cells; i++)
        if (p->s[i] != '\n' && p->s[i] != '\r') mask[k++] = p->s[i] != '.';
    kt_graph *made = NULL;
    const kt_graph *use = NULL;
    kt_tourney *t = NULL;
    kt_status st = board_for(g, (uint32_t)w, (uint32_t)h, mask, al, &made, &use);
    if (st == KT_OK) st = kti_tourney_alloc(&t, use);
    if (st == KT_OK) st = moves_fill(p, use, mask, t);
    if (st == KT_OK) st = kti_tourney_finish(t, p->d);
    moves_locate(p, st, w, cells);
    if (st == KT_OK) {
        *out = t;
    } else {
        kt_tourney_free(t);
    }
    kti_free(al, mask);
    kt_graph_free(made);
    return st;
}

/* ---- SVG: the subset this library writes: the data-kt-* attributes of
 * the root, the kt-holes path and the kt-cycle paths ---- */

static const char *find(const char *s, size_t len, size_t from, const char *needle)
{
    size_t nl = strlen(needle);
    for (size_t i = from; i + nl <= len; i++)
        if (memcmp(s + i, needle, nl) == 0) return s + i;
    return NULL;
}

static bool read_uint(const char *s, size_t len, size_t *i, uint64_t *v)
{
    size_t j = *i;
    uint64_t x = 0;
    if (j >= len || s[j] < '0' || s[j] > '9') return false;
    while (j < len && s[j] >= '0' && s[j] <= '9') {
        if (x > (UINT64_MAX - 9) / 10) return false;
        x = x * 10 + (uint64_t)(s[j] - '0');
        j++;
    }
    *i = j;
    *v = x;
    return true;
}

/* Where a missing attribute is reported: the root element (or 1:1). */
static size_t svg_root(const parser *p)
{
    const char *r = find(p->s, p->len, 0, "<svg");
    return r != NULL ? (size_t)(r - p->s) : 0;
}

/* An unsigned attribute value; *at receives the offset of the value. */
static kt_status svg_attr_uint(parser *p, const char *name, uint64_t *v, size_t *at)
{
    const char *a = find(p->s, p->len, 0, name);
    if (a == NULL) return perr(p, svg_root(p));
    size_t i = (size_t)(a - p->s) + strlen(name);
    *at = i;
    if (!read_uint(p->s, p->len, &i, v)) return perr(p, i);
    return KT_OK;
}

typedef struct svg_board {
    uint64_t w, h, a, b;
} svg_board;

/* The root's attributes: board size and leaper (the knight when absent).
 * A size or leaper no graph can have is a parse error at its value. */
static kt_status svg_header(parser *p, svg_board *bd)
{
    size_t wat = 0, hat = 0;
    bd->a = 2;
    bd->b = 1;
    KTI_TRY(svg_attr_uint(p, "data-kt-width=\"", &bd->w, &wat));
    KTI_TRY(svg_attr_uint(p, "data-kt-height=\"", &bd->h, &hat));
    const char *lp = find(p->s, p->len, 0, "data-kt-leaper=\"");
    if (lp != NULL) {
        size_t at = (size_t)(lp - p->s) + strlen("data-kt-leaper=\""), i = at;
        if (!read_uint(p->s, p->len, &i, &bd->a) || i >= p->len || p->s[i] != ',') return perr(p, i);
        i++;
        if (!read_uint(p->s, p->len, &i, &bd->b)) return perr(p, i);
        /* The legs kt_graph_new_custom accepts: positive, distinct, int32. */
        if (bd->a == 0 || bd->b == 0 || bd->a == bd->b || bd->a > INT32_MAX || bd->b > INT32_MAX)
            return perr(p, at);
    }
    if (bd->w == 0 || bd->w > UINT32_MAX) return perr(p, wat);
    if (bd->h == 0 || bd->h > UINT32_MAX) return perr(p, hat);
    /* Every cell takes at least a point or a hole in the text: a claimed
     * board larger than the text cannot be described by it (and must not
     * make us allocate for it). */
    if (bd->w * bd->h > KTI_MAX_CELLS || bd->w * bd->h > p->len) return perr(p, wat);
    return KT_OK;
}

/* The kt-holes path: "Mx yh2v2h-2z" per hole, clearing its mask byte. */
static kt_status svg_holes(parser *p, const svg_board *bd, uint8_t *mask)
{
    const char *hp = find(p->s, p->len, 0, "class=\"kt-holes\"");
    if (hp == NULL) return KT_OK;
    const char *d = find(p->s, p->len, (size_t)(hp - p->s), " d=\"");
    if (d == NULL) return perr(p, (size_t)(hp - p->s));
    const char *tail = "h2v2h-2z";
    size_t i = (size_t)(d - p->s) + 4, tl = strlen(tail);
    while (i < p->len && p->s[i] != '"') {
        uint64_t x, y;
        size_t at = i;
        if (p->s[i] != 'M') return perr(p, i);
        i++;
        if (!read_uint(p->s, p->len, &i, &x) || i >= p->len || p->s[i] != ' ') return perr(p, i);
        i++;
        if (!read_uint(p->s, p->len, &i, &y)) return perr(p, i);
        if (x % 2 || y % 2 || x / 2 >= bd->w || y / 2 >= bd->h) return perr(p, at);
        mask[(y / 2) * bd->w + x / 2] = 0;
        if (p->len - i < tl || memcmp(p->s + i, tail, tl) != 0) return perr(p, i);
        i += tl;
    }
    return KT_OK;
}

/* One kt-cycle path starting at offset i (its d attribute): "Mx,y x,y ...",
 * closed by Z for a cycle.  Each point is entered once: a second successor
 * is a repeated cell.  *end receives the offset after the path. */
static kt_status svg_path(parser *p, const svg_board *bd, kt_cell *succ, size_t i, size_t *end)
{
    if (i >= p->len || p->s[i] != 'M') return perr(p, i);
    i++;
    kt_cell first = KT_CELL_NONE, prev = KT_CELL_NONE;
    for (;;) {
        uint64_t x, y;
        size_t at = i;
        if (!read_uint(p->s, p->len, &i, &x) || i >= p->len || p->s[i] != ',') return perr(p, i);
        i++;
        if (!read_uint(p->s, p->len, &i, &y)) return perr(p, i);
        if (x % 2 == 0 || y % 2 == 0 || x / 2 >= bd->w || y / 2 >= bd->h) return perr(p, at);
        kt_cell c = (kt_cell)((y / 2) * bd->w + x / 2);
        if (prev != KT_CELL_NONE) {
            if (succ[prev] != KT_CELL_NONE) return kti_diag_bad(p->d, KT_RULE_REPEATED, prev);
            succ[prev] = c;
        } else {
            first = c;
        }
        prev = c;
        if (i < p->len && p->s[i] == ' ') {
            i++;
            continue;
        }
        if (i < p->len && p->s[i] == 'Z') {
            if (succ[prev] != KT_CELL_NONE) return kti_diag_bad(p->d, KT_RULE_REPEATED, prev);
            succ[prev] = first;
            i++;
        }
        if (i >= p->len || p->s[i] != '"') return perr(p, i);
        *end = i;
        return KT_OK;
    }
}

/* Every kt-cycle path, in order. */
static kt_status svg_paths(parser *p, const svg_board *bd, kt_cell *succ)
{
    size_t from = 0;
    const char *cp;
    while ((cp = find(p->s, p->len, from, "class=\"kt-cycle\"")) != NULL) {
        const char *d = find(p->s, p->len, (size_t)(cp - p->s), " d=\"");
        if (d == NULL) return perr(p, (size_t)(cp - p->s));
        KTI_TRY(svg_path(p, bd, succ, (size_t)(d - p->s) + 4, &from));
    }
    return KT_OK;
}

static kt_status parse_svg(parser *p, const kt_graph *g, const kt_allocator *al,
                           kt_tourney **out)
{
    svg_board bd;
    KTI_TRY(svg_header(p, &bd));
    size_t n = (size_t)(bd.w * bd.h);
    uint8_t *mask = kti_alloc(al, n);
    if (mask == NULL) return KT_ENOMEM;
    memset(mask, 1, n);
    kt_cell *succ = NULL;
    kt_graph *made = NULL;
    const kt_graph *use = NULL;
    kt_status st = svg_holes(p, &bd, mask);
    if (st == KT_OK && g != NULL) {
        st = board_for(g, (uint32_t)bd.w, (uint32_t)bd.h, mask, al, &made, &use);
        if (st == KT_OK && (g->a != bd.a || g->b != bd.b)) st = KT_EMISMATCH;
    } else if (st == KT_OK) {
        st = kt_graph_new_custom(&made, (uint32_t)bd.w, (uint32_t)bd.h, (uint32_t)bd.a,
                                 (uint32_t)bd.b, mask, al);
        use = made;
    }
    if (st == KT_OK) {
        succ = kti_alloc(&use->alloc, n * sizeof *succ);
        if (succ == NULL) st = KT_ENOMEM;
    }
    if (st == KT_OK) {
        for (size_t c = 0; c < n; c++) succ[c] = KT_CELL_NONE;
        st = svg_paths(p, &bd, succ);
    }
    if (st == KT_OK) st = kt_tourney_from_successors(out, use, succ, n, p->d);
    if (succ) kti_free(&use->alloc, succ);
    kti_free(al, mask);
    kt_graph_free(made);
    return st;
}

/* Guess the format.  SVG starts with `<`.  A first line with blanks
 * between tokens or a digit 8/9 is numbers; so is a one-character first
 * line (a one-column board), unless the text has a `-`: only the moves
 * format uses it, and the 1x1 tour in moves is the single line "-". */
static kt_io_format detect(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (is_blank(s[i]) || s[i] == '\n' || s[i] == '\r')) i++;
    if (i < len && s[i] == '<') return KT_IO_SVG;
    size_t j = i, chars = 0;
    bool blank_inside = false, big_digit = false;
    for (; j < len && s[j] != '\n' && s[j] != '\r'; j++) {
        if (is_blank(s[j])) blank_inside = true;
        else chars++;
        if (s[j] == '8' || s[j] == '9') big_digit = true;
    }
    if (blank_inside || big_digit) return KT_IO_NUMBERS;
    if (chars <= 1) return memchr(s, '-', len) != NULL ? KT_IO_MOVES : KT_IO_NUMBERS;
    return KT_IO_MOVES;
}

kt_status kt_io_parse(kt_tourney **out, const kt_graph *g, const char *text, size_t len,
                      kt_io_format format, unsigned flags, const kt_allocator *alloc,
                      kt_diag *diag)
{
    kti_diag_clear(diag);
    if (out) *out = NULL;
    if (out == NULL || (text == NULL && len > 0)) return KT_EINVAL;
    if (alloc != NULL && (alloc->alloc == NULL || alloc->free == NULL)) return KT_EINVAL;
    const kt_allocator *al = g != NULL ? &g->alloc : kti_allocator_or_default(alloc);
    kt_diag own;
    parser p = {text, len, 0, false, diag != NULL ? diag : &own};
    kti_diag_clear(p.d);
    if (format == KT_IO_AUTO && len > 0) format = detect(text, len);
    if (format == KT_IO_AUTO) format = KT_IO_NUMBERS; /* empty text: a parse error at 1:1 */
    kt_status st;
    switch (format) {
    case KT_IO_NUMBERS: st = parse_numbers(&p, g, flags, al, out); break;
    case KT_IO_MOVES: st = parse_moves(&p, g, al, out); break;
    case KT_IO_SVG: st = parse_svg(&p, g, al, out); break;
    default: st = KT_EINVAL; break;
    }
    KTI_ASSERT(st != KT_EPARSE || p.located); /* every parse error has a position */
    if (st != KT_EBADTOUR) kti_diag_clear(p.d);
    if (p.located && (st == KT_EPARSE || st == KT_EBADTOUR)) kti_diag_at(p.d, text, p.err_at);
    return st;
}
