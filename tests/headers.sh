#!/bin/sh
# Every public header compiles alone as strict C99, C11 and C++11 (and the
# umbrella header too), with warnings as errors.
set -eu
src_include=$1
build_include=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
cxx=${CXX:-c++}
status=0
for h in "$@"; do
    name=$(basename "$h")
    printf '#include <knight/%s>\n#include <knight/%s>\nint main(void) { return 0; }\n' "$name" "$name" > "$tmp/t.c"
    for std in c99 c11; do
        if ! $cc -std=$std -Wall -Wextra -Wpedantic -Werror -I"$src_include" -I"$build_include" -c "$tmp/t.c" -o "$tmp/t.o"; then
            echo "FAIL: $name as $std"; status=1
        fi
    done
    cp "$tmp/t.c" "$tmp/t.cpp"
    if ! $cxx -std=c++11 -Wall -Wextra -Wpedantic -Werror -I"$src_include" -I"$build_include" -c "$tmp/t.cpp" -o "$tmp/t.o"; then
        echo "FAIL: $name as C++11"; status=1
    fi
done
[ $status -eq 0 ] && echo "$# headers compile alone as C99, C11 and C++11"
exit $status
