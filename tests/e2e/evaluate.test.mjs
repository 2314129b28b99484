// Evaluate mode: configurations compared by retrieval metrics, the questions
// with where their answers were retrieved, import/export, authoring, the
// sweep and share links. The metrics are pinned to what the CLI prints for
// the same configuration:
//   chunkscope eval --questions eval/questions/article.jsonl --top-k 3 --size 200 web/src/presets/article.txt
//   chunkscope eval --questions eval/questions/article.jsonl --top-k 3 --strategy fixed --size 200 --overlap 20 web/src/presets/article.txt
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { e2e, assert, byTestId, ROOT } from './harness.mjs';

const TIMEOUT = 20000;

const read = (path) => readFile(join(ROOT, path), 'utf8');
const lines = (jsonl) => jsonl.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

/** What `chunkscope eval` prints for the article set at top-k 3 (mean and index). */
const CLI = {
  recursive200: {
    recall: 0.8197367995602549,
    precision: 0.12420402829043507,
    iou: 0.12276576462274341,
    whole: 0.7692307692307693,
    fragments: 1.2307692307692308,
    chunks: 60,
    units: 10083,
  },
  fixed200_20: {
    recall: 0.6326549542519341,
    precision: 0.09606227106227107,
    iou: 0.09415364720072611,
    whole: 0.5384615384615384,
    fragments: 1.6153846153846154,
    chunks: 57,
    units: 11290,
  },
};
/** The CLI's retrieved chunks (start) for the article's first question, recursive 200. */
const FIRST_QUESTION_STARTS = [196, 4439, 7478];

/** Selects question `i` (its answer and retrieved chunks are drawn over the text). */
async function selectQuestion(page, i) {
  const button = byTestId(page, 'eval-question').nth(i).locator('button.eval-q');
  await button.click();
  await page.waitForFunction((i) => document.querySelectorAll('[data-testid=eval-question] button.eval-q')[i]?.getAttribute('aria-pressed') === 'true', i, { timeout: TIMEOUT });
}

async function openEvaluate(page) {
  await byTestId(page, 'mode-select').selectOption('evaluate');
  await byTestId(page, 'eval-page').waitFor({ state: 'visible', timeout: TIMEOUT });
}

/** Waits until there are `n` rows and none is waiting for the worker. */
async function settled(page, n) {
  await page.waitForFunction(
    (n) => {
      const rows = [...document.querySelectorAll('[data-testid=eval-row]')];
      const questions = document.querySelectorAll('[data-testid=eval-question]').length;
      return questions > 0 && rows.length === n && rows.every((r) => r.dataset.state !== 'waiting');
    },
    n,
    { timeout: TIMEOUT },
  );
}

/** Every row: its config id, state and metric values (numbers). */
const readRows = (page) =>
  page.$$eval('[data-testid=eval-row]', (rows) =>
    rows.map((r) => ({
      config: r.dataset.config,
      state: r.dataset.state,
      metrics: Object.fromEntries([...r.querySelectorAll('[data-metric]')].map((td) => [td.dataset.metric, Number(td.dataset.value)])),
      best: [...r.querySelectorAll('[data-best=true]')].map((td) => td.dataset.metric),
    })),
  );

async function setRow(page, index, { strategy, size, overlap, separators }) {
  const row = byTestId(page, 'eval-row').nth(index);
  if (strategy) await row.locator('[data-testid=eval-strategy]').selectOption(strategy);
  if (separators) await row.locator('[data-testid=eval-separators]').selectOption(separators);
  if (size !== undefined) await row.locator('[data-testid=eval-size]').fill(String(size));
  if (size !== undefined) await row.locator('[data-testid=eval-size]').dispatchEvent('change');
  if (overlap !== undefined) await row.locator('[data-testid=eval-overlap]').fill(String(overlap));
  if (overlap !== undefined) await row.locator('[data-testid=eval-overlap]').dispatchEvent('change');
}

