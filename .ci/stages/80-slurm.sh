#!/bin/bash
# CI stage: sharded counts on a real scheduler.  Starts a one-node Slurm
# cluster (munged + slurmctld + slurmd, all state in a temp dir), runs 6x8
# closed, 6x6 open and a semimagic search as job arrays
# (tools/cluster/count-array.sh), then the
# same through GNU parallel (tools/cluster/count-parallel.sh), and checks that
# `knight reduce` gives the single-run counts and refuses incomplete and mixed
# sets.  Everything it starts is stopped on exit (trap), every wait is bounded.
set -u
ROOT=${ROOT:-$(pwd)} BUILD=${BUILD:-$ROOT/build-ci} RESULTS=${RESULTS:-/dev/null}
knight=$BUILD/tools/knight/knight
t_start=$(date +%s)
rc=0
result() {
    if [ "$2" -eq 0 ]; then echo "PASS $1" >> "$RESULTS"; else echo "FAIL $1" >> "$RESULTS"; rc=1; fi
    echo "$([ "$2" -eq 0 ] && echo PASS || echo FAIL) $1 ($(($(date +%s) - t_start)) s)"
}
need() { for c in "$@"; do command -v "$c" >/dev/null 2>&1 || return 1; done; }
if ! need slurmctld slurmd munged mungekey parallel; then
    export DEBIAN_FRONTEND=noninteractive
    timeout 300 apt-get install -y -qq slurm-wlm munge parallel >/dev/null 2>&1 ||
        { timeout 120 apt-get update -qq >/dev/null 2>&1 &&
          timeout 300 apt-get install -y -qq slurm-wlm munge parallel >/dev/null 2>&1; }
fi
need slurmctld slurmd munged mungekey sbatch sinfo parallel || { result slurm-install 1; exit 1; }
[ -x "$knight" ] || { echo "no $knight"; result slurm-knight 1; exit 1; }

T=$(mktemp -d /tmp/kt-slurm.XXXXXX)
chmod 755 "$T"
export SLURM_CONF=$T/slurm.conf
cleanup() {
    set +e
    if [ -s "$T/slurmctld.pid" ]; then
        timeout 10 scancel --full --quiet --partition=kt 2>/dev/null
        end=$(($(date +%s) + 10))
        while [ "$(date +%s)" -lt $end ] && [ -n "$(timeout 2 squeue -h 2>/dev/null)" ]; do sleep 0.5; done
        timeout 10 scontrol shutdown >/dev/null 2>&1
    fi
    for f in slurmd slurmctld munge/munged; do
        [ -s "$T/$f.pid" ] || continue
        pid=$(cat "$T/$f.pid")
        for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; kill "$pid" 2>/dev/null; sleep 0.5; done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    done
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# munge: its own key, socket, pid and log files, run as the munge user.
mkdir -p "$T/munge"
chown munge:munge "$T/munge"
chmod 700 "$T/munge"
runuser -u munge -- mungekey --create --keyfile="$T/munge/munge.key" >/dev/null 2>&1
runuser -u munge -- munged --socket="$T/munge/munge.socket" --key-file="$T/munge/munge.key" \
    --pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" --seed-file="$T/munge/seed" \
    --force >/dev/null 2>&1
t=1
for _ in $(seq 20); do
    munge -S "$T/munge/munge.socket" -n 2>/dev/null | unmunge -S "$T/munge/munge.socket" >/dev/null 2>&1 && { t=0; break; }
    sleep 0.5
done
result slurm-munge $t
[ $t -eq 0 ] || { cat "$T/munge/munged.log" 2>/dev/null | tail -5; exit 1; }

# slurm.conf naming this host, its CPUs and memory.
host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/^MemTotal/ { print int($2 / 1024 * 0.8) }' /proc/meminfo)
mkdir -p "$T/state" "$T/spool"
cat > "$SLURM_CONF" <<CONF
ClusterName=knight-ci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.socket
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
MailProg=/bin/true
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmdTimeout=60
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=kt Nodes=$host Default=YES MaxTime=30 State=UP
CONF
slurmctld -f "$SLURM_CONF" -i >/dev/null 2>&1
slurmd -f "$SLURM_CONF" >/dev/null 2>&1
t=1
end=$(($(date +%s) + 30))
while [ "$(date +%s)" -lt $end ]; do
    [ "$(timeout 2 sinfo -h -n "$host" -o %t 2>/dev/null)" = idle ] && { t=0; break; }
    sleep 0.5
done
result slurm-node-idle $t
if [ $t -ne 0 ]; then
    timeout 5 sinfo 2>&1; grep -h -E "error|fatal" "$T/slurmctld.log" "$T/slurmd.log" 2>/dev/null; exit 1
fi

# The single-run counts: 6x8 closed is published (55,488,142 undirected closed tours).
c68=$("$knight" -q count 6x8)
[ "$c68" = 55488142 ]; result slurm-single-6x8 $?
o66=$("$knight" -q count 6x6 --open --threads 2)
case $o66 in '' | *[!0-9]*) result slurm-single-6x6-open 1 ;; *) result slurm-single-6x6-open 0 ;; esac
echo "single runs: 6x8 closed $c68, 6x6 open $o66"

