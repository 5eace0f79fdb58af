# SPDX-License-Identifier: MIT
"""The package's coverage of the C API and its public surface: every
KT_EXPORT function of the installed (or source) headers is bound and called
by a public wrapper; every public name has a docstring and type hints;
Ctrl-C cancels a long call."""
import glob
import inspect
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
import typing
import unittest

import knight as kt
from knight import _lib

# Deliberate exceptions: C functions not reachable from the public API, with
# the reason.  None at present (every function is wrapped).
NOT_WRAPPED = {}


def header_dir():
    """The directory of knight/*.h: $KNIGHT_INCLUDE_DIR, the source tree next
    to this file, or the usual install prefixes."""
    here = os.path.dirname(os.path.abspath(__file__))
    for d in (os.environ.get("KNIGHT_INCLUDE_DIR"),
              os.path.join(here, "..", "..", "..", "include", "knight"),
              "/usr/local/include/knight", "/usr/include/knight"):
        if d and glob.glob(os.path.join(d, "graph.h")):
            return d
    return None


def exported_functions(d):
    names = set()
    for path in glob.glob(os.path.join(d, "*.h")) + glob.glob(os.path.join(d, "*.h.in")):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        for decl in re.findall(r"KT_EXPORT\s+([^;{]*?)\(", text):
            m = re.search(r"(kt_\w+)\s*$", decl)
            if m:
                names.add(m.group(1))
    return names


class CoverageTests(unittest.TestCase):
    def test_every_exported_function_is_bound_and_wrapped(self):
        d = header_dir()
        self.assertIsNotNone(d, "knight headers not found: set KNIGHT_INCLUDE_DIR")
        names = exported_functions(d)
        # version.h may be installed generated (version.h) or as version.h.in
        self.assertIn("kt_version_string", names | set(_lib.SIGNATURES), d)
        self.assertGreaterEqual(len(names), 138)
        src = inspect.getsource(kt)
        unbound = sorted(n for n in names if n not in _lib.SIGNATURES)
        unwrapped = sorted(n for n in names - set(NOT_WRAPPED) if f"_c.{n}(" not in src)
        self.assertEqual(unbound, [], "C functions without a signature in knight._lib")
        self.assertEqual(unwrapped, [], "C functions no public wrapper calls")
        stale = sorted(set(_lib.SIGNATURES) - names - {"kt_version", "kt_version_string"})
        self.assertEqual(stale, [], "signatures of functions the headers do not declare")
        bound = len(names) - len(NOT_WRAPPED)
        print(f"\ncoverage: {bound}/{len(names)} C functions wrapped", file=sys.stderr)

    def test_public_names_documented_and_typed(self):
        missing_doc, missing_hints = [], []
        for name in kt.__all__:
            obj = getattr(kt, name)
            if name in ("ProgressFn", "TraceFn", "LIBRARY_PATH", "CELL_NONE"):
                continue  # type aliases and constants
            if not (obj.__doc__ or "").strip():
                missing_doc.append(name)
            members = [(name, obj)]
            if inspect.isclass(obj):
                for m, v in vars(obj).items():
                    if m.startswith("_") and m not in ("__init__",):
                        continue
                    if isinstance(v, (staticmethod, classmethod)):
                        v = v.__func__
                    if isinstance(v, property):
                        if not (v.__doc__ or "").strip():
                            missing_doc.append(f"{name}.{m}")
                        v = v.fget
                    if inspect.isfunction(v):
                        if m != "__init__" and not (v.__doc__ or "").strip():
                            missing_doc.append(f"{name}.{m}")
                        members.append((f"{name}.{m}", v))
            for label, f in members:
                if inspect.isfunction(f):
                    hints = typing.get_type_hints(f)
                    params = [p for p in inspect.signature(f).parameters.values()
                              if p.name != "self" and p.name != "cls"
                              and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
                    if "return" not in hints or any(p.name not in hints for p in params):
                        missing_hints.append(label)
        self.assertEqual(missing_doc, [])
        self.assertEqual(missing_hints, [])

    def test_u128_conversion(self):
        # counts come back as kt_u128; past 64 bits through kt_u128_to_string
        self.assertEqual(kt._u128(_lib.U128(5, 0)), 5)
        self.assertEqual(kt._u128(_lib.U128(3, 1)), 2**64 + 3)
        self.assertEqual(kt._u128(_lib.U128(2**64 - 1, 2**64 - 1)), 2**128 - 1)

    def test_typed_marker_installed(self):
        self.assertTrue(os.path.exists(os.path.join(os.path.dirname(kt.__file__), "py.typed")))


class InterruptTests(unittest.TestCase):
    def interrupt(self, setup, call, check):
        """Run `call` in a child process, send SIGINT 0.5 s after it starts,
        and require KeyboardInterrupt within 1 s with the objects still valid."""
        child = textwrap.dedent(f"""
            import sys, time, knight
            {setup}
            print("READY", flush=True)
            try:
                r = {call}
                print("FINISHED", r, flush=True)
            except KeyboardInterrupt:
                t = time.monotonic()
                print("INTERRUPTED", t, {check}, flush=True)
        """)
        p = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ))
        self.assertEqual(p.stdout.readline().strip(), "READY")
        time.sleep(0.5)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=60)
        self.assertTrue(out.startswith("INTERRUPTED"), out)
        fields = out.split()
        self.assertLess(float(fields[1]) - sent, 1.0, "KeyboardInterrupt came too late")
        self.assertEqual(p.returncode, 0)
        return fields[2:]

    def test_sigint_cancels_a_long_count(self):
        # 6x10 closed tours take seconds on one thread; the graph stays usable
        out = self.interrupt("g = knight.Graph(6, 10)", "g.count_tours(threads=1)",
                             "g.width, knight.Graph(5, 6).count_tours()")
        self.assertEqual(out, ["6", "8"])

    def test_sigint_cancels_a_search(self):
        # 8x8 semimagic tours: minutes before the first one
        out = self.interrupt("o = knight.SemimagicOptions(8)", "o.search(threads=1)",
                             "o.size, int(o.flags)")
        self.assertEqual(out, ["8", "1"])

    def test_sigint_stops_a_solution_iterator(self):
        out = self.interrupt("o = knight.SemimagicOptions(8)",
                             "next(o.solutions(threads=1))", "o.size")
        self.assertEqual(out, ["8"])

    def test_iterator_close_stops_the_search(self):
        o = kt.SemimagicOptions(7, flags=0)  # billions of numbered 7x7 tours
        t = time.monotonic()
        it = o.solutions(threads=1)
        first = next(it)
        it.close()
        self.assertLess(time.monotonic() - t, 5.0)
        self.assertEqual(sorted(first.numbers), list(range(1, 50)))

    def test_handler_restored(self):
        before = signal.getsignal(signal.SIGINT)
        kt.Graph(6, 6).count_tours(threads=1)
        self.assertIs(signal.getsignal(signal.SIGINT), before)


if __name__ == "__main__":
    unittest.main()