/** The article set at top-k 3: recursive 200/0 (default separators) beside fixed 200/20. */
async function articleSetup(page) {
  await openEvaluate(page);
  await byTestId(page, 'eval-set').selectOption('article');
  await byTestId(page, 'eval-top-k').selectOption('3');
  await setRow(page, 0, { strategy: 'recursive', separators: 'default', size: 200, overlap: 0 });
  await setRow(page, 1, { strategy: 'fixed', size: 200, overlap: 20 });
  await settled(page, 2);
}

e2e('mode-select has evaluate; the refund set loads with its shipped questions and two configurations', async ({ page }) => {
  const values = await page.$$eval('[data-testid=mode-select] option', (o) => o.map((x) => x.value));
  assert.ok(values.includes('evaluate'), `mode-select offers evaluate: ${values}`);
  await openEvaluate(page);
  assert.equal(await byTestId(page, 'doc-input').isVisible(), false, 'the playground is hidden');
  assert.deepEqual(await page.$$eval('[data-testid=eval-set] option', (o) => o.map((x) => x.value)), ['refund', 'markdown', 'article']);
  const refund = lines(await read('eval/questions/refund.jsonl'));
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=eval-question]').length === n, refund.length, { timeout: TIMEOUT });
  await settled(page, 2);
  const rows = await readRows(page);
  assert.deepEqual(rows.map((r) => r.state), ['done', 'done']);
  for (const r of rows) {
    assert.deepEqual(Object.keys(r.metrics), ['recall', 'precision', 'iou', 'whole', 'fragments', 'chunks', 'units']);
    for (const m of ['recall', 'precision', 'iou', 'whole']) assert.ok(r.metrics[m] >= 0 && r.metrics[m] <= 1, `${m} ${r.metrics[m]}`);
  }
  // The questions, in file order, each with a mark per configuration.
  const questions = await page.$$eval('[data-testid=eval-question]', (qs) =>
    qs.map((q) => ({ doc: q.dataset.doc, start: +q.dataset.start, end: +q.dataset.end, hits: q.querySelectorAll('[data-testid=eval-hit]').length })),
  );
  assert.deepEqual(
    questions,
    refund.map((q) => ({ doc: q.doc, start: q.answers[0].start, end: q.answers[0].end, hits: 2 })),
  );
  // Each set loads its own document and questions.
  for (const set of ['markdown', 'article']) {
    await byTestId(page, 'eval-set').selectOption(set);
    const shipped = lines(await read(`eval/questions/${set}.jsonl`));
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=eval-question]').length === n, shipped.length, { timeout: TIMEOUT });
    await settled(page, 2);
  }
});

