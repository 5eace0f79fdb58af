//! Raw declarations of the whole C API of libknight 1.x (`include/knight/*.h`).
//!
//! Names, types and constants are those of the C headers; every function is
//! `unsafe` and follows the C documentation (see the headers or the Doxygen
//! pages).  The safe API is the `knight` crate.
//!
//! Enums are declared as `c_int` type aliases with one constant per value,
//! because the C library only ever appends values: a Rust `enum` would make
//! a value from a newer library undefined behaviour.  Only the structs whose
//! layout the C headers declare frozen are given a Rust layout (`kt_diag`,
//! `kt_u128`, `kt_allocator`, `kt_rail`, `kt_count_stats`, `kt_sample_stats`,
//! `kt_halftour_structure`, `kt_halftour_stats`); every other type is opaque.
//!
//! The test `tests/coverage.rs` checks that every `KT_EXPORT` function of the
//! headers is declared here.
#![allow(non_camel_case_types)]

use std::marker::{PhantomData, PhantomPinned};
pub use std::os::raw::{c_char, c_int, c_uint, c_void};

macro_rules! opaque {
    ($($(#[$m:meta])* $name:ident;)*) => {$(
        $(#[$m])*
        #[repr(C)]
        pub struct $name {
            _data: [u8; 0],
            _marker: PhantomData<(*mut u8, PhantomPinned)>,
        }
    )*};
}

opaque! {
    /// `kt_graph`: an immutable leaper graph (graph.h).
    kt_graph;
    /// `kt_tourney`: a cycle cover or open tour (tourney.h).
    kt_tourney;
    /// `kt_options`: run settings (options.h).
    kt_options;
    /// `kt_stats`: an accumulator of move distributions (stats.h).
    kt_stats;
    /// `kt_rails`: the rails of one tourney (rails.h).
    kt_rails;
    /// `kt_halftours`: the path structures of one half-board (halftour.h).
    kt_halftours;
    /// `kt_sampler`: the stored counts behind uniform tours (sample.h).
    kt_sampler;
    /// `kt_semimagic_opts`: constraints of a semimagic search (semimagic.h).
    kt_semimagic_opts;
    /// `kt_semimagic_solution`: a reported numbering, valid during its callback.
    kt_semimagic_solution;
}

// ---------------------------------------------------------------- common.h

/// `kt_status`: 0 is success; values are pinned and only appended.
pub type kt_status = c_int;
pub const KT_OK: kt_status = 0;
pub const KT_EINVAL: kt_status = 1;
pub const KT_ENOMEM: kt_status = 2;
pub const KT_ETOOBIG: kt_status = 3;
pub const KT_EPARSE: kt_status = 4;
pub const KT_EBADTOUR: kt_status = 5;
pub const KT_ENOTOUR: kt_status = 6;
pub const KT_ENOTFOUND: kt_status = 7;
pub const KT_ECANCELED: kt_status = 8;
pub const KT_EOVERFLOW: kt_status = 9;
pub const KT_EIO: kt_status = 10;
pub const KT_EUNSUPPORTED: kt_status = 11;
pub const KT_EMISMATCH: kt_status = 12;
pub const KT_ERANGE: kt_status = 13;
pub const KT_ETHREAD: kt_status = 14;
pub const KT_ELIMIT: kt_status = 15;
/// One past the largest status of this version.
pub const KT_STATUS_COUNT: c_int = 16;

/// `kt_cell`: `y * width + x`.
pub type kt_cell = u32;
pub const KT_CELL_NONE: kt_cell = 0xFFFF_FFFF;
pub const KT_MOVE_COUNT: c_int = 8;
pub const KT_MOVE_NONE: c_int = -1;

/// `kt_rule`: the validation rule an input broke.
pub type kt_rule = c_int;
pub const KT_RULE_NONE: kt_rule = 0;
pub const KT_RULE_NOT_A_CELL: kt_rule = 1;
pub const KT_RULE_NOT_A_MOVE: kt_rule = 2;
pub const KT_RULE_REPEATED: kt_rule = 3;
pub const KT_RULE_MISSING: kt_rule = 4;
pub const KT_RULE_NOT_CLOSED: kt_rule = 5;
pub const KT_RULE_DEGREE: kt_rule = 6;
pub const KT_RULE_NOT_A_PATH: kt_rule = 7;
pub const KT_RULE_HOLE: kt_rule = 8;

/// `kt_shape`.
pub type kt_shape = c_int;
pub const KT_SHAPE_CYCLES: kt_shape = 0;
pub const KT_SHAPE_PATH: kt_shape = 1;

/// `kt_diag` (frozen layout): where and why an input was rejected.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct kt_diag {
    pub line: u64,
    pub column: u64,
    pub rule: kt_rule,
    pub cell: kt_cell,
}

impl Default for kt_diag {
    /// The cleared value: no position, no rule, no cell.
    fn default() -> Self {
        kt_diag { line: 0, column: 0, rule: KT_RULE_NONE, cell: KT_CELL_NONE }
    }
}

/// `kt_u128` (frozen layout): value = hi * 2^64 + lo.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct kt_u128 {
    pub lo: u64,
    pub hi: u64,
}

