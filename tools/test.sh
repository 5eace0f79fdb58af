#!/usr/bin/env bash
# Build (installing what is missing) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
builddir=${1:-build}
bash tools/setup.sh "$builddir"
meson test -C "$builddir" --print-errorlogs