e2e('the page gives the CLI metrics exactly (article, top-k 3), best values marked, BM25 shown', async ({ page }) => {
  await articleSetup(page);
  const rows = await readRows(page);
  assert.deepEqual(rows[0].metrics, CLI.recursive200, 'recursive 200/0 = chunkscope eval --size 200');
  assert.deepEqual(rows[1].metrics, CLI.fixed200_20, 'fixed 200/20 = chunkscope eval --strategy fixed --size 200 --overlap 20');
  assert.deepEqual(rows[0].best, ['recall', 'precision', 'iou', 'whole', 'fragments', 'units']);
  assert.deepEqual(rows[1].best, ['chunks']);
  const bm25 = byTestId(page, 'eval-bm25');
  assert.equal(await bm25.getAttribute('data-k1'), '1.2');
  assert.equal(await bm25.getAttribute('data-b'), '0.75');
  // Where the first question's answer was retrieved, drawn over the text.
  await selectQuestion(page, 0);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=eval-retrieved]').length === 3, null, { timeout: TIMEOUT });
  const retrieved = await page.$$eval('[data-testid=eval-retrieved]', (r) => r.map((x) => ({ rank: +x.dataset.rank, start: +x.dataset.start })));
  assert.deepEqual(retrieved.map((r) => r.start), FIRST_QUESTION_STARTS);
  const first = byTestId(page, 'eval-question').first();
  const hit = first.locator('[data-testid=eval-hit][data-config="0"]');
  assert.equal(await hit.getAttribute('data-hit'), 'true');
  assert.equal(await hit.getAttribute('data-rank'), '1');
  const article = lines(await read('eval/questions/article.jsonl'));
  const answer = await page.$$eval('[data-testid=eval-text] [data-answer=true]', (s) => s.map((x) => x.textContent).join(''));
  assert.equal(answer, article[0].answers[0].text, 'the answer is drawn where it is');
  const shaded = await page.$$eval('[data-testid=eval-text] [data-retrieved]', (s) => s.length);
  assert.ok(shaded > 0, 'retrieved chunks are shaded');
  // Removing and adding configurations.
  await byTestId(page, 'eval-add-config').click();
  await settled(page, 3);
  assert.deepEqual((await readRows(page))[2].metrics, CLI.fixed200_20, 'a new row copies the last one');
  await byTestId(page, 'eval-row').nth(1).locator('[data-testid=eval-remove]').click();
  await settled(page, 2);
  assert.deepEqual((await readRows(page)).map((r) => r.config), ['0', '2']);
});

e2e('a configuration counted in cl100k tokens is evaluated as the CLI evaluates it', async ({ page }) => {
  // chunkscope eval --questions eval/questions/article.jsonl --top-k 3 --size 60 --unit cl100k web/src/presets/article.txt
  const cl100k60 = {
    recall: 0.8901466745503442,
    precision: 0.09191161770170193,
    iou: 0.09168889649347253,
    whole: 0.8461538461538461,
    fragments: 1.1538461538461537,
    chunks: 54,
    units: 2031,
  };
  await articleSetup(page);
  const units = await byTestId(page, 'eval-row').nth(0).locator('[data-testid=eval-unit] option').evaluateAll((o) => o.map((x) => x.value));
  assert.deepEqual(units, ['chars', 'bytes', 'cl100k', 'o200k']);
  await byTestId(page, 'eval-row').nth(0).locator('[data-testid=eval-unit]').selectOption('cl100k');
  await setRow(page, 0, { size: 60 });
  // The tables are fetched for the module's worker first; then the row is answered.
  await page.waitForFunction(
    () => {
      const row = document.querySelectorAll('[data-testid=eval-row]')[0];
      return row?.dataset.state === 'done' && row.querySelector('[data-metric=units]')?.dataset.value === '2031';
    },
    null,
    { timeout: TIMEOUT },
  );
  const rows = await readRows(page);
  assert.deepEqual(rows[0].metrics, cl100k60, 'recursive 60 cl100k = chunkscope eval --size 60 --unit cl100k');
  assert.deepEqual(rows[1].metrics, CLI.fixed200_20, 'the other row is unchanged');
});

e2e('a bad size fails its row only, with the reason', async ({ page }) => {
  await openEvaluate(page);
  await settled(page, 2);
  await setRow(page, 1, { size: 0 });
  await settled(page, 2);
  const rows = await readRows(page);
  assert.deepEqual(rows.map((r) => r.state), ['done', 'failed']);
  const why = await byTestId(page, 'eval-row').nth(1).locator('[data-testid=eval-row-error]').innerText();
  assert.match(why, /size/);
});

