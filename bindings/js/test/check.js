// SPDX-License-Identifier: MIT
// Independent checks of the library's answers, in plain JavaScript.

/** Whether numbers (1..N by cell, y * width + x) are a knight's tour. */
export function isKnightTour(numbers, width, height, closed) {
    const n = width * height;
    if (numbers.length !== n) return false;
    const at = new Array(n + 1).fill(-1);
    for (let c = 0; c < n; c++) {
        const k = numbers[c];
        if (k < 1 || k > n || at[k] !== -1) return false;
        at[k] = c;
    }
    const move = (a, b) => {
        const dx = Math.abs((a % width) - (b % width));
        const dy = Math.abs(Math.floor(a / width) - Math.floor(b / width));
        return (dx === 1 && dy === 2) || (dx === 2 && dy === 1);
    };
    for (let k = 1; k < n; k++) if (!move(at[k], at[k + 1])) return false;
    return !closed || n === 1 || move(at[n], at[1]);
}

/** Whether every row and column of an n x n numbering adds up to n(n^2+1)/2. */
export function isSemimagic(numbers, n) {
    const sum = (n * (n * n + 1)) / 2;
    for (let i = 0; i < n; i++) {
        let r = 0;
        let c = 0;
        for (let j = 0; j < n; j++) {
            r += numbers[i * n + j];
            c += numbers[j * n + i];
        }
        if (r !== sum || c !== sum) return false;
    }
    return true;
}
