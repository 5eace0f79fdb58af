#!/usr/bin/env bash
# CI stage: valgrind over the compiled unit tests (meson's "valgrind" test
# setup: memory errors and definite/indirect leaks fail; KT_TEST_LIGHT
# selects the quick subset of the slowest tests), then a ThreadSanitizer
# build (clang) over the threaded tests: count, halftour, semimagic.
# About 6 minutes on 2 cores.
set -uo pipefail
ROOT=${ROOT:-$(pwd)}
BUILD=${BUILD:-$ROOT/build-ci}
RESULTS=${RESULTS:-/dev/null}
VB=${BUILD}-valgrind
TB=${BUILD}-tsan
status=0
result() { # result NAME OK?
    if [ "$2" -eq 0 ]; then echo "PASS $1" >> "$RESULTS"; else echo "FAIL $1" >> "$RESULTS"; status=1; fi
}
if [ "$(id -u)" -eq 0 ] && ! command -v valgrind >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind clang libclang-rt-14-dev >/dev/null ||
        echo "apt-get install failed"
fi

# Valgrind: a plain optimised build with debug information.  Compiled
# unit tests only (valgrind on python3 or sh would test the interpreter).
# Left out: count, generate, rails and semimagic (10-25 s of native
# work each, far more under valgrind; they run under ASan+UBSan in
# .ci/run, and count and semimagic under TSan below); alloc-hook (its
# malloc interposer and valgrind's replace each other, as under ASan);
# cancel-latency (it measures milliseconds, which valgrind's 20-50x
# slowdown makes meaningless); alloc-inject and join-narrow (minutes under
# valgrind; both run under ASan+UBSan in .ci/run).
skip=" count generate rails semimagic alloc-hook function-length cancel-latency alloc-inject join-narrow "
rm -rf "$VB"
if meson setup "$VB" "$ROOT" --buildtype=debugoptimized >/dev/null && ninja -C "$VB" >/dev/null; then
    tests=$(meson test -C "$VB" --list --suite unit 2>/dev/null | sed -n 's/^libknight:unit \/ //p' |
            while read -r t; do case "$skip" in *" $t "*) ;; *) echo "$t" ;; esac; done)
    echo "valgrind over: $(echo $tests)"
    meson test -C "$VB" --setup valgrind --num-processes 2 --print-errorlogs $tests
    result sanitizers/valgrind $?
else
    result sanitizers/valgrind 1
fi

# ThreadSanitizer over the tests that run worker threads.
rm -rf "$TB"
if CC=clang meson setup "$TB" "$ROOT" -Db_sanitize=thread -Db_lundef=false --buildtype=debugoptimized \
       >/dev/null && ninja -C "$TB" tests/test_count tests/test_halftour tests/test_semimagic >/dev/null; then
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
        meson test -C "$TB" --no-rebuild --num-processes 2 --print-errorlogs count halftour semimagic
    result sanitizers/tsan $?
else
    result sanitizers/tsan 1
fi
exit $status
