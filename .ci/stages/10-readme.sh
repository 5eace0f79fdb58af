#!/usr/bin/env bash
# CI stage: README.md runs as written.  Every ```sh block is run line by
# line, in order, in one shell (so `export` and `cd` carry over as in a
# reader's terminal), in a fresh copy of the source tree ($ROOT's tracked
# and untracked-but-not-ignored files; no build directories).  A line
# whose comment says `# long: ...` is skipped and listed.  Any failing line
# fails its block; each block appends PASS/FAIL to $RESULTS.  Also checks
# that the README's C program is examples/hello.c.  Runs the set-up, the
# tests, an install and the docs: about 3-4 minutes on 2 cores.
#
# COPY=DIR keeps the copy in DIR (emptied first) after the stage: .ci/run
# runs this stage first and takes the copy's `build`, set up and tested by
# the README's own commands, as the build of every later stage, so that the
# suite is not built and run twice.
set -uo pipefail
: "${ROOT:?}" "${RESULTS:=/dev/null}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
copy=${COPY:-$tmp/libknight}
rm -rf "$copy"
mkdir -p "$copy"
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
        tar -C "$ROOT" --null -T - -cf - | tar -C "$copy" -xf -
else
    tar -C "$ROOT" --exclude='./build*' -cf - . | tar -C "$copy" -xf -
fi
failed=0

# The C example of the README is examples/hello.c, byte for byte.
if python3 - "$copy/README.md" "$copy/examples/hello.c" <<'PY'
import re, sys
readme, hello = (open(p).read() for p in sys.argv[1:])
blocks = re.findall(r'^```c\n(.*?)^```', readme, re.S | re.M)
sys.exit(0 if blocks and blocks[0] == hello else 1)
PY
then echo "PASS readme/c-example-is-examples-hello.c" >> "$RESULTS"
else echo "FAIL readme/c-example-is-examples-hello.c" >> "$RESULTS"; echo "README's C block differs from examples/hello.c"; failed=1; fi

# One script: the blocks in order, a status line per block.
python3 - "$copy/README.md" > "$tmp/run.sh" <<'PY'
import re, shlex, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r'^```sh\n(.*?)^```', text, re.S | re.M)
print('set -o pipefail')
print('cd "$1" || exit 1')
print('status() { echo "$1 readme/block-$2" >> "$3"; }')
for k, body in enumerate(blocks, 1):
    lines, cur = [], ''
    for raw in body.splitlines():
        cur += raw
        if cur.endswith('\\'):
            cur = cur[:-1] + ' '
            continue
        if cur.strip():
            lines.append(cur)
        cur = ''
    print(f'echo "=== README block {k} ({len(lines)} lines)"')
    print('ok=1')
    for line in lines:
        if re.search(r'#\s*long:', line):
            print(f'echo "skipped (long): "{shlex.quote(line)}')
            continue
        print(f'if [ $ok = 1 ]; then echo "+ "{shlex.quote(line)}; '
              f'if ! eval {shlex.quote(line)} >"$2/out" 2>&1 </dev/null; then ok=0; '
              f'echo "FAILED: "{shlex.quote(line)}; tail -30 "$2/out"; fi; fi')
    print(f'if [ $ok = 1 ]; then status PASS {k} "$3"; else status FAIL {k} "$3"; fails=1; fi')
print('exit ${fails:-0}')
PY
start=$(date +%s)
bash "$tmp/run.sh" "$copy" "$tmp" "$RESULTS" || failed=1
echo "README blocks ran in $(( $(date +%s) - start )) s"
exit $failed
