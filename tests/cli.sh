#!/bin/sh
# The demo client end to end: tours are valid, errors are precise.
set -u
knight=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { # expect DESCRIPTION PATTERN COMMAND...
    desc=$1; pat=$2; shift 2
    out=$("$@" 2>&1); rc=$?
    if ! printf '%s\n' "$out" | grep -q -- "$pat"; then
        echo "FAIL: $desc: wanted /$pat/, got (rc $rc):"; printf '%s\n' "$out" | head -5; fail=1
    fi
}
"$knight" tour 8x8 > "$tmp/t8.txt" || { echo "FAIL: tour 8x8"; fail=1; }
expect "tour 8x8 is closed" "closed tour of 8x8" "$knight" check "$tmp/t8.txt"
"$knight" tour 6x6 --format moves -o "$tmp/t6.moves" || fail=1
expect "moves file" "closed tour of 6x6" "$knight" check "$tmp/t6.moves"
"$knight" tour 5x5 --open --start 0,0 > "$tmp/o5.txt" || fail=1
expect "open tour" "open tour of 5x5" "$knight" check "$tmp/o5.txt"
expect "no closed 5x5" "no closed tour exists on 5x5" "$knight" tour 5x5
expect "no closed 4x8" "no closed tour exists" "$knight" tour 4x8
"$knight" svg "$tmp/t8.txt" -o "$tmp/t8.svg" --numbers || fail=1
expect "svg reads back" "closed tour of 8x8" "$knight" check "$tmp/t8.svg"
# A broken file: swap two numbers in the first row -> line and column named.
awk 'NR==1 { t=$1; $1=$2; $2=t } { print }' "$tmp/t8.txt" > "$tmp/bad.txt"
expect "broken tour located" "bad.txt:1:[0-9]*: not a tour" "$knight" check "$tmp/bad.txt"
printf '1 2 3\n4 5 x\n' > "$tmp/junk.txt"
expect "parse error located" "junk.txt:2:5: malformed" "$knight" check "$tmp/junk.txt"
expect "keypad total" "total 1013398" "$knight" walks
expect "keypad A" "^A 30004" "$knight" walks
expect "stats" "relative" "$knight" stats "$tmp/t8.txt" "$tmp/t6.moves"
# Rails: shatter, join, obfuscate, rails.
"$knight" shatter "$tmp/t8.txt" --seed 3 -o "$tmp/s8.moves" 2>/dev/null || fail=1
expect "shatter gives a tourney" "8x8" "$knight" check "$tmp/s8.moves"
"$knight" join "$tmp/s8.moves" -o "$tmp/j8.txt" 2>/dev/null || fail=1
expect "join gives a closed tour" "closed tour of 8x8" "$knight" check "$tmp/j8.txt"
"$knight" obfuscate "$tmp/t8.txt" --rounds 4 --seed 9 -o "$tmp/o8.txt" 2>/dev/null || fail=1
expect "obfuscate gives a closed tour" "closed tour of 8x8" "$knight" check "$tmp/o8.txt"
"$knight" obfuscate "$tmp/t8.txt" --sequential --seed 9 -o "$tmp/os8.txt" 2>/dev/null || fail=1
expect "obfuscate --sequential gives a closed tour" "closed tour of 8x8" "$knight" check "$tmp/os8.txt"
expect "shatter --sequential" "1 cycle(s) -> [0-9]* cycle(s)" "$knight" shatter "$tmp/t8.txt" --sequential -o "$tmp/ss8.txt"
expect "join refuses --sequential" "is for shatter and obfuscate" "$knight" join "$tmp/t8.txt" --sequential
expect "rails counted" "rails (" "$knight" rails "$tmp/s8.moves"
expect "rail graph" "rail graph:" "$knight" rails "$tmp/t8.txt" --count
"$knight" tour 6x6 --obfuscate --seed 2 > "$tmp/ob6.txt" || fail=1
expect "tour --obfuscate" "closed tour of 6x6" "$knight" check "$tmp/ob6.txt"
expect "halftours 6x3" "path structures: 1658" "$knight" halftours --width 6 --depth 3
expect "halftours join 6x6" "^9862$" "$knight" halftours --width 6 --depth 3 --join
expect "unknown command" "unknown command" "$knight" frobnicate
# Generation (issue 3): every method, open tours with ends, tourneys.
"$knight" tour 30x3 --seed 5 > "$tmp/t30x3.txt" || fail=1
expect "3 x n closed" "closed tour of 30x3" "$knight" check "$tmp/t30x3.txt"
"$knight" tour 9x7 --open --start 2,0 > "$tmp/o97.txt" || fail=1
expect "odd x odd open" "open tour of 9x7" "$knight" check "$tmp/o97.txt"
"$knight" tour 8x8 --start 0,0 --end 7,0 > "$tmp/o88.txt" || fail=1
expect "open with ends" "open tour of 8x8" "$knight" check "$tmp/o88.txt"
expect "ends of one colour" "no open tour exists on 8x8 with these ends" "$knight" tour 8x8 --start 0,0 --end 2,0
"$knight" tour 64x64 --method warnsdorff --tie roth --open > "$tmp/w64.txt" || fail=1
expect "warnsdorff roth" "open tour of 64x64" "$knight" check "$tmp/w64.txt"
"$knight" tour 100x100 --method warnsdorff --tie wplus --open > "$tmp/wp100.txt" || fail=1
expect "warnsdorff wplus" "open tour of 100x100" "$knight" check "$tmp/wp100.txt"
for m in warnsdorff neural divide braid four-cover; do
    "$knight" tour 16x16 --method $m --tourney --seed 3 > "$tmp/m_$m.txt" || { echo "FAIL: tour --method $m"; fail=1; }
    expect "method $m" "on 16x16" "$knight" check "$tmp/m_$m.txt"
