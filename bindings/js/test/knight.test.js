// SPDX-License-Identifier: MIT
// The package against the WebAssembly build: node --test test/
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { load, KnightError, Tour, KNIGHT_ERRANT } from '../src/index.js';
import { isKnightTour, isSemimagic } from './check.js';

const kt = await load();

// Tours made in a test are freed after it (what `using` does in newer engines).
const held = [];
const keep = (t) => { held.push(t); return t; };
afterEach(() => { for (const t of held.splice(0)) t.free(); });

function assertTour(t, closed) {
    assert.equal(closed ? t.isClosed : t.isOpen, true);
    assert.equal(t.size, 1);
    assert.ok(isKnightTour(t.numbers(), t.width, t.height, closed), 'numbers are a knight\'s tour');
}

function throwsStatus(fn, status, more = {}) {
    assert.throws(fn, (e) => {
        assert.ok(e instanceof KnightError, `a KnightError, got ${e}`);
        assert.equal(e.status, status);
        for (const [k, v] of Object.entries(more)) assert.equal(e[k], v, k);
        return true;
    });
}

test('version and names', () => {
    assert.match(kt.version, /^\d+\.\d+\.\d+$/);
    assert.deepEqual(kt.methods, ['blocks', 'warnsdorff', 'neural', 'divide', 'braid', 'four-cover']);
    assert.equal(kt.hasClosedTour(5, 5), false);
    assert.equal(kt.hasClosedTour(6, 6), true);
    assert.equal(kt.hasOpenTour(4, 4), false);
});

test('closed tours are valid on many boards and seeds', () => {
    for (const [w, h] of [[5, 6], [6, 6], [8, 8], [3, 10], [7, 12], [16, 16], [64, 64], [33, 20]]) {
        for (const seed of [0, 1, 2n ** 63n + 5n]) {
            const t = keep(kt.closedTour(w, h, { seed }));
            assertTour(t, true);
            assert.equal(t.width, w);
            assert.equal(t.height, h);
        }
    }
});

test('the same seed gives the same tour, seeds differ', () => {
    const a = keep(kt.closedTour(12, 12, { seed: 7 }));
    const b = keep(kt.closedTour(12, 12, { seed: 7 }));
    const c = keep(kt.closedTour(12, 12, { seed: 8 }));
    assert.ok(a.equals(b));
    assert.ok(!a.equals(c));
    // 5x6 has 8 closed tours; seeds reach all of them.
    const seen = new Set();
    for (let s = 0; s < 200; s++) {
        const t = keep(kt.closedTour(5, 6, { seed: s }));
        seen.add(t.write('moves'));
    }
    assert.equal(seen.size, 8);
});

test('closed tour methods', () => {
    for (const method of ['blocks', 'divide', 'warnsdorff', 'exhaustive']) {
        const size = method === 'exhaustive' ? 6 : 20;
        const t = keep(kt.closedTour(size, size, { method, seed: 3 }));
        assertTour(t, true);
    }
    throwsStatus(() => kt.closedTour(5, 5), 'KT_ENOTOUR');
    throwsStatus(() => kt.closedTour(8, 8, { method: 'nope' }), 'KT_EINVAL');
});

test('uniform tours: a sampler reaches every tour of 5x6 and 3x10, reproducibly', () => {
    {
        const s = kt.sampler(6, 5);
        try {
            assert.equal(s.total, 8n);
            const seen = new Set();
            for (let i = 0; i < 200; i++) {
                const t = keep(s.draw(7, i));
                assertTour(t, true);
                seen.add(t.numbers().join(','));
            }
            assert.equal(seen.size, 8); // 200 draws miss one of 8 with probability < 1e-10
            assert.deepEqual(keep(s.draw(3, 4)).numbers(), keep(s.draw(3, 4)).numbers());
        } finally {
            s.free();
        }
    }
    assert.equal(kt.count(10, 3), 16n);
    const t = keep(kt.closedTour(10, 3, { method: 'uniform', seed: 5 }));
    assertTour(t, true);
    const o = keep(kt.openTour(5, 5, { method: 'uniform', start: [0, 0], seed: 2 }));
    assertTour(o, false);
    assert.equal(o.numbers()[0], 1);
    const open = kt.sampler(5, 5, { open: true });
    assert.equal(open.total, 864n); // undirected open tours of 5x5, as count() gives
    open.free();
    open.free(); // harmless
    throwsStatus(() => open.draw(1), 'KT_EINVAL');
});

