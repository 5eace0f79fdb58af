# SPDX-License-Identifier: MIT
"""Python bindings for libknight through ctypes (standard library only).

The shared library is found through $KNIGHT_LIBRARY, then the usual
search path (ctypes.util.find_library("knight")).  Errors raise
KnightError carrying the library's status code and message.

    >>> import libknight
    >>> g = libknight.Graph(6, 6)
    >>> t = g.exhaustive_tour()
    >>> t.is_closed_tour
    True
"""
import ctypes
import ctypes.util
import os

_path = os.environ.get("KNIGHT_LIBRARY") or ctypes.util.find_library("knight")
if not _path:
    raise ImportError("libknight not found: set KNIGHT_LIBRARY to libknight.so")
_lib = ctypes.CDLL(_path)

CELL_NONE = 0xFFFFFFFF
FORMAT_AUTO, FORMAT_NUMBERS, FORMAT_MOVES, FORMAT_SVG = 0, 1, 2, 3
SHAPE_CYCLES, SHAPE_PATH = 0, 1
OK, ERANGE, EPARSE, EBADTOUR, ENOTOUR = 0, 13, 4, 5, 6
EINVAL, ENOTFOUND, EUNSUPPORTED, ELIMIT = 1, 7, 11, 15
TIE_FIRST, TIE_RANDOM, TIE_POHL, TIE_ROTH = 0, 1, 2, 3
(METHOD_BLOCKS, METHOD_WARNSDORFF, METHOD_NEURAL, METHOD_DIVIDE, METHOD_BRAID,
 METHOD_FOUR_COVER) = range(6)
COUNT_OPEN, COUNT_DIRECTED, COUNT_SYMMETRIC, COUNT_CLASSES = 0x1, 0x2, 0x4, 0x8
(RULE_NONE, RULE_NOT_A_CELL, RULE_NOT_A_MOVE, RULE_REPEATED, RULE_MISSING, RULE_NOT_CLOSED,
 RULE_DEGREE, RULE_NOT_A_PATH, RULE_HOLE) = range(9)

_c_graph = ctypes.c_void_p
_c_tourney = ctypes.c_void_p
_size = ctypes.c_size_t


class _Diag(ctypes.Structure):
    """Mirror of struct kt_diag (common.h), whose layout is frozen."""
    _fields_ = [
        ("line", ctypes.c_uint64),
        ("column", ctypes.c_uint64),
        ("rule", ctypes.c_int),
        ("cell", ctypes.c_uint32),
    ]


def _sig(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_strerror = _sig("kt_strerror", ctypes.c_char_p, ctypes.c_int)
_status_name = _sig("kt_status_name", ctypes.c_char_p, ctypes.c_int)
_rule_describe = _sig("kt_rule_describe", ctypes.c_char_p, ctypes.c_int)
_version_string = _sig("kt_version_string", ctypes.c_char_p)
_graph_new_custom = _sig("kt_graph_new_custom", ctypes.c_int, ctypes.POINTER(_c_graph),
                         ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32,
                         ctypes.c_char_p, ctypes.c_void_p)
_graph_parse_mask = _sig("kt_graph_parse_mask", ctypes.c_int, ctypes.POINTER(_c_graph),
                         ctypes.c_char_p, _size, ctypes.c_uint32, ctypes.c_uint32,
                         ctypes.c_void_p, ctypes.POINTER(_Diag))
_graph_free = _sig("kt_graph_free", None, _c_graph)
_graph_width = _sig("kt_graph_width", ctypes.c_uint32, _c_graph)
_graph_height = _sig("kt_graph_height", ctypes.c_uint32, _c_graph)
_graph_cell_count = _sig("kt_graph_cell_count", _size, _c_graph)
_graph_vertex_count = _sig("kt_graph_vertex_count", _size, _c_graph)
_graph_edge_count = _sig("kt_graph_edge_count", ctypes.c_uint64, _c_graph)
_graph_neighbor = _sig("kt_graph_neighbor", ctypes.c_uint32, _c_graph, ctypes.c_uint32, ctypes.c_int)
_graph_move = _sig("kt_graph_move", ctypes.c_int, _c_graph, ctypes.c_uint32, ctypes.c_uint32)
_graph_degree = _sig("kt_graph_degree", ctypes.c_uint, _c_graph, ctypes.c_uint32)
_graph_is_cell = _sig("kt_graph_is_cell", ctypes.c_int, _c_graph, ctypes.c_uint32)
_has_closed = _sig("kt_graph_board_has_closed_tour", ctypes.c_int, ctypes.c_uint32, ctypes.c_uint32)
_has_open = _sig("kt_graph_board_has_open_tour", ctypes.c_int, ctypes.c_uint32, ctypes.c_uint32)
_count_walks = _sig("kt_walks_count", ctypes.c_int, _c_graph, ctypes.c_uint32, ctypes.c_char_p,
                    ctypes.c_uint32, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64), _size,
                    ctypes.POINTER(ctypes.c_uint64))
