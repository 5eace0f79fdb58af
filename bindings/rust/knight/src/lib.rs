//! Safe Rust bindings to libknight, a C library of knight's tour algorithms.
//!
//! The raw declarations are in the [`sys`] crate (`knight-sys`); this crate
//! wraps them in owning types that free their C objects on drop, turns every
//! `kt_status` into a [`Result`] with a matchable [`ErrorKind`], and passes
//! Rust closures to the library's callbacks (progress, cancel, trace,
//! semimagic solutions, writers).
//!
//! ```
//! use knight::{Graph, CountFlags};
//!
//! // A seeded closed tour of 8x8, printed as visit numbers.
//! let g = Graph::new(8, 8)?;
//! let tour = g.closed_tour(42, None)?;
//! assert!(tour.is_closed_tour());
//! assert_eq!(tour.cells().count(), 64);
//! println!("{}", tour);
//!
//! // 6x6 has 9862 undirected closed tours.
//! assert_eq!(Graph::new(6, 6)?.count_tours(CountFlags::default(), None)?, 9862);
//! # Ok::<(), knight::Error>(())
//! ```
//!
//! # Threads
//!
//! The markers follow the thread rules of the C documentation:
//!
//! * [`Graph`] and [`HalfTours`] are immutable once made and the library
//!   documents that any number of threads may use one at once: `Send + Sync`.
//! * [`Tourney`], [`Stats`] and [`Rails`] are "used by one thread at a
//!   time": `Send` (they may move between threads) but not `Sync`.
//! * [`Options`] is `Send`; it is not `Sync` because its closures are
//!   `FnMut` and run during a call that borrows the options.
//! * [`SemimagicOptions`] may be shared by concurrent searches as long as
//!   nobody changes it (setters take `&mut self`): `Send + Sync`.
//!
//! Callbacks always run on the thread that made the call, never on the
//! library's worker threads, so closures need not be `Sync`.
#![deny(missing_docs)]

pub use knight_sys as sys;
use knight_sys as ffi;

use std::cell::RefCell;
use std::ffi::{CStr, CString};
use std::fmt;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::os::raw::{c_char, c_int, c_uint, c_void};
use std::panic::{self, AssertUnwindSafe};
use std::ptr;
use std::str::FromStr;

/// A cell index, `y * width + x`.
pub type Cell = u32;

/// The "no cell" sentinel of the C API (never returned by the safe API,
/// which uses `Option<Cell>`).
pub const CELL_NONE: Cell = ffi::KT_CELL_NONE;

fn cstr(p: *const c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    // The library's strings are static ASCII.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("?")
}

fn opt_cell(c: Cell) -> Option<Cell> {
    if c == CELL_NONE { None } else { Some(c) }
}

/// The version of the running library as (major, minor, patch).
pub fn version() -> (u32, u32, u32) {
    let v = unsafe { ffi::kt_version() };
    (v / 10000, v / 100 % 100, v % 100)
}

/// The version of the running library as "major.minor.patch".
pub fn version_string() -> &'static str {
    cstr(unsafe { ffi::kt_version_string() })
}

// ------------------------------------------------------------------ errors

/// What went wrong: one variant per `kt_status` error code.
///
/// ```
/// use knight::{Graph, ErrorKind};
/// let err = Graph::new(5, 5).unwrap().closed_tour(0, None).unwrap_err();
/// match err.kind() {
///     ErrorKind::NoTour => {} // a proof: 5x5 has no closed tour
///     other => panic!("unexpected {:?}", other),
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `KT_EINVAL`: an argument is invalid.
    InvalidArgument,
    /// `KT_ENOMEM`: memory allocation failed.
    NoMemory,
    /// `KT_ETOOBIG`: a size overflows the index type or memory.
    TooBig,
    /// `KT_EPARSE`: malformed text; see [`Error::position`].
    Parse,
    /// `KT_EBADTOUR`: not a valid tour or tourney; see [`Error::rule`].
    BadTour,
    /// `KT_ENOTOUR`: no such tour exists (a proof).
    NoTour,
    /// `KT_ENOTFOUND`: a bounded or heuristic search gave up.
    NotFound,
    /// `KT_ECANCELED`: a callback asked to stop.
    Canceled,
    /// `KT_EOVERFLOW`: a count does not fit its integer type.
    Overflow,
    /// `KT_EIO`: writing or reading through a callback or file failed.
    Io,
    /// `KT_EUNSUPPORTED`: the operation does not apply to this board or object.
    Unsupported,
    /// `KT_EMISMATCH`: two objects belong to different boards.
    Mismatch,
    /// `KT_ERANGE`: an output buffer is too small.
    Range,
    /// `KT_ETHREAD`: a worker thread could not be started (never produced by 1.x).
    Thread,
    /// `KT_ELIMIT`: the budget was exhausted.
    Limit,
    /// A status this version of the bindings does not know (a newer library).
    Unknown(i32),
}

impl ErrorKind {
    /// The kind of a non-zero `kt_status`.
    pub fn from_status(status: i32) -> ErrorKind {
        use ErrorKind::*;
        match status {
            ffi::KT_EINVAL => InvalidArgument,
            ffi::KT_ENOMEM => NoMemory,
            ffi::KT_ETOOBIG => TooBig,
            ffi::KT_EPARSE => Parse,
            ffi::KT_EBADTOUR => BadTour,
            ffi::KT_ENOTOUR => NoTour,
            ffi::KT_ENOTFOUND => NotFound,
            ffi::KT_ECANCELED => Canceled,
            ffi::KT_EOVERFLOW => Overflow,
            ffi::KT_EIO => Io,
            ffi::KT_EUNSUPPORTED => Unsupported,
            ffi::KT_EMISMATCH => Mismatch,
            ffi::KT_ERANGE => Range,
            ffi::KT_ETHREAD => Thread,
            ffi::KT_ELIMIT => Limit,
            other => Unknown(other),
        }
    }

    /// The `kt_status` value.
    pub fn status(self) -> i32 {
        use ErrorKind::*;
        match self {
            InvalidArgument => ffi::KT_EINVAL,
            NoMemory => ffi::KT_ENOMEM,
            TooBig => ffi::KT_ETOOBIG,
            Parse => ffi::KT_EPARSE,
            BadTour => ffi::KT_EBADTOUR,
            NoTour => ffi::KT_ENOTOUR,
            NotFound => ffi::KT_ENOTFOUND,
            Canceled => ffi::KT_ECANCELED,
            Overflow => ffi::KT_EOVERFLOW,
            Io => ffi::KT_EIO,
            Unsupported => ffi::KT_EUNSUPPORTED,
            Mismatch => ffi::KT_EMISMATCH,
            Range => ffi::KT_ERANGE,
            Thread => ffi::KT_ETHREAD,
            Limit => ffi::KT_ELIMIT,
            Unknown(s) => s,
        }
    }

    /// The symbolic name (`kt_status_name`), e.g. `"KT_ENOTOUR"`.
    pub fn name(self) -> &'static str {
        cstr(unsafe { ffi::kt_status_name(self.status()) })
    }

    /// The library's description (`kt_strerror`).
    pub fn description(self) -> &'static str {
        cstr(unsafe { ffi::kt_strerror(self.status()) })
    }
}

/// The validation rule an input broke (`kt_rule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// A value is not a cell of the board, or is a hole.
    NotACell,
    /// Two consecutive cells are not a leaper move apart.
    NotAMove,
    /// A cell is visited more than once.
    Repeated,
    /// A cell is never visited.
    Missing,
    /// The last cell is not a move away from the first.
    NotClosed,
    /// A cell does not have the neighbours required.
    Degree,
    /// An open tour is not one single path.
    NotAPath,
    /// A hole is given as visited.
    Hole,
}

impl Rule {
    fn from_raw(r: c_int) -> Option<Rule> {
        Some(match r {
            ffi::KT_RULE_NOT_A_CELL => Rule::NotACell,
            ffi::KT_RULE_NOT_A_MOVE => Rule::NotAMove,
            ffi::KT_RULE_REPEATED => Rule::Repeated,
            ffi::KT_RULE_MISSING => Rule::Missing,
            ffi::KT_RULE_NOT_CLOSED => Rule::NotClosed,
            ffi::KT_RULE_DEGREE => Rule::Degree,
            ffi::KT_RULE_NOT_A_PATH => Rule::NotAPath,
            ffi::KT_RULE_HOLE => Rule::Hole,
            _ => return None,
        })
    }

    fn raw(self) -> c_int {
        match self {
            Rule::NotACell => ffi::KT_RULE_NOT_A_CELL,
            Rule::NotAMove => ffi::KT_RULE_NOT_A_MOVE,
            Rule::Repeated => ffi::KT_RULE_REPEATED,
            Rule::Missing => ffi::KT_RULE_MISSING,
            Rule::NotClosed => ffi::KT_RULE_NOT_CLOSED,
            Rule::Degree => ffi::KT_RULE_DEGREE,
            Rule::NotAPath => ffi::KT_RULE_NOT_A_PATH,
            Rule::Hole => ffi::KT_RULE_HOLE,
        }
    }

    /// The library's description of the rule (`kt_rule_describe`).
    pub fn describe(self) -> &'static str {
        cstr(unsafe { ffi::kt_rule_describe(self.raw()) })
    }
}

/// A failed libknight call: its [`ErrorKind`] and, for parsers and
/// validators, where and why the input was rejected (`kt_diag`).
///
/// ```
/// use knight::{ErrorKind, Format, Tourney};
/// let err = Tourney::parse("1 2\n3 x\n", Format::Numbers).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Parse);
/// assert_eq!(err.position(), Some((2, 3)));          // line 2, column 3
/// assert!(err.to_string().contains("line 2, column 3"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    line: u64,
    column: u64,
    rule: Option<Rule>,
    cell: Option<Cell>,
}

impl Error {
    /// An error of `kind` with no position.
    pub fn new(kind: ErrorKind) -> Error {
        Error { kind, line: 0, column: 0, rule: None, cell: None }
    }

