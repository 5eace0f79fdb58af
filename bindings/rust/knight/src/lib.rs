//! Safe Rust bindings to libknight.
//!
//! ```no_run
//! let g = knight::Graph::new(6, 6).unwrap();
//! let t = g.exhaustive_tour(false, None, None, 0).unwrap();
//! assert!(t.is_closed_tour());
//! ```
#![deny(missing_docs)]

use std::ffi::CStr;
use std::fmt;
use std::os::raw::{c_char, c_int, c_uint};
use std::ptr;

/// Raw declarations of the C API used by the safe wrappers.
#[allow(missing_docs)]
pub mod ffi {
    use std::os::raw::{c_char, c_int, c_uint, c_void};

    /// Opaque `kt_graph`.
    #[repr(C)]
    pub struct KtGraph {
        _private: [u8; 0],
    }
    /// Opaque `kt_tourney`.
    #[repr(C)]
    pub struct KtTourney {
        _private: [u8; 0],
    }
    /// Opaque `kt_options` (run settings), made and set only through its functions.
    #[repr(C)]
    pub struct KtOptions {
        _private: [u8; 0],
    }

    /// `kt_progress_fn`.
    pub type KtProgressFn = extern "C" fn(user: *mut c_void, done: u64, total: u64) -> c_int;

    /// `kt_u128` (its layout is frozen): value = hi * 2^64 + lo.
    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default)]
    pub struct KtCountValue {
        pub lo: u64,
        pub hi: u64,
    }

    /// `kt_diag`, whose layout is frozen: where and why an input was rejected.
    #[repr(C)]
    #[derive(Debug, Clone, Copy)]
    pub struct KtDiag {
        pub line: u64,
        pub column: u64,
        pub rule: c_int,
        pub cell: u32,
    }

    impl Default for KtDiag {
        fn default() -> Self { KtDiag { line: 0, column: 0, rule: 0, cell: u32::MAX } }
    }

    pub const KT_COUNT_OPEN: c_uint = 0x1;
    pub const KT_COUNT_DIRECTED: c_uint = 0x2;
    pub const KT_COUNT_SYMMETRIC: c_uint = 0x4;
    pub const KT_COUNT_CLASSES: c_uint = 0x8;

    extern "C" {
        pub fn kt_strerror(status: c_int) -> *const c_char;
        pub fn kt_status_name(status: c_int) -> *const c_char;
        pub fn kt_rule_describe(rule: c_int) -> *const c_char;
        pub fn kt_version_string() -> *const c_char;
        pub fn kt_graph_board_has_closed_tour(w: u32, h: u32) -> c_int;
        pub fn kt_graph_board_has_open_tour(w: u32, h: u32) -> c_int;
        pub fn kt_graph_new_custom(out: *mut *mut KtGraph, w: u32, h: u32, a: u32, b: u32,
                                   mask: *const u8, alloc: *const c_void) -> c_int;
        pub fn kt_graph_parse_mask(out: *mut *mut KtGraph, text: *const c_char, len: usize,
                                   a: u32, b: u32, alloc: *const c_void,
                                   diag: *mut KtDiag) -> c_int;
        pub fn kt_graph_free(g: *mut KtGraph);
        pub fn kt_graph_width(g: *const KtGraph) -> u32;
        pub fn kt_graph_height(g: *const KtGraph) -> u32;
        pub fn kt_graph_cell_count(g: *const KtGraph) -> usize;
        pub fn kt_graph_edge_count(g: *const KtGraph) -> u64;
        pub fn kt_graph_neighbor(g: *const KtGraph, cell: u32, mv: c_int) -> u32;
        pub fn kt_graph_move(g: *const KtGraph, from: u32, to: u32) -> c_int;
        pub fn kt_walks_count(g: *const KtGraph, length: u32, marked: *const u8, max: u32,
                              run: *const KtOptions, per_start: *mut u64, n: usize,
                              total: *mut u64) -> c_int;
        pub fn kt_options_set_budget(o: *mut KtOptions, budget: u64) -> c_int;
        pub fn kt_exhaustive_tour(out: *mut *mut KtTourney, g: *const KtGraph, shape: c_int,
                                  start: u32, end: u32, run: *const KtOptions) -> c_int;
        pub fn kt_tourney_from_order(out: *mut *mut KtTourney, g: *const KtGraph,
                                     order: *const u32, n: usize, shape: c_int,
                                     diag: *mut KtDiag) -> c_int;
        pub fn kt_tourney_free(t: *mut KtTourney);
        pub fn kt_tourney_size(t: *const KtTourney) -> usize;
        pub fn kt_tourney_is_closed_tour(t: *const KtTourney) -> c_int;
        pub fn kt_tourney_is_open_tour(t: *const KtTourney) -> c_int;
        pub fn kt_tourney_equal(t: *const KtTourney, u: *const KtTourney) -> c_int;
        pub fn kt_tourney_graph(t: *const KtTourney) -> *const KtGraph;
        pub fn kt_tourney_order(t: *const KtTourney, start: u32, dir: c_int, out: *mut u32,
                                cap: usize, len: *mut usize) -> c_int;
        pub fn kt_io_write_buffer(t: *const KtTourney, format: c_int, flags: c_uint,
                                       start: u32, buf: *mut c_char, cap: usize,
                                       len: *mut usize) -> c_int;
        pub fn kt_io_parse(out: *mut *mut KtTourney, g: *const KtGraph, text: *const c_char,
                                len: usize, format: c_int, flags: c_uint, alloc: *const c_void,
                                diag: *mut KtDiag) -> c_int;
        pub fn kt_generate_closed_tour(out: *mut *mut KtTourney, g: *const KtGraph,
                                       seed: u64, run: *const KtOptions) -> c_int;
        pub fn kt_generate_divide_tour(out: *mut *mut KtTourney, g: *const KtGraph, seed: u64,
                                       run: *const KtOptions) -> c_int;
        pub fn kt_generate_open_tour(out: *mut *mut KtTourney, g: *const KtGraph, start: u32,
                                     end: u32, seed: u64, run: *const KtOptions) -> c_int;
        pub fn kt_generate_warnsdorff_tour(out: *mut *mut KtTourney, g: *const KtGraph,
                                           shape: c_int, start: u32, tie: c_int, seed: u64,
                                           run: *const KtOptions) -> c_int;
        pub fn kt_generate_tourney(out: *mut *mut KtTourney, g: *const KtGraph, method: c_int,
                                   seed: u64, run: *const KtOptions) -> c_int;
        pub fn kt_rails_join(t: *mut KtTourney, seed: u64, run: *const KtOptions) -> c_int;
        pub fn kt_rails_shatter(t: *mut KtTourney, seed: u64) -> c_int;
        pub fn kt_rails_shatter_sequential(t: *mut KtTourney, seed: u64) -> c_int;
        pub fn kt_rails_obfuscate(t: *mut KtTourney, rounds: c_uint, seed: u64,
                                  run: *const KtOptions) -> c_int;
        pub fn kt_rails_count_tourney(t: *const KtTourney, count: *mut u64) -> c_int;
        pub fn kt_count_tours(g: *const KtGraph, flags: c_uint, run: *const KtOptions,
                              out: *mut KtCountValue, stats: *mut c_void) -> c_int;
        pub fn kt_options_new(out: *mut *mut KtOptions, alloc: *const c_void) -> c_int;
        pub fn kt_options_free(o: *mut KtOptions);
        pub fn kt_options_set_threads(o: *mut KtOptions, threads: c_uint) -> c_int;
        pub fn kt_options_set_shard(o: *mut KtOptions, index: u32, count: u32) -> c_int;
        pub fn kt_halftours_count_closed(width: u32, height: u32, split: u32,
                                         run: *const KtOptions, count: *mut KtCountValue)
                                         -> c_int;
    }
}