done
expect "braid needs even" "does not apply" "$knight" tour 9x9 --method braid --tourney
# Uniform tours (issue 17): valid, reproducible from the seed, K at once, ends kept.
"$knight" tour 6x6 --uniform --seed 11 > "$tmp/u6a.txt" || { echo "FAIL: tour --uniform"; fail=1; }
expect "uniform closed" "closed tour of 6x6" "$knight" check "$tmp/u6a.txt"
"$knight" tour 6x6 --uniform --seed 11 > "$tmp/u6b.txt" || fail=1
cmp -s "$tmp/u6a.txt" "$tmp/u6b.txt" || { echo "FAIL: --uniform not reproducible"; fail=1; }
"$knight" tour 6x6 --uniform --seed 12 > "$tmp/u6c.txt" || fail=1
cmp -s "$tmp/u6a.txt" "$tmp/u6c.txt" && { echo "FAIL: --uniform ignores the seed"; fail=1; }
"$knight" tour 6x6 --uniform --seed 11 --count 3 > "$tmp/u6k.txt" || fail=1
[ "$(grep -c '^$' "$tmp/u6k.txt")" = 2 ] || { echo "FAIL: --count 3 gives 3 tours"; fail=1; }
head -n 6 "$tmp/u6k.txt" | cmp -s - "$tmp/u6a.txt" || { echo "FAIL: --count draw 0 is the single draw"; fail=1; }
"$knight" tour 5x5 --uniform --start 0,0 --end 2,2 --seed 4 > "$tmp/u5.txt" || fail=1
expect "uniform open with ends" "open tour of 5x5" "$knight" check "$tmp/u5.txt"
expect "uniform open starts at 0,0" "^ *1 " head -n 1 "$tmp/u5.txt"
expect "uniform open ends at 2,2" "^ *[0-9]* *[0-9]* *25 " sed -n 3p "$tmp/u5.txt"
"$knight" tour 3x8 --uniform --open --seed 2 > "$tmp/u38.txt" || fail=1
expect "uniform open any ends" "open tour of 3x8" "$knight" check "$tmp/u38.txt"
expect "uniform too wide" "narrow side is at most 7" "$knight" tour 9x10 --uniform
expect "uniform none" "no closed tour exists on 5x5" "$knight" tour 5x5 --uniform
expect "count needs uniform" "needs --uniform" "$knight" tour 6x6 --count 2
expect "uniform excludes method" "excludes" "$knight" tour 6x6 --uniform --method neural
expect "count 6x6" "^9862$" "$knight" count 6x6
expect "count 5x5 open directed" "^1728$" "$knight" count 5x5 --open --directed --threads 2
expect "count classes" "^1245$" "$knight" count 6x6 --classes
# open tours by their ends (tests/test_count.c checks them against a brute force)
expect "count --start" "^304$" "$knight" count 5x5 --start 0,0
expect "count --end, chess square" "^304$" "$knight" count 5x5 --end a5 --directed
expect "count --start --end" "^56$" "$knight" count 5x5 --start 0,0 --end 4,4 --threads 2
expect "count 6x6 --start" "^524486$" "$knight" count 6x6 --start 0,0
# the table by start cell: 304 from each corner of 5x5, 1,728 in all
expect "count --by-start corner row" "^304   0  56   0 304$" "$knight" count 5x5 --by-start --threads 2
expect "count --by-start total" "^total 1728$" "$knight" count 5x5 --by-start
expect "count --by-start 3x4" "^total 16$" "$knight" count 3x4 --by-start
status 2 "count --by-start --start" "$knight" count 5x5 --by-start --start 0,0
expect "count shard" "^[0-9]*$" "$knight" count 6x6 --shard 1/3
expect "count halftours" "^9862$" "$knight" count 6x6 --method halftours
expect "count halftours directed" "^88404$" "$knight" count 5x8 --method halftours --directed
# open tours by half-tours with tour ends (the same counts as the frontier's above)
expect "count halftours open" "^864$" "$knight" count 5x5 --open --method halftours
expect "count halftours open directed" "^1728$" "$knight" count 5x5 --open --directed --method halftours
expect "count halftours --start" "^304$" "$knight" count 5x5 --start 0,0 --method halftours
expect "count halftours --start --end" "^56$" "$knight" count 5x5 --start a5 --end e1 --method halftours
# 5x4 is turned to cut across its 4 columns: the given cells turn with it
expect "count halftours turned --start" "^7$" "$knight" count 5x4 --start 1,0 --method halftours
expect "count halftours turned --start --end" "^1$" "$knight" count 5x4 --start 1,0 --end 3,3 --method halftours
# auto (the default) hands 8x5 open to half-tours; the frontier alone agrees
expect "count auto open" "^18061054$" "$knight" count 8x5 --open --method auto
expect "count frontier open" "^18061054$" "$knight" count 8x5 --open --method frontier
status 2 "count --method bogus" "$knight" count 6x6 --method bogus
status 2 "count halftours --symmetric" "$knight" count 6x6 --symmetric --method halftours
# McKay's join in shards: the three parts add up to the whole.
sum=0
for i in 0 1 2; do
    part=$("$knight" count 6x6 --method halftours --shard $i/3 2>/dev/null | tail -n 1)
    sum=$((sum + ${part:-0}))
