// A corpus in explore mode: many files through `doc-file` (and dropped on
// the page), each a document split alone by the worker. The worker's numbers
// per document are checked against the explore view's own split of that
// document; the exports name each chunk's document, and every exported chunk
// lies inside its document (no chunk spans two). Also: evaluate mode offers
// every strategy, and the timing of a 50 MB corpus (logged, for docs/performance.md).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { e2e, assert, byTestId, configure, readChunks, parseChunks, charLen, charSlice } from './harness.mjs';

const TIMEOUT = 30000;

/** Three small documents: Markdown, text, code. */
const DOCS = [
  {
    name: 'guide.md',
    mimeType: 'text/markdown',
    text: '# Refunds\n\nRefunds take 5 days. They go to the original UPI id.\n\n## Cash\n\nCOD orders get store credit, never cash. Ask support if the credit does not show within a day.\n\n| plan | days |\n| --- | --- |\n| basic | 5 |\n| plus | 2 |\n',
  },
  {
    name: 'notes.txt',
    mimeType: 'text/plain',
    text: 'Chunking cuts a document into pieces that fit a retriever. Each piece should hold one idea.\n\nToo small and an answer is split across pieces; too big and the piece is mostly noise. Émile says the overlap helps — sometimes. 日本語の文も一つ。',
  },
  {
    name: 'split.py',
    mimeType: 'text/x-python',
    text: 'def windows(text, size, overlap):\n    """Fixed windows over text."""\n    step = size - overlap\n    out = []\n    for start in range(0, len(text), step):\n        out.append(text[start:start + size])\n        if start + size >= len(text):\n            break\n    return out\n',
  },
];

const files = (docs) => docs.map((d) => ({ name: d.name, mimeType: d.mimeType, buffer: Buffer.from(d.text) }));

/** Waits until `corpus-stats` says the worker answered for `n` documents. */
async function corpusDone(page, n) {
  await page.waitForFunction(
    (n) => {
      const s = document.querySelector('[data-testid=corpus-stats]');
      return s && s.dataset.state === 'done' && Number(s.dataset.documents) === n && document.querySelectorAll('[data-testid=corpus-doc][data-chunks]').length === n;
    },
    n,
    { timeout: TIMEOUT },
  );
}

const NUMBERS = ['chars', 'chunks', 'min', 'median', 'max', 'over'];

function readCorpus(page) {
  return page.evaluate((keys) => {
    const read = (el) => Object.fromEntries(keys.map((k) => [k, Number(el.getAttribute(`data-${k}`))]));
    const stats = document.querySelector('[data-testid=corpus-stats]');
    return {
      total: { documents: Number(stats.dataset.documents), ...read(stats) },
      docs: [...document.querySelectorAll('[data-testid=corpus-doc]')].map((el) => ({ name: el.dataset.name, shown: el.dataset.shown, ...read(el) })),
    };
  }, NUMBERS);
}

/** min / lower median / max / over of chunk lengths, computed here. */
function summary(lengths, size) {
  const sorted = [...lengths].sort((a, b) => a - b);
  const n = sorted.length;
  return {
    chunks: n,
    min: n ? sorted[0] : 0,
    median: n ? sorted[Math.floor((n - 1) / 2)] : 0,
    max: n ? sorted[n - 1] : 0,
    over: sorted.filter((l) => l > size).length,
  };
}

/** Waits until the explore view shows `text` split (all its chunks drawn). */
async function shownChunks(page, text) {
  await page.waitForFunction(
    (text) => {
      const input = document.querySelector('[data-testid=doc-input]');
      const view = document.querySelector('[data-testid=document-view]');
      return input && input.value === text && view && view.dataset.drawn === view.dataset.total && !document.querySelector('[data-testid=splitting]');
    },
    text,
    { timeout: TIMEOUT },
  );
  return parseChunks(await readChunks(page));
}

const SIZE = 60;