/// The "no cell" sentinel.
pub const CELL_NONE: u32 = u32::MAX;
const ERANGE: c_int = 13;

/// The validation rule an input broke (`kt_rule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// A value is not a cell of the board, or is a hole.
    NotACell = 1,
    /// Two consecutive cells are not a leaper move apart.
    NotAMove = 2,
    /// A cell is visited more than once.
    Repeated = 3,
    /// A cell is never visited.
    Missing = 4,
    /// The last cell is not a move away from the first.
    NotClosed = 5,
    /// A cell does not have the neighbours required.
    Degree = 6,
    /// An open tour is not one single path.
    NotAPath = 7,
    /// A hole is given as visited.
    Hole = 8,
}

impl Rule {
    fn from_raw(r: c_int) -> Option<Rule> {
        Some(match r {
            1 => Rule::NotACell,
            2 => Rule::NotAMove,
            3 => Rule::Repeated,
            4 => Rule::Missing,
            5 => Rule::NotClosed,
            6 => Rule::Degree,
            7 => Rule::NotAPath,
            8 => Rule::Hole,
            _ => return None,
        })
    }

    /// The library's description of the rule (`kt_rule_describe`).
    pub fn describe(self) -> &'static str {
        unsafe { CStr::from_ptr(ffi::kt_rule_describe(self as c_int)).to_str().unwrap_or("?") }
    }
}

/// A failed libknight call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The `kt_status` value.
    pub status: i32,
    /// Line and column (1-based) of a parse error, or of the offending cell's text
    /// for a tour rejected by a reader, when known.
    pub position: Option<(u64, u64)>,
    /// The validation rule an input broke, for a rejected tour.
    pub rule: Option<Rule>,
    /// The cell where the rule was broken, when known.
    pub cell: Option<u32>,
}

