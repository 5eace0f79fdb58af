#!/usr/bin/env bash
# Install what the build needs (Debian 12, as root, only what is missing),
# then configure and build libknight in ./build (or $1).
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
fi
ninja -C "$builddir" >/dev/null
echo "setup: built in $builddir"