    fn with_diag(status: c_int, d: &ffi::kt_diag) -> Error {
        Error {
            kind: ErrorKind::from_status(status),
            line: d.line,
            column: d.column,
            rule: Rule::from_raw(d.rule),
            cell: opt_cell(d.cell),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind { self.kind }
    /// The `kt_status` value.
    pub fn status(&self) -> i32 { self.kind.status() }
    /// The symbolic name, e.g. `"KT_EPARSE"`.
    pub fn name(&self) -> &'static str { self.kind.name() }
    /// The 1-based line of a parse error (or of a rejected cell's text).
    pub fn line(&self) -> Option<u64> { if self.line > 0 { Some(self.line) } else { None } }
    /// The 1-based column (in bytes) likewise.
    pub fn column(&self) -> Option<u64> { if self.line > 0 { Some(self.column) } else { None } }
    /// Line and column together, when known.
    pub fn position(&self) -> Option<(u64, u64)> { self.line().map(|l| (l, self.column)) }
    /// The validation rule an input broke.
    pub fn rule(&self) -> Option<Rule> { self.rule }
    /// The cell where the rule was broken.
    pub fn cell(&self) -> Option<Cell> { self.cell }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Error { Error::new(kind) }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.kind.description(), self.kind.name())?;
        if let Some((l, c)) = self.position() {
            write!(f, " at line {}, column {}", l, c)?;
        }
        if let Some(r) = self.rule {
            write!(f, ": {}", r.describe())?;
        }
        if let Some(c) = self.cell {
            write!(f, " at cell {}", c)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// The result of every fallible call.
pub type Result<T> = std::result::Result<T, Error>;

fn check(status: c_int) -> Result<()> {
    if status == ffi::KT_OK { Ok(()) } else { Err(Error::new(ErrorKind::from_status(status))) }
}

fn check_diag(status: c_int, d: &ffi::kt_diag) -> Result<()> {
    if status == ffi::KT_OK { Ok(()) } else { Err(Error::with_diag(status, d)) }
}

fn u128_of(v: ffi::kt_u128) -> u128 {
    (v.hi as u128) << 64 | v.lo as u128
}

// ----------------------------------------------------------------- options

type ProgressFn<'a> = Box<dyn FnMut(u64, u64) -> bool + Send + 'a>;
type CancelFn<'a> = Box<dyn FnMut() -> bool + Send + 'a>;
type TraceFn<'a> = Box<dyn FnMut(u64, u64) + Send + 'a>;

/// The closures of an [`Options`], behind the `user` pointer of the C
/// callbacks.  Boxed so its address is stable while `Options` moves.
#[derive(Default)]
struct Hooks<'a> {
    progress: Option<ProgressFn<'a>>,
    cancel: Option<CancelFn<'a>>,
    trace: Option<TraceFn<'a>>,
    panic: Option<Box<dyn std::any::Any + Send + 'static>>,
}

/// Run settings of the long calls (`kt_options`): threads, a progress
/// closure that can cancel, a cancel closure, shards, a work budget, a
/// checkpoint file and a trace closure.
///
/// Every long call takes `Option<&Options>`; `None` means the defaults (one
/// thread per core, no callbacks, no budget).  Closures run on the thread
/// that made the call, never on a worker.  A closure that panics cancels
/// the call, and the panic is resumed once the C call has returned.
///
/// `Options` is `Send` (the closures must be `Send`) but not `Sync`: the
/// closures are `FnMut` and run during calls that borrow the options.
///
/// Progress is throttled to a few reports a second, so a short call may
/// make none; the generators always make a last one (done == total) before
/// they return, which can still cancel.
///
/// ```
/// use knight::{Graph, CountFlags, ErrorKind, Options};
/// let g = Graph::new(6, 6)?;
/// let mut last = (0, 0);
/// let run = Options::new()?
///     .threads(2)?
///     .progress(|done, total| { last = (done, total); true });
/// assert_eq!(g.count_tours(CountFlags::default(), Some(&run))?, 9862);
/// assert!(g.closed_tour(7, Some(&run))?.is_closed_tour());
/// drop(run);
/// assert!(last.1 > 0 && last.0 == last.1);
///
/// // A cancel closure stops a call at its next progress report.
/// let stop = Options::new()?.cancel(|| true);
/// let err = g.closed_tour(7, Some(&stop)).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Canceled);
/// # Ok::<(), knight::Error>(())
/// ```
pub struct Options<'a> {
    raw: *mut ffi::kt_options,
    hooks: Box<RefCell<Hooks<'a>>>,
}

// The kt_options object is only changed through `&mut self`, and the hooks
// are `Send`; nothing in it is tied to a thread.
unsafe impl Send for Options<'_> {}

unsafe extern "C" fn progress_trampoline(user: *mut c_void, done: u64, total: u64) -> c_int {
    let cell = &*(user as *const RefCell<Hooks<'_>>);
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        let mut h = cell.borrow_mut();
        let mut go_on = true;
        if let Some(p) = h.progress.as_mut() {
            go_on = p(done, total);
        }
        if go_on {
            if let Some(c) = h.cancel.as_mut() {
                go_on = !c();
            }
        }
        go_on
    }));
    match result {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(payload) => {
            if let Ok(mut h) = cell.try_borrow_mut() {
                h.panic.get_or_insert(payload);
            }
            1
        }
    }
}

unsafe extern "C" fn trace_trampoline(user: *mut c_void, step: u64, size: u64) {
    let cell = &*(user as *const RefCell<Hooks<'_>>);
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        if let Some(t) = cell.borrow_mut().trace.as_mut() {
            t(step, size);
        }
    }));
    if let Err(payload) = result {
        if let Ok(mut h) = cell.try_borrow_mut() {
            h.panic.get_or_insert(payload);
        }
    }
}

impl<'a> Options<'a> {
    /// The defaults: one thread per core, no callbacks, the whole
    /// computation, no budget, no checkpoint.
    pub fn new() -> Result<Options<'a>> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::kt_options_new(&mut raw, ptr::null()) })?;
        Ok(Options { raw, hooks: Box::new(RefCell::new(Hooks::default())) })
    }

    fn user(&self) -> *mut c_void {
        &*self.hooks as *const RefCell<Hooks<'a>> as *mut c_void
    }

    fn install_progress(&mut self) {
        let h = self.hooks.borrow();
        let f: ffi::kt_progress_fn = if h.progress.is_some() || h.cancel.is_some() {
            Some(progress_trampoline)
        } else {
            None
        };
        drop(h);
        // Cannot fail: the object is not NULL.
        unsafe { ffi::kt_options_set_progress(self.raw, f, self.user()) };
    }

    /// Threads: 0 one per core (the default), 1 the calling thread only, N at
    /// most N; more than 256 is [`ErrorKind::InvalidArgument`].
    pub fn threads(self, threads: u32) -> Result<Self> {
        check(unsafe { ffi::kt_options_set_threads(self.raw, threads as c_uint) })?;
        Ok(self)
    }

    /// Compute shard `index` of `count` (the parts sum to the whole).
    pub fn shard(self, index: u32, count: u32) -> Result<Self> {
        check(unsafe { ffi::kt_options_set_shard(self.raw, index, count) })?;
        Ok(self)
    }

    /// Bound the work of a call, in the unit the call names (0 = no bound);
    /// reaching it gives [`ErrorKind::Limit`].
    pub fn budget(self, budget: u64) -> Self {
        unsafe { ffi::kt_options_set_budget(self.raw, budget) };
        self
    }

    /// Save and resume the state of calls that support checkpoints
    /// ([`Graph::count_tours`]) in `path`, every `interval` seconds (negative:
    /// the default 300).
    pub fn checkpoint(self, path: &str, interval: f64) -> Result<Self> {
        let c = CString::new(path).map_err(|_| Error::new(ErrorKind::InvalidArgument))?;
        check(unsafe { ffi::kt_options_set_checkpoint(self.raw, c.as_ptr(), interval) })?;
        Ok(self)
    }

    /// A progress closure: called with `(done, total)` (total 0 when unknown)
    /// at most a few times a second; return `false` to cancel the call
    /// ([`ErrorKind::Canceled`]).
    pub fn progress<F: FnMut(u64, u64) -> bool + Send + 'a>(mut self, f: F) -> Self {
        self.hooks.borrow_mut().progress = Some(Box::new(f));
        self.install_progress();
        self
    }

    /// A cancel closure, asked at every progress report: return `true` to
    /// cancel the call ([`ErrorKind::Canceled`]).
    pub fn cancel<F: FnMut() -> bool + Send + 'a>(mut self, f: F) -> Self {
        self.hooks.borrow_mut().cancel = Some(Box::new(f));
        self.install_progress();
        self
    }

    /// A trace closure: `(step, states)` after each step of a layered
    /// computation (the frontier count, the half-tour enumeration).
    pub fn trace<F: FnMut(u64, u64) + Send + 'a>(self, f: F) -> Self {
        self.hooks.borrow_mut().trace = Some(Box::new(f));
        unsafe { ffi::kt_options_set_trace(self.raw, Some(trace_trampoline), self.user()) };
        self
    }

    /// The thread setting as given (0 = one per core).
    pub fn thread_setting(&self) -> u32 { unsafe { ffi::kt_options_threads(self.raw) } }
    /// The number of threads a call will use (at least 1).
    pub fn thread_count(&self) -> u32 { unsafe { ffi::kt_options_thread_count(self.raw) } }
    /// The budget (0 = unlimited).
    pub fn budget_setting(&self) -> u64 { unsafe { ffi::kt_options_budget(self.raw) } }
    /// The shard setting (index, count).
    pub fn shard_setting(&self) -> (u32, u32) {
        let (mut i, mut n) = (0, 0);
        unsafe { ffi::kt_options_shard(self.raw, &mut i, &mut n) };
        (i, n)
    }
    /// The checkpoint file, if any.
    pub fn checkpoint_path(&self) -> Option<String> {
        let p = unsafe { ffi::kt_options_checkpoint(self.raw) };
        if p.is_null() { None } else { Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()) }
    }

    /// A copy of the plain settings (threads, shard, budget, checkpoint;
    /// `kt_options_copy`) without the closures.
    pub fn copy_settings(&self) -> Result<Options<'static>> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::kt_options_copy(&mut raw, self.raw) })?;
        unsafe {
            ffi::kt_options_set_progress(raw, None, ptr::null_mut());
            ffi::kt_options_set_trace(raw, None, ptr::null_mut());
        }
        Ok(Options { raw, hooks: Box::new(RefCell::new(Hooks::default())) })
    }

    /// Run `f` with the raw settings, then resume a panic of a closure.
    fn call(&self, f: impl FnOnce(*const ffi::kt_options) -> c_int) -> c_int {
        self.hooks.borrow_mut().panic = None;
        let st = f(self.raw);
        let payload = self.hooks.borrow_mut().panic.take();
        if let Some(p) = payload {
            panic::resume_unwind(p);
        }
        st
    }
}

impl fmt::Debug for Options<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = self.hooks.borrow();
        f.debug_struct("Options")
            .field("threads", &self.thread_setting())
            .field("shard", &self.shard_setting())
            .field("budget", &self.budget_setting())
            .field("checkpoint", &self.checkpoint_path())
            .field("progress", &h.progress.is_some())
            .field("cancel", &h.cancel.is_some())
            .field("trace", &h.trace.is_some())
            .finish()
    }
}

impl Drop for Options<'_> {
    fn drop(&mut self) { unsafe { ffi::kt_options_free(self.raw) } }
}

/// Call `f` with the raw settings of `run` (NULL for `None`).
fn with_run(run: Option<&Options<'_>>, f: impl FnOnce(*const ffi::kt_options) -> c_int) -> c_int {
    match run {
        Some(o) => o.call(f),
        None => f(ptr::null()),
    }
}

// ------------------------------------------------------------------- graph

/// What a [`Tourney`] holds (`kt_shape`), or what a search looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A cycle cover; a closed tour when it has one cycle.
    Cycles,
    /// An open tour (a Hamiltonian path).
    Path,
}

impl Shape {
    fn raw(self) -> c_int {
        match self { Shape::Cycles => ffi::KT_SHAPE_CYCLES, Shape::Path => ffi::KT_SHAPE_PATH }
    }
}

/// The leaper graph of a board, optionally with holes (`kt_graph`).
///
/// Immutable once made; the C library documents that any number of threads
/// may query one graph at once and that its reference count is atomic, so a
/// `Graph` is `Send + Sync` (share it with `Arc`).
///
/// ```
/// let g = knight::Graph::new(8, 8)?;
/// assert_eq!((g.width(), g.height(), g.edge_count()), (8, 8, 168));
/// assert_eq!(g.neighbor(0, 7), Some(10));      // move 7 is (+2, +1)
/// assert_eq!(g.move_between(10, 0), Some(3));  // and move 3 reverses it
/// # Ok::<(), knight::Error>(())
/// ```
pub struct Graph {
    raw: *mut ffi::kt_graph,
}

unsafe impl Send for Graph {}
unsafe impl Sync for Graph {}

/// A graph borrowed from a [`Tourney`] (see [`Tourney::graph`]).
pub struct GraphRef<'a> {
    graph: ManuallyDrop<Graph>,
    _tourney: PhantomData<&'a Tourney>,
}

impl Deref for GraphRef<'_> {
    type Target = Graph;
    fn deref(&self) -> &Graph { &self.graph }
}

fn new_graph(f: impl FnOnce(*mut *mut ffi::kt_graph) -> c_int) -> Result<Graph> {
    let mut raw = ptr::null_mut();
    check(f(&mut raw))?;
    Ok(Graph { raw })
}

impl Graph {
    /// The knight's graph of a full `width` x `height` board.
    pub fn new(width: u32, height: u32) -> Result<Graph> {
        new_graph(|out| unsafe { ffi::kt_graph_new(out, width, height) })
    }

    /// The graph of an `(a, b)`-leaper, with holes where `mask` is `false`
    /// (`mask`: one entry per cell in cell order, or `None` for a full board).
    pub fn custom(width: u32, height: u32, leaper: (u32, u32), mask: Option<&[bool]>)
        -> Result<Graph> {
        let bytes: Option<Vec<u8>> = mask.map(|m| m.iter().map(|&b| b as u8).collect());
        if let Some(b) = &bytes {
            if b.len() != width as usize * height as usize {
                return Err(ErrorKind::InvalidArgument.into());
            }
        }
        let p = bytes.as_ref().map(|b| b.as_ptr()).unwrap_or(ptr::null());
        new_graph(|out| unsafe {
            ffi::kt_graph_new_custom(out, width, height, leaper.0, leaper.1, p, ptr::null())
        })
    }

