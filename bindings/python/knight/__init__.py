# SPDX-License-Identifier: MIT
"""Python bindings for libknight, the C library of knight's tour algorithms.

The package uses only the standard library (ctypes).  It finds the
installed ``libknight.so.1`` by itself: ``$KNIGHT_LIBRARY`` if set, else
``ctypes.util.find_library("knight")``, the soname through the dynamic
linker, then the common prefixes (``/usr/local/lib``, ...).

    >>> import knight
    >>> with knight.Graph(6, 6) as g:
    ...     g.count_tours()
    9862

Every call that fails raises a :class:`KnightError` subclass chosen by the
status (``InvalidArgument`` and ``ParseError`` are also ``ValueError``,
``OutOfMemory`` a ``MemoryError``, ...).  Every call that can run long takes
the run settings as keyword arguments (``threads``, ``progress``, ``shard``,
``budget``, ``checkpoint``, ``checkpoint_interval``, ``trace``) or an
:class:`Options` object; Ctrl-C during such a call cancels it and raises
``KeyboardInterrupt``, leaving every object as it was.
"""
from __future__ import annotations

import ctypes
import enum
import queue
import signal
import threading
import weakref
from typing import (IO, Any, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional,
                    Sequence, Tuple, Union)

from . import _lib
from ._lib import c as _c

__all__ = [
    "LIBRARY_PATH", "CELL_NONE", "Status", "Rule", "Shape", "Format", "WriteFlag", "ReadFlag",
    "CountFlag", "Method", "TieBreak", "RailsEffect", "SemimagicFlag", "Symmetry",
    "KnightError", "InvalidArgument", "OutOfMemory", "TooBig", "ParseError", "BadTour", "NoTour",
    "NotFound", "Canceled", "CountOverflow", "KnightIOError", "Unsupported", "Mismatch",
    "BufferTooSmall", "ThreadError", "LimitReached",
    "version", "version_number", "strerror", "status_name", "is_error", "rule_describe",
    "has_closed_tour", "has_open_tour", "method_name", "method_parse", "tiebreak_name",
    "Options", "Graph", "Tourney", "Rail", "Rails", "Stats", "CountStats",
    "HalftourStructure", "HalftourStats", "Halftours", "Sampler", "SampleStats", "types_compatible",
    "count_closed_by_halftours", "count_open_by_halftours", "SemimagicOptions", "SemimagicSolution", "ProgressFn",
    "TraceFn",
]

#: The path or name libknight was loaded from.
LIBRARY_PATH: str = _lib.path
#: "No cell" (KT_CELL_NONE); the bindings give None instead wherever they can.
CELL_NONE: int = 0xFFFFFFFF
_SEMIMAGIC_NO_CLASS = 2**64 - 1
_SEMIMAGIC_ANY = 0xFFFFFFFF

#: A progress callback: (done, total) -> a true value to cancel, else False/None.
ProgressFn = Callable[[int, int], Optional[bool]]
#: A trace callback: (step, size) -> None.
TraceFn = Callable[[int, int], None]
Cell = int


# --- enumerations ---------------------------------------------------------

class Status(enum.IntEnum):
    """kt_status: the result of a call (KT_OK and the KT_E* errors)."""
    OK = 0
    EINVAL = 1
    ENOMEM = 2
    ETOOBIG = 3
    EPARSE = 4
    EBADTOUR = 5
    ENOTOUR = 6
    ENOTFOUND = 7
    ECANCELED = 8
    EOVERFLOW = 9
    EIO = 10
    EUNSUPPORTED = 11
    EMISMATCH = 12
    ERANGE = 13
    ETHREAD = 14
    ELIMIT = 15


class Rule(enum.IntEnum):
    """kt_rule: the rule a rejected tour breaks (KT_RULE_*)."""
    NONE = 0
    NOT_A_CELL = 1
    NOT_A_MOVE = 2
    REPEATED = 3
    MISSING = 4
    NOT_CLOSED = 5
    DEGREE = 6
    NOT_A_PATH = 7
    HOLE = 8


class Shape(enum.IntEnum):
    """kt_shape: a cycle cover (closed tour when of size 1) or an open tour."""
    CYCLES = 0
    PATH = 1


class Format(enum.IntEnum):
    """kt_io_format: the text formats (AUTO for reading only)."""
    AUTO = 0
    NUMBERS = 1
    MOVES = 2
    SVG = 3


class WriteFlag(enum.IntFlag):
    """KT_IO_WRITE_* writer flags."""
    DEFAULT = 0
    SVG_NUMBERS = 1
    SVG_NO_BOARD = 2
    REVERSE = 4


class ReadFlag(enum.IntFlag):
    """KT_IO_READ_* reader flags."""
    DEFAULT = 0
    OPEN = 1


class CountFlag(enum.IntFlag):
    """KT_COUNT_* flags of kt_count_tours()."""
    CLOSED = 0
    OPEN = 1
    DIRECTED = 2
    SYMMETRIC = 4
    CLASSES = 8
    FRONTIER = 16


class Method(enum.IntEnum):
    """kt_generate_method: the tourney generators."""
    BLOCKS = 0
    WARNSDORFF = 1
    NEURAL = 2
    DIVIDE = 3
    BRAID = 4
    FOUR_COVER = 5


class TieBreak(enum.IntEnum):
    """kt_generate_tiebreak: Warnsdorff tie-breaking rules."""
    FIRST = 0
    RANDOM = 1
    POHL = 2
    ROTH = 3
    WPLUS = 4
    W2 = 5


class RailsEffect(enum.IntEnum):
    """kt_rails_effect: what switching a rail did."""
    MERGE = 0
    SPLIT = 1
    KEEP = 2


class SemimagicFlag(enum.IntFlag):
    """KT_SEMIMAGIC_* constraint flags."""
    NONE = 0
    LINES = 1
    NESTED = 2
    MAGIC = 4
    CLOSED = 8
    ROWS = 16
    COLUMNS = 32
    HALFTURN = 64


class Symmetry(enum.IntEnum):
    """kt_semimagic_symmetry: how a search reports symmetric solutions."""
    CLASSES = 0
    MEMBERS = 1
    ALL = 2


# --- errors ---------------------------------------------------------------

class KnightError(Exception):
    """A libknight call failed.

    Attributes: ``status`` (a :class:`Status`), ``name`` (its C symbol,
    e.g. ``"KT_EPARSE"``), ``line`` and ``column`` (1-based position of a
    parse error or of a rejected cell's text, 0 when none), ``rule`` (the
    :class:`Rule` broken, ``Rule.NONE`` when none), ``rule_name`` (its
    description or None) and ``cell`` (the cell where it was broken, or
    None)."""

    status: Status
    name: str
    line: int
    column: int
    rule: Rule
    rule_name: Optional[str]
    cell: Optional[int]

    def __init__(self, status: int, detail: str = "", diag: Optional[_lib.Diag] = None) -> None:
        self.status = Status(status) if status in Status._value2member_map_ else status  # type: ignore[assignment]
        self.name = status_name(status)
        self.line = int(diag.line) if diag is not None else 0
        self.column = int(diag.column) if diag is not None else 0
        rule = int(diag.rule) if diag is not None else 0
        self.rule = Rule(rule) if rule in Rule._value2member_map_ else rule  # type: ignore[assignment]
        self.rule_name = rule_describe(rule) if rule else None
        cell = int(diag.cell) if diag is not None else CELL_NONE
        self.cell = None if cell == CELL_NONE else cell
        parts = [detail] if detail else []
        if self.line:
            parts.append(f"line {self.line}, column {self.column}")
        if self.rule_name:
            parts.append(self.rule_name + (f" at cell {self.cell}" if self.cell is not None else ""))
        msg = f"{strerror(status)} ({self.name})"
        Exception.__init__(self, msg + (": " + "; ".join(parts) if parts else ""))

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class InvalidArgument(KnightError, ValueError):
    """KT_EINVAL: an argument is invalid."""


class OutOfMemory(KnightError, MemoryError):
    """KT_ENOMEM: memory allocation failed."""


class TooBig(KnightError, OverflowError):
    """KT_ETOOBIG: a size overflows the index type or addressable memory."""


class ParseError(KnightError, ValueError):
    """KT_EPARSE: malformed text; ``line`` and ``column`` say where."""


class BadTour(KnightError, ValueError):
    """KT_EBADTOUR: not a valid tour or tourney; ``rule`` and ``cell`` say why."""


class NoTour(KnightError):
    """KT_ENOTOUR: proved that no tour of the requested kind exists."""


class NotFound(KnightError):
    """KT_ENOTFOUND: a bounded or heuristic search gave up."""


class Canceled(KnightError):
    """KT_ECANCELED: a progress callback (or a solution callback) stopped the call."""


class CountOverflow(KnightError, OverflowError):
    """KT_EOVERFLOW: an exact count does not fit its integer type."""


class KnightIOError(KnightError, OSError):
    """KT_EIO: reading or writing (a checkpoint, a write callback) failed."""


class Unsupported(KnightError):
    """KT_EUNSUPPORTED: the operation does not apply to this board or object."""


class Mismatch(KnightError, ValueError):
    """KT_EMISMATCH: two objects (or a text and a board) disagree."""


class BufferTooSmall(KnightError):
    """KT_ERANGE: an output buffer is too small (the bindings size buffers themselves)."""


class ThreadError(KnightError, RuntimeError):
    """KT_ETHREAD: a worker thread could not be started (never produced by 1.x)."""


class LimitReached(KnightError):
    """KT_ELIMIT: the work budget given ran out."""


_ERRORS: Dict[int, type] = {
    1: InvalidArgument, 2: OutOfMemory, 3: TooBig, 4: ParseError, 5: BadTour, 6: NoTour,
    7: NotFound, 8: Canceled, 9: CountOverflow, 10: KnightIOError, 11: Unsupported,
    12: Mismatch, 13: BufferTooSmall, 14: ThreadError, 15: LimitReached,
}


def _error(status: int, detail: str = "", diag: Optional[_lib.Diag] = None) -> KnightError:
    cls = _ERRORS.get(status, KnightError)
    return cls(status, detail, diag)  # type: ignore[no-any-return]


