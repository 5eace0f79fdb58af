# SPDX-License-Identifier: MIT
"""Compatibility module: the 0.x name of the Python bindings.

New code should ``import knight`` (bindings/python/knight, installable with
pip).  This module re-exports it with the flat constants of the old module
(FORMAT_*, SHAPE_*, the status codes, TIE_*, METHOD_*, COUNT_*, RULE_*)."""
from knight import *  # noqa: F401,F403
from knight import (CELL_NONE, CountFlag, Format, KnightError, Method, Rule, Shape,  # noqa: F401
                    Status, TieBreak, method_name, tiebreak_name)
from knight._lib import U128 as _CountValue  # noqa: F401

FORMAT_AUTO, FORMAT_NUMBERS, FORMAT_MOVES, FORMAT_SVG = (int(f) for f in Format)
SHAPE_CYCLES, SHAPE_PATH = int(Shape.CYCLES), int(Shape.PATH)
globals().update({s.name: int(s) for s in Status})
globals().update({"TIE_" + t.name: int(t) for t in TieBreak})
globals().update({"METHOD_" + m.name: int(m) for m in Method})
globals().update({"COUNT_" + c.name: int(c) for c in CountFlag if c.name != "CLOSED"})
globals().update({"RULE_" + r.name: int(r) for r in Rule})
gen_method_name = method_name
