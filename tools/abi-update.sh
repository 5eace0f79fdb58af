#!/bin/sh
# Regenerate the ABI baseline from the built shared library.
set -eu
lib=$1 src_headers=$2 build_headers=$3 out=$4
abidw --headers-dir "$src_headers" --headers-dir "$build_headers" --no-corpus-path \
    --no-comp-dir-path --out-file "$out" "$lib"
echo "wrote $out"