def _check(status: int, detail: str = "", diag: Optional[_lib.Diag] = None) -> None:
    if status != 0:
        raise _error(status, detail, diag)


# --- small functions ------------------------------------------------------

def version() -> str:
    """The running library's version string (kt_version_string), e.g. "1.0.0"."""
    return (_c.kt_version_string() or b"").decode()


def version_number() -> int:
    """The running library's version as major*10000 + minor*100 + patch (kt_version)."""
    return int(_c.kt_version())


def strerror(status: int) -> str:
    """A description of a status (kt_strerror), also for unknown values."""
    return (_c.kt_strerror(status) or b"").decode()


def status_name(status: int) -> str:
    """The C name of a status, e.g. "KT_EINVAL" (kt_status_name)."""
    return (_c.kt_status_name(status) or b"").decode()


def is_error(status: int) -> bool:
    """Whether a status is an error (kt_is_error)."""
    return bool(_c.kt_is_error(status))


def rule_describe(rule: int) -> str:
    """A description of a :class:`Rule` (kt_rule_describe)."""
    return (_c.kt_rule_describe(rule) or b"").decode()


def has_closed_tour(width: int, height: int) -> bool:
    """Schwenk's theorem: whether a full width x height board has a closed tour."""
    return bool(_c.kt_graph_board_has_closed_tour(width, height))


def has_open_tour(width: int, height: int) -> bool:
    """Whether a full width x height knight board has an open tour."""
    return bool(_c.kt_graph_board_has_open_tour(width, height))


def method_name(method: int) -> str:
    """The name of a generator :class:`Method` ("blocks", "warnsdorff", ...; "unknown")."""
    return (_c.kt_generate_method_name(int(method)) or b"").decode()


def method_parse(name: str) -> Method:
    """The :class:`Method` of a name as method_name() gives it; InvalidArgument otherwise."""
    m = ctypes.c_int()
    _check(_c.kt_generate_method_parse(name.encode(), ctypes.byref(m)),
           f"unknown generator method {name!r}")
    return Method(m.value)


def tiebreak_name(tie: int) -> str:
    """The name of a Warnsdorff :class:`TieBreak` ("first", "random", "pohl", "roth", "wplus", "w2")."""
    return (_c.kt_generate_tiebreak_name(int(tie)) or b"").decode()


def _u128(v: _lib.U128) -> int:
    """A kt_u128 as an int, through kt_u128_to_u64 (or kt_u128_to_string past 64 bits)."""
    out = ctypes.c_uint64()
    if _c.kt_u128_to_u64(ctypes.byref(v), ctypes.byref(out)) == 0:
        return int(out.value)
    buf = ctypes.create_string_buffer(48)
    _check(_c.kt_u128_to_string(ctypes.byref(v), buf, len(buf)))
    return int(buf.value.decode())


# --- run settings ---------------------------------------------------------

_RUN_KEYS = ("threads", "progress", "shard", "budget", "checkpoint", "checkpoint_interval",
             "trace")


class Options:
    """Run settings of the long calls (kt_options): ``threads`` (0 = one per
    core, 1 = the calling thread only), ``progress`` (a callable (done,
    total) returning a true value to cancel), ``shard`` ((index, count)),
    ``budget`` (0 = unlimited; the unit depends on the call),
    ``checkpoint`` (a file path) with ``checkpoint_interval`` (seconds; 0 =
    every step, negative = the default), and ``trace`` (a callable (step,
    size)).

    Every long call also takes the same names as keyword arguments, which
    override an ``options=`` object for that call."""

    def __init__(self, threads: int = 0, progress: Optional[ProgressFn] = None,
                 shard: Optional[Tuple[int, int]] = None, budget: int = 0,
                 checkpoint: Optional[str] = None, checkpoint_interval: float = -1.0,
                 trace: Optional[TraceFn] = None) -> None:
        h = ctypes.c_void_p()
        _check(_c.kt_options_new(ctypes.byref(h), None))
        self._h: Optional[int] = h.value
        self.progress: Optional[ProgressFn] = progress
        self._trace: Optional[TraceFn] = None
        self._trace_c: Any = None
        self.threads = threads
        if shard is not None:
            self.shard = shard
        self.budget = budget
        if checkpoint is not None:
            self.set_checkpoint(checkpoint, checkpoint_interval)
        if trace is not None:
            self.trace = trace

    def _handle(self) -> int:
        if not self._h:
            raise ValueError("Options object is closed")
        return self._h

    def close(self) -> None:
        """Free the C object now (kt_options_free); also done on garbage collection."""
        h, self._h = getattr(self, "_h", None), None
        if h:
            _c.kt_options_free(h)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # at interpreter shutdown the module may be gone already
            pass

    def __enter__(self) -> "Options":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def copy(self) -> "Options":
        """An independent copy (kt_options_copy), callbacks included."""
        new = Options.__new__(Options)
        h = ctypes.c_void_p()
        _check(_c.kt_options_copy(ctypes.byref(h), self._handle()))
        new._h = h.value
        new.progress = self.progress
        new._trace, new._trace_c = self._trace, self._trace_c
        return new

    @property
    def threads(self) -> int:
        """The thread setting as given (kt_options_threads; 0 = one per core)."""
        return int(_c.kt_options_threads(self._handle()))

    @threads.setter
    def threads(self, n: int) -> None:
        _check(_c.kt_options_set_threads(self._handle(), n), "threads")

    @property
    def thread_count(self) -> int:
        """The number of threads a call will use (kt_options_thread_count)."""
        return int(_c.kt_options_thread_count(self._handle()))

    @property
    def shard(self) -> Tuple[int, int]:
        """(index, count) of the shard computed (kt_options_shard); (0, 1) = the whole."""
        i, n = ctypes.c_uint32(), ctypes.c_uint32()
        _c.kt_options_shard(self._handle(), ctypes.byref(i), ctypes.byref(n))
        return int(i.value), int(n.value)

    @shard.setter
    def shard(self, value: Tuple[int, int]) -> None:
        _check(_c.kt_options_set_shard(self._handle(), value[0], value[1]), "shard")

    @property
    def budget(self) -> int:
        """The work bound (kt_options_budget; 0 = unlimited)."""
        return int(_c.kt_options_budget(self._handle()))

    @budget.setter
    def budget(self, value: int) -> None:
        _check(_c.kt_options_set_budget(self._handle(), value), "budget")

    @property
    def checkpoint(self) -> Optional[str]:
        """The checkpoint file (kt_options_checkpoint), or None."""
        p = _c.kt_options_checkpoint(self._handle())
        return p.decode() if p is not None else None

    @checkpoint.setter
    def checkpoint(self, path: Optional[str]) -> None:
        self.set_checkpoint(path)

    def set_checkpoint(self, path: Optional[str], interval: float = -1.0) -> None:
        """Save and resume the state of a long call in `path` every `interval`
        seconds (0 = every step, negative = 300) (kt_options_set_checkpoint)."""
        _check(_c.kt_options_set_checkpoint(self._handle(),
                                            None if path is None else str(path).encode(),
                                            float(interval)), "checkpoint")

    @property
    def trace(self) -> Optional[TraceFn]:
        """The trace callable (step, size), or None (kt_options_set_trace)."""
        return self._trace

    @trace.setter
    def trace(self, fn: Optional[TraceFn]) -> None:
        cb: Any
        if fn is None:
            cb = ctypes.cast(None, _lib.TRACE_FN)  # type: ignore[arg-type]
        else:
            user_fn: TraceFn = fn

            def cb_py(_user: Any, step: int, size: int) -> None:
                try:
                    user_fn(step, size)
                except BaseException:  # a trace cannot stop the call; it is only informative
                    pass
            cb = _lib.TRACE_FN(cb_py)
        _check(_c.kt_options_set_trace(self._handle(), cb, None))
        self._trace, self._trace_c = fn, cb

    def __repr__(self) -> str:
        if not self._h:
            return "<knight.Options closed>"
        return (f"Options(threads={self.threads}, shard={self.shard}, budget={self.budget}, "
                f"checkpoint={self.checkpoint!r}, progress={self.progress!r})")


class _Run:
    """One long call's settings: a private kt_options copy with a progress
    callback that runs the user's callable and watches for SIGINT.  Use as
    ``with _Run(options, kw) as run: status = _c.kt_x(..., run.h, ...)``
    then ``run.check(status)``."""

    def __init__(self, options: Optional[Options], kw: Dict[str, Any]) -> None:
        bad = set(kw) - set(_RUN_KEYS)
        if bad:
            raise TypeError(f"unknown run setting(s): {', '.join(sorted(bad))}")
        self.opts = options.copy() if options is not None else Options()
        for k in ("threads", "budget", "shard", "trace"):
            if kw.get(k) is not None:
                setattr(self.opts, k, kw[k])
        if kw.get("checkpoint") is not None:
            self.opts.set_checkpoint(kw["checkpoint"], kw.get("checkpoint_interval", -1.0))
        self.user = kw.get("progress") if kw.get("progress") is not None else self.opts.progress
        self.interrupted = False
        self.user_cancel = False
        self.error: Optional[BaseException] = None
        self._old: Any = None
        self._cb = _lib.PROGRESS_FN(self._progress)
        _check(_c.kt_options_set_progress(self.opts._handle(), self._cb, None))
        self.h = self.opts._handle()

    def _progress(self, _user: Any, done: int, total: int) -> int:
        # Entering Python here also runs any pending signal handler (ours sets the flag).
        if self.interrupted or self.error is not None:
            return 1
        if self.user is not None:
            try:
                if self.user(int(done), int(total)):
                    self.user_cancel = True
                    return 1
            except BaseException as e:  # re-raised once the C call has returned
                self.error = e
                return 1
        return 1 if self.interrupted else 0

    def _on_sigint(self, signum: int, frame: Any) -> None:
        self.interrupted = True

    def __enter__(self) -> "_Run":
        if threading.current_thread() is threading.main_thread():
            try:
                self._old = signal.signal(signal.SIGINT, self._on_sigint)
            except (ValueError, OSError):
                self._old = None
        return self

    def __exit__(self, exc_type: Any, *exc: Any) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)
        self.opts.close()
        if self.interrupted and exc_type is None:  # Ctrl-C just after the call returned
            raise KeyboardInterrupt

    def check(self, status: int, detail: str = "") -> None:
        """Raise what the call's end means: KeyboardInterrupt after Ctrl-C, the
        progress callable's own exception, else the status's KnightError."""
        if self.interrupted:
            raise KeyboardInterrupt
        if self.error is not None:
            raise self.error
        _check(status, detail)