e2e('questions: import with line-numbered errors (nothing lost), export as JSONL, metrics as CSV', async ({ page }) => {
  await articleSetup(page);
  const article = lines(await read('eval/questions/article.jsonl'));
  const count = () => page.$$eval('[data-testid=eval-question]', (q) => q.length);
  const bad = JSON.stringify(article[0]) + '\n{"question": "no doc"}\n';
  await byTestId(page, 'eval-import').setInputFiles({ name: 'bad.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(bad) });
  const error = byTestId(page, 'eval-import-error');
  await error.waitFor({ timeout: TIMEOUT });
  assert.match(await error.innerText(), /bad\.jsonl: line 2: "doc" is missing/);
  assert.equal(await count(), article.length, 'the questions before the import are kept');
  const outside = JSON.stringify({ question: 'far', doc: 'article.txt', answers: [{ start: 99990, end: 99999 }] }) + '\n';
  await byTestId(page, 'eval-import').setInputFiles({ name: 'outside.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(outside) });
  await page.waitForFunction(() => /outside\.jsonl: line 1: .*outside article\.txt/.test(document.querySelector('[data-testid=eval-import-error]')?.textContent ?? ''), null, { timeout: TIMEOUT });
  // A good file of two questions replaces them.
  const two = article.slice(0, 2).map((q) => JSON.stringify(q)).join('\n') + '\n';
  await byTestId(page, 'eval-import').setInputFiles({ name: 'two.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(two) });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=eval-question]').length === 2, null, { timeout: TIMEOUT });
  assert.equal(await byTestId(page, 'eval-import-error').count(), 0);
  await settled(page, 2);
  const [download] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'eval-export-questions').click()]);
  assert.equal(download.suggestedFilename(), 'questions.jsonl');
  const exported = lines(await readFile(await download.path(), 'utf8'));
  assert.deepEqual(exported, article.slice(0, 2), 'exported as imported, answer texts included');
  const [csv] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'eval-export-csv').click()]);
  const table = (await readFile(await csv.path(), 'utf8')).trim().split('\n');
  assert.equal(table[0], 'strategy,size,overlap,unit,separators,top_k,recall,precision,iou,whole,fragments,chunks,units_embedded,error');
  const rows = await readRows(page);
  assert.equal(table.length, 3);
  const cells = table[1].split(',');
  assert.deepEqual(cells.slice(0, 6), ['recursive', '200', '0', 'chars', 'default', '3']);
  assert.equal(Number(cells[6]), rows[0].metrics.recall);
  assert.equal(Number(cells[12]), rows[0].metrics.units);
});

e2e('a question written for an answer selected in the text is evaluated', async ({ page }) => {
  await openEvaluate(page);
  await settled(page, 2);
  const before = await page.$$eval('[data-testid=eval-question]', (q) => q.length);
  // Select "Contact us 24x7." (chars 98..114 of the refund page) in the text.
  await page.evaluate(() => {
    const view = document.querySelector('[data-testid=eval-text]');
    const span = [...view.querySelectorAll('[data-start]')].find((s) => +s.dataset.start <= 98 && +s.dataset.end >= 114);
    const node = span.firstChild;
    const range = document.createRange();
    range.setStart(node, 98 - +span.dataset.start);
    range.setEnd(node, 114 - +span.dataset.start);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    view.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
  });
  const draft = byTestId(page, 'eval-draft');
  await draft.waitFor({ timeout: TIMEOUT });
  assert.deepEqual([await draft.getAttribute('data-start'), await draft.getAttribute('data-end')], ['98', '114']);
  await byTestId(page, 'eval-new-question').fill('When can I reach support?');
  await byTestId(page, 'eval-add-question').click();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=eval-question]').length === n, before + 1, { timeout: TIMEOUT });
  await settled(page, 2);
  const last = byTestId(page, 'eval-question').last();
  assert.deepEqual([await last.getAttribute('data-start'), await last.getAttribute('data-end')], ['98', '114']);
  assert.equal(await last.locator('[data-testid=eval-hit]').count(), 2);
  const [download] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'eval-export-questions').click()]);
  const exported = lines(await readFile(await download.path(), 'utf8'));
  assert.deepEqual(exported.at(-1), { question: 'When can I reach support?', doc: 'refund.txt', answers: [{ start: 98, end: 114, text: 'Contact us 24x7.' }] });
});

