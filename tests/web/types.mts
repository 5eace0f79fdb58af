// SPDX-License-Identifier: MIT
// The package's TypeScript declarations against real use: compiled (never
// run) by .ci/stages/90-web.sh with `tsc --noEmit --strict`.
import { load, KnightError, KNIGHT_ERRANT, Tour, type Cell } from '../../bindings/js/src/index.js';

const kt = await load();
const start: Cell = [0, 0];
const t: Tour = kt.closedTour(8, 8, { seed: 1n, method: 'divide' });
const o: Tour = kt.openTour(5, 5, { start, end: 24, method: 'warnsdorff', tie: 'roth' });
const numbers: Uint32Array = t.numbers();
const svg: string = t.toSVG({ numbers: true, noBoard: false });
const count: bigint = kt.count(6, 6, { onProgress: (done, total) => done > total, threads: 2, budget: 1e6 });
const solved: Uint32Array | null = kt.semimagic.complete(KNIGHT_ERRANT, { nested: true, puzzleRule: true });
const ok: boolean = kt.semimagic.check(solved ?? [], { nested: true, given: KNIGHT_ERRANT });
const joined: Tour = kt.tourney(16, 16, 'braid', { seed: 2 }).join({ seed: 1 }).obfuscate({ rounds: 4 });
try {
    kt.parse('1 x', { format: 'numbers' }).free();
} catch (e) {
    if (e instanceof KnightError) console.log(e.status, e.code, e.line, e.column, e.rule, e.cell);
}
t[Symbol.dispose]();
o.free();
joined.free();
console.log(numbers.length, svg.length, count, ok, kt.methods.includes('braid'), kt.version);