impl Error {
    /// The symbolic name, e.g. `KT_ENOTOUR`.
    pub fn name(&self) -> &'static str {
        unsafe { CStr::from_ptr(ffi::kt_status_name(self.status)).to_str().unwrap_or("?") }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let msg = unsafe { CStr::from_ptr(ffi::kt_strerror(self.status)) };
        write!(f, "{} ({})", msg.to_string_lossy(), self.name())?;
        if let Some((l, c)) = self.position {
            write!(f, " at line {l}, column {c}")?;
        }
        if let Some(r) = self.rule {
            write!(f, ": {}", r.describe())?;
        }
        if let Some(c) = self.cell {
            write!(f, " at cell {c}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

fn check(status: c_int) -> Result<(), Error> {
    if status == 0 { Ok(()) } else { Err(Error { status, position: None, rule: None, cell: None }) }
}

/// Like `check`, for a parser or validator: the error carries its `kt_diag`.
fn check_diag(status: c_int, d: &ffi::KtDiag) -> Result<(), Error> {
    if status == 0 {
        return Ok(());
    }
    Err(Error {
        status,
        position: if d.line > 0 { Some((d.line, d.column)) } else { None },
        rule: Rule::from_raw(d.rule),
        cell: if d.cell != CELL_NONE { Some(d.cell) } else { None },
    })
}

/// Text formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Guess when reading.
    Auto = 0,
    /// Visit numbers, a board row per line.
    Numbers = 1,
    /// Parberry's move digits.
    Moves = 2,
    /// SVG picture.
    Svg = 3,
}

/// How Warnsdorff's rule breaks ties between equally accessible cells (`kt_generate_tiebreak`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieBreak {
    /// The lowest move number (the plain, deterministic rule; fails on large boards).
    First = 0,
    /// Uniformly at random.
    Random = 1,
    /// Pohl (1967): the smallest sum of the candidates' onward accessibilities, then random.
    Pohl = 2,
    /// Roth: the candidate farthest from the board's centre, then Pohl's rule.
    Roth = 3,
}

/// The tourney generators of [`Graph::tourney`] (`kt_generate_method`, pinned values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenMethod {
    /// Random block tiling, blocks not merged: one cycle per block.
    Blocks = 0,
    /// The tourney variant of random Warnsdorff.
    Warnsdorff = 1,
    /// The Takefuji-Lee neural network, one neuron per edge.
    Neural = 2,
    /// Divide-and-conquer after Parberry (1997), base blocks not joined.
    Divide = 3,
    /// Concentric braided tourney (n x n, n even >= 4).
    Braid = 4,
    /// Four-cover tourney (both sides multiples of 4).
    FourCover = 5,
}

/// What [`Graph::count_tours`] counts (the `KT_COUNT_*` flags) and with how
/// many threads (a `kt_options` setting).
///
/// The default counts undirected closed tours with one thread per core.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CountOptions {
    /// Count open tours (Hamiltonian paths) instead of closed ones.
    pub open: bool,
    /// Count directed tours (each undirected tour twice).
    pub directed: bool,
    /// Count only the closed tours invariant under a 180-degree rotation.
    pub symmetric: bool,
    /// Count classes under the symmetries of the board instead of tours.
    pub classes: bool,
    /// Threads: 0 one per core, 1 the calling thread only, N at most N
    /// (the count is the same for any number).
    pub threads: u32,
}

impl CountOptions {
    fn flags(&self) -> c_uint {
        let mut flags = 0;
        if self.open { flags |= ffi::KT_COUNT_OPEN; }
        if self.directed { flags |= ffi::KT_COUNT_DIRECTED; }
        if self.symmetric { flags |= ffi::KT_COUNT_SYMMETRIC; }
        if self.classes { flags |= ffi::KT_COUNT_CLASSES; }
        flags
    }

    fn to_run(self) -> Result<RunOptions, Error> {
        let run = RunOptions::new()?;
        check(unsafe { ffi::kt_options_set_threads(run.raw, self.threads as c_uint) })?;
        Ok(run)
    }
}

/// An owned `kt_options`, freed on drop.
struct RunOptions {
    raw: *mut ffi::KtOptions,
}

impl RunOptions {
    fn new() -> Result<Self, Error> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::kt_options_new(&mut raw, ptr::null()) })?;
        Ok(RunOptions { raw })
    }
}

impl Drop for RunOptions {
    fn drop(&mut self) { unsafe { ffi::kt_options_free(self.raw) } }
}

fn count_u128(hi: u64, lo: u64) -> u128 {
    (hi as u128) << 64 | lo as u128
}

/// Count the undirected closed tours of a `width` x `height` board by McKay's
/// half-tour method (`kt_halftours_count_closed`), cutting it below row `split`
/// (rows of the upper half; `None` means `height / 2`).  Widths 1 to 8.
/// `threads`: 0 means one per core.
pub fn count_closed_by_halftours(width: u32, height: u32, split: Option<u32>, threads: u32)
    -> Result<u128, Error> {
    count_closed_by_halftours_shard(width, height, split, threads, 0, 1)
}

