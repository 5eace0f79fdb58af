/* SPDX-License-Identifier: MIT */
/* The leaper graph of a board: geometry, holes, and the existence rules. */
#include "internal.h"


kt_graph *kti_graph_ref(const kt_graph *g)
{
    kt_graph *m = (kt_graph *)g;
    unsigned before = atomic_fetch_add_explicit(&m->refs, 1u, memory_order_relaxed);
    KTI_ASSERT(before > 0); /* a reference is taken from a live graph only */
    (void)before;
    return m;
}

/* Parberry's numbering with 2 -> a and 1 -> b. */
static const int8_t move_long_dx[8] = {1, 0, 0, 1, 1, 0, 0, 1};  /* 1: |dx| = a */
static const int8_t move_sign_x[8] = {1, 1, -1, -1, -1, -1, 1, 1};
static const int8_t move_sign_y[8] = {-1, -1, -1, -1, 1, 1, 1, 1};

kt_status kt_graph_new(kt_graph **out, uint32_t width, uint32_t height)
{
    return kt_graph_new_custom(out, width, height, 2, 1, NULL, NULL);
}

kt_status kt_graph_new_custom(kt_graph **out, uint32_t width, uint32_t height, uint32_t a,
                              uint32_t b, const uint8_t *mask, const kt_allocator *alloc)
{
    if (out == NULL) return KT_EINVAL;
    *out = NULL;
    if (width == 0 || height == 0 || a == 0 || b == 0 || a == b) return KT_EINVAL;
    if (a > INT32_MAX || b > INT32_MAX) return KT_EINVAL;
    if (alloc != NULL && (alloc->alloc == NULL || alloc->free == NULL)) return KT_EINVAL;
    uint64_t cells = (uint64_t)width * height;
    if (cells > KTI_MAX_CELLS || cells > SIZE_MAX / 2) return KT_ETOOBIG;

    kt_allocator al = alloc ? *alloc : kti_default_allocator;
    kt_graph *g = kti_alloc(&al, sizeof *g);
    if (g == NULL) return KT_ENOMEM;
    memset(g, 0, sizeof *g);
    atomic_init(&g->refs, 1u);
    g->alloc = al;
    g->width = width;
    g->height = height;
    g->a = a;
    g->b = b;
    g->ncells = (size_t)cells;
    for (int m = 0; m < 8; m++) {
        int32_t lx = move_long_dx[m] ? (int32_t)a : (int32_t)b;
        int32_t ly = move_long_dx[m] ? (int32_t)b : (int32_t)a;
        g->dx[m] = move_sign_x[m] * lx;
        g->dy[m] = move_sign_y[m] * ly;
        g->off[m] = (int64_t)g->dy[m] * width + g->dx[m];
    }
    /* Parberry's numbering pairs each move with its reverse four apart;
     * the tourney code stores one direction and derives the other so. */
    for (int m = 0; m < 4; m++)
        KTI_ASSERT(g->dx[m] == -g->dx[m + 4] && g->dy[m] == -g->dy[m + 4]);
    g->nverts = g->ncells;
    if (mask != NULL) {
        size_t holes = 0;
        for (size_t i = 0; i < g->ncells; i++) holes += mask[i] == 0;
        if (holes > 0) {
            g->mask = kti_alloc(&al, g->ncells);
            if (g->mask == NULL) {
                kti_free(&al, g);
                return KT_ENOMEM;
            }
            for (size_t i = 0; i < g->ncells; i++) g->mask[i] = mask[i] != 0;
            g->nverts = g->ncells - holes;
        }
    }
    /* Edges: count the downward moves (4-7) of each vertex, row by row. */
    uint64_t edges = 0;
    if (g->mask == NULL) {
        for (int m = 4; m < 8; m++) {
            uint64_t ax = (uint64_t)(g->dx[m] < 0 ? -(int64_t)g->dx[m] : g->dx[m]);
            uint64_t ay = (uint64_t)g->dy[m];
            if (ax < width && ay < height) edges += (width - ax) * (height - ay);
        }
    } else {
        for (size_t c = 0; c < g->ncells; c++)
            if (g->mask[c])
                for (int m = 4; m < 8; m++) edges += kti_step(g, (kt_cell)c, m) != KT_CELL_NONE;
    }
    g->nedges = edges;
    *out = g;
    return KT_OK;
}

/* Check a mask text and find its size.  On KT_EPARSE *err is the offset of
 * the first byte that cannot be accepted: a bad character, the first
 * character past the width of a long row, the line end of a short row, or
 * the first non-blank byte after a blank line (blank lines may only end
 * the text). */
