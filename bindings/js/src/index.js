// SPDX-License-Identifier: MIT
// libknight for JavaScript: the WebAssembly build of the C library
// (tools/web.sh build) behind an ES module API.  Every object that holds C
// memory has free() and [Symbol.dispose]; a FinalizationRegistry frees what
// a program forgets, but only deterministic freeing bounds memory.
import createKnightModule from '../wasm/knight.js';

const FORMATS = { auto: 0, numbers: 1, moves: 2, svg: 3 };
const RULES = ['none', 'not-a-cell', 'not-a-move', 'repeated', 'missing', 'not-closed',
    'degree', 'not-a-path', 'hole'];
const TIES = { first: 0, random: 1, pohl: 2, roth: 3 };
const CELL_NONE = 0xFFFFFFFF;
const KT_ECANCELED = 8;
const dispose = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('Symbol.dispose');

/**
 * A partial grid under Kelsey's Knight Errant rules (the library's
 * examples/puzzle/knight-errant.txt), by cell y * 8 + x, 0 = free.  Rules:
 * nested semimagic (rows, columns and each 4x4 quadrant add up), 1 in the
 * leftmost column and 64 in the rightmost (doc/references.md).
 */
export const KNIGHT_ERRANT = Object.freeze([
    1, 0, 0, 50, 0, 0, 63, 0,
    0, 0, 46, 0, 0, 19, 0, 0,
    0, 2, 0, 0, 0, 34, 0, 64,
    52, 0, 4, 0, 0, 0, 0, 13,
    0, 0, 25, 0, 9, 0, 0, 0,
    28, 0, 0, 0, 0, 57, 0, 0,
    0, 0, 55, 0, 39, 0, 0, 22,
    54, 0, 0, 7, 0, 0, 0, 11,
]);

/** A failed libknight call: `status` is the C name ("KT_EPARSE", ...). */
export class KnightError extends Error {
    constructor(status, code, message, diag) {
        super(message);
        this.name = 'KnightError';
        this.status = status;
        this.code = code;
        this.line = diag?.line ?? 0;
        this.column = diag?.column ?? 0;
        this.rule = diag?.rule ?? 'none';
        this.cell = diag?.cell ?? null;
    }
}

function seed64(seed) {
    const s = BigInt(seed ?? 0);
    return BigInt.asUintN(64, s);
}