test('uniform tours ending at a cell: one sampler serves every end; ranks round-trip', () => {
    // all 304 tours of 5x5 from the corner come out of 3,000 draws, each
    // ending there (each is missed with probability e^-9.9)
    const s = kt.sampler(5, 5, { open: true });
    const r = kt.sampler(5, 5, { open: true, start: [0, 0] });
    try {
        assert.equal(r.total, 304n);
        const seen = new Set();
        for (let i = 0; i < 3000; i++) {
            const t = s.drawFrom([0, 0], 2, i);
            try {
                assertTour(t, false);
                const n = t.numbers();
                assert.ok(n[0] === 1 || n[0] === 25, 'an end at the corner');
                seen.add(r.rank(t));
            } finally {
                t.free();
            }
        }
        assert.equal(BigInt(seen.size), r.total);
        assert.deepEqual(keep(s.drawFrom(12, 2, 7)).numbers(), keep(s.drawFrom(12, 2, 7)).numbers());
        // rank and unrank are inverse over the whole sampler
        for (const k of [0n, 1n, 303n, 863n]) assert.equal(s.rank(keep(s.unrank(k))), k);
        const d = keep(s.draw(5, 5));
        assert.equal(s.rank(keep(s.unrank(s.rank(d)))), s.rank(d));
        throwsStatus(() => s.unrank(864n), 'KT_ERANGE');
        throwsStatus(() => s.unrank(-1n), 'KT_EINVAL');
        throwsStatus(() => s.drawFrom([1, 0]), 'KT_ENOTOUR'); // the smaller colour ends no open tour of 5x5
        // one try: kt_sampler_draw's tour, which ends elsewhere than the
        // centre (which no symmetry of the board moves; every open tour of
        // 5x5 has an end at a corner, which the symmetries would map to (0,0))
        let i = 0;
        for (;; i++) {
            const n = keep(s.draw(2, i)).numbers();
            if (n[12] !== 1 && n[12] !== 25) break;
        }
        throwsStatus(() => s.drawFrom([2, 2], 2, i, { budget: 1 }), 'KT_ELIMIT');
    } finally {
        s.free();
        r.free();
    }
    const c = kt.sampler(6, 6);
    try {
        throwsStatus(() => c.drawFrom(0), 'KT_EINVAL');
    } finally {
        c.free();
    }
});

test('open tours, with and without ends', () => {
    const a = keep(kt.openTour(5, 5, { start: [0, 0], seed: 1 }));
    assertTour(a, false);
    assert.equal(a.numbers()[0], 1);
    const b = keep(kt.openTour(8, 8, { start: [0, 0], end: [7, 0] }));
    assertTour(b, false);
    const ends = [b.numbers()[0], b.numbers()[7]].sort((x, y) => x - y);
    assert.deepEqual(ends, [1, 64]);
    for (const method of ['warnsdorff', 'exhaustive']) {
        const t = keep(kt.openTour(5, 5, { method, start: 0 }));
        assertTour(t, false);
    }
    throwsStatus(() => kt.openTour(4, 4), 'KT_ENOTOUR');
});

test('tourneys by every method, joined into closed tours', () => {
    for (const method of kt.methods) {
        const t = keep(kt.tourney(16, 16, method, { seed: 2 }));
        assert.ok(t.size >= 1, method);
        assert.equal(t.isOpen, false);
        t.join({ seed: 1 });
        assertTour(t, true);
    }
    throwsStatus(() => kt.tourney(8, 8, 'nope'), 'KT_EINVAL');
    throwsStatus(() => kt.tourney(10, 6, 'braid'), 'KT_EUNSUPPORTED');
});