/// As [`count_closed_by_halftours`], but only shard `shard` of `shards` of
/// the join: the counts of shards 0 .. shards-1 sum to the whole.
pub fn count_closed_by_halftours_shard(width: u32, height: u32, split: Option<u32>, threads: u32,
                                       shard: u32, shards: u32) -> Result<u128, Error> {
    let run = RunOptions::new()?;
    check(unsafe { ffi::kt_options_set_threads(run.raw, threads as c_uint) })?;
    check(unsafe { ffi::kt_options_set_shard(run.raw, shard, shards) })?;
    let mut v = ffi::KtCountValue::default();
    check(unsafe {
        ffi::kt_halftours_count_closed(width, height, split.unwrap_or(height / 2), run.raw,
                                       &mut v)
    })?;
    Ok(count_u128(v.hi, v.lo))
}

/// A `kt_options` holding a budget for one call; budget 0 is a null
/// pointer (the library's defaults).
struct Budget {
    raw: *mut ffi::KtOptions,
}

impl Budget {
    fn new(budget: u64) -> Result<Budget, Error> {
        let mut b = Budget { raw: ptr::null_mut() };
        if budget != 0 {
            check(unsafe { ffi::kt_options_new(&mut b.raw, ptr::null()) })?;
            check(unsafe { ffi::kt_options_set_budget(b.raw, budget) })?;
        }
        Ok(b)
    }
}

impl Drop for Budget {
    fn drop(&mut self) {
        unsafe { ffi::kt_options_free(self.raw) }
    }
}

fn new_tourney(f: impl FnOnce(*mut *mut ffi::KtTourney) -> c_int) -> Result<Tourney, Error> {
    let mut raw = ptr::null_mut();
    check(f(&mut raw))?;
    Ok(Tourney { raw })
}

/// The library's version string.
pub fn version() -> String {
    unsafe { CStr::from_ptr(ffi::kt_version_string()).to_string_lossy().into_owned() }
}

/// Schwenk's theorem: whether a full board has a closed knight's tour.
pub fn has_closed_tour(width: u32, height: u32) -> bool {
    unsafe { ffi::kt_graph_board_has_closed_tour(width, height) != 0 }
}

/// Whether a full board has an open knight's tour.
pub fn has_open_tour(width: u32, height: u32) -> bool {
    unsafe { ffi::kt_graph_board_has_open_tour(width, height) != 0 }
}

/// The leaper graph of a board.  Immutable, so it may be shared between threads.
pub struct Graph {
    raw: *mut ffi::KtGraph,
}

unsafe impl Send for Graph {}
unsafe impl Sync for Graph {}

impl Graph {
    /// The knight's graph of a full board.
    pub fn new(width: u32, height: u32) -> Result<Graph, Error> {
        Graph::custom(width, height, (2, 1), None)
    }

    /// Any (a,b)-leaper, with optional holes (`mask[cell] == false`).
    pub fn custom(width: u32, height: u32, leaper: (u32, u32), mask: Option<&[bool]>)
        -> Result<Graph, Error> {
        let bytes: Option<Vec<u8>> = mask.map(|m| m.iter().map(|&b| b as u8).collect());
        if let Some(b) = &bytes {
            if b.len() as u64 != width as u64 * height as u64 {
                return Err(Error { status: 1, position: None, rule: None, cell: None });
            }
        }
        let mut raw = ptr::null_mut();
        check(unsafe {
            ffi::kt_graph_new_custom(&mut raw, width, height, leaper.0, leaper.1,
                                     bytes.as_ref().map_or(ptr::null(), |b| b.as_ptr()),
                                     ptr::null())
        })?;
        Ok(Graph { raw })
    }

    /// Parse a board mask (`.` or `#` holes, any other printable character a cell)
    /// for an (a,b)-leaper (`kt_graph_parse_mask`); an error names the line and column.
    pub fn from_mask_text(text: &str, leaper: (u32, u32)) -> Result<Graph, Error> {
        let mut raw = ptr::null_mut();
        let mut d = ffi::KtDiag::default();
        check_diag(unsafe {
            ffi::kt_graph_parse_mask(&mut raw, text.as_ptr() as *const c_char, text.len(),
                                     leaper.0, leaper.1, ptr::null(), &mut d)
        }, &d)?;
        Ok(Graph { raw })
    }

    /// Columns.
    pub fn width(&self) -> u32 { unsafe { ffi::kt_graph_width(self.raw) } }
    /// Rows.
    pub fn height(&self) -> u32 { unsafe { ffi::kt_graph_height(self.raw) } }
    /// Undirected edges.
    pub fn edge_count(&self) -> u64 { unsafe { ffi::kt_graph_edge_count(self.raw) } }
    /// The cell reached by move 0-7.
    pub fn neighbor(&self, cell: u32, mv: i32) -> Option<u32> {
        let c = unsafe { ffi::kt_graph_neighbor(self.raw, cell, mv) };
        if c == CELL_NONE { None } else { Some(c) }
    }
    /// The move from one cell to another.
    pub fn move_between(&self, from: u32, to: u32) -> Option<i32> {
        let m = unsafe { ffi::kt_graph_move(self.raw, from, to) };
        if m < 0 { None } else { Some(m) }
    }