done
[ "$sum" -eq 9862 ] || { echo "FAIL: halftour shards sum to $sum, not 9862"; fail=1; }
sum=0
for i in 0 1 2; do
    part=$("$knight" count 5x6 --open --method halftours --shard $i/3 2>/dev/null | tail -n 1)
    sum=$((sum + ${part:-0}))
done
[ "$sum" -eq 18784 ] || { echo "FAIL: open halftour shards sum to $sum, not 18784"; fail=1; }
"$knight" check /nonexistent/file 2>/dev/null && { echo "FAIL: missing file accepted"; fail=1; }
# semimagic: complete a Knight Errant puzzle (seed 002 solution 1, 8 numbers kept).
printf '. . 49 . . . 17 .\n. . . . . . . .\n1 . . . 33 . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . 25 . 9 . . .\n. . . 41 . 57 . .\n' > "$tmp/ke.txt"
expect "semimagic completion" "^47  2 49 32 15 34 17 64" "$knight" semimagic --nested --grid "$tmp/ke.txt"
expect "semimagic count" "1 symmetry class, 1 numbering" "$knight" semimagic --nested --grid "$tmp/ke.txt"
# --make-puzzle: a puzzle from that tour, read back by --grid, has exactly
# one completion, the tour itself (every numbering counted).
"$knight" semimagic --nested --grid "$tmp/ke.txt" --make-puzzle --seed 4 --check-budget 200000 \
    > "$tmp/kp.txt" 2>/dev/null || { echo "FAIL: semimagic --make-puzzle"; fail=1; }
