#!/bin/sh
# The bash completion of knight: subcommands, flags and option values.
set -u
script=$1
command -v bash >/dev/null 2>&1 || { echo "bash not installed: skipped"; exit 77; }
fail=0
complete_words() { # complete_words WORD... -> the completions of the last word
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _knight; printf "%s\n" "${COMPREPLY[@]}"' \
        sh "$script" "$@" | sort | tr '\n' ' '
}
want() { # want "EXPECTED" WORD...
    exp=$1; shift
    got=$(complete_words "$@")
    [ "$got" = "$exp" ] || { echo "FAIL: completing '$*': got '$got', wanted '$exp'"; fail=1; }
}
want "count " knight co
want "count " knight -q co
want "--threads " knight count --th
want "--checkpoint --checkpoint-interval " knight count --check
want "auto frontier halftours " knight count --method ""
want "blocks braid " knight tour --method b
want "numbers " knight tour --format n
want "--nested " knight semimagic --ne
want "--quiet " knight rails --q
want "--help " knight rails --he
want "-o " knight shatter -o
want "coordinates count " knight help co
bash -c '. "$1"; complete -p knight' sh "$script" | grep -q "_knight knight" ||
    { echo "FAIL: completion not registered"; fail=1; }
[ $fail -eq 0 ] && echo "bash completion: all checks passed"
exit $fail
