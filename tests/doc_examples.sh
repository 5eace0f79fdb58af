#!/bin/sh
# The C examples of README.md and doc/mainpage.md compile with -Werror
# against this build tree (through its uninstalled pkg-config file) and
# run, so the documentation cannot drift from the API.
set -eu
pcdir=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs knight)
libdir=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=libdir knight)
n=0
for doc in "$@"; do
    # Fenced blocks marked c (```c or ~~~{.c}), each a whole program.
    awk -v dir="$tmp" -v base="$(basename "$doc" .md)" '
        /^(```c|~~~\{\.c\})[ \t]*$/ { inside = 1; k++; file = sprintf("%s/%s-%d.c", dir, base, k); next }
        inside && /^(```|~~~)[ \t]*$/ { inside = 0; close(file); next }
        inside { print > file }
    ' "$doc"
done
for src in "$tmp"/*.c; do
    [ -e "$src" ] || continue
    n=$((n + 1))
    ${CC:-cc} -std=c11 -Wall -Wextra -Werror "$src" -o "${src%.c}" $flags
    LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "${src%.c}" > "${src%.c}.out"
    echo "$(basename "$src"): compiled and ran ($(wc -l < "${src%.c}.out") lines of output)"
done
[ "$n" -gt 0 ] || { echo "no C examples found"; exit 1; }