_exhaustive = _sig("kt_exhaustive_tour", ctypes.c_int, ctypes.POINTER(_c_tourney), _c_graph,
                   ctypes.c_int, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_void_p)
_from_order = _sig("kt_tourney_from_order", ctypes.c_int, ctypes.POINTER(_c_tourney), _c_graph,
                   ctypes.POINTER(ctypes.c_uint32), _size, ctypes.c_int, ctypes.POINTER(_Diag))
_tourney_free = _sig("kt_tourney_free", None, _c_tourney)
_tourney_graph = _sig("kt_tourney_graph", _c_graph, _c_tourney)
_tourney_size = _sig("kt_tourney_size", _size, _c_tourney)
_is_closed = _sig("kt_tourney_is_closed_tour", ctypes.c_int, _c_tourney)
_is_open = _sig("kt_tourney_is_open_tour", ctypes.c_int, _c_tourney)
_tourney_equal = _sig("kt_tourney_equal", ctypes.c_int, _c_tourney, _c_tourney)
_tourney_order = _sig("kt_tourney_order", ctypes.c_int, _c_tourney, ctypes.c_uint32, ctypes.c_int,
                      ctypes.POINTER(ctypes.c_uint32), _size, ctypes.POINTER(_size))
_tourney_successors = _sig("kt_tourney_successors", ctypes.c_int, _c_tourney,
                           ctypes.POINTER(ctypes.c_uint32), _size)
_write_buffer = _sig("kt_io_write_buffer", ctypes.c_int, _c_tourney, ctypes.c_int,
                     ctypes.c_uint, ctypes.c_uint32, ctypes.c_char_p, _size, ctypes.POINTER(_size))
_parse = _sig("kt_io_parse", ctypes.c_int, ctypes.POINTER(_c_tourney), _c_graph,
              ctypes.c_char_p, _size, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p,
              ctypes.POINTER(_Diag))
_move_counts = _sig("kt_tourney_move_counts", ctypes.c_int, _c_tourney, ctypes.c_uint64 * 8)
_rel_counts = _sig("kt_tourney_relative_move_counts", ctypes.c_int, _c_tourney, ctypes.c_uint64 * 8)

# generate.h (enums kt_shape, kt_generate_tiebreak and kt_generate_method are passed as int;
# the last argument is a kt_options pointer, None for the defaults)
_closed_tour = _sig("kt_generate_closed_tour", ctypes.c_int, ctypes.POINTER(_c_tourney), _c_graph,
                    ctypes.c_uint64, ctypes.c_void_p)
_divide_tour = _sig("kt_generate_divide_tour", ctypes.c_int, ctypes.POINTER(_c_tourney), _c_graph,
                    ctypes.c_uint64, ctypes.c_void_p)
_open_tour = _sig("kt_generate_open_tour", ctypes.c_int, ctypes.POINTER(_c_tourney), _c_graph,
                  ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_void_p)
_warnsdorff = _sig("kt_generate_warnsdorff_tour", ctypes.c_int, ctypes.POINTER(_c_tourney), _c_graph,
                   ctypes.c_int, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint64, ctypes.c_void_p)
_gen_tourney = _sig("kt_generate_tourney", ctypes.c_int, ctypes.POINTER(_c_tourney), _c_graph,
                    ctypes.c_int, ctypes.c_uint64, ctypes.c_void_p)
# options.h, as far as the generators use it: an opaque kt_options with a budget.
_options_new = _sig("kt_options_new", ctypes.c_int, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p)
_options_free = _sig("kt_options_free", None, ctypes.c_void_p)
_options_set_budget = _sig("kt_options_set_budget", ctypes.c_int, ctypes.c_void_p, ctypes.c_uint64)
_gen_method_name = _sig("kt_generate_method_name", ctypes.c_char_p, ctypes.c_int)
_gen_method_parse = _sig("kt_generate_method_parse", ctypes.c_int, ctypes.c_char_p,
                         ctypes.POINTER(ctypes.c_int))
