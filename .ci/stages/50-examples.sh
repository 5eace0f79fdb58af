#!/usr/bin/env bash
# CI stage: install the library from $BUILD into a fresh prefix, then build
# examples/game and examples/puzzle against it through pkg-config (make)
# AND through the CMake package (find_package(knight)), shared and static,
# and check what they print: the game's closed tour validates move by move
# and its SVG is written; the puzzle's completion passes
# kt_semimagic_check; a full solution checks valid and a broken one not.
# Bounded: about a minute on 2 cores.
set -uo pipefail
: "${ROOT:?}" "${BUILD:?}" "${RESULTS:=/dev/null}"
export DEBIAN_FRONTEND=noninteractive
need=()
command -v cmake >/dev/null || need+=(cmake)
command -v make >/dev/null || need+=(make)
command -v pkg-config >/dev/null || need+=(pkg-config)
if [ ${#need[@]} -gt 0 ]; then
    apt-get install -y -qq "${need[@]}" >/dev/null || { apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null; }
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
failed=0
result() { # result NAME STATUS
    if [ "$2" -eq 0 ]; then echo "PASS examples/$1" >> "$RESULTS"; echo "ok: $1"
    else echo "FAIL examples/$1" >> "$RESULTS"; echo "FAILED: $1"; failed=1; fi
}

# A fresh build dir configured from $BUILD's source, installed into $prefix
# with the distribution's default (multiarch) libdir.
src=$(meson introspect "$BUILD" --projectinfo >/dev/null 2>&1 && python3 -c \
    'import json,sys; print(json.load(open(sys.argv[1]+"/meson-info/meson-info.json"))["directories"]["source"])' "$BUILD" || echo "$ROOT")
meson setup "$tmp/build" "$src" --prefix="$prefix" -Ddocs=disabled >/dev/null &&
    ninja -C "$tmp/build" >/dev/null && meson install -C "$tmp/build" >/dev/null
result install $?
pc=$(dirname "$(find "$prefix" -name knight.pc | head -1)")
[ -f "$pc/knight.pc" ] && [ -f "$(dirname "$pc")/cmake/knight/knightConfig.cmake" ]
result installed-files $?
# The installed demo runs without LD_LIBRARY_PATH (relative RUNPATH).
(cd / && "$prefix/bin/knight" count 6x6 | tail -1 | grep -qx 9862)
result installed-cli-runs $?

cp -r "$ROOT/examples" "$tmp/ex"
check_game() { # check_game BINARY SVG
    local out
    out=$("$1" 8 8 7 "$2") || return 1
    [ "$(grep -c '^move ' <<<"$out")" -eq 64 ] &&
        grep -q '^closed tour of 8 x 8: valid, 64 moves' <<<"$out" &&
        grep -q '^<svg' "$2" && grep -q '</svg>' "$2" &&
        # The SVG reads back as a closed tour through the installed demo.
        "$prefix/bin/knight" check "$2" | grep -qi 'closed tour' &&
        # 6x6, another seed, still valid.
        "$1" 6 6 1 "$tmp/six.svg" | grep -q '^closed tour of 6 x 6: valid, 36 moves'
}
check_puzzle() { # check_puzzle BINARY
    local dir=$tmp/ex/puzzle out
    out=$("$1" --nested "$dir/knight-errant.txt") || return 1
    grep -q 'passes kt_semimagic_check' <<<"$out" || return 1
    # The completion keeps every given number and every row sums to 260.
    printf '%s\n' "$out" > "$tmp/completed.txt"
    python3 - "$dir/knight-errant.txt" "$tmp/completed.txt" <<'PY' || return 1
import sys
given = [l.split() for l in open(sys.argv[1]) if l.strip()]
rows = [list(map(int, l.split())) for l in open(sys.argv[2]) if l[:2].strip().isdigit()][:8]
assert len(rows) == 8 and all(sum(r) == 260 for r in rows), rows
assert all(sum(r[x] for r in rows) == 260 for x in range(8))
assert sorted(v for r in rows for v in r) == list(range(1, 65))
for gr, r in zip(given, rows):
    for g, v in zip(gr, r):
        assert g == '.' or int(g) == v
PY
    "$1" "$dir/solved.txt" | grep -qx valid || return 1
    # A player's mistake: swap 1 and 2 -> not a tour.
    sed -e 's/^ 1 /XX /' -e 's/^47  2 /47  1 /' -e 's/^XX / 2 /' "$dir/solved.txt" > "$tmp/wrong.txt"
    ! "$1" "$tmp/wrong.txt" >"$tmp/wrong.out" && grep -qx 'not valid' "$tmp/wrong.out"
}

# pkg-config + make, shared and static.
export PKG_CONFIG_PATH=$pc
for static in 0 1; do
    for ex in game:knight_game puzzle:semimagic_puzzle; do
        d=${ex%%:*} p=${ex#*:}
        make -s -C "$tmp/ex/$d" clean >/dev/null
        make -s -C "$tmp/ex/$d" STATIC=$static CFLAGS="-O2 -Wall -Wextra -Werror" >/dev/null
        rc=$?
        if [ $rc -eq 0 ]; then
            if [ $static = 0 ]; then export LD_LIBRARY_PATH=$(pkg-config --variable=libdir knight); else unset LD_LIBRARY_PATH; fi
            if [ $d = game ]; then check_game "$tmp/ex/$d/$p" "$tmp/game-pc$static.svg"; else check_puzzle "$tmp/ex/$d/$p"; fi
            rc=$?
            unset LD_LIBRARY_PATH
        fi
        result "pkg-config-$( [ $static = 1 ] && echo static || echo shared)/$d" $rc
    done
done

# CMake: find_package(knight), shared and static.
for static in OFF ON; do
    for ex in game:knight_game puzzle:semimagic_puzzle; do
        d=${ex%%:*} p=${ex#*:} b=$tmp/cm-$d-$static
        cmake -S "$tmp/ex/$d" -B "$b" -DCMAKE_PREFIX_PATH="$prefix" -DKNIGHT_STATIC=$static \
            -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" >"$b.log" 2>&1 && cmake --build "$b" >>"$b.log" 2>&1
        rc=$?
        [ $rc -eq 0 ] || tail -20 "$b.log"
        if [ $rc -eq 0 ]; then
            # CMake sets the build RPATH to the imported library's directory.
            if [ $d = game ]; then check_game "$b/$p" "$tmp/game-cm$static.svg"; else check_puzzle "$b/$p"; fi
            rc=$?
        fi
        result "cmake-$( [ $static = ON ] && echo static || echo shared)/$d" $rc
    done
done
# find_package refuses a newer major version than installed.
mkdir -p "$tmp/cmv" && printf 'cmake_minimum_required(VERSION 3.16)\nproject(v C)\nfind_package(knight 2 REQUIRED)\n' > "$tmp/cmv/CMakeLists.txt"
! cmake -S "$tmp/cmv" -B "$tmp/cmv/b" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null 2>&1
result cmake-version-check $?
exit $failed
