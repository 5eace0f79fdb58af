/* SPDX-License-Identifier: MIT */
/* The semimagic options handle (constraints and the reporting mode) and
 * the getters of a reported solution.  The run settings (threads,
 * progress, shards, budget) are not here: they come with each call's
 * kt_options. */
#include "semimagic_internal.h"

/* Whether the lines of k cells of a board of N cells have an integer
 * target k(N+1)/2. */
static bool sm_integral(uint32_t k, uint32_t N)
{
    return (k * (N + 1)) % 2 == 0;
}

/* A new handle for a w x h board; sides below lo or above 16 are refused. */
static kt_status sm_opts_alloc(kt_semimagic_opts **out, uint32_t w, uint32_t h, uint32_t lo,
                               const kt_allocator *alloc)
{
    if (out == NULL) return KT_EINVAL;
    *out = NULL;
    if (alloc != NULL && (alloc->alloc == NULL || alloc->free == NULL)) return KT_EINVAL;
    if (w < lo || h < lo || w > KTI_SM_MAXS || h > KTI_SM_MAXS) return KT_EUNSUPPORTED;
    kt_allocator al = *kti_allocator_or_default(alloc);
    kt_semimagic_opts *o = kti_alloc(&al, sizeof *o);
    if (o == NULL) return KT_ENOMEM;
    memset(o, 0, sizeof *o);
    o->al = al;
    o->n = w == h ? w : 0;
    o->w = w;
    o->h = h;
    uint32_t N = w * h;
    bool rows = sm_integral(w, N), cols = sm_integral(h, N);
    o->flags = rows && cols ? KT_SEMIMAGIC_LINES : rows ? KT_SEMIMAGIC_ROWS : cols ? KT_SEMIMAGIC_COLUMNS : 0;
    o->sym = KT_SEMIMAGIC_CLASSES;
    *out = o;
    return KT_OK;
}

kt_status kt_semimagic_opts_new(kt_semimagic_opts **out, uint32_t n, const kt_allocator *alloc)
{
    return sm_opts_alloc(out, n, n, 3, alloc);
}

kt_status kt_semimagic_opts_new_rect(kt_semimagic_opts **out, uint32_t width, uint32_t height,
                                     const kt_allocator *alloc)
{
    return sm_opts_alloc(out, width, height, 1, alloc);
}

uint32_t kt_semimagic_opts_width(const kt_semimagic_opts *o)
{
    return o ? o->w : 0;
}

uint32_t kt_semimagic_opts_height(const kt_semimagic_opts *o)
{
    return o ? o->h : 0;
}

void kt_semimagic_opts_free(kt_semimagic_opts *o)
{
    if (o == NULL) return;
    kt_allocator al = o->al;
    kti_free(&al, o);
}

uint32_t kt_semimagic_opts_size(const kt_semimagic_opts *o)
{
    return o ? o->n : 0;
}

kt_status kt_semimagic_opts_set_flags(kt_semimagic_opts *o, unsigned flags)
{
    if (o == NULL) return KT_EINVAL;
    if (flags & ~(unsigned)(KT_SEMIMAGIC_LINES | KT_SEMIMAGIC_NESTED | KT_SEMIMAGIC_MAGIC | KT_SEMIMAGIC_CLOSED |
                            KT_SEMIMAGIC_ROWS | KT_SEMIMAGIC_COLUMNS | KT_SEMIMAGIC_HALFTURN))
        return KT_EINVAL;
    if (flags & KT_SEMIMAGIC_HALFTURN) flags |= KT_SEMIMAGIC_CLOSED;
    if ((flags & KT_SEMIMAGIC_NESTED) && (o->n == 0 || o->n % 4 != 0)) return KT_EUNSUPPORTED;
    if ((flags & KT_SEMIMAGIC_MAGIC) && o->n == 0) return KT_EUNSUPPORTED;
    if (flags & (KT_SEMIMAGIC_NESTED | KT_SEMIMAGIC_MAGIC)) flags |= KT_SEMIMAGIC_LINES;
    /* Rows and columns both, as one flag. */
    if ((flags & KT_SEMIMAGIC_ROWS) && (flags & KT_SEMIMAGIC_COLUMNS))
        flags = (flags & ~(unsigned)(KT_SEMIMAGIC_ROWS | KT_SEMIMAGIC_COLUMNS)) | KT_SEMIMAGIC_LINES;
    if (flags & KT_SEMIMAGIC_LINES) flags &= ~(unsigned)(KT_SEMIMAGIC_ROWS | KT_SEMIMAGIC_COLUMNS);
    uint32_t N = o->w * o->h;
    bool rows = flags & (KT_SEMIMAGIC_LINES | KT_SEMIMAGIC_ROWS);
    bool cols = flags & (KT_SEMIMAGIC_LINES | KT_SEMIMAGIC_COLUMNS);
    if ((rows && !sm_integral(o->w, N)) || (cols && !sm_integral(o->h, N))) return KT_EUNSUPPORTED;
    o->flags = flags;
    return KT_OK;
}

unsigned kt_semimagic_opts_flags(const kt_semimagic_opts *o)
{
    return o ? o->flags : 0;
}

static kt_status sm_cells_mask(const kt_semimagic_opts *o, const kt_cell *cells, size_t count,
                               kti_sm_wset *out)
{
    if (o == NULL || (cells == NULL && count > 0)) return KT_EINVAL;
    kti_sm_wset m;
    memset(&m, 0, sizeof m);
    for (size_t i = 0; i < count; i++) {
        if (cells[i] >= o->w * o->h) return KT_EINVAL;
        kti_sm_w_add(&m, (int)cells[i]);
    }
    *out = m;
    return KT_OK;
}