_tiebreak_name = _sig("kt_generate_tiebreak_name", ctypes.c_char_p, ctypes.c_int)
# rails.h
# join and obfuscate take run settings (const kt_options *): NULL = defaults
_join = _sig("kt_rails_join", ctypes.c_int, _c_tourney, ctypes.c_uint64, ctypes.c_void_p)
_shatter = _sig("kt_rails_shatter", ctypes.c_int, _c_tourney, ctypes.c_uint64)
_shatter_sequential = _sig("kt_rails_shatter_sequential", ctypes.c_int, _c_tourney, ctypes.c_uint64)
_obfuscate = _sig("kt_rails_obfuscate", ctypes.c_int, _c_tourney, ctypes.c_uint, ctypes.c_uint64,
                  ctypes.c_void_p)
_count_rails = _sig("kt_rails_count_tourney", ctypes.c_int, _c_tourney,
                    ctypes.POINTER(ctypes.c_uint64))

# options.h: kt_options is opaque, made and set only through its functions.
_c_options = ctypes.c_void_p
_options_new = _sig("kt_options_new", ctypes.c_int, ctypes.POINTER(_c_options), ctypes.c_void_p)
_options_free = _sig("kt_options_free", None, _c_options)
_options_set_threads = _sig("kt_options_set_threads", ctypes.c_int, _c_options, ctypes.c_uint)

# count.h (kt_u128 has a frozen layout)
_progress_fn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64)


class _CountValue(ctypes.Structure):
    """Mirror of struct kt_u128 (common.h, layout frozen): value = hi * 2**64 + lo."""
    _fields_ = [("lo", ctypes.c_uint64), ("hi", ctypes.c_uint64)]

    def __int__(self):
        return (self.hi << 64) | self.lo


_count_tours = _sig("kt_count_tours", ctypes.c_int, _c_graph, ctypes.c_uint, _c_options,
                    ctypes.POINTER(_CountValue), ctypes.c_void_p)
_options_set_shard = _sig("kt_options_set_shard", ctypes.c_int, _c_options, ctypes.c_uint32,
                          ctypes.c_uint32)
# halftour.h
_halftours_count_closed = _sig("kt_halftours_count_closed", ctypes.c_int, ctypes.c_uint32,
                               ctypes.c_uint32, ctypes.c_uint32, _c_options,
                               ctypes.POINTER(_CountValue))


class KnightError(Exception):
    """A libknight call failed: .status is the kt_status, .name its symbol.

    For a rejected input (the kt_diag of a parser or validator): .line and
    .column, 1-based, of a parse error or of the offending cell's text (0
    when there is no position); .rule, the RULE_* broken (RULE_NONE when
    none), with .rule_name its description; .cell, the cell where it was
    broken (None when none)."""

    def __init__(self, status, detail="", diag=None):
        self.status = status
        self.name = _status_name(status).decode()
        self.line = diag.line if diag is not None else 0
        self.column = diag.column if diag is not None else 0
        self.rule = diag.rule if diag is not None else RULE_NONE
        self.rule_name = _rule_describe(self.rule).decode() if self.rule != RULE_NONE else None
        cell = diag.cell if diag is not None else CELL_NONE
        self.cell = None if cell == CELL_NONE else cell
        msg = _strerror(status).decode()
        super().__init__(f"{msg} ({self.name}){': ' + detail if detail else ''}")


def _check(status, detail=""):
    if status != OK:
        raise KnightError(status, detail)


def _check_diag(status, diag):
    """Raise KnightError for a failed parser or validator, with its kt_diag."""
    if status == OK:
        return
    parts = []
    if diag.line:
        parts.append(f"line {diag.line}, column {diag.column}")
    if diag.rule != RULE_NONE:
        where = f" at cell {diag.cell}" if diag.cell != CELL_NONE else ""
        parts.append(_rule_describe(diag.rule).decode() + where)
    raise KnightError(status, "; ".join(parts), diag)


def version():
    """The running library's version string."""
    return _version_string().decode()


def has_closed_tour(width, height):
    """Schwenk's theorem for a full width x height board."""
    return bool(_has_closed(width, height))


def has_open_tour(width, height):
    """Whether a full width x height board has an open tour."""
    return bool(_has_open(width, height))


def gen_method_name(method):
    """The library's name of generator method `method` (an int): "blocks",
    "warnsdorff", "neural", "divide", "braid", "four-cover"; "unknown" otherwise."""
    return _gen_method_name(method).decode()


