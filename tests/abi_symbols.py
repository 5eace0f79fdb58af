#!/usr/bin/env python3
"""The exported symbol set is exactly the version script's, in the shared and
the static library, and every function the public headers declare is in it.
With --baseline ABI_FILE, the released nodes of the version script are
checked against the baseline: every symbol of the baseline stays in the node
it was released in, and a node of the baseline gains no symbol (additions go
into a new node that inherits the last one)."""
import re
import subprocess
import sys


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def main():
    args = sys.argv[1:]
    baseline = None
    if args[:1] == ["--baseline"]:
        baseline, args = args[1], args[2:]
    mapfile, shared, static, *headers = args
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
    if baseline is not None:
        failed |= check_nodes(text, baseline)
    if not failed:
        print(f"{len(mapped)} symbols: version script, shared, static and headers agree")
    return 1 if failed else 0


def check_nodes(text, baseline):
    """Released nodes are frozen: same symbols as in the baseline."""
    nodes = {}
    for name, body in re.findall(r"(KNIGHT_[\w.]+)\s*\{(.*?)\}", text, flags=re.S):
        nodes[name] = set(re.findall(r"^\s*(kt_\w+);", body, flags=re.M))
    released = {}
    for sym, ver in re.findall(r"<elf-symbol name='(kt_\w+)' version='([\w.]+)'", open(baseline).read()):
        released.setdefault(ver, set()).add(sym)
    failed = False
    for ver, syms in sorted(released.items()):
        have = nodes.get(ver, set())
        for s in sorted(syms - have):
            print(f"  - {s}: released in {ver} but no longer in that node")
            failed = True
        for s in sorted(have - syms):
            print(f"  + {s}: added to the released node {ver}; add it in a new node instead")
            failed = True
    if not failed:
        print(f"released nodes {', '.join(sorted(released))} unchanged")
    return failed


if __name__ == "__main__":
    sys.exit(main())
