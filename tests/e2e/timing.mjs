// How fast the page re-splits and repaints big documents, measured in headless
// Chromium on the built site (dist/). A script run by hand, not a test: speed
// depends on the machine, so the test suite checks behaviour and this prints
// numbers for the README.
//
//   ./x build && node tests/e2e/timing.mjs [runs]
//
// For documents of 100 KB, 1 MB and 10 MB of prose-like text (generated from a
// fixed seed, so every run splits the same text), it measures:
//   - load: from setting the text to the first paint of its chunks (this includes
//     the text area's 150 ms typing pause);
//   - re-split: from a change of the size input to the paint of the new chunks;
//   - longest task: the longest stretch the main thread was busy during the
//     re-splits (what a learner typing or scrolling at that moment would feel).
// Each is the median of `runs` (default 5). "Painted" means: the DOM changed, a
// frame was produced (requestAnimationFrame) and the task after it ran, so
// style, layout and paint of the new chunks are included.
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './serve.mjs';

const RUNS = Number(process.argv[2] ?? 5);
const SIZES = [
  ['100 KB', 100_000],
  ['1 MB', 1_000_000],
  ['10 MB', 10_000_000],
];
const CHROMIUM = process.env.CHUNKSCOPE_CHROMIUM ?? '/usr/bin/chromium';
const DIST = resolve(process.env.CHUNKSCOPE_DIST ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist'));

if (!existsSync(join(DIST, 'index.html'))) {
  console.error(`no ${join(DIST, 'index.html')}: build the site first with ./x build`);
  process.exit(1);
}

/**
 * Runs in the page: prose of `bytes` ASCII bytes from a fixed seed into
 * `doc-input`, opening with `Take N.` so that each take draws a new first chunk.
 */
function setText(bytes, take) {
  const words = (
    'the a of to and in that retrieval chunk splitter document overlap separator size ' +
    'window sentence paragraph embedding vector index query answer model token text page ' +
    'policy refund order customer store credit days original payment method support team ' +
    'search result context prompt budget length boundary newline recursive fixed cut'
  ).split(' ');
  let seed = 12345;
  const next = (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const parts = [];
  let length = 0;
  while (length < bytes) {
    const sentences = 2 + next(6);
    let paragraph = '';
    for (let s = 0; s < sentences; s++) {
      const n = 6 + next(18);
      let sentence = '';
      for (let w = 0; w < n; w++) sentence += (w ? ' ' : '') + words[next(words.length)];
      paragraph += (s ? ' ' : '') + sentence[0].toUpperCase() + sentence.slice(1) + '.';
    }
    parts.push(paragraph);
    length += paragraph.length + 2;
  }
  const text = `Take ${take}. ${parts.join('\n\n')}`.slice(0, bytes);
  const input = document.querySelector('[data-testid=doc-input]');
  input.value = text;
  input.dispatchEvent(new InputEvent('input', { bubbles: true }));
}

/**
 * Runs in the page: calls `change()`, then resolves with the milliseconds until
 * the chunks it causes are painted, and the longest main-thread task meanwhile.
 */
function timeRepaint(change) {
  return new Promise((resolve) => {
    const root = document.querySelector('.results');
    let longest = 0;
    const tasks = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longest = Math.max(longest, e.duration);
    });
    tasks.observe({ type: 'longtask' });
    let t0 = 0;
    const observer = new MutationObserver(() => {
      observer.disconnect();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          const ms = performance.now() - t0;
          // Long tasks are reported after they end: give the observer a moment.
          setTimeout(() => {
            tasks.disconnect();
            resolve({ ms, longest });
          }, 50);
        };
        channel.port2.postMessage(null);
      });
    });
    observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    // A change that draws nothing new would wait forever: give up after 60 s.
    setTimeout(() => resolve({ ms: NaN, longest }), 60000);
    t0 = performance.now();
    change();
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);

const server = await startServer(DIST);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
const rows = [];
try {
  for (const [label, bytes] of SIZES) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(server.url);
    await page.locator('[data-testid=doc-input]').waitFor();
    await page.locator('[data-testid=size-input]').fill('400');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=chunk]').length > 0);
    const loads = [];
    for (let run = 0; run < Math.min(RUNS, 3); run++) {
      // The text area's value is not an attribute: the first change under
      // .results is the new split being drawn.
      const { ms } = await page.evaluate(
        ([setText, timeRepaint, bytes, run]) => {
          const set = new Function(`return (${setText})`)();
          const time = new Function(`return (${timeRepaint})`)();
          return time(() => set(bytes, run));
        },
        [setText.toString(), timeRepaint.toString(), bytes, run],
      );
      loads.push(ms);
      await page.waitForTimeout(300);
    }
    const splits = [];
    const longest = [];
    for (let run = 0; run < RUNS; run++) {
      const size = String(400 + ((run + 1) % 2) * 7 + run);
      const r = await page.evaluate(
        ([timeRepaint, size]) => {
          const time = new Function(`return (${timeRepaint})`)();
          return time(() => {
            const input = document.querySelector('[data-testid=size-input]');
            input.value = size;
            input.dispatchEvent(new InputEvent('input', { bubbles: true }));
          });
        },
        [timeRepaint.toString(), size],
      );
      splits.push(r.ms);
      longest.push(r.longest);
      // Let deferred work (the determinism re-run) finish between runs.
      await page.waitForTimeout(bytes >= 1_000_000 ? 1500 : 300);
    }
    const counts = await page.evaluate(() => {
      const v = document.querySelector('[data-testid=document-view]');
      return `${v?.getAttribute('data-drawn') ?? document.querySelectorAll('[data-testid=chunk]').length} of ${
        v?.getAttribute('data-total') ?? '?'
      }`;
    });
    rows.push([label, fmt(median(loads)), fmt(median(splits)), fmt(median(longest)), counts]);
    console.error(`${label}: loads ${loads.map(fmt).join(', ')}; re-splits ${splits.map(fmt).join(', ')}`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}

console.log(`| document | load (paste → painted) | re-split (size → painted) | longest task | chunks drawn |`);
console.log(`| --- | --- | --- | --- | --- |`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
console.log(`\nMedian of ${RUNS} runs (load: ${Math.min(RUNS, 3)}), size 400 chars, recursive, headless Chromium.`);
