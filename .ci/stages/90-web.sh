#!/usr/bin/env bash
# CI stage: libknight on the web (issue 18).  Installs Debian's emscripten
# and chromium (and node/npm when missing), builds the WebAssembly module and
# the site (bash tools/web.sh build), runs the JavaScript package's tests
# (node --test) against it, installs playwright-core and typescript from the
# committed package-lock.json (tests/web), type-checks the declarations
# (tests/web/types.mts), serves the site from a local static server and
# drives headless Chromium through every view (tests/web/browser.test.mjs);
# last, the native library with -Dthreads=false through the unit suite.
# Screenshots go to $ROOT/ci-artifacts/web/.  Nothing is skipped: a missing
# tool is a FAIL line.  About 2 minutes after the packages are installed.
set -uo pipefail
ROOT=${ROOT:-$(pwd)}
RESULTS=${RESULTS:-/dev/null}
cd "$ROOT" || exit 1
t_start=$(date +%s)
rc=0
result() { # result NAME STATUS
    if [ "$2" -eq 0 ]; then echo "PASS web/$1" >> "$RESULTS"; else echo "FAIL web/$1" >> "$RESULTS"; rc=1; fi
    echo "$([ "$2" -eq 0 ] && echo PASS || echo FAIL) web/$1 ($(($(date +%s) - t_start)) s)"
}
need() { for c in "$@"; do command -v "$c" >/dev/null 2>&1 || return 1; done; }

if [ "$(id -u)" -eq 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    pkgs=()
    need emcc || pkgs+=(emscripten)
    need chromium || pkgs+=(chromium)
    need node || pkgs+=(nodejs)
    need npm || pkgs+=(npm)
    if [ ${#pkgs[@]} -gt 0 ]; then
        timeout 400 apt-get install -y -qq "${pkgs[@]}" >/dev/null 2>&1 ||
            { timeout 120 apt-get update -qq >/dev/null 2>&1 &&
              timeout 400 apt-get install -y -qq "${pkgs[@]}" >/dev/null 2>&1; }
    fi
fi
for tool in emcc node npm chromium python3; do
    need "$tool"; result "tool-$tool" $?
done
need emcc node npm chromium python3 || { echo "web: tools missing"; exit 1; }

# 1. The module and the site; the sizes it prints go to the log.
bash tools/web.sh build
result build $?
[ -s bindings/js/wasm/knight.wasm ] && [ -s build-web/site/index.html ] || exit 1

# 2. The package's tests against the module.
(cd bindings/js && timeout 300 node --expose-gc --test test/*.test.js > "$ROOT/build-web/js-tests.log" 2>&1)
st=$?
grep -E '^# (tests|pass|fail)' build-web/js-tests.log
[ $st -eq 0 ] || grep -B2 -A15 '^not ok' build-web/js-tests.log | head -60
result js-tests $st

# 3. The browser driver and the TypeScript compiler, exactly as locked.
(cd tests/web && timeout 180 npm ci --no-audit --no-fund >/dev/null 2>&1)
result npm-ci $?

# 4. The TypeScript declarations against a program that uses them (strict).
(cd tests/web && timeout 120 npx --no-install tsc --noEmit --strict --module nodenext --target es2022 \
    --lib es2022,dom types.mts)
result typescript-declarations $?

# 5. Serve the site on a free port; stop the server on exit.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory build-web/site >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null' EXIT
for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break
    sleep 0.2
done

# 6. Headless Chromium through every view; its PASS/FAIL lines are results.
rm -rf ci-artifacts/web
log=build-web/browser.log
(cd tests/web && CHROMIUM=$(command -v chromium) timeout 240 node browser.test.mjs \
    "http://127.0.0.1:$port/" "$ROOT/ci-artifacts/web" "$ROOT/examples/puzzle/solved.txt") > "$log" 2>&1
st=$?
cat "$log"
grep -E '^(PASS|FAIL) web/' "$log" | sed 's/: .*//' >> "$RESULTS"
grep -q '^PASS web/page-loads' "$log" || result browser-ran 1
result browser $st
for v in tour puzzle count phone; do
    [ -s "ci-artifacts/web/$v.png" ]; result "screenshot-$v" $?
done

# 7. The switch the web build relies on, natively: -Dthreads=false runs the
# shares of every parallel call in turn; the unit suite (which asks for 2
# and more threads) must give the same answers.  KT_TEST_LIGHT (the
# valgrind subset: the same tests at lower power) keeps it about a minute
# on 2 cores; the whole suite here, the fourth run of it in CI, took 3.
nt=$(mktemp -d /tmp/kt-nothreads.XXXXXX)
(meson setup "$nt" "$ROOT" -Dthreads=false -Ddocs=disabled -Dabi_check=disabled >/dev/null &&
    ninja -j2 -C "$nt" >/dev/null &&
    KT_TEST_LIGHT=1 meson test -C "$nt" --suite unit --print-errorlogs >/dev/null)
result native-without-threads $?
rm -rf "$nt"
echo "web: $(($(date +%s) - t_start)) s"
exit $rc
