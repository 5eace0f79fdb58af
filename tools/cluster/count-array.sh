#!/bin/bash
# Run `knight count` as a Slurm job array of N shards (see doc/counting.md).
#
#   count-array.sh [-n N] [-d DIR] [-k KNIGHT] [-c CMD] [-w] [-s 'SBATCH ARGS'] ARGS...
#
# Task i (from SLURM_ARRAY_TASK_ID) runs
#   knight CMD ARGS --shard i/N --checkpoint DIR/shard-i.ckpt --result DIR/shard-i.result
# CMD is count (the default: ARGS = WxH [count flags]) or semimagic (ARGS =
# -- and its flags: the -- ends this script's options); no --checkpoint with --method halftours.  A resubmitted task resumes from
# its checkpoint; running this script again submits only the shards that have
# no result yet.  -w waits for the array (sbatch --wait) and prints the sum
# from `knight reduce DIR/shard-*.result`.
set -eu
n=4 dir=. knight=$(command -v knight || true) wait=0 sbatch_args= cmd=count
while getopts n:d:k:c:s:w opt; do
    case $opt in
        n) n=$OPTARG ;; d) dir=$OPTARG ;; k) knight=$OPTARG ;; s) sbatch_args=$OPTARG ;; w) wait=1 ;;
        c) cmd=$OPTARG ;;
        *) sed -n '2,13p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
case $cmd in count | semimagic) ;; *) echo "count-array.sh: -c wants count or semimagic" >&2; exit 2 ;; esac
[ $cmd = semimagic ] || [ $# -ge 1 ] || { echo "count-array.sh: board size WxH required" >&2; exit 2; }
case $n in '' | *[!0-9]* | 0) echo "count-array.sh: -n wants a positive number" >&2; exit 2 ;; esac
[ -n "$knight" ] && [ -x "$knight" ] || { echo "count-array.sh: knight not found (use -k)" >&2; exit 2; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd) knight=$(cd "$(dirname "$knight")" && pwd)/$(basename "$knight")
ckpt=1
for a in "$@"; do [ "$a" = halftours ] && ckpt=0; done
# The job script: everything quoted once, here.
job=$dir/count-job.sh
{
    echo '#!/bin/bash'
    echo 'set -eu'
    echo 'i=${SLURM_ARRAY_TASK_ID:?not in a Slurm array task}'
    printf 'dir=%q\n' "$dir"
    printf 'args=('; printf ' %q' "$@"; printf ' )\n'
    printf 'args+=(--shard "$i/%s" --result "$dir/shard-$i.result")\n' "$n"
    [ $ckpt = 1 ] && echo 'args+=(--checkpoint "$dir/shard-$i.ckpt")'
    printf 'exec %q -q %q "${args[@]}"\n' "$knight" "$cmd"
} > "$job"
chmod +x "$job"
missing=
for ((i = 0; i < n; i++)); do [ -e "$dir/shard-$i.result" ] || missing=$missing${missing:+,}$i; done
if [ -n "$missing" ]; then
    w=; [ $wait = 1 ] && w=--wait
    # shellcheck disable=SC2086
    sbatch --parsable $w --array="$missing" --job-name="knight-$cmd" \
        --output="$dir/slurm-%A_%a.out" $sbatch_args "$job"
fi
if [ $wait = 1 ] || [ -z "$missing" ]; then
    exec "$knight" reduce "$dir"/shard-*.result
fi
echo "when the array is done: $knight reduce $dir/shard-*.result" >&2