def _run(options: Optional[Options], kw: Dict[str, Any]) -> _Run:
    return _Run(options, kw)


# --- graphs ---------------------------------------------------------------

class Graph:
    """The leaper graph of a board (kt_graph): width x height cells, an
    (a, b) leaper (the knight by default), optionally a mask of holes.

    ``len(g)`` is the number of vertices (cells that are not holes),
    iteration yields them in cell order, ``==`` compares boards
    (kt_graph_equal), and ``with Graph(8, 8) as g:`` frees it on exit.
    Cells are indices ``y * width + x``."""

    def __init__(self, width: int, height: int, leaper: Tuple[int, int] = (2, 1),
                 mask: Optional[Sequence[Any]] = None) -> None:
        h = ctypes.c_void_p()
        self._owner: Any = None
        if mask is None and tuple(leaper) == (2, 1):
            _check(_c.kt_graph_new(ctypes.byref(h), width, height))
        else:
            m = None
            if mask is not None:
                m = bytes(1 if v else 0 for v in mask)
                if len(m) != width * height:
                    raise InvalidArgument(1, "mask needs width * height entries")
            _check(_c.kt_graph_new_custom(ctypes.byref(h), width, height, leaper[0], leaper[1],
                                          m, None))
        self._h: Optional[int] = h.value

    @classmethod
    def _wrap(cls, handle: int, owner: Any = None) -> "Graph":
        g = cls.__new__(cls)
        g._h = handle
        g._owner = owner  # a borrowed graph (of a tourney) is not freed here
        return g

    @classmethod
    def parse_mask(cls, text: str, leaper: Tuple[int, int] = (2, 1)) -> "Graph":
        """A board from a text mask (kt_graph_parse_mask): one row per line,
        '.' or '#' a hole, any other character a cell.  ParseError carries
        the line and column."""
        raw = text.encode()
        h = ctypes.c_void_p()
        d = _lib.Diag()
        _check(_c.kt_graph_parse_mask(ctypes.byref(h), raw, len(raw), leaper[0], leaper[1],
                                      None, ctypes.byref(d)), diag=d)
        return cls._wrap(int(h.value or 0))

    from_mask_text = parse_mask

    def _handle(self) -> int:
        if not self._h:
            raise ValueError("Graph is closed")
        return self._h

    def close(self) -> None:
        """Free the graph now (kt_graph_free); tourneys made from it keep the
        board alive through their own reference."""
        h, self._h = getattr(self, "_h", None), None
        if h and getattr(self, "_owner", None) is None:
            _c.kt_graph_free(h)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # at interpreter shutdown the module may be gone already
            pass

    def __enter__(self) -> "Graph":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def width(self) -> int:
        """Columns (kt_graph_width)."""
        return int(_c.kt_graph_width(self._handle()))

    @property
    def height(self) -> int:
        """Rows (kt_graph_height)."""
        return int(_c.kt_graph_height(self._handle()))

    @property
    def cell_count(self) -> int:
        """width * height, holes included (kt_graph_cell_count)."""
        return int(_c.kt_graph_cell_count(self._handle()))

    @property
    def vertex_count(self) -> int:
        """Cells that are not holes (kt_graph_vertex_count)."""
        return int(_c.kt_graph_vertex_count(self._handle()))

    @property
    def edge_count(self) -> int:
        """Undirected leaper moves between vertices (kt_graph_edge_count)."""
        return int(_c.kt_graph_edge_count(self._handle()))

    @property
    def leaper(self) -> Tuple[int, int]:
        """The leaper (a, b) (kt_graph_leaper)."""
        a, b = ctypes.c_uint32(), ctypes.c_uint32()
        _c.kt_graph_leaper(self._handle(), ctypes.byref(a), ctypes.byref(b))
        return int(a.value), int(b.value)

    @property
    def has_holes(self) -> bool:
        """Whether some cell is a hole (kt_graph_has_holes)."""
        return bool(_c.kt_graph_has_holes(self._handle()))

    def is_cell(self, cell: int) -> bool:
        """Whether `cell` is on the board and not a hole (kt_graph_is_cell)."""
        return 0 <= cell < 2**32 and bool(_c.kt_graph_is_cell(self._handle(), cell))

    def cell(self, x: int, y: int) -> int:
        """The index of cell (x, y) (kt_graph_cell); InvalidArgument off the board."""
        c = _c.kt_graph_cell(self._handle(), x, y)
        if c == CELL_NONE:
            raise InvalidArgument(1, f"({x}, {y}) is off the {self.width}x{self.height} board")
        return int(c)

    def coords(self, cell: int) -> Tuple[int, int]:
        """(x, y) of a cell (kt_graph_coords)."""
        x, y = ctypes.c_uint32(), ctypes.c_uint32()
        _check(_c.kt_graph_coords(self._handle(), cell, ctypes.byref(x), ctypes.byref(y)),
               f"cell {cell}")
        return int(x.value), int(y.value)

    def move_delta(self, move: int) -> Tuple[int, int]:
        """(dx, dy) of move 0-7 of this leaper (kt_graph_move_dx, kt_graph_move_dy)."""
        return (int(_c.kt_graph_move_dx(self._handle(), move)),
                int(_c.kt_graph_move_dy(self._handle(), move)))

    def neighbor(self, cell: int, move: int) -> Optional[int]:
        """The cell reached from `cell` by move 0-7, or None (kt_graph_neighbor)."""
        c = _c.kt_graph_neighbor(self._handle(), cell, move)
        return None if c == CELL_NONE else int(c)

    def neighbors(self, cell: int) -> List[int]:
        """Every cell one move from `cell`, by move number."""
        return [n for n in (self.neighbor(cell, m) for m in range(8)) if n is not None]

    def move(self, a: int, b: int) -> Optional[int]:
        """The move number from a to b, or None when they are not a move apart (kt_graph_move)."""
        m = _c.kt_graph_move(self._handle(), a, b)
        return None if m < 0 else int(m)

    def degree(self, cell: int) -> int:
        """Moves from `cell` to vertices (kt_graph_degree)."""
        return int(_c.kt_graph_degree(self._handle(), cell))

    def move_mask(self, cell: int) -> int:
        """Bit m set when move m from `cell` lands on a vertex (kt_graph_move_mask)."""
        return int(_c.kt_graph_move_mask(self._handle(), cell))

    def __len__(self) -> int:
        return self.vertex_count

    def __iter__(self) -> Iterator[int]:
        h = self._handle()
        return (c for c in range(self.cell_count) if _c.kt_graph_is_cell(h, c))

    def __contains__(self, cell: object) -> bool:
        return isinstance(cell, int) and self.is_cell(cell)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Graph):
            return NotImplemented
        return bool(_c.kt_graph_equal(self._handle(), other._handle()))

    def __hash__(self) -> int:
        holes = tuple(c for c in range(self.cell_count) if not self.is_cell(c))
        return hash((self.width, self.height, self.leaper, holes))

    def __repr__(self) -> str:
        if not self._h:
            return "<knight.Graph closed>"
        extra = "" if self.leaper == (2, 1) else f", leaper={self.leaper}"
        if self.has_holes:
            extra += f", holes={self.cell_count - self.vertex_count}"
        return f"Graph({self.width}, {self.height}{extra})"

    # tours from data
    def tour_from_order(self, order: Sequence[int], closed: bool = True) -> "Tourney":
        """A tour from its cells in visiting order (kt_tourney_from_order); BadTour
        carries the rule and cell."""
        arr = _lib.u32_array(order)
        t = ctypes.c_void_p()
        d = _lib.Diag()
        _check(_c.kt_tourney_from_order(ctypes.byref(t), self._handle(), arr, len(order),
                                        Shape.CYCLES if closed else Shape.PATH, ctypes.byref(d)),
               diag=d)
        return Tourney._wrap(t.value, self)

    def tourney_from_successors(self, succ: Sequence[Optional[int]]) -> "Tourney":
        """A tourney from a successor per cell, None for holes and a path's last
        cell (kt_tourney_from_successors)."""
        arr = _lib.u32_array([_lib.none_or(s, CELL_NONE) for s in succ])
        t = ctypes.c_void_p()
        d = _lib.Diag()
        _check(_c.kt_tourney_from_successors(ctypes.byref(t), self._handle(), arr, len(succ),
                                             ctypes.byref(d)), diag=d)
        return Tourney._wrap(t.value, self)

    def tourney_from_move_pairs(self, moves: Sequence[int]) -> "Tourney":
        """A tourney from per-cell move pairs as Tourney.move_pairs() gives them
        (kt_tourney_from_move_pairs)."""
        arr = (ctypes.c_uint8 * len(moves))(*moves)
        t = ctypes.c_void_p()
        d = _lib.Diag()
        _check(_c.kt_tourney_from_move_pairs(ctypes.byref(t), self._handle(), arr, len(moves),
                                             ctypes.byref(d)), diag=d)
        return Tourney._wrap(t.value, self)

    def validate_successors(self, succ: Sequence[Optional[int]]) -> None:
        """Check a successor array (kt_tourney_validate_successors); raises BadTour."""
        arr = _lib.u32_array([_lib.none_or(s, CELL_NONE) for s in succ])
        d = _lib.Diag()
        _check(_c.kt_tourney_validate_successors(self._handle(), arr, len(succ),
                                                 ctypes.byref(d)), diag=d)

    def parse(self, text: Union[str, bytes], fmt: int = Format.AUTO,
              open: bool = False) -> "Tourney":
        """Read a tourney of this board (kt_io_parse with this graph)."""
        return Tourney.parse(text, fmt, open, graph=self)

    def rail_cells(self, rail: "Rail") -> Tuple[int, int, int, int]:
        """The cells u, v, w, x of a rail parallelogram (kt_rails_cells)."""
        out = (_lib.c_cell * 4)()
        _check(_c.kt_rails_cells(self._handle(), Rail(*rail)._c(), out), repr(rail))
        return int(out[0]), int(out[1]), int(out[2]), int(out[3])

    # long calls
    def count_walks(self, length: int, marked: Iterable[int] = (), max_marked: int = 0,
                    options: Optional[Options] = None, **run: Any) -> Tuple[List[int], int]:
        """Walks of `length` cells visiting at most `max_marked` cells of `marked`
        (kt_walks_count); returns (per start cell, total)."""
        n = self.cell_count
        ms = set(marked)
        m = bytes(1 if c in ms else 0 for c in range(n))
        per = (ctypes.c_uint64 * n)()
        total = ctypes.c_uint64()
        with _run(options, run) as r:
            r.check(_c.kt_walks_count(self._handle(), length, m, max_marked, r.h, per, n,
                                      ctypes.byref(total)))
        return [int(v) for v in per], int(total.value)

    def _cell_arg(self, c: Union[None, int, Tuple[int, int]]) -> int:
        if c is None:
            return CELL_NONE
        if isinstance(c, tuple):
            return self.cell(*c)
        return int(c)

    def exhaustive_tour(self, open: bool = False, start: Union[None, int, Tuple[int, int]] = None,
                        end: Union[None, int, Tuple[int, int]] = None, max_nodes: int = 0,
                        options: Optional[Options] = None, **run: Any) -> "Tourney":
        """An exact search for a closed (or open) tour (kt_exhaustive_tour):
        NoTour proves none exists; LimitReached when `max_nodes` (the
        budget) ran out."""
        if max_nodes:
            run.setdefault("budget", max_nodes)
        t = ctypes.c_void_p()
        with _run(options, run) as r:
            r.check(_c.kt_exhaustive_tour(ctypes.byref(t), self._handle(),
                                          Shape.PATH if open else Shape.CYCLES,
                                          self._cell_arg(start), self._cell_arg(end), r.h))
        return Tourney._wrap(t.value, self)

    def closed_tour(self, seed: int = 0, options: Optional[Options] = None,
                    **run: Any) -> "Tourney":
        """A closed tour in linear time (kt_generate_closed_tour)."""
        t = ctypes.c_void_p()
        with _run(options, run) as r:
            r.check(_c.kt_generate_closed_tour(ctypes.byref(t), self._handle(), seed, r.h))
        return Tourney._wrap(t.value, self)

    def divide_tour(self, seed: int = 0, options: Optional[Options] = None,
                    **run: Any) -> "Tourney":
        """A closed tour by divide and conquer (kt_generate_divide_tour)."""
        t = ctypes.c_void_p()
        with _run(options, run) as r:
            r.check(_c.kt_generate_divide_tour(ctypes.byref(t), self._handle(), seed, r.h))
        return Tourney._wrap(t.value, self)

    def open_tour(self, start: Union[None, int, Tuple[int, int]] = None,
                  end: Union[None, int, Tuple[int, int]] = None, seed: int = 0,
                  options: Optional[Options] = None, **run: Any) -> "Tourney":
        """An open tour, optionally from `start` and/or to `end` (kt_generate_open_tour)."""
        t = ctypes.c_void_p()
        with _run(options, run) as r:
            r.check(_c.kt_generate_open_tour(ctypes.byref(t), self._handle(),
                                             self._cell_arg(start), self._cell_arg(end), seed,
                                             r.h))
        return Tourney._wrap(t.value, self)

    def warnsdorff_tour(self, closed: bool = True, start: Union[None, int, Tuple[int, int]] = None,
                        tie: Union[str, int] = "random", seed: int = 0, attempts: int = 0,
                        options: Optional[Options] = None, **run: Any) -> "Tourney":
        """A tour by Warnsdorff's rule (kt_generate_warnsdorff_tour); `tie` a
        :class:`TieBreak` or its name; `attempts` (the budget) 0 for the default."""
        if isinstance(tie, str):
            names = {tiebreak_name(i): i for i in TieBreak}
            if tie not in names:
                raise InvalidArgument(1, f"unknown tie-break {tie!r}")
            tie = names[tie]
        if attempts:
            run.setdefault("budget", attempts)
        t = ctypes.c_void_p()
        with _run(options, run) as r:
            r.check(_c.kt_generate_warnsdorff_tour(ctypes.byref(t), self._handle(),
                                                   Shape.CYCLES if closed else Shape.PATH,
                                                   self._cell_arg(start), int(tie), seed, r.h))
        return Tourney._wrap(t.value, self)

    def tourney(self, method: Union[str, int] = Method.BLOCKS, seed: int = 0, budget: int = 0,
                options: Optional[Options] = None, **run: Any) -> "Tourney":
        """A tourney (cycle cover) by a generator :class:`Method` or its name
        (kt_generate_tourney)."""
        m = method_parse(method) if isinstance(method, str) else int(method)
        if budget:
            run.setdefault("budget", budget)
        t = ctypes.c_void_p()
        with _run(options, run) as r:
            r.check(_c.kt_generate_tourney(ctypes.byref(t), self._handle(), m, seed, r.h))
        return Tourney._wrap(t.value, self)

    def count_tours(self, open: bool = False, directed: bool = False, symmetric: bool = False,
                    classes: bool = False, options: Optional[Options] = None, *,
                    frontier: bool = False, **run: Any) -> int:
        """The exact number of tours (kt_count_tours): undirected closed tours by
        default; `open` paths, `directed` tours, 180-degree `symmetric`
        ones, or symmetry `classes`.  The library picks the fastest method
        unless `frontier` keeps it on the frontier method.  Run settings:
        threads, progress, shard, budget (states per layer), checkpoint, trace."""
        return self.count_tours_stats(open, directed, symmetric, classes, options,
                                      frontier=frontier, **run)[0]

    def count_tours_stats(self, open: bool = False, directed: bool = False,
                          symmetric: bool = False, classes: bool = False,
                          options: Optional[Options] = None, *, frontier: bool = False,
                          **run: Any) -> Tuple[int, "CountStats"]:
        """As count_tours(), with the run's :class:`CountStats`."""
        flags = ((CountFlag.OPEN if open else 0) | (CountFlag.DIRECTED if directed else 0)
                 | (CountFlag.SYMMETRIC if symmetric else 0)
                 | (CountFlag.CLASSES if classes else 0)
                 | (CountFlag.FRONTIER if frontier else 0))
        out = _lib.U128()
        st = _lib.CountStatsC()
        with _run(options, run) as r:
            r.check(_c.kt_count_tours(self._handle(), int(flags), r.h, ctypes.byref(out),
                                      ctypes.byref(st)))
        return _u128(out), CountStats(int(st.peak_states), int(st.peak_bytes), int(st.frontier))

    def count_open_tours(self, start: Union[None, int, Tuple[int, int]] = None,
                         end: Union[None, int, Tuple[int, int]] = None, directed: bool = False,
                         options: Optional[Options] = None, *, frontier: bool = False,
                         **run: Any) -> int:
        """The exact number of open tours with a given `start` cell, `end`
        cell, or both (kt_count_open_tours): directed tours from start (to
        end); with neither, all open tours (doubled if `directed`).
        `frontier` as in count_tours()."""
        out = _lib.U128()
        st = _lib.CountStatsC()
        flags = (CountFlag.OPEN | (CountFlag.DIRECTED if directed else 0)
                 | (CountFlag.FRONTIER if frontier else 0))
        with _run(options, run) as r:
            r.check(_c.kt_count_open_tours(self._handle(), self._cell_arg(start), self._cell_arg(end),
                                           int(flags), r.h, ctypes.byref(out), ctypes.byref(st)))
        return _u128(out)

    def count_open_by_start(self, options: Optional[Options] = None, **run: Any) -> List[List[int]]:
        """The table of directed open tours by start cell
        (kt_count_open_by_start): ``table[y][x]`` tours begin on (x, y), 0 on
        holes; the table sums to ``count_tours(open=True, directed=True)``."""
        w, h = self.width, self.height
        out = (_lib.U128 * (w * h))()
        with _run(options, run) as r:
            r.check(_c.kt_count_open_by_start(self._handle(), int(CountFlag.OPEN | CountFlag.DIRECTED), r.h,
                                              out, w * h))
        return [[_u128(out[y * w + x]) for x in range(w)] for y in range(h)]