/// `kt_allocator` (frozen layout).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct kt_allocator {
    pub alloc: Option<unsafe extern "C" fn(opaque: *mut c_void, size: usize) -> *mut c_void>,
    pub free: Option<unsafe extern "C" fn(opaque: *mut c_void, ptr: *mut c_void)>,
    pub opaque: *mut c_void,
}

/// `kt_progress_fn`: non-zero cancels.
pub type kt_progress_fn =
    Option<unsafe extern "C" fn(user: *mut c_void, done: u64, total: u64) -> c_int>;
/// `kt_write_fn`: non-zero fails the write with `KT_EIO`.
pub type kt_write_fn =
    Option<unsafe extern "C" fn(user: *mut c_void, data: *const c_char, len: usize) -> c_int>;

// --------------------------------------------------------------- options.h

pub const KT_THREADS_MAX: c_uint = 256;
/// `kt_trace_fn`.
pub type kt_trace_fn = Option<unsafe extern "C" fn(user: *mut c_void, step: u64, size: u64)>;

// -------------------------------------------------------------------- io.h

/// `kt_io_format`.
pub type kt_io_format = c_int;
pub const KT_IO_AUTO: kt_io_format = 0;
pub const KT_IO_NUMBERS: kt_io_format = 1;
pub const KT_IO_MOVES: kt_io_format = 2;
pub const KT_IO_SVG: kt_io_format = 3;
pub const KT_IO_WRITE_DEFAULT: c_uint = 0;
pub const KT_IO_WRITE_SVG_NUMBERS: c_uint = 1;
pub const KT_IO_WRITE_SVG_NO_BOARD: c_uint = 2;
pub const KT_IO_WRITE_REVERSE: c_uint = 4;
pub const KT_IO_READ_OPEN: c_uint = 1;

// ----------------------------------------------------------------- count.h

pub const KT_COUNT_OPEN: c_uint = 0x1;
pub const KT_COUNT_DIRECTED: c_uint = 0x2;
pub const KT_COUNT_SYMMETRIC: c_uint = 0x4;
pub const KT_COUNT_CLASSES: c_uint = 0x8;
pub const KT_COUNT_FRONTIER: c_uint = 0x10;

/// `kt_count_stats` (frozen layout).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct kt_count_stats {
    pub peak_states: u64,
    pub peak_bytes: u64,
    pub frontier: u32,
}

/// `kt_sample_stats` (frozen layout).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct kt_sample_stats {
    pub states: u64,
    pub bytes: u64,
    pub peak_states: u64,
    pub peak_bytes: u64,
}

// -------------------------------------------------------------- generate.h

/// `kt_generate_tiebreak`.
pub type kt_generate_tiebreak = c_int;
pub const KT_GENERATE_TIE_FIRST: kt_generate_tiebreak = 0;
pub const KT_GENERATE_TIE_RANDOM: kt_generate_tiebreak = 1;
pub const KT_GENERATE_TIE_POHL: kt_generate_tiebreak = 2;
pub const KT_GENERATE_TIE_ROTH: kt_generate_tiebreak = 3;
pub const KT_GENERATE_TIE_WPLUS: kt_generate_tiebreak = 4;
pub const KT_GENERATE_TIE_W2: kt_generate_tiebreak = 5;
pub const KT_GENERATE_TIE_COUNT: c_int = 6;