    /// Count walks of `length` cells with at most `max_marked` visits to marked cells.
    pub fn count_walks(&self, length: u32, marked: &[u32], max_marked: u32)
        -> Result<(Vec<u64>, u64), Error> {
        let n = unsafe { ffi::kt_graph_cell_count(self.raw) };
        let mut m = vec![0u8; n];
        for &c in marked {
            if (c as usize) < n { m[c as usize] = 1; }
        }
        let mut per = vec![0u64; n];
        let mut total = 0u64;
        check(unsafe {
            ffi::kt_walks_count(self.raw, length, m.as_ptr(), max_marked, ptr::null(),
                                per.as_mut_ptr(), n, &mut total)
        })?;
        Ok((per, total))
    }

    /// Exact search for a closed tour (or an open one with `open`); `max_nodes`
    /// search nodes (0: no limit), `KT_ELIMIT` when they do not settle it.
    pub fn exhaustive_tour(&self, open: bool, start: Option<u32>, end: Option<u32>,
                           max_nodes: u64) -> Result<Tourney, Error> {
        let run = Budget::new(max_nodes)?;
        new_tourney(|out| unsafe {
            ffi::kt_exhaustive_tour(out, self.raw, open as c_int, start.unwrap_or(CELL_NONE),
                                    end.unwrap_or(CELL_NONE), run.raw)
        })
    }

    /// A tour from the cells in visiting order (validated).
    /// A rejected order gives an error with the rule and cell.
    pub fn tour_from_order(&self, order: &[u32], closed: bool) -> Result<Tourney, Error> {
        let mut raw = ptr::null_mut();
        let mut d = ffi::KtDiag::default();
        check_diag(unsafe {
            ffi::kt_tourney_from_order(&mut raw, self.raw, order.as_ptr(), order.len(),
                                       (!closed) as c_int, &mut d)
        }, &d)?;
        Ok(Tourney { raw })
    }

    /// A closed tour in linear time (`kt_generate_closed_tour`); the same seed gives
    /// the same tour.  `KT_ENOTOUR` when the board has none.
    pub fn closed_tour(&self, seed: u64) -> Result<Tourney, Error> {
        new_tourney(|out| unsafe { ffi::kt_generate_closed_tour(out, self.raw, seed, ptr::null()) })
    }

    /// An open tour, optionally from `start` and/or to `end` (`kt_generate_open_tour`).
    pub fn open_tour(&self, start: Option<u32>, end: Option<u32>, seed: u64)
        -> Result<Tourney, Error> {
        new_tourney(|out| unsafe {
            ffi::kt_generate_open_tour(out, self.raw, start.unwrap_or(CELL_NONE),
                                       end.unwrap_or(CELL_NONE), seed, ptr::null())
        })
    }

    /// A tour by Warnsdorff's rule with tie-break `tie` (`kt_generate_warnsdorff_tour`), closed
    /// or open, from `start` (a corner when `None`); `attempts` (walks) 0 is the
    /// default (1 for `TieBreak::First`, 64 otherwise); `KT_ELIMIT` when all failed.
    pub fn warnsdorff_tour(&self, closed: bool, start: Option<u32>, tie: TieBreak, seed: u64,
                           attempts: u32) -> Result<Tourney, Error> {
        let run = Budget::new(attempts as u64)?;
        new_tourney(|out| unsafe {
            ffi::kt_generate_warnsdorff_tour(out, self.raw, (!closed) as c_int,
                                             start.unwrap_or(CELL_NONE), tie as c_int, seed,
                                             run.raw)
        })
    }

    /// A closed tour by Parberry-style divide-and-conquer (`kt_generate_divide_tour`).
    pub fn divide_tour(&self, seed: u64) -> Result<Tourney, Error> {
        new_tourney(|out| unsafe { ffi::kt_generate_divide_tour(out, self.raw, seed, ptr::null()) })
    }

    /// A tourney (cycle cover) made by `method` (`kt_generate_tourney`); `budget` 0 is
    /// the default work bound.
    pub fn tourney(&self, method: GenMethod, seed: u64, budget: u64) -> Result<Tourney, Error> {
        let run = Budget::new(budget)?;
        new_tourney(|out| unsafe {
            ffi::kt_generate_tourney(out, self.raw, method as c_int, seed, run.raw)
        })
    }

    /// Count tours exactly by the frontier DP (`kt_count_tours`).
    pub fn count_tours(&self, options: &CountOptions) -> Result<u128, Error> {
        let run = options.to_run()?;
        let mut v = ffi::KtCountValue::default();
        check(unsafe {
            ffi::kt_count_tours(self.raw, options.flags(), run.raw, &mut v, ptr::null_mut())
        })?;
        Ok(count_u128(v.hi, v.lo))
    }
}

impl Drop for Graph {
    fn drop(&mut self) { unsafe { ffi::kt_graph_free(self.raw) } }
}

/// A cycle cover (tourney) or an open tour.  Not shared between threads.
pub struct Tourney {
    raw: *mut ffi::KtTourney,
}

unsafe impl Send for Tourney {}