class SampleStats(NamedTuple):
    """kt_sample_stats: the sizes of a prepared :class:`Sampler`."""
    states: int
    bytes: int
    peak_states: int
    peak_bytes: int


class Sampler:
    """Exactly uniform random tours of a board (kt_sampler): prepared once
    (exact counts of every frontier state), then each draw is one walk
    through the counts.  Tours are undirected: closed tours, or open tours
    with any ends, a given `start`, a given `end`, or both."""

    def __init__(self, graph: Graph, open: bool = False,
                 start: Union[None, int, Tuple[int, int]] = None,
                 end: Union[None, int, Tuple[int, int]] = None,
                 options: Optional[Options] = None, **run: Any) -> None:
        """Prepare (kt_sampler_new).  Run settings: progress, budget (states
        per layer), allocator.  NoTour when the board has no such tour."""
        h = ctypes.c_void_p()
        self._h: Optional[int] = None
        self._graph = graph
        with _run(options, run) as r:
            r.check(_c.kt_sampler_new(ctypes.byref(h), graph._handle(),
                                      Shape.PATH if open else Shape.CYCLES,
                                      graph._cell_arg(start), graph._cell_arg(end), r.h))
        self._h = h.value

    def _handle(self) -> int:
        if not self._h:
            raise ValueError("Sampler is closed")
        return self._h

    def close(self) -> None:
        """Free the tables (kt_sampler_free)."""
        h, self._h = getattr(self, "_h", None), None
        if h:
            _c.kt_sampler_free(h)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # at interpreter shutdown the module may be gone already
            pass

    def __enter__(self) -> "Sampler":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def total(self) -> int:
        """The number of tours drawn from (kt_sampler_total)."""
        out = _lib.U128()
        _check(_c.kt_sampler_total(self._handle(), ctypes.byref(out)))
        return _u128(out)

    def stats(self) -> SampleStats:
        """The sizes of the tables (kt_sampler_stats)."""
        st = _lib.SampleStatsC()
        _check(_c.kt_sampler_stats(self._handle(), ctypes.byref(st)))
        return SampleStats(*(int(getattr(st, f)) for f in SampleStats._fields))

    def draw(self, seed: int = 0, index: int = 0) -> "Tourney":
        """Draw `index` of the stream of `seed`: a uniform tour, the same
        for the same pair (kt_sampler_draw)."""
        t = ctypes.c_void_p()
        _check(_c.kt_sampler_draw(ctypes.byref(t), self._handle(), seed, index))
        return Tourney._wrap(t.value, self._graph)

    def draw_from(self, cell: Union[int, Tuple[int, int]], seed: int = 0, index: int = 0,
                  options: Optional[Options] = None, **run: Any) -> "Tourney":
        """Draw `index` of the stream of `seed` among the open tours that
        end at `cell`: the sampler's draws in turn until one ends there,
        exactly uniform (kt_sampler_draw_from).  Run settings: budget (the
        most tries; LimitReached past it), progress.  NoTour when the
        board's colours forbid an end at `cell`."""
        t = ctypes.c_void_p()
        with _run(options, run) as r:
            r.check(_c.kt_sampler_draw_from(ctypes.byref(t), self._handle(),
                                            self._graph._cell_arg(cell), seed, index, r.h))
        return Tourney._wrap(t.value, self._graph)

    def unrank(self, rank: int) -> "Tourney":
        """The tour of a rank, 0 <= rank < total (kt_sampler_unrank);
        BufferTooSmall (KT_ERANGE) for a rank not below the total."""
        if not 0 <= rank < 2**128:
            raise ValueError("rank must be in 0 .. 2**128 - 1")
        r = _lib.U128(rank & (2**64 - 1), rank >> 64)
        t = ctypes.c_void_p()
        _check(_c.kt_sampler_unrank(ctypes.byref(t), self._handle(), ctypes.byref(r)))
        return Tourney._wrap(t.value, self._graph)

    def rank(self, tour: "Tourney") -> int:
        """The rank of a tour, the inverse of unrank (kt_sampler_rank)."""
        out = _lib.U128()
        _check(_c.kt_sampler_rank(self._handle(), tour._handle(), ctypes.byref(out)))
        return _u128(out)


