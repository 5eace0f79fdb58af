#!/usr/bin/env bash
# CI stage: the Python package `knight` as a user gets it.  Installs the
# library from $BUILD into /usr/local (ldconfig), pip-installs
# bindings/python offline into a fresh venv, runs the unittest suite from
# outside the source tree against the installed copy with no KNIGHT_*
# variables, type-checks it with mypy --strict, then uninstalls the library
# and checks the ImportError.
# Appends PASS/FAIL lines to $RESULTS and prints "N passed, N failed".
set -uo pipefail
ROOT=${ROOT:-$(pwd)}
BUILD=${BUILD:?BUILD must name a configured and built build directory}
RESULTS=${RESULTS:-/dev/null}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
work=$(mktemp -d)
passed=0
failed=0
result() { # result NAME STATUS
    if [ "$2" -eq 0 ]; then echo "PASS python/$1" | tee -a "$RESULTS"; passed=$((passed + 1))
    else echo "FAIL python/$1" | tee -a "$RESULTS"; failed=$((failed + 1)); fi
}
unset KNIGHT_LIBRARY KNIGHT_INCLUDE_DIR PYTHONPATH

if [ "$(id -u)" -eq 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq python3 python3-venv python3-pip python3-setuptools python3-mypy \
        >/dev/null || echo "apt-get install failed"
fi

# 1. The package, offline, into a fresh venv (built from a copy: setuptools
# writes build/ and *.egg-info/ next to pyproject.toml).
cp -r "$ROOT/bindings/python" "$work/src"
"$PY" -m venv --system-site-packages "$work/venv" &&
    "$work/venv/bin/python" -m pip install -q --no-build-isolation --no-index \
        "$work/src" >"$work/pip.log" 2>&1
st=$?
[ $st -eq 0 ] || cat "$work/pip.log"
result pip-install $st

# 2. The library, installed where a user's would be: first found by the
# package's own search of the usual prefixes (before ldconfig knows it), then
# through ld.so.cache like any system library.
installed=0
if meson install -C "$BUILD" --no-rebuild >"$work/install.log" 2>&1; then
    installed=1
fi
result install-library $((1 - installed))
if [ $installed -eq 1 ] && ! ldconfig -p 2>/dev/null | grep -q 'libknight\.so\.1 '; then
    (cd "$work" && "$work/venv/bin/python" -c '
import knight
print("found without ld.so.cache:", knight.LIBRARY_PATH)
raise SystemExit(0 if knight.LIBRARY_PATH.startswith("/usr/local/") and knight.Graph(5, 6).count_tours() == 8 else 1)')
    result found-in-prefix $?
fi
command -v ldconfig >/dev/null && ldconfig

# 3. The tests, from a directory outside the tree, against the installed copy.
mkdir -p "$work/tests"
cp "$ROOT"/bindings/python/tests/test_*.py "$ROOT/bindings/python/test_libknight.py" "$work/tests/"
(
    cd "$work/tests" &&
    timeout 600 "$work/venv/bin/python" - "$work/venv" <<'PY'
import os, sys, unittest
venv = os.path.realpath(sys.argv[1])
import knight
where = os.path.realpath(knight.__file__)
print(f"knight {knight.version()} from {where}; library {knight.LIBRARY_PATH}")
if not where.startswith(venv):
    print("FAIL: knight was not imported from the venv"); sys.exit(1)
if "KNIGHT_LIBRARY" in os.environ:
    sys.exit(1)
suite = unittest.defaultTestLoader.loadTestsFromNames(["test_knight", "test_api", "test_libknight"])
res = unittest.TextTestRunner(verbosity=1).run(suite)
bad = len(res.failures) + len(res.errors)
print(f"python tests: {res.testsRun - bad} passed, {bad} failed")
sys.exit(0 if res.wasSuccessful() and res.testsRun > 0 else 1)
PY
)
result unittest-installed $?

# 4. The type hints: mypy --strict on the package (py.typed promises them).
if "$PY" -c 'import mypy' 2>/dev/null; then
    (cd "$ROOT/bindings/python" && "$PY" -m mypy --strict --no-incremental knight)
    result mypy-strict $?
else
    echo "mypy not available: type check skipped"
fi

# 5. Without the library: a clear ImportError naming what was tried.
if [ $installed -eq 1 ]; then
    ninja -C "$BUILD" uninstall >/dev/null 2>&1
    command -v ldconfig >/dev/null && ldconfig
    (cd "$work" && "$work/venv/bin/python" -c '
try:
    import knight
except ImportError as e:
    msg = str(e)
    print(msg)
    raise SystemExit(0 if "tried" in msg and "/usr/local/lib" in msg else 1)
raise SystemExit(1)')
    result import-error-without-library $?
fi

rm -rf "$work"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