// The module's bytes: read from disk in Node, fetched in a browser.  Handing
// them to the glue means any static file server will do, whatever MIME type
// it gives .wasm files (streaming compilation would need application/wasm).
async function wasmBinary() {
    const url = new URL('../wasm/knight.wasm', import.meta.url);
    const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';
    if (isNode && url.protocol === 'file:') {
        const { readFile } = await import('node:fs/promises');
        return readFile(url);
    }
    const response = await fetch(url);
    if (!response.ok) throw new Error(`cannot load ${url}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
}

/** Instantiate the WebAssembly module; resolves to a {@link Knight}. */
export async function load() {
    const M = await createKnightModule({ wasmBinary: await wasmBinary() });
    return new Knight(M);
}

class Core {
    constructor(M) {
        this.M = M;
        this.progress = new Map();
        this.nextId = 1;
        this.pending = null; // an exception thrown by a progress callback
        M.ktjsProgress = (id, done, total) => {
            const fn = this.progress.get(id);
            if (!fn) return 0;
            try {
                return fn(done, total) === true ? 1 : 0;
            } catch (e) {
                this.pending = e;
                return 1;
            }
        };
        this.live = 0; // tours not yet freed, by free() or by the registry
        this.registry = new FinalizationRegistry((ptr) => this.release(ptr));
        this.samplerRegistry = new FinalizationRegistry((ptr) => this.M._kt_sampler_free(ptr));
    }

    release(ptr) {
        this.M._kt_tourney_free(ptr);
        this.live--;
    }

    str(ptr) { return this.M.UTF8ToString(ptr); }
    u32(ptr) { return this.M.HEAPU32[ptr >>> 2]; }

    error(code, diag) {
        const name = this.str(this.M._kt_status_name(code));
        let msg = this.str(this.M._kt_strerror(code));
        if (diag && diag.line) msg += ` at line ${diag.line}, column ${diag.column}`;
        if (diag && diag.rule !== 'none') msg += `: ${this.str(this.M._kt_rule_describe(diag.ruleCode))}` +
            (diag.cell !== null ? ` (cell ${diag.cell})` : '');
        return new KnightError(name, code, msg, diag);
    }

    check(code, diag) {
        if (this.pending) {
            const e = this.pending;
            this.pending = null;
            throw e;
        }
        if (code !== 0) throw this.error(code, diag);
    }

    // Scratch memory for one call, freed whatever happens.
    scratch(bytes, fn) {
        const p = this.M._malloc(Math.max(bytes, 8));
        if (!p) throw this.error(2);
        try {
            this.M.HEAPU8.fill(0, p, p + Math.max(bytes, 8));
            return fn(p);
        } finally {
            this.M._free(p);
        }
    }

    // A kt_u128 that fn(p) stores at p, as a bigint (through its decimal text).
    u128(fn) {
        return this.scratch(16 + 48, (p) => {
            this.check(fn(p));
            this.check(this.M._kt_u128_to_string(p, p + 16, 48));
            return BigInt(this.str(p + 16));
        });
    }

    cstring(text, fn) {
        const n = this.M.lengthBytesUTF8(text);
        return this.scratch(n + 1, (p) => {
            this.M.stringToUTF8(text, p, n + 1);
            return fn(p, n);
        });
    }

    // kt_options for one call: single-threaded, optional progress and budget.
    withRun(opts, fn) {
        const onProgress = opts?.onProgress;
        const signal = opts?.signal;
        if (signal?.aborted) throw this.error(KT_ECANCELED);
        let id = 0;
        if (onProgress || signal) {
            id = this.nextId++;
            this.progress.set(id, (done, total) => {
                if (onProgress && onProgress(done, total) === true) return true;
                return signal?.aborted === true;
            });
        }
        const threads = opts?.threads ?? 1;
        if (!Number.isInteger(threads) || threads < 1 || threads > 256) {
            throw new KnightError('KT_EINVAL', 1, `threads must be 1..256, not ${threads}`);
        }
        const run = this.M._ktjs_run_new(threads, id, Number(opts?.budget ?? 0));
        try {
            if (!run) throw this.error(2);
            return fn(run);
        } finally {
            this.M._kt_options_free(run);
            if (id) this.progress.delete(id);
        }
    }

    graph(width, height, fn) {
        return this.scratch(4, (out) => {
            this.check(this.M._kt_graph_new(out, width >>> 0, height >>> 0));
            const g = this.u32(out);
            try {
                return fn(g);
            } finally {
                this.M._kt_graph_free(g);
            }
        });
    }

    // Call fn(outPtr) that stores a kt_tourney*; wrap it in a Tour.
    tour(fn, diag) {
        return this.scratch(4, (out) => {
            const st = fn(out);
            this.check(st, diag ? diag() : undefined);
            return new Tour(this, this.u32(out));
        });
    }
}

function readDiag(core, p) {
    const H = core.M.HEAPU32;
    const i = p >>> 2;
    const ruleCode = H[i + 4];
    const cell = H[i + 5];
    return {
        line: H[i] + H[i + 1] * 2 ** 32,
        column: H[i + 2] + H[i + 3] * 2 ** 32,
        ruleCode,
        rule: RULES[ruleCode] ?? 'unknown',
        cell: cell === CELL_NONE ? null : cell,
    };
}

function cellOf(core, g, c) {
    if (c === undefined || c === null) return CELL_NONE;
    const w = core.M._kt_graph_width(g);
    if (Array.isArray(c)) return (c[1] >>> 0) * w + (c[0] >>> 0);
    return c >>> 0;
}

/** A closed tour, an open tour, or a tourney (cycle cover) in C memory. */
export class Tour {
    constructor(core, ptr) {
        this._core = core;
        this._ptr = ptr;
        this._token = {};
        core.live++;
        core.registry.register(this, ptr, this._token);
    }

    get ptr() {
        if (!this._ptr) throw new KnightError('KT_EINVAL', 1, 'tour used after free()');
        return this._ptr;
    }

    /** Release the C memory now (later calls throw; free() again is harmless). */
    free() {
        if (!this._ptr) return;
        this._core.registry.unregister(this._token);
        this._core.release(this._ptr);
        this._ptr = 0;
    }

    [dispose]() { this.free(); }

    get _graph() { return this._core.M._kt_tourney_graph(this.ptr); }
    get width() { return this._core.M._kt_graph_width(this._graph); }
    get height() { return this._core.M._kt_graph_height(this._graph); }
    /** Cells that are not holes. */
    get vertices() { return this._core.M._kt_graph_vertex_count(this._graph); }
    /** Number of cycles (1 for a closed or an open tour). */
    get size() { return this._core.M._kt_tourney_size(this.ptr); }
    get isClosed() { return this._core.M._kt_tourney_is_closed_tour(this.ptr) === 1; }
    get isOpen() { return this._core.M._kt_tourney_is_open_tour(this.ptr) === 1; }

    /** The text of the tour: 'numbers', 'moves' or 'svg'. */
    write(format = 'numbers', opts = {}) {
        const f = FORMATS[format];
        if (!f) throw new KnightError('KT_EINVAL', 1, `unknown format ${format}`);
        const flags = (opts.numbers ? 1 : 0) | (opts.noBoard ? 2 : 0) | (opts.reverse ? 4 : 0);
        const core = this._core;
        const M = core.M;
        const start = cellOf(core, this._graph, opts.start);
        return core.scratch(8, (lenp) => {
            const st = M._kt_io_write_buffer(this.ptr, f, flags, start, 0, 0, lenp);
            if (st !== 13) core.check(st); // KT_ERANGE: the length is known
            const len = core.u32(lenp);
            return core.scratch(len + 1, (buf) => {
                core.check(M._kt_io_write_buffer(this.ptr, f, flags, start, buf, len + 1, lenp));
                return core.str(buf);
            });
        });
    }

    toString() { return this.write(this.size === 1 ? 'numbers' : 'moves'); }
    toSVG(opts = {}) { return this.write('svg', opts); }

    /** Visit numbers by cell (y * width + x), 1..N, 0 for holes (tours only). */
    numbers() {
        const text = this.write('numbers');
        const out = new Uint32Array(this.width * this.height);
        let i = 0;
        for (const tok of text.split(/\s+/)) {
            if (tok === '') continue;
            out[i++] = tok === '.' ? 0 : Number(tok);
        }
        return out;
    }

    /** The cells in visiting order (tours only). */
    order() {
        const num = this.numbers();
        const out = new Uint32Array(this.vertices);
        num.forEach((k, cell) => { if (k) out[k - 1] = cell; });
        return out;
    }

    copy() {
        const core = this._core;
        return core.tour((out) => core.M._kt_tourney_copy(out, this.ptr));
    }

    equals(other) { return this._core.M._kt_tourney_equal(this.ptr, other.ptr) === 1; }

    /** Rails of the tourney (Parberry 2020), counted. */
    railCount() {
        const core = this._core;
        return core.scratch(8, (p) => {
            core.check(core.M._kt_rails_count_tourney(this.ptr, p));
            return core.M.HEAPU32[p >>> 2] + core.M.HEAPU32[(p >>> 2) + 1] * 2 ** 32;
        });
    }

    /** Join the cycles of a tourney into one closed tour, in place. */
    join(opts = {}) {
        const core = this._core;
        core.withRun(opts, (run) => core.check(core.M._kt_rails_join(this.ptr, seed64(opts.seed), run)));
        return this;
    }

    /** Switch a random set of disjoint rails (many cycles), in place. */
    shatter(seed = 0) {
        this._core.check(this._core.M._kt_rails_shatter(this.ptr, seed64(seed)));
        return this;
    }

    /** Shatter `rounds` times and join again (Parberry 2020), in place. */
    obfuscate(opts = {}) {
        const core = this._core;
        core.withRun(opts, (run) => core.check(
            core.M._kt_rails_obfuscate(this.ptr, (opts.rounds ?? 0) >>> 0, seed64(opts.seed), run)));
        return this;
    }
}

/** The loaded library. */
/**
 * Exactly uniform tours of one board (kt_sampler): prepared once, then
 * every draw is a tour chosen uniformly among all tours of the board.
 * Boards whose narrow side is at most 7.  Holds C memory: free() it (or
 * let the FinalizationRegistry do it later).
 */
export class Sampler {
    constructor(core, ptr, width) {
        this._core = core;
        this._ptr = ptr;
        this._width = width >>> 0; // for [x, y] cells
        this._token = {};
        core.samplerRegistry.register(this, ptr, this._token);
    }

    get ptr() {
        if (!this._ptr) throw new KnightError('KT_EINVAL', 1, 'sampler used after free()');
        return this._ptr;
    }

    /** How many tours the draws choose from (undirected), a bigint. */
    get total() {
        return this._core.u128((p) => this._core.M._kt_sampler_total(this.ptr, p));
    }

    /** Tour number `index` of the stream of `seed` (both reproducible). */
    draw(seed = 0, index = 0) {
        const core = this._core;
        return core.tour((out) => core.M._kt_sampler_draw(out, this.ptr, seed64(seed), seed64(index)));
    }

    /**
     * Tour `index` of the stream of `seed` among the open tours that end at
     * `cell` ([x, y] or a cell index): the sampler's draws in turn until one
     * ends there, exactly uniform (kt_sampler_draw_from).  opts.budget is
     * the most tries (KT_ELIMIT past it); opts.onProgress / opts.signal
     * cancel.  KT_ENOTOUR when the board's colours forbid that end.
     */
    drawFrom(cell, seed = 0, index = 0, opts = {}) {
        const core = this._core;
        const c = Array.isArray(cell) ? (cell[1] >>> 0) * this._width + (cell[0] >>> 0) : cell >>> 0;
        return core.withRun(opts, (run) => core.tour((out) => core.M._kt_sampler_draw_from(out, this.ptr, c,
            seed64(seed), seed64(index), run)));
    }

    /** The tour of rank 0 <= rank < total (a bigint; kt_sampler_unrank). */
    unrank(rank) {
        const core = this._core;
        const r = BigInt(rank);
        if (r < 0n || r >= 1n << 128n) throw new KnightError('KT_EINVAL', 1, 'rank must be in 0 .. 2**128 - 1');
        return core.scratch(16, (p) => {
            const H = core.M.HEAPU32;
            for (let i = 0; i < 4; i++) H[(p >>> 2) + i] = Number((r >> BigInt(32 * i)) & 0xFFFFFFFFn);
            return core.tour((out) => core.M._kt_sampler_unrank(out, this.ptr, p));
        });
    }

    /** The rank of a tour of the sampler's kind, a bigint: unrank's inverse (kt_sampler_rank). */
    rank(tour) {
        return this._core.u128((p) => this._core.M._kt_sampler_rank(this.ptr, tour.ptr, p));
    }

    free() {
        if (!this._ptr) return;
        this._core.samplerRegistry.unregister(this._token);
        this._core.M._kt_sampler_free(this._ptr);
        this._ptr = 0;
    }

    [dispose]() { this.free(); }
}

export class Knight {
    constructor(M) {
        this._core = new Core(M);
        this.version = this._core.str(M._kt_version_string());
        this.methods = [];
        for (let m = 0; m < 6; m++) this.methods.push(this._core.str(M._kt_generate_method_name(m)));
        this.tiebreaks = Object.keys(TIES);
    }

    /** Tours made and not yet freed (by free() or, later, by the garbage collector). */
    get liveTours() { return this._core.live; }

    hasClosedTour(width, height) { return this._core.M._kt_graph_board_has_closed_tour(width, height) === 1; }
    hasOpenTour(width, height) { return this._core.M._kt_graph_board_has_open_tour(width, height) === 1; }

    /**
     * A closed tour.  method: 'blocks' (linear, default), 'divide'
     * (Parberry 1997), 'warnsdorff' (with opts.tie), 'exhaustive' or
     * 'uniform' (exactly uniform among all tours; narrow side at most 7).
     */
    closedTour(width, height, opts = {}) {
        const core = this._core;
        const M = core.M;
        const method = opts.method ?? 'blocks';
        if (method === 'uniform') return this._uniform(width, height, { ...opts, open: false });
        return core.withRun(opts, (run) => core.graph(width, height, (g) => core.tour((out) => {
            const seed = seed64(opts.seed);
            switch (method) {
            case 'blocks': return M._kt_generate_closed_tour(out, g, seed, run);
            case 'divide': return M._kt_generate_divide_tour(out, g, seed, run);
            case 'warnsdorff':
                return M._kt_generate_warnsdorff_tour(out, g, 0, cellOf(core, g, opts.start),
                    tieOf(opts.tie ?? 'roth'), seed, run);
            case 'exhaustive': return M._kt_exhaustive_tour(out, g, 0, CELL_NONE, CELL_NONE, run);
            default: throw new KnightError('KT_EINVAL', 1, `unknown method ${method}`);
            }
        })));
    }

    /**
     * An open tour, optionally from opts.start and/or to opts.end ([x, y] or
     * a cell index).  method: 'construct' (default), 'warnsdorff', 'exhaustive',
     * 'uniform' (exactly uniform; narrow side at most 7).
     */
    openTour(width, height, opts = {}) {
        const core = this._core;
        const M = core.M;
        const method = opts.method ?? 'construct';
        if (method === 'uniform') return this._uniform(width, height, { ...opts, open: true });
        return core.withRun(opts, (run) => core.graph(width, height, (g) => core.tour((out) => {
            const start = cellOf(core, g, opts.start);
            const end = cellOf(core, g, opts.end);
            const seed = seed64(opts.seed);
            switch (method) {
            case 'construct': return M._kt_generate_open_tour(out, g, start, end, seed, run);
            case 'warnsdorff':
                return M._kt_generate_warnsdorff_tour(out, g, 1, start, tieOf(opts.tie ?? 'roth'), seed, run);
            case 'exhaustive': return M._kt_exhaustive_tour(out, g, 1, start, end, run);
            default: throw new KnightError('KT_EINVAL', 1, `unknown method ${method}`);
            }
        })));
    }

    /**
     * A sampler of exactly uniform tours: closed (default), or open with
     * opts.open, from opts.start and/or to opts.end.  Preparation takes
     * opts.onProgress / opts.signal / opts.budget like count().
     */
    sampler(width, height, opts = {}) {
        const core = this._core;
        const M = core.M;
        return core.withRun(opts, (run) => core.graph(width, height, (g) => core.scratch(4, (out) => {
            core.check(M._kt_sampler_new(out, g, opts.open ? 1 : 0, cellOf(core, g, opts.start),
                cellOf(core, g, opts.end), run));
            return new Sampler(core, core.u32(out), width);
        })));
    }

    // method 'uniform' of closedTour and openTour: one draw of a fresh sampler.
    _uniform(width, height, opts) {
        const s = this.sampler(width, height, opts);
        try {
            return s.draw(opts.seed, 0);
        } finally {
            s.free();
        }
    }

    /** A tourney (cycle cover) by one of {@link Knight#methods}. */
    tourney(width, height, method = 'blocks', opts = {}) {
        const core = this._core;
        const M = core.M;
        const m = core.cstring(String(method), (p) => core.scratch(4, (out) => {
            core.check(M._kt_generate_method_parse(p, out));
            return core.u32(out);
        }));
        return core.withRun(opts, (run) => core.graph(width, height, (g) => core.tour(
            (out) => M._kt_generate_tourney(out, g, m, seed64(opts.seed), run))));
    }

    /**
     * Read a tour or tourney in any format ('auto', 'numbers', 'moves',
     * 'svg').  A malformed text throws a KnightError with status KT_EPARSE
     * and its line and column; an invalid tour KT_EBADTOUR with the rule
     * and the cell.
     */
    parse(text, opts = {}) {
        const core = this._core;
        const M = core.M;
        const f = FORMATS[opts.format ?? 'auto'];
        if (f === undefined) throw new KnightError('KT_EINVAL', 1, `unknown format ${opts.format}`);
        return core.scratch(24, (diag) => core.cstring(String(text), (p, n) => core.tour(
            (out) => M._kt_io_parse(out, 0, p, n, f, opts.open ? 1 : 0, 0, diag),
            () => readDiag(core, diag))));
    }

    /** Validate a visiting order (cells y * width + x) and make the tour. */
    fromOrder(width, height, cells, opts = {}) {
        const core = this._core;
        const M = core.M;
        const n = cells.length;
        return core.graph(width, height, (g) => core.scratch(24, (diag) => core.scratch(4 * n, (p) => {
            M.HEAPU32.set(Uint32Array.from(cells, (c) => c >>> 0), p >>> 2);
            return core.tour((out) => M._kt_tourney_from_order(out, g, p, n, opts.closed === false ? 1 : 0, diag),
                () => readDiag(core, diag));
        })));
    }

    /**
     * Count tours exactly (a bigint): closed by default; opts.open,
     * opts.directed, opts.symmetric, opts.classes; opts.frontier keeps the
     * count on the frontier method (else the library picks the fastest).
     * opts.onProgress(done,
     * total) is called about ten times a second; returning true cancels
     * (KT_ECANCELED).  Boards whose narrow side is at most 8 (7 open).
     */
    count(width, height, opts = {}) {
        const core = this._core;
        const M = core.M;
        const flags = (opts.open ? 1 : 0) | (opts.directed ? 2 : 0) | (opts.symmetric ? 4 : 0) |
            (opts.classes ? 8 : 0) | (opts.frontier ? 16 : 0);
        return core.withRun(opts, (run) => core.graph(width, height, (g) =>
            core.u128((p) => M._kt_count_tours(g, flags, run, p, 0))));
    }

    /** Semimagic tours and puzzles (8x8 Knight Errant and others, 3 <= n <= 16). */
    get semimagic() {
        return new Semimagic(this._core);
    }
}

function tieOf(name) {
    const t = TIES[name];
    if (t === undefined) throw new KnightError('KT_EINVAL', 1, `unknown tie-break ${name}`);
    return t;
}

class Semimagic {
    constructor(core) { this._core = core; }

    // kt_semimagic_opts for a grid (n*n numbers, 0 = free) and the rules.
    _opts(grid, opts, fn) {
        const core = this._core;
        const M = core.M;
        const n = Math.round(Math.sqrt(grid.length));
        if (n * n !== grid.length) throw new KnightError('KT_EINVAL', 1, 'the grid is not square');
        return core.scratch(4, (out) => {
            core.check(M._kt_semimagic_opts_new(out, n, 0));
            const o = core.u32(out);
            try {
                const flags = (opts.nested ? 2 : 1) | (opts.magic ? 4 : 0) | (opts.closed ? 8 : 0);
                core.check(M._kt_semimagic_opts_set_flags(o, flags));
                if (opts.puzzleRule) core.check(M._kt_semimagic_opts_set_puzzle_rule(o));
                return core.scratch(4 * grid.length, (p) => {
                    M.HEAPU32.set(Uint32Array.from(grid, (v) => v >>> 0), p >>> 2);
                    return fn(o, p, n);
                });
            } finally {
                M._kt_semimagic_opts_free(o);
            }
        });
    }

    /**
     * Complete a partly numbered grid (0 = free): the numbers of a solution,
     * or null when none exists (a proof by exhaustion).  opts.nested and
     * opts.puzzleRule give the Knight Errant rules; opts.budget bounds the
     * search nodes (KT_ELIMIT).
     */
    complete(grid, opts = {}) {
        const core = this._core;
        const M = core.M;
        return this._opts(grid, opts, (o, p) => {
            core.check(M._kt_semimagic_opts_set_grid(o, p, grid.length));
            return core.withRun(opts, (run) => core.scratch(4, (ex) => {
                core.check(M._kt_semimagic_exists(o, run, ex, p));
                return core.u32(ex) ? new Uint32Array(M.HEAPU32.slice(p >>> 2, (p >>> 2) + grid.length)) : null;
            }));
        });
    }

    /** Whether a full numbering is a semimagic tour under the rules (and opts.given). */
    check(numbers, opts = {}) {
        const core = this._core;
        const M = core.M;
        const given = opts.given;
        return this._opts(given ?? new Uint32Array(numbers.length), opts, (o, g) => {
            if (given) core.check(M._kt_semimagic_opts_set_grid(o, g, given.length));
            return core.scratch(4 * numbers.length + 4, (p) => {
                M.HEAPU32.set(Uint32Array.from(numbers, (v) => v >>> 0), p >>> 2);
                const ok = p + 4 * numbers.length;
                core.check(M._kt_semimagic_check(o, p, numbers.length, ok));
                return core.u32(ok) === 1;
            });
        });
    }
}
