// A static model loaded from local files (model-file): a tiny model2vec
// model the test writes (tests/e2e/tiny-model.mjs), held in the worker and
// used by the semantic view instead of lexical similarity, pinned against
// the CLI on the same files (`chunkscope --strategy semantic --size 60
// --sep '\n\n' --sep '\n' --sep '. ' --sep ' ' --sep '' --embedder DIR
// --trace`); the cost line and the late-chunking explainer name it; a bad
// file is refused with the model before kept; model-clear returns to
// lexical similarity. Screenshots at 390 and 1400 px, light and dark.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { e2e, assert, configure, byTestId, waitForChunkSpans, waitForText, ROOT } from './harness.mjs';
import { model2vecFiles, gloveFile, safetensors, modelOf, VOCAB, row } from './tiny-model.mjs';

const TOPICS =
  'Cats purr. Cats nap all day. A cat naps in the sun. ' +
  'Tax forms are due in April. File the tax forms early. Tax offices close at noon.';
const LEXICAL = [{ start: 0, end: 51 }, { start: 52, end: 79 }, { start: 80, end: 132 }];
// The CLI with --embedder on the model2vec folder (and on the GloVe file: the same spans).
const WITH_MODEL = [{ start: 0, end: 28 }, { start: 29, end: 79 }, { start: 80, end: 132 }];
const DISTANCES = [0.01582467084775263, 0.07567575569214324, 0.04741793322798504, 0.06784349599072148, 3.6408105975827e-05];

function bitsOf(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, '0');
}

const dataOf = (page, id) => byTestId(page, id).evaluate((el) => ({ ...el.dataset, text: el.textContent }));

async function loadModel(page, files) {
  await byTestId(page, 'model-file').setInputFiles(files);
}

e2e('a model2vec model loaded from local files embeds the semantic split, as the CLI does with the same files', async ({ page }) => {
  await configure(page, { text: TOPICS, strategy: 'semantic', size: 60 });
  await waitForChunkSpans(page, LEXICAL);
  await waitForText(page, byTestId(page, 'semantic-embedder'), /lexical similarity/, 'lexical before a model');
  await loadModel(page, model2vecFiles());
  await byTestId(page, 'model-summary').waitFor();
  const summary = await dataOf(page, 'model-summary');
  assert.equal(summary.name, 'model.safetensors');
  assert.equal(summary.format, 'model2vec');
  assert.equal(summary.dims, '3');
  assert.equal(summary.vocab, String(VOCAB.length));
  await waitForChunkSpans(page, WITH_MODEL);
  const bits = await page.evaluate(() => [...document.querySelectorAll('[data-testid=curve-point]')].map((p) => p.dataset.bits));
  assert.deepEqual(bits, DISTANCES.map(bitsOf), 'trace.semantic.distances with the model, bit for bit');
  const kind = await byTestId(page, 'semantic-embedder').getAttribute('data-kind');
  assert.equal(kind, 'model');
  const cost = await dataOf(page, 'semantic-cost');
  assert.equal(cost.calls, '1');
  assert.equal(cost.vectors, '6');
  assert.equal(cost.dims, '3');
  assert.match(cost.text, /static model model\.safetensors \(model2vec, 25 WordPiece tokens, 3 dimensions\)/);
  // Late chunking with this model: its numbers, and why late equals naive.
  const late = await dataOf(page, 'late-static-model');
  assert.equal(late.dims, '3');
  assert.equal(late.vocab, '25');
  assert.match(late.text, /equal in all 3 dimensions \(difference 0\)/);
  assert.match(late.text, /instead of 3 calls/);

  // Unloading returns to lexical similarity and its chunks.
  await byTestId(page, 'model-clear').click();
  await waitForChunkSpans(page, LEXICAL);
  await page.waitForFunction(() => !document.querySelector('[data-testid=model-summary]'));
  assert.equal(await byTestId(page, 'semantic-embedder').getAttribute('data-kind'), 'lexical');
  assert.equal(await byTestId(page, 'late-static-model').count(), 0);
});

e2e('word vectors in the GloVe text format load too; a bad model is refused with its reason and the model before stays', async ({ page }) => {
  await configure(page, { text: TOPICS, strategy: 'semantic', size: 60 });
  await loadModel(page, [gloveFile()]);
  await byTestId(page, 'model-summary').waitFor();
  assert.equal((await dataOf(page, 'model-summary')).format, 'word vectors');
  await waitForChunkSpans(page, WITH_MODEL);

  const rows = VOCAB.map(row);
  const bad = [
    [[{ name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: safetensors(rows).subarray(0, 40) }, model2vecFiles()[1]], /model\.safetensors/],
    [[{ name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: safetensors(rows, { lie: 8 }) }, model2vecFiles()[1]], /the header lies/],
    [[{ name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: safetensors(rows, { dtype: 'I8' }) }, model2vecFiles()[1]], /only F32 and F16/],
    [[{ name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: safetensors(rows.slice(1)) }, model2vecFiles()[1]], /tokenizer\.json has 25 tokens but model\.safetensors has 24 vectors/],
    [[model2vecFiles()[0]], /needs its tokenizer\.json/],
    [[{ name: 'words.txt', mimeType: 'text/plain', buffer: Buffer.from('cat 1 0\ndog 1\n') }], /line 2 of the model file has 1 values/],
  ];
  for (const [files, why] of bad) {
    await loadModel(page, files);
    await waitForText(page, byTestId(page, 'model-error'), why, String(why));
    // Nothing lost: the GloVe model stays loaded and in use.
    assert.equal((await dataOf(page, 'model-summary')).format, 'word vectors');
  }
  await waitForChunkSpans(page, WITH_MODEL);
});