impl Tourney {
    /// Read a tour or tourney from text.  An error names the line and column, and
    /// for a rejected tour the rule and cell.
    pub fn parse(text: &str, format: Format) -> Result<Tourney, Error> {
        let mut raw = ptr::null_mut();
        let mut d = ffi::KtDiag::default();
        check_diag(unsafe {
            ffi::kt_io_parse(&mut raw, ptr::null(), text.as_ptr() as *const c_char, text.len(),
                             format as c_int, 0, ptr::null(), &mut d)
        }, &d)?;
        Ok(Tourney { raw })
    }
    /// Number of cycles (1 for an open tour).
    pub fn size(&self) -> usize { unsafe { ffi::kt_tourney_size(self.raw) } }
    /// A closed tour.
    pub fn is_closed_tour(&self) -> bool { unsafe { ffi::kt_tourney_is_closed_tour(self.raw) != 0 } }
    /// An open tour.
    pub fn is_open_tour(&self) -> bool { unsafe { ffi::kt_tourney_is_open_tour(self.raw) != 0 } }

    /// Cells of the cycle or path through `start`.
    pub fn order(&self, start: u32, direction: i32) -> Result<Vec<u32>, Error> {
        let n = unsafe { ffi::kt_graph_cell_count(ffi::kt_tourney_graph(self.raw)) };
        let mut out = vec![0u32; n];
        let mut len = 0usize;
        check(unsafe {
            ffi::kt_tourney_order(self.raw, start, direction, out.as_mut_ptr(), n, &mut len)
        })?;
        out.truncate(len);
        Ok(out)
    }

    /// Write as text.
    pub fn to_text(&self, format: Format) -> Result<String, Error> {
        let mut need = 0usize;
        let st = unsafe {
            ffi::kt_io_write_buffer(self.raw, format as c_int, 0, CELL_NONE, ptr::null_mut(),
                                         0, &mut need)
        };
        if st != ERANGE { check(st)?; }
        let mut buf = vec![0u8; need + 1];
        check(unsafe {
            ffi::kt_io_write_buffer(self.raw, format as c_int, 0, CELL_NONE,
                                         buf.as_mut_ptr() as *mut c_char, need + 1, &mut need)
        })?;
        buf.truncate(need);
        Ok(String::from_utf8_lossy(&buf).into_owned())
    }
    /// Join the cycles into one closed tour by rail switches (`kt_rails_join`); unchanged on error.
    pub fn join(&mut self, seed: u64) -> Result<(), Error> {
        check(unsafe { ffi::kt_rails_join(self.raw, seed, std::ptr::null()) })
    }

    /// Switch a random set of disjoint rails (`kt_rails_shatter`).
    pub fn shatter(&mut self, seed: u64) -> Result<(), Error> {
        check(unsafe { ffi::kt_rails_shatter(self.raw, seed) })
    }

    /// Shatter as Parberry's code does: every rail still a rail, in a random
    /// order (`kt_rails_shatter_sequential`).
    pub fn shatter_sequential(&mut self, seed: u64) -> Result<(), Error> {
        check(unsafe { ffi::kt_rails_shatter_sequential(self.raw, seed) })
    }

    /// Shatter `rounds` times (0: the default 16), then join (`kt_rails_obfuscate`).
    pub fn obfuscate(&mut self, rounds: u32, seed: u64) -> Result<(), Error> {
        check(unsafe { ffi::kt_rails_obfuscate(self.raw, rounds as c_uint, seed, std::ptr::null()) })
    }

    /// Number of rails (`kt_rails_count_tourney`).
    pub fn count_rails(&self) -> Result<u64, Error> {
        let mut n = 0u64;
        check(unsafe { ffi::kt_rails_count_tourney(self.raw, &mut n) })?;
        Ok(n)
    }
}

impl PartialEq for Tourney {
    fn eq(&self, other: &Tourney) -> bool {
        unsafe { ffi::kt_tourney_equal(self.raw, other.raw) != 0 }
    }
}

impl Drop for Tourney {
    fn drop(&mut self) { unsafe { ffi::kt_tourney_free(self.raw) } }
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_facts() {
        let g = Graph::new(8, 8).unwrap();
        assert_eq!(g.edge_count(), 168);
        assert_eq!(g.neighbor(0, 7), Some(10));
        assert_eq!(g.move_between(10, 0), Some(3));
        assert!(has_closed_tour(6, 6) && !has_closed_tour(3, 8) && has_open_tour(3, 4));
        assert_eq!(Graph::new(0, 1).err().unwrap().name(), "KT_EINVAL");
    }

    #[test]
    fn keypad_walks() {
        let mut mask = vec![true; 20];
        mask[15] = false;
        mask[19] = false;
        let g = Graph::custom(5, 4, (2, 1), Some(&mask)).unwrap();
        let (per, total) = g.count_walks(10, &[0, 4, 8, 14], 2).unwrap();
        assert_eq!(total, 1_013_398);
        assert_eq!(per[0], 30_004);
    }

