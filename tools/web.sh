#!/usr/bin/env bash
# libknight on the web (issue 18): the WebAssembly module, the JavaScript
# package (bindings/js) and the static page (web/).
#
#   bash tools/web.sh build [SITE]   compile lib/ + bindings/js/src/shim.c with
#                                    emcc into bindings/js/wasm/, then copy the
#                                    page, the package and the module into SITE
#                                    (default build-web/site)
#   bash tools/web.sh test           build, then the package's tests (node --test)
#   bash tools/web.sh serve [PORT]   build, then serve SITE on http://127.0.0.1:PORT
#                                    (default 8018) until Ctrl-C
#
# Needs Debian's emscripten (apt-get install emscripten; 3.1.6) and node.
# Single-threaded: KTI_NO_THREADS runs every share of kti_parallel on the
# calling thread (wasm has no threads without cross-origin isolation).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-build}
SITE=$ROOT/build-web/site
[ "$cmd" = build ] && [ $# -ge 2 ] && SITE=$2
OUT=$ROOT/bindings/js/wasm

# Debian's emcc runs its JavaScript optimizer with the system node, which
# finds Debian's node modules (acorn) only through NODE_PATH.
export NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs

# The C functions the package calls (bindings/js/src/index.js); nothing
# else is kept, which keeps the module small.
exports=(
    malloc free kt_version_string kt_strerror kt_status_name kt_rule_describe
    kt_graph_new kt_graph_free kt_graph_width kt_graph_height kt_graph_vertex_count
    kt_graph_board_has_closed_tour kt_graph_board_has_open_tour
    kt_tourney_free kt_tourney_copy kt_tourney_graph kt_tourney_size kt_tourney_shape
    kt_tourney_is_closed_tour kt_tourney_is_open_tour kt_tourney_order kt_tourney_ends
    kt_tourney_from_order kt_tourney_equal
    kt_io_write_buffer kt_io_parse
    kt_generate_closed_tour kt_generate_divide_tour kt_generate_open_tour
    kt_generate_warnsdorff_tour kt_generate_tourney kt_generate_method_name
    kt_generate_method_parse kt_generate_tiebreak_name
    kt_exhaustive_tour
    kt_rails_join kt_rails_obfuscate kt_rails_shatter kt_rails_count_tourney
    kt_count_tours kt_u128_to_string
    kt_sampler_new kt_sampler_free kt_sampler_total kt_sampler_draw
    kt_sampler_draw_from kt_sampler_unrank kt_sampler_rank
    kt_semimagic_opts_new kt_semimagic_opts_free kt_semimagic_opts_set_flags
    kt_semimagic_opts_set_puzzle_rule kt_semimagic_opts_set_grid
    kt_semimagic_exists kt_semimagic_check
    kt_options_free ktjs_run_new
)

version_h() { # the header meson would configure, from the project version
    local v
    v=$(sed -n "s/^ *version : '\([0-9.]*\)'.*/\1/p" "$ROOT/meson.build" | head -1)
    IFS=. read -r major minor patch <<< "$v"
    sed -e "s/@KT_VERSION@/$v/" -e "s/@KT_VERSION_MAJOR@/$major/" \
        -e "s/@KT_VERSION_MINOR@/$minor/" -e "s/@KT_VERSION_PATCH@/$patch/" \
        "$ROOT/include/knight/version.h.in" > "$1/knight/version.h"
}

build() {
    command -v emcc >/dev/null || { echo "web.sh: emcc not found (apt-get install emscripten)" >&2; return 1; }
    local gen=$ROOT/build-web/include
    mkdir -p "$gen/knight" "$OUT"
    version_h "$gen"
    local list
    list=$(printf '"_%s",' "${exports[@]}")
    # Every source meson compiles into the library (lib/meson.build's
    # lib_sources, and options.c, which it archives apart).
    local sources
    mapfile -t sources < <(sed -n "s/^ *'\([a-z_/]*\.c\)',\$/lib\/\1/p" "$ROOT/lib/meson.build")
    sources+=(lib/options.c)
    # -Os: a quarter smaller than -O2 and as fast here (BENCHMARKS.md).
    (cd "$ROOT" && emcc -std=c11 -Os -Wall -Wextra -Werror -Wno-unused-command-line-argument \
        -D_POSIX_C_SOURCE=200809L -DKT_BUILDING_LIBRARY -DKTI_NO_THREADS -DNDEBUG \
        -I"$gen" -Iinclude -Ilib \
        "${sources[@]}" bindings/js/src/shim.c \
        -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createKnightModule \
        -sENVIRONMENT=web,worker -sWASM_BIGINT=1 \
        -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB -sFILESYSTEM=0 \
        -sEXPORTED_FUNCTIONS="[${list%,}]" \
        -sEXPORTED_RUNTIME_METHODS='["UTF8ToString","stringToUTF8","lengthBytesUTF8"]' \
        -o "$OUT/knight.js")
    rm -rf "$SITE"
    mkdir -p "$SITE/js"
    cp -r "$ROOT/web/." "$SITE/"
    cp -r "$ROOT/bindings/js/src" "$ROOT/bindings/js/wasm" "$SITE/js/"
    rm -f "$SITE/js/src/shim.c"
    local wasm glue
    wasm=$(gzip -9c "$OUT/knight.wasm" | wc -c)
    glue=$(cat "$OUT/knight.js" "$ROOT/bindings/js/src/index.js" | gzip -9c | wc -c)
    echo "web.sh: $OUT/knight.wasm $(wc -c < "$OUT/knight.wasm") bytes ($wasm gzipped);" \
         "glue + index.js $glue gzipped; total $((wasm + glue)) gzipped"
    echo "web.sh: site in $SITE"
}

case $cmd in
    build) build ;;
    test) build && (cd "$ROOT/bindings/js" && node --expose-gc --test test/*.test.js) ;;
    serve)
        build
        port=${2:-8018}
        echo "web.sh: serving $SITE on http://127.0.0.1:$port/ (Ctrl-C stops)"
        exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$SITE" ;;
    *) echo "usage: bash tools/web.sh build [SITE] | test | serve [PORT]" >&2; exit 2 ;;
esac