e2e('many files through doc-file become a corpus: each document split alone, its numbers the explore view’s, the whole corpus summed', async ({ page }) => {
  await configure(page, { strategy: 'recursive', separators: 'default', size: SIZE, overlap: 0 });
  await byTestId(page, 'doc-file').setInputFiles(files(DOCS));
  await corpusDone(page, DOCS.length);
  const corpus = await readCorpus(page);
  assert.deepEqual(corpus.docs.map((d) => d.name), DOCS.map((d) => d.name), 'one corpus-doc per file, in order');
  assert.equal(corpus.docs[0].shown, 'true', 'the first document is shown');
  const all = [];
  // The cuts of each document as its chunks in the explore view say (data-cut),
  // and those inside a word, counted here from the text.
  const cuts = {};
  let midWord = 0;
  const letter = /[\p{Alphabetic}\p{N}]/u;
  let compared = 0;
  for (const [i, doc] of DOCS.entries()) {
    await byTestId(page, 'corpus-doc').nth(i).locator('[data-testid=corpus-show]').click();
    const chunks = await shownChunks(page, doc.text);
    const lengths = chunks.map((c) => c.end - c.start);
    const chars = [...doc.text];
    for (const c of chunks.filter((c) => c.cut !== 'end')) {
      cuts[c.cut] = (cuts[c.cut] ?? 0) + 1;
      if (letter.test(chars[c.end - 1] ?? '') && letter.test(chars[c.end] ?? '')) midWord += 1;
    }
    for (const c of chunks) {
      assert.ok(c.end <= charLen(doc.text), `${doc.name}: chunk ${c.index} ends inside its document`);
      assert.equal(c.text, charSlice(doc.text, c.start, c.end));
    }
    all.push(...lengths);
    assert.deepEqual(
      { chars: corpus.docs[i].chars, ...summary(lengths, SIZE) },
      { chars: charLen(doc.text), chunks: corpus.docs[i].chunks, min: corpus.docs[i].min, median: corpus.docs[i].median, max: corpus.docs[i].max, over: corpus.docs[i].over },
      `${doc.name}: the worker's numbers are those of the document split alone`,
    );
    compared += 1;
    assert.equal((await readCorpus(page)).docs[i].shown, 'true');
  }
  assert.equal(compared, 3);
  const corpusCuts = await page.evaluate(() => {
    const line = document.querySelector('[data-testid=corpus-cuts]');
    return {
      by: Object.fromEntries([...line.querySelectorAll('[data-testid=corpus-cut]')].map((el) => [el.dataset.cut, Number(el.dataset.count)])),
      total: Number(line.dataset.total),
      midWord: Number(line.dataset.midWord),
    };
  });
  assert.deepEqual(
    corpusCuts,
    { by: cuts, total: Object.values(cuts).reduce((a, b) => a + b, 0), midWord },
    'corpus-cuts sums the cuts every document shows',
  );
  assert.ok(Object.keys(cuts).length >= 2, `more than one kind of cut to sum: ${JSON.stringify(cuts)}`);
  assert.deepEqual(corpus.total, {
    documents: 3,
    chars: DOCS.reduce((n, d) => n + charLen(d.text), 0),
    ...summary(all, SIZE),
  });
});

