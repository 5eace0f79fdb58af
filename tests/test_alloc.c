/* SPDX-License-Identifier: MIT */
/*
 * Every allocation of the library goes through the caller's allocator.
 *
 * Two witnesses watch a representative call of every module:
 * - a counting allocator, given to the graphs and to the kt_options of the
 *   graph-less calls: it must see allocations (so the hook is really used)
 *   and as many frees as allocations when the objects are gone (no leak);
 * - an interposer of malloc, calloc, realloc, aligned_alloc, posix_memalign,
 *   strdup and strndup in this executable: the dynamic linker binds the
 *   library's calls to these, and any call whose return address lies in
 *   libknight's code is an allocation behind the hook.
 * Thread stacks (pthread_create maps them) and stdio's buffers are made by
 * the C library itself, so their allocations return into libc, not into
 * libknight, and are the documented exceptions (doc/conventions.md).
 *
 * Built only without sanitizers: ASan and MSan interpose malloc themselves.
 */
#define _GNU_SOURCE 1
#include <knight/knight.h>

#include "check.h"

#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/* ---- the interposer ---- */

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *p);

static uintptr_t lib_lo, lib_hi; /* libknight's executable segments */
static atomic_ulong behind_hook;

static void note(const void *ret)
{
    uintptr_t a = (uintptr_t)ret;
    if (a >= lib_lo && a < lib_hi) atomic_fetch_add(&behind_hook, 1);
}

void *malloc(size_t size)
{
    note(__builtin_return_address(0));
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    note(__builtin_return_address(0));
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    note(__builtin_return_address(0));
    return __libc_realloc(p, size);
}

void free(void *p)
{
    __libc_free(p);
}

