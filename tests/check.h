/* SPDX-License-Identifier: MIT */
/* Minimal assertion helpers for libknight's tests: each failed check is
 * printed with its location, and the test exits non-zero at the end. */
#ifndef KNIGHT_TEST_CHECK_H
#define KNIGHT_TEST_CHECK_H

#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>

static int check_failures;

#define CHECK(cond)                                                                         \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);       \
            check_failures++;                                                               \
        }                                                                                   \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                                  \
    do {                                                                                    \
        unsigned long long va_ = (unsigned long long)(a), vb_ = (unsigned long long)(b);    \
        if (va_ != vb_) {                                                                   \
            fprintf(stderr, "%s:%d: %s == %llu, expected %s == %llu\n", __FILE__, __LINE__, \
                    #a, va_, #b, vb_);                                                      \
            check_failures++;                                                               \
        }                                                                                   \
    } while (0)

#define CHECK_ST(expr, want)                                                                \
    do {                                                                                    \
        kt_status got_ = (expr);                                                            \
        if (got_ != (want)) {                                                               \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__,     \
                    #expr, kt_status_name(got_), kt_status_name(want));                     \
            check_failures++;                                                               \
        }                                                                                   \
    } while (0)

#define CHECK_OK(expr) CHECK_ST(expr, KT_OK)

static inline int check_done(const char *name)
{
    if (check_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, check_failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

#endif
