#!/bin/sh
# mkstatic.sh OUT.a IN.a...: turn the archives of library objects into an
# archive holding one relocatable object in which every hidden symbol is
# local, so that only the public kt_ API stays global.
set -eu
out=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ld -r --whole-archive "$@" -o "$tmp/libknight.o"
objcopy --localize-hidden "$tmp/libknight.o"
rm -f "$out"
ar rcsD "$out" "$tmp/libknight.o"