expect "make-puzzle header" "^# [0-9]* given numbers, difficulty [0-9]* search nodes (seed 4)" cat "$tmp/kp.txt"
expect "make-puzzle unique" "1 symmetry class, 1 numbering" "$knight" semimagic --nested --all --grid "$tmp/kp.txt"
expect "make-puzzle solution" "^47  2 49 32 15 34 17 64" "$knight" semimagic --nested --all --grid "$tmp/kp.txt"
[ "$(grep -c '^ *[0-9. ]*$' "$tmp/kp.txt")" -eq 8 ] || { echo "FAIL: make-puzzle grid rows"; fail=1; }
printf '1 2 . . . . . .\n' > "$tmp/kbad2.txt"
for r in 2 3 4 5 6 7 8; do printf '. . . . . . . .\n' >> "$tmp/kbad2.txt"; done
expect "make-puzzle without a tour" "none exists" "$knight" semimagic --nested --grid "$tmp/kbad2.txt" --make-puzzle
# Rectangles: the 4 x 7 tours whose columns add up (OEIS A309273: 9).
expect "semimagic 4x7 columns" "9 symmetry classes, 36 numberings" "$knight" semimagic --size 7x4 --columns --any-start
# Past 8 x 8 (sides up to 16): 4 x 9 (A309273: 38), and odd boards have no
# semimagic tour (the row sums' parities differ), 9x9 proved at once.
expect "semimagic 4x9 columns" "38 symmetry classes, 152 numberings" "$knight" semimagic --size 9x4 --columns --any-start
expect "semimagic 9x9 none" "none exists" "$knight" semimagic --size 9 --any-start --first
"$knight" semimagic --size 17 >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: semimagic --size 17 accepted"; fail=1; }
# A bounded search stops on its node budget (exit 1) and says what it
# found before (4 x 16 needs about 10^9 nodes in all).
expect "semimagic --budget" "stopped by --budget: [0-9]* symmetry class" "$knight" semimagic --size 16x4 --columns --any-start --budget 100000
printf '1 2 3\n4 x 6\n7 8 9\n' > "$tmp/kbad.txt"
expect "semimagic grid error located" "kbad.txt:2:3: expected a number" "$knight" semimagic --grid "$tmp/kbad.txt"
# Issue 13: help, exit statuses, output formats, coordinates, limits.
status() { # status WANTED DESCRIPTION COMMAND...
    want=$1; desc=$2; shift 2
    "$@" >/dev/null 2>&1; rc=$?
    [ "$rc" -eq "$want" ] || { echo "FAIL: $desc: exit status $rc, wanted $want"; fail=1; }
}
subs=$("$knight" help --list)
[ "$(printf '%s\n' "$subs" | wc -l)" -ge 13 ] || { echo "FAIL: help --list: $subs"; fail=1; }
for sub in $subs; do
    status 0 "$sub --help" "$knight" "$sub" --help
    status 0 "$sub -h" "$knight" "$sub" -h
    status 0 "help $sub" "$knight" help "$sub"
    h=$("$knight" "$sub" --help)
    [ "$h" = "$("$knight" help "$sub")" ] || { echo "FAIL: help $sub differs from $sub --help"; fail=1; }
    printf '%s\n' "$h" | grep -q "^usage: knight $sub" || { echo "FAIL: $sub --help has no usage line"; fail=1; }
    printf '%s\n' "$h" | grep -q -- "--quiet" || { echo "FAIL: $sub --help omits --quiet"; fail=1; }
done
# Every option a subcommand's parser accepts appears in its --help.
for pair in "tour --open --start --end --seed --method --tie --tourney --obfuscate --format -o" \
            "check --open" "svg -o --numbers --no-board" "walks --marked --max" \
            "join --seed --format -o" "shatter --seed --sequential --format -o" \
            "obfuscate --rounds --seed --sequential --format -o" "rails --count" \
            "semimagic --nested --magic --closed --halfturn --any-start --first --members --all --threads --size --grid --make-puzzle --seed --check-budget --rows --columns --shard --checkpoint --result" \
            "halftours --width --depth --other --threads --join" \
            "count --open --by-start --start --end --directed --symmetric --classes --method --threads --shard --checkpoint --checkpoint-interval --result --max-states --stats --trace"; do
    set -- $pair
    sub=$1; shift
    h=$("$knight" "$sub" --help)
    for flag in "$@"; do
        printf '%s\n' "$h" | grep -q -- "^  $flag\b" || { echo "FAIL: $sub --help omits $flag"; fail=1; }
    done
