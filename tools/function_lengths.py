#!/usr/bin/env python3
"""List the functions of lib/ longer than a limit, and check them against the
hot kernels doc/conventions.md allows to be long.

    tools/function_lengths.py [--limit N] [--check doc/conventions.md] [ROOT]

A function is a top-level `name(...) {` ... `}` block of a .c file (found by
brace matching outside comments, strings and character constants); its
length counts the lines from its signature's first line to the closing
brace.  With --check, every function over the limit must be named in the
list under the heading "Hot kernels allowed to be long" in the given file
(lines of the form "- `name`"), and every name listed must still exist: the
exit status is 1 otherwise.  Generated data (lib/generate/blocks_data.c)
holds no functions worth measuring and is skipped.
"""
import os
import re
import sys

SKIP = {os.path.join("lib", "generate", "blocks_data.c")}


def strip(src):
    """Blank out comments, strings and character constants, keeping newlines."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", src[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    text = strip(open(path, encoding="utf-8").read())
    lines = text.split("\n")
    depth, start, name, result = 0, None, None, []
    for no, line in enumerate(lines, 1):
        for ch in line:
            if ch == "{":
                if depth == 0:
                    # The signature: the nearest preceding "name(" at line start.
                    k = no
                    while k > 0 and not re.match(r"^[A-Za-z_]", lines[k - 1]):
                        k -= 1
                    sig = " ".join(lines[max(k - 1, 0):no])
                    m = re.findall(r"\b([A-Za-z_]\w*)\s*\(", sig)
                    name = m[0] if m and "=" not in sig.split("(")[0] else None
                    # skip struct/enum/initializer blocks
                    if re.match(r"^\s*(static\s+)?(const\s+)?(struct|enum|union|typedef)\b", lines[k - 1]) and "(" not in lines[k - 1]:
                        name = None
                    start = k
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0 and name is not None:
                    result.append((name, start, no, no - start + 1))
                    name = None
    return result


def allowed(doc):
    text = open(doc, encoding="utf-8").read()
    m = re.search(r"Hot kernels allowed to be long[^\n]*\n(.*?)(?:\n#|\Z)", text, flags=re.S)
    return set(re.findall(r"^\s*[-*]\s*`(\w+)`", m.group(1), flags=re.M)) if m else set()


def main():
    args = sys.argv[1:]
    limit, doc = 120, None
    while args and args[0].startswith("--"):
        if args[0] == "--limit":
            limit, args = int(args[1]), args[2:]
        elif args[0] == "--check":
            doc, args = args[1], args[2:]
        else:
            sys.exit(f"unknown option {args[0]}")
    root = args[0] if args else "."
    long = []
    for d, _, files in os.walk(os.path.join(root, "lib")):
        for f in sorted(files):
            path = os.path.join(d, f)
            if not f.endswith(".c") or os.path.relpath(path, root) in SKIP:
                continue
            for name, a, b, n in functions(path):
                if n > limit:
                    long.append((n, os.path.relpath(path, root), a, name))
    long.sort(reverse=True)
    for n, path, a, name in long:
        print(f"{n:5d} lines  {path}:{a}  {name}")
    if doc is None:
        return 0
    ok = allowed(os.path.join(root, doc) if not os.path.isabs(doc) else doc)
    names = {name for _, _, _, name in long}
    bad = sorted(names - ok)
    stale = sorted(ok - names)
    for name in bad:
        print(f"FAIL: {name} is over {limit} lines and not a listed hot kernel")
    for name in stale:
        print(f"FAIL: {name} is listed as a long hot kernel but is not over {limit} lines (or is gone)")
    if not bad and not stale:
        print(f"every function over {limit} lines is a listed hot kernel ({len(long)})")
    return 1 if bad or stale else 0


if __name__ == "__main__":
    sys.exit(main())