def tiebreak_name(tie):
    """The library's name of Warnsdorff tie-break `tie` (an int): "first",
    "random", "pohl", "roth"; "unknown" otherwise."""
    return _tiebreak_name(tie).decode()


class _Budget:
    """A kt_options object holding a budget, for the length of one call
    (`with _Budget(n) as run`); 0 gives None, the library's defaults."""

    def __init__(self, budget):
        self._budget = budget
        self._h = ctypes.c_void_p()

    def __enter__(self):
        if not self._budget:
            return None
        _check(_options_new(ctypes.byref(self._h), None))
        _check(_options_set_budget(self._h, self._budget))
        return self._h

    def __exit__(self, *exc):
        _options_free(self._h)
        return False


def _gen_method(method):
    if isinstance(method, int):
        return method
    m = ctypes.c_int()
    _check(_gen_method_parse(str(method).encode(), ctypes.byref(m)),
           f"unknown generator method {method!r}")
    return m.value


_TIES = {_tiebreak_name(i).decode(): i for i in range(4)}


def _tiebreak(tie):
    if isinstance(tie, int):
        return tie
    if tie not in _TIES:
        raise KnightError(EINVAL, f"unknown tie-break {tie!r} (one of {', '.join(_TIES)})")
    return _TIES[tie]


def count_closed_by_halftours(width, height, split=None, threads=0, shard=None):
    """Undirected closed tours of a full width x height board by McKay's
    method (kt_halftours_count_closed): the board is cut below row `split`
    (rows of the upper half; default height // 2), both halves' path
    structures are enumerated and joined.  width is 1 to 8.  threads: 0 =
    one per core.  shard=(i, n): only shard i of n of the join (the n
    shards' counts sum to the whole).  Returns an int."""
    if split is None:
        split = height // 2
    run = _c_options()
    _check(_options_new(ctypes.byref(run), None))
    try:
        _check(_options_set_threads(run, threads), "threads")
        if shard is not None:
            _check(_options_set_shard(run, shard[0], shard[1]), "shard")
        n = _CountValue()
        _check(_halftours_count_closed(width, height, split, run, ctypes.byref(n)))
        return int(n)
    finally:
        _options_free(run)


