/* SPDX-License-Identifier: MIT */
/*
 * The JavaScript package's glue, linked into the WebAssembly module only
 * (not part of libknight's ABI).  C progress callbacks cannot be JavaScript
 * functions without a growable function table, so every kt_options made
 * here reports through one import, ktjs_progress, with a number that the
 * JavaScript side maps to the caller's callback.
 */
#include <knight/knight.h>

#include <emscripten.h>
#include <stdint.h>

/* Returns non-zero to cancel.  The JavaScript side looks the id up. */
EM_JS(int, ktjs_progress, (int id, double done, double total), {
    return Module["ktjsProgress"](id, done, total);
});

static int progress_trampoline(void *user, uint64_t done, uint64_t total)
{
    return ktjs_progress((int)(intptr_t)user, (double)done, (double)total);
}

/* Run settings for one call: shares (threads; without threads in wasm they
 * run one after the other on this thread), progress id (0: none) and
 * budget (0: none).  NULL when the settings cannot be made. */
EMSCRIPTEN_KEEPALIVE kt_options *ktjs_run_new(unsigned threads, int progress_id, double budget)
{
    kt_options *o = NULL;
    if (kt_options_new(&o, NULL) != KT_OK) return NULL;
    kt_status st = kt_options_set_threads(o, threads);
    if (st == KT_OK && progress_id != 0)
        st = kt_options_set_progress(o, progress_trampoline, (void *)(intptr_t)progress_id);
    if (st == KT_OK && budget > 0) st = kt_options_set_budget(o, (uint64_t)budget);
    if (st != KT_OK) {
        kt_options_free(o);
        return NULL;
    }
    return o;
}