/** Each configuration's recall on every question, in question order (eval-hit's data-recall). */
const recallsByConfig = (page) =>
  page.$$eval('[data-testid=eval-question]', (qs) => {
    const by = {};
    for (const q of qs) {
      for (const hit of q.querySelectorAll('[data-testid=eval-hit]')) (by[hit.dataset.config] ??= []).push(Number(hit.dataset.recall));
    }
    return by;
  });

/** The exact two-sided sign test, written here from its definition: 2 P(X ≤ min(w, l)), X ~ B(w + l, 1/2). */
function signTest(a, b) {
  const better = a.filter((x, i) => x > b[i]).length;
  const worse = a.filter((x, i) => x < b[i]).length;
  const n = better + worse;
  let choose = 1;
  let tail = 0;
  for (let i = 0; i <= Math.min(better, worse); i++) {
    tail += choose;
    choose = (choose * (n - i)) / (i + 1);
  }
  return { better, worse, equal: a.length - n, p: Math.min(1, (2 * tail) / 2 ** n) };
}

e2e('the verdict names the best recall against the next, and whether the difference is more than chance', async ({ page }) => {
  await articleSetup(page);
  const rows = await readRows(page);
  const by = await recallsByConfig(page);
  const [best, next] = [rows[0].config, rows[1].config]; // recursive 0.820 over fixed 0.633
  const want = signTest(by[best], by[next]);
  assert.equal(by[best].length, 13, 'the article set has 13 questions');
  const verdict = byTestId(page, 'eval-verdict');
  const got = await verdict.evaluate((el) => ({ ...el.dataset }));
  assert.deepEqual(
    { best: got.best, next: got.next, better: +got.better, worse: +got.worse, equal: +got.equal },
    { best, next, better: want.better, worse: want.worse, equal: want.equal },
  );
  assert.ok(Math.abs(Number(got.p) - want.p) < 1e-12, `p ${got.p} against ${want.p}`);
  const text = await verdict.innerText();
  assert.match(text, /^Best recall: recursive 200\/0 chars default \(0\.820\)\. Against the next, fixed 200\/20 chars default \(0\.633\)/);
  assert.match(text, want.p < 0.05 ? /unlikely to be noise/ : /may be noise; add questions before deciding/);
});

e2e('fewest chunks is not "best" for a configuration whose chunks outgrow its size', async ({ page }) => {
  await articleSetup(page);
  await setRow(page, 1, { strategy: 'langchain-markdown', size: 800 });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=eval-row]')[1]?.querySelector('[data-testid=eval-strategy]')?.value === 'langchain-markdown', null, { timeout: TIMEOUT });
  await settled(page, 2);
  const rows = await readRows(page);
  assert.ok(rows[1].metrics.chunks < rows[0].metrics.chunks, `langchain-markdown makes fewer chunks: ${rows[1].metrics.chunks} < ${rows[0].metrics.chunks}`);
  assert.ok(!rows[1].best.includes('chunks') && !rows[1].best.includes('units'), `its sections outgrow 800: no cost star (${rows[1].best})`);
  assert.ok(rows[0].best.includes('chunks'), `the fewest chunks within the size: ${rows[0].best}`);
});

