// How fast the page splits and repaints big documents, and how busy its main
// thread gets, measured in headless Chromium on the built site (dist/). A script
// run by hand, not a test: speed depends on the machine, so the test suite
// checks behaviour and this prints numbers for docs/performance.md.
//
//   ./x build && node tests/e2e/timing.mjs [runs] [document]
//
// (`document`, such as "10 MB", measures that size alone.)
//
// For documents of 100 KB, 1 MB and 10 MB of prose-like text (generated from a
// fixed seed before the clock starts, so every run splits the same text), at
// size 400 with the recursive splitter, it measures:
//   - paste: from putting the text into doc-input (as a paste does) to the
//     first paint of its chunks;
//   - open: the same from choosing the text as a file in doc-file;
//   - size change: from a new size to the paint of the new chunks;
//   - longest task: the longest stretch the main thread was busy while the
//     size was edited (its last digit deleted, another typed 150 ms later) and
//     until every answer (the determinism re-run included) was in: what a
//     learner typing or scrolling then feels;
//   - decode: the longest time the main thread spent reading one of the
//     worker's binary reports (the page marks it in the performance timeline);
//     the drawing of it comes in a task of its own.
// Then, for the 10 MB document, what the same report costs as a plain object
// (the JS API's default encoding) against the binary one, both through the
// worker the page uses: the main thread's task when the answer arrives.
//
// Each is the median of `runs` (default 5; 3 for paste and open, each on a
// fresh page). "Painted" means: the DOM changed, a frame was produced
// (requestAnimationFrame) and the task after it ran, so style, layout and paint
// of the new chunks are included.
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './serve.mjs';

const RUNS = Number(process.argv[2] ?? 5);
const LOADS = Math.min(RUNS, 3);
const SIZES = [
  ['100 KB', 100_000],
  ['1 MB', 1_000_000],
  ['10 MB', 10_000_000],
].filter(([label]) => !process.argv[3] || label === process.argv[3]);
const CHROMIUM = process.env.CHUNKSCOPE_CHROMIUM ?? '/usr/bin/chromium';
const DIST = resolve(process.env.CHUNKSCOPE_DIST ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist'));
const SEED = ['\n\n', '\n', '. ', ' ', ''];

if (!existsSync(join(DIST, 'index.html'))) {
  console.error(`no ${join(DIST, 'index.html')}: build the site first with ./x build`);
  process.exit(1);
}

/**
 * Runs in the page (installed once per page): the helpers below, on `window`.
 * `prose(bytes, take)` is prose of `bytes` ASCII bytes from a fixed seed,
 * opening with `Take N.` so that each take draws a new first chunk.
 */
function install() {
  window.prose = (bytes, take) => {
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
    return `Take ${take}. ${parts.join('\n\n')}`.slice(0, bytes);
  };

  // Every long task and every answer taken, from now on.
  window.tasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.tasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const answers = () => performance.getEntriesByName('chunkscope: decode a report');
  const pending = () => !!document.querySelector('[data-testid=badge-determinism][data-pending]');
  const settled = async () => {
    // Until no answer is awaited (the determinism re-run included), then a
    // moment for long tasks to be reported.
    while (pending() || document.querySelector('[data-testid=splitting]')) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 100));
  };

  /**
   * Calls `change()`, then resolves with the milliseconds until the chunks it
   * causes are painted, the longest main-thread task from the change until
   * everything settled, and the longest answer taken meanwhile.
   */
  window.timeRepaint = (change) =>
    new Promise((resolve) => {
      const root = document.querySelector('.results');
      const firstAnswer = answers().length;
      let t0 = 0;
      const observer = new MutationObserver((records) => {
        // Only a change that draws chunks counts (not the "splitting" note).
        if (!records.some((r) => r.target.closest?.('[data-testid=document-view]') || [...r.addedNodes].some((n) => n.querySelector?.('[data-testid=chunk]')))) return;
        observer.disconnect();
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = async () => {
            const ms = performance.now() - t0;
            await settled();
            const longest = Math.max(0, ...window.tasks.filter((t) => t.start + t.ms >= t0).map((t) => t.ms));
            const answer = Math.max(0, ...answers().slice(firstAnswer).map((e) => e.duration));
            resolve({ ms, longest, answer });
          };
          channel.port2.postMessage(null);
        });
      });
      observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
      // A change that draws nothing new would wait forever: give up after 60 s.
      setTimeout(() => resolve({ ms: NaN, longest: NaN, answer: NaN }), 60000);
      t0 = performance.now();
      change();
    });

  /** Puts `text` into doc-input as a paste does. */
  window.paste = (text) => {
    const input = document.querySelector('[data-testid=doc-input]');
    input.value = text;
    input.dispatchEvent(new InputEvent('input', { bubbles: true }));
  };

  /** Chooses `text` as a file in doc-file. */
  window.openFile = (text) => {
    const input = document.querySelector('[data-testid=doc-file]');
    const files = new DataTransfer();
    files.items.add(new File([text], 'document.txt', { type: 'text/plain' }));
    input.files = files.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  };

  /** Sets the size field to `value`. */
  window.setSize = (value) => {
    const input = document.querySelector('[data-testid=size-input]');
    input.value = value;
    input.dispatchEvent(new InputEvent('input', { bubbles: true }));
  };

  /**
   * Edits the size field as a person does, one key every `gap` ms: the last
   * digit deleted, then `digit` typed in its place.
   */
  window.editSize = (digit, gap) => {
    const value = document.querySelector('[data-testid=size-input]').value;
    window.setSize(value.slice(0, -1));
    setTimeout(() => window.setSize(value.slice(0, -1) + digit), gap);
  };
}

