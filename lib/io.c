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

/* Tokenised grid: rows of tokens.  Numbers: whitespace-separated tokens;
 * moves: one character each. */
typedef struct grid_t {
    uint32_t w, h;
    size_t *tok;          /* offset of each token, row-major */
    size_t ntok, cap;
} grid_t;

typedef struct parser {
    const char *s;
    size_t len, i;
    size_t err_at;        /* offset of the first error */
    bool located;         /* err_at is meaningful (parse errors; bad cells of grids) */
} parser;

static kt_status perr(parser *p, size_t at)
{
    p->err_at = at;
    p->located = true;
    return KT_EPARSE;
}

/* On a validation failure, hand out the rule and cell and point the
 * reported position at the offending cell's token. */
static void report_bad_cell(parser *p, const grid_t *gr, kt_status st, kt_rule rl, kt_cell bc,
                            kt_rule *rule, kt_cell *cell)
{
    if (st != KT_EBADTOUR) return;
    if (rule) *rule = rl;
    if (cell) *cell = bc;
    if (bc < gr->ntok) {
        p->err_at = gr->tok[bc];
        p->located = true;
    }
}

static void offset_to_pos(const char *s, size_t at, size_t *line, size_t *column)
{
    size_t ln = 1, col = 1;
    for (size_t i = 0; i < at; i++) {
        if (s[i] == '\n') {
            ln++;
            col = 1;
        } else {
            col++;
        }
    }
    if (line) *line = ln;
    if (column) *column = col;
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

static kt_status grid_scan(parser *p, grid_t *gr, bool chars, const kt_allocator *al)
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
            if (row > 0 && inrow != gr->w) return perr(p, i);
            if (row == 0) gr->w = (uint32_t)inrow;
            row++;
            inrow = 0;
            i++;
            continue;
        }
        if (chars) {
            if (is_blank(c) && inrow == 0) return perr(p, i);
            if (is_blank(c)) {
                /* trailing blanks at the end of a line are tolerated */
                size_t j = i;
                while (j < n && is_blank(s[j])) j++;
                if (j < n && s[j] != '\n' && s[j] != '\r') return perr(p, i);
                i = j;
                continue;
            }
        } else if (is_blank(c)) {
            i++;
            continue;
        }
        if (row > 0 && inrow >= gr->w) return perr(p, i);
        if (inrow >= UINT32_MAX - 1) return KT_ETOOBIG;
        kt_status st = grid_push(gr, i, al);
        if (st != KT_OK) return st;
        inrow++;
        if (chars) {
            i++;
        } else {
            while (i < n && !is_blank(s[i]) && s[i] != '\n' && s[i] != '\r') i++;
        }
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

static kt_status parse_numbers(parser *p, const kt_graph *g, unsigned flags,
                               const kt_allocator *al, kt_tourney **out, kt_rule *rule,
                               kt_cell *cell)
{
    grid_t gr = {0, 0, NULL, 0, 0};
    kt_rule rl = KT_RULE_NONE;
    kt_cell bc = KT_CELL_NONE;
    kt_status st = grid_scan(p, &gr, false, al);
    uint8_t *mask = NULL;
    uint32_t *num = NULL;
    kt_cell *order = NULL;
    kt_graph *made = NULL;
    const kt_graph *use = NULL;
    if (st != KT_OK) goto done;
    size_t n = gr.ntok;
    mask = kti_alloc(al, n);
    num = kti_calloc(al, n, sizeof *num);
    if (mask == NULL || num == NULL) { st = KT_ENOMEM; goto done; }
    size_t verts = 0;
    for (size_t k = 0; k < n; k++) {
        const char *t = p->s + gr.tok[k];
        size_t tl = 0;
        while (gr.tok[k] + tl < p->len && !is_blank(t[tl]) && t[tl] != '\n' && t[tl] != '\r') tl++;
        if (tl == 1 && t[0] == '.') {
            mask[k] = 0;
            continue;
        }
        uint64_t v = 0;
        for (size_t j = 0; j < tl; j++) {
            if (t[j] < '0' || t[j] > '9') { st = perr(p, gr.tok[k] + j); goto done; }
            v = v * 10 + (uint64_t)(t[j] - '0');
            if (v > n) { st = perr(p, gr.tok[k]); goto done; }
        }
        if (v == 0) { st = perr(p, gr.tok[k]); goto done; }
        mask[k] = 1;
        num[k] = (uint32_t)v;
        verts++;
    }
    /* Every number must lie in 1..verts. */
    for (size_t k = 0; k < n; k++)
        if (mask[k] && num[k] > verts) { st = perr(p, gr.tok[k]); goto done; }
    st = board_for(g, gr.w, gr.h, mask, al, &made, &use);
    if (st != KT_OK) goto done;
    order = kti_alloc(&use->alloc, (verts ? verts : 1) * sizeof *order);
    if (order == NULL) { st = KT_ENOMEM; goto done; }
    for (size_t v = 0; v < verts; v++) order[v] = KT_CELL_NONE;
    for (size_t k = 0; k < n; k++) {
        if (!mask[k]) continue;
        if (order[num[k] - 1] != KT_CELL_NONE) {
            rl = KT_RULE_REPEATED;
            bc = (kt_cell)k;
            st = KT_EBADTOUR;
            goto done;
        }
        order[num[k] - 1] = (kt_cell)k;
    }
    kt_shape shape = KT_SHAPE_PATH;
    if (!(flags & KT_IO_READ_OPEN) && verts > 2 &&
        kt_graph_move(use, order[verts - 1], order[0]) != KT_MOVE_NONE)
        shape = KT_SHAPE_CYCLES;
    if (verts == 1) shape = KT_SHAPE_CYCLES;
    st = kt_tourney_from_order(out, use, order, verts, shape, &rl, &bc);
done:
    report_bad_cell(p, &gr, st, rl, bc, rule, cell);
    if (order) kti_free(&use->alloc, order);
    kti_free(al, mask);
    kti_free(al, num);
    kti_free(al, gr.tok);
    kt_graph_free(made);
    return st;
}

