#!/bin/bash
# CI stage: the Rust bindings (bindings/rust: knight-sys and knight) with
# Debian's own toolchain (cargo 0.66, rustc 1.63: the oldest Rust the crates
# support), offline, no crates:
#   1. against the meson build tree $BUILD (PKG_CONFIG_PATH=meson-uninstalled);
#   2. against the library installed from $BUILD into a temporary prefix
#      (PKG_CONFIG_PATH=<prefix>/lib/pkgconfig), shared and static;
# never with LD_LIBRARY_PATH: knight-sys writes an rpath.  The header
# coverage test prints how many KT_EXPORT functions knight-sys declares.
set -u
ROOT=${ROOT:-$(pwd)}
BUILD=${BUILD:-$ROOT/build-ci}
RESULTS=${RESULTS:-/dev/null}
manifest=$ROOT/bindings/rust/Cargo.toml

if [ ! -x /usr/bin/cargo ] || [ ! -x /usr/bin/rustc ] || ! command -v pkg-config >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq cargo rustc pkg-config >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1; apt-get install -y -qq cargo rustc pkg-config >/dev/null; } ||
        { echo "40-rust: cannot install cargo and rustc"; echo "FAIL rust-toolchain" >> "$RESULTS"; exit 1; }
fi
# Debian's toolchain explicitly, whatever else is on PATH.
export CARGO=/usr/bin/cargo RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc
unset LD_LIBRARY_PATH
echo "40-rust: $($CARGO --version), $($RUSTC --version)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CARGO_HOME=$tmp/cargo-home   # no network, no registry
status=0

run() {  # run NAME COMMAND...: one PASS/FAIL line, bounded in time
    local name=$1; shift
    if timeout 600 "$@" > "$tmp/$name.log" 2>&1; then
        echo "PASS $name" >> "$RESULTS"
        grep -h -E "^(coverage|c_signatures):" "$tmp/$name.log" || true
        grep -h "^test result" "$tmp/$name.log" | awk '{p+=$4; f+=$6} END {print "40-rust: " p " passed, " f " failed"}'
    else
        echo "FAIL $name" >> "$RESULTS"
        tail -40 "$tmp/$name.log"
        status=1
    fi
}

# 1. The build tree.
PKG_CONFIG_PATH=$BUILD/meson-uninstalled \
    run rust-build-tree $CARGO test --offline --manifest-path "$manifest" \
        --target-dir "$tmp/target-tree" -- --nocapture

# 2. The installed library: meson install of $BUILD into a temporary prefix
# (with DESTDIR, so $BUILD keeps its configuration; the .pc file's paths are
# mapped into the DESTDIR by PKG_CONFIG_SYSROOT_DIR).
dest=$tmp/dest
if meson install -C "$BUILD" --no-rebuild --destdir "$dest" > "$tmp/install.log" 2>&1; then
    pcdir=$(dirname "$(find "$dest" -name knight.pc | head -1)")
    if [ -f "$pcdir/knight.pc" ]; then
        export PKG_CONFIG_SYSROOT_DIR=$dest
        PKG_CONFIG_PATH=$pcdir run rust-installed $CARGO test --offline \
            --manifest-path "$manifest" --target-dir "$tmp/target-installed" -- --nocapture
        # The test binaries must find the installed library by rpath only.
        bin=$(find "$tmp/target-installed/debug/deps" -maxdepth 1 -type f -name 'api-*' ! -name '*.d' | head -1)
        if [ -n "$bin" ] && readelf -d "$bin" | grep -q "RUNPATH.*$dest"; then
            echo "PASS rust-installed-rpath" >> "$RESULTS"
        else
            echo "FAIL rust-installed-rpath" >> "$RESULTS"; status=1
        fi
        KNIGHT_STATIC=1 PKG_CONFIG_PATH=$pcdir run rust-installed-static $CARGO test --offline \
            --manifest-path "$manifest" --target-dir "$tmp/target-static"
        unset PKG_CONFIG_SYSROOT_DIR
    else
        echo "40-rust: no knight.pc installed"; echo "FAIL rust-installed" >> "$RESULTS"; status=1
    fi
else
    tail -20 "$tmp/install.log"; echo "FAIL rust-installed" >> "$RESULTS"; status=1
fi
exit $status