/// `kt_generate_method`.
pub type kt_generate_method = c_int;
pub const KT_GENERATE_BLOCKS: kt_generate_method = 0;
pub const KT_GENERATE_WARNSDORFF: kt_generate_method = 1;
pub const KT_GENERATE_NEURAL: kt_generate_method = 2;
pub const KT_GENERATE_DIVIDE: kt_generate_method = 3;
pub const KT_GENERATE_BRAID: kt_generate_method = 4;
pub const KT_GENERATE_FOUR_COVER: kt_generate_method = 5;
pub const KT_GENERATE_METHOD_COUNT: c_int = 6;
pub const KT_GENERATE_WARNSDORFF_FIRST_ATTEMPTS: c_uint = 1;
pub const KT_GENERATE_WARNSDORFF_ATTEMPTS: c_uint = 64;
pub const KT_GENERATE_TOURNEY_RESTARTS: c_uint = 100;
pub const KT_GENERATE_NEURAL_SWEEPS: c_uint = 2_000;

// ----------------------------------------------------------------- rails.h

/// `kt_rail` (frozen layout): a rail in canonical form.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct kt_rail {
    pub top: kt_cell,
    pub primary: u8,
    pub cross: u8,
}

/// `kt_rails_effect`.
pub type kt_rails_effect = c_int;
pub const KT_RAILS_MERGE: kt_rails_effect = 0;
pub const KT_RAILS_SPLIT: kt_rails_effect = 1;
pub const KT_RAILS_KEEP: kt_rails_effect = 2;
pub const KT_RAILS_OBFUSCATE_ROUNDS: c_uint = 16;

// -------------------------------------------------------------- halftour.h

pub const KT_HALFTOUR_MAX_WIDTH: u32 = 8;
pub const KT_HALFTOUR_MAX_CELLS: usize = 16;
pub const KT_HALFTOUR_INTERIOR: u8 = 0xFF;
pub const KT_HALFTOUR_DIRECTED: c_uint = 0x2;

/// `kt_halftour_structure` (frozen layout).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct kt_halftour_structure {
    pub key: u64,
    pub count: u64,
    pub partner: [u8; KT_HALFTOUR_MAX_CELLS],
    pub type_: [u8; KT_HALFTOUR_MAX_CELLS],
}

impl Default for kt_halftour_structure {
    fn default() -> Self {
        kt_halftour_structure {
            key: 0,
            count: 0,
            partner: [KT_HALFTOUR_INTERIOR; KT_HALFTOUR_MAX_CELLS],
            type_: [0; KT_HALFTOUR_MAX_CELLS],
        }
    }
}

/// `kt_halftour_stats` (frozen layout).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct kt_halftour_stats {
    pub halftours: u64,
    pub structures: u64,
    pub min_count: u64,
    pub max_count: u64,
    pub types: u64,
    pub a_values: u64,
    pub b_values: u64,
    pub max_per_type: u64,
}

/// The callback of `kt_halftours_foreach`: non-zero stops.
pub type kt_halftours_foreach_fn =
    Option<unsafe extern "C" fn(user: *mut c_void, s: *const kt_halftour_structure) -> c_int>;

// ------------------------------------------------------------- semimagic.h

pub const KT_SEMIMAGIC_LINES: c_uint = 1;
pub const KT_SEMIMAGIC_NESTED: c_uint = 2;
pub const KT_SEMIMAGIC_MAGIC: c_uint = 4;
pub const KT_SEMIMAGIC_CLOSED: c_uint = 8;
pub const KT_SEMIMAGIC_ROWS: c_uint = 16;
pub const KT_SEMIMAGIC_COLUMNS: c_uint = 32;
pub const KT_SEMIMAGIC_HALFTURN: c_uint = 64;

/// `kt_semimagic_symmetry`.
pub type kt_semimagic_symmetry = c_int;
pub const KT_SEMIMAGIC_CLASSES: kt_semimagic_symmetry = 0;
pub const KT_SEMIMAGIC_MEMBERS: kt_semimagic_symmetry = 1;
pub const KT_SEMIMAGIC_ALL: kt_semimagic_symmetry = 2;
pub const KT_SEMIMAGIC_NO_CLASS: u64 = u64::MAX;
pub const KT_SEMIMAGIC_ANY: u32 = u32::MAX;

/// `kt_semimagic_fn`: non-zero stops the search (`KT_ECANCELED`).
pub type kt_semimagic_fn =
    Option<unsafe extern "C" fn(user: *mut c_void, sol: *const kt_semimagic_solution) -> c_int>;

