#!/bin/bash
# CI stage: the knight CLI's documentation.  Installs man-db (so that the
# cli-man test renders knight(1) instead of skipping), runs the cli suite,
# and checks that an install puts knight(1) and the bash completion in place
# and that the installed completion works in bash.
set -u
ROOT=${ROOT:-$(pwd)} BUILD=${BUILD:-$ROOT/build-ci} RESULTS=${RESULTS:-/dev/null}
if ! command -v man >/dev/null 2>&1; then
    apt-get install -y -qq man-db >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq man-db >/dev/null 2>&1; }
fi
result() { if [ "$2" -eq 0 ]; then echo "PASS $1" >> "$RESULTS"; else echo "FAIL $1" >> "$RESULTS"; fi; }
rc=0
command -v man >/dev/null 2>&1 || { echo "man-db could not be installed"; rc=1; }
timeout 300 meson test -C "$BUILD" --suite cli --print-errorlogs
t=$?
result cli-suite $t
[ $t -eq 0 ] || rc=1
# Nothing may be skipped here: man and bash are present.
if grep -q '"result": "SKIP"' "$BUILD/meson-logs/testlog.json" 2>/dev/null; then
    echo "a cli test was skipped"; result cli-no-skip 1; rc=1
fi
prefix=$(mktemp -d)
if meson install -C "$BUILD" --destdir "$prefix" >/dev/null 2>&1; then
    man1=$(find "$prefix" -path '*share/man/man1/knight.1' | head -n 1)
    comp=$(find "$prefix" -path '*share/bash-completion/completions/knight' | head -n 1)
    t=0
    [ -n "$man1" ] && MANPAGER=cat man -l "$man1" | grep -q "EXIT STATUS" || { echo "knight.1 not installed"; t=1; }
    [ -n "$comp" ] && bash -c '. "$1"; COMP_WORDS=(knight co); COMP_CWORD=1; _knight; [ "${COMPREPLY[*]}" = count ]' sh "$comp" ||
        { echo "bash completion not installed or broken"; t=1; }
    result cli-install-docs $t
    [ $t -eq 0 ] || rc=1
else
    echo "meson install failed"; result cli-install-docs 1; rc=1
fi
rm -rf "$prefix"
exit $rc