    /// A board from text, one line per row: `.` or `#` a hole, any other
    /// printable character a cell.  A parse error carries line and column.
    pub fn from_mask_text(text: &str, leaper: (u32, u32)) -> Result<Graph> {
        let mut raw = ptr::null_mut();
        let mut d = ffi::kt_diag::default();
        check_diag(unsafe {
            ffi::kt_graph_parse_mask(&mut raw, text.as_ptr() as *const c_char, text.len(),
                                     leaper.0, leaper.1, ptr::null(), &mut d)
        }, &d)?;
        Ok(Graph { raw })
    }

    /// The raw pointer, for calls into [`sys`]; owned by `self`.
    pub fn as_ptr(&self) -> *const ffi::kt_graph { self.raw }

    /// Columns.
    pub fn width(&self) -> u32 { unsafe { ffi::kt_graph_width(self.raw) } }
    /// Rows.
    pub fn height(&self) -> u32 { unsafe { ffi::kt_graph_height(self.raw) } }
    /// Board positions, holes included (the length of per-cell arrays).
    pub fn cell_count(&self) -> usize { unsafe { ffi::kt_graph_cell_count(self.raw) } }
    /// Vertices: cells that are not holes.
    pub fn vertex_count(&self) -> usize { unsafe { ffi::kt_graph_vertex_count(self.raw) } }
    /// Undirected edges.
    pub fn edge_count(&self) -> u64 { unsafe { ffi::kt_graph_edge_count(self.raw) } }
    /// The leaper's legs (a, b); (2, 1) for the knight.
    pub fn leaper(&self) -> (u32, u32) {
        let (mut a, mut b) = (0, 0);
        unsafe { ffi::kt_graph_leaper(self.raw, &mut a, &mut b) };
        (a, b)
    }
    /// Whether the board has holes.
    pub fn has_holes(&self) -> bool { unsafe { ffi::kt_graph_has_holes(self.raw) != 0 } }
    /// Whether `cell` is a vertex (on the board, not a hole).
    pub fn is_cell(&self, cell: Cell) -> bool { unsafe { ffi::kt_graph_is_cell(self.raw, cell) != 0 } }
    /// The index of column `x`, row `y` (holes have one too).
    pub fn cell(&self, x: u32, y: u32) -> Option<Cell> {
        opt_cell(unsafe { ffi::kt_graph_cell(self.raw, x, y) })
    }
    /// Column and row of `cell`.
    pub fn coords(&self, cell: Cell) -> Option<(u32, u32)> {
        let (mut x, mut y) = (0, 0);
        let st = unsafe { ffi::kt_graph_coords(self.raw, cell, &mut x, &mut y) };
        if st == ffi::KT_OK { Some((x, y)) } else { None }
    }
    /// The displacement (dx, dy) of move 0-7 (dy downward).
    pub fn move_delta(&self, mv: u8) -> (i32, i32) {
        unsafe { (ffi::kt_graph_move_dx(self.raw, mv as c_int), ffi::kt_graph_move_dy(self.raw, mv as c_int)) }
    }
    /// The cell reached from `cell` by move `mv`.
    pub fn neighbor(&self, cell: Cell, mv: u8) -> Option<Cell> {
        opt_cell(unsafe { ffi::kt_graph_neighbor(self.raw, cell, mv as c_int) })
    }
    /// The move from `from` to `to`, if they are adjacent.
    pub fn move_between(&self, from: Cell, to: Cell) -> Option<u8> {
        let m = unsafe { ffi::kt_graph_move(self.raw, from, to) };
        if m < 0 { None } else { Some(m as u8) }
    }
    /// The number of neighbours of `cell`.
    pub fn degree(&self, cell: Cell) -> u32 { unsafe { ffi::kt_graph_degree(self.raw, cell) } }
    /// Bit k set when move k from `cell` stays on the board and off holes.
    pub fn move_mask(&self, cell: Cell) -> u8 { unsafe { ffi::kt_graph_move_mask(self.raw, cell) as u8 } }

    /// The four cells u, v, w, x of a rail's parallelogram.
    pub fn rail_cells(&self, rail: Rail) -> Result<[Cell; 4]> {
        let mut cells = [0; 4];
        check(unsafe { ffi::kt_rails_cells(self.raw, rail.raw(), cells.as_mut_ptr()) })?;
        Ok(cells)
    }

    /// Check a successor array (see [`Tourney::from_successors`]) without
    /// building anything; a rejection names the rule and cell.
    pub fn validate_successors(&self, succ: &[Cell]) -> Result<()> {
        let mut d = ffi::kt_diag::default();
        check_diag(unsafe {
            ffi::kt_tourney_validate_successors(self.raw, succ.as_ptr(), succ.len(), &mut d)
        }, &d)
    }

    // --- walks, exhaustive search, counting

    /// Count the walks of `length` cells, per start cell and in total, with
    /// at most `max_marked` visits to the cells marked `true`
    /// (`kt_walks_count`).
    pub fn count_walks(&self, length: u32, marked: Option<&[bool]>, max_marked: u32,
                       run: Option<&Options<'_>>) -> Result<(Vec<u64>, u64)> {
        let bytes: Option<Vec<u8>> = marked.map(|m| m.iter().map(|&b| b as u8).collect());
        if let Some(b) = &bytes {
            if b.len() != self.cell_count() {
                return Err(ErrorKind::InvalidArgument.into());
            }
        }
        let p = bytes.as_ref().map(|b| b.as_ptr()).unwrap_or(ptr::null());
        let mut per = vec![0u64; self.cell_count()];
        let mut total = 0u64;
        check(with_run(run, |r| unsafe {
            ffi::kt_walks_count(self.raw, length, p, max_marked, r, per.as_mut_ptr(), per.len(),
                                &mut total)
        }))?;
        Ok((per, total))
    }

    /// Search exhaustively for a closed or open tour; for open tours
    /// `start` and `end` may be fixed.  Budget: search nodes.
    /// [`ErrorKind::NoTour`] is a proof that none exists.
    pub fn exhaustive_tour(&self, shape: Shape, start: Option<Cell>, end: Option<Cell>,
                           run: Option<&Options<'_>>) -> Result<Tourney> {
        new_tourney(|out| with_run(run, |r| unsafe {
            ffi::kt_exhaustive_tour(out, self.raw, shape.raw(), start.unwrap_or(CELL_NONE),
                                    end.unwrap_or(CELL_NONE), r)
        }))
    }

    /// Count tours exactly by the frontier method (`kt_count_tours`).
    ///
    /// ```
    /// use knight::{Graph, CountFlags};
    /// let g5 = Graph::new(5, 5)?;
    /// let directed_open = CountFlags { open: true, directed: true, ..CountFlags::default() };
    /// assert_eq!(g5.count_tours(directed_open, None)?, 1728);
    /// # Ok::<(), knight::Error>(())
    /// ```
    pub fn count_tours(&self, flags: CountFlags, run: Option<&Options<'_>>) -> Result<u128> {
        self.count_tours_stats(flags, run).map(|(n, _)| n)
    }

    /// As [`Graph::count_tours`], with the statistics of the run.
    pub fn count_tours_stats(&self, flags: CountFlags, run: Option<&Options<'_>>)
        -> Result<(u128, CountStats)> {
        self.count_tours_by(flags, CountMethod::Auto, run)
    }

    /// As [`Graph::count_tours_stats`], by the given [`CountMethod`] (since
    /// 1.1): `Frontier` for a check of one method against another.
    ///
    /// ```
    /// use knight::{CountFlags, CountMethod, Graph};
    /// let g = Graph::new(8, 5)?;
    /// let open = CountFlags { open: true, ..CountFlags::default() };
    /// let (n, stats) = g.count_tours_by(open, CountMethod::Frontier, None)?;
    /// assert_eq!(n, 18_061_054);
    /// assert!(stats.peak_states > 0);
    /// # Ok::<(), knight::Error>(())
    /// ```
    pub fn count_tours_by(&self, flags: CountFlags, method: CountMethod, run: Option<&Options<'_>>)
        -> Result<(u128, CountStats)> {
        let bits = flags.bits() | match method {
            CountMethod::Auto => 0,
            CountMethod::Frontier => ffi::KT_COUNT_FRONTIER,
        };
        let mut v = ffi::kt_u128::default();
        let mut st = ffi::kt_count_stats::default();
        check(with_run(run, |r| unsafe {
            ffi::kt_count_tours(self.raw, bits, r, &mut v, &mut st)
        }))?;
        Ok((u128_of(v), CountStats {
            peak_states: st.peak_states,
            peak_bytes: st.peak_bytes,
            frontier: st.frontier,
        }))
    }

    /// Count the open tours with a given start cell, end cell, or both
    /// (`kt_count_open_tours`): the directed tours from `start` (to `end`);
    /// with neither given, every open tour (doubled if `directed`).
    ///
    /// ```
    /// use knight::Graph;
    /// let g5 = Graph::new(5, 5)?;
    /// assert_eq!(g5.count_open_tours(Some(0), None, false, None)?, 304);
    /// # Ok::<(), knight::Error>(())
    /// ```
    pub fn count_open_tours(&self, start: Option<Cell>, end: Option<Cell>, directed: bool,
                            run: Option<&Options<'_>>) -> Result<u128> {
        let flags = CountFlags { open: true, directed, ..CountFlags::default() };
        let mut v = ffi::kt_u128::default();
        check(with_run(run, |r| unsafe {
            ffi::kt_count_open_tours(self.raw, start.unwrap_or(CELL_NONE), end.unwrap_or(CELL_NONE),
                                     flags.bits(), r, &mut v, std::ptr::null_mut())
        }))?;
        Ok(u128_of(v))
    }

    /// The table of directed open tours by start cell
    /// (`kt_count_open_by_start`): entry `y * width + x` is the number of
    /// directed open tours that begin on (x, y), 0 on holes; the entries sum
    /// to the directed open count.
    ///
    /// ```
    /// use knight::Graph;
    /// let t = Graph::new(5, 5)?.count_open_by_start(None)?;
    /// assert_eq!((t[0], t[12], t.iter().sum::<u128>()), (304, 64, 1728));
    /// # Ok::<(), knight::Error>(())
    /// ```
    pub fn count_open_by_start(&self, run: Option<&Options<'_>>) -> Result<Vec<u128>> {
        let n = self.width() as usize * self.height() as usize;
        let flags = CountFlags { open: true, directed: true, ..CountFlags::default() };
        let mut v = vec![ffi::kt_u128::default(); n];
        check(with_run(run, |r| unsafe {
            ffi::kt_count_open_by_start(self.raw, flags.bits(), r, v.as_mut_ptr(), n)
        }))?;
        Ok(v.into_iter().map(u128_of).collect())
    }

    // --- generation

    /// A seeded closed tour in linear time (`kt_generate_closed_tour`).
    pub fn closed_tour(&self, seed: u64, run: Option<&Options<'_>>) -> Result<Tourney> {
        new_tourney(|out| with_run(run, |r| unsafe {
            ffi::kt_generate_closed_tour(out, self.raw, seed, r)
        }))
    }

    /// A closed tour by Parberry's divide-and-conquer (`kt_generate_divide_tour`).
    pub fn divide_tour(&self, seed: u64, run: Option<&Options<'_>>) -> Result<Tourney> {
        new_tourney(|out| with_run(run, |r| unsafe {
            ffi::kt_generate_divide_tour(out, self.raw, seed, r)
        }))
    }

    /// An open tour, optionally from `start` and/or to `end` (`kt_generate_open_tour`).
    pub fn open_tour(&self, start: Option<Cell>, end: Option<Cell>, seed: u64,
                     run: Option<&Options<'_>>) -> Result<Tourney> {
        new_tourney(|out| with_run(run, |r| unsafe {
            ffi::kt_generate_open_tour(out, self.raw, start.unwrap_or(CELL_NONE),
                                       end.unwrap_or(CELL_NONE), seed, r)
        }))
    }

    /// A tour by Warnsdorff's rule (`kt_generate_warnsdorff_tour`); budget:
    /// walks (0: 1 for [`TieBreak::First`], 64 otherwise).
    pub fn warnsdorff_tour(&self, shape: Shape, start: Option<Cell>, tie: TieBreak, seed: u64,
                           run: Option<&Options<'_>>) -> Result<Tourney> {
        new_tourney(|out| with_run(run, |r| unsafe {
            ffi::kt_generate_warnsdorff_tour(out, self.raw, shape.raw(),
                                             start.unwrap_or(CELL_NONE), tie as c_int, seed, r)
        }))
    }

    /// A tourney (cycle cover) by `method` (`kt_generate_tourney`).
    pub fn tourney(&self, method: GenMethod, seed: u64, run: Option<&Options<'_>>)
        -> Result<Tourney> {
        new_tourney(|out| with_run(run, |r| unsafe {
            ffi::kt_generate_tourney(out, self.raw, method as c_int, seed, r)
        }))
    }
}

/// Whether a full `width` x `height` board has a closed knight's tour (Schwenk 1991).
pub fn board_has_closed_tour(width: u32, height: u32) -> bool {
    unsafe { ffi::kt_graph_board_has_closed_tour(width, height) != 0 }
}

/// Whether a full `width` x `height` board has an open knight's tour (Conrad et al. 1994).
pub fn board_has_open_tour(width: u32, height: u32) -> bool {
    unsafe { ffi::kt_graph_board_has_open_tour(width, height) != 0 }
}

impl PartialEq for Graph {
    fn eq(&self, other: &Graph) -> bool { unsafe { ffi::kt_graph_equal(self.raw, other.raw) != 0 } }
}

impl fmt::Debug for Graph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Graph")
            .field("width", &self.width())
            .field("height", &self.height())
            .field("leaper", &self.leaper())
            .field("holes", &self.has_holes())
            .finish()
    }
}

impl Drop for Graph {
    fn drop(&mut self) { unsafe { ffi::kt_graph_free(self.raw) } }
}

/// What [`Graph::count_tours`] counts (the `KT_COUNT_*` flags).  The
/// default counts undirected closed tours.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CountFlags {
    /// Open tours (Hamiltonian paths) instead of closed ones.
    pub open: bool,
    /// Directed tours (each undirected tour twice).
    pub directed: bool,
    /// Only the closed tours invariant under the 180-degree rotation.
    pub symmetric: bool,
    /// Classes under the symmetries of the board instead of tours.
    pub classes: bool,
}