    #[test]
    fn tours_round_trip() {
        let g = Graph::new(6, 6).unwrap();
        let t = g.exhaustive_tour(false, None, None, 0).unwrap();
        assert!(t.is_closed_tour() && t.size() == 1);
        let order = t.order(0, 0).unwrap();
        assert_eq!(order.len(), 36);
        assert!(g.tour_from_order(&order, true).unwrap() == t);
        for f in [Format::Numbers, Format::Moves, Format::Svg] {
            assert!(Tourney::parse(&t.to_text(f).unwrap(), f).unwrap() == t);
        }
        let e = Tourney::parse("1 2\n3 x\n", Format::Numbers).err().unwrap();
        assert_eq!((e.name(), e.position), ("KT_EPARSE", Some((2, 3))));
        assert_eq!((e.rule, e.cell), (None, None));
        let g5 = Graph::new(5, 5).unwrap();
        assert_eq!(g5.exhaustive_tour(false, None, None, 0).err().unwrap().name(), "KT_ENOTOUR");
        assert!(g5.exhaustive_tour(true, Some(0), None, 0).unwrap().is_open_tour());
    }

    #[test]
    fn diagnostics() {
        // A bad tour in a text: rule, cell and the cell's position.
        let e = Tourney::parse("1 2 3\n4 5 5\n7 8 9\n", Format::Numbers).err().unwrap();
        assert_eq!(e.name(), "KT_EBADTOUR");
        assert_eq!((e.rule, e.cell, e.position), (Some(Rule::Repeated), Some(5), Some((2, 5))));
        assert!(e.to_string().contains("at cell 5"));
        // A validator: rule and cell, no position (cells 0 and 1 are not a move apart).
        let g = Graph::new(5, 5).unwrap();
        let order: Vec<u32> = (0..25).collect();
        let e = g.tour_from_order(&order, false).err().unwrap();
        assert_eq!((e.rule, e.cell, e.position), (Some(Rule::NotAMove), Some(0), None));
        // A board mask: a short row on line 4.
        let e = Graph::from_mask_text("ooo\nooo\nooo\noo\n", (2, 1)).err().unwrap();
        assert_eq!((e.name(), e.position, e.rule), ("KT_EPARSE", Some((4, 3)), None));
        let k = Graph::from_mask_text("ABCDE\nFGHIJ\nKLMNO\n.123.\n", (2, 1)).unwrap();
        assert_eq!((k.width(), k.height()), (5, 4));
        // The 1x1 tour reads back from the moves format by auto-detection.
        let one = Graph::new(1, 1).unwrap().tour_from_order(&[0], true).unwrap();
        let text = one.to_text(Format::Moves).unwrap();
        assert_eq!(text, "-\n");
        assert!(Tourney::parse(&text, Format::Auto).unwrap() == one);
    }

    #[test]
    fn generated_tours() {
        for (w, h) in [(8, 8), (10, 12)] {
            let g = Graph::new(w, h).unwrap();
            let t = g.closed_tour(7).unwrap();
            assert!(t.is_closed_tour() && t.size() == 1);
            assert_eq!(t.order(0, 0).unwrap().len(), (w * h) as usize);
            assert!(g.closed_tour(7).unwrap() == t);
            assert!(g.divide_tour(3).unwrap().is_closed_tour());
        }
        let g8 = Graph::new(8, 8).unwrap();
        assert!(g8.closed_tour(1).unwrap() != g8.closed_tour(2).unwrap());
        let g5 = Graph::new(5, 5).unwrap();
        assert_eq!(g5.closed_tour(0).err().unwrap().name(), "KT_ENOTOUR");
        let t = g5.open_tour(Some(0), None, 1).unwrap();
        assert!(t.is_open_tour() && !t.is_closed_tour());
        let order = t.order(0, 0).unwrap();
        assert_eq!((order.len(), order[0]), (25, 0));
        assert!(g5.open_tour(Some(0), None, 1).unwrap() == t);
        assert_eq!(g5.open_tour(Some(1), None, 1).err().unwrap().name(), "KT_ENOTOUR");
    }

    #[test]
    fn warnsdorff_every_tie_rule() {
        let g = Graph::new(8, 8).unwrap();
        for tie in [TieBreak::First, TieBreak::Random, TieBreak::Pohl, TieBreak::Roth] {
            let open = g.warnsdorff_tour(false, Some(0), tie, 5, 0).unwrap();
            assert!(open.is_open_tour(), "{tie:?}");
            assert_eq!(open.order(0, 0).unwrap()[0], 0);
            if tie != TieBreak::First {
                assert!(g.warnsdorff_tour(true, None, tie, 5, 0).unwrap().is_closed_tour(),
                        "{tie:?}");
            }
        }
        assert_eq!(Graph::new(5, 5).unwrap()
                       .warnsdorff_tour(true, None, TieBreak::Random, 0, 0).err().unwrap().name(),
                   "KT_ENOTOUR");
    }