e2e('the exports carry each chunk’s doc, and no exported chunk spans two documents', async ({ page }) => {
  await configure(page, { strategy: 'recursive', separators: 'default', size: SIZE, overlap: 10 });
  await byTestId(page, 'doc-file').setInputFiles(files(DOCS));
  await corpusDone(page, DOCS.length);
  const corpus = await readCorpus(page);
  await byTestId(page, 'export-jsonl').waitFor({ timeout: TIMEOUT });
  const [jsonl] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'export-jsonl').click()]);
  const rows = (await readFile(await jsonl.path(), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const byName = Object.fromEntries(DOCS.map((d) => [d.name, d.text]));
  for (const [i, doc] of DOCS.entries()) {
    const mine = rows.filter((r) => r.doc === doc.name);
    assert.equal(mine.length, corpus.docs[i].chunks, `${doc.name}: its chunks, each naming it`);
    assert.deepEqual(mine.map((r) => r.index), mine.map((_, k) => k));
  }
  assert.equal(rows.length, corpus.total.chunks);
  for (const r of rows) {
    const text = byName[r.doc];
    assert.ok(text !== undefined, `a known doc: ${r.doc}`);
    assert.ok(r.start <= r.end && r.end <= charLen(text), `${r.doc} ${r.index}: inside its document`);
    assert.equal(r.text, charSlice(text, r.start, r.end));
  }
  const [csv] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'export-csv').click()]);
  const lines = (await readFile(await csv.path(), 'utf8')).split('\r\n').filter(Boolean);
  assert.match(lines[0], /^doc,index,text,start,end,len,unit,cut/);
  assert.ok(lines[1].startsWith('guide.md,0,'), lines[1]);
  assert.ok(lines.some((l) => l.startsWith('split.py,0,')));
});