e2e('the sweep: the table\'s configurations at 5 sizes and 3 overlaps, drawn as recall and IoU against size, one line each', async ({ page }) => {
  await openEvaluate(page);
  await settled(page, 2);
  await byTestId(page, 'sweep-start').click();
  const chart = byTestId(page, 'sweep-chart');
  await page.waitForFunction(() => document.querySelector('[data-testid=sweep-chart]')?.dataset.state === 'done', null, { timeout: TIMEOUT });
  // The refund set's two rows: recursive (the lesson's separators) and fixed.
  assert.equal(await chart.getAttribute('data-points'), '30');
  const progress = byTestId(page, 'sweep-progress');
  assert.deepEqual([await progress.getAttribute('data-done'), await progress.getAttribute('data-total')], ['30', '30']);
  const points = await page.$$eval('[data-testid=sweep-point]', (p) => p.map((c) => `${c.dataset.metric} ${c.dataset.line} ${c.dataset.strategy} ${c.dataset.unit} ${c.dataset.size} ${c.dataset.overlap}`));
  assert.equal(points.length, 2 * 2 * 5, 'overlap 0 drawn: 2 panels × 2 configurations × 5 sizes');
  assert.deepEqual(points.slice(0, 6), [
    'recall 0 recursive chars 128 0', 'recall 0 recursive chars 256 0', 'recall 0 recursive chars 512 0',
    'recall 0 recursive chars 1024 0', 'recall 0 recursive chars 2048 0', 'recall 1 fixed chars 128 0',
  ]);
  assert.deepEqual(await page.$$eval('[data-testid=sweep-chart] polyline', (l) => l.length), 4);
  assert.deepEqual(await page.$$eval('[data-testid=sweep-key]', (k) => k.map((x) => x.textContent)), ["recursive in chars, the lesson's list", 'fixed in chars']);
  await byTestId(page, 'sweep-overlap').selectOption('20');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=sweep-point]')].every((c) => c.dataset.overlap === '20'), null, { timeout: TIMEOUT });
  // The refund page is 114 chars: at every size of the sweep each
  // configuration makes one chunk, so every question is recalled whole at top-k 1.
  const recalls = await page.$$eval('[data-testid=sweep-point][data-metric=recall]', (p) => p.map((c) => +c.dataset.value));
  assert.deepEqual(recalls, Array(10).fill(1));
  // Each panel's axis runs to the smallest round value its points reach, so
  // small values (IoU here) do not lie flat along the bottom.
  const panels = await page.$$eval('[data-testid=sweep-panel]', (ps) =>
    ps.map((g) => ({
      metric: g.dataset.metric,
      top: +g.dataset.top,
      largest: Math.max(...[...document.querySelectorAll(`[data-testid=sweep-point][data-metric=${g.dataset.metric}]`)].map((c) => +c.dataset.value)),
    })),
  );
  const ROUND = [0.05, 0.1, 0.2, 0.25, 0.5, 1];
  for (const { metric, top, largest } of panels) {
    assert.equal(top, ROUND.find((r) => largest <= r) ?? 1, `${metric}: largest ${largest}`);
  }
  assert.deepEqual(panels.map((p) => p.metric), ['recall', 'iou']);
  assert.ok(panels[1].top < 1, `the IoU axis is scaled to its values: ${JSON.stringify(panels[1])}`);
});

/** A corpus of about 2 MB: the article (with its questions) and other texts. */
async function twoMegabytes() {
  const files = [{ name: 'article.txt', mimeType: 'text/plain', buffer: Buffer.from(await read('web/src/presets/article.txt')) }];
  const fillers = ['markdown.md', 'slack.txt', 'csv.txt', 'refund.txt', 'python.py', 'chinese.txt'];
  const texts = await Promise.all(fillers.map((f) => read(`web/src/presets/${f}`)));
  let bytes = files[0].buffer.length;
  for (let i = 0; bytes < 2_000_000; i++) {
    const text = texts[i % texts.length].repeat(20);
    files.push({ name: `part-${i}-${fillers[i % fillers.length]}`, mimeType: 'text/plain', buffer: Buffer.from(text) });
    bytes += Buffer.byteLength(text);
  }
  return { files, bytes };
}

