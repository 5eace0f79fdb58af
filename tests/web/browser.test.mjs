// SPDX-License-Identifier: MIT
// The page (web/) in a real browser: Debian's Chromium, headless, driven by
// playwright-core.  Usage:
//   node browser.test.mjs URL ARTIFACTS_DIR SOLVED_GRID
// URL serves the site of `bash tools/web.sh build`; SOLVED_GRID is
// examples/puzzle/solved.txt (the player's answer to the Knight Errant grid).
// Prints PASS/FAIL lines and the 64x64 timing; exits 1 on any failure.
import { chromium } from 'playwright-core';
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const [url, artifacts, solvedPath] = process.argv.slice(2);
if (!url || !artifacts || !solvedPath) {
    console.error('usage: node browser.test.mjs URL ARTIFACTS_DIR SOLVED_GRID');
    process.exit(2);
}
mkdirSync(artifacts, { recursive: true });
let failed = 0;
async function check(name, fn) {
    try {
        await fn();
        console.log(`PASS web/${name}`);
    } catch (e) {
        failed++;
        console.log(`FAIL web/${name}: ${e.message.split('\n')[0]}`);
    }
}
function expect(cond, what) {
    if (!cond) throw new Error(what);
}

const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox'], // CI runs as root
});
const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
const problems = [];
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });

await check('page-loads', async () => {
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    expect(problems.length === 0, problems.join('; '));
});

async function generate(w, h, kind = 'closed') {
    await page.fill('#tour-width', String(w));
    await page.fill('#tour-height', String(h));
    await page.selectOption('#tour-kind', kind);
    await page.evaluate(() => { delete document.getElementById('tour-status').dataset.cells; });
    await page.click('#tour-generate');
    await page.waitForSelector(`#tour-status[data-cells="${w * h}"]`, { timeout: 10000 });
}

await check('tour-16x16-svg-has-256-cells', async () => {
    await generate(16, 16);
    const svg = await page.$eval('#tour-board svg', (s) => ({
        w: Number(s.dataset.ktWidth), h: Number(s.dataset.ktHeight),
        // The tour is one closed path through every cell centre.
        points: s.querySelector('path.kt-cycle').getAttribute('d').replace(/[MZ]/g, ' ').trim().split(/\s+/),
    }));
    expect(svg.w * svg.h === 256, `board ${svg.w}x${svg.h}`);
    expect(new Set(svg.points).size === 256, `${new Set(svg.points).size} distinct path points`);
    await page.check('#tour-numbers');
    const texts = await page.$$eval('#tour-board svg text', (t) => t.map((e) => Number(e.textContent)));
    expect(texts.length === 256, `${texts.length} numbered cells`);
    expect(new Set(texts).size === 256 && Math.max(...texts) === 256, 'numbers 1..256 once each');
    await page.uncheck('#tour-numbers');
});

await check('tour-obfuscate-animate-download', async () => {
    await page.click('#tour-obfuscate');
    await page.waitForSelector('#tour-status:has-text("closed tour")');
    const dl = page.waitForEvent('download');
    await page.click('#tour-download');
    const file = await (await dl).path();
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('<svg') && text.includes('data-kt-width="16"'), 'downloaded SVG');
    await page.click('#tour-play');
    await page.waitForTimeout(1500);
    const knight = await page.$$eval('#tour-board svg text.knight', (t) => t.length);
    expect(knight === 1, 'the knight is on the board');
    await page.screenshot({ path: join(artifacts, 'tour.png') });
    await page.click('#tour-play');
});

await check('tour-64x64-within-50ms', async () => {
    const gen = [];
    const drawn = [];
    for (let i = 0; i < 7; i++) {
        await page.fill('#tour-seed', String(i + 1));
        await generate(64, 64);
        const d = await page.$eval('#tour-status', (s) => ({ ...s.dataset }));
        gen.push(Number(d.ms));
        drawn.push(Number(d.ms) + Number(d.drawMs));
    }
    const median = (v) => v.sort((a, b) => a - b)[3];
    // The browser's clock is coarse (0.1 ms) without cross-origin
    // isolation, so also time 200 tours in one go.
    const mean = await page.evaluate(async () => {
        const { load } = await import('./js/src/index.js');
        const kt = await load();
        const t0 = performance.now();
        for (let s = 0; s < 200; s++) kt.closedTour(64, 64, { seed: s }).free();
        return (performance.now() - t0) / 200;
    });
    console.log(`web: 64x64 closed tour in the page: generated in ${median(gen).toFixed(2)} ms ` +
        `(median of 7 clicks), generated and drawn in ${median(drawn).toFixed(2)} ms; ` +
        `${mean.toFixed(3)} ms a tour over 200 seeds`);
    expect(median(gen) <= 50 && median(drawn) <= 50, `median ${median(gen)} ms, drawn ${median(drawn)} ms`);
    await page.fill('#tour-seed', '1');
});