class CountStats(NamedTuple):
    """kt_count_stats: statistics of a count."""
    peak_states: int
    peak_bytes: int
    frontier: int


# --- tourneys -------------------------------------------------------------

class Rail(NamedTuple):
    """kt_rail: a rail parallelogram by its top cell and two moves 4-7."""
    top: int
    primary: int
    cross: int

    def _c(self) -> _lib.RailC:
        return _lib.RailC(self.top, self.primary, self.cross)


class Tourney:
    """A cycle cover or an open tour (kt_tourney).

    ``len(t)`` is its number of cells (vertices), iteration yields them in
    visit order (each cycle in turn, from its smallest cell; an open tour
    from its smaller end), ``t.size`` is the number of cycles, ``==``
    compares boards and edge sets (kt_tourney_equal) and the hash agrees.
    The rails operations change the tourney in place (and so its hash)."""

    _h: Optional[int]
    _graph: Optional[Graph]
    _rails: "weakref.WeakSet[Rails]"

    def __init__(self, *a: Any, **k: Any) -> None:
        """Not for use: tourneys come from Graph methods and Tourney.parse()."""
        raise TypeError("make tourneys with Graph methods or Tourney.parse()")

    @classmethod
    def _wrap(cls, handle: Optional[int], graph: Optional[Graph]) -> "Tourney":
        t = cls.__new__(cls)
        t._h = handle
        t._graph = graph
        t._rails = weakref.WeakSet()
        return t

    def _handle(self) -> int:
        if not self._h:
            raise ValueError("Tourney is closed")
        return self._h

    def close(self) -> None:
        """Free the tourney now (kt_tourney_free), and any Rails handle attached."""
        for r in list(getattr(self, "_rails", ())):
            r.close()
        h, self._h = getattr(self, "_h", None), None
        if h:
            _c.kt_tourney_free(h)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # at interpreter shutdown the module may be gone already
            pass

    def __enter__(self) -> "Tourney":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @classmethod
    def parse(cls, text: Union[str, bytes], fmt: int = Format.AUTO, open: bool = False,
              graph: Optional[Graph] = None) -> "Tourney":
        """Read a tour or tourney in a :class:`Format` (kt_io_parse); a ParseError
        carries line and column, a BadTour the rule, cell, line and column."""
        raw = text.encode() if isinstance(text, str) else bytes(text)
        t = ctypes.c_void_p()
        d = _lib.Diag()
        _check(_c.kt_io_parse(ctypes.byref(t), graph._handle() if graph is not None else None,
                              raw, len(raw), int(fmt), ReadFlag.OPEN if open else 0, None,
                              ctypes.byref(d)), diag=d)
        return cls._wrap(t.value, graph)

    def copy(self) -> "Tourney":
        """A deep copy (kt_tourney_copy)."""
        t = ctypes.c_void_p()
        _check(_c.kt_tourney_copy(ctypes.byref(t), self._handle()))
        return Tourney._wrap(t.value, self._graph)

    __copy__ = copy

    @property
    def graph(self) -> Graph:
        """The board (kt_tourney_graph); valid while this tourney lives."""
        g = self._graph
        if g is None or not g._h:  # none given, or the caller closed it: borrow ours
            g = self._graph = Graph._wrap(_c.kt_tourney_graph(self._handle()), owner=self)
        return g

    @property
    def shape(self) -> Shape:
        """Shape.CYCLES or Shape.PATH (kt_tourney_shape)."""
        return Shape(_c.kt_tourney_shape(self._handle()))

    @property
    def size(self) -> int:
        """Number of cycles (1 for a tour) (kt_tourney_size)."""
        return int(_c.kt_tourney_size(self._handle()))

    @property
    def is_closed_tour(self) -> bool:
        """Whether this is one cycle through every vertex (kt_tourney_is_closed_tour)."""
        return bool(_c.kt_tourney_is_closed_tour(self._handle()))

    @property
    def is_open_tour(self) -> bool:
        """Whether this is an open tour (kt_tourney_is_open_tour)."""
        return bool(_c.kt_tourney_is_open_tour(self._handle()))

    def _edited(self) -> None:
        """Bring attached Rails handles up to date after an edit made without them."""
        for r in list(self._rails):
            r.refresh()

    def _n(self) -> int:
        return int(_c.kt_graph_cell_count(_c.kt_tourney_graph(self._handle())))

    def neighbors(self, cell: int) -> Tuple[Optional[int], Optional[int]]:
        """The two cells next to `cell` along the cover (None at a path end)
        (kt_tourney_neighbors)."""
        a, b = _lib.c_cell(), _lib.c_cell()
        _check(_c.kt_tourney_neighbors(self._handle(), cell, ctypes.byref(a), ctypes.byref(b)),
               f"cell {cell}")
        return (None if a.value == CELL_NONE else int(a.value),
                None if b.value == CELL_NONE else int(b.value))

    def has_edge(self, u: int, v: int) -> bool:
        """Whether u and v are consecutive along the cover (kt_tourney_has_edge)."""
        return bool(_c.kt_tourney_has_edge(self._handle(), u, v))

    def order(self, start: int, direction: int = 0) -> List[int]:
        """The cells of the cycle or path through `start`, in order (kt_tourney_order)."""
        n = self._n()
        out = (_lib.c_cell * n)()
        ln = ctypes.c_size_t()
        _check(_c.kt_tourney_order(self._handle(), start, direction, out, n, ctypes.byref(ln)),
               f"start {start}")
        return [int(v) for v in out[: ln.value]]

    def ends(self) -> Tuple[int, int]:
        """The two ends of an open tour (kt_tourney_ends)."""
        a, b = _lib.c_cell(), _lib.c_cell()
        _check(_c.kt_tourney_ends(self._handle(), ctypes.byref(a), ctypes.byref(b)))
        return int(a.value), int(b.value)

    def successors(self) -> List[Optional[int]]:
        """The successor of each cell in the canonical orientation, None for a hole
        or a path's end (kt_tourney_successors)."""
        n = self._n()
        out = (_lib.c_cell * n)()
        _check(_c.kt_tourney_successors(self._handle(), out, n))
        return [None if v == CELL_NONE else int(v) for v in out]

    def move_pairs(self) -> List[int]:
        """Per-cell move pairs (kt_tourney_move_pairs)."""
        n = self._n()
        out = (ctypes.c_uint8 * n)()
        _check(_c.kt_tourney_move_pairs(self._handle(), out, n))
        return list(out)

    def cycle_labels(self) -> List[int]:
        """The index of each cell's cycle, 0 .. size-1 (kt_tourney_cycle_labels)."""
        n = self._n()
        out = (ctypes.c_uint32 * n)()
        _check(_c.kt_tourney_cycle_labels(self._handle(), out, n))
        return [int(v) for v in out]

    def cycles(self) -> List[List[int]]:
        """Every cycle (or the path) as its cells in order, each from its smallest cell
        (from the smaller end for a path)."""
        if self.shape == Shape.PATH:
            a, b = self.ends()
            return [self.order(min(a, b))]
        labels = self.cycle_labels()
        g = self.graph
        first: Dict[int, int] = {}
        for c, lab in enumerate(labels):
            if g.is_cell(c) and lab not in first:
                first[lab] = c
        return [self.order(first[k]) for k in sorted(first, key=lambda k: first[k])]

    def __len__(self) -> int:
        return int(_c.kt_graph_vertex_count(_c.kt_tourney_graph(self._handle())))

    def __iter__(self) -> Iterator[int]:
        for cyc in self.cycles():
            yield from cyc

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tourney):
            return NotImplemented
        return bool(_c.kt_tourney_equal(self._handle(), other._handle()))

    def __hash__(self) -> int:
        # equal tourneys have the same board and edge set: hash both
        edges = frozenset(frozenset((c, s)) for c, s in enumerate(self.successors())
                          if s is not None)
        return hash((hash(self.graph), edges))

    def __repr__(self) -> str:
        if not self._h:
            return "<knight.Tourney closed>"
        g = self.graph
        kind = ("closed tour" if self.is_closed_tour else "open tour" if self.is_open_tour
                else f"{self.size} cycles")
        return f"<knight.Tourney {g.width}x{g.height} {kind}>"

    def move_counts(self) -> List[int]:
        """Edges per move number 0-7 (kt_tourney_move_counts)."""
        out = (ctypes.c_uint64 * 8)()
        _check(_c.kt_tourney_move_counts(self._handle(), out))
        return [int(v) for v in out]

    def relative_move_counts(self) -> List[int]:
        """Turns per relative move 0-7 (kt_tourney_relative_move_counts)."""
        out = (ctypes.c_uint64 * 8)()
        _check(_c.kt_tourney_relative_move_counts(self._handle(), out))
        return [int(v) for v in out]

    def move_distribution(self) -> List[float]:
        """Frequencies of the moves 0-7 (kt_stats_move_distribution)."""
        out = (ctypes.c_double * 8)()
        _check(_c.kt_stats_move_distribution(self._handle(), out))
        return list(out)

    def relative_move_distribution(self) -> List[float]:
        """Frequencies of the relative moves (kt_stats_relative_move_distribution)."""
        out = (ctypes.c_double * 8)()
        _check(_c.kt_stats_relative_move_distribution(self._handle(), out))
        return list(out)

    # io
    def to_text(self, fmt: int = Format.NUMBERS, flags: int = 0,
                start: Optional[int] = None) -> str:
        """The tourney in a :class:`Format` with :class:`WriteFlag` flags
        (kt_io_write_buffer); `start` gets number 1 in the numbers format."""
        s = _lib.none_or(start, CELL_NONE)
        need = ctypes.c_size_t()
        st = _c.kt_io_write_buffer(self._handle(), int(fmt), int(flags), s, None, 0,
                                   ctypes.byref(need))
        if st != Status.ERANGE:
            _check(st)
        buf = ctypes.create_string_buffer(need.value + 1)
        _check(_c.kt_io_write_buffer(self._handle(), int(fmt), int(flags), s, buf, len(buf),
                                     ctypes.byref(need)))
        return buf.value.decode()

    def write(self, file: IO[Any], fmt: int = Format.NUMBERS, flags: int = 0,
              start: Optional[int] = None) -> None:
        """Write to a text or binary file object through kt_io_write; an exception
        of file.write() is raised again (the call returns KT_EIO)."""
        err: List[BaseException] = []
        binary = not hasattr(file, "encoding")

        def sink(_user: Any, data: Any, n: int) -> int:
            try:
                chunk = ctypes.string_at(data, n)
                file.write(chunk if binary else chunk.decode())
                return 0
            except BaseException as e:
                err.append(e)
                return 1
        cb = _lib.WRITE_FN(sink)
        st = _c.kt_io_write(self._handle(), int(fmt), int(flags), _lib.none_or(start, CELL_NONE),
                            cb, None)
        if err:
            raise err[0]
        _check(st)

    def __str__(self) -> str:
        return self.to_text(Format.NUMBERS if self.size == 1 or self.shape == Shape.PATH
                            else Format.MOVES)

    # rails
    def is_rail(self, rail: Rail) -> bool:
        """Whether `rail` is a rail of this tourney now (kt_rails_is_rail)."""
        return bool(_c.kt_rails_is_rail(self._handle(), Rail(*rail)._c()))

    def count_rails(self) -> int:
        """The number of rails (kt_rails_count_tourney)."""
        n = ctypes.c_uint64()
        _check(_c.kt_rails_count_tourney(self._handle(), ctypes.byref(n)))
        return int(n.value)

    def rails(self) -> "Rails":
        """A :class:`Rails` handle attached to this tourney (kt_rails_new)."""
        return Rails(self)

    def join(self, seed: int = 0, options: Optional[Options] = None, **run: Any) -> "Tourney":
        """Join the cycles into one closed tour in place (kt_rails_join); returns
        self.  On any error (and on Ctrl-C) self is unchanged."""
        with _run(options, run) as r:
            r.check(_c.kt_rails_join(self._handle(), seed, r.h))
        self._edited()
        return self

    def shatter(self, seed: int = 0) -> "Tourney":
        """Switch random vertex-disjoint rails in place (kt_rails_shatter); returns self."""
        _check(_c.kt_rails_shatter(self._handle(), seed))
        self._edited()
        return self

    def shatter_sequential(self, seed: int = 0) -> "Tourney":
        """Parberry's shatter in place (kt_rails_shatter_sequential); returns self."""
        _check(_c.kt_rails_shatter_sequential(self._handle(), seed))
        self._edited()
        return self

    def obfuscate(self, rounds: int = 0, seed: int = 0, options: Optional[Options] = None,
                  **run: Any) -> "Tourney":
        """Shatter `rounds` times (0 = 16) then join, in place (kt_rails_obfuscate)."""
        with _run(options, run) as r:
            r.check(_c.kt_rails_obfuscate(self._handle(), rounds, seed, r.h))
        self._edited()
        return self