done
expect "help formats" "visit number 1..N" "$knight" help formats
expect "help coordinates" "y = h - r" "$knight" help coordinates
status 0 "help" "$knight" help
status 0 "--help" "$knight" --help
status 2 "no command" "$knight"
status 2 "unknown command" "$knight" frobnicate
status 2 "unknown option" "$knight" tour 8x8 --frobnicate
status 2 "missing size" "$knight" tour
status 2 "malformed size" "$knight" count 8by8
status 2 "missing value" "$knight" tour 8x8 --seed
status 2 "bad threads" "$knight" count 6x6 --threads 257
status 2 "bad threads (semimagic)" "$knight" semimagic --threads x
status 2 "bad check budget" "$knight" semimagic --make-puzzle --check-budget x
sum=0
for i in 0 1 2; do
    part=$("$knight" semimagic --size 7x4 --columns --any-start --shard $i/3 2>/dev/null | tail -n 1 | cut -d' ' -f1)
    sum=$((sum + ${part:-0}))
done
[ "$sum" -eq 9 ] || { echo "FAIL: semimagic 4x7 shards sum to $sum classes, not 9"; fail=1; }
# The same shards as results: knight reduce gives the whole search's line,
# and refuses a set that lacks a shard or mixes two searches.
for i in 0 1 2; do
    "$knight" -q semimagic --size 7x4 --columns --any-start --shard $i/3 --result "$tmp/sm-$i.result" > /dev/null ||
        fail=1
done
expect "reduce semimagic shards" "9 symmetry classes, 36 numberings satisfying the constraints" \
    "$knight" reduce "$tmp"/sm-0.result "$tmp"/sm-1.result "$tmp"/sm-2.result
status 1 "reduce semimagic incomplete" "$knight" reduce "$tmp"/sm-0.result "$tmp"/sm-2.result
"$knight" -q semimagic --size 7x4 --columns --shard 1/3 --result "$tmp/sm-rule-1.result" > /dev/null || fail=1
status 1 "reduce semimagic mixed searches" "$knight" reduce "$tmp"/sm-0.result "$tmp"/sm-rule-1.result "$tmp"/sm-2.result
status 2 "semimagic --result with --first" "$knight" semimagic --first --result "$tmp/x.result"
status 2 "semimagic bad shard" "$knight" semimagic --shard 3/3
"$knight" semimagic --size 7x4 --columns --any-start --checkpoint "$tmp/sm.ck" > /dev/null 2>&1 || fail=1
out=$("$knight" semimagic --size 7x4 --columns --any-start --checkpoint "$tmp/sm.ck" 2>&1)
[ "$out" = "9 symmetry classes, 36 numberings satisfying the constraints" ] || { echo "FAIL: semimagic resume from a finished checkpoint: $out"; fail=1; }
status 2 "semimagic 4x7 rows do not add up to an integer" "$knight" semimagic --size 7x4 --rows
status 2 "bad threads (halftours)" "$knight" halftours --threads -1
status 2 "bad format" "$knight" tour 6x6 --format png
status 2 "bad square" "$knight" tour 8x8 --start z9
status 2 "square off the board" "$knight" tour 8x8 --start 8,0
status 2 "check without file" "$knight" check
status 2 "bad shard" "$knight" count 6x6 --shard 3/3
status 2 "count --start off the board" "$knight" count 5x5 --start 5,0
status 2 "count --start equal to --end" "$knight" count 5x5 --start 1,2 --end 1,2
status 2 "count --start with --result" "$knight" count 5x5 --start 0,0 --result "$tmp/se.result"
status 1 "no tour" "$knight" tour 5x5
status 1 "missing file" "$knight" check "$tmp/nonexistent.txt"
status 1 "broken tour" "$knight" check "$tmp/bad.txt"
status 1 "count beyond the limit" "$knight" count 9x9
status 0 "threads 0" "$knight" count 5x6 --threads 0
expect "file error names path and reason" "nonexistent.txt: No such file or directory" "$knight" check "$tmp/nonexistent.txt"
status 1 "unwritable output" "$knight" tour 6x6 -o "$tmp/no/such/dir/t.txt"
expect "output error names path and reason" "dir/t.txt: No such file or directory" "$knight" tour 6x6 -o "$tmp/no/such/dir/t.txt"
expect "count 9x9 names the limit" "boards whose narrow side is at most 8" "$knight" count 9x9
expect "count 9x12 --open names the limit" "boards whose narrow side is at most 8" "$knight" count 9x12 --open
expect "usage error points to help" "knight count --help" "$knight" count 6x6 --bogus
# Shard results and knight reduce: the exact sum, and refusals naming the reason.
for i in 0 1 2; do
    "$knight" -q count 6x6 --shard $i/3 --result "$tmp/r$i.result" > /dev/null || { echo "FAIL: count --result"; fail=1; }
    "$knight" -q count 6x6 --method halftours --shard $i/3 --result "$tmp/h$i.result" > /dev/null || fail=1
