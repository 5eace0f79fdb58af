#!/bin/sh
# SPDX-License-Identifier: MIT
# Peter Luschny's benchmark side by side with libknight, in one session:
# every k x n board with 3 <= k, n <= 12 and k n <= 40, undirected open tours
# (OEIS A390833) and closed tours (A392000).  His two programs (MIT, not part
# of this project) are built from their source with the flags their README
# gives and run on one thread (OMP_NUM_THREADS=1), as libknight is
# (bench_count luschny).  Prints a Markdown table: counts (which must agree),
# CPU seconds per board for both, the ratio, the totals and the machine load.
# His programs time each board with std::chrono::steady_clock; a small
# preloaded shim (below, not his code) turns that clock into the process's
# CPU clock, so that on a shared machine his figures are CPU time too.
#
#   bench/luschny.sh BUILD_DIR [LUSCHNY_SOURCE_DIR]
# BUILD_DIR: a libknight build (release: meson setup B -Dbuildtype=release).
# Exit status 1 if a count differs.
set -eu
build=${1:?usage: bench/luschny.sh BUILD_DIR [LUSCHNY_SOURCE_DIR]}
src=${2:-/work/shared/anchors/luschny}
CXX=${CXX:-g++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CXX" -O3 -march=native -fopenmp -std=c++20 "$src/knightspaths.cpp" -o "$tmp/paths"
"$CXX" -O3 -march=native -fopenmp -std=c++20 "$src/knightscycles.cpp" -o "$tmp/cycles"
cat > "$tmp/cpuclock.c" <<'SHIM'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>
/* CLOCK_MONOTONIC (steady_clock) answered by the process CPU clock. */
int clock_gettime(clockid_t id, struct timespec *ts)
{
    int (*real)(clockid_t, struct timespec *) =
        (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    return real(id == CLOCK_MONOTONIC ? CLOCK_PROCESS_CPUTIME_ID : id, ts);
}
SHIM
${CC:-cc} -O2 -shared -fPIC "$tmp/cpuclock.c" -o "$tmp/cpuclock.so" -ldl
# CPU seconds (user + system) of a whole command, from times(1) of a child shell
cpu_of() { # cpu_of OUTFILE COMMAND...
    out=$1; shift
    sh -c '"$@" > "$0"; times' "$out" "$@" | awk 'NR == 2 { print }' |
        awk '{ split($1, u, "m"); split($2, s, "m"); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}
echo "load before: $(uptime)"
lp=$(OMP_NUM_THREADS=1 LD_PRELOAD="$tmp/cpuclock.so" cpu_of "$tmp/p.txt" "$tmp/paths")
lc=$(OMP_NUM_THREADS=1 LD_PRELOAD="$tmp/cpuclock.so" cpu_of "$tmp/c.txt" "$tmp/cycles")
kc=$(cpu_of "$tmp/k.txt" "$build/bench/bench_count" luschny)
echo "load after:  $(uptime)"
echo
awk -v lp="$lp" -v lc="$lc" -v kc="$kc" '
    # his lines: "A(k,n) = count <tab>Time: 1.2e-05s"
    FILENAME ~ /[pc]\.txt$/ && /^A\(/ {
        split($0, a, /[(,)]/); key = a[2] " " a[3]
        cnt = $3; t = $NF; sub(/^Time:/, "", t); sub(/s$/, "", t)
        kind = FILENAME ~ /p\.txt$/ ? "open" : "closed"
        lcount[key, kind] = cnt; ltime[key, kind] = t + 0
        next
    }
    FILENAME ~ /k\.txt$/ && NF == 6 {
        key = $1 " " $2
        if (!(key in seen)) { order[++nb] = key; seen[key] = 1 }
        kcount[key, $3] = $4; ktime[key, $3] = $5 + 0
    }
    function cell(key, kind,   r) {
        if (lcount[key, kind] != kcount[key, kind]) { bad++; return sprintf("**%s vs %s** | | | |", lcount[key, kind], kcount[key, kind]) }
        r = ktime[key, kind] > 0 ? ltime[key, kind] / ktime[key, kind] : 0
        if (ktime[key, kind] >= ltime[key, kind]) slower = slower " " key " " kind ";"
        return sprintf("%s | %.3g | %.3g | %.1f", kcount[key, kind], ltime[key, kind], ktime[key, kind], r)
    }
    END {
        print "CPU seconds per board; ratio = Luschny / libknight (above 1: libknight faster)"
        print ""
        print "| board | open tours | Luschny s | libknight s | ratio | closed tours | Luschny s | libknight s | ratio |"
        print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
        for (i = 1; i <= nb; i++) {
            key = order[i]; split(key, b, " ")
            print "| " b[1] "x" b[2] " | " cell(key, "open") " | " cell(key, "closed") " |"
            lo += ltime[key, "open"]; ko += ktime[key, "open"]; lcl += ltime[key, "closed"]; kcl += ktime[key, "closed"]
        }
        printf "| total | | %.3g | %.3g | %.1f | | %.3g | %.3g | %.1f |\n", lo, ko, lo / ko, lcl, kcl, lcl / kcl
        printf "\nlibknight, open and closed, one call each: %.3f s CPU (Luschny: %.3f s)\n", ko + kcl, lo + lcl
        printf "process CPU (user + system): Luschny paths %.2f s, cycles %.2f s; bench_count %.2f s (with its repeats)\n", lp, lc, kc
        if (slower != "") print "libknight not faster on:" slower
        else print "libknight faster on every board and kind"
        if (bad) { print bad " counts differ"; exit 1 }
    }' "$tmp/p.txt" "$tmp/c.txt" "$tmp/k.txt"