class Rails:
    """The rails of a tourney and its cycles (kt_rails), attached to the
    tourney: switch rails through it.  ``len(r)`` and ``r[i]`` give the
    snapshot of rails found (kt_rails_count, kt_rails_get).  The handle is
    refreshed after the tourney's own join, shatter and obfuscate, and
    closed when the tourney is closed."""

    def __init__(self, tourney: Tourney) -> None:
        h = ctypes.c_void_p()
        _check(_c.kt_rails_new(ctypes.byref(h), tourney._handle()))
        self._h: Optional[int] = h.value
        self.tourney = tourney
        tourney._rails.add(self)

    def _handle(self) -> int:
        if not self._h:
            raise ValueError("Rails handle is closed")
        return self._h

    def close(self) -> None:
        """Free the handle (kt_rails_free); the tourney stays."""
        h, self._h = getattr(self, "_h", None), None
        if h:
            _c.kt_rails_free(h)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # at interpreter shutdown the module may be gone already
            pass

    def __enter__(self) -> "Rails":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def refresh(self) -> None:
        """Find the rails and cycles again (kt_rails_refresh)."""
        _check(_c.kt_rails_refresh(self._handle()))

    def __len__(self) -> int:
        return int(_c.kt_rails_count(self._handle()))

    def __getitem__(self, index: int) -> Rail:
        if index < 0:
            index += len(self)
        r = _lib.RailC()
        st = _c.kt_rails_get(self._handle(), index, ctypes.byref(r))
        if st == Status.EINVAL:
            raise IndexError(index)
        _check(st)
        return Rail(int(r.top), int(r.primary), int(r.cross))

    def __iter__(self) -> Iterator[Rail]:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return f"<knight.Rails {len(self)} rails>" if self._h else "<knight.Rails closed>"

    def counts(self) -> List[List[int]]:
        """counts[a-4][b-4]: snapshot rails with primary a and cross b (kt_rails_counts)."""
        out = (ctypes.c_uint64 * 16)()
        _check(_c.kt_rails_counts(self._handle(), out))
        return [[int(out[i * 4 + j]) for j in range(4)] for i in range(4)]

    def cycle(self, cell: int) -> int:
        """The id of the cycle of `cell` (kt_rails_cycle)."""
        v = ctypes.c_uint32()
        _check(_c.kt_rails_cycle(self._handle(), cell, ctypes.byref(v)), f"cell {cell}")
        return int(v.value)

    def joins(self, rail: Rail) -> Tuple[bool, int, int]:
        """(whether switching merges two cycles, cycle at u, cycle at x) (kt_rails_joins)."""
        j, c1, c2 = ctypes.c_int(), ctypes.c_uint32(), ctypes.c_uint32()
        _check(_c.kt_rails_joins(self._handle(), Rail(*rail)._c(), ctypes.byref(j),
                                 ctypes.byref(c1), ctypes.byref(c2)), repr(rail))
        return bool(j.value), int(c1.value), int(c2.value)

    def graph(self) -> Tuple[int, int]:
        """(edges, components) of the rail graph (kt_rails_graph)."""
        e, k = ctypes.c_size_t(), ctypes.c_size_t()
        _check(_c.kt_rails_graph(self._handle(), ctypes.byref(e), ctypes.byref(k)))
        return int(e.value), int(k.value)

    def switch(self, rail: Rail) -> RailsEffect:
        """Switch a rail of the tourney now (kt_rails_switch); the effect."""
        eff = ctypes.c_int()
        _check(_c.kt_rails_switch(self._handle(), Rail(*rail)._c(), ctypes.byref(eff)),
               repr(rail))
        return RailsEffect(eff.value)


# --- statistics -----------------------------------------------------------

class Stats:
    """An accumulator of move statistics over tourneys (kt_stats)."""

    def __init__(self, tourneys: Iterable[Tourney] = ()) -> None:
        h = ctypes.c_void_p()
        _check(_c.kt_stats_new(ctypes.byref(h), None))
        self._h: Optional[int] = h.value
        for t in tourneys:
            self.add(t)

    def _handle(self) -> int:
        if not self._h:
            raise ValueError("Stats is closed")
        return self._h

    def close(self) -> None:
        """Free the accumulator (kt_stats_free)."""
        h, self._h = getattr(self, "_h", None), None
        if h:
            _c.kt_stats_free(h)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # at interpreter shutdown the module may be gone already
            pass

    def __enter__(self) -> "Stats":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def add(self, t: Tourney) -> None:
        """Add a tourney (kt_stats_add)."""
        _check(_c.kt_stats_add(self._handle(), t._handle()))

    def __len__(self) -> int:
        """Tourneys added (kt_stats_count)."""
        return int(_c.kt_stats_count(self._handle()))

    count = property(__len__, doc="Tourneys added (kt_stats_count).")

    def moves(self) -> Tuple[List[float], List[float]]:
        """(mean, standard deviation) of the move frequencies (kt_stats_moves)."""
        m, s = (ctypes.c_double * 8)(), (ctypes.c_double * 8)()
        _check(_c.kt_stats_moves(self._handle(), m, s))
        return list(m), list(s)

    def relative(self) -> Tuple[List[float], List[float]]:
        """(mean, standard deviation) of the relative moves (kt_stats_relative)."""
        m, s = (ctypes.c_double * 8)(), (ctypes.c_double * 8)()
        _check(_c.kt_stats_relative(self._handle(), m, s))
        return list(m), list(s)

    def __repr__(self) -> str:
        return f"<knight.Stats of {len(self)} tourneys>" if self._h else "<knight.Stats closed>"