done
"$knight" -q count 5x6 --shard 0/3 --result "$tmp/x0.result" > /dev/null || fail=1
"$knight" -q count 6x6 --directed --shard 0/3 --result "$tmp/o0.result" > /dev/null || fail=1
"$knight" -q count 6x6 --shard 0/2 --result "$tmp/n0.result" > /dev/null || fail=1
grep -qx "board 6x6" "$tmp/r1.result" && grep -qx "shard 1/3" "$tmp/r1.result" &&
    grep -q "^checksum [0-9a-f]\{16\}$" "$tmp/r1.result" || { echo "FAIL: shard result fields"; fail=1; }
ls "$tmp"/*.tmp.* > /dev/null 2>&1 && { echo "FAIL: --result left a temporary file"; fail=1; }
expect "reduce sums the shards" "^9862$" "$knight" reduce "$tmp/r2.result" "$tmp/r0.result" "$tmp/r1.result"
expect "reduce halftour shards" "^9862$" "$knight" reduce "$tmp"/h[0-2].result
sed 's/^count \([0-9]\)/count 1\1/' "$tmp/r1.result" > "$tmp/bad.result"
head -n 4 "$tmp/r1.result" > "$tmp/trunc.result"
status 1 "reduce incomplete" "$knight" reduce "$tmp/r0.result" "$tmp/r1.result"
expect "reduce incomplete names it" "incomplete: 1 of 3 shards missing (the first: shard 2/3)" "$knight" reduce "$tmp/r0.result" "$tmp/r1.result"
status 1 "reduce duplicate" "$knight" reduce "$tmp"/r[0-2].result "$tmp/r1.result"
expect "reduce duplicate names it" "duplicate shard 1/3" "$knight" reduce "$tmp"/r[0-2].result "$tmp/r1.result"
expect "reduce mixed board" "mixed runs: .* differ in board" "$knight" reduce "$tmp/x0.result" "$tmp/r1.result" "$tmp/r2.result"
expect "reduce mixed flags" "mixed runs: .* differ in flags" "$knight" reduce "$tmp/o0.result" "$tmp/r1.result" "$tmp/r2.result"
expect "reduce mixed method" "mixed runs: .* differ in method" "$knight" reduce "$tmp/h0.result" "$tmp/r1.result" "$tmp/r2.result"
expect "reduce mixed N" "mixed runs: .* differ in shard count" "$knight" reduce "$tmp/n0.result" "$tmp/r1.result" "$tmp/r2.result"
status 1 "reduce damaged" "$knight" reduce "$tmp/r0.result" "$tmp/bad.result" "$tmp/r2.result"
expect "reduce damaged names it" "bad.result: damaged" "$knight" reduce "$tmp/r0.result" "$tmp/bad.result" "$tmp/r2.result"
expect "reduce truncated" "trunc.result: damaged" "$knight" reduce "$tmp/r0.result" "$tmp/trunc.result" "$tmp/r2.result"
expect "reduce not a result" "t8.txt: not a shard result" "$knight" reduce "$tmp/t8.txt"
status 2 "reduce without files" "$knight" reduce
# -q: nothing on stderr; -- ends the options.
"$knight" shatter -q "$tmp/t8.txt" --seed 3 -o "$tmp/q8.moves" 2> "$tmp/q.err" || fail=1
[ -s "$tmp/q.err" ] && { echo "FAIL: -q still wrote to stderr:"; cat "$tmp/q.err"; fail=1; }
"$knight" -q halftours --width 4 --depth 2 > /dev/null 2> "$tmp/q.err" || fail=1
[ -s "$tmp/q.err" ] && { echo "FAIL: knight -q halftours wrote to stderr"; fail=1; }
cp "$tmp/t8.txt" "$tmp/-dash.txt"
(cd "$tmp" && "$knight" check -- -dash.txt) | grep -q "closed tour of 8x8" || { echo "FAIL: -- before a file starting with -"; fail=1; }
status 2 "option-like operand without --" sh -c "cd '$tmp' && '$knight' check -dash.txt"
# -o picks the format from the extension unless --format says otherwise.
"$knight" tour 6x6 -o "$tmp/x.svg" || fail=1
head -c 5 "$tmp/x.svg" | grep -q "<svg" || { echo "FAIL: -o x.svg did not write SVG"; fail=1; }
expect "svg from -o reads back" "closed tour of 6x6" "$knight" check "$tmp/x.svg"
"$knight" tour 6x6 -o "$tmp/x.moves" || fail=1
grep -q '^[0-7]\{6\}$' "$tmp/x.moves" || { echo "FAIL: -o x.moves did not write move digits"; fail=1; }
"$knight" tour 6x6 --format numbers -o "$tmp/y.svg" || fail=1
grep -q "svg" "$tmp/y.svg" && { echo "FAIL: --format numbers ignored for -o y.svg"; fail=1; }
"$knight" shatter "$tmp/t8.txt" --seed 3 -o "$tmp/s8.svg" 2>/dev/null || fail=1
head -c 5 "$tmp/s8.svg" | grep -q "<svg" || { echo "FAIL: shatter -o s8.svg did not write SVG"; fail=1; }
# check --open: a closed tour read as an open one.
expect "closed by default" "closed tour of 8x8" "$knight" check "$tmp/t8.txt"
expect "check --open" "open tour of 8x8" "$knight" check --open "$tmp/t8.txt"
expect "tourney size" "tourney of size [0-9]* on 8x8" "$knight" check "$tmp/s8.moves"
# Chess squares agree with numeric coordinates: a1 = 0,7 and h8 = 7,0 on 8x8; e2 = 4,3 on 6x5.
"$knight" tour 8x8 --start a1 --end h3 > "$tmp/c1.txt" || fail=1
"$knight" tour 8x8 --start 0,7 --end 7,5 > "$tmp/c2.txt" || fail=1
cmp -s "$tmp/c1.txt" "$tmp/c2.txt" || { echo "FAIL: a1/h3 differ from 0,7/7,5"; fail=1; }
first=$(awk 'NR==8 { print $1 }' "$tmp/c1.txt")
[ "$first" = 1 ] || { echo "FAIL: --start a1 is not the bottom-left cell (got $first)"; fail=1; }
"$knight" tour 6x5 --start e2 > "$tmp/c3.txt" || fail=1
"$knight" tour 6x5 --start 4,3 > "$tmp/c4.txt" || fail=1
cmp -s "$tmp/c3.txt" "$tmp/c4.txt" || { echo "FAIL: e2 differs from 4,3 on 6x5"; fail=1; }
# Progress: a line with an ETA on a terminal (script(1) gives a pty), none with -q.
if command -v script >/dev/null 2>&1; then
    out=$(script -qc "'$knight' count 6x8 --threads 1" /dev/null < /dev/null | tr '\r' '\n')
    printf '%s\n' "$out" | grep -q "100.0%  ETA" || { echo "FAIL: no progress with ETA on a terminal"; fail=1; }
    printf '%s\n' "$out" | grep -q "55488142" || { echo "FAIL: count 6x8 on a terminal"; fail=1; }
    out=$(script -qc "'$knight' count -q 6x8" /dev/null < /dev/null)
    printf '%s\n' "$out" | grep -q "ETA" && { echo "FAIL: progress despite -q"; fail=1; }
fi
[ $fail -eq 0 ] && echo "cli: all checks passed"
exit $fail
