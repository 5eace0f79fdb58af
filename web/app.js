// SPDX-License-Identifier: MIT
// The page: a tour viewer, the Knight Errant puzzle and a counter, all on
// the WebAssembly build of libknight (js/src/index.js).
import { load, KNIGHT_ERRANT } from './js/src/index.js';

const $ = (id) => document.getElementById(id);
const kt = await load();
$('version').textContent = `${kt.version} (WebAssembly)`;
$('loading').hidden = true;

// ---- tabs: arrow keys move between them (the WAI-ARIA tabs pattern) ----
const tabs = [...document.querySelectorAll('[role="tab"]')];
function showTab(tab, focus) {
    for (const t of tabs) {
        const on = t === tab;
        t.setAttribute('aria-selected', String(on));
        t.tabIndex = on ? 0 : -1;
        $(t.getAttribute('aria-controls')).hidden = !on;
    }
    if (focus) tab.focus();
    history.replaceState(null, '', `#${tab.id.slice(4)}`);
}
tabs.forEach((t, i) => {
    t.addEventListener('click', () => showTab(t, false));
    t.addEventListener('keydown', (e) => {
        const d = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
        if (d) showTab(tabs[(i + d + tabs.length) % tabs.length], true);
    });
});
showTab($(`tab-${location.hash.slice(1)}`) ?? tabs[0], false);

function say(el, text, cls = '') {
    el.textContent = text;
    el.className = cls;
}

// ---- 1. the tour viewer ----
const METHODS = {
    closed: ['blocks', 'divide', 'warnsdorff', 'exhaustive', 'uniform'],
    open: ['construct', 'warnsdorff', 'exhaustive', 'uniform'],
    tourney: kt.methods,
};
let tour = null; // the Tour shown (freed when replaced)
let anim = null;

function fillMethods() {
    const sel = $('tour-method');
    sel.replaceChildren(...METHODS[$('tour-kind').value].map((m) => new Option(m, m)));
}
$('tour-kind').addEventListener('change', fillMethods);
fillMethods();

function makeTour() {
    const w = Number($('tour-width').value);
    const h = Number($('tour-height').value);
    const opts = { method: $('tour-method').value, seed: BigInt($('tour-seed').value || 0) };
    // Exhaustive search is exponential: a node budget keeps the page alive.
    if (opts.method === 'exhaustive') opts.budget = 5e7;
    // Uniform tours need a table of every tour (narrow side at most 7): a
    // bound on its layers keeps the preparation to about a second here.
    if (opts.method === 'uniform') opts.budget = 2e5;
    switch ($('tour-kind').value) {
    case 'closed': return kt.closedTour(w, h, opts);
    case 'open': return kt.openTour(w, h, { ...opts, start: [0, 0] });
    default: return kt.tourney(w, h, opts.method, opts);
    }
}

function describe(t) {
    if (t.isClosed) return 'closed tour';
    if (t.isOpen) return 'open tour';
    return `tourney of ${t.size} cycles`;
}

function draw(genMs, verb = 'generated') {
    stopAnimation();
    const t0 = performance.now();
    $('tour-board').innerHTML = tour.toSVG({ numbers: $('tour-numbers').checked });
    const drawMs = performance.now() - t0;
    const status = $('tour-status');
    const cells = tour.width * tour.height;
    say(status, `${tour.width}x${tour.height} ${describe(tour)}, ${cells} cells` +
        (genMs === undefined ? '' : `; ${verb} in ${genMs.toFixed(1)} ms, drawn in ${drawMs.toFixed(1)} ms`));
    status.dataset.cells = String(cells);
    if (genMs !== undefined) status.dataset.ms = genMs.toFixed(3);
    status.dataset.drawMs = drawMs.toFixed(3);
    $('tour-play').disabled = tour.size !== 1;
    $('tour-join').disabled = tour.size === 1 || tour.isOpen;
    $('tour-obfuscate').disabled = !tour.isClosed;
}