# --- half-tours -----------------------------------------------------------

class HalftourStructure(NamedTuple):
    """kt_halftour_structure: a path structure, its number of half-tours,
    the partner of each boundary cell (None = interior) and McKay's type."""
    key: int
    count: int  # type: ignore[assignment]  # the C field's name, shadowing tuple.count
    partner: Tuple[Optional[int], ...]
    type: Tuple[int, ...]


class HalftourStats(NamedTuple):
    """kt_halftour_stats: McKay's summary figures of a half-tour set."""
    halftours: int
    structures: int
    min_count: int
    max_count: int
    types: int
    a_values: int
    b_values: int
    max_per_type: int


def _structure(s: _lib.HalftourStructureC, cells: int) -> HalftourStructure:
    return HalftourStructure(int(s.key), int(s.count),
                             tuple(None if s.partner[i] == 0xFF else int(s.partner[i])
                                   for i in range(cells)),
                             tuple(int(s.type[i]) for i in range(cells)))


class Halftours:
    """McKay's half-tours of one half of a board (kt_halftours): the path
    structures, indexed 0 .. len-1 in key order."""

    def __init__(self, width: int, depth: int, other_depth: Optional[int] = None,
                 options: Optional[Options] = None, **run: Any) -> None:
        """Enumerate (kt_halftours_enumerate); other_depth defaults to depth."""
        h = ctypes.c_void_p()
        self._h: Optional[int] = None
        with _run(options, run) as r:
            r.check(_c.kt_halftours_enumerate(ctypes.byref(h), width, depth,
                                              depth if other_depth is None else other_depth, r.h))
        self._h = h.value

    @classmethod
    def enumerate(cls, width: int, depth: int, other_depth: Optional[int] = None,
                  options: Optional[Options] = None, **run: Any) -> "Halftours":
        """The same as the constructor: enumerate one half (kt_halftours_enumerate)."""
        return cls(width, depth, other_depth, options, **run)

    def _handle(self) -> int:
        if not self._h:
            raise ValueError("Halftours is closed")
        return self._h

    def close(self) -> None:
        """Free the set (kt_halftours_free)."""
        h, self._h = getattr(self, "_h", None), None
        if h:
            _c.kt_halftours_free(h)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # at interpreter shutdown the module may be gone already
            pass

    def __enter__(self) -> "Halftours":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def geometry(self) -> Tuple[int, int, int]:
        """(width, depth, other_depth) (kt_halftours_geometry)."""
        w, d, o = ctypes.c_uint32(), ctypes.c_uint32(), ctypes.c_uint32()
        _c.kt_halftours_geometry(self._handle(), ctypes.byref(w), ctypes.byref(d),
                                 ctypes.byref(o))
        return int(w.value), int(d.value), int(o.value)

    def __len__(self) -> int:
        return int(_c.kt_halftours_count(self._handle()))

    def stats(self) -> HalftourStats:
        """McKay's summary figures (kt_halftours_stats)."""
        st = _lib.HalftourStatsC()
        _check(_c.kt_halftours_stats(self._handle(), ctypes.byref(st)))
        return HalftourStats(*(int(getattr(st, f)) for f in HalftourStats._fields))

    def __getitem__(self, index: int) -> HalftourStructure:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        s = _lib.HalftourStructureC()
        _check(_c.kt_halftours_at(self._handle(), index, ctypes.byref(s)))
        return _structure(s, 2 * self.geometry[0])

    def __iter__(self) -> Iterator[HalftourStructure]:
        return (self[i] for i in range(len(self)))

    def foreach(self, fn: Callable[[HalftourStructure], Optional[bool]]) -> bool:
        """Call fn on every structure in key order (kt_halftours_foreach); fn
        returns a true value to stop.  Returns False when stopped."""
        cells = 2 * self.geometry[0]
        err: List[BaseException] = []

        def cb(_user: Any, s: Any) -> int:
            try:
                return 1 if fn(_structure(s.contents, cells)) else 0
            except BaseException as e:
                err.append(e)
                return 1
        st = _c.kt_halftours_foreach(self._handle(), _lib.HALFTOUR_FN(cb), None)
        if err:
            raise err[0]
        if st == Status.ECANCELED:
            return False
        _check(st)
        return True

    def find(self, partner: Sequence[Optional[int]]) -> Optional[Tuple[int, int]]:
        """(index, count) of the structure with these partners (None = interior),
        or None when no half-tour has it (kt_halftours_find)."""
        arr = (ctypes.c_uint8 * 16)(*[0xFF if p is None else p for p in partner])
        i, n = ctypes.c_size_t(), ctypes.c_uint64()
        st = _c.kt_halftours_find(self._handle(), arr, ctypes.byref(i), ctypes.byref(n))
        if st == Status.ENOTFOUND:
            return None
        _check(st, "partner")
        return int(i.value), int(n.value)

    def join(self, upper: Optional["Halftours"] = None, options: Optional[Options] = None,
             **run: Any) -> int:
        """Closed tours by joining this lower half with `upper` (default: itself)
        across the cut (kt_halftours_join)."""
        out = _lib.U128()
        up = self if upper is None else upper
        with _run(options, run) as r:
            r.check(_c.kt_halftours_join(self._handle(), up._handle(), r.h, ctypes.byref(out)))
        return _u128(out)

    def __repr__(self) -> str:
        return (f"<knight.Halftours {self.geometry} {len(self)} structures>" if self._h
                else "<knight.Halftours closed>")


def types_compatible(width: int, a_lower: Sequence[int], b_upper: Sequence[int]) -> bool:
    """McKay's compatibility of types (aL, bU) (kt_halftours_types_compatible)."""
    if len(a_lower) < width or len(b_upper) < width:
        raise InvalidArgument(1, "types need width values")
    a = (ctypes.c_uint8 * width)(*a_lower[:width])
    b = (ctypes.c_uint8 * width)(*b_upper[:width])
    ok = ctypes.c_int()
    _check(_c.kt_halftours_types_compatible(width, a, b, ctypes.byref(ok)))
    return bool(ok.value)


def count_closed_by_halftours(width: int, height: int, split: Optional[int] = None,
                              options: Optional[Options] = None, **run: Any) -> int:
    """Undirected closed tours of a full board by McKay's method, cut below row
    `split` (default height // 2) (kt_halftours_count_closed)."""
    out = _lib.U128()
    with _run(options, run) as r:
        r.check(_c.kt_halftours_count_closed(width, height,
                                             height // 2 if split is None else split, r.h,
                                             ctypes.byref(out)))
    return _u128(out)


def count_open_by_halftours(width: int, height: int, split: Optional[int] = None,
                            start: Union[None, int, Tuple[int, int]] = None,
                            end: Union[None, int, Tuple[int, int]] = None, directed: bool = False,
                            options: Optional[Options] = None, **run: Any) -> int:
    """Open tours of a full board by McKay's half-tours with tour ends, cut
    below row `split` (default height // 2) (kt_halftours_count_open): all
    undirected open tours (doubled if `directed`), or those from `start`
    (to `end`); cells are y * width + x or (x, y)."""
    def cell(c: Union[None, int, Tuple[int, int]]) -> int:
        if c is None:
            return CELL_NONE
        if isinstance(c, tuple):
            return c[1] * width + c[0]
        return int(c)
    out = _lib.U128()
    with _run(options, run) as r:
        r.check(_c.kt_halftours_count_open(width, height,
                                           height // 2 if split is None else split, cell(start),
                                           cell(end), 2 if directed else 0, r.h,
                                           ctypes.byref(out)))
    return _u128(out)


# --- semimagic ------------------------------------------------------------

class SemimagicSolution(NamedTuple):
    """One reported numbering (a copy of kt_semimagic_solution's data)."""
    numbers: Tuple[int, ...]
    size: int
    class_index: int
    class_size: int
    member: int
    satisfies: bool
    class_satisfying: int
    reverse_class: Optional[int]
    reverse_satisfies: bool
    width: int = 0
    height: int = 0

    def rows(self) -> List[Tuple[int, ...]]:
        """The numbers as rows of the board."""
        w = self.width
        return [self.numbers[y * w:(y + 1) * w] for y in range(self.height)]


def _solution(s: int) -> SemimagicSolution:
    n = int(_c.kt_semimagic_solution_size(s))
    w, h = int(_c.kt_semimagic_solution_width(s)), int(_c.kt_semimagic_solution_height(s))
    p = _c.kt_semimagic_solution_numbers(s)
    rc = int(_c.kt_semimagic_solution_reverse_class(s))
    return SemimagicSolution(
        tuple(int(p[i]) for i in range(w * h)), n, int(_c.kt_semimagic_solution_class(s)),
        int(_c.kt_semimagic_solution_class_size(s)), int(_c.kt_semimagic_solution_member(s)),
        bool(_c.kt_semimagic_solution_satisfies(s)),
        int(_c.kt_semimagic_solution_class_satisfying(s)),
        None if rc == _SEMIMAGIC_NO_CLASS else rc,
        bool(_c.kt_semimagic_solution_reverse_satisfies(s)), w, h)


