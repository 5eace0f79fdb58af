#!/bin/sh
# Compare the shared library with the committed ABI baseline.  Any change
# to an existing symbol or type fails; added symbols are allowed.  To move
# the baseline on purpose: ninja -C build abi-update (and say why in
# CHANGELOG.md).
set -u
baseline=$1 lib=$2 src_headers=$3 build_headers=$4
abidiff --no-added-syms \
    --headers-dir1 "$src_headers" --headers-dir1 "$build_headers" \
    --headers-dir2 "$src_headers" --headers-dir2 "$build_headers" \
    "$baseline" "$lib"
rc=$?
if [ $rc -ne 0 ]; then
    echo "abidiff exit status $rc: the ABI differs from $baseline"
    exit 1
fi
echo "ABI matches $baseline (added symbols allowed)"