class Graph:
    """The leaper graph of a board (kt_graph)."""

    def __init__(self, width, height, leaper=(2, 1), mask=None, _handle=None):
        if _handle is not None:
            self._h = _handle
            return
        h = _c_graph()
        m = None
        if mask is not None:
            m = bytes(1 if v else 0 for v in mask)
            if len(m) != width * height:
                raise ValueError("mask needs width * height entries")
        _check(_graph_new_custom(ctypes.byref(h), width, height, leaper[0], leaper[1], m, None))
        self._h = h

    @classmethod
    def from_mask_text(cls, text, leaper=(2, 1)):
        """Parse a board mask ('.' or '#' holes, any other character a cell)."""
        h = _c_graph()
        raw = text.encode()
        d = _Diag()
        _check_diag(_graph_parse_mask(ctypes.byref(h), raw, len(raw), leaper[0], leaper[1], None,
                                      ctypes.byref(d)), d)
        return cls(0, 0, _handle=h)

    def __del__(self):
        h = getattr(self, "_h", None)
        if h:
            _graph_free(h)
            self._h = None

    width = property(lambda self: _graph_width(self._h))
    height = property(lambda self: _graph_height(self._h))
    cell_count = property(lambda self: _graph_cell_count(self._h))
    vertex_count = property(lambda self: _graph_vertex_count(self._h))
    edge_count = property(lambda self: _graph_edge_count(self._h))

    def cell(self, x, y):
        return y * self.width + x

    def neighbor(self, cell, move):
        """The cell reached by move 0-7, or None."""
        c = _graph_neighbor(self._h, cell, move)
        return None if c == CELL_NONE else c

    def move(self, a, b):
        """The move number from a to b, or None."""
        m = _graph_move(self._h, a, b)
        return None if m < 0 else m

    def degree(self, cell):
        return _graph_degree(self._h, cell)

    def is_cell(self, cell):
        return bool(_graph_is_cell(self._h, cell))

    def count_walks(self, length, marked=(), max_marked=0):
        """Walks of `length` cells; returns (per-start list, total)."""
        n = self.cell_count
        m = bytes(1 if c in set(marked) else 0 for c in range(n))
        per = (ctypes.c_uint64 * n)()
        total = ctypes.c_uint64()
        _check(_count_walks(self._h, length, m, max_marked, None, per, n, ctypes.byref(total)))
        return list(per), total.value

    def exhaustive_tour(self, open=False, start=None, end=None, max_nodes=0):
        """Exact search for a closed (or open) tour (kt_exhaustive_tour); raises
        KnightError(ENOTOUR) if none, ELIMIT when `max_nodes` search nodes
        (0: no limit) did not settle it."""
        t = _c_tourney()
        with _Budget(max_nodes) as run:
            _check(_exhaustive(ctypes.byref(t), self._h, SHAPE_PATH if open else SHAPE_CYCLES,
                               CELL_NONE if start is None else start,
                               CELL_NONE if end is None else end, run))
        return Tourney(t)

    def tour_from_order(self, order, closed=True):
        """Build a tour from the cells in visiting order (validated)."""
        arr = (ctypes.c_uint32 * len(order))(*order)
        t = _c_tourney()
        d = _Diag()
        _check_diag(_from_order(ctypes.byref(t), self._h, arr, len(order),
                                SHAPE_CYCLES if closed else SHAPE_PATH, ctypes.byref(d)), d)
        return Tourney(t)

    def _cell_arg(self, c):
        """None -> CELL_NONE, (x, y) -> its cell index, an index as is."""
        if c is None:
            return CELL_NONE
        if isinstance(c, tuple):
            x, y = c
            return self.cell(x, y)
        return c

    def closed_tour(self, seed=0):
        """A closed tour in linear time (kt_generate_closed_tour); the same seed
        gives the same tour.  Raises KnightError(ENOTOUR) when Schwenk's
        theorem rules one out, EUNSUPPORTED for holes or another leaper."""
        t = _c_tourney()
        _check(_closed_tour(ctypes.byref(t), self._h, seed, None))
        return Tourney(t)

    def open_tour(self, start=None, end=None, seed=0):
        """An open tour (kt_generate_open_tour), optionally from `start` and/or
        to `end` (cells as (x, y) tuples or indices; None for either end).
        Raises KnightError(ENOTOUR) when no such tour exists, ENOTFOUND when
        the bounded search gave up."""
        t = _c_tourney()
        _check(_open_tour(ctypes.byref(t), self._h, self._cell_arg(start), self._cell_arg(end),
                          seed, None))
        return Tourney(t)

    def warnsdorff_tour(self, closed=True, start=None, tie="random", seed=0, attempts=0):
        """A closed (or open) tour by Warnsdorff's rule (kt_generate_warnsdorff_tour).
        `tie` is "first", "random", "pohl", "roth" or a TIE_* int; `start` a
        cell ((x, y) or index; None: a corner); `attempts` (walks) 0 for the
        library's default (1 for "first", 64 otherwise).  Raises
        KnightError(ELIMIT) when every attempt failed, ENOTOUR when the board
        has no tour of that shape."""
        t = _c_tourney()
        with _Budget(attempts) as run:
            _check(_warnsdorff(ctypes.byref(t), self._h, SHAPE_CYCLES if closed else SHAPE_PATH,
                               self._cell_arg(start), _tiebreak(tie), seed, run))
        return Tourney(t)

    def divide_tour(self, seed=0):
        """A closed tour by Parberry-style divide-and-conquer (kt_generate_divide_tour);
        seed 0 gives the canonical structured tour.  Errors as closed_tour()."""
        t = _c_tourney()
        _check(_divide_tour(ctypes.byref(t), self._h, seed, None))
        return Tourney(t)

    def tourney(self, method, seed=0, budget=0):
        """A tourney (cycle cover) by generator `method` (kt_generate_tourney):
        a name as gen_method_name() gives it ("blocks", "warnsdorff",
        "neural", "divide", "braid", "four-cover") or a METHOD_* int.
        `budget` 0 for the default work bound.  Raises KnightError
        (EUNSUPPORTED when the method does not apply to the board, ELIMIT
        when the budget ran out, EINVAL for an unknown name)."""
        t = _c_tourney()
        with _Budget(budget) as run:
            _check(_gen_tourney(ctypes.byref(t), self._h, _gen_method(method), seed, run))
        return Tourney(t)

    def count_tours(self, open=False, directed=False, symmetric=False, classes=False, threads=1):
        """The exact number of tours (kt_count_tours), as an int: undirected
        closed tours by default; open tours (Hamiltonian paths), directed
        tours (each undirected one twice), only the closed tours invariant
        under the 180-degree rotation (symmetric), or the number of classes
        of (symmetric) closed tours under the board's rotations and
        reflections (classes; not with open, ignores directed).  Raises
        KnightError(EUNSUPPORTED) when the board is too wide to count."""
        flags = ((COUNT_OPEN if open else 0) | (COUNT_DIRECTED if directed else 0)
                 | (COUNT_SYMMETRIC if symmetric else 0) | (COUNT_CLASSES if classes else 0))
        run = _c_options()
        _check(_options_new(ctypes.byref(run), None))
        try:
            _check(_options_set_threads(run, threads))
            out = _CountValue()
            _check(_count_tours(self._h, flags, run, ctypes.byref(out), None))
        finally:
            _options_free(run)
        return int(out)


