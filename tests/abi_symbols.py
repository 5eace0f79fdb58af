#!/usr/bin/env python3
"""The exported symbol set is exactly the version script's, in the shared and
the static library, and every function the public headers declare is in it."""
import re
import subprocess
import sys


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def main():
    mapfile, shared, static, *headers = sys.argv[1:]
    text = re.sub(r"/\*.*?\*/", "", open(mapfile).read(), flags=re.S)
    mapped = set(re.findall(r"^\s*(kt_\w+);", text, flags=re.M))
    exported = set()
    for line in run("nm", "-D", "--defined-only", shared).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] != "A":
            exported.add(parts[2].split("@")[0])
    in_archive = set()
    for line in run("nm", "-g", "--defined-only", static).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] != "A":
            in_archive.add(parts[2])
    declared = set()
    for h in headers:
        src = open(h).read()
        declared |= set(re.findall(r"KT_EXPORT\s[^;(]*?\b(kt_\w+)\s*\(", src))
    failed = False
    for name, got in (("shared library", exported), ("static archive", in_archive),
                      ("public headers", declared)):
        if got != mapped:
            failed = True
            print(f"{name}: differs from {mapfile}")
            for s in sorted(got - mapped):
                print(f"  + {s} (not in the version script)")
            for s in sorted(mapped - got):
                print(f"  - {s} (in the version script only)")
    if not failed:
        print(f"{len(mapped)} symbols: version script, shared, static and headers agree")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