e2e('files dropped on the page become a corpus; one file opened closes it; a long one still opens read-only', async ({ page }) => {
  await page.evaluate((docs) => {
    const data = new DataTransfer();
    for (const d of docs) data.items.add(new File([d.text], d.name, { type: 'text/plain' }));
    const app = document.querySelector('.app');
    app.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    app.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, DOCS.slice(0, 2));
  await corpusDone(page, 2);
  assert.deepEqual((await readCorpus(page)).docs.map((d) => d.name), ['guide.md', 'notes.txt']);
  const long = 'A line of a long file that goes on.\n'.repeat(60000); // 2.2 MB
  await byTestId(page, 'doc-file').setInputFiles({ name: 'long.txt', mimeType: 'text/plain', buffer: Buffer.from(long) });
  await byTestId(page, 'doc-readonly').waitFor({ timeout: TIMEOUT });
  assert.equal(await byTestId(page, 'corpus-doc').count(), 0, 'one file is the document, not a corpus');
  assert.equal(await byTestId(page, 'doc-readonly').getAttribute('data-bytes'), String(Buffer.byteLength(long)));
});

e2e('a corpus the settings cannot split names the document', async ({ page }) => {
  await configure(page, { strategy: 'recursive', unit: 'bytes', size: 3, overlap: 0 });
  await byTestId(page, 'doc-file').setInputFiles(files([DOCS[0], { name: 'emoji.txt', mimeType: 'text/plain', text: 'ok 😀😀' }]));
  const error = byTestId(page, 'corpus-error');
  await error.waitFor({ timeout: TIMEOUT });
  assert.match(await error.textContent(), /emoji\.txt/);
  assert.equal(await byTestId(page, 'corpus-stats').getAttribute('data-state'), 'failed');
});

/**
 * What `chunkscope eval --questions eval/questions/markdown.jsonl --top-k 1
 * --size 200 --strategy S web/src/presets/markdown.md` prints (mean and
 * index), with the row's `seed` separators (`--sep '\n\n' --sep '\n' --sep '. '
 * --sep ' ' --sep ''`, the sentence level first for `sentence`; none for
 * `langchain-markdown`, which takes its default header markers; semchunk,
 * chonkie-recursive, chonkie-token, chonkie-sentence, llamaindex-markdown and
 * the text-splitter strategies read none).
 */
const CLI_MARKDOWN_200 = {
  'langchain-markdown': { recall: 0.8181818181818182, precision: 0.25413624359271303, iou: 0.25413624359271303, whole: 1, fragments: 1, chunks: 7, units: 1673 },
  markdown: { recall: 0.6363636363636364, precision: 0.3079711857291914, iou: 0.3079711857291914, whole: 1, fragments: 1, chunks: 16, units: 1949 },
  sentence: { recall: 0.4578512396694215, precision: 0.1906335518053865, iou: 0.18974573499717168, whole: 0.9090909090909091, fragments: 1.0909090909090908, chunks: 13, units: 1959 },
  semantic: { recall: 0.5454545454545454, precision: 0.18613834270055693, iou: 0.18613834270055693, whole: 1, fragments: 1, chunks: 14, units: 1953 },
  semchunk: { recall: 0.5454545454545454, precision: 0.18591001788836525, iou: 0.18591001788836525, whole: 1, fragments: 1, chunks: 14, units: 1962 },
  'chonkie-recursive': { recall: 0.5454545454545454, precision: 0.21330980350932843, iou: 0.21330980350932843, whole: 1, fragments: 1, chunks: 13, units: 1986 },
  'chonkie-token': { recall: 0.627488293639164, precision: 0.19129032258064518, iou: 0.18373049043724687, whole: 0.5454545454545454, fragments: 1.4545454545454546, chunks: 10, units: 1986 },
  'chonkie-sentence': { recall: 0.5495867768595042, precision: 0.2182634382266732, iou: 0.21717088093504985, whole: 0.9090909090909091, fragments: 1.0909090909090908, chunks: 13, units: 1986 },
  'llamaindex-markdown': { recall: 0.9090909090909091, precision: 0.2150640431206373, iou: 0.2150640431206373, whole: 1, fragments: 1, chunks: 8, units: 1971 },
  'text-splitter': { recall: 0.6363636363636364, precision: 0.2379465830392287, iou: 0.2379465830392287, whole: 1, fragments: 1, chunks: 13, units: 1955 },
  'text-splitter-markdown': { recall: 0.6363636363636364, precision: 0.2959752101855029, iou: 0.2959752101855029, whole: 1, fragments: 1, chunks: 16, units: 1958 },
};

e2e('evaluate mode offers every strategy, and each evaluates as chunkscope eval does', async ({ page }) => {
  await byTestId(page, 'mode-select').selectOption('evaluate');
  await byTestId(page, 'eval-set').selectOption('markdown');
  const row = byTestId(page, 'eval-row').first();
  const offered = await row.locator('[data-testid=eval-strategy] option').evaluateAll((os) => os.map((o) => o.value));
  for (const s of ['fixed', 'recursive', 'sentence', 'markdown', 'langchain', 'langchain-character', 'langchain-markdown', 'semantic', 'semchunk', 'chonkie-recursive', 'chonkie-token', 'chonkie-sentence', 'llamaindex-sentence', 'llamaindex-token', 'llamaindex-markdown', 'text-splitter', 'text-splitter-markdown']) {
    assert.ok(offered.includes(s), `${s} is offered (${offered})`);
  }
  const values = {};
  for (const s of ['langchain-markdown', 'markdown', 'sentence', 'semantic', 'semchunk', 'chonkie-recursive', 'chonkie-token', 'chonkie-sentence', 'llamaindex-markdown', 'text-splitter', 'text-splitter-markdown']) {
    await row.locator('[data-testid=eval-size]').fill('200');
    await row.locator('[data-testid=eval-size]').dispatchEvent('change');
    await row.locator('[data-testid=eval-strategy]').selectOption(s);
    await page.waitForFunction(
      () => {
        const r = document.querySelector('[data-testid=eval-row]');
        return document.querySelectorAll('[data-testid=eval-question]').length > 0 && r.dataset.state !== 'waiting';
      },
      null,
      { timeout: TIMEOUT },
    );
    assert.equal(await row.getAttribute('data-state'), 'done', `${s} evaluates`);
    values[s] = Object.fromEntries(
      await row.locator('[data-metric]').evaluateAll((cells) => cells.map((c) => [c.dataset.metric, Number(c.dataset.value)])),
    );
  }
  assert.deepEqual(values, CLI_MARKDOWN_200);
});

e2e(
  'screenshots of a corpus at 390 and 1400 px, light and dark; nothing sticks out at 390 px',
  async ({ page, shot }) => {
    await byTestId(page, 'doc-file').setInputFiles(files(DOCS));
    await corpusDone(page, DOCS.length);
    const problems = [];
    for (const colorScheme of ['light', 'dark']) {
      for (const width of [390, 1400]) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme });
        await shot(`corpus-${width}-${colorScheme}`);
        // The panel itself, where a reviewer looks.
        await page.locator('section.corpus').scrollIntoViewIfNeeded();
        await shot(`corpus-panel-${width}-${colorScheme}`, { fullPage: false });
        const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (width === 390 && over > 0) problems.push(`${colorScheme}: ${over}px too wide`);
      }
    }
    assert.deepEqual(problems, []);
  },
  { finalShot: false },
);

