/* SPDX-License-Identifier: MIT */
/*
 * Checkpoints of a semimagic search: after a finished work unit the
 * deliverer may save how many units of this shard are delivered and the
 * counts so far; a later call with the same constraints, shard and file
 * resumes after them.  The file is a few text lines ("key value"), written
 * to PATH.tmp and renamed over PATH so that a crash leaves the old one.
 * The key hashes everything that decides the units and their order, so a
 * file from another search is refused rather than misread.
 */
#include "semimagic_internal.h"

#include <stdio.h>

#define SM_CK_MAGIC "knight-semimagic-checkpoint 1"

uint64_t kti_sm_ck_key(const kt_semimagic_opts *o, kt_semimagic_symmetry sym, uint32_t shard,
                       uint32_t nshards, size_t units)
{
    uint64_t h = kti_mix64(o->w * 131u + o->h);
    uint64_t v[7] = {o->flags, o->startm.w[0], o->endm.w[0], (uint64_t)sym, shard, nshards, units};
    for (int i = 0; i < 7; i++) h = kti_mix64(h ^ v[i]);
    /* The cells past 64, on the larger boards only (the keys of the
     * smaller ones stay what they were). */
    for (int i = 1; i < KTI_SM_WORDS && o->w * o->h > 64; i++) h = kti_mix64(h ^ o->startm.w[i] ^ kti_mix64(o->endm.w[i]));
    for (uint32_t p = 0; p < o->w * o->h; p++) h = kti_mix64(h ^ ((uint64_t)o->given[p] << 8 | p));
    return h;
}

kt_status kti_sm_ck_save(const char *path, const kt_allocator *al, const kti_sm_ck *ck)
{
    char *tmp = kti_strcat2(al, path, ".tmp");
    if (tmp == NULL) return KT_ENOMEM;
    FILE *f = fopen(tmp, "w");
    bool ok = f != NULL;
    if (ok) {
        ok = fprintf(f, "%s\nkey %llu\ndelivered %llu\nclasses %llu\nsolutions %llu\n", SM_CK_MAGIC,
                     (unsigned long long)ck->key, (unsigned long long)ck->delivered,
                     (unsigned long long)ck->classes, (unsigned long long)ck->solutions) > 0;
        ok = fclose(f) == 0 && ok;
    }
    if (ok && rename(tmp, path) != 0) ok = false;
    if (!ok) remove(tmp);
    kti_free(al, tmp);
    return ok ? KT_OK : KT_EIO;
}

kt_status kti_sm_ck_load(const char *path, uint64_t key, kti_sm_ck *ck)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) return KT_ENOTFOUND;
    char magic[64] = {0};
    unsigned long long k = 0, d = 0, c = 0, s = 0;
    bool ok = fgets(magic, sizeof magic, f) != NULL && strncmp(magic, SM_CK_MAGIC "\n", sizeof magic) == 0 &&
              fscanf(f, "key %llu delivered %llu classes %llu solutions %llu", &k, &d, &c, &s) == 4;
    fclose(f);
    if (!ok) return KT_EIO;
    if (k != key) return KT_EMISMATCH;
    ck->key = k;
    ck->delivered = d;
    ck->classes = c;
    ck->solutions = s;
    return KT_OK;
}