await check('puzzle-solved-through-the-page', async () => {
    await page.click('#tab-puzzle');
    await page.selectOption('#puzzle-choice', 'kelsey');
    const solved = readFileSync(solvedPath, 'utf8').trim().split(/\s+/).map(Number);
    expect(solved.length === 64, 'the solved grid has 64 numbers');
    // A hint first: it must agree with the answer.
    await page.click('#puzzle-hint');
    const status = await page.textContent('#puzzle-status');
    expect(/^Hint: \d+ goes in row \d, column \d\.$/.test(status), `hint says: ${status}`);
    const [, k, r, c] = status.match(/Hint: (\d+) goes in row (\d), column (\d)/).map(Number);
    expect(solved[(r - 1) * 8 + (c - 1)] === k, `hint ${k} at row ${r} column ${c}`);
    // Then the player types every missing number with the keyboard.
    const inputs = await page.$$('#puzzle-grid input');
    for (let i = 0; i < 64; i++) {
        const ro = await inputs[i].getAttribute('readonly');
        if (ro !== null) continue;
        await inputs[i].fill('');
        await inputs[i].type(String(solved[i]));
    }
    // A wrong answer is refused first...
    const a = await inputs[1].inputValue();
    const b = await inputs[2].inputValue();
    await inputs[1].fill(b);
    await inputs[2].fill(a);
    await page.click('#puzzle-check');
    expect((await page.getAttribute('#puzzle-status', 'data-solved')) === 'false', 'a swapped pair is refused');
    // ...then the right one is accepted.
    await inputs[1].fill(a);
    await inputs[2].fill(b);
    await page.click('#puzzle-check');
    const verdict = await page.textContent('#puzzle-status');
    expect((await page.getAttribute('#puzzle-status', 'data-solved')) === 'true', `verdict: ${verdict}`);
    await page.screenshot({ path: join(artifacts, 'puzzle.png') });
});

await check('puzzle-generated-hint', async () => {
    await page.selectOption('#puzzle-choice', 'generated');
    await page.fill('#puzzle-seed', '5');
    await page.click('#puzzle-new');
    const given = await page.$$eval('#puzzle-grid input.given', (c) => c.length);
    expect(given === 14, `${given} numbers given`);
    await page.click('#puzzle-hint');
    expect((await page.$$eval('#puzzle-grid input.hint', (c) => c.length)) === 1, 'one cell hinted');
});

await check('counter-6x6-is-9862', async () => {
    await page.click('#tab-count');
    await page.fill('#count-width', '6');
    await page.fill('#count-height', '6');
    await page.click('#count-start');
    await page.waitForSelector('#count-status[data-count]', { timeout: 60000 });
    const n = await page.getAttribute('#count-status', 'data-count');
    expect(n === '9862', `count ${n}`);
    expect((await page.textContent('#count-status')).includes('9,862'), 'shown as 9,862');
    expect((await page.$eval('#count-progress', (p) => p.value)) === 1, 'progress bar full');
    await page.screenshot({ path: join(artifacts, 'count.png') });
});

await check('counter-cancel-keeps-page-responsive', async () => {
    await page.fill('#count-width', '7');
    await page.fill('#count-height', '8');
    await page.click('#count-start');
    // The page answers while the worker counts: a tab switch round trip.
    await page.waitForFunction(() => document.getElementById('count-progress').value > 0, null, { timeout: 20000 });
    const t0 = Date.now();
    await page.click('#tab-tour');
    await page.click('#tab-count');
    expect(Date.now() - t0 < 2000, 'the page stayed responsive');
    await page.click('#count-cancel');
    expect((await page.textContent('#count-status')) === 'Cancelled.', 'cancelled');
});

await check('phone-sized-and-keyboard', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    await phone.goto(`${url}#puzzle`);
    await phone.waitForSelector('body[data-ready="true"]');
    const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(wide <= 390, `page is ${wide} px wide`);
    // Keyboard only: focus a free cell, arrows move, digits type.
    await phone.focus('#puzzle-grid input:not([readonly])');
    await phone.keyboard.press('ArrowDown');
    const focused = await phone.evaluate(() => document.activeElement.getAttribute('aria-label'));
    expect(/^row \d, column \d$/.test(focused), `focus on ${focused}`);
    await phone.focus('#tab-puzzle');
    await phone.keyboard.press('ArrowRight');
    expect(await phone.evaluate(() => !document.getElementById('view-count').hidden), 'arrow keys switch tabs');
    await phone.keyboard.press('ArrowLeft');
    await phone.screenshot({ path: join(artifacts, 'phone.png') });
    await phone.close();
});

await check('no-console-errors', async () => {
    expect(problems.length === 0, problems.join('; '));
});

await browser.close();
console.log(`web: ${failed === 0 ? 'all passed' : `${failed} failed`}`);
process.exit(failed === 0 ? 0 : 1);