/** About `bytes` of Markdown-ish text, different for each `seed`. */
function generated(seed, bytes) {
  const words = ['refund', 'policy', 'chunk', 'split', 'order', 'credit', 'window', 'overlap', 'retrieval', 'sentence', 'heading', 'table', 'größe', 'naïve', '文書'];
  let out = `# Document ${seed}\n\n`;
  let k = seed;
  while (out.length < bytes) {
    out += `## Section ${k}\n\n`;
    for (let p = 0; p < 4; p++) {
      let para = '';
      for (let w = 0; w < 60; w++) {
        k = (k * 1103515245 + 12345) % 2147483648;
        para += words[k % words.length] + (w % 12 === 11 ? '. ' : ' ');
      }
      out += para.trim() + '\n\n';
    }
  }
  return out;
}

e2e(
  '50 MB across 300 files: time to the corpus numbers and the longest main-thread task (logged)',
  async ({ page, t }) => {
    const dir = await mkdtemp(join(tmpdir(), 'chunkscope-corpus-'));
    try {
      const paths = [];
      let total = 0;
      for (let i = 0; i < 300; i++) {
        const text = generated(i + 1, 175000);
        total += Buffer.byteLength(text);
        const path = join(dir, `doc-${String(i).padStart(3, '0')}.md`);
        await writeFile(path, text);
        paths.push(path);
      }
      await configure(page, { strategy: 'recursive', separators: 'default', size: 400, overlap: 0 });
      await page.evaluate(() => {
        window.__tasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__tasks.push({ start: e.startTime, ms: e.duration });
        }).observe({ type: 'longtask', buffered: true });
        document.querySelector('[data-testid=doc-file]').addEventListener('change', () => (window.__t0 = performance.now()), { capture: true });
        new MutationObserver(() => {
          const s = document.querySelector('[data-testid=corpus-stats]');
          if (s && s.dataset.state === 'done' && !window.__t1) window.__t1 = performance.now();
        }).observe(document.body, { subtree: true, attributes: true, childList: true });
      });
      await byTestId(page, 'doc-file').setInputFiles(paths);
      await corpusDone(page, 300);
      // The first document's chunks follow the corpus in the worker.
      await page.waitForFunction(() => document.querySelector('[data-testid=document-view]') && !document.querySelector('[data-testid=splitting]'), null, { timeout: 60000 });
      const r = await page.evaluate(() => {
        const t2 = performance.now();
        const tasks = window.__tasks.filter((x) => x.start + x.ms >= window.__t0);
        return { stats: window.__t1 - window.__t0, shown: t2 - window.__t0, longest: Math.max(0, ...tasks.map((x) => x.ms)), over50: tasks.length, tasks: tasks.map((x) => `${Math.round(x.start - window.__t0)}+${Math.round(x.ms)}`).join(' ') };
      });
      const stats = await readCorpus(page);
      const line = `# corpus ${(total / 1e6).toFixed(1)} MB in 300 files, recursive 400: numbers after ${Math.round(r.stats)} ms, first document's chunks after ${Math.round(r.shown)} ms, longest main-thread task ${Math.round(r.longest)} ms (${r.over50} tasks over 50 ms: ${r.tasks}); ${stats.total.chunks} chunks`;
      console.log(line);
      t.diagnostic(line);
      assert.equal(stats.total.documents, 300);
      assert.equal(stats.total.chars, stats.docs.reduce((n, d) => n + d.chars, 0));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
  { timeout: 240000, finalShot: false },
);