    #[test]
    fn budgets() {
        // the plain rule gets stuck on 64x64 from the corner, at every attempt
        let g = Graph::new(64, 64).unwrap();
        for attempts in [0, 3] {
            assert_eq!(g.warnsdorff_tour(false, None, TieBreak::First, 0, attempts)
                           .err().unwrap().name(), "KT_ELIMIT");
        }
        // 4x4 has no open tour: 10 search nodes do not settle it, a full search does
        let g4 = Graph::new(4, 4).unwrap();
        assert_eq!(g4.exhaustive_tour(true, None, None, 10).err().unwrap().name(), "KT_ELIMIT");
        assert_eq!(g4.exhaustive_tour(true, None, None, 0).err().unwrap().name(), "KT_ENOTOUR");
        assert_eq!(Graph::new(40, 40).unwrap().tourney(GenMethod::Neural, 1, 1).err().unwrap()
                       .name(), "KT_ELIMIT");
    }

    #[test]
    fn tourneys_join_and_obfuscate() {
        let g = Graph::new(8, 8).unwrap();
        for method in [GenMethod::Braid, GenMethod::FourCover] {
            let mut t = g.tourney(method, 0, 0).unwrap();
            assert!(t.size() > 1 && !t.is_closed_tour(), "{method:?}");
            assert!(t.count_rails().unwrap() > 0);
            t.join(11).unwrap();
            assert!(t.is_closed_tour() && t.size() == 1, "{method:?}");
        }
        assert_eq!(g.tourney(GenMethod::FourCover, 0, 0).unwrap().size(), 16);
        assert_eq!(Graph::new(6, 6).unwrap().tourney(GenMethod::FourCover, 0, 0).err().unwrap()
                       .name(), "KT_EUNSUPPORTED");
        let mut t = g.closed_tour(3).unwrap();
        let before = g.closed_tour(3).unwrap();
        t.shatter(4).unwrap();
        assert!(t.size() > 1);
        t.join(4).unwrap();
        assert!(t.is_closed_tour());
        let mut t = g.closed_tour(3).unwrap();
        t.obfuscate(0, 9).unwrap();
        assert!(t.is_closed_tour() && t != before);
        let mut t = g.closed_tour(3).unwrap();
        for r in 0..16 {
            t.shatter_sequential(r).unwrap();
        }
        assert!(t.size() > 1);
        t.join(1).unwrap();
        assert!(t.is_closed_tour() && t != before);
        let mut open = Graph::new(5, 5).unwrap().open_tour(None, None, 0).unwrap();
        assert_eq!(open.join(0).err().unwrap().name(), "KT_EUNSUPPORTED");
        assert!(open.is_open_tour());
    }

    #[test]
    fn counts() {
        let g6 = Graph::new(6, 6).unwrap();
        assert_eq!(g6.count_tours(&CountOptions::default()).unwrap(), 9862);
        let two = CountOptions { threads: 2, ..Default::default() };
        assert_eq!(g6.count_tours(&two).unwrap(), 9862);
        let classes = CountOptions { classes: true, ..Default::default() };
        assert_eq!(g6.count_tours(&classes).unwrap(), 1245);
        let g5 = Graph::new(5, 5).unwrap();
        let open = CountOptions { open: true, directed: true, ..Default::default() };
        assert_eq!(g5.count_tours(&open).unwrap(), 1728);
        let open_undirected = CountOptions { open: true, ..Default::default() };
        assert_eq!(g5.count_tours(&open_undirected).unwrap(), 864);
        assert_eq!(g5.count_tours(&CountOptions::default()).unwrap(), 0);
        assert_eq!(count_closed_by_halftours(6, 6, None, 1).unwrap(), 9862);
        assert_eq!(count_closed_by_halftours(5, 8, None, 2).unwrap(), 44202);
        assert_eq!(count_closed_by_halftours(5, 8, Some(3), 1).unwrap(), 44202);
        assert_eq!(count_closed_by_halftours(6, 6, None, 0).unwrap(), 9862);
        let shards: u128 = (0..3)
            .map(|i| count_closed_by_halftours_shard(6, 6, None, 1, i, 3).unwrap())
            .sum();
        assert_eq!(shards, 9862);
        assert_eq!(count_closed_by_halftours_shard(6, 6, None, 1, 3, 3).err().unwrap().name(),
                   "KT_EINVAL");
        assert_eq!(count_closed_by_halftours(9, 8, None, 1).err().unwrap().name(),
                   "KT_EUNSUPPORTED");
    }

    #[test]
    fn count_settings() {
        let opt = CountOptions { open: true, classes: true, threads: 3, ..Default::default() };
        assert_eq!(opt.flags(), 0x9);
        let g6 = Graph::new(6, 6).unwrap();
        let one = CountOptions { threads: 1, ..Default::default() };
        assert_eq!(g6.count_tours(&one).unwrap(), 9862);
        let too_many = CountOptions { threads: 100_000, ..Default::default() };
        assert_eq!(g6.count_tours(&too_many).err().unwrap().name(), "KT_EINVAL");
    }
}