class SemimagicOptions:
    """Constraints of a numbered-tour search on an n x n board
    (kt_semimagic_opts), 3 <= n <= 16, or with `height` on an n x height
    rectangle (kt_semimagic_opts_new_rect; n is then the width, 1..16): flags
    (:class:`SemimagicFlag`; by default every family of lines whose sum is an
    integer), start and end cells or columns, the puzzle rule, a partial grid,
    and the :class:`Symmetry` reporting mode."""

    def __init__(self, n: int, flags: Optional[int] = None,
                 start_cells: Optional[Sequence[int]] = None,
                 end_cells: Optional[Sequence[int]] = None, start_column: Optional[int] = None,
                 end_column: Optional[int] = None, puzzle_rule: bool = False,
                 grid: Optional[Sequence[int]] = None,
                 symmetry: int = Symmetry.CLASSES, height: Optional[int] = None) -> None:
        h = ctypes.c_void_p()
        self._h: Optional[int] = None
        if height is None:
            _check(_c.kt_semimagic_opts_new(ctypes.byref(h), n, None), f"n = {n}")
        else:
            _check(_c.kt_semimagic_opts_new_rect(ctypes.byref(h), n, height, None),
                   f"{n} x {height}")
        self._h = h.value
        if flags is not None:
            self.flags = flags  # type: ignore[assignment]
        if start_cells is not None:
            self.set_start_cells(start_cells)
        if end_cells is not None:
            self.set_end_cells(end_cells)
        if start_column is not None:
            self.set_start_column(start_column)
        if end_column is not None:
            self.set_end_column(end_column)
        if puzzle_rule:
            self.set_puzzle_rule()
        if grid is not None:
            self.set_grid(grid)
        self.set_symmetry(symmetry)

    def _handle(self) -> int:
        if not self._h:
            raise ValueError("SemimagicOptions is closed")
        return self._h

    def close(self) -> None:
        """Free the handle (kt_semimagic_opts_free)."""
        h, self._h = getattr(self, "_h", None), None
        if h:
            _c.kt_semimagic_opts_free(h)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # at interpreter shutdown the module may be gone already
            pass

    def __enter__(self) -> "SemimagicOptions":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def size(self) -> int:
        """The board side n, 0 for a rectangle (kt_semimagic_opts_size)."""
        return int(_c.kt_semimagic_opts_size(self._handle()))

    @property
    def width(self) -> int:
        """The board's width (kt_semimagic_opts_width)."""
        return int(_c.kt_semimagic_opts_width(self._handle()))

    @property
    def height(self) -> int:
        """The board's height (kt_semimagic_opts_height)."""
        return int(_c.kt_semimagic_opts_height(self._handle()))

    @property
    def flags(self) -> SemimagicFlag:
        """The constraint flags (kt_semimagic_opts_flags, kt_semimagic_opts_set_flags)."""
        return SemimagicFlag(_c.kt_semimagic_opts_flags(self._handle()))

    @flags.setter
    def flags(self, flags: int) -> None:
        _check(_c.kt_semimagic_opts_set_flags(self._handle(), int(flags)), "flags")

    def set_start_cells(self, cells: Sequence[int]) -> None:
        """Cells allowed for number 1; empty = any (kt_semimagic_opts_set_start_cells)."""
        _check(_c.kt_semimagic_opts_set_start_cells(self._handle(), _lib.u32_array(cells),
                                                    len(cells)), "start cells")

    def set_end_cells(self, cells: Sequence[int]) -> None:
        """Cells allowed for number n^2; empty = any (kt_semimagic_opts_set_end_cells)."""
        _check(_c.kt_semimagic_opts_set_end_cells(self._handle(), _lib.u32_array(cells),
                                                  len(cells)), "end cells")

    def set_start_column(self, x: Optional[int]) -> None:
        """Number 1 in column x; None = anywhere (kt_semimagic_opts_set_start_column)."""
        _check(_c.kt_semimagic_opts_set_start_column(self._handle(),
                                                     _lib.none_or(x, _SEMIMAGIC_ANY)), "column")

    def set_end_column(self, x: Optional[int]) -> None:
        """Number n^2 in column x; None = anywhere (kt_semimagic_opts_set_end_column)."""
        _check(_c.kt_semimagic_opts_set_end_column(self._handle(),
                                                   _lib.none_or(x, _SEMIMAGIC_ANY)), "column")

    def set_puzzle_rule(self) -> None:
        """The Knight Errant rule: 1 leftmost, n^2 rightmost (kt_semimagic_opts_set_puzzle_rule)."""
        _check(_c.kt_semimagic_opts_set_puzzle_rule(self._handle()))

    def set_grid(self, numbers: Optional[Sequence[int]]) -> None:
        """Numbers given in advance, n^2 values by cell (0 = free); None clears
        (kt_semimagic_opts_set_grid)."""
        if numbers is None:
            _check(_c.kt_semimagic_opts_set_grid(self._handle(), None, 0))
        else:
            _check(_c.kt_semimagic_opts_set_grid(self._handle(), _lib.u32_array(numbers),
                                                 len(numbers)), "grid")

    def set_symmetry(self, mode: int) -> None:
        """How symmetric solutions are reported (kt_semimagic_opts_set_symmetry)."""
        _check(_c.kt_semimagic_opts_set_symmetry(self._handle(), int(mode)), "symmetry")

    def __repr__(self) -> str:
        return (f"<knight.SemimagicOptions n={self.size} flags={self.flags!r}>" if self._h
                else "<knight.SemimagicOptions closed>")

    def search(self, callback: Optional[Callable[[SemimagicSolution], Optional[bool]]] = None,
               options: Optional[Options] = None, **run: Any) -> Tuple[int, int]:
        """Enumerate the numberings (kt_semimagic_search), calling `callback` with
        each :class:`SemimagicSolution` (a true return stops: Canceled).
        Returns (classes, solutions)."""
        err: List[BaseException] = []

        def cb(_user: Any, s: int) -> int:
            try:
                return 1 if callback is not None and callback(_solution(s)) else 0
            except BaseException as e:
                err.append(e)
                return 1
        fn = (_lib.SEMIMAGIC_FN(cb) if callback is not None
              else ctypes.cast(None, _lib.SEMIMAGIC_FN))  # type: ignore[arg-type]
        classes, sols = ctypes.c_uint64(), ctypes.c_uint64()
        with _run(options, run) as r:
            st = _c.kt_semimagic_search(self._handle(), r.h, fn, None, ctypes.byref(classes),
                                        ctypes.byref(sols))
            if err:
                raise err[0]
            r.check(st)
        return int(classes.value), int(sols.value)

    def solutions(self, options: Optional[Options] = None,
                  **run: Any) -> Iterator[SemimagicSolution]:
        """The numberings as an iterator: the search runs in a worker thread and
        waits for each solution to be taken; leaving the loop (or Ctrl-C)
        stops it.  A `progress` callable runs on that worker thread."""
        q: "queue.Queue[Any]" = queue.Queue(maxsize=1)
        stop = threading.Event()
        done = object()
        result: List[Any] = []
        opts = options.copy() if options is not None else None

        def cb(sol: SemimagicSolution) -> bool:
            while not stop.is_set():
                try:
                    q.put(sol, timeout=0.1)
                    return False
                except queue.Full:
                    pass
            return True

        user_progress = run.pop("progress", None) or (opts.progress if opts else None)

        def progress_stop(done_: int, total: int) -> bool:
            # also stops a search that finds nothing for a long time once the loop is left
            return stop.is_set() or bool(user_progress is not None
                                         and user_progress(done_, total))

        def worker() -> None:
            try:
                run["progress"] = progress_stop
                result.append(self.search(cb, opts, **run))
            except BaseException as e:
                result.append(e)
            finally:
                while True:
                    try:
                        q.put(done, timeout=0.1)
                        break
                    except queue.Full:
                        if stop.is_set():
                            break

        th = threading.Thread(target=worker, daemon=True)
        th.start()
        try:
            while True:
                try:
                    item = q.get(timeout=0.1)
                except queue.Empty:
                    continue
                if item is done:
                    break
                yield item
            if result and isinstance(result[0], BaseException):
                raise result[0]
        finally:
            stop.set()
            th.join()

    def exists(self, options: Optional[Options] = None,
               **run: Any) -> Optional[Tuple[int, ...]]:
        """A witness numbering (the first in search order), or None when none
        exists (kt_semimagic_exists)."""
        ex = ctypes.c_int()
        nums = (ctypes.c_uint32 * (self.width * self.height))()
        with _run(options, run) as r:
            r.check(_c.kt_semimagic_exists(self._handle(), r.h, ctypes.byref(ex), nums))
        return tuple(int(v) for v in nums) if ex.value else None

    def check(self, numbers: Sequence[int]) -> bool:
        """Whether a complete numbering satisfies every constraint (kt_semimagic_check)."""
        ok = ctypes.c_int()
        _check(_c.kt_semimagic_check(self._handle(), _lib.u32_array(numbers), len(numbers),
                                     ctypes.byref(ok)), "numbers")
        return bool(ok.value)

    def make_puzzle(self, solution: Sequence[int], seed: int = 0, check_budget: int = 0,
                    options: Optional[Options] = None,
                    **run: Any) -> Tuple[Tuple[int, ...], int, int]:
        """A puzzle whose only completion under these constraints is `solution`
        (a complete numbering satisfying them), with as few given numbers as
        the completion search proves unique, removed in an order drawn from
        `seed`; `check_budget` caps the nodes of each uniqueness check (0 =
        unlimited) (kt_semimagic_make_puzzle).  Returns (grid, givens,
        difficulty): the grid with 0 for an empty cell, the number of given
        numbers and the search nodes that solving it takes."""
        puz = (ctypes.c_uint32 * (self.width * self.height))()
        givens, diff = ctypes.c_uint32(), ctypes.c_uint64()
        with _run(options, run) as r:
            r.check(_c.kt_semimagic_make_puzzle(puz, self._handle(), _lib.u32_array(solution),
                                                len(solution), int(seed), int(check_budget),
                                                r.h, ctypes.byref(givens), ctypes.byref(diff)),
                    "solution")
        return tuple(int(v) for v in puz), int(givens.value), int(diff.value)