extern "C" {
    // common.h
    pub fn kt_strerror(status: kt_status) -> *const c_char;
    pub fn kt_status_name(status: kt_status) -> *const c_char;
    pub fn kt_is_error(status: kt_status) -> c_int;
    pub fn kt_rule_describe(rule: kt_rule) -> *const c_char;
    pub fn kt_u128_to_u64(v: *const kt_u128, out: *mut u64) -> kt_status;
    pub fn kt_u128_to_string(v: *const kt_u128, buf: *mut c_char, size: usize) -> kt_status;

    // version.h
    pub fn kt_version() -> c_uint;
    pub fn kt_version_string() -> *const c_char;

    // options.h
    pub fn kt_options_new(out: *mut *mut kt_options, alloc: *const kt_allocator) -> kt_status;
    pub fn kt_options_free(o: *mut kt_options);
    pub fn kt_options_copy(out: *mut *mut kt_options, o: *const kt_options) -> kt_status;
    pub fn kt_options_set_threads(o: *mut kt_options, threads: c_uint) -> kt_status;
    pub fn kt_options_threads(o: *const kt_options) -> c_uint;
    pub fn kt_options_thread_count(o: *const kt_options) -> c_uint;
    pub fn kt_options_set_progress(o: *mut kt_options, f: kt_progress_fn, user: *mut c_void)
        -> kt_status;
    pub fn kt_options_set_shard(o: *mut kt_options, index: u32, count: u32) -> kt_status;
    pub fn kt_options_shard(o: *const kt_options, index: *mut u32, count: *mut u32);
    pub fn kt_options_set_budget(o: *mut kt_options, budget: u64) -> kt_status;
    pub fn kt_options_budget(o: *const kt_options) -> u64;
    pub fn kt_options_set_checkpoint(o: *mut kt_options, path: *const c_char, interval: f64)
        -> kt_status;
    pub fn kt_options_checkpoint(o: *const kt_options) -> *const c_char;
    pub fn kt_options_set_trace(o: *mut kt_options, f: kt_trace_fn, user: *mut c_void)
        -> kt_status;

    // graph.h
    pub fn kt_graph_new(out: *mut *mut kt_graph, width: u32, height: u32) -> kt_status;
    pub fn kt_graph_new_custom(out: *mut *mut kt_graph, width: u32, height: u32, a: u32, b: u32,
                               mask: *const u8, alloc: *const kt_allocator) -> kt_status;
    pub fn kt_graph_parse_mask(out: *mut *mut kt_graph, text: *const c_char, len: usize, a: u32,
                               b: u32, alloc: *const kt_allocator, diag: *mut kt_diag)
        -> kt_status;
    pub fn kt_graph_free(g: *mut kt_graph);
    pub fn kt_graph_width(g: *const kt_graph) -> u32;
    pub fn kt_graph_height(g: *const kt_graph) -> u32;
    pub fn kt_graph_cell_count(g: *const kt_graph) -> usize;
    pub fn kt_graph_vertex_count(g: *const kt_graph) -> usize;
    pub fn kt_graph_edge_count(g: *const kt_graph) -> u64;
    pub fn kt_graph_leaper(g: *const kt_graph, a: *mut u32, b: *mut u32);
    pub fn kt_graph_has_holes(g: *const kt_graph) -> c_int;
    pub fn kt_graph_is_cell(g: *const kt_graph, cell: kt_cell) -> c_int;
    pub fn kt_graph_cell(g: *const kt_graph, x: u32, y: u32) -> kt_cell;
    pub fn kt_graph_coords(g: *const kt_graph, cell: kt_cell, x: *mut u32, y: *mut u32)
        -> kt_status;
    pub fn kt_graph_move_dx(g: *const kt_graph, mv: c_int) -> i32;
    pub fn kt_graph_move_dy(g: *const kt_graph, mv: c_int) -> i32;
    pub fn kt_graph_neighbor(g: *const kt_graph, cell: kt_cell, mv: c_int) -> kt_cell;
    pub fn kt_graph_move(g: *const kt_graph, from: kt_cell, to: kt_cell) -> c_int;
    pub fn kt_graph_degree(g: *const kt_graph, cell: kt_cell) -> c_uint;
    pub fn kt_graph_move_mask(g: *const kt_graph, cell: kt_cell) -> c_uint;
    pub fn kt_graph_equal(g: *const kt_graph, h: *const kt_graph) -> c_int;
    pub fn kt_graph_board_has_closed_tour(width: u32, height: u32) -> c_int;
    pub fn kt_graph_board_has_open_tour(width: u32, height: u32) -> c_int;

    // tourney.h
    pub fn kt_tourney_from_successors(out: *mut *mut kt_tourney, g: *const kt_graph,
                                      succ: *const kt_cell, n: usize, diag: *mut kt_diag)
        -> kt_status;
    pub fn kt_tourney_from_order(out: *mut *mut kt_tourney, g: *const kt_graph,
                                 order: *const kt_cell, n: usize, shape: kt_shape,
                                 diag: *mut kt_diag) -> kt_status;
    pub fn kt_tourney_from_move_pairs(out: *mut *mut kt_tourney, g: *const kt_graph,
                                      moves: *const u8, n: usize, diag: *mut kt_diag)
        -> kt_status;
    pub fn kt_tourney_free(t: *mut kt_tourney);
    pub fn kt_tourney_copy(out: *mut *mut kt_tourney, t: *const kt_tourney) -> kt_status;
    pub fn kt_tourney_equal(t: *const kt_tourney, u: *const kt_tourney) -> c_int;
    pub fn kt_tourney_graph(t: *const kt_tourney) -> *const kt_graph;
    pub fn kt_tourney_shape(t: *const kt_tourney) -> kt_shape;
    pub fn kt_tourney_size(t: *const kt_tourney) -> usize;
    pub fn kt_tourney_is_closed_tour(t: *const kt_tourney) -> c_int;
    pub fn kt_tourney_is_open_tour(t: *const kt_tourney) -> c_int;
    pub fn kt_tourney_neighbors(t: *const kt_tourney, cell: kt_cell, a: *mut kt_cell,
                                b: *mut kt_cell) -> kt_status;
    pub fn kt_tourney_has_edge(t: *const kt_tourney, u: kt_cell, v: kt_cell) -> c_int;
    pub fn kt_tourney_order(t: *const kt_tourney, start: kt_cell, direction: c_int,
                            out: *mut kt_cell, cap: usize, len: *mut usize) -> kt_status;
    pub fn kt_tourney_ends(t: *const kt_tourney, a: *mut kt_cell, b: *mut kt_cell) -> kt_status;
    pub fn kt_tourney_successors(t: *const kt_tourney, succ: *mut kt_cell, n: usize)
        -> kt_status;
    pub fn kt_tourney_move_pairs(t: *const kt_tourney, moves: *mut u8, n: usize) -> kt_status;
    pub fn kt_tourney_cycle_labels(t: *const kt_tourney, label: *mut u32, n: usize)
        -> kt_status;
    pub fn kt_tourney_validate_successors(g: *const kt_graph, succ: *const kt_cell, n: usize,
                                          diag: *mut kt_diag) -> kt_status;
    pub fn kt_tourney_move_counts(t: *const kt_tourney, counts: *mut u64) -> kt_status;
    pub fn kt_tourney_relative_move_counts(t: *const kt_tourney, counts: *mut u64) -> kt_status;

    // io.h
    pub fn kt_io_write(t: *const kt_tourney, format: kt_io_format, flags: c_uint,
                       start: kt_cell, f: kt_write_fn, user: *mut c_void) -> kt_status;
    pub fn kt_io_write_buffer(t: *const kt_tourney, format: kt_io_format, flags: c_uint,
                              start: kt_cell, buf: *mut c_char, cap: usize, len: *mut usize)
        -> kt_status;
    pub fn kt_io_parse(out: *mut *mut kt_tourney, g: *const kt_graph, text: *const c_char,
                       len: usize, format: kt_io_format, flags: c_uint,
                       alloc: *const kt_allocator, diag: *mut kt_diag) -> kt_status;

    // stats.h
    pub fn kt_stats_move_distribution(t: *const kt_tourney, freq: *mut f64) -> kt_status;
    pub fn kt_stats_relative_move_distribution(t: *const kt_tourney, freq: *mut f64)
        -> kt_status;
    pub fn kt_stats_new(out: *mut *mut kt_stats, alloc: *const kt_allocator) -> kt_status;
    pub fn kt_stats_free(s: *mut kt_stats);
    pub fn kt_stats_add(s: *mut kt_stats, t: *const kt_tourney) -> kt_status;
    pub fn kt_stats_count(s: *const kt_stats) -> u64;
    pub fn kt_stats_moves(s: *const kt_stats, mean: *mut f64, stddev: *mut f64) -> kt_status;
    pub fn kt_stats_relative(s: *const kt_stats, mean: *mut f64, stddev: *mut f64) -> kt_status;

    // walks.h
    pub fn kt_walks_count(g: *const kt_graph, length: u32, marked: *const u8, max_marked: u32,
                          run: *const kt_options, per_start: *mut u64, n: usize,
                          total: *mut u64) -> kt_status;

    // exhaustive.h
    pub fn kt_exhaustive_tour(out: *mut *mut kt_tourney, g: *const kt_graph, shape: kt_shape,
                              start: kt_cell, end: kt_cell, run: *const kt_options) -> kt_status;

    // count.h
    pub fn kt_count_tours(g: *const kt_graph, flags: c_uint, run: *const kt_options,
                          out: *mut kt_u128, stats: *mut kt_count_stats) -> kt_status;
    pub fn kt_count_open_tours(g: *const kt_graph, start: kt_cell, end: kt_cell, flags: c_uint,
                               run: *const kt_options, out: *mut kt_u128,
                               stats: *mut kt_count_stats) -> kt_status;
    pub fn kt_count_open_by_start(g: *const kt_graph, flags: c_uint, run: *const kt_options,
                                  counts: *mut kt_u128, ncounts: usize) -> kt_status;

    // sample.h
    pub fn kt_sampler_new(out: *mut *mut kt_sampler, g: *const kt_graph, shape: kt_shape,
                          start: kt_cell, end: kt_cell, run: *const kt_options) -> kt_status;
    pub fn kt_sampler_free(s: *mut kt_sampler);
    pub fn kt_sampler_total(s: *const kt_sampler, total: *mut kt_u128) -> kt_status;
    pub fn kt_sampler_stats(s: *const kt_sampler, stats: *mut kt_sample_stats) -> kt_status;
    pub fn kt_sampler_draw(out: *mut *mut kt_tourney, s: *const kt_sampler, seed: u64,
                           index: u64) -> kt_status;
    pub fn kt_sampler_draw_from(out: *mut *mut kt_tourney, s: *const kt_sampler, cell: kt_cell,
                                seed: u64, index: u64, run: *const kt_options) -> kt_status;
    pub fn kt_sampler_unrank(out: *mut *mut kt_tourney, s: *const kt_sampler,
                             rank: *const kt_u128) -> kt_status;
    pub fn kt_sampler_rank(s: *const kt_sampler, t: *const kt_tourney,
                           rank: *mut kt_u128) -> kt_status;

    // generate.h
    pub fn kt_generate_closed_tour(out: *mut *mut kt_tourney, g: *const kt_graph, seed: u64,
                                   run: *const kt_options) -> kt_status;
    pub fn kt_generate_divide_tour(out: *mut *mut kt_tourney, g: *const kt_graph, seed: u64,
                                   run: *const kt_options) -> kt_status;
    pub fn kt_generate_open_tour(out: *mut *mut kt_tourney, g: *const kt_graph, start: kt_cell,
                                 end: kt_cell, seed: u64, run: *const kt_options) -> kt_status;
    pub fn kt_generate_warnsdorff_tour(out: *mut *mut kt_tourney, g: *const kt_graph,
                                       shape: kt_shape, start: kt_cell,
                                       tie: kt_generate_tiebreak, seed: u64,
                                       run: *const kt_options) -> kt_status;
    pub fn kt_generate_tourney(out: *mut *mut kt_tourney, g: *const kt_graph,
                               method: kt_generate_method, seed: u64, run: *const kt_options)
        -> kt_status;
    pub fn kt_generate_method_name(method: kt_generate_method) -> *const c_char;
    pub fn kt_generate_method_parse(name: *const c_char, method: *mut kt_generate_method)
        -> kt_status;
    pub fn kt_generate_tiebreak_name(tie: kt_generate_tiebreak) -> *const c_char;

    // rails.h
    pub fn kt_rails_cells(g: *const kt_graph, rail: kt_rail, cells: *mut kt_cell) -> kt_status;
    pub fn kt_rails_is_rail(t: *const kt_tourney, rail: kt_rail) -> c_int;
    pub fn kt_rails_count_tourney(t: *const kt_tourney, count: *mut u64) -> kt_status;
    pub fn kt_rails_new(out: *mut *mut kt_rails, t: *mut kt_tourney) -> kt_status;
    pub fn kt_rails_free(r: *mut kt_rails);
    pub fn kt_rails_refresh(r: *mut kt_rails) -> kt_status;
    pub fn kt_rails_count(r: *const kt_rails) -> usize;
    pub fn kt_rails_get(r: *const kt_rails, index: usize, rail: *mut kt_rail) -> kt_status;
    pub fn kt_rails_counts(r: *const kt_rails, counts: *mut [u64; 4]) -> kt_status;
    pub fn kt_rails_cycle(r: *mut kt_rails, cell: kt_cell, cycle: *mut u32) -> kt_status;
    pub fn kt_rails_joins(r: *mut kt_rails, rail: kt_rail, joins: *mut c_int, c1: *mut u32,
                          c2: *mut u32) -> kt_status;
    pub fn kt_rails_graph(r: *mut kt_rails, edges: *mut usize, components: *mut usize)
        -> kt_status;
    pub fn kt_rails_switch(r: *mut kt_rails, rail: kt_rail, effect: *mut kt_rails_effect)
        -> kt_status;
    pub fn kt_rails_join(t: *mut kt_tourney, seed: u64, run: *const kt_options) -> kt_status;
    pub fn kt_rails_shatter(t: *mut kt_tourney, seed: u64) -> kt_status;
    pub fn kt_rails_shatter_sequential(t: *mut kt_tourney, seed: u64) -> kt_status;
    pub fn kt_rails_obfuscate(t: *mut kt_tourney, rounds: c_uint, seed: u64,
                              run: *const kt_options) -> kt_status;

    // halftour.h
    pub fn kt_halftours_enumerate(out: *mut *mut kt_halftours, width: u32, depth: u32,
                                  other_depth: u32, run: *const kt_options) -> kt_status;
    pub fn kt_halftours_free(h: *mut kt_halftours);
    pub fn kt_halftours_geometry(h: *const kt_halftours, width: *mut u32, depth: *mut u32,
                                 other_depth: *mut u32);
    pub fn kt_halftours_count(h: *const kt_halftours) -> usize;
    pub fn kt_halftours_stats(h: *const kt_halftours, st: *mut kt_halftour_stats) -> kt_status;
    pub fn kt_halftours_at(h: *const kt_halftours, index: usize,
                           out: *mut kt_halftour_structure) -> kt_status;
    pub fn kt_halftours_find(h: *const kt_halftours, partner: *const u8, index: *mut usize,
                             count: *mut u64) -> kt_status;
    pub fn kt_halftours_foreach(h: *const kt_halftours, f: kt_halftours_foreach_fn,
                                user: *mut c_void) -> kt_status;
    pub fn kt_halftours_types_compatible(width: u32, a_lower: *const u8, b_upper: *const u8,
                                         compatible: *mut c_int) -> kt_status;
    pub fn kt_halftours_join(lower: *const kt_halftours, upper: *const kt_halftours,
                             run: *const kt_options, count: *mut kt_u128) -> kt_status;
    pub fn kt_halftours_count_closed(width: u32, height: u32, split: u32,
                                     run: *const kt_options, count: *mut kt_u128) -> kt_status;
    pub fn kt_halftours_count_open(width: u32, height: u32, split: u32, start: kt_cell,
                                   end: kt_cell, flags: c_uint, run: *const kt_options,
                                   count: *mut kt_u128) -> kt_status;

    // semimagic.h
    pub fn kt_semimagic_opts_new(out: *mut *mut kt_semimagic_opts, n: u32,
                                 alloc: *const kt_allocator) -> kt_status;
    pub fn kt_semimagic_opts_new_rect(out: *mut *mut kt_semimagic_opts, width: u32, height: u32,
                                      alloc: *const kt_allocator) -> kt_status;
    pub fn kt_semimagic_opts_width(o: *const kt_semimagic_opts) -> u32;
    pub fn kt_semimagic_opts_height(o: *const kt_semimagic_opts) -> u32;
    pub fn kt_semimagic_solution_width(s: *const kt_semimagic_solution) -> u32;
    pub fn kt_semimagic_solution_height(s: *const kt_semimagic_solution) -> u32;
    pub fn kt_semimagic_opts_free(o: *mut kt_semimagic_opts);
    pub fn kt_semimagic_opts_size(o: *const kt_semimagic_opts) -> u32;
    pub fn kt_semimagic_opts_set_flags(o: *mut kt_semimagic_opts, flags: c_uint) -> kt_status;
    pub fn kt_semimagic_opts_flags(o: *const kt_semimagic_opts) -> c_uint;
    pub fn kt_semimagic_opts_set_start_cells(o: *mut kt_semimagic_opts, cells: *const kt_cell,
                                             count: usize) -> kt_status;
    pub fn kt_semimagic_opts_set_end_cells(o: *mut kt_semimagic_opts, cells: *const kt_cell,
                                           count: usize) -> kt_status;
    pub fn kt_semimagic_opts_set_start_column(o: *mut kt_semimagic_opts, x: u32) -> kt_status;
    pub fn kt_semimagic_opts_set_end_column(o: *mut kt_semimagic_opts, x: u32) -> kt_status;
    pub fn kt_semimagic_opts_set_puzzle_rule(o: *mut kt_semimagic_opts) -> kt_status;
    pub fn kt_semimagic_opts_set_grid(o: *mut kt_semimagic_opts, numbers: *const u32,
                                      count: usize) -> kt_status;
    pub fn kt_semimagic_opts_set_symmetry(o: *mut kt_semimagic_opts,
                                          mode: kt_semimagic_symmetry) -> kt_status;
    pub fn kt_semimagic_search(o: *const kt_semimagic_opts, run: *const kt_options,
                               f: kt_semimagic_fn, user: *mut c_void, classes: *mut u64,
                               solutions: *mut u64) -> kt_status;
    pub fn kt_semimagic_exists(o: *const kt_semimagic_opts, run: *const kt_options,
                               exists: *mut c_int, numbers: *mut u32) -> kt_status;
    pub fn kt_semimagic_check(o: *const kt_semimagic_opts, numbers: *const u32, count: usize,
                              ok: *mut c_int) -> kt_status;
    pub fn kt_semimagic_make_puzzle(puzzle: *mut u32, o: *const kt_semimagic_opts,
                                    solution: *const u32, count: usize, seed: u64,
                                    check_budget: u64, run: *const kt_options, givens: *mut u32,
                                    difficulty: *mut u64) -> kt_status;
    pub fn kt_semimagic_solution_numbers(s: *const kt_semimagic_solution) -> *const u32;
    pub fn kt_semimagic_solution_size(s: *const kt_semimagic_solution) -> u32;
    pub fn kt_semimagic_solution_class(s: *const kt_semimagic_solution) -> u64;
    pub fn kt_semimagic_solution_class_size(s: *const kt_semimagic_solution) -> u32;
    pub fn kt_semimagic_solution_member(s: *const kt_semimagic_solution) -> u32;
    pub fn kt_semimagic_solution_satisfies(s: *const kt_semimagic_solution) -> c_int;
    pub fn kt_semimagic_solution_class_satisfying(s: *const kt_semimagic_solution) -> u32;
    pub fn kt_semimagic_solution_reverse_class(s: *const kt_semimagic_solution) -> u64;
    pub fn kt_semimagic_solution_reverse_satisfies(s: *const kt_semimagic_solution) -> c_int;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{align_of, size_of};

    /// The frozen structs have the sizes of their C layouts on LP64 and ILP32.
    #[test]
    fn frozen_layouts() {
        assert_eq!(size_of::<kt_diag>(), 24);
        assert_eq!(size_of::<kt_u128>(), 16);
        assert_eq!(size_of::<kt_rail>(), 8);
        assert_eq!(size_of::<kt_count_stats>(), 24);
        assert_eq!(size_of::<kt_halftour_structure>(), 48);
        assert_eq!(size_of::<kt_halftour_stats>(), 64);
        assert_eq!(size_of::<kt_allocator>(), 3 * size_of::<usize>());
        assert_eq!(align_of::<kt_diag>(), align_of::<u64>());
    }

    #[test]
    fn status_strings_and_version() {
        unsafe {
            let name = std::ffi::CStr::from_ptr(kt_status_name(KT_ELIMIT));
            assert_eq!(name.to_str().unwrap(), "KT_ELIMIT");
            assert_eq!(kt_is_error(KT_OK), 0);
            assert_eq!(kt_is_error(KT_ENOTOUR), 1);
            assert_eq!(kt_version() / 10000, 1);
            let mut g = std::ptr::null_mut();
            assert_eq!(kt_graph_new(&mut g, 8, 8), KT_OK);
            assert_eq!(kt_graph_edge_count(g), 168);
            kt_graph_free(g);
        }
    }
}