static kt_status mask_scan(const char *text, size_t len, size_t *w, size_t *h, size_t *err)
{
    size_t width = 0, height = 0;
    *err = 0;
    for (size_t i = 0; i < len;) {
        size_t end = i;
        while (end < len && text[end] != '\n') end++;
        size_t stop = end; /* a CR before the line break (or at the end) is not a cell */
        if (stop > i && text[stop - 1] == '\r') stop--;
        if (stop == i) {
            for (size_t j = end; j < len; j++)
                if (text[j] != '\n' && text[j] != '\r' && text[j] != ' ') {
                    *err = j;
                    return KT_EPARSE;
                }
            break;
        }
        for (size_t j = i; j < stop; j++) {
            unsigned char ch = (unsigned char)text[j];
            if ((height > 0 && j - i >= width) || ch <= ' ' || ch >= 127) {
                *err = j;
                return KT_EPARSE;
            }
        }
        if (height > 0 && stop - i < width) {
            *err = stop;
            return KT_EPARSE;
        }
        if (stop - i > UINT32_MAX) return KT_ETOOBIG;
        width = stop - i;
        height++;
        i = end + 1;
    }
    if (height == 0) return KT_EPARSE; /* nothing but blank lines: at 1:1 */
    if (height > UINT32_MAX || (uint64_t)width * height > KTI_MAX_CELLS) return KT_ETOOBIG;
    *w = width;
    *h = height;
    return KT_OK;
}

kt_status kt_graph_parse_mask(kt_graph **out, const char *text, size_t len, uint32_t a,
                              uint32_t b, const kt_allocator *alloc, kt_diag *diag)
{
    kti_diag_clear(diag);
    if (out != NULL) *out = NULL;
    if (out == NULL || (text == NULL && len > 0)) return KT_EINVAL;
    if (alloc != NULL && (alloc->alloc == NULL || alloc->free == NULL)) return KT_EINVAL;
    size_t width = 0, height = 0, err = 0;
    kt_status st = mask_scan(text, len, &width, &height, &err);
    if (st == KT_EPARSE) kti_diag_at(diag, text, err);
    if (st != KT_OK) return st;

    const kt_allocator *al = kti_allocator_or_default(alloc);
    uint8_t *mask = kti_alloc(al, width * height);
    if (mask == NULL) return KT_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < len && k < width * height; i++) {
        char ch = text[i];
        if (ch == '\r' || ch == '\n') continue;
        mask[k++] = !(ch == '.' || ch == '#');
    }
    st = kt_graph_new_custom(out, (uint32_t)width, (uint32_t)height, a, b, mask, alloc);
    kti_free(al, mask);
    return st;
}

void kt_graph_free(kt_graph *g)
{
    if (g == NULL) return;
    unsigned before = atomic_fetch_sub_explicit(&g->refs, 1u, memory_order_acq_rel);
    KTI_ASSERT(before > 0); /* not freed more often than referenced */
    if (before != 1u) return;
    kt_allocator al = g->alloc;
    kti_free(&al, g->mask);
    kti_free(&al, g);
}

uint32_t kt_graph_width(const kt_graph *g) { return g ? g->width : 0; }
uint32_t kt_graph_height(const kt_graph *g) { return g ? g->height : 0; }
size_t kt_graph_cell_count(const kt_graph *g) { return g ? g->ncells : 0; }
size_t kt_graph_vertex_count(const kt_graph *g) { return g ? g->nverts : 0; }
uint64_t kt_graph_edge_count(const kt_graph *g) { return g ? g->nedges : 0; }
int kt_graph_has_holes(const kt_graph *g) { return g != NULL && g->mask != NULL; }

void kt_graph_leaper(const kt_graph *g, uint32_t *a, uint32_t *b)
{
    if (a) *a = g ? g->a : 0;
    if (b) *b = g ? g->b : 0;
}

int kt_graph_is_cell(const kt_graph *g, kt_cell cell)
{
    return g != NULL && kti_is_vertex(g, cell);
}

kt_cell kt_graph_cell(const kt_graph *g, uint32_t x, uint32_t y)
{
    if (g == NULL || x >= g->width || y >= g->height) return KT_CELL_NONE;
    return (kt_cell)((size_t)y * g->width + x);
}

kt_status kt_graph_coords(const kt_graph *g, kt_cell cell, uint32_t *x, uint32_t *y)
{
    if (g == NULL || cell >= g->ncells) return KT_EINVAL;
    if (x) *x = cell % g->width;
    if (y) *y = cell / g->width;
    return KT_OK;
}

int32_t kt_graph_move_dx(const kt_graph *g, int move)
{
    return (g && move >= 0 && move < 8) ? g->dx[move] : 0;
}

