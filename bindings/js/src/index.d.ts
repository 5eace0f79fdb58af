// SPDX-License-Identifier: MIT
// Types of the libknight JavaScript package (src/index.js).  Symbol.dispose
// comes from TypeScript's esnext.disposable library (TypeScript 5.2+).
/// <reference lib="esnext.disposable" />

/** A cell: its index y * width + x, or [x, y] from the top left. */
export type Cell = number | [number, number];
/** Text formats of tours. */
export type Format = 'auto' | 'numbers' | 'moves' | 'svg';
/** Warnsdorff tie-breaks. */
export type TieBreak = 'first' | 'random' | 'pohl' | 'roth';
/** Tourney generators (Parberry 2020). */
export type TourneyMethod = 'blocks' | 'warnsdorff' | 'neural' | 'divide' | 'braid' | 'four-cover';
/** The validation rule an invalid tour breaks. */
export type Rule = 'none' | 'not-a-cell' | 'not-a-move' | 'repeated' | 'missing' | 'not-closed' |
    'degree' | 'not-a-path' | 'hole' | 'unknown';

/** Settings every long call takes. */
export interface RunOptions {
    /** Called about ten times a second on the calling thread; return true to cancel (KT_ECANCELED). */
    onProgress?: (done: number, total: number) => boolean | void;
    /** Cancels when aborted (checked at each progress report and before the call). */
    signal?: AbortSignal;
    /** A bound on the call's work in the unit its C documentation names (KT_ELIMIT). */
    budget?: number;
    /**
     * Shares of the work (1..256, default 1).  The WebAssembly build has no
     * threads: the shares run one after the other, with the same result.
     */
    threads?: number;
}

/** Any seed: the same seed gives the same result everywhere. */
export type Seed = number | bigint;

/** A failed call: status is the C name of the code. */
export class KnightError extends Error {
    readonly name: 'KnightError';
    /** "KT_EPARSE", "KT_EBADTOUR", "KT_ECANCELED", ... */
    readonly status: string;
    /** The numeric kt_status. */
    readonly code: number;
    /** 1-based line of a parse error (or of a rejected cell's text), else 0. */
    readonly line: number;
    /** 1-based column (byte) likewise, else 0. */
    readonly column: number;
    /** The rule an invalid tour breaks, else 'none'. */
    readonly rule: Rule;
    /** The cell where it breaks it, else null. */
    readonly cell: number | null;
}

export interface WriteOptions {
    /** SVG: draw the visit numbers. */
    numbers?: boolean;
    /** SVG: leave out the chequered board. */
    noBoard?: boolean;
    /** Numbers: walk the tour the other way. */
    reverse?: boolean;
    /** Numbers: the cell numbered 1. */
    start?: Cell;
}

/** A closed tour, an open tour or a tourney, in WebAssembly memory. */
export class Tour {
    readonly width: number;
    readonly height: number;
    readonly vertices: number;
    /** Number of cycles (1 for a tour). */
    readonly size: number;
    readonly isClosed: boolean;
    readonly isOpen: boolean;
    write(format?: 'numbers' | 'moves' | 'svg', opts?: WriteOptions): string;
    toSVG(opts?: WriteOptions): string;
    toString(): string;
    /** Visit numbers by cell, 0 for holes (tours only). */
    numbers(): Uint32Array;
    /** The cells in visiting order (tours only). */
    order(): Uint32Array;
    copy(): Tour;
    equals(other: Tour): boolean;
    railCount(): number;
    join(opts?: RunOptions & { seed?: Seed }): this;
    shatter(seed?: Seed): this;
    obfuscate(opts?: RunOptions & { seed?: Seed; rounds?: number }): this;
    /** Release the memory now; later calls throw, free() again is harmless. */
    free(): void;
    [Symbol.dispose](): void;
}

export interface ClosedTourOptions extends RunOptions {
    method?: 'blocks' | 'divide' | 'warnsdorff' | 'exhaustive' | 'uniform';
    seed?: Seed;
    tie?: TieBreak;
    start?: Cell;
}

export interface OpenTourOptions extends RunOptions {
    method?: 'construct' | 'warnsdorff' | 'exhaustive' | 'uniform';
    seed?: Seed;
    tie?: TieBreak;
    start?: Cell;
    end?: Cell;
}

export interface SamplerOptions extends RunOptions {
    /** Open tours instead of closed ones. */
    open?: boolean;
    start?: Cell;
    end?: Cell;
}

/** Exactly uniform tours of one board, prepared once (kt_sampler). */
export class Sampler {
    /** How many tours the draws choose from (undirected). */
    readonly total: bigint;
    /** Tour `index` of the stream of `seed`, uniform among all tours. */
    draw(seed?: Seed, index?: Seed): Tour;
    /** Tour `index` of the stream of `seed`, uniform among the open tours that end at `cell` (budget: the most tries). */
    drawFrom(cell: Cell, seed?: Seed, index?: Seed, opts?: RunOptions): Tour;
    /** The tour of rank 0 <= rank < total. */
    unrank(rank: bigint | number): Tour;
    /** The rank of a tour: unrank's inverse. */
    rank(tour: Tour): bigint;
    free(): void;
    [Symbol.dispose](): void;
}

export interface CountOptions extends RunOptions {
    open?: boolean;
    directed?: boolean;
    symmetric?: boolean;
    classes?: boolean;
    /** The frontier method only (KT_COUNT_FRONTIER); else the library's choice. */
    frontier?: boolean;
}

export interface SemimagicRules {
    /** Every 4x4 quadrant semimagic too (the Knight Errant rule). */
    nested?: boolean;
    /** Both long diagonals add up too. */
    magic?: boolean;
    /** The tour is closed. */
    closed?: boolean;
    /** 1 in the leftmost column, n^2 in the rightmost. */
    puzzleRule?: boolean;
}

export interface Semimagic {
    /** A completion of the grid (0 = free), or null when none exists. */
    complete(grid: ArrayLike<number>, opts?: SemimagicRules & RunOptions): Uint32Array | null;
    /** Whether a full numbering satisfies the rules (and keeps the given numbers). */
    check(numbers: ArrayLike<number>, opts?: SemimagicRules & { given?: ArrayLike<number> }): boolean;
}

export class Knight {
    /** The library version ("1.0.0"). */
    readonly version: string;
    readonly methods: TourneyMethod[];
    readonly tiebreaks: TieBreak[];
    readonly semimagic: Semimagic;
    /** Tours made and not yet freed (by free() or, later, by the garbage collector). */
    readonly liveTours: number;
    hasClosedTour(width: number, height: number): boolean;
    hasOpenTour(width: number, height: number): boolean;
    closedTour(width: number, height: number, opts?: ClosedTourOptions): Tour;
    openTour(width: number, height: number, opts?: OpenTourOptions): Tour;
    tourney(width: number, height: number, method?: TourneyMethod, opts?: RunOptions & { seed?: Seed }): Tour;
    parse(text: string, opts?: { format?: Format; open?: boolean }): Tour;
    fromOrder(width: number, height: number, cells: ArrayLike<number>, opts?: { closed?: boolean }): Tour;
    count(width: number, height: number, opts?: CountOptions): bigint;
    /** A sampler of exactly uniform tours (narrow side at most 7). */
    sampler(width: number, height: number, opts?: SamplerOptions): Sampler;
}

/** A grid under Kelsey's Knight Errant rules (examples/puzzle/knight-errant.txt), by cell y * 8 + x, 0 = free (rules: nested, puzzleRule). */
export const KNIGHT_ERRANT: readonly number[];

/** Instantiate the WebAssembly module. */
export function load(): Promise<Knight>;