class Tourney:
    """A cycle cover or an open tour (kt_tourney)."""

    def __init__(self, handle):
        self._h = handle

    def __del__(self):
        h = getattr(self, "_h", None)
        if h:
            _tourney_free(h)
            self._h = None

    @classmethod
    def parse(cls, text, fmt=FORMAT_AUTO, open=False):
        """Read a tour or tourney; a KnightError names the line and column
        (and for a bad tour the rule and cell)."""
        raw = text.encode() if isinstance(text, str) else text
        t = _c_tourney()
        d = _Diag()
        _check_diag(_parse(ctypes.byref(t), None, raw, len(raw), fmt, 1 if open else 0, None,
                           ctypes.byref(d)), d)
        return cls(t)

    size = property(lambda self: _tourney_size(self._h))
    is_closed_tour = property(lambda self: bool(_is_closed(self._h)))
    is_open_tour = property(lambda self: bool(_is_open(self._h)))

    def __eq__(self, other):
        return isinstance(other, Tourney) and bool(_tourney_equal(self._h, other._h))

    def order(self, start, direction=0):
        """Cells of the cycle or path through `start`, in order."""
        n = _graph_cell_count(_tourney_graph(self._h))
        out = (ctypes.c_uint32 * n)()
        ln = _size()
        _check(_tourney_order(self._h, start, direction, out, n, ctypes.byref(ln)))
        return list(out[: ln.value])

    def successors(self):
        n = _graph_cell_count(_tourney_graph(self._h))
        out = (ctypes.c_uint32 * n)()
        _check(_tourney_successors(self._h, out, n))
        return [None if c == CELL_NONE else c for c in out]

    def to_text(self, fmt=FORMAT_NUMBERS, flags=0, start=None):
        s = CELL_NONE if start is None else start
        need = _size()
        st = _write_buffer(self._h, fmt, flags, s, None, 0, ctypes.byref(need))
        if st != ERANGE:
            _check(st)
        buf = ctypes.create_string_buffer(need.value + 1)
        _check(_write_buffer(self._h, fmt, flags, s, buf, need.value + 1, ctypes.byref(need)))
        return buf.value.decode()

    def move_counts(self):
        c = (ctypes.c_uint64 * 8)()
        _check(_move_counts(self._h, c))
        return list(c)

    def relative_move_counts(self):
        c = (ctypes.c_uint64 * 8)()
        _check(_rel_counts(self._h, c))
        return list(c)

    def join(self, seed=0):
        """Join this cycle cover into one closed tour by switching rails
        (kt_rails_join), in place; returns self.  Raises KnightError (ENOTOUR,
        ENOTFOUND, EUNSUPPORTED for an open tour), leaving self unchanged."""
        _check(_join(self._h, seed, None))
        return self

    def shatter(self, seed=0):
        """Switch a random set of vertex-disjoint rails (kt_rails_shatter), in place;
        returns self.  A closed tour becomes a tourney of many cycles."""
        _check(_shatter(self._h, seed))
        return self

    def shatter_sequential(self, seed=0):
        """Shatter as Parberry's code does (kt_rails_shatter_sequential): every rail
        that is still a rail, in a random order; in place, returns self."""
        _check(_shatter_sequential(self._h, seed))
        return self

    def obfuscate(self, rounds=0, seed=0):
        """Shatter `rounds` times (0: the default 16) then join (kt_rails_obfuscate),
        in place; returns self.  On error self is unchanged."""
        _check(_obfuscate(self._h, rounds, seed, None))
        return self

    def count_rails(self):
        """The number of rails of this tourney (kt_rails_count_tourney)."""
        n = ctypes.c_uint64()
        _check(_count_rails(self._h, ctypes.byref(n)))
        return n.value