impl CountFlags {
    /// The `KT_COUNT_*` bits.
    pub fn bits(self) -> u32 {
        (if self.open { ffi::KT_COUNT_OPEN } else { 0 })
            | (if self.directed { ffi::KT_COUNT_DIRECTED } else { 0 })
            | (if self.symmetric { ffi::KT_COUNT_SYMMETRIC } else { 0 })
            | (if self.classes { ffi::KT_COUNT_CLASSES } else { 0 })
    }
}

/// How [`Graph::count_tours_by`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CountMethod {
    /// The library's choice: the frontier, a depth-first search on small
    /// boards, or McKay's half-tours where they are faster.
    Auto,
    /// The frontier method only (`KT_COUNT_FRONTIER`).
    Frontier,
}

/// Statistics of a count (`kt_count_stats`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CountStats {
    /// Most frontier states held in one layer.
    pub peak_states: u64,
    /// Most bytes held by the state layers at once.
    pub peak_bytes: u64,
    /// Largest frontier (cells).
    pub frontier: u32,
}

/// Text formats (`kt_io_format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Reading only: guess from the content.
    Auto = 0,
    /// Visit numbers, a board row per line (tours only).
    Numbers = 1,
    /// Parberry's move digits (any tourney).
    Moves = 2,
    /// An SVG picture.
    Svg = 3,
}

/// Writer settings: the first cell of the numbering and the `KT_IO_WRITE_*` flags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// The cell numbered 1 (`None`: the canonical start).
    pub start: Option<Cell>,
    /// SVG: draw the visit numbers (tours only).
    pub svg_numbers: bool,
    /// SVG: omit the chequered board.
    pub svg_no_board: bool,
    /// Numbers: walk the tour in the other direction.
    pub reverse: bool,
}

impl WriteOptions {
    fn flags(&self) -> c_uint {
        (if self.svg_numbers { ffi::KT_IO_WRITE_SVG_NUMBERS } else { 0 })
            | (if self.svg_no_board { ffi::KT_IO_WRITE_SVG_NO_BOARD } else { 0 })
            | (if self.reverse { ffi::KT_IO_WRITE_REVERSE } else { 0 })
    }
}

/// How Warnsdorff's rule breaks ties (`kt_generate_tiebreak`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// The lowest move number (deterministic; fails on large boards).
    First = 0,
    /// Uniformly at random.
    Random = 1,
    /// Pohl 1967.
    Pohl = 2,
    /// Roth, then Pohl.
    Roth = 3,
    /// W+ of Squirrel and Cull 1996 (fixed move orderings; deterministic).
    WPlus = 4,
    /// W2: the rule applied twice, then random.
    W2 = 5,
}

impl TieBreak {
    /// Every rule.
    pub const ALL: [TieBreak; 6] =
        [TieBreak::First, TieBreak::Random, TieBreak::Pohl, TieBreak::Roth, TieBreak::WPlus, TieBreak::W2];
    /// The library's name ("first", "random", "pohl", "roth", "wplus", "w2").
    pub fn name(self) -> &'static str { cstr(unsafe { ffi::kt_generate_tiebreak_name(self as c_int) }) }
}

/// The tourney generators of [`Graph::tourney`] (`kt_generate_method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GenMethod {
    /// Random block tiling, blocks not merged.
    Blocks = 0,
    /// Parberry's tourney variant of random Warnsdorff.
    Warnsdorff = 1,
    /// The Takefuji-Lee neural network.
    Neural = 2,
    /// Divide-and-conquer after Parberry 1997, blocks not joined.
    Divide = 3,
    /// Concentric braided tourney (n x n, n even >= 4).
    Braid = 4,
    /// Four-cover tourney (both sides multiples of 4).
    FourCover = 5,
}

impl GenMethod {
    /// Every method.
    pub const ALL: [GenMethod; 6] = [GenMethod::Blocks, GenMethod::Warnsdorff, GenMethod::Neural,
                                     GenMethod::Divide, GenMethod::Braid, GenMethod::FourCover];
    /// The library's name ("blocks", ..., "four-cover").
    pub fn name(self) -> &'static str { cstr(unsafe { ffi::kt_generate_method_name(self as c_int) }) }
}

impl FromStr for GenMethod {
    type Err = Error;
    /// Look a method up by its library name (`kt_generate_method_parse`).
    fn from_str(s: &str) -> Result<GenMethod> {
        let c = CString::new(s).map_err(|_| Error::new(ErrorKind::InvalidArgument))?;
        let mut m: c_int = -1;
        check(unsafe { ffi::kt_generate_method_parse(c.as_ptr(), &mut m) })?;
        GenMethod::ALL.iter().copied().find(|x| *x as c_int == m)
            .ok_or_else(|| Error::new(ErrorKind::Unsupported))
    }
}

// ----------------------------------------------------------------- tourney

/// A cycle cover (tourney), closed tour or open tour (`kt_tourney`).
///
/// The C library documents a tourney as "used by one thread at a time":
/// `Send`, not `Sync`.  It keeps its own reference to its graph.
///
/// `Display` writes the visit numbers of a tour (the moves format for a
/// tourney of several cycles); `Clone` is a deep copy (`kt_tourney_copy`);
/// `==` compares the edge sets (`kt_tourney_equal`).
///
/// ```
/// use knight::{Graph, Format, Tourney};
/// let g = Graph::new(6, 6)?;
/// let t = g.closed_tour(1, None)?;
/// let order: Vec<u32> = t.cells().collect();         // visit order
/// assert_eq!(order.len(), 36);
/// assert!(t.moves().all(|m| g.move_between(m.from, m.to) == Some(m.mv)));
/// let back = Tourney::parse(&t.to_string(), Format::Numbers)?;
/// assert_eq!(back, t);
/// assert_eq!(t.clone(), t);
/// # Ok::<(), knight::Error>(())
/// ```
pub struct Tourney {
    raw: *mut ffi::kt_tourney,
}

unsafe impl Send for Tourney {}

fn new_tourney(f: impl FnOnce(*mut *mut ffi::kt_tourney) -> c_int) -> Result<Tourney> {
    let mut raw = ptr::null_mut();
    check(f(&mut raw))?;
    Ok(Tourney { raw })
}

fn new_tourney_diag(f: impl FnOnce(*mut *mut ffi::kt_tourney, *mut ffi::kt_diag) -> c_int)
    -> Result<Tourney> {
    let mut raw = ptr::null_mut();
    let mut d = ffi::kt_diag::default();
    let st = f(&mut raw, &mut d);
    check_diag(st, &d)?;
    Ok(Tourney { raw })
}

/// One step of a tour or tourney: `mv` takes a leaper from `from` to `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The cell left.
    pub from: Cell,
    /// The cell entered.
    pub to: Cell,
    /// The move number 0-7 (see the C graph.h table).
    pub mv: u8,
}

/// The cells of a tourney in visit order (see [`Tourney::cells`]).
pub struct Cells {
    inner: std::vec::IntoIter<Cell>,
}

impl Iterator for Cells {
    type Item = Cell;
    fn next(&mut self) -> Option<Cell> { self.inner.next() }
    fn size_hint(&self) -> (usize, Option<usize>) { self.inner.size_hint() }
}
impl ExactSizeIterator for Cells {}

/// The moves of a tourney in visit order (see [`Tourney::moves`]).
pub struct Moves {
    inner: std::vec::IntoIter<Move>,
}

impl Iterator for Moves {
    type Item = Move;
    fn next(&mut self) -> Option<Move> { self.inner.next() }
    fn size_hint(&self) -> (usize, Option<usize>) { self.inner.size_hint() }
}
impl ExactSizeIterator for Moves {}

impl Tourney {
    /// A tour from a visit order (every vertex once); `Shape::Cycles` for a
    /// closed tour.  A rejection names the rule and cell.
    pub fn from_order(g: &Graph, order: &[Cell], shape: Shape) -> Result<Tourney> {
        new_tourney_diag(|out, d| unsafe {
            ffi::kt_tourney_from_order(out, g.raw, order.as_ptr(), order.len(), shape.raw(), d)
        })
    }

    /// A tourney or open tour from a successor array (one entry per cell,
    /// `CELL_NONE` at holes and at the end of an open tour).
    pub fn from_successors(g: &Graph, succ: &[Cell]) -> Result<Tourney> {
        new_tourney_diag(|out, d| unsafe {
            ffi::kt_tourney_from_successors(out, g.raw, succ.as_ptr(), succ.len(), d)
        })
    }

    /// From per-cell move pairs (two nibbles per cell, Parberry 2020).
    pub fn from_move_pairs(g: &Graph, moves: &[u8]) -> Result<Tourney> {
        new_tourney_diag(|out, d| unsafe {
            ffi::kt_tourney_from_move_pairs(out, g.raw, moves.as_ptr(), moves.len(), d)
        })
    }

    /// Read a tour or tourney; the board is read from the text.  Errors
    /// carry the line and column, and for a rejected tour the rule and cell.
    pub fn parse(text: &str, format: Format) -> Result<Tourney> {
        Tourney::parse_with(None, text, format, false)
    }

    /// Read on a given board (`graph`: the text must match it; any leaper),
    /// and with `open` a numbers text is an open tour even if N and 1 are a
    /// move apart (`KT_IO_READ_OPEN`).
    pub fn parse_with(graph: Option<&Graph>, text: &str, format: Format, open: bool)
        -> Result<Tourney> {
        let g = graph.map(|g| g.raw as *const _).unwrap_or(ptr::null());
        let flags = if open { ffi::KT_IO_READ_OPEN } else { 0 };
        new_tourney_diag(|out, d| unsafe {
            ffi::kt_io_parse(out, g, text.as_ptr() as *const c_char, text.len(),
                             format as c_int, flags, ptr::null(), d)
        })
    }

