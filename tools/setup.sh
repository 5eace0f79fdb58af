#!/usr/bin/env bash
# Install what the build needs (Debian 12, as root, only what is missing;
# doxygen too, for `ninja -C build doc`), then configure and build
# libknight in ./build (or $1).  The demo is then build/tools/knight/knight.
set -euo pipefail
builddir=${1:-build}
cd "$(dirname "$0")/.."
need=()
command -v meson >/dev/null || need+=(meson)
command -v ninja >/dev/null || need+=(ninja-build)
command -v cc >/dev/null || need+=(gcc)
command -v c++ >/dev/null || need+=(g++)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v python3 >/dev/null || need+=(python3)
command -v nm >/dev/null || need+=(binutils)
command -v make >/dev/null || need+=(make)
# The HTML documentation: wanted, not needed (the build works without it).
if ! command -v doxygen >/dev/null; then
    if [ "$(id -u)" -eq 0 ]; then need+=(doxygen); else echo "setup: doxygen is missing: no 'ninja -C $builddir doc'" >&2; fi
fi
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: please install: ${need[*]}" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ ! -d "$builddir/meson-private" ]; then
    meson setup "$builddir" >/dev/null
elif [ ${#need[@]} -gt 0 ]; then
    # Tools were just installed (doxygen): let meson see them.
    meson setup --reconfigure "$builddir" >/dev/null
fi
ninja -C "$builddir" >/dev/null
echo "setup: built in $builddir"