/* Moves: one character per cell, so cell (x, y) sits at line y + 1,
 * column x + 1, and the move pairs are filled directly from the digits. */
static kt_status parse_moves(parser *p, const kt_graph *g, const kt_allocator *al,
                             kt_tourney **out, kt_rule *rule, kt_cell *cell)
{
    const char *s = p->s;
    size_t n = p->len, w = 0, h = 0, i = 0;
    /* Pass 1: dimensions and characters. */
    while (i < n) {
        size_t start = i;
        while (i < n && s[i] != '\n' && s[i] != '\r') {
            char c = s[i];
            if (!((c >= '0' && c <= '7') || c == '-' || c == '.')) return perr(p, i);
            i++;
        }
        size_t len = i - start;
        if (i < n && s[i] == '\r') {
            if (i + 1 >= n || s[i + 1] != '\n') return perr(p, i);
            i++;
        }
        if (len == 0) { /* only trailing blank lines */
            for (size_t j = start; j < n; j++)
                if (s[j] != '\n' && s[j] != '\r') return perr(p, j);
            break;
        }
        if (h > 0 && len != w) return perr(p, start + (len < w ? len : w));
        if (len > UINT32_MAX) return KT_ETOOBIG;
        w = len;
        h++;
        if (i < n) i++; /* the newline */
    }
    if (h == 0) return perr(p, 0);
    if (h > UINT32_MAX || (uint64_t)w * h > KTI_MAX_CELLS) return KT_ETOOBIG;
    size_t cells = w * h;
    uint8_t *mask = kti_alloc(al, cells);
    if (mask == NULL) return KT_ENOMEM;
    size_t k = 0;
    for (i = 0; i < n && k < cells; i++)
        if (s[i] != '\n' && s[i] != '\r') mask[k++] = s[i] != '.';
    kt_graph *made = NULL;
    const kt_graph *use = NULL;
    kt_tourney *t = NULL;
    kt_rule rl = KT_RULE_NONE;
    kt_cell bc = KT_CELL_NONE;
    kt_status st = board_for(g, (uint32_t)w, (uint32_t)h, mask, al, &made, &use);
    if (st == KT_OK) st = kti_tourney_alloc(&t, use);
    /* Pass 2: each digit adds its edge to both ends. */
    k = 0;
    for (i = 0; st == KT_OK && i < n && k < cells; i++) {
        char c = s[i];
        if (c == '\n' || c == '\r') continue;
        kt_cell here = (kt_cell)k++;
        if (c < '0' || c > '7') continue;
        int m = c - '0';
        int64_t nx = (int64_t)(here % w) + use->dx[m], ny = (int64_t)(here / w) + use->dy[m];
        kt_cell d = (kt_cell)((int64_t)here + use->off[m]);
        if (nx < 0 || ny < 0 || nx >= (int64_t)w || ny >= (int64_t)h || !mask[d]) {
            rl = KT_RULE_NOT_A_MOVE;
            bc = here;
            st = KT_EBADTOUR;
        } else if (!kti_pair_add(t->mv, here, m)) {
            rl = KT_RULE_DEGREE;
            bc = here;
            st = KT_EBADTOUR;
        } else if (!kti_pair_add(t->mv, d, (m + 4) & 7)) {
            rl = KT_RULE_REPEATED;
            bc = d;
            st = KT_EBADTOUR;
        }
    }
    if (st == KT_OK) st = kti_tourney_finish(t, &rl, &bc);
    if (st == KT_EBADTOUR) {
        if (rule) *rule = rl;
        if (cell) *cell = bc;
        if (bc < cells) {
            /* Line y + 1, column x + 1 of the cell: find the line's start. */
            size_t line = bc / w, at = 0;
            for (size_t ln = 0; ln < line; at++)
                if (s[at] == '\n') ln++;
            p->err_at = at + bc % w;
            p->located = true;
        }
    }
    if (st == KT_OK) {
        *out = t;
    } else {
        kt_tourney_free(t);
    }
    kti_free(al, mask);
    kt_graph_free(made);
    return st;
}

