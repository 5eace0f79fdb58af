// SPDX-License-Identifier: MIT
// Counts tours off the page's thread; progress goes back as messages.
import { load } from './js/src/index.js';

const ready = load();
self.onmessage = async ({ data }) => {
    const kt = await ready;
    try {
        const count = kt.count(data.width, data.height, {
            open: data.open,
            directed: data.directed,
            onProgress: (done, total) => { self.postMessage({ type: 'progress', done, total }); },
        });
        self.postMessage({ type: 'done', count: String(count) });
    } catch (e) {
        self.postMessage({ type: 'error', status: e.status ?? e.name, message: e.message });
    }
};