kt_status kt_semimagic_opts_set_start_cells(kt_semimagic_opts *o, const kt_cell *cells,
                                            size_t count)
{
    kti_sm_wset m;
    kt_status st = sm_cells_mask(o, cells, count, &m);
    if (st == KT_OK) o->startm = m;
    return st;
}

kt_status kt_semimagic_opts_set_end_cells(kt_semimagic_opts *o, const kt_cell *cells, size_t count)
{
    kti_sm_wset m;
    kt_status st = sm_cells_mask(o, cells, count, &m);
    if (st == KT_OK) o->endm = m;
    return st;
}

static kt_status sm_column_mask(const kt_semimagic_opts *o, uint32_t x, kti_sm_wset *out)
{
    if (o == NULL) return KT_EINVAL;
    memset(out, 0, sizeof *out);
    if (x == KT_SEMIMAGIC_ANY) return KT_OK;
    if (x >= o->w) return KT_EINVAL;
    for (uint32_t y = 0; y < o->h; y++) kti_sm_w_add(out, (int)(y * o->w + x));
    return KT_OK;
}

kt_status kt_semimagic_opts_set_start_column(kt_semimagic_opts *o, uint32_t x)
{
    kti_sm_wset m;
    kt_status st = sm_column_mask(o, x, &m);
    if (st == KT_OK) o->startm = m;
    return st;
}

kt_status kt_semimagic_opts_set_end_column(kt_semimagic_opts *o, uint32_t x)
{
    kti_sm_wset m;
    kt_status st = sm_column_mask(o, x, &m);
    if (st == KT_OK) o->endm = m;
    return st;
}

kt_status kt_semimagic_opts_set_puzzle_rule(kt_semimagic_opts *o)
{
    if (o == NULL) return KT_EINVAL;
    kt_status st = kt_semimagic_opts_set_start_column(o, 0);
    if (st == KT_OK) st = kt_semimagic_opts_set_end_column(o, o->w - 1);
    return st;
}

kt_status kt_semimagic_opts_set_grid(kt_semimagic_opts *o, const uint32_t *numbers, size_t count)
{
    if (o == NULL) return KT_EINVAL;
    size_t N = (size_t)o->w * o->h;
    if (numbers == NULL) {
        if (count != 0) return KT_EINVAL;
        memset(o->given, 0, sizeof o->given);
        return KT_OK;
    }
    if (count != N) return KT_EINVAL;
    kti_sm_wset seen;
    memset(&seen, 0, sizeof seen);
    for (size_t i = 0; i < N; i++) {
        uint32_t k = numbers[i];
        if (k == 0) continue;
        if (k > N) return KT_EINVAL;
        if (kti_sm_w_has(&seen, (int)k - 1)) return KT_EINVAL;
        kti_sm_w_add(&seen, (int)k - 1);
    }
    memset(o->given, 0, sizeof o->given);
    for (size_t i = 0; i < N; i++) o->given[i] = (uint16_t)numbers[i];
    return KT_OK;
}

kt_status kt_semimagic_opts_set_symmetry(kt_semimagic_opts *o, kt_semimagic_symmetry mode)
{
    if (o == NULL) return KT_EINVAL;
    if (mode != KT_SEMIMAGIC_CLASSES && mode != KT_SEMIMAGIC_MEMBERS && mode != KT_SEMIMAGIC_ALL) return KT_EINVAL;
    o->sym = mode;
    return KT_OK;
}

/* Solution getters: NULL-safe, so a binding or a careless caller cannot
 * crash on them; the "none" values match an empty solution. */
const uint32_t *kt_semimagic_solution_numbers(const kt_semimagic_solution *s)
{
    return s != NULL ? s->num : NULL;
}

uint32_t kt_semimagic_solution_size(const kt_semimagic_solution *s)
{
    return s != NULL ? s->n : 0;
}

uint32_t kt_semimagic_solution_width(const kt_semimagic_solution *s)
{
    return s != NULL ? s->w : 0;
}

uint32_t kt_semimagic_solution_height(const kt_semimagic_solution *s)
{
    return s != NULL ? s->h : 0;
}

uint64_t kt_semimagic_solution_class(const kt_semimagic_solution *s)
{
    return s != NULL ? s->cls : KT_SEMIMAGIC_NO_CLASS;
}

uint32_t kt_semimagic_solution_class_size(const kt_semimagic_solution *s)
{
    return s != NULL ? s->size : 0;
}

uint32_t kt_semimagic_solution_member(const kt_semimagic_solution *s)
{
    return s != NULL ? s->member : 0;
}

int kt_semimagic_solution_satisfies(const kt_semimagic_solution *s)
{
    return s != NULL ? s->sat : 0;
}

uint32_t kt_semimagic_solution_class_satisfying(const kt_semimagic_solution *s)
{
    return s != NULL ? s->nsat : 0;
}

uint64_t kt_semimagic_solution_reverse_class(const kt_semimagic_solution *s)
{
    return s != NULL ? s->rev : KT_SEMIMAGIC_NO_CLASS;
}

int kt_semimagic_solution_reverse_satisfies(const kt_semimagic_solution *s)
{
    return s != NULL ? s->revsat : 0;
}