e2e(
  'the default sweep over a 2 MB corpus of many files finishes, and a cancel stops it',
  async ({ page }) => {
    await openEvaluate(page);
    const { files, bytes } = await twoMegabytes();
    await byTestId(page, 'eval-files').setInputFiles(files);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=eval-doc]').length === n, files.length, { timeout: TIMEOUT });
    await byTestId(page, 'eval-import').setInputFiles({ name: 'article.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(await read('eval/questions/article.jsonl')) });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=eval-question]').length === 13, null, { timeout: TIMEOUT });
    await settled(page, 2);
    // A cancel stops it between two points.
    await byTestId(page, 'sweep-start').click();
    await page.waitForFunction(() => +document.querySelector('[data-testid=sweep-progress]')?.dataset.done >= 1, null, { timeout: 60000 });
    await byTestId(page, 'sweep-cancel').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=sweep-chart]')?.dataset.state === 'cancelled', null, { timeout: TIMEOUT });
    const stopped = await byTestId(page, 'sweep-progress').getAttribute('data-done');
    // The point in progress at the cancel still comes back from the worker.
    // The worker answers one message at a time, in order: once a row added
    // after the cancel has been evaluated, that answer has arrived too, and
    // it must not have been counted.
    await byTestId(page, 'eval-add-config').click();
    await settled(page, 3);
    assert.equal(await byTestId(page, 'sweep-progress').getAttribute('data-done'), stopped, 'nothing more arrives after a cancel');
    assert.ok(+stopped < 30);
    // The whole sweep, of the three configurations the table now has.
    await byTestId(page, 'sweep-start').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=sweep-chart]')?.dataset.state === 'done', null, { timeout: 120000 });
    assert.equal(await byTestId(page, 'sweep-chart').getAttribute('data-points'), '45');
    const ms = await byTestId(page, 'sweep-time').getAttribute('data-ms');
    console.log(`sweep of 45 configurations over ${files.length} files, ${bytes} bytes: ${ms} ms`);
  },
  { timeout: 240000 },
);

e2e('a share link reproduces the evaluation: set, top-k, configurations and written questions', async ({ page, url }) => {
  await articleSetup(page);
  // A question written here travels in the link.
  const two = (await read('eval/questions/article.jsonl')).split('\n').slice(0, 2).join('\n') + '\n';
  await byTestId(page, 'eval-import').setInputFiles({ name: 'two.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(two) });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=eval-question]').length === 2, null, { timeout: TIMEOUT });
  await settled(page, 2);
  const before = await readRows(page);
  await byTestId(page, 'eval-share').click();
  await byTestId(page, 'eval-share-note').waitFor({ timeout: TIMEOUT });
  const link = page.url();
  assert.match(link, /#e=/);
  const other = await page.context().newPage();
  await other.goto(link, { waitUntil: 'load' });
  await byTestId(other, 'eval-page').waitFor({ state: 'visible', timeout: TIMEOUT });
  assert.equal(await byTestId(other, 'mode-select').inputValue(), 'evaluate');
  assert.equal(await byTestId(other, 'eval-set').inputValue(), 'article');
  assert.equal(await byTestId(other, 'eval-top-k').inputValue(), '3');
  await other.waitForFunction(() => document.querySelectorAll('[data-testid=eval-question]').length === 2, null, { timeout: TIMEOUT });
  await settled(other, 2);
  const after = await readRows(other);
  assert.deepEqual(after.map((r) => r.metrics), before.map((r) => r.metrics));
  await other.close();
});

e2e(
  'screenshots at 390 and 1400 px, light and dark; nothing sticks out at 390 px',
  async ({ page, shot }) => {
    await articleSetup(page);
    await selectQuestion(page, 0);
    await byTestId(page, 'sweep-start').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=sweep-chart]')?.dataset.state === 'done', null, { timeout: 60000 });
    const problems = [];
    for (const colorScheme of ['light', 'dark']) {
      for (const width of [390, 1400]) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme });
        await shot(`evaluate-${width}-${colorScheme}`);
        const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (width === 390 && over > 0) problems.push(`${colorScheme}: ${over}px too wide`);
      }
    }
    assert.deepEqual(problems, []);
  },
  { finalShot: false, timeout: 120000 },
);