void *aligned_alloc(size_t align, size_t size)
{
    note(__builtin_return_address(0));
    return __libc_memalign(align, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
    note(__builtin_return_address(0));
    void *p = __libc_memalign(align, size);
    if (p == NULL) return 12; /* ENOMEM */
    *out = p;
    return 0;
}

char *strdup(const char *s)
{
    note(__builtin_return_address(0));
    size_t n = strlen(s) + 1;
    char *p = __libc_malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

char *strndup(const char *s, size_t max)
{
    note(__builtin_return_address(0));
    size_t n = strnlen(s, max);
    char *p = __libc_malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

static int find_segments(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *base = data;
    if (info->dlpi_name == NULL || strcmp(info->dlpi_name, base) != 0) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (lib_lo == 0 || lo < lib_lo) lib_lo = lo;
        if (hi > lib_hi) lib_hi = hi;
    }
    return 1;
}

/* ---- the counting allocator ---- */

typedef struct counter {
    atomic_ulong allocs, frees;
} counter;

static void *count_alloc(void *opaque, size_t size)
{
    counter *c = opaque;
    atomic_fetch_add(&c->allocs, 1);
    return __libc_malloc(size);
}

static void count_free(void *opaque, void *p)
{
    counter *c = opaque;
    atomic_fetch_add(&c->frees, 1);
    __libc_free(p);
}

/* One module's calls: run() between a fresh counter and the check. */
static void watch(const char *what, void (*run)(const kt_allocator *al))
{
    counter c;
    atomic_init(&c.allocs, 0);
    atomic_init(&c.frees, 0);
    kt_allocator al = {count_alloc, count_free, &c};
    unsigned long before = atomic_load(&behind_hook);
    run(&al);
    unsigned long behind = atomic_load(&behind_hook) - before;
    unsigned long a = atomic_load(&c.allocs), f = atomic_load(&c.frees);
    printf("%-12s %6lu allocations through the hook, %lu frees, %lu behind it\n", what, a, f, behind);
    CHECK(a > 0);
    CHECK_EQ_U64(a, f);
    CHECK_EQ_U64(behind, 0);
}

static kt_options *opts(const kt_allocator *al, unsigned threads)
{
    kt_options *o = NULL;
    CHECK_ST(kt_options_new(&o, al), KT_OK);
    CHECK_ST(kt_options_set_threads(o, threads), KT_OK);
    return o;
}

/* ---- the modules ---- */

static int sink(void *user, const char *data, size_t len)
{
    (void)data;
    *(size_t *)user += len;
    return 0;
}

static void run_core(const kt_allocator *al)
{
    kt_graph *g = NULL, *m = NULL;
    kt_tourney *t = NULL, *u = NULL, *c = NULL;
    kt_diag d;
    CHECK_ST(kt_graph_new_custom(&g, 8, 8, 2, 1, NULL, al), KT_OK);
    const char *pad = "ABCDE\nFGHIJ\nKLMNO\n.123.\n";
    CHECK_ST(kt_graph_parse_mask(&m, pad, strlen(pad), 2, 1, al, &d), KT_OK);
    uint64_t total = 0;
    CHECK_ST(kt_walks_count(m, 10, NULL, 0, NULL, NULL, 0, &total), KT_OK);
    CHECK_ST(kt_generate_closed_tour(&t, g, 3, NULL), KT_OK);
    char buf[4096];
    size_t len = 0, wrote = 0;
    CHECK_ST(kt_io_write_buffer(t, KT_IO_NUMBERS, 0, KT_CELL_NONE, buf, sizeof buf, &len), KT_OK);
    CHECK_ST(kt_io_parse(&u, g, buf, len, KT_IO_AUTO, 0, NULL, &d), KT_OK);
    CHECK(kt_tourney_equal(t, u) == 1);
    CHECK_ST(kt_io_write(t, KT_IO_SVG, KT_IO_WRITE_SVG_NUMBERS, KT_CELL_NONE, sink, &wrote), KT_OK);
    CHECK_ST(kt_io_write(t, KT_IO_MOVES, 0, KT_CELL_NONE, sink, &wrote), KT_OK);
    CHECK_ST(kt_tourney_copy(&c, t), KT_OK);
    kt_stats *s = NULL;
    CHECK_ST(kt_stats_new(&s, al), KT_OK);
    CHECK_ST(kt_stats_add(s, t), KT_OK);
    CHECK_ST(kt_stats_add(s, c), KT_OK);
    double mean[8], sd[8];
    CHECK_ST(kt_stats_moves(s, mean, sd), KT_OK);
    kt_stats_free(s);
    kt_tourney_free(c);
    kt_tourney_free(u);
    kt_tourney_free(t);
    kt_graph_free(m);
    kt_graph_free(g);
}

static void run_generate(const kt_allocator *al)
{
    kt_graph *g = NULL, *s = NULL;
    kt_options *run = opts(al, 1);
    CHECK_ST(kt_graph_new_custom(&g, 16, 16, 2, 1, NULL, al), KT_OK);
    CHECK_ST(kt_graph_new_custom(&s, 5, 5, 2, 1, NULL, al), KT_OK);
    for (int k = 0; k < 8; k++) {
        kt_tourney *t = NULL;
        kt_status st;
        switch (k) {
        case 0: st = kt_generate_closed_tour(&t, g, 1, run); break;
        case 1: st = kt_generate_open_tour(&t, s, 0, KT_CELL_NONE, 1, run); break;
        case 2: st = kt_generate_divide_tour(&t, g, 1, run); break;
        case 3: st = kt_generate_warnsdorff_tour(&t, g, KT_SHAPE_PATH, 0, KT_GENERATE_TIE_ROTH, 1, run); break;
        case 4: st = kt_exhaustive_tour(&t, s, KT_SHAPE_PATH, 0, KT_CELL_NONE, run); break;
        default: st = kt_generate_tourney(&t, g, (kt_generate_method)(k - 5), 1, run); break;
        }
        CHECK_ST(st, KT_OK);
        kt_tourney_free(t);
    }
    for (int m = 3; m < KT_GENERATE_METHOD_COUNT; m++) {
        kt_tourney *t = NULL;
        CHECK_ST(kt_generate_tourney(&t, g, (kt_generate_method)m, 2, run), KT_OK);
        kt_tourney_free(t);
    }
    kt_options_free(run);
    kt_graph_free(s);
    kt_graph_free(g);
}

static void run_rails(const kt_allocator *al)
{
    kt_graph *g = NULL, *small = NULL;
    kt_tourney *t = NULL, *v = NULL;
    kt_options *run = opts(al, 1);
    CHECK_ST(kt_graph_new_custom(&g, 12, 12, 2, 1, NULL, al), KT_OK);
    CHECK_ST(kt_generate_tourney(&t, g, KT_GENERATE_WARNSDORFF, 5, run), KT_OK);
    kt_rails *r = NULL;
    CHECK_ST(kt_rails_new(&r, t), KT_OK);
    size_t edges = 0, comps = 0;
    CHECK_ST(kt_rails_graph(r, &edges, &comps), KT_OK);
    kt_rails_free(r);
    CHECK_ST(kt_rails_join(t, 1, run), KT_OK);
    CHECK_ST(kt_rails_shatter(t, 2), KT_OK);
    CHECK_ST(kt_rails_shatter_sequential(t, 3), KT_OK);
    CHECK_ST(kt_rails_obfuscate(t, 4, 4, run), KT_OK);
    CHECK(kt_tourney_is_closed_tour(t) == 1);
    /* Small boards are joined by exact search. */
    CHECK_ST(kt_graph_new_custom(&small, 6, 6, 2, 1, NULL, al), KT_OK);
    CHECK_ST(kt_generate_tourney(&v, small, KT_GENERATE_WARNSDORFF, 7, run), KT_OK);
    CHECK_ST(kt_rails_join(v, 1, run), KT_OK);
    kt_tourney_free(v);
    kt_tourney_free(t);
    kt_options_free(run);
    kt_graph_free(small);
    kt_graph_free(g);
}

static void run_count(const kt_allocator *al)
{
    kt_graph *g = NULL;
    kt_options *run = opts(al, 2);
    char path[64];
    snprintf(path, sizeof path, "/tmp/knight-alloc-%ld.ckpt", (long)getpid());
    CHECK_ST(kt_options_set_checkpoint(run, path, 0), KT_OK);
    CHECK_ST(kt_graph_new_custom(&g, 6, 5, 2, 1, NULL, al), KT_OK);
    kt_u128 v = {0, 0};
    CHECK_ST(kt_count_tours(g, 0, run, &v, NULL), KT_OK);
    CHECK_EQ_U64(v.lo, 8); /* 5x6: 8 closed tours */
    /* The finished checkpoint answers the same call again. */
    CHECK_ST(kt_count_tours(g, 0, run, &v, NULL), KT_OK);
    CHECK_EQ_U64(v.lo, 8);
    unlink(path);
    CHECK_ST(kt_count_tours(g, KT_COUNT_CLASSES, NULL, &v, NULL), KT_OK);
    kt_options_free(run);
    kt_graph_free(g);
    /* A board the count hands to half-tours: their calls allocate through
     * run settings, which must carry the graph's allocator. */
    CHECK_ST(kt_graph_new_custom(&g, 6, 7, 2, 1, NULL, al), KT_OK);
    CHECK_ST(kt_count_tours(g, 0, NULL, &v, NULL), KT_OK);
    CHECK_EQ_U64(v.lo, 1067638);
    kt_graph_free(g);
}

static void run_halftour(const kt_allocator *al)
{
    kt_options *run = opts(al, 2);
    kt_u128 v = {0, 0};
    CHECK_ST(kt_halftours_count_closed(6, 6, 3, run, &v), KT_OK);
    CHECK_EQ_U64(v.lo, 9862);
    kt_halftours *h = NULL;
    CHECK_ST(kt_halftours_enumerate(&h, 6, 3, 3, run), KT_OK);
    CHECK_ST(kt_halftours_join(h, h, run, &v), KT_OK);
    CHECK_EQ_U64(v.lo, 9862);
    kt_halftours_free(h);
    kt_options_free(run);
}

static int count_sol(void *user, const kt_semimagic_solution *s)
{
    (void)s;
    ++*(uint64_t *)user;
    return 0;
}

static void run_semimagic(const kt_allocator *al)
{
    kt_semimagic_opts *o = NULL;
    kt_options *run = opts(al, 2);
    CHECK_ST(kt_semimagic_opts_new(&o, 5, al), KT_OK);
    CHECK_ST(kt_semimagic_opts_set_flags(o, 0), KT_OK);
    CHECK_ST(kt_semimagic_opts_set_symmetry(o, KT_SEMIMAGIC_ALL), KT_OK);
    uint64_t classes = 0, sols = 0, seen = 0;
    CHECK_ST(kt_semimagic_search(o, run, count_sol, &seen, &classes, &sols), KT_OK);
    CHECK_EQ_U64(sols, 1728); /* 5x5: 1728 directed open tours */
    CHECK_EQ_U64(seen, 1728);
    kt_semimagic_opts_free(o);
    kt_options_free(run);
}

int main(void)
{
    Dl_info info;
    if (dladdr((const void *)(uintptr_t)&kt_strerror, &info) == 0 || info.dli_fname == NULL) {
        fprintf(stderr, "cannot locate libknight\n");
        return 1;
    }
    dl_iterate_phdr(find_segments, (void *)info.dli_fname);
    CHECK(lib_lo != 0 && lib_hi > lib_lo);
    /* Positive control: without an allocator the library's default one
     * calls malloc from libknight's code, which the interposer must see. */
    unsigned long before = atomic_load(&behind_hook);
    kt_graph *g = NULL;
    CHECK_ST(kt_graph_new(&g, 8, 8), KT_OK);
    kt_graph_free(g);
    CHECK(atomic_load(&behind_hook) > before);
    watch("core", run_core);
    watch("generate", run_generate);
    watch("rails", run_rails);
    watch("count", run_count);
    watch("halftour", run_halftour);
    watch("semimagic", run_semimagic);
    return check_failures != 0;
}