function run(fn) { // report a library error on the page instead of the console
    try {
        fn();
    } catch (e) {
        stopAnimation();
        say($('tour-status'), `${e.status ?? e.name}: ${e.message}`, 'err');
    }
}

$('tour-form').addEventListener('submit', (e) => {
    e.preventDefault();
    run(() => {
        const t0 = performance.now();
        const t = makeTour();
        const ms = performance.now() - t0;
        tour?.free();
        tour = t;
        draw(ms);
    });
});
$('tour-obfuscate').addEventListener('click', () => run(() => {
    const t0 = performance.now();
    tour.obfuscate({ seed: BigInt($('tour-seed').value || 0) });
    draw(performance.now() - t0, 'obfuscated');
}));
$('tour-join').addEventListener('click', () => run(() => {
    const t0 = performance.now();
    tour.join({ seed: 1 });
    draw(performance.now() - t0, 'joined');
}));
$('tour-numbers').addEventListener('change', () => { if (tour) draw(); });

// The knight walks the tour in the SVG's own coordinates: cell (x, y) is
// centred at (2x + 1, 2y + 1).
function stopAnimation() {
    if (anim) cancelAnimationFrame(anim.frame);
    anim = null;
    $('tour-play').setAttribute('aria-pressed', 'false');
    $('tour-play').textContent = 'Animate';
}
$('tour-play').addEventListener('click', () => {
    if (anim) return stopAnimation();
    const svg = $('tour-board').querySelector('svg');
    if (!svg || !tour) return;
    const order = tour.order();
    const w = tour.width;
    const ns = 'http://www.w3.org/2000/svg';
    const trail = document.createElementNS(ns, 'polyline');
    trail.setAttribute('fill', 'none');
    trail.setAttribute('stroke', '#d1495b');
    trail.setAttribute('stroke-width', '0.22');
    const knight = document.createElementNS(ns, 'text');
    knight.setAttribute('class', 'knight');
    knight.textContent = '\u265E';
    svg.append(trail, knight);
    const perStep = Math.max(8, Math.min(250, 12000 / order.length));
    const start = performance.now();
    const points = [];
    const step = (now) => {
        // A frame's timestamp may precede the click: at least the first cell.
        const k = Math.min(order.length, Math.max(1, 1 + Math.floor((now - start) / perStep)));
        while (points.length < k) {
            const c = order[points.length];
            points.push(`${2 * (c % w) + 1},${2 * Math.floor(c / w) + 1}`);
        }
        trail.setAttribute('points', points.join(' '));
        const [x, y] = points[k - 1].split(',');
        knight.setAttribute('x', x);
        knight.setAttribute('y', y);
        if (k < order.length) anim.frame = requestAnimationFrame(step);
        else stopAnimation();
    };
    anim = { frame: requestAnimationFrame(step) };
    $('tour-play').setAttribute('aria-pressed', 'true');
    $('tour-play').textContent = 'Stop';
});
$('tour-download').addEventListener('click', () => {
    if (!tour) return;
    const blob = new Blob([tour.toSVG({ numbers: $('tour-numbers').checked })], { type: 'image/svg+xml' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `tour-${tour.width}x${tour.height}.svg`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
});
$('tour-form').requestSubmit();

// ---- 2. the Knight Errant puzzle ----
const N = 8;
let puzzle = null; // { given, rules }
const cells = [];

function mulberry32(seed) { // a small seeded generator for the puzzle's choices
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6D2B79F5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

// A generated grid: a symmetry (and maybe the reversal) of the library's
// completion of the Knight Errant grid, with 14 numbers given.  The nested
// rule survives every symmetry; the left/right-column rule need not.
function generated(seed) {
    const rnd = mulberry32(seed);
    const base = kt.semimagic.complete(KNIGHT_ERRANT, { nested: true, puzzleRule: true });
    const sym = Math.floor(rnd() * 8);
    const reverse = rnd() < 0.5;
    const img = new Array(N * N);
    for (let y = 0; y < N; y++) {
        for (let x = 0; x < N; x++) {
            let [u, v] = sym & 4 ? [y, x] : [x, y];
            if (sym & 1) u = N - 1 - u;
            if (sym & 2) v = N - 1 - v;
            const k = base[y * N + x];
            img[v * N + u] = reverse ? N * N + 1 - k : k;
        }
    }
    const idx = [...img.keys()];
    for (let i = idx.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [idx[i], idx[j]] = [idx[j], idx[i]];
    }
    const given = new Array(N * N).fill(0);
    for (const i of idx.slice(0, 14)) given[i] = img[i];
    return { given, rules: { nested: true } };
}

function buildGrid() {
    const grid = $('puzzle-grid');
    for (let i = 0; i < N * N; i++) {
        const inp = document.createElement('input');
        inp.inputMode = 'numeric';
        inp.maxLength = 2;
        inp.autocomplete = 'off';
        inp.setAttribute('aria-label', `row ${Math.floor(i / N) + 1}, column ${(i % N) + 1}`);
        inp.addEventListener('keydown', (e) => {
            const d = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -N, ArrowDown: N }[e.key];
            if (d && cells[i + d] && !(d === -1 && i % N === 0) && !(d === 1 && i % N === N - 1)) {
                e.preventDefault();
                cells[i + d].focus();
            }
        });
        inp.addEventListener('input', () => {
            inp.value = inp.value.replace(/\D/g, '');
            inp.classList.remove('wrong', 'hint');
        });
        cells.push(inp);
        grid.append(inp);
    }
}

function newPuzzle() {
    puzzle = $('puzzle-choice').value === 'kelsey'
        ? { given: Array.from(KNIGHT_ERRANT), rules: { nested: true, puzzleRule: true } }
        : generated(Number($('puzzle-seed').value || 0));
    puzzle.given.forEach((v, i) => {
        const c = cells[i];
        c.value = v ? String(v) : '';
        c.readOnly = v !== 0;
        c.className = v ? 'given' : '';
    });
    $('puzzle-rules').textContent = 'Number the cells 1 to 64 along a knight\'s tour so that every row, ' +
        'every column and every 4x4 quadrant adds up (260 a line, 130 a quadrant row and column)' +
        (puzzle.rules.puzzleRule ? ', with 1 in the leftmost column and 64 in the rightmost.' : '.');
    say($('puzzle-status'), `${puzzle.given.filter((v) => v === 0).length} cells to fill.`);
}

function entries() { // the player's grid: numbers, 0 for empty; null if a value is out of range
    const v = cells.map((c) => (c.value === '' ? 0 : Number(c.value)));
    return v.every((k) => k >= 0 && k <= N * N) ? v : null;
}

// A completion keeping the player's numbers, or null; a budget keeps a
// hopeless grid from freezing the page.
function completion(grid) {
    return kt.semimagic.complete(grid, { ...puzzle.rules, budget: 3e7 });
}

$('puzzle-check').addEventListener('click', () => {
    const v = entries();
    const status = $('puzzle-status');
    if (!v) return say(status, `Numbers go from 1 to ${N * N}.`, 'err');
    const empty = v.filter((k) => k === 0).length;
    if (empty > 0) return say(status, `${empty} cells still empty.`);
    const ok = kt.semimagic.check(v, { ...puzzle.rules, given: puzzle.given });
    say(status, ok ? 'Solved! The library accepts your tour.' : 'Not yet: this numbering breaks a rule.',
        ok ? 'ok' : 'err');
    status.dataset.solved = String(ok);
});

$('puzzle-hint').addEventListener('click', () => {
    const v = entries();
    const status = $('puzzle-status');
    if (!v) return say(status, `Numbers go from 1 to ${N * N}.`, 'err');
    try {
        const keepNumbers = v.some((k, i) => k !== 0 && puzzle.given[i] === 0) ? completion(safeGrid(v)) : null;
        if (keepNumbers) return reveal(keepNumbers, v);
        const sol = completion(puzzle.given);
        if (!sol) return say(status, 'This grid has no completion.', 'err');
        let wrong = 0;
        v.forEach((k, i) => {
            if (k && k !== sol[i]) {
                cells[i].classList.add('wrong');
                wrong++;
            }
        });
        if (wrong) return say(status, `Your numbers cannot all be kept: ${wrong} marked differ from a completion.`, 'err');
        reveal(sol, v);
    } catch (e) {
        say(status, e.status === 'KT_ELIMIT' ? 'Too hard to decide quickly; clear some numbers.' : e.message, 'err');
    }
});

// The grid the library accepts: a number given twice is left out (the
// hint then marks the cells that disagree with a completion).
function safeGrid(v) {
    const seen = new Set();
    return v.map((k) => {
        if (k === 0 || seen.has(k)) return 0;
        seen.add(k);
        return k;
    });
}

function reveal(sol, v) { // fill the empty cell with the smallest number
    let best = -1;
    v.forEach((k, i) => { if (k === 0 && (best < 0 || sol[i] < sol[best])) best = i; });
    if (best < 0) return say($('puzzle-status'), 'The grid is full: press Check.');
    cells[best].value = String(sol[best]);
    cells[best].classList.add('hint');
    cells[best].focus();
    say($('puzzle-status'), `Hint: ${sol[best]} goes in row ${Math.floor(best / N) + 1}, column ${(best % N) + 1}.`);
}

$('puzzle-clear').addEventListener('click', () => {
    cells.forEach((c, i) => { if (!puzzle.given[i]) { c.value = ''; c.className = ''; } });
    say($('puzzle-status'), 'Cleared.');
});
$('puzzle-new').addEventListener('click', newPuzzle);
$('puzzle-choice').addEventListener('change', newPuzzle);
buildGrid();
newPuzzle();

// ---- 3. the counter, in a Web Worker (the count blocks its thread) ----
let worker = null;
function countDone() {
    $('count-start').disabled = false;
    $('count-cancel').disabled = true;
}
function stopWorker() {
    worker?.terminate();
    worker = null;
}
$('count-form').addEventListener('submit', (e) => {
    e.preventDefault();
    stopWorker();
    const w = Number($('count-width').value);
    const h = Number($('count-height').value);
    const open = $('count-open').checked;
    const directed = $('count-directed').checked;
    const bar = $('count-progress');
    const status = $('count-status');
    bar.value = 0;
    delete status.dataset.count;
    say(status, `Counting the ${open ? 'open' : 'closed'} tours of ${w}x${h}...`);
    $('count-start').disabled = true;
    $('count-cancel').disabled = false;
    const t0 = performance.now();
    worker = new Worker(new URL('count-worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
        if (data.type === 'progress') {
            if (data.total > 0) bar.value = data.done / data.total;
            return;
        }
        stopWorker();
        countDone();
        if (data.type === 'error') return say(status, `${data.status}: ${data.message}`, 'err');
        bar.value = 1;
        const n = BigInt(data.count);
        say(status, `${w}x${h}: ${n.toLocaleString('en-US')} ${directed ? 'directed ' : ''}${open ? 'open' : 'closed'} tours ` +
            `(${((performance.now() - t0) / 1000).toFixed(2)} s)`, 'ok');
        status.dataset.count = String(n);
    };
    worker.postMessage({ width: w, height: h, open, directed });
});
$('count-cancel').addEventListener('click', () => {
    stopWorker(); // the worker is busy in C: ending it is the prompt way to stop
    countDone();
    say($('count-status'), 'Cancelled.');
});
document.body.dataset.ready = 'true';