    /// The raw pointer, for calls into [`sys`]; owned by `self`.
    pub fn as_ptr(&self) -> *const ffi::kt_tourney { self.raw }

    /// The board.
    pub fn graph(&self) -> GraphRef<'_> {
        let g = unsafe { ffi::kt_tourney_graph(self.raw) } as *mut ffi::kt_graph;
        GraphRef { graph: ManuallyDrop::new(Graph { raw: g }), _tourney: PhantomData }
    }
    /// Cycle cover or open tour.
    pub fn shape(&self) -> Shape {
        if unsafe { ffi::kt_tourney_shape(self.raw) } == ffi::KT_SHAPE_PATH { Shape::Path } else { Shape::Cycles }
    }
    /// Number of cycles (1 for an open tour).
    pub fn size(&self) -> usize { unsafe { ffi::kt_tourney_size(self.raw) } }
    /// A closed tour (one cycle).
    pub fn is_closed_tour(&self) -> bool { unsafe { ffi::kt_tourney_is_closed_tour(self.raw) != 0 } }
    /// An open tour.
    pub fn is_open_tour(&self) -> bool { unsafe { ffi::kt_tourney_is_open_tour(self.raw) != 0 } }
    /// The (at most two) neighbours of `cell` along the cover.
    pub fn neighbors(&self, cell: Cell) -> Result<(Option<Cell>, Option<Cell>)> {
        let (mut a, mut b) = (CELL_NONE, CELL_NONE);
        check(unsafe { ffi::kt_tourney_neighbors(self.raw, cell, &mut a, &mut b) })?;
        Ok((opt_cell(a), opt_cell(b)))
    }
    /// Whether `u` and `v` are consecutive along the cover.
    pub fn has_edge(&self, u: Cell, v: Cell) -> bool { unsafe { ffi::kt_tourney_has_edge(self.raw, u, v) != 0 } }

    /// The cells of the cycle or path through `start` (an end, for an open
    /// tour), towards its first (`direction` 0) or second (1) neighbour.
    pub fn order(&self, start: Cell, direction: u32) -> Result<Vec<Cell>> {
        let n = self.graph().cell_count();
        let mut out = vec![0; n];
        let mut len = 0;
        check(unsafe {
            ffi::kt_tourney_order(self.raw, start, direction as c_int, out.as_mut_ptr(), n, &mut len)
        })?;
        out.truncate(len);
        Ok(out)
    }

    /// The two ends of an open tour (the smaller first).
    pub fn ends(&self) -> Result<(Cell, Cell)> {
        let (mut a, mut b) = (CELL_NONE, CELL_NONE);
        check(unsafe { ffi::kt_tourney_ends(self.raw, &mut a, &mut b) })?;
        Ok((a, b))
    }

    /// The successor of every cell in the canonical orientation (`None` at
    /// holes and at the last cell of an open tour).
    pub fn successors(&self) -> Vec<Option<Cell>> {
        self.successors_raw().into_iter().map(opt_cell).collect()
    }

    fn successors_raw(&self) -> Vec<Cell> {
        let mut s = vec![CELL_NONE; self.graph().cell_count()];
        // Cannot fail: the array has the right length.
        unsafe { ffi::kt_tourney_successors(self.raw, s.as_mut_ptr(), s.len()) };
        s
    }

    /// Per-cell move pairs (as accepted by [`Tourney::from_move_pairs`]).
    pub fn move_pairs(&self) -> Vec<u8> {
        let mut m = vec![0u8; self.graph().cell_count()];
        unsafe { ffi::kt_tourney_move_pairs(self.raw, m.as_mut_ptr(), m.len()) };
        m
    }

    /// The index of every cell's cycle (numbered by smallest cell; `u32::MAX` at holes).
    pub fn cycle_labels(&self) -> Vec<u32> {
        let mut l = vec![0u32; self.graph().cell_count()];
        unsafe { ffi::kt_tourney_cycle_labels(self.raw, l.as_mut_ptr(), l.len()) };
        l
    }

    /// How often each move 0-7 is used (canonical orientation).
    pub fn move_counts(&self) -> [u64; 8] {
        let mut c = [0u64; 8];
        unsafe { ffi::kt_tourney_move_counts(self.raw, c.as_mut_ptr()) };
        c
    }

    /// How often each relative move (next - previous) mod 8 occurs.
    pub fn relative_move_counts(&self) -> [u64; 8] {
        let mut c = [0u64; 8];
        unsafe { ffi::kt_tourney_relative_move_counts(self.raw, c.as_mut_ptr()) };
        c
    }

    /// The move distribution (frequencies summing to 1).
    pub fn move_distribution(&self) -> [f64; 8] {
        let mut f = [0f64; 8];
        unsafe { ffi::kt_stats_move_distribution(self.raw, f.as_mut_ptr()) };
        f
    }

    /// The relative move distribution.
    pub fn relative_move_distribution(&self) -> [f64; 8] {
        let mut f = [0f64; 8];
        unsafe { ffi::kt_stats_relative_move_distribution(self.raw, f.as_mut_ptr()) };
        f
    }

    fn visit_order(&self) -> Vec<Cell> {
        let succ = self.successors_raw();
        let mut out = Vec::with_capacity(succ.len());
        if self.shape() == Shape::Path {
            let mut c = self.ends().map(|(a, _)| a).unwrap_or(CELL_NONE);
            while c != CELL_NONE && out.len() < succ.len() {
                out.push(c);
                c = succ[c as usize];
            }
            return out;
        }
        let g = self.graph();
        let mut seen = vec![false; succ.len()];
        for first in 0..succ.len() as Cell {
            if seen[first as usize] || !g.is_cell(first) {
                continue;
            }
            let mut c = first;
            loop {
                seen[c as usize] = true;
                out.push(c);
                c = succ[c as usize];
                if c == CELL_NONE || seen[c as usize] {
                    break;
                }
            }
        }
        out
    }

    /// The cells in visit order: each cycle in order of its smallest cell,
    /// from that cell in the canonical orientation; an open tour from its
    /// smaller end.
    pub fn cells(&self) -> Cells { Cells { inner: self.visit_order().into_iter() } }

    /// The moves in visit order, cycle by cycle (a cycle's closing move
    /// included; an open tour of N cells has N - 1).
    pub fn moves(&self) -> Moves {
        let succ = self.successors_raw();
        let g = self.graph();
        let moves: Vec<Move> = self.visit_order().into_iter()
            .filter_map(|c| {
                let to = succ[c as usize];
                if to == CELL_NONE { return None; }
                g.move_between(c, to).map(|mv| Move { from: c, to, mv })
            })
            .collect();
        Moves { inner: moves.into_iter() }
    }

    /// The text in `format` (`kt_io_write_buffer`).
    pub fn to_text(&self, format: Format) -> Result<String> {
        self.to_text_with(format, &WriteOptions::default())
    }

    /// The text in `format` with writer settings.
    pub fn to_text_with(&self, format: Format, opts: &WriteOptions) -> Result<String> {
        let start = opts.start.unwrap_or(CELL_NONE);
        let mut need = 0usize;
        let st = unsafe {
            ffi::kt_io_write_buffer(self.raw, format as c_int, opts.flags(), start,
                                    ptr::null_mut(), 0, &mut need)
        };
        if st != ffi::KT_ERANGE {
            check(st)?;
        }
        let mut buf = vec![0u8; need + 1];
        check(unsafe {
            ffi::kt_io_write_buffer(self.raw, format as c_int, opts.flags(), start,
                                    buf.as_mut_ptr() as *mut c_char, buf.len(), &mut need)
        })?;
        buf.truncate(need);
        String::from_utf8(buf).map_err(|_| Error::new(ErrorKind::Io))
    }

    /// Write in `format` to any [`std::io::Write`] (`kt_io_write` with a
    /// callback); an I/O error of the writer is returned as such.
    pub fn write_to<W: std::io::Write>(&self, format: Format, opts: &WriteOptions, w: &mut W)
        -> std::io::Result<()> {
        struct Sink<'w> {
            w: &'w mut dyn std::io::Write,
            err: Option<std::io::Error>,
            panic: Option<Box<dyn std::any::Any + Send>>,
        }
        unsafe extern "C" fn sink(user: *mut c_void, data: *const c_char, len: usize) -> c_int {
            let s = &mut *(user as *mut Sink<'_>);
            let bytes = std::slice::from_raw_parts(data as *const u8, len);
            match panic::catch_unwind(AssertUnwindSafe(|| s.w.write_all(bytes))) {
                Ok(Ok(())) => 0,
                Ok(Err(e)) => { s.err = Some(e); 1 }
                Err(p) => { s.panic = Some(p); 1 }
            }
        }
        let mut s = Sink { w, err: None, panic: None };
        let st = unsafe {
            ffi::kt_io_write(self.raw, format as c_int, opts.flags(), opts.start.unwrap_or(CELL_NONE),
                             Some(sink), &mut s as *mut Sink<'_> as *mut c_void)
        };
        if let Some(p) = s.panic.take() {
            panic::resume_unwind(p);
        }
        if let Some(e) = s.err.take() {
            return Err(e);
        }
        check(st).map_err(|e| std::io::Error::new(std::io::ErrorKind::Other, e))
    }

    // --- rails

    /// Join the cycles into one closed tour (`kt_rails_join`); unchanged on error.
    pub fn join(&mut self, seed: u64, run: Option<&Options<'_>>) -> Result<()> {
        check(with_run(run, |r| unsafe { ffi::kt_rails_join(self.raw, seed, r) }))
    }
    /// Switch a random set of disjoint rails (`kt_rails_shatter`).
    pub fn shatter(&mut self, seed: u64) -> Result<()> {
        check(unsafe { ffi::kt_rails_shatter(self.raw, seed) })
    }
    /// Shatter as Parberry's code does (`kt_rails_shatter_sequential`).
    pub fn shatter_sequential(&mut self, seed: u64) -> Result<()> {
        check(unsafe { ffi::kt_rails_shatter_sequential(self.raw, seed) })
    }
    /// Shatter `rounds` times (0: 16), then join (`kt_rails_obfuscate`).
    pub fn obfuscate(&mut self, rounds: u32, seed: u64, run: Option<&Options<'_>>) -> Result<()> {
        check(with_run(run, |r| unsafe { ffi::kt_rails_obfuscate(self.raw, rounds, seed, r) }))
    }
    /// Number of rails (`kt_rails_count_tourney`).
    pub fn count_rails(&self) -> Result<u64> {
        let mut n = 0;
        check(unsafe { ffi::kt_rails_count_tourney(self.raw, &mut n) })?;
        Ok(n)
    }
    /// Whether `rail` is a rail of this tourney now.
    pub fn is_rail(&self, rail: Rail) -> bool { unsafe { ffi::kt_rails_is_rail(self.raw, rail.raw()) != 0 } }

    /// A rails handle (`kt_rails_new`): the rails and cycles of this cycle
    /// cover.  It borrows the tourney mutably: while it lives the tourney
    /// changes only through [`Rails::switch`].
    pub fn rails(&mut self) -> Result<Rails<'_>> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::kt_rails_new(&mut raw, self.raw) })?;
        Ok(Rails { raw, tourney: self.raw, _t: PhantomData })
    }
}

impl Clone for Tourney {
    fn clone(&self) -> Tourney {
        let mut raw = ptr::null_mut();
        let st = unsafe { ffi::kt_tourney_copy(&mut raw, self.raw) };
        if st == ffi::KT_ENOMEM {
            std::alloc::handle_alloc_error(std::alloc::Layout::new::<u8>());
        }
        assert_eq!(st, ffi::KT_OK, "kt_tourney_copy: {}", ErrorKind::from_status(st).name());
        Tourney { raw }
    }
}

impl PartialEq for Tourney {
    fn eq(&self, other: &Tourney) -> bool { unsafe { ffi::kt_tourney_equal(self.raw, other.raw) != 0 } }
}
impl Eq for Tourney {}

