#!/bin/sh
# knight(1): renders with man(1) without warnings and documents every
# subcommand and every option its --help lists.  Skips (77) without man.
set -u
knight=$1 page=$2
command -v man >/dev/null 2>&1 || { echo "man not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
MANWIDTH=100 MANPAGER=cat man --warnings -l "$page" 2> "$tmp/err" | sed 's/.\x08//g' > "$tmp/page.txt"
[ -s "$tmp/page.txt" ] || { echo "FAIL: man -l rendered nothing"; cat "$tmp/err"; exit 1; }
if [ -s "$tmp/err" ]; then echo "FAIL: warnings while rendering:"; cat "$tmp/err"; fail=1; fi
for section in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS "FILE FORMATS" COORDINATES "EXIT STATUS"; do
    grep -q "^$section" "$tmp/page.txt" || { echo "FAIL: no section $section"; fail=1; }
done
n=0
for sub in $("$knight" help --list); do
    n=$((n + 1))
    grep -q "^   $sub\$" "$tmp/page.txt" || { echo "FAIL: no subsection for $sub"; fail=1; }
    grep -q "knight $sub " "$tmp/page.txt" || { echo "FAIL: no synopsis for $sub"; fail=1; }
    for flag in $("$knight" "$sub" --help | sed -n 's/^  \(-[^ ,]*\).*/\1/p'); do
        grep -q -- "$flag" "$tmp/page.txt" || { echo "FAIL: $sub $flag not in the manual"; fail=1; }
    done
done
[ "$n" -ge 13 ] || { echo "FAIL: only $n subcommands"; fail=1; }
# the page is justified and wrapped: read it as one line of single spaces
tr -s ' \n' '  ' < "$tmp/page.txt" | grep -q "narrow side is at most 8" || { echo "FAIL: count's limit not in the manual"; fail=1; }
[ $fail -eq 0 ] && echo "knight(1): $n subcommands, all documented"
exit $fail