const EVAL_TIMEOUT = 20000;

/** Waits until every evaluation row has its result (or error). */
async function rowsSettled(page) {
  await page.waitForFunction(
    () => {
      const rows = [...document.querySelectorAll('[data-testid=eval-row]')];
      return rows.length > 0 && document.querySelectorAll('[data-testid=eval-question]').length > 0 && rows.every((r) => r.dataset.state !== 'waiting');
    },
    null,
    { timeout: EVAL_TIMEOUT },
  );
  return page.$$eval('[data-testid=eval-row]', (rows) =>
    rows.map((r) => ({
      state: r.dataset.state,
      metrics: Object.fromEntries([...r.querySelectorAll('[data-metric]')].map((td) => [td.dataset.metric, Number(td.dataset.value)])),
    })),
  );
}

e2e('evaluate mode retrieves by the loaded model beside BM25; a link says the results need the model', async ({ page }) => {
  const refund = await readFile(join(ROOT, 'web/src/presets/refund.txt'), 'utf8');
  await byTestId(page, 'mode-select').selectOption('evaluate');
  await byTestId(page, 'eval-page').waitFor({ state: 'visible', timeout: EVAL_TIMEOUT });
  const bm25 = await rowsSettled(page);
  // No model yet: choosing retrieval by a model says the results need one.
  await byTestId(page, 'eval-retriever').selectOption('model');
  await byTestId(page, 'eval-needs-model').waitFor({ timeout: EVAL_TIMEOUT });
  // Evaluate mode runs in its own worker, so it loads its own model: the
  // loader shown under the retriever.
  await loadModel(page, modelOf(refund));
  await byTestId(page, 'model-summary').waitFor({ timeout: EVAL_TIMEOUT });
  await byTestId(page, 'eval-model-retrieval').waitFor({ timeout: EVAL_TIMEOUT });
  assert.equal(await byTestId(page, 'eval-model-retrieval').getAttribute('data-model'), 'model.safetensors');
  const byModel = await rowsSettled(page);
  assert.equal(byModel.length, bm25.length);
  for (const row of byModel) {
    assert.equal(row.state, 'done');
    for (const m of ['recall', 'precision', 'iou']) assert.ok(row.metrics[m] >= 0 && row.metrics[m] <= 1, `${m} in [0, 1]`);
  }
  // The chunking's own measures do not depend on the retriever.
  assert.deepEqual(byModel.map((r) => r.metrics.whole), bm25.map((r) => r.metrics.whole));
  // The link carries the choice, never the model.
  await byTestId(page, 'eval-share').click();
  await byTestId(page, 'eval-share-note').waitFor({ timeout: EVAL_TIMEOUT });
  const link = page.url();
  const other = await page.context().newPage();
  await other.goto(link, { waitUntil: 'load' });
  await byTestId(other, 'eval-needs-model').waitFor({ timeout: EVAL_TIMEOUT });
  assert.equal(await byTestId(other, 'eval-retriever').inputValue(), 'model');
  assert.match(await byTestId(other, 'eval-needs-model').textContent(), /need the model/);
  await other.close();
});

const WIDTHS = [1400, 390];

e2e(
  'the semantic view with a model loaded: screenshots at 1400 and 390 px, light and dark; no overflow at 390 px',
  async ({ page, shot }) => {
    await configure(page, { text: TOPICS, strategy: 'semantic', size: 60 });
    await loadModel(page, model2vecFiles());
    await waitForChunkSpans(page, WITH_MODEL);
    const problems = [];
    for (const colorScheme of ['light', 'dark']) {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme });
        for (const [part, id] of [['view', 'model-panel'], ['late', 'late-chunking']]) {
          await byTestId(page, id).evaluate((el) => el.scrollIntoView({ block: 'start' }));
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          await shot(`model-${part}-${width}-${colorScheme}`, { fullPage: false });
        }
        if (width === 390) {
          const wide = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
          if (wide > 1) problems.push(`at 390 px, ${colorScheme}: ${wide}px too wide`);
        }
      }
    }
    assert.deepEqual(problems, []);
  },
  { finalShot: false, timeout: 90000 },
);