impl fmt::Display for Tourney {
    /// The visit numbers of a tour; the move digits of a tourney of several cycles.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let format = if self.size() == 1 { Format::Numbers } else { Format::Moves };
        let text = self.to_text(format).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl fmt::Debug for Tourney {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.graph();
        f.debug_struct("Tourney")
            .field("width", &g.width())
            .field("height", &g.height())
            .field("shape", &self.shape())
            .field("size", &self.size())
            .field("moves", &self.to_text(Format::Moves).unwrap_or_default())
            .finish()
    }
}

impl Drop for Tourney {
    fn drop(&mut self) { unsafe { ffi::kt_tourney_free(self.raw) } }
}

// ------------------------------------------------------------------- rails

/// A rail in canonical form (`kt_rail`): top vertex u, primary move a and
/// cross move b, both 4-7 and different.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rail {
    /// The topmost vertex u.
    pub top: Cell,
    /// The primary move a (u to v, x to w).
    pub primary: u8,
    /// The cross move b (u to x, v to w).
    pub cross: u8,
}

impl Rail {
    fn raw(self) -> ffi::kt_rail { ffi::kt_rail { top: self.top, primary: self.primary, cross: self.cross } }
    fn from_raw(r: ffi::kt_rail) -> Rail { Rail { top: r.top, primary: r.primary, cross: r.cross } }
}

/// What switching a rail did (`kt_rails_effect`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Two cycles became one.
    Merge,
    /// One cycle became two.
    Split,
    /// One cycle stayed one, rewired.
    Keep,
}

/// The rails of a tourney (`kt_rails`), borrowing it mutably.
///
/// `Send`, not `Sync`: the C documentation says a tourney and its handle
/// are used by one thread at a time.
///
/// ```
/// use knight::{Effect, Graph, GenMethod};
/// let g = Graph::new(8, 8)?;
/// let mut t = g.tourney(GenMethod::FourCover, 0, None)?;  // 16 cycles
/// let mut rails = t.rails()?;
/// let rail = rails.iter().find(|r| rails.joins(*r).map(|j| j.0).unwrap_or(false)).unwrap();
/// assert_eq!(rails.switch(rail)?, Effect::Merge);
/// drop(rails);
/// assert_eq!(t.size(), 15);
/// # Ok::<(), knight::Error>(())
/// ```
pub struct Rails<'t> {
    raw: *mut ffi::kt_rails,
    tourney: *mut ffi::kt_tourney,
    _t: PhantomData<&'t mut Tourney>,
}

unsafe impl Send for Rails<'_> {}

impl<'t> Rails<'t> {
    /// Find the rails and cycles again.
    pub fn refresh(&mut self) -> Result<()> { check(unsafe { ffi::kt_rails_refresh(self.raw) }) }
    /// Rails in the snapshot.
    pub fn len(&self) -> usize { unsafe { ffi::kt_rails_count(self.raw) } }
    /// Whether the snapshot has no rail.
    pub fn is_empty(&self) -> bool { self.len() == 0 }
    /// Rail `index` of the snapshot.
    pub fn get(&self, index: usize) -> Option<Rail> {
        let mut r = ffi::kt_rail::default();
        if unsafe { ffi::kt_rails_get(self.raw, index, &mut r) } == ffi::KT_OK { Some(Rail::from_raw(r)) } else { None }
    }
    /// The snapshot's rails (a collected list: switching does not change it).
    pub fn iter(&self) -> std::vec::IntoIter<Rail> {
        (0..self.len()).filter_map(|i| self.get(i)).collect::<Vec<_>>().into_iter()
    }
    /// Snapshot rails by primary and cross move: `[a-4][b-4]`.
    pub fn counts(&self) -> [[u64; 4]; 4] {
        let mut c = [[0u64; 4]; 4];
        unsafe { ffi::kt_rails_counts(self.raw, c.as_mut_ptr()) };
        c
    }
    /// The cycle id of `cell`.
    pub fn cycle(&mut self, cell: Cell) -> Result<u32> {
        let mut c = 0;
        check(unsafe { ffi::kt_rails_cycle(self.raw, cell, &mut c) })?;
        Ok(c)
    }
    /// Whether switching `rail` merges two cycles, and the cycles of its two
    /// primary edges.
    pub fn joins(&mut self, rail: Rail) -> Result<(bool, u32, u32)> {
        let (mut j, mut c1, mut c2) = (0, 0, 0);
        check(unsafe { ffi::kt_rails_joins(self.raw, rail.raw(), &mut j, &mut c1, &mut c2) })?;
        Ok((j != 0, c1, c2))
    }
    /// The rail graph: (edges, connected components).
    pub fn graph_summary(&mut self) -> Result<(usize, usize)> {
        let (mut e, mut c) = (0, 0);
        check(unsafe { ffi::kt_rails_graph(self.raw, &mut e, &mut c) })?;
        Ok((e, c))
    }
    /// Switch `rail` (a rail of the tourney now).
    pub fn switch(&mut self, rail: Rail) -> Result<Effect> {
        let mut e = 0;
        check(unsafe { ffi::kt_rails_switch(self.raw, rail.raw(), &mut e) })?;
        Ok(match e { ffi::KT_RAILS_MERGE => Effect::Merge, ffi::KT_RAILS_SPLIT => Effect::Split, _ => Effect::Keep })
    }
    /// The number of cycles of the tourney now.
    pub fn tourney_size(&self) -> usize { unsafe { ffi::kt_tourney_size(self.tourney) } }
}

impl Drop for Rails<'_> {
    fn drop(&mut self) { unsafe { ffi::kt_rails_free(self.raw) } }
}

// ------------------------------------------------------------------- stats

/// Mean and standard deviation of move distributions over many tourneys
/// (`kt_stats`).  `Send`, not `Sync` (one thread at a time).
pub struct Stats {
    raw: *mut ffi::kt_stats,
}

unsafe impl Send for Stats {}

/// Means and sample standard deviations of eight frequencies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Distribution {
    /// The means.
    pub mean: [f64; 8],
    /// The standard deviations (0 with fewer than 2 samples).
    pub stddev: [f64; 8],
}

impl Stats {
    /// An empty accumulator.
    pub fn new() -> Result<Stats> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::kt_stats_new(&mut raw, ptr::null()) })?;
        Ok(Stats { raw })
    }
    /// Add one tourney.
    pub fn add(&mut self, t: &Tourney) -> Result<()> { check(unsafe { ffi::kt_stats_add(self.raw, t.raw) }) }
    /// Number of tourneys added.
    pub fn count(&self) -> u64 { unsafe { ffi::kt_stats_count(self.raw) } }
    /// The move distributions.
    pub fn moves(&self) -> Result<Distribution> {
        let mut d = Distribution { mean: [0.0; 8], stddev: [0.0; 8] };
        check(unsafe { ffi::kt_stats_moves(self.raw, d.mean.as_mut_ptr(), d.stddev.as_mut_ptr()) })?;
        Ok(d)
    }
    /// The relative move distributions.
    pub fn relative(&self) -> Result<Distribution> {
        let mut d = Distribution { mean: [0.0; 8], stddev: [0.0; 8] };
        check(unsafe { ffi::kt_stats_relative(self.raw, d.mean.as_mut_ptr(), d.stddev.as_mut_ptr()) })?;
        Ok(d)
    }
}

impl fmt::Debug for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stats").field("count", &self.count()).finish()
    }
}

impl Drop for Stats {
    fn drop(&mut self) { unsafe { ffi::kt_stats_free(self.raw) } }
}

// --------------------------------------------------------------- halftours

/// One path structure of a half-board and its number of half-tours
/// (`kt_halftour_structure`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HalfTourStructure {
    /// The canonical 64-bit key.
    pub key: u64,
    /// Half-tours with this structure.
    pub count: u64,
    /// Per boundary cell: the other end of its path, or 0xFF (interior).
    pub partner: [u8; 16],
    /// Per boundary cell: McKay's type value 0, 1 or 2.
    pub kind: [u8; 16],
}

impl HalfTourStructure {
    fn from_raw(s: &ffi::kt_halftour_structure) -> Self {
        HalfTourStructure { key: s.key, count: s.count, partner: s.partner, kind: s.type_ }
    }
}

/// McKay's summary figures of a half-tour set (`kt_halftour_stats`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HalfTourStats {
    /// Half-tours.
    pub halftours: u64,
    /// Distinct path structures.
    pub structures: u64,
    /// Fewest half-tours of one structure.
    pub min_count: u64,
    /// Most half-tours of one structure.
    pub max_count: u64,
    /// Distinct types (a, b).
    pub types: u64,
    /// Distinct values of a.
    pub a_values: u64,
    /// Distinct values of b.
    pub b_values: u64,
    /// Most structures sharing one type.
    pub max_per_type: u64,
}

/// The path structures of one half of a board (McKay 1997; `kt_halftours`).
///
/// Immutable once made and documented as safe to query and join from any
/// number of threads at once: `Send + Sync`.
///
/// ```
/// use knight::HalfTours;
/// let half = HalfTours::enumerate(6, 3, 3, None)?;
/// assert_eq!(half.len(), 1658);
/// assert_eq!(HalfTours::join(&half, &half, None)?, 9862);  // 6x6 closed tours
/// # Ok::<(), knight::Error>(())
/// ```
pub struct HalfTours {
    raw: *mut ffi::kt_halftours,
}

unsafe impl Send for HalfTours {}
unsafe impl Sync for HalfTours {}

