#!/bin/bash
# Run `knight count` in N shards with GNU parallel on this machine (or with
# -S host1,host2 in PARALLEL_ARGS), then sum them with `knight reduce`.
#
#   count-parallel.sh [-n N] [-j JOBS] [-d DIR] [-k KNIGHT] [-c CMD] ARGS...
#
# Shard i runs knight CMD ARGS --shard i/N --checkpoint DIR/shard-i.ckpt
# --result DIR/shard-i.result, CMD being count (the default; ARGS = WxH
# [count flags]) or semimagic (ARGS = -- and its flags: the -- ends this
# script's options); no --checkpoint with --method halftours; shards
# that already have a result are skipped, an interrupted one resumes from its
# checkpoint when the script is run again.
set -eu
n=4 jobs=1 dir=. knight=$(command -v knight || true) cmd=count
while getopts n:j:d:k:c: opt; do
    case $opt in
        n) n=$OPTARG ;; j) jobs=$OPTARG ;; d) dir=$OPTARG ;; k) knight=$OPTARG ;; c) cmd=$OPTARG ;;
        *) sed -n '2,12p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
case $cmd in count | semimagic) ;; *) echo "count-parallel.sh: -c wants count or semimagic" >&2; exit 2 ;; esac
[ $cmd = semimagic ] || [ $# -ge 1 ] || { echo "count-parallel.sh: board size WxH required" >&2; exit 2; }
case $n in '' | *[!0-9]* | 0) echo "count-parallel.sh: -n wants a positive number" >&2; exit 2 ;; esac
[ -n "$knight" ] && [ -x "$knight" ] || { echo "count-parallel.sh: knight not found (use -k)" >&2; exit 2; }
command -v parallel >/dev/null || { echo "count-parallel.sh: GNU parallel not found" >&2; exit 2; }
mkdir -p "$dir"
ckpt=(--checkpoint "$dir/shard-{}.ckpt")
for a in "$@"; do [ "$a" = halftours ] && ckpt=(); done
todo=()
for ((i = 0; i < n; i++)); do [ -e "$dir/shard-$i.result" ] || todo+=("$i"); done
if [ ${#todo[@]} -gt 0 ]; then
    # shellcheck disable=SC2086
    parallel --will-cite --halt now,fail=1 -j "$jobs" ${PARALLEL_ARGS:-} \
        "$knight" -q "$cmd" "$@" --shard "{}/$n" "${ckpt[@]}" --result "$dir/shard-{}.result" '>' /dev/null \
        ::: "${todo[@]}"
fi
exec "$knight" reduce "$dir"/shard-*.result