int32_t kt_graph_move_dy(const kt_graph *g, int move)
{
    return (g && move >= 0 && move < 8) ? g->dy[move] : 0;
}

kt_cell kt_graph_neighbor(const kt_graph *g, kt_cell cell, int move)
{
    if (g == NULL || move < 0 || move >= 8 || !kti_is_vertex(g, cell)) return KT_CELL_NONE;
    return kti_step(g, cell, move);
}

int kt_graph_move(const kt_graph *g, kt_cell from, kt_cell to)
{
    if (g == NULL || !kti_is_vertex(g, from) || !kti_is_vertex(g, to)) return KT_MOVE_NONE;
    int64_t dx = (int64_t)(to % g->width) - (int64_t)(from % g->width);
    int64_t dy = (int64_t)(to / g->width) - (int64_t)(from / g->width);
    for (int m = 0; m < 8; m++)
        if (g->dx[m] == dx && g->dy[m] == dy) return m;
    return KT_MOVE_NONE;
}

unsigned kt_graph_move_mask(const kt_graph *g, kt_cell cell)
{
    if (g == NULL || !kti_is_vertex(g, cell)) return 0;
    unsigned mask = 0;
    for (int m = 0; m < 8; m++)
        if (kti_step(g, cell, m) != KT_CELL_NONE) mask |= 1u << m;
    return mask;
}

unsigned kt_graph_degree(const kt_graph *g, kt_cell cell)
{
    unsigned mask = kt_graph_move_mask(g, cell);
    unsigned d = 0;
    for (; mask; mask &= mask - 1) d++;
    return d;
}

int kt_graph_equal(const kt_graph *g, const kt_graph *h)
{
    if (g == NULL || h == NULL) return 0;
    if (g == h) return 1;
    if (g->width != h->width || g->height != h->height || g->a != h->a || g->b != h->b) return 0;
    if ((g->mask == NULL) != (h->mask == NULL)) return 0;
    return g->mask == NULL || memcmp(g->mask, h->mask, g->ncells) == 0;
}

int kt_graph_board_has_closed_tour(uint32_t width, uint32_t height)
{
    uint32_t m = width < height ? width : height;
    uint32_t n = width < height ? height : width;
    if (m == 0) return 0;
    if (m == 1 && n == 1) return 1;
    if ((m & 1) && (n & 1)) return 0;
    if (m == 1 || m == 2 || m == 4) return 0;
    if (m == 3 && (n == 4 || n == 6 || n == 8)) return 0;
    return 1;
}

int kt_graph_board_has_open_tour(uint32_t width, uint32_t height)
{
    uint32_t m = width < height ? width : height;
    uint32_t n = width < height ? height : width;
    if (m == 0) return 0;
    if (m == 1) return n == 1;
    if (m == 2) return 0;
    if (m == 3) return n == 4 || n >= 7;
    if (m == 4) return n >= 5;
    return 1;
}

void kti_colour_counts(const kt_graph *g, size_t counts[2])
{
    counts[0] = counts[1] = 0;
    for (size_t c = 0; c < g->ncells; c++)
        if (kti_is_vertex(g, c)) counts[kti_colour(g, (kt_cell)c)]++;
    KTI_ASSERT(counts[0] + counts[1] == g->nverts);
}

/*
 * Whether the colouring rules out every tour at once.  A leaper whose legs
 * a + b are odd always moves to the other colour ((x + y) mod 2), so its
 * graph is bipartite: a closed tour alternates colours (the classes must be
 * equal), an open tour too (they differ by at most one; when they differ,
 * both ends are on the larger class, when equal, on different colours).
 * Ends a, b: KT_CELL_NONE when free.  Decided in one pass over the cells
 * instead of a frontier run (5x5 closed: microseconds instead of 0.1 ms);
 * the count (known_zero) and the sampler (KT_ENOTOUR) both ask it.
 */
bool kti_colour_excludes(const kt_graph *g, bool open, kt_cell a, kt_cell b)
{
    if (((g->a + g->b) & 1u) == 0 || g->nverts < 2) return false;
    size_t c[2];
    kti_colour_counts(g, c);
    unsigned big = c[1] > c[0];
    size_t d = big ? c[1] - c[0] : c[0] - c[1];
    if (!open) return d != 0;
    if (d > 1) return true;
    unsigned ca = a == KT_CELL_NONE ? 2u : kti_colour(g, a), cb = b == KT_CELL_NONE ? 2u : kti_colour(g, b);
    if (d == 1) return (ca != 2 && ca != big) || (cb != 2 && cb != big);
    return ca != 2 && ca == cb;
}