impl HalfTours {
    /// Enumerate the half-tours of a half `width` columns wide and `depth`
    /// rows deep, across the cut from a half `other_depth` rows deep.
    pub fn enumerate(width: u32, depth: u32, other_depth: u32, run: Option<&Options<'_>>)
        -> Result<HalfTours> {
        let mut raw = ptr::null_mut();
        check(with_run(run, |r| unsafe {
            ffi::kt_halftours_enumerate(&mut raw, width, depth, other_depth, r)
        }))?;
        Ok(HalfTours { raw })
    }
    /// (width, depth, other depth).
    pub fn geometry(&self) -> (u32, u32, u32) {
        let (mut w, mut d, mut o) = (0, 0, 0);
        unsafe { ffi::kt_halftours_geometry(self.raw, &mut w, &mut d, &mut o) };
        (w, d, o)
    }
    /// Number of distinct path structures.
    pub fn len(&self) -> usize { unsafe { ffi::kt_halftours_count(self.raw) } }
    /// Whether there is none.
    pub fn is_empty(&self) -> bool { self.len() == 0 }
    /// McKay's summary figures.
    pub fn stats(&self) -> Result<HalfTourStats> {
        let mut s = ffi::kt_halftour_stats::default();
        check(unsafe { ffi::kt_halftours_stats(self.raw, &mut s) })?;
        Ok(HalfTourStats {
            halftours: s.halftours, structures: s.structures, min_count: s.min_count,
            max_count: s.max_count, types: s.types, a_values: s.a_values, b_values: s.b_values,
            max_per_type: s.max_per_type,
        })
    }
    /// Structure `index` (key order).
    pub fn get(&self, index: usize) -> Option<HalfTourStructure> {
        let mut s = ffi::kt_halftour_structure::default();
        if unsafe { ffi::kt_halftours_at(self.raw, index, &mut s) } == ffi::KT_OK {
            Some(HalfTourStructure::from_raw(&s))
        } else {
            None
        }
    }
    /// Every structure in key order.
    pub fn iter(&self) -> impl Iterator<Item = HalfTourStructure> + '_ {
        (0..self.len()).filter_map(move |i| self.get(i))
    }
    /// Call `f` for every structure (`kt_halftours_foreach`); `false` stops
    /// ([`ErrorKind::Canceled`]).
    pub fn for_each<F: FnMut(&HalfTourStructure) -> bool>(&self, f: F) -> Result<()> {
        struct Ctx<F> { f: F, panic: Option<Box<dyn std::any::Any + Send>> }
        unsafe extern "C" fn tramp<F: FnMut(&HalfTourStructure) -> bool>(
            user: *mut c_void, s: *const ffi::kt_halftour_structure) -> c_int {
            let ctx = &mut *(user as *mut Ctx<F>);
            let s = HalfTourStructure::from_raw(&*s);
            match panic::catch_unwind(AssertUnwindSafe(|| (ctx.f)(&s))) {
                Ok(true) => 0,
                Ok(false) => 1,
                Err(p) => { ctx.panic = Some(p); 1 }
            }
        }
        let mut ctx = Ctx { f, panic: None };
        let st = unsafe {
            ffi::kt_halftours_foreach(self.raw, Some(tramp::<F>), &mut ctx as *mut Ctx<F> as *mut c_void)
        };
        if let Some(p) = ctx.panic.take() {
            panic::resume_unwind(p);
        }
        check(st)
    }
    /// Look up a path structure: its index and count, `None` when no
    /// half-tour has it.
    pub fn find(&self, partner: &[u8]) -> Result<Option<(usize, u64)>> {
        let (w, _, _) = self.geometry();
        if partner.len() != 2 * w as usize {
            return Err(ErrorKind::InvalidArgument.into());
        }
        let (mut i, mut c) = (0usize, 0u64);
        let st = unsafe { ffi::kt_halftours_find(self.raw, partner.as_ptr(), &mut i, &mut c) };
        if st == ffi::KT_ENOTFOUND {
            return Ok(None);
        }
        check(st)?;
        Ok(Some((i, c)))
    }
    /// McKay's compatibility of the types (a of the lower half, b of the upper).
    pub fn types_compatible(width: u32, a_lower: &[u8], b_upper: &[u8]) -> Result<bool> {
        if a_lower.len() != width as usize || b_upper.len() != width as usize {
            return Err(ErrorKind::InvalidArgument.into());
        }
        let mut ok = 0;
        check(unsafe { ffi::kt_halftours_types_compatible(width, a_lower.as_ptr(), b_upper.as_ptr(), &mut ok) })?;
        Ok(ok != 0)
    }
    /// Count closed tours by joining `lower` and `upper` across the cut.
    pub fn join(lower: &HalfTours, upper: &HalfTours, run: Option<&Options<'_>>) -> Result<u128> {
        let mut v = ffi::kt_u128::default();
        check(with_run(run, |r| unsafe { ffi::kt_halftours_join(lower.raw, upper.raw, r, &mut v) }))?;
        Ok(u128_of(v))
    }
    /// Count the undirected closed tours of `width` x `height` by McKay's
    /// method, cutting below row `split` (`None`: height / 2).
    pub fn count_closed(width: u32, height: u32, split: Option<u32>, run: Option<&Options<'_>>)
        -> Result<u128> {
        let mut v = ffi::kt_u128::default();
        check(with_run(run, |r| unsafe {
            ffi::kt_halftours_count_closed(width, height, split.unwrap_or(height / 2), r, &mut v)
        }))?;
        Ok(u128_of(v))
    }
    /// Count the open tours of `width` x `height` by McKay's half-tours with
    /// tour ends, cutting below row `split` (`None`: height / 2): all
    /// undirected ones (twice with `directed`), or those from `start` (to
    /// `end`); cells are `y * width + x`.
    pub fn count_open(width: u32, height: u32, split: Option<u32>, start: Option<Cell>,
                      end: Option<Cell>, directed: bool, run: Option<&Options<'_>>) -> Result<u128> {
        let mut v = ffi::kt_u128::default();
        let flags = if directed { ffi::KT_HALFTOUR_DIRECTED } else { 0 };
        check(with_run(run, |r| unsafe {
            ffi::kt_halftours_count_open(width, height, split.unwrap_or(height / 2),
                                         start.unwrap_or(CELL_NONE), end.unwrap_or(CELL_NONE),
                                         flags, r, &mut v)
        }))?;
        Ok(u128_of(v))
    }
}

impl fmt::Debug for HalfTours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HalfTours").field("geometry", &self.geometry()).field("structures", &self.len()).finish()
    }
}

impl Drop for HalfTours {
    fn drop(&mut self) { unsafe { ffi::kt_halftours_free(self.raw) } }
}

// ------------------------------------------------------------------ sample

/// The sizes of a prepared [`Sampler`] (`kt_sample_stats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampleStats {
    /// States kept, over all layers.
    pub states: u64,
    /// Bytes of the kept tables.
    pub bytes: u64,
    /// Most reachable states of one layer during preparation.
    pub peak_states: u64,
    /// Most bytes of tables held at once during preparation.
    pub peak_bytes: u64,
}

/// Exactly uniform random tours of one board (`kt_sampler`): prepared once,
/// then each draw walks through the stored exact counts.  Tours are
/// undirected: closed tours, or open tours with any ends, a given start, a
/// given end, or both.  Immutable once made and documented as safe to use
/// from any number of threads at once: `Send + Sync`.
///
/// ```
/// use knight::{Graph, Sampler, Shape};
/// let g = Graph::new(6, 6)?;
/// let s = Sampler::new(&g, Shape::Cycles, None, None, None)?;
/// assert_eq!(s.total()?, 9862);
/// let t = s.draw(7, 0)?;
/// assert!(t.is_closed_tour());
/// assert_eq!(s.unrank(s.rank(&t)?)?, t);
/// # Ok::<(), knight::Error>(())
/// ```
pub struct Sampler {
    raw: *mut ffi::kt_sampler,
}

unsafe impl Send for Sampler {}
unsafe impl Sync for Sampler {}

impl Sampler {
    /// Prepare (`kt_sampler_new`); for open tours `start` and `end` may be
    /// fixed.  Run settings: progress, budget (states per layer), allocator.
    pub fn new(g: &Graph, shape: Shape, start: Option<Cell>, end: Option<Cell>,
               run: Option<&Options<'_>>) -> Result<Sampler> {
        let mut raw = ptr::null_mut();
        check(with_run(run, |r| unsafe {
            ffi::kt_sampler_new(&mut raw, g.raw, shape.raw(), start.unwrap_or(CELL_NONE),
                                end.unwrap_or(CELL_NONE), r)
        }))?;
        Ok(Sampler { raw })
    }
    /// The number of tours drawn from (`kt_sampler_total`).
    pub fn total(&self) -> Result<u128> {
        let mut v = ffi::kt_u128::default();
        check(unsafe { ffi::kt_sampler_total(self.raw, &mut v) })?;
        Ok(u128_of(v))
    }
    /// The sizes of the tables (`kt_sampler_stats`).
    pub fn stats(&self) -> Result<SampleStats> {
        let mut s = ffi::kt_sample_stats::default();
        check(unsafe { ffi::kt_sampler_stats(self.raw, &mut s) })?;
        Ok(SampleStats { states: s.states, bytes: s.bytes, peak_states: s.peak_states,
                         peak_bytes: s.peak_bytes })
    }
    /// Draw `index` of the stream of `seed`: a uniform tour, the same for
    /// the same pair (`kt_sampler_draw`).
    pub fn draw(&self, seed: u64, index: u64) -> Result<Tourney> {
        new_tourney(|out| unsafe { ffi::kt_sampler_draw(out, self.raw, seed, index) })
    }
    /// Draw `index` of the stream of `seed` among the open tours that end
    /// at `cell`: the sampler's draws in turn until one ends there, exactly
    /// uniform (`kt_sampler_draw_from`).  Run settings: budget (the most
    /// tries), progress.
    pub fn draw_from(&self, cell: Cell, seed: u64, index: u64, run: Option<&Options<'_>>)
        -> Result<Tourney> {
        new_tourney(|out| {
            with_run(run, |r| unsafe { ffi::kt_sampler_draw_from(out, self.raw, cell, seed, index, r) })
        })
    }
    /// The tour of a rank below [`Sampler::total`] (`kt_sampler_unrank`).
    pub fn unrank(&self, rank: u128) -> Result<Tourney> {
        let r = ffi::kt_u128 { lo: rank as u64, hi: (rank >> 64) as u64 };
        new_tourney(|out| unsafe { ffi::kt_sampler_unrank(out, self.raw, &r) })
    }
    /// The rank of a tour, the inverse of [`Sampler::unrank`] (`kt_sampler_rank`).
    pub fn rank(&self, t: &Tourney) -> Result<u128> {
        let mut v = ffi::kt_u128::default();
        check(unsafe { ffi::kt_sampler_rank(self.raw, t.raw, &mut v) })?;
        Ok(u128_of(v))
    }
}

impl Drop for Sampler {
    fn drop(&mut self) { unsafe { ffi::kt_sampler_free(self.raw) } }
}

// --------------------------------------------------------------- semimagic

/// The constraints of a semimagic search (`KT_SEMIMAGIC_*` flags).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SemimagicFlags {
    /// Every row and column sums to n(n^2+1)/2.
    pub lines: bool,
    /// Every quadrant semimagic too (n divisible by 4).
    pub nested: bool,
    /// Both long diagonals too.
    pub magic: bool,
    /// A closed tour.
    pub closed: bool,
}

impl SemimagicFlags {
    fn bits(self) -> c_uint {
        (if self.lines { ffi::KT_SEMIMAGIC_LINES } else { 0 })
            | (if self.nested { ffi::KT_SEMIMAGIC_NESTED } else { 0 })
            | (if self.magic { ffi::KT_SEMIMAGIC_MAGIC } else { 0 })
            | (if self.closed { ffi::KT_SEMIMAGIC_CLOSED } else { 0 })
    }
    fn from_bits(b: c_uint) -> Self {
        SemimagicFlags {
            lines: b & ffi::KT_SEMIMAGIC_LINES != 0,
            nested: b & ffi::KT_SEMIMAGIC_NESTED != 0,
            magic: b & ffi::KT_SEMIMAGIC_MAGIC != 0,
            closed: b & ffi::KT_SEMIMAGIC_CLOSED != 0,
        }
    }
}

/// How symmetric solutions are reported (`kt_semimagic_symmetry`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// One report per symmetry class (the default).
    Classes = 0,
    /// Per class its representative, then every other distinct image.
    Members = 1,
    /// Every numbering, no reduction.
    All = 2,
}

/// The constraints of a search for numbered tours of an n x n board
/// (`kt_semimagic_opts`).
///
/// Setters take `&mut self`; searches only read it, and the C library lets
/// concurrent searches share one handle that nobody changes: `Send + Sync`.
///
/// ```
/// use knight::{SemimagicFlags, SemimagicOptions, Symmetry};
/// // Plain numbered tours of 5x5 (no line sums): 1728 in 216 classes.
/// let mut o = SemimagicOptions::new(5)?;
/// o.set_flags(SemimagicFlags::default())?;
/// o.set_symmetry(Symmetry::All)?;
/// let found = o.search(None, |_| true)?;
/// assert_eq!((found.classes, found.solutions), (216, 1728));
/// # Ok::<(), knight::Error>(())
/// ```
pub struct SemimagicOptions {
    raw: *mut ffi::kt_semimagic_opts,
}

unsafe impl Send for SemimagicOptions {}
unsafe impl Sync for SemimagicOptions {}

/// A reported numbering, valid during the search callback.
pub struct Solution<'s> {
    raw: *const ffi::kt_semimagic_solution,
    _s: PhantomData<&'s ()>,
}

/// An owned copy of a reported numbering and its class data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolutionData {
    /// n^2 numbers indexed by cell.
    pub numbers: Vec<u32>,
    /// The board side.
    pub size: u32,
    /// The class index (order of first report).
    pub class: u64,
    /// Distinct numberings in the class (1, 2, 4 or 8).
    pub class_size: u32,
    /// Member number within the class (0: the representative).
    pub member: u32,
    /// Whether this numbering satisfies the constraints.
    pub satisfies: bool,
    /// Members of the class that satisfy them.
    pub class_satisfying: u32,
    /// The class of the reversed numbering, when known.
    pub reverse_class: Option<u64>,
    /// Whether the reversed class has a satisfying member.
    pub reverse_satisfies: bool,
}