/* SVG reader for the subset this library writes: the data-kt-* attributes
 * of the root, the kt-holes path and the kt-cycle paths. */
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

static kt_status svg_attr_uint(parser *p, const char *name, uint64_t *v)
{
    const char *a = find(p->s, p->len, 0, name);
    if (a == NULL) return perr(p, 0);
    size_t i = (size_t)(a - p->s) + strlen(name);
    if (!read_uint(p->s, p->len, &i, v)) return perr(p, i);
    return KT_OK;
}

static kt_status parse_svg(parser *p, const kt_graph *g, const kt_allocator *al,
                           kt_tourney **out, kt_rule *rule, kt_cell *cell)
{
    uint64_t w, h, a = 2, b = 1;
    kt_status st;
    if ((st = svg_attr_uint(p, "data-kt-width=\"", &w)) != KT_OK) return st;
    if ((st = svg_attr_uint(p, "data-kt-height=\"", &h)) != KT_OK) return st;
    const char *lp = find(p->s, p->len, 0, "data-kt-leaper=\"");
    if (lp != NULL) {
        size_t i = (size_t)(lp - p->s) + strlen("data-kt-leaper=\"");
        if (!read_uint(p->s, p->len, &i, &a) || i >= p->len || p->s[i] != ',') return perr(p, i);
        i++;
        if (!read_uint(p->s, p->len, &i, &b)) return perr(p, i);
    }
    if (w == 0 || h == 0 || w > UINT32_MAX || h > UINT32_MAX || w * h > KTI_MAX_CELLS)
        return perr(p, 0);
    /* Every cell takes at least a point or a hole in the text: a claimed
     * board larger than the text cannot be described by it (and must not
     * make us allocate for it). */
    if (w * h > p->len) return perr(p, 0);
    size_t n = (size_t)(w * h);
    uint8_t *mask = kti_alloc(al, n);
    if (mask == NULL) return KT_ENOMEM;
    memset(mask, 1, n);
    kt_cell *succ = NULL;
    kt_graph *made = NULL;
    const kt_graph *use = NULL;
    const char *hp = find(p->s, p->len, 0, "class=\"kt-holes\"");
    if (hp != NULL) {
        const char *d = find(p->s, p->len, (size_t)(hp - p->s), " d=\"");
        if (d == NULL) { st = perr(p, (size_t)(hp - p->s)); goto done; }
        size_t i = (size_t)(d - p->s) + 4;
        while (i < p->len && p->s[i] != '"') {
            uint64_t x, y;
            if (p->s[i] != 'M') { st = perr(p, i); goto done; }
            i++;
            if (!read_uint(p->s, p->len, &i, &x) || i >= p->len || p->s[i] != ' ') { st = perr(p, i); goto done; }
            i++;
            if (!read_uint(p->s, p->len, &i, &y)) { st = perr(p, i); goto done; }
            if (x % 2 || y % 2 || x / 2 >= w || y / 2 >= h) { st = perr(p, i); goto done; }
            mask[(y / 2) * w + x / 2] = 0;
            const char *tail = "h2v2h-2z";
            if (p->len - i < strlen(tail) || memcmp(p->s + i, tail, strlen(tail)) != 0) { st = perr(p, i); goto done; }
            i += strlen(tail);
        }
    }
    if (g != NULL) {
        st = board_for(g, (uint32_t)w, (uint32_t)h, mask, al, &made, &use);
        if (st == KT_OK && (g->a != a || g->b != b)) st = KT_EMISMATCH;
    } else if (a > UINT32_MAX || b > UINT32_MAX) {
        st = perr(p, 0);
    } else {
        st = kt_graph_new_custom(&made, (uint32_t)w, (uint32_t)h, (uint32_t)a, (uint32_t)b, mask, al);
        use = made;
    }
    if (st != KT_OK) goto done;
    succ = kti_alloc(&use->alloc, n * sizeof *succ);
    if (succ == NULL) { st = KT_ENOMEM; goto done; }
    for (size_t c = 0; c < n; c++) succ[c] = KT_CELL_NONE;
    size_t from = 0;
    const char *cp;
    while ((cp = find(p->s, p->len, from, "class=\"kt-cycle\"")) != NULL) {
        const char *d = find(p->s, p->len, (size_t)(cp - p->s), " d=\"");
        if (d == NULL) { st = perr(p, (size_t)(cp - p->s)); goto done; }
        size_t i = (size_t)(d - p->s) + 4;
        if (i >= p->len || p->s[i] != 'M') { st = perr(p, i); goto done; }
        i++;
        kt_cell first = KT_CELL_NONE, prev = KT_CELL_NONE;
        for (;;) {
            uint64_t x, y;
            size_t at = i;
            if (!read_uint(p->s, p->len, &i, &x) || i >= p->len || p->s[i] != ',') { st = perr(p, i); goto done; }
            i++;
            if (!read_uint(p->s, p->len, &i, &y)) { st = perr(p, i); goto done; }
            if (x % 2 == 0 || y % 2 == 0 || x / 2 >= w || y / 2 >= h) { st = perr(p, at); goto done; }
            kt_cell c = (kt_cell)((y / 2) * w + x / 2);
            if (prev != KT_CELL_NONE) {
                if (succ[prev] != KT_CELL_NONE) {
                    if (rule) *rule = KT_RULE_REPEATED;
                    if (cell) *cell = prev;
                    st = KT_EBADTOUR;
                    goto done;
                }
                succ[prev] = c;
            } else {
                first = c;
            }
            prev = c;
            if (i < p->len && p->s[i] == ' ') { i++; continue; }
            if (i < p->len && p->s[i] == 'Z') {
                if (succ[prev] != KT_CELL_NONE) {
                    if (rule) *rule = KT_RULE_REPEATED;
                    if (cell) *cell = prev;
                    st = KT_EBADTOUR;
                    goto done;
                }
                succ[prev] = first;
                i++;
            }
            if (i >= p->len || p->s[i] != '"') { st = perr(p, i); goto done; }
            break;
        }
        from = i;
    }
    st = kt_tourney_from_successors(out, use, succ, n, rule, cell);
done:
    if (succ) kti_free(&use->alloc, succ);
    kti_free(al, mask);
    kt_graph_free(made);
    return st;
}