test('obfuscation and shatter keep tours valid', () => {
    const t = keep(kt.closedTour(16, 16, { seed: 1 }));
    const before = keep(t.copy());
    assert.ok(t.railCount() > 0);
    t.obfuscate({ seed: 9 });
    assertTour(t, true);
    assert.ok(!t.equals(before));
    t.shatter(4);
    assert.ok(t.size > 1);
    assert.throws(() => t.numbers(), (e) => e.status === 'KT_EUNSUPPORTED');
    t.join({ seed: 2 });
    assertTour(t, true);
});

test('every format round-trips', () => {
    const t = keep(kt.closedTour(10, 10, { seed: 5 }));
    for (const format of ['numbers', 'moves', 'svg']) {
        const text = t.write(format);
        const u = keep(kt.parse(text, { format }));
        assert.ok(t.equals(u), format);
        const v = keep(kt.parse(text));
        assert.ok(t.equals(v), `${format} (auto)`);
    }
    const svg = t.toSVG({ numbers: true });
    assert.equal((svg.match(/<text /g) ?? []).length, 100);
    assert.match(svg, /data-kt-width="10" data-kt-height="10"/);
    const shattered = keep(t.copy().shatter(3));
    const back = keep(kt.parse(shattered.write('moves')));
    assert.ok(back.equals(shattered));
    const open = keep(kt.openTour(5, 5, { start: [0, 0] }));
    const openBack = keep(kt.parse(open.write('numbers'), { open: true }));
    assert.ok(openBack.isOpen && openBack.equals(open));
});

test('parse errors carry the line and column', () => {
    throwsStatus(() => kt.parse('1 2 3\n4 x 6\n'), 'KT_EPARSE', { line: 2, column: 3 });
    throwsStatus(() => kt.parse('<svg width="3"'), 'KT_EPARSE');
    throwsStatus(() => kt.parse('0123\n45z7\n', { format: 'moves' }), 'KT_EPARSE', { line: 2, column: 3 });
    throwsStatus(() => kt.parse('1 2\n3 4\n', { format: 'bogus' }), 'KT_EINVAL');
    // A well-formed text that is not a tour: the rule, the cell and its place.
    const t = keep(kt.closedTour(6, 6, { seed: 1 }));
    const lines = t.write('numbers').split('\n');
    const cells = lines[0].trim().split(/\s+/);
    [cells[0], cells[1]] = [cells[1], cells[0]];
    lines[0] = cells.join(' ');
    assert.throws(() => kt.parse(lines.join('\n')), (e) => {
        assert.equal(e.status, 'KT_EBADTOUR');
        assert.notEqual(e.rule, 'none');
        assert.notEqual(e.cell, null);
        assert.ok(e.line >= 1 && e.column >= 1);
        return true;
    });
});

test('fromOrder validates a visiting order', () => {
    const t = keep(kt.closedTour(6, 6, { seed: 2 }));
    const u = keep(kt.fromOrder(6, 6, t.order()));
    assert.ok(u.equals(t));
    const bad = Array.from(t.order());
    [bad[3], bad[4]] = [bad[4], bad[3]];
    throwsStatus(() => kt.fromOrder(6, 6, bad), 'KT_EBADTOUR', { rule: 'not-a-move' });
    const rep = Array.from(t.order());
    rep[5] = rep[4];
    throwsStatus(() => kt.fromOrder(6, 6, rep), 'KT_EBADTOUR');
});

test('exact counts on small boards', () => {
    assert.equal(kt.count(6, 6), 9862n);
    assert.equal(kt.count(5, 6), 8n);
    assert.equal(kt.count(5, 5), 0n);
    assert.equal(kt.count(5, 5, { open: true, directed: true }), 1728n);
    assert.equal(kt.count(5, 5, { open: true }), 864n);
    assert.equal(kt.count(6, 6, { directed: true }), 2n * 9862n);
    assert.equal(kt.count(3, 10), 16n);
    // 7x6 closed goes to half-tours by itself; the frontier alone agrees
    assert.equal(kt.count(7, 6), 1067638n);
    assert.equal(kt.count(7, 6, { frontier: true }), 1067638n);
    throwsStatus(() => kt.count(9, 9), 'KT_EUNSUPPORTED');
});