impl<'s> Solution<'s> {
    /// width * height numbers indexed by cell.
    pub fn numbers(&self) -> &'s [u32] {
        let cells = self.width() as usize * self.height() as usize;
        let p = unsafe { ffi::kt_semimagic_solution_numbers(self.raw) };
        if p.is_null() { &[] } else { unsafe { std::slice::from_raw_parts(p, cells) } }
    }
    /// The board's width.
    pub fn width(&self) -> u32 { unsafe { ffi::kt_semimagic_solution_width(self.raw) } }
    /// The board's height.
    pub fn height(&self) -> u32 { unsafe { ffi::kt_semimagic_solution_height(self.raw) } }
    /// The board side.
    pub fn size(&self) -> u32 { unsafe { ffi::kt_semimagic_solution_size(self.raw) } }
    /// The class index.
    pub fn class(&self) -> u64 { unsafe { ffi::kt_semimagic_solution_class(self.raw) } }
    /// The class size.
    pub fn class_size(&self) -> u32 { unsafe { ffi::kt_semimagic_solution_class_size(self.raw) } }
    /// The member number.
    pub fn member(&self) -> u32 { unsafe { ffi::kt_semimagic_solution_member(self.raw) } }
    /// Whether this numbering satisfies the constraints.
    pub fn satisfies(&self) -> bool { unsafe { ffi::kt_semimagic_solution_satisfies(self.raw) != 0 } }
    /// Members of the class that satisfy the constraints.
    pub fn class_satisfying(&self) -> u32 { unsafe { ffi::kt_semimagic_solution_class_satisfying(self.raw) } }
    /// The class of the reversed numbering, when known.
    pub fn reverse_class(&self) -> Option<u64> {
        let c = unsafe { ffi::kt_semimagic_solution_reverse_class(self.raw) };
        if c == ffi::KT_SEMIMAGIC_NO_CLASS { None } else { Some(c) }
    }
    /// Whether the reversed class has a satisfying member.
    pub fn reverse_satisfies(&self) -> bool { unsafe { ffi::kt_semimagic_solution_reverse_satisfies(self.raw) != 0 } }
    /// An owned copy.
    pub fn to_data(&self) -> SolutionData {
        SolutionData {
            numbers: self.numbers().to_vec(),
            size: self.size(),
            class: self.class(),
            class_size: self.class_size(),
            member: self.member(),
            satisfies: self.satisfies(),
            class_satisfying: self.class_satisfying(),
            reverse_class: self.reverse_class(),
            reverse_satisfies: self.reverse_satisfies(),
        }
    }
}

/// What a search reported: symmetry classes and numberings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchSummary {
    /// Symmetry classes reported.
    pub classes: u64,
    /// Numberings in those classes (in `Symmetry::All` mode: reported).
    pub solutions: u64,
}

impl SemimagicOptions {
    /// Constraints for an n x n board (3..16): semimagic lines, any start
    /// and end, no given numbers, one report per class.
    pub fn new(n: u32) -> Result<SemimagicOptions> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::kt_semimagic_opts_new(&mut raw, n, ptr::null()) })?;
        Ok(SemimagicOptions { raw })
    }
    /// Options for a width x height rectangle (sides 1..16); by default every
    /// family of lines whose sum is an integer is constrained.
    pub fn new_rect(width: u32, height: u32) -> Result<SemimagicOptions> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::kt_semimagic_opts_new_rect(&mut raw, width, height, ptr::null()) })?;
        Ok(SemimagicOptions { raw })
    }
    /// The board side (0 for a rectangle that is not a square).
    pub fn size(&self) -> u32 { unsafe { ffi::kt_semimagic_opts_size(self.raw) } }
    /// The board's width.
    pub fn width(&self) -> u32 { unsafe { ffi::kt_semimagic_opts_width(self.raw) } }
    /// The board's height.
    pub fn height(&self) -> u32 { unsafe { ffi::kt_semimagic_opts_height(self.raw) } }
    /// The raw `KT_SEMIMAGIC_*` flags, including the rectangle families
    /// `KT_SEMIMAGIC_ROWS` and `KT_SEMIMAGIC_COLUMNS` that [`SemimagicFlags`]
    /// does not name.
    pub fn flag_bits(&self) -> u32 { unsafe { ffi::kt_semimagic_opts_flags(self.raw) } }
    /// Set the raw `KT_SEMIMAGIC_*` flags (see [`SemimagicOptions::flag_bits`]).
    pub fn set_flag_bits(&mut self, bits: u32) -> Result<()> {
        check(unsafe { ffi::kt_semimagic_opts_set_flags(self.raw, bits) })
    }
    /// The constraint flags.
    pub fn flags(&self) -> SemimagicFlags { SemimagicFlags::from_bits(unsafe { ffi::kt_semimagic_opts_flags(self.raw) }) }
    /// Set the constraint flags.
    pub fn set_flags(&mut self, flags: SemimagicFlags) -> Result<()> {
        check(unsafe { ffi::kt_semimagic_opts_set_flags(self.raw, flags.bits()) })
    }
    /// Cells allowed for number 1 (empty: any).
    pub fn set_start_cells(&mut self, cells: &[Cell]) -> Result<()> {
        check(unsafe { ffi::kt_semimagic_opts_set_start_cells(self.raw, cells.as_ptr(), cells.len()) })
    }
    /// Cells allowed for number n^2 (empty: any).
    pub fn set_end_cells(&mut self, cells: &[Cell]) -> Result<()> {
        check(unsafe { ffi::kt_semimagic_opts_set_end_cells(self.raw, cells.as_ptr(), cells.len()) })
    }
    /// Number 1 in column `x` (`None`: anywhere).
    pub fn set_start_column(&mut self, x: Option<u32>) -> Result<()> {
        check(unsafe { ffi::kt_semimagic_opts_set_start_column(self.raw, x.unwrap_or(ffi::KT_SEMIMAGIC_ANY)) })
    }
    /// Number n^2 in column `x` (`None`: anywhere).
    pub fn set_end_column(&mut self, x: Option<u32>) -> Result<()> {
        check(unsafe { ffi::kt_semimagic_opts_set_end_column(self.raw, x.unwrap_or(ffi::KT_SEMIMAGIC_ANY)) })
    }
    /// The Knight Errant rule: 1 in the leftmost column, n^2 in the rightmost.
    pub fn set_puzzle_rule(&mut self) -> Result<()> {
        check(unsafe { ffi::kt_semimagic_opts_set_puzzle_rule(self.raw) })
    }
    /// Numbers given in advance (n^2 values, 0 = free), or `None` to clear.
    pub fn set_grid(&mut self, numbers: Option<&[u32]>) -> Result<()> {
        let (p, n) = numbers.map(|g| (g.as_ptr(), g.len())).unwrap_or((ptr::null(), 0));
        check(unsafe { ffi::kt_semimagic_opts_set_grid(self.raw, p, n) })
    }
    /// How symmetric solutions are reported.
    pub fn set_symmetry(&mut self, mode: Symmetry) -> Result<()> {
        check(unsafe { ffi::kt_semimagic_opts_set_symmetry(self.raw, mode as c_int) })
    }

    /// Enumerate the numberings; `f` is called for each report, on the
    /// calling thread, and returns `false` to stop (then
    /// [`ErrorKind::Canceled`]).  A panic in `f` stops the search and is
    /// resumed after it.
    pub fn search<F: FnMut(&Solution<'_>) -> bool>(&self, run: Option<&Options<'_>>, f: F)
        -> Result<SearchSummary> {
        struct Ctx<F> { f: F, panic: Option<Box<dyn std::any::Any + Send>> }
        unsafe extern "C" fn tramp<F: FnMut(&Solution<'_>) -> bool>(
            user: *mut c_void, s: *const ffi::kt_semimagic_solution) -> c_int {
            let ctx = &mut *(user as *mut Ctx<F>);
            let sol = Solution { raw: s, _s: PhantomData };
            match panic::catch_unwind(AssertUnwindSafe(|| (ctx.f)(&sol))) {
                Ok(true) => 0,
                Ok(false) => 1,
                Err(p) => { ctx.panic = Some(p); 1 }
            }
        }
        let mut ctx = Ctx { f, panic: None };
        let mut sum = SearchSummary::default();
        let st = with_run(run, |r| unsafe {
            ffi::kt_semimagic_search(self.raw, r, Some(tramp::<F>),
                                     &mut ctx as *mut Ctx<F> as *mut c_void,
                                     &mut sum.classes, &mut sum.solutions)
        });
        if let Some(p) = ctx.panic.take() {
            panic::resume_unwind(p);
        }
        check(st)?;
        Ok(sum)
    }

    /// Every report of a complete search, collected.
    pub fn solutions(&self, run: Option<&Options<'_>>) -> Result<Vec<SolutionData>> {
        let mut all = Vec::new();
        self.search(run, |s| { all.push(s.to_data()); true })?;
        Ok(all)
    }

    /// A witness numbering if one exists (`None` is a proof that none does).
    pub fn exists(&self, run: Option<&Options<'_>>) -> Result<Option<Vec<u32>>> {
        let mut numbers = vec![0u32; self.width() as usize * self.height() as usize];
        let mut e = 0;
        check(with_run(run, |r| unsafe {
            ffi::kt_semimagic_exists(self.raw, r, &mut e, numbers.as_mut_ptr())
        }))?;
        Ok(if e != 0 { Some(numbers) } else { None })
    }

    /// Whether a complete numbering (n^2 numbers by cell) satisfies every constraint.
    pub fn check(&self, numbers: &[u32]) -> Result<bool> {
        let mut ok = 0;
        check(unsafe { ffi::kt_semimagic_check(self.raw, numbers.as_ptr(), numbers.len(), &mut ok) })?;
        Ok(ok != 0)
    }

    /// A puzzle whose only completion under these constraints is `solution`
    /// (a complete numbering satisfying them): as few given numbers as the
    /// completion search proves unique, removed in an order drawn from
    /// `seed`; `check_budget` caps the nodes of each uniqueness check (0 =
    /// unlimited).  The grid (0 = empty cell), the number of given numbers
    /// and the difficulty (search nodes to solve it).
    pub fn make_puzzle(&self, solution: &[u32], seed: u64, check_budget: u64,
                       run: Option<&Options<'_>>) -> Result<Puzzle> {
        let mut grid = vec![0u32; self.width() as usize * self.height() as usize];
        let (mut givens, mut difficulty) = (0u32, 0u64);
        check(with_run(run, |r| unsafe {
            ffi::kt_semimagic_make_puzzle(grid.as_mut_ptr(), self.raw, solution.as_ptr(),
                                          solution.len(), seed, check_budget, r, &mut givens,
                                          &mut difficulty)
        }))?;
        Ok(Puzzle { grid, givens, difficulty })
    }
}

/// A puzzle made by [`SemimagicOptions::make_puzzle`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// n^2 numbers by cell, 0 for an empty cell.
    pub grid: Vec<u32>,
    /// How many numbers are given.
    pub givens: u32,
    /// Search nodes the completion search spends solving it.
    pub difficulty: u64,
}

impl fmt::Debug for SemimagicOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SemimagicOptions").field("n", &self.size()).field("flags", &self.flags()).finish()
    }
}

impl Drop for SemimagicOptions {
    fn drop(&mut self) { unsafe { ffi::kt_semimagic_opts_free(self.raw) } }
}

/// Write a 128-bit count in decimal through the library (`kt_u128_to_string`);
/// the same digits as `u128`'s `Display`.
pub fn count_to_string(v: u128) -> String {
    let c = ffi::kt_u128 { lo: v as u64, hi: (v >> 64) as u64 };
    let mut buf = [0 as c_char; 40];
    unsafe { ffi::kt_u128_to_string(&c, buf.as_mut_ptr(), buf.len()) };
    unsafe { CStr::from_ptr(buf.as_ptr()) }.to_string_lossy().into_owned()
}

/// A 128-bit count as `u64` (`kt_u128_to_u64`); [`ErrorKind::Overflow`] above 2^64 - 1.
pub fn count_to_u64(v: u128) -> Result<u64> {
    let c = ffi::kt_u128 { lo: v as u64, hi: (v >> 64) as u64 };
    let mut out = 0;
    check(unsafe { ffi::kt_u128_to_u64(&c, &mut out) })?;
    Ok(out)
}

/// Whether a raw status is an error (`kt_is_error`).
pub fn is_error(status: i32) -> bool { unsafe { ffi::kt_is_error(status) != 0 } }