const median = (xs) => {
  const s = [...xs].filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};
const max = (xs) => Math.max(...xs);
const fmt = (ms) => (Number.isNaN(ms) ? '—' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);

const server = await startServer(DIST);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});

/** A fresh page at size 400 with the lesson's separators, its helpers installed. */
async function freshPage() {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(server.url);
  await page.locator('[data-testid=doc-input]').waitFor();
  await page.locator('[data-testid=separator-preset-select]').selectOption('seed');
  await page.locator('[data-testid=size-input]').fill('400');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=chunk]').length > 0);
  await page.evaluate(`(${install})()`);
  return page;
}

/** Times `how` ('paste' or 'openFile') of `bytes` of prose, on a fresh page. */
async function load(how, bytes, take) {
  const page = await freshPage();
  // A build without doc-file (an older one, to compare with) cannot open files.
  if (how === 'openFile' && !(await page.locator('[data-testid=doc-file]').count())) {
    return { page, ms: NaN, longest: NaN, answer: NaN };
  }
  await page.evaluate(([bytes, take]) => {
    window.text = window.prose(bytes, take);
  }, [bytes, take]);
  const r = await page.evaluate((how) => window.timeRepaint(() => window[how](window.text)), how);
  return { page, ...r };
}

const rows = [];
try {
  for (const [label, bytes] of SIZES) {
    const pastes = [];
    const opens = [];
    let page = null;
    for (let run = 0; run < LOADS; run++) {
      const o = await load('openFile', bytes, run);
      opens.push(o.ms);
      await o.page.close();
      const r = await load('paste', bytes, run);
      pastes.push(r.ms);
      if (run < LOADS - 1) await r.page.close();
      else page = r.page;
    }
    const resplits = [];
    const answers = [];
    for (let run = 0; run < RUNS; run++) {
      const size = String(400 + ((run + 1) % 2) * 7 + run);
      const r = await page.evaluate((size) => window.timeRepaint(() => window.setSize(size)), size);
      resplits.push(r.ms);
      answers.push(r.answer);
    }
    const typing = [];
    for (let run = 0; run < RUNS; run++) {
      const r = await page.evaluate((digit) => window.timeRepaint(() => window.editSize(digit, 150)), String(run));
      typing.push(r.longest);
      answers.push(r.answer);
    }
    const counts = await page.evaluate(() => {
      const v = document.querySelector('[data-testid=document-view]');
      return `${v?.getAttribute('data-drawn')} of ${v?.getAttribute('data-total')}`;
    });
    rows.push([label, fmt(median(pastes)), fmt(median(opens)), fmt(median(resplits)), fmt(max(typing)), fmt(max(answers)), counts]);
    console.error(
      `${label}: paste ${pastes.map(fmt).join(', ')}; open ${opens.map(fmt).join(', ')}; ` +
        `size ${resplits.map(fmt).join(', ')}; longest while typing ${typing.map(fmt).join(', ')}; answers ${answers.map(fmt).join(', ')}`,
    );
    await page.close();
  }

  // The 10 MB report as a plain object and as the binary buffer, through the
  // worker the page uses: the main thread's task when it arrives.
  const page = await freshPage();
  const hasWorker = await page.evaluate(async () => (await fetch('./splitter-worker.js')).ok);
  const encodings = !hasWorker ? {} : await page.evaluate(async (separators) => {
    const text = window.prose(10_000_000, 9);
    const worker = new Worker('./splitter-worker.js');
    await new Promise((resolve) => {
      worker.onmessage = ({ data }) => data.ready && resolve();
    });
    const out = {};
    for (const encoding of ['object', 'binary', 'object', 'binary']) {
      const t0 = performance.now();
      const arrived = await new Promise((resolve) => {
        worker.onmessage = ({ data }) => resolve({ at: performance.now(), data });
        worker.postMessage({ id: 1, text, config: { size: 400, separators }, detail: 'trace', encoding });
      });
      await new Promise((r) => setTimeout(r, 200));
      const task = Math.max(0, ...window.tasks.filter((t) => t.start >= t0).map((t) => t.ms));
      const size =
        encoding === 'binary' ? arrived.data.report.byteLength : JSON.stringify(arrived.data.report).length;
      let parse = NaN;
      if (encoding === 'object') {
        const json = JSON.stringify(arrived.data.report);
        const p0 = performance.now();
        JSON.parse(json);
        parse = performance.now() - p0;
      }
      out[encoding] = { total: arrived.at - t0, task, size, parse, chunks: arrived.data.report.chunks?.length };
    }
    worker.terminate();
    return out;
  }, SEED);
  console.log(`| document | paste → chunks painted | open file → chunks painted | size change → repainted | longest main-thread task while editing the size | longest report decode | chunks drawn |`);
  console.log(`| --- | --- | --- | --- | --- | --- | --- |`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log(`\nMedian of ${RUNS} runs (paste and open: ${LOADS}, each on a fresh page); longest task and answer: the worst of all runs. Size 400 chars, recursive, headless Chromium.`);
  console.log(`\nThe 10 MB report through the worker (request → answer; the main thread's longest task meanwhile):`);
  for (const [encoding, r] of Object.entries(encodings)) {
    console.log(
      `  ${encoding}: ${fmt(r.total)} in all, main-thread task ${fmt(r.task)}, ${(r.size / 1e6).toFixed(1)} MB` +
        (Number.isNaN(r.parse) ? '' : `, JSON.parse of it ${fmt(r.parse)} (${r.chunks} chunks)`),
    );
  }
} finally {
  await browser.close();
  await server.close();
}