static kt_io_format detect(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (is_blank(s[i]) || s[i] == '\n' || s[i] == '\r')) i++;
    if (i < len && s[i] == '<') return KT_IO_SVG;
    /* First line: blanks between tokens, or a digit 8/9, mean numbers. */
    size_t j = i, chars = 0;
    bool blank_inside = false, big_digit = false;
    for (; j < len && s[j] != '\n' && s[j] != '\r'; j++) {
        if (is_blank(s[j])) blank_inside = true;
        else chars++;
        if (s[j] == '8' || s[j] == '9') big_digit = true;
    }
    if (blank_inside || big_digit || chars <= 1) return KT_IO_NUMBERS;
    return KT_IO_MOVES;
}

kt_status kt_io_parse(kt_tourney **out, const kt_graph *g, const char *text, size_t len,
                           kt_io_format format, unsigned flags, const kt_allocator *alloc,
                           size_t *line, size_t *column, kt_rule *rule, kt_cell *cell)
{
    if (out) *out = NULL;
    if (out == NULL || (text == NULL && len > 0)) return KT_EINVAL;
    if (alloc != NULL && (alloc->alloc == NULL || alloc->free == NULL)) return KT_EINVAL;
    const kt_allocator *al = g != NULL ? &g->alloc : alloc != NULL ? alloc : &kti_default_allocator;
    parser p = {text, len, 0, 0, false};
    if (format == KT_IO_AUTO) format = detect(text, len);
    kt_status st;
    switch (format) {
    case KT_IO_NUMBERS: st = parse_numbers(&p, g, flags, al, out, rule, cell); break;
    case KT_IO_MOVES: st = parse_moves(&p, g, al, out, rule, cell); break;
    case KT_IO_SVG: st = parse_svg(&p, g, al, out, rule, cell); break;
    default: st = KT_EINVAL; break;
    }
    if (p.located && (st == KT_EPARSE || st == KT_EBADTOUR)) {
        offset_to_pos(text, p.err_at, line, column);
    } else {
        if (line) *line = 0;
        if (column) *column = 0;
    }
    return st;
}