check_sum() { # NAME EXPECTED COMMAND...
    local name=$1 want=$2 got
    shift 2
    got=$("$@" 2>"$T/err" | tail -n 1)
    [ -n "$got" ] && [ "$got" = "$want" ]; local t=$?
    [ $t -eq 0 ] || { echo "$name: wanted $want, got '$got'"; tail -5 "$T/err"; }
    echo "$name: $got"
    result "$name" $t
}
arr=$ROOT/tools/cluster/count-array.sh
par=$ROOT/tools/cluster/count-parallel.sh
check_sum slurm-array-6x8 "$c68" timeout 120 "$arr" -w -n 4 -d "$T/a68" -k "$knight" 6x8 --threads 1
check_sum slurm-array-6x6-open "$o66" timeout 150 "$arr" -w -n 3 -d "$T/a66" -k "$knight" 6x6 --open --threads 1
ls "$T"/a68/slurm-*_[0-3].out >/dev/null 2>&1; result slurm-array-ran-as-array $?
check_sum parallel-6x8 "$c68" timeout 120 "$par" -n 4 -j 2 -d "$T/p68" -k "$knight" 6x8 --threads 1
check_sum parallel-6x6-open "$o66" timeout 150 "$par" -n 3 -j 2 -d "$T/p66" -k "$knight" 6x6 --open --threads 1
# A semimagic search as shards (issue 16): the reduced line equals the single run's.
sm_args=(--size 7x4 --columns --any-start --threads 1)
sm=$("$knight" -q semimagic "${sm_args[@]}" | tail -n 1)
check_sum slurm-array-semimagic "$sm" timeout 120 "$arr" -c semimagic -w -n 3 -d "$T/asm" -k "$knight" -- "${sm_args[@]}"
check_sum parallel-semimagic "$sm" timeout 120 "$par" -c semimagic -n 3 -j 2 -d "$T/psm" -k "$knight" -- "${sm_args[@]}"
# Rerunning a finished array submits nothing and reduces again.
check_sum slurm-array-rerun "$c68" timeout 30 "$arr" -n 4 -d "$T/a68" -k "$knight" 6x8

refuse() { # NAME REASON FILE...
    local name=$1 why=$2 out
    shift 2
    out=$("$knight" reduce "$@" 2>&1)
    local s=$?
    [ $s -eq 1 ] && printf '%s\n' "$out" | grep -q -- "$why"; local t=$?
    [ $t -eq 0 ] || echo "$name: status $s: $out"
    result "$name" $t
}
if [ -e "$T/a68/shard-3.result" ] && [ -e "$T/a66/shard-0.result" ]; then
    refuse reduce-refuses-incomplete "incomplete" "$T"/a68/shard-[0-2].result
    refuse reduce-refuses-mixed "mixed runs" "$T"/a68/shard-[0-2].result "$T/a66/shard-0.result"
    refuse reduce-refuses-duplicate "duplicate shard" "$T"/a68/shard-*.result "$T/p68/shard-1.result"
    sed 's/^count \([0-9]\)/count 1\1/' "$T/a68/shard-2.result" > "$T/damaged.result"
    refuse reduce-refuses-damaged "damaged" "$T"/a68/shard-[013].result "$T/damaged.result"
else
    result reduce-refusals 1
fi
echo "stage time: $(($(date +%s) - t_start)) s"
exit $rc
