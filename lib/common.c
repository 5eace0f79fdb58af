/* SPDX-License-Identifier: MIT */
/* Status strings, rule texts, 128-bit counts and version queries. */
#include "internal.h"
#include <knight/version.h>

#include <time.h>

static const char *const status_text[KT_STATUS_COUNT] = {
    [KT_OK] = "success",
    [KT_EINVAL] = "invalid argument",
    [KT_ENOMEM] = "out of memory",
    [KT_ETOOBIG] = "size too large",
    [KT_EPARSE] = "malformed input",
    [KT_EBADTOUR] = "not a valid tour or tourney",
    [KT_ENOTOUR] = "no such tour exists on this board",
    [KT_ENOTFOUND] = "search ended without a result",
    [KT_ECANCELED] = "canceled",
    [KT_EOVERFLOW] = "count overflows its integer type",
    [KT_EIO] = "input/output error",
    [KT_EUNSUPPORTED] = "not supported for this board or object",
    [KT_EMISMATCH] = "objects belong to different boards",
    [KT_ERANGE] = "output buffer too small",
    [KT_ETHREAD] = "cannot start a thread",
    [KT_ELIMIT] = "budget exhausted",
};

static const char *const status_names[KT_STATUS_COUNT] = {
    [KT_OK] = "KT_OK",
    [KT_EINVAL] = "KT_EINVAL",
    [KT_ENOMEM] = "KT_ENOMEM",
    [KT_ETOOBIG] = "KT_ETOOBIG",
    [KT_EPARSE] = "KT_EPARSE",
    [KT_EBADTOUR] = "KT_EBADTOUR",
    [KT_ENOTOUR] = "KT_ENOTOUR",
    [KT_ENOTFOUND] = "KT_ENOTFOUND",
    [KT_ECANCELED] = "KT_ECANCELED",
    [KT_EOVERFLOW] = "KT_EOVERFLOW",
    [KT_EIO] = "KT_EIO",
    [KT_EUNSUPPORTED] = "KT_EUNSUPPORTED",
    [KT_EMISMATCH] = "KT_EMISMATCH",
    [KT_ERANGE] = "KT_ERANGE",
    [KT_ETHREAD] = "KT_ETHREAD",
    [KT_ELIMIT] = "KT_ELIMIT",
};

const char *kt_strerror(kt_status status)
{
    unsigned s = (unsigned)status;
    return s < KT_STATUS_COUNT ? status_text[s] : "unknown status";
}

const char *kt_status_name(kt_status status)
{
    unsigned s = (unsigned)status;
    return s < KT_STATUS_COUNT ? status_names[s] : "KT_UNKNOWN";
}

int kt_is_error(kt_status status)
{
    return status != KT_OK;
}

unsigned kt_version(void)
{
    return KT_VERSION_NUMBER;
}

const char *kt_version_string(void)
{
    return KT_VERSION_STRING;
}

static const char *const rule_text[] = {
    [KT_RULE_NONE] = "no rule broken",
    [KT_RULE_NOT_A_CELL] = "not a cell of the board",
    [KT_RULE_NOT_A_MOVE] = "consecutive cells are not a move apart",
    [KT_RULE_REPEATED] = "cell visited more than once",
    [KT_RULE_MISSING] = "cell never visited",
    [KT_RULE_NOT_CLOSED] = "last cell is not a move away from the first",
    [KT_RULE_DEGREE] = "cell does not have two neighbours (one at a path end)",
    [KT_RULE_NOT_A_PATH] = "open tour is not a single path through every cell",
    [KT_RULE_HOLE] = "a hole is visited",
};

const char *kt_rule_describe(kt_rule rule)
{
    unsigned r = (unsigned)rule;
    return r < sizeof rule_text / sizeof rule_text[0] ? rule_text[r] : "unknown rule";
}


kt_status kt_u128_to_u64(const kt_u128 *v, uint64_t *out)
{
    if (v == NULL || out == NULL) return KT_EINVAL;
    if (v->hi != 0) return KT_EOVERFLOW;
    *out = v->lo;
    return KT_OK;
}

kt_status kt_u128_to_string(const kt_u128 *v, char *buf, size_t size)
{
    if (v == NULL || buf == NULL) return KT_EINVAL;
    char tmp[48];
    size_t n = 0;
    kti_u128 x = (kti_u128)v->hi << 64 | v->lo;
    do {
        tmp[n++] = (char)('0' + (int)(x % 10));
        x /= 10;
    } while (x != 0);
    if (size < n + 1) {
        if (size > 0) buf[0] = '\0';
        return KT_ERANGE;
    }
    for (size_t i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
    return KT_OK;
}
