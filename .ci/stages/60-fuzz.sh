#!/usr/bin/env bash
# CI stage: libFuzzer.  Builds every fuzz target with clang -Dfuzz=true
# (ASan+UBSan), runs them side by side, each from its committed corpus for
# FUZZ_SECONDS (75 s by default; the corpus is copied, never modified),
# then builds the library and the checkpoint target under MemorySanitizer
# and replays the checkpoint damage test and corpus.  About 3 minutes on 2
# cores.
set -uo pipefail
ROOT=${ROOT:-$(pwd)}
BUILD=${BUILD:-$ROOT/build-ci}
RESULTS=${RESULTS:-/dev/null}
SECS=${FUZZ_SECONDS:-75}
FB=${BUILD}-fuzz
MB=${BUILD}-msan
status=0
result() { # result NAME OK?
    if [ "$2" -eq 0 ]; then echo "PASS $1" >> "$RESULTS"; else echo "FAIL $1" >> "$RESULTS"; status=1; fi
}
if [ "$(id -u)" -eq 0 ] && ! dpkg -s libclang-rt-14-dev >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-14-dev >/dev/null ||
        echo "apt-get install failed"
fi

targets="fuzz_parse fuzz_checkpoint fuzz_api"
rm -rf "$FB"
if CC=clang meson setup "$FB" "$ROOT" -Dfuzz=true --buildtype=debugoptimized >/dev/null &&
   ninja -C "$FB" $(for t in $targets; do echo "tests/${t}_libfuzzer"; done); then
    result fuzz/build 0
else
    result fuzz/build 1
    exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ktfuzz.XXXXXX")
# The targets run side by side: one at a time left a core idle for 3
# minutes, the longest wait of the stage.  Three on two cores, each gets
# about two thirds of a core for its SECS.
for t in $targets; do
    mkdir -p "$work/$t/corpus" "$work/$t/crashes"
    case $t in
        fuzz_parse) cp "$ROOT"/tests/corpus/*.* "$work/$t/corpus/" ;;
        *) cp "$ROOT/tests/corpus/$t/"* "$work/$t/corpus/" ;;
    esac
    echo "== $t: ${SECS} s"
    (cd "$work/$t" && "$FB/tests/${t}_libfuzzer" -max_total_time="$SECS" -timeout=20 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=crashes/ corpus > log 2>&1
     echo $? > rc) &
done
wait
for t in $targets; do
    rc=$(cat "$work/$t/rc" 2>/dev/null || echo 1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t/log")
    echo "$t: exit $rc, ${execs:-?} executions, corpus $(ls "$work/$t/corpus" | wc -l) files"
    if [ "$rc" -ne 0 ]; then
        grep -A30 "==ERROR\|runtime error\|deadly signal" "$work/$t/log" | head -60
        ls "$work/$t/crashes"
    fi
    result "fuzz/$t" "$rc"
done
rm -rf "$work"

# MemorySanitizer: everything instrumented (the library has no
# dependencies); the plain checkpoint test: every bit flip and truncation
# of real checkpoints, then the corpus.
rm -rf "$MB"
if CC=clang meson setup "$MB" "$ROOT" -Db_sanitize=memory -Db_lundef=false --buildtype=debug \
       -Dc_args=-fsanitize-memory-track-origins >/dev/null && ninja -C "$MB" tests/fuzz_checkpoint; then
    (cd "$MB/tests" && ./fuzz_checkpoint "$ROOT/tests/corpus/fuzz_checkpoint" | tail -n 1)
    result fuzz/msan-checkpoint $?
else
    result fuzz/msan-checkpoint 1
fi
exit $status