test('shares run one after the other without threads, same results', () => {
    // The wasm build has no threads (KTI_NO_THREADS): every share of a
    // parallel call runs on the calling thread, in order.
    assert.equal(kt.count(6, 6, { threads: 4 }), 9862n);
    assert.equal(kt.count(5, 5, { open: true, threads: 3 }), 864n);
    const rules = { nested: true, puzzleRule: true };
    const one = kt.semimagic.complete(KNIGHT_ERRANT, rules);
    const many = kt.semimagic.complete(KNIGHT_ERRANT, { ...rules, threads: 8 });
    assert.deepEqual(many, one);
    throwsStatus(() => kt.count(6, 6, { threads: 0 }), 'KT_EINVAL');
});

test('counting reports progress and cancels', () => {
    const reports = [];
    assert.equal(kt.count(6, 8, { onProgress: (d, t) => { reports.push([d, t]); } }), 55488142n);
    assert.ok(reports.length >= 1);
    for (const [d, t] of reports) assert.ok(t === 0 || d <= t);
    let calls = 0;
    throwsStatus(() => kt.count(6, 8, { onProgress: () => { calls++; return true; } }), 'KT_ECANCELED');
    assert.equal(calls, 1);
    const ac = new AbortController();
    ac.abort();
    throwsStatus(() => kt.count(6, 6, { signal: ac.signal }), 'KT_ECANCELED');
    assert.throws(() => kt.count(6, 8, { onProgress: () => { throw new RangeError('mine'); } }), RangeError);
    throwsStatus(() => kt.count(6, 8, { budget: 10 }), 'KT_ELIMIT');
});

test('semimagic: the Knight Errant puzzle is completed and checked', () => {
    const rules = { nested: true, puzzleRule: true };
    const sol = kt.semimagic.complete(KNIGHT_ERRANT, rules);
    assert.ok(sol);
    KNIGHT_ERRANT.forEach((v, i) => { if (v) assert.equal(sol[i], v); });
    assert.ok(isKnightTour(sol, 8, 8, false));
    assert.ok(isSemimagic(sol, 8));
    assert.equal(kt.semimagic.check(sol, { ...rules, given: KNIGHT_ERRANT }), true);
    const wrong = Array.from(sol);
    [wrong[1], wrong[2]] = [wrong[2], wrong[1]];
    assert.equal(kt.semimagic.check(wrong, rules), false);
    // 1 and 64 in the same row cannot be completed into a semimagic tour
    // (a proof by exhaustion): the 1..8 row sums are fixed.
    const impossible = new Array(64).fill(0);
    impossible[0] = 1;
    impossible[1] = 2;
    assert.equal(kt.semimagic.complete(impossible, { ...rules, budget: 2e8 }), null);
});

test('memory is freed deterministically', () => {
    const M = kt._core.M;
    const t = kt.closedTour(8, 8);
    t.free();
    t.free();
    throwsStatus(() => t.size, 'KT_EINVAL');
    assert.equal(typeof Tour.prototype[Symbol.dispose ?? Symbol.for('Symbol.dispose')], 'function');
    for (let i = 0; i < 50; i++) kt.closedTour(64, 64, { seed: i }).free();
    const heap = M.HEAPU8.length;
    for (let i = 0; i < 500; i++) {
        const big = kt.closedTour(64, 64, { seed: i });
        assert.equal(big.size, 1);
        big[Symbol.dispose ?? Symbol.for('Symbol.dispose')]();
    }
    assert.equal(M.HEAPU8.length, heap, 'the heap did not grow');
    assert.equal(kt.liveTours, held.length);
});

test('forgotten tours are freed by the garbage collector', async () => {
    // Needs node --expose-gc (npm test and tools/web.sh test pass it).
    assert.equal(typeof globalThis.gc, 'function', 'run with node --expose-gc');
    const before = kt.liveTours;
    (() => { for (let i = 0; i < 100; i++) kt.closedTour(16, 16, { seed: i }); })();
    assert.equal(kt.liveTours, before + 100);
    for (let i = 0; i < 50 && kt.liveTours > before; i++) {
        globalThis.gc();
        await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(kt.liveTours, before);
});
