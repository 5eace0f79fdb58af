# SPDX-License-Identifier: MIT
"""Loading libknight and declaring the signature of every C function.

Internal: the public names are in :mod:`knight`.  Every function that the
headers declare with ``KT_EXPORT`` has its ``argtypes`` and ``restype`` set
here, in the table ``SIGNATURES``; the public wrappers call them as
``_c.kt_name(...)``.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

__all__: List[str] = []

# --- finding the library -------------------------------------------------

SONAME = "libknight.so.1"
PREFIXES: Tuple[str, ...] = (
    "/usr/local/lib",
    "/usr/local/lib/x86_64-linux-gnu",
    "/usr/local/lib64",
    "/usr/lib",
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib64",
    "/opt/local/lib",
)


def _load() -> Tuple[ctypes.CDLL, str]:
    """Open libknight: $KNIGHT_LIBRARY, find_library, the soname, then the
    common prefixes; an ImportError names everything tried."""
    tried: List[str] = []
    override = os.environ.get("KNIGHT_LIBRARY")
    if override:
        try:
            return ctypes.CDLL(override), override
        except OSError as e:
            raise ImportError(f"libknight: KNIGHT_LIBRARY={override!r} cannot be loaded: {e}") from e
    found = ctypes.util.find_library("knight")
    candidates: List[str] = []
    if found:
        candidates.append(found)
    else:
        tried.append("ctypes.util.find_library('knight') (nothing found)")
    candidates.append(SONAME)
    candidates += [os.path.join(p, SONAME) for p in PREFIXES]
    for name in candidates:
        try:
            return ctypes.CDLL(name), name
        except OSError as e:
            tried.append(f"{name} ({e})" if os.path.isabs(name) and os.path.exists(name)
                         else name)
    raise ImportError("libknight (libknight.so.1) not found; tried: " + "; ".join(tried)
                      + ".  Install libknight (meson install; ldconfig) or set KNIGHT_LIBRARY "
                      "to the path of libknight.so.")


lib, path = _load()

# --- C types -------------------------------------------------------------

c_status = ctypes.c_int
c_cell = ctypes.c_uint32
c_size = ctypes.c_size_t
c_u32 = ctypes.c_uint32
c_u64 = ctypes.c_uint64
c_int = ctypes.c_int
c_uint = ctypes.c_uint
c_p = ctypes.c_void_p
c_str = ctypes.c_char_p
c_double = ctypes.c_double
P = ctypes.POINTER


class Diag(ctypes.Structure):
    """struct kt_diag (frozen layout)."""
    _fields_ = [("line", c_u64), ("column", c_u64), ("rule", c_int), ("cell", c_cell)]


class U128(ctypes.Structure):
    """struct kt_u128 (frozen layout): hi * 2**64 + lo."""
    _fields_ = [("lo", c_u64), ("hi", c_u64)]


class CountStatsC(ctypes.Structure):
    """struct kt_count_stats (frozen layout)."""
    _fields_ = [("peak_states", c_u64), ("peak_bytes", c_u64), ("frontier", c_u32)]


class SampleStatsC(ctypes.Structure):
    """struct kt_sample_stats (frozen layout)."""
    _fields_ = [("states", c_u64), ("bytes", c_u64), ("peak_states", c_u64),
                ("peak_bytes", c_u64)]


class RailC(ctypes.Structure):
    """struct kt_rail (frozen layout)."""
    _fields_ = [("top", c_cell), ("primary", ctypes.c_uint8), ("cross", ctypes.c_uint8)]


class HalftourStructureC(ctypes.Structure):
    """struct kt_halftour_structure (frozen layout)."""
    _fields_ = [("key", c_u64), ("count", c_u64), ("partner", ctypes.c_uint8 * 16),
                ("type", ctypes.c_uint8 * 16)]


class HalftourStatsC(ctypes.Structure):
    """struct kt_halftour_stats (frozen layout)."""
    _fields_ = [(n, c_u64) for n in ("halftours", "structures", "min_count", "max_count",
                                     "types", "a_values", "b_values", "max_per_type")]


PROGRESS_FN = ctypes.CFUNCTYPE(c_int, c_p, c_u64, c_u64)
TRACE_FN = ctypes.CFUNCTYPE(None, c_p, c_u64, c_u64)
WRITE_FN = ctypes.CFUNCTYPE(c_int, c_p, P(ctypes.c_char), c_size)
HALFTOUR_FN = ctypes.CFUNCTYPE(c_int, c_p, P(HalftourStructureC))
SEMIMAGIC_FN = ctypes.CFUNCTYPE(c_int, c_p, c_p)

# Opaque handles are plain void pointers.
PP = P(c_p)

SIGNATURES: Dict[str, Tuple[object, Sequence[object]]] = {
    # common.h, version.h
    "kt_strerror": (c_str, [c_status]),
    "kt_status_name": (c_str, [c_status]),
    "kt_is_error": (c_int, [c_status]),
    "kt_rule_describe": (c_str, [c_int]),
    "kt_u128_to_u64": (c_status, [P(U128), P(c_u64)]),
    "kt_u128_to_string": (c_status, [P(U128), c_str, c_size]),
    "kt_version": (c_uint, []),
    "kt_version_string": (c_str, []),
    # options.h
    "kt_options_new": (c_status, [PP, c_p]),
    "kt_options_free": (None, [c_p]),
    "kt_options_copy": (c_status, [PP, c_p]),
    "kt_options_set_threads": (c_status, [c_p, c_uint]),
    "kt_options_threads": (c_uint, [c_p]),
    "kt_options_thread_count": (c_uint, [c_p]),
    "kt_options_set_progress": (c_status, [c_p, PROGRESS_FN, c_p]),
    "kt_options_set_shard": (c_status, [c_p, c_u32, c_u32]),
    "kt_options_shard": (None, [c_p, P(c_u32), P(c_u32)]),
    "kt_options_set_budget": (c_status, [c_p, c_u64]),
    "kt_options_budget": (c_u64, [c_p]),
    "kt_options_set_checkpoint": (c_status, [c_p, c_str, c_double]),
    "kt_options_checkpoint": (c_str, [c_p]),
    "kt_options_set_trace": (c_status, [c_p, TRACE_FN, c_p]),
    # graph.h
    "kt_graph_new": (c_status, [PP, c_u32, c_u32]),
    "kt_graph_new_custom": (c_status, [PP, c_u32, c_u32, c_u32, c_u32, c_p, c_p]),
    "kt_graph_parse_mask": (c_status, [PP, c_str, c_size, c_u32, c_u32, c_p, P(Diag)]),
    "kt_graph_free": (None, [c_p]),
    "kt_graph_width": (c_u32, [c_p]),
    "kt_graph_height": (c_u32, [c_p]),
    "kt_graph_cell_count": (c_size, [c_p]),
    "kt_graph_vertex_count": (c_size, [c_p]),
    "kt_graph_edge_count": (c_u64, [c_p]),
    "kt_graph_leaper": (None, [c_p, P(c_u32), P(c_u32)]),
    "kt_graph_has_holes": (c_int, [c_p]),
    "kt_graph_is_cell": (c_int, [c_p, c_cell]),
    "kt_graph_cell": (c_cell, [c_p, c_u32, c_u32]),
    "kt_graph_coords": (c_status, [c_p, c_cell, P(c_u32), P(c_u32)]),
    "kt_graph_move_dx": (ctypes.c_int32, [c_p, c_int]),
    "kt_graph_move_dy": (ctypes.c_int32, [c_p, c_int]),
    "kt_graph_neighbor": (c_cell, [c_p, c_cell, c_int]),
    "kt_graph_move": (c_int, [c_p, c_cell, c_cell]),
    "kt_graph_degree": (c_uint, [c_p, c_cell]),
    "kt_graph_move_mask": (c_uint, [c_p, c_cell]),
    "kt_graph_equal": (c_int, [c_p, c_p]),
    "kt_graph_board_has_closed_tour": (c_int, [c_u32, c_u32]),
    "kt_graph_board_has_open_tour": (c_int, [c_u32, c_u32]),
    # tourney.h
    "kt_tourney_from_successors": (c_status, [PP, c_p, P(c_cell), c_size, P(Diag)]),
    "kt_tourney_from_order": (c_status, [PP, c_p, P(c_cell), c_size, c_int, P(Diag)]),
    "kt_tourney_from_move_pairs": (c_status, [PP, c_p, P(ctypes.c_uint8), c_size, P(Diag)]),
    "kt_tourney_free": (None, [c_p]),
    "kt_tourney_copy": (c_status, [PP, c_p]),
    "kt_tourney_equal": (c_int, [c_p, c_p]),
    "kt_tourney_graph": (c_p, [c_p]),
    "kt_tourney_shape": (c_int, [c_p]),
    "kt_tourney_size": (c_size, [c_p]),
    "kt_tourney_is_closed_tour": (c_int, [c_p]),
    "kt_tourney_is_open_tour": (c_int, [c_p]),
    "kt_tourney_neighbors": (c_status, [c_p, c_cell, P(c_cell), P(c_cell)]),
    "kt_tourney_has_edge": (c_int, [c_p, c_cell, c_cell]),
    "kt_tourney_order": (c_status, [c_p, c_cell, c_int, P(c_cell), c_size, P(c_size)]),
    "kt_tourney_ends": (c_status, [c_p, P(c_cell), P(c_cell)]),
    "kt_tourney_successors": (c_status, [c_p, P(c_cell), c_size]),
    "kt_tourney_move_pairs": (c_status, [c_p, P(ctypes.c_uint8), c_size]),
    "kt_tourney_cycle_labels": (c_status, [c_p, P(c_u32), c_size]),
    "kt_tourney_validate_successors": (c_status, [c_p, P(c_cell), c_size, P(Diag)]),
    "kt_tourney_move_counts": (c_status, [c_p, P(c_u64)]),
    "kt_tourney_relative_move_counts": (c_status, [c_p, P(c_u64)]),
    # io.h
    "kt_io_write": (c_status, [c_p, c_int, c_uint, c_cell, WRITE_FN, c_p]),
    "kt_io_write_buffer": (c_status, [c_p, c_int, c_uint, c_cell, c_p, c_size, P(c_size)]),
    "kt_io_parse": (c_status, [PP, c_p, c_str, c_size, c_int, c_uint, c_p, P(Diag)]),
    # stats.h
    "kt_stats_move_distribution": (c_status, [c_p, P(c_double)]),
    "kt_stats_relative_move_distribution": (c_status, [c_p, P(c_double)]),
    "kt_stats_new": (c_status, [PP, c_p]),
    "kt_stats_free": (None, [c_p]),
    "kt_stats_add": (c_status, [c_p, c_p]),
    "kt_stats_count": (c_u64, [c_p]),
    "kt_stats_moves": (c_status, [c_p, P(c_double), P(c_double)]),
    "kt_stats_relative": (c_status, [c_p, P(c_double), P(c_double)]),
    # walks.h, exhaustive.h
    "kt_walks_count": (c_status, [c_p, c_u32, c_p, c_u32, c_p, P(c_u64), c_size, P(c_u64)]),
    "kt_exhaustive_tour": (c_status, [PP, c_p, c_int, c_cell, c_cell, c_p]),
    # generate.h
    "kt_generate_closed_tour": (c_status, [PP, c_p, c_u64, c_p]),
    "kt_generate_divide_tour": (c_status, [PP, c_p, c_u64, c_p]),
    "kt_generate_open_tour": (c_status, [PP, c_p, c_cell, c_cell, c_u64, c_p]),
    "kt_generate_warnsdorff_tour": (c_status, [PP, c_p, c_int, c_cell, c_int, c_u64, c_p]),
    "kt_generate_tourney": (c_status, [PP, c_p, c_int, c_u64, c_p]),
    "kt_generate_method_name": (c_str, [c_int]),
    "kt_generate_method_parse": (c_status, [c_str, P(c_int)]),
    "kt_generate_tiebreak_name": (c_str, [c_int]),
    # rails.h
    "kt_rails_cells": (c_status, [c_p, RailC, P(c_cell)]),
    "kt_rails_is_rail": (c_int, [c_p, RailC]),
    "kt_rails_count_tourney": (c_status, [c_p, P(c_u64)]),
    "kt_rails_new": (c_status, [PP, c_p]),
    "kt_rails_free": (None, [c_p]),
    "kt_rails_refresh": (c_status, [c_p]),
    "kt_rails_count": (c_size, [c_p]),
    "kt_rails_get": (c_status, [c_p, c_size, P(RailC)]),
    "kt_rails_counts": (c_status, [c_p, P(c_u64)]),
    "kt_rails_cycle": (c_status, [c_p, c_cell, P(c_u32)]),
    "kt_rails_joins": (c_status, [c_p, RailC, P(c_int), P(c_u32), P(c_u32)]),
    "kt_rails_graph": (c_status, [c_p, P(c_size), P(c_size)]),
    "kt_rails_switch": (c_status, [c_p, RailC, P(c_int)]),
    "kt_rails_join": (c_status, [c_p, c_u64, c_p]),
    "kt_rails_shatter": (c_status, [c_p, c_u64]),
    "kt_rails_shatter_sequential": (c_status, [c_p, c_u64]),
    "kt_rails_obfuscate": (c_status, [c_p, c_uint, c_u64, c_p]),
    # count.h
    "kt_count_tours": (c_status, [c_p, c_uint, c_p, P(U128), P(CountStatsC)]),
    "kt_count_open_tours": (c_status, [c_p, c_cell, c_cell, c_uint, c_p, P(U128), P(CountStatsC)]),
    "kt_count_open_by_start": (c_status, [c_p, c_uint, c_p, P(U128), c_size]),
    # sample.h
    "kt_sampler_new": (c_status, [PP, c_p, c_int, c_cell, c_cell, c_p]),
    "kt_sampler_free": (None, [c_p]),
    "kt_sampler_total": (c_status, [c_p, P(U128)]),
    "kt_sampler_stats": (c_status, [c_p, P(SampleStatsC)]),
    "kt_sampler_draw": (c_status, [PP, c_p, c_u64, c_u64]),
    "kt_sampler_draw_from": (c_status, [PP, c_p, c_u32, c_u64, c_u64, c_p]),
    "kt_sampler_unrank": (c_status, [PP, c_p, P(U128)]),
    "kt_sampler_rank": (c_status, [c_p, c_p, P(U128)]),
    # halftour.h
    "kt_halftours_enumerate": (c_status, [PP, c_u32, c_u32, c_u32, c_p]),
    "kt_halftours_free": (None, [c_p]),
    "kt_halftours_geometry": (None, [c_p, P(c_u32), P(c_u32), P(c_u32)]),
    "kt_halftours_count": (c_size, [c_p]),
    "kt_halftours_stats": (c_status, [c_p, P(HalftourStatsC)]),
    "kt_halftours_at": (c_status, [c_p, c_size, P(HalftourStructureC)]),
    "kt_halftours_find": (c_status, [c_p, P(ctypes.c_uint8), P(c_size), P(c_u64)]),
    "kt_halftours_foreach": (c_status, [c_p, HALFTOUR_FN, c_p]),
    "kt_halftours_types_compatible": (c_status, [c_u32, P(ctypes.c_uint8), P(ctypes.c_uint8),
                                                 P(c_int)]),
    "kt_halftours_join": (c_status, [c_p, c_p, c_p, P(U128)]),
    "kt_halftours_count_closed": (c_status, [c_u32, c_u32, c_u32, c_p, P(U128)]),
    "kt_halftours_count_open": (c_status, [c_u32, c_u32, c_u32, c_cell, c_cell, c_uint, c_p,
                                           P(U128)]),
    # semimagic.h
    "kt_semimagic_opts_new": (c_status, [PP, c_u32, c_p]),
    "kt_semimagic_opts_free": (None, [c_p]),
    "kt_semimagic_opts_new_rect": (c_status, [PP, c_u32, c_u32, c_p]),
    "kt_semimagic_opts_width": (c_u32, [c_p]),
    "kt_semimagic_opts_height": (c_u32, [c_p]),
    "kt_semimagic_solution_width": (c_u32, [c_p]),
    "kt_semimagic_solution_height": (c_u32, [c_p]),
    "kt_semimagic_opts_size": (c_u32, [c_p]),
    "kt_semimagic_opts_set_flags": (c_status, [c_p, c_uint]),
    "kt_semimagic_opts_flags": (c_uint, [c_p]),
    "kt_semimagic_opts_set_start_cells": (c_status, [c_p, P(c_cell), c_size]),
    "kt_semimagic_opts_set_end_cells": (c_status, [c_p, P(c_cell), c_size]),
    "kt_semimagic_opts_set_start_column": (c_status, [c_p, c_u32]),
    "kt_semimagic_opts_set_end_column": (c_status, [c_p, c_u32]),
    "kt_semimagic_opts_set_puzzle_rule": (c_status, [c_p]),
    "kt_semimagic_opts_set_grid": (c_status, [c_p, P(c_u32), c_size]),
    "kt_semimagic_opts_set_symmetry": (c_status, [c_p, c_int]),
    "kt_semimagic_search": (c_status, [c_p, c_p, SEMIMAGIC_FN, c_p, P(c_u64), P(c_u64)]),
    "kt_semimagic_exists": (c_status, [c_p, c_p, P(c_int), P(c_u32)]),
    "kt_semimagic_check": (c_status, [c_p, P(c_u32), c_size, P(c_int)]),
    "kt_semimagic_make_puzzle": (c_status, [P(c_u32), c_p, P(c_u32), c_size, c_u64, c_u64, c_p,
                                            P(c_u32), P(c_u64)]),
    "kt_semimagic_solution_numbers": (P(c_u32), [c_p]),
    "kt_semimagic_solution_size": (c_u32, [c_p]),
    "kt_semimagic_solution_class": (c_u64, [c_p]),
    "kt_semimagic_solution_class_size": (c_u32, [c_p]),
    "kt_semimagic_solution_member": (c_u32, [c_p]),
    "kt_semimagic_solution_satisfies": (c_int, [c_p]),
    "kt_semimagic_solution_class_satisfying": (c_u32, [c_p]),
    "kt_semimagic_solution_reverse_class": (c_u64, [c_p]),
    "kt_semimagic_solution_reverse_satisfies": (c_int, [c_p]),
}


class _Functions:
    """The C functions, each with its signature set (attribute per name)."""

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"libknight function {name} is not declared in knight._lib")


c = _Functions()
MISSING: List[str] = []
for _name, (_res, _args) in SIGNATURES.items():
    try:
        _f = getattr(lib, _name)
    except AttributeError:
        MISSING.append(_name)
        continue
    _f.restype = _res
    _f.argtypes = list(_args)
    setattr(c, _name, _f)

if MISSING:
    raise ImportError(f"libknight at {path} lacks {', '.join(MISSING)}: it is older than 1.0")


def u32_array(values: Sequence[int]) -> "ctypes.Array[ctypes.c_uint32]":
    """A uint32_t array holding `values`."""
    return (c_u32 * len(values))(*values)


def none_or(v: Optional[int], none: int) -> int:
    """`none` for None, else v."""
    return none if v is None else v
