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
"$knight" shatter "$tmp/t8.txt" --seed 3 -o "$tmp/s8.moves" || fail=1
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
for m in warnsdorff neural divide braid four-cover; do
    "$knight" tour 16x16 --method $m --tourney --seed 3 > "$tmp/m_$m.txt" || { echo "FAIL: tour --method $m"; fail=1; }
    expect "method $m" "on 16x16" "$knight" check "$tmp/m_$m.txt"
done
expect "braid needs even" "does not apply" "$knight" tour 9x9 --method braid --tourney
expect "count 6x6" "^9862$" "$knight" count 6x6
expect "count 5x5 open directed" "^1728$" "$knight" count 5x5 --open --directed --threads 2
expect "count classes" "^1245$" "$knight" count 6x6 --classes
expect "count shard" "^[0-9]*$" "$knight" count 6x6 --shard 1/3
expect "count halftours" "^9862$" "$knight" count 6x6 --method halftours
expect "count halftours directed" "^88404$" "$knight" count 5x8 --method halftours --directed
# McKay's join in shards: the three parts add up to the whole.
sum=0
for i in 0 1 2; do
    part=$("$knight" count 6x6 --method halftours --shard $i/3 2>/dev/null | tail -n 1)
    sum=$((sum + ${part:-0}))
done
[ "$sum" -eq 9862 ] || { echo "FAIL: halftour shards sum to $sum, not 9862"; fail=1; }
"$knight" check /nonexistent/file 2>/dev/null && { echo "FAIL: missing file accepted"; fail=1; }
# semimagic: complete a Knight Errant puzzle (seed 002 solution 1, 8 numbers kept).
printf '. . 49 . . . 17 .\n. . . . . . . .\n1 . . . 33 . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . 25 . 9 . . .\n. . . 41 . 57 . .\n' > "$tmp/ke.txt"
expect "semimagic completion" "^47  2 49 32 15 34 17 64" "$knight" semimagic --nested --grid "$tmp/ke.txt"
expect "semimagic count" "1 symmetry class, 1 numbering" "$knight" semimagic --nested --grid "$tmp/ke.txt"
printf '1 2 3\n4 x 6\n7 8 9\n' > "$tmp/kbad.txt"
expect "semimagic grid error located" "kbad.txt:2:3: expected a number" "$knight" semimagic --grid "$tmp/kbad.txt"
[ $fail -eq 0 ] && echo "cli: all checks passed"
exit $fail
