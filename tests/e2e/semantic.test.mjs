// The sentence and semantic views, pinned against the CLI on the same text and
// settings (`chunkscope --strategy sentence|semantic --size N --sep … --trace`,
// with the page's seed separators): the sentences and every doubtful stop, the
// distance curve, threshold and breakpoints, the live threshold slider, the
// four-strategy comparison and the late-chunking explainer; then screenshots at
// 390 and 1400 px, light and dark, with no horizontal overflow at 390 px.
import { e2e, assert, settle, configure, byTestId, waitForChunkSpans, waitForText, openApp, readChunks, waitForNoConfigError } from './harness.mjs';

const DR = 'Dr. Smith paid 3.14 euros, e.g. coins. Then he left.';
const TOPICS =
  'Cats purr. Cats nap all day. A cat naps in the sun. ' +
  'Tax forms are due in April. File the tax forms early. Tax offices close at noon.';

/** Every element with test id `id`, as its data-* attributes. */
const readAll = (page, id) =>
  page.evaluate(
    (id) => [...document.querySelectorAll(`[data-testid="${id}"]`)].map((el) => ({ ...el.dataset, text: el.textContent })),
    id,
  );

/** A double's IEEE 754 bits as 16 hex digits, as the page's `data-bits` writes them. */
function bitsOf(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, '0');
}


e2e('the sentence view draws the sentences and every doubtful stop with its reason, as the CLI lists them', async ({ page }) => {
  await configure(page, { text: DR, strategy: 'sentence', size: 40 });
  // chunkscope --strategy sentence --size 40 --sep '\p{sentence}' --sep '\n\n' --sep '\n' --sep '. ' --sep ' ' --sep '' --trace
  await waitForChunkSpans(page, [{ start: 0, end: 38 }, { start: 39, end: 52 }]);
  // The sentence view is drawn by the modes module, which may arrive after the chunks.
  const sentences = async () => (await readAll(page, 'sentence')).map(({ start, end }) => [Number(start), Number(end)]);
  await settle(page, sentences, [[0, 39], [39, 52]], 'the CLI\'s "sentences"');
  const stops = async () => (await readAll(page, 'sentence-stop')).map((s) => ({
    start: Number(s.start), end: Number(s.end), at: Number(s.at), ends: s.ends, reason: s.reason,
  }));
  // The CLI's "sentence_candidates": stop span, at, end, reason.
  await settle(page, stops, [
    { start: 2, end: 3, at: 4, ends: 'false', reason: 'abbreviation' },
    { start: 16, end: 17, at: 17, ends: 'false', reason: 'number' },
    { start: 28, end: 29, at: 29, ends: 'false', reason: 'abbreviation' },
    { start: 30, end: 31, at: 32, ends: 'false', reason: 'abbreviation' },
  ], 'the CLI\'s "sentence_candidates"');
  const reasons = await readAll(page, 'stop-reason');
  assert.equal(reasons.length, 4, 'one line per doubtful stop');
  assert.match(reasons[0].text, /^Dr\. at char 2: not a sentence end: abbreviation$/);
  assert.match(reasons[1].text, /not a sentence end: decimal or version number/);
  // A strategy without the sentence level has no sentence view.
  await byTestId(page, 'strategy-select').selectOption('recursive');
  await page.waitForFunction(() => !document.querySelector('[data-testid=sentence-view]'));
});

e2e('dialogue: a quoted question with its attribution is one sentence, and spaced guillemets stay with theirs', async ({ page }) => {
  // Worked by hand (char offsets): the "?" at 11 is followed by a closing quote
  // and the lowercase "she" at 14, so no sentence ends there; "No!" before
  // the capital "He" does end one. In French, "»" after "non ! " closes it.
  const text = '"Is it done?" she asked. "No!" He left. Il a dit « non ! » et part. « Jamais ! » Fin.';
  await configure(page, { text, strategy: 'sentence', size: 30 });
  const read = async () => (await readAll(page, 'sentence')).map(({ start, end }) => [Number(start), Number(end)]);
  await settle(page, read, [[0, 25], [25, 31], [31, 40], [40, 68], [68, 81], [81, 85]], 'the sentences');
  const stops = (await readAll(page, 'sentence-stop')).map((s) => ({
    start: Number(s.start), end: Number(s.end), at: Number(s.at), ends: s.ends, reason: s.reason,
  }));
  assert.deepEqual(stops, [
    { start: 11, end: 12, at: 14, ends: 'false', reason: 'attribution' },
    { start: 55, end: 56, at: 59, ends: 'false', reason: 'attribution' },
  ]);
  const reasons = await readAll(page, 'stop-reason');
  assert.match(reasons[0].text, /not a sentence end: a quoted question or exclamation, then who said it/);
});

e2e('the semantic view draws the engine\'s curve, threshold and breakpoints; the slider re-splits live', async ({ page }) => {
  await configure(page, { text: TOPICS, strategy: 'semantic', size: 60 });
  // chunkscope --strategy semantic --size 60 --sep '\n\n' --sep '\n' --sep '. ' --sep ' ' --sep '' --trace:
  // LangChain's first chunk (0..79) is over 60 and split again by the separators.
  await waitForChunkSpans(page, [{ start: 0, end: 51 }, { start: 52, end: 79 }, { start: 80, end: 132 }]);
  const distances = [0.2163990958290184, 0.25443531790198015, 0.21797345766950804, 0.2801509165274473, 0.11883288152655358];
  await settle(page, async () => (await readAll(page, 'curve-point')).map((p) => p.bits), distances.map(bitsOf), 'trace.semantic.distances, bit for bit');
  const curve = byTestId(page, 'similarity-curve');
  assert.equal(await curve.getAttribute('data-count'), '5');
  assert.equal(await curve.getAttribute('data-kind'), 'distance');
  assert.equal(await curve.getAttribute('data-breakpoints'), '1');
  assert.equal(await byTestId(page, 'threshold-line').getAttribute('data-bits'), bitsOf(0.2750077968023539));
  assert.equal(await byTestId(page, 'threshold-line').getAttribute('data-value'), '0.275008');
  const marks = await readAll(page, 'breakpoint');
  assert.deepEqual(
    marks.map(({ index, bits, chunk }) => ({ index, bits, chunk })),
    [{ index: '3', bits: bitsOf(0.2801509165274473), chunk: '1' }],
    'trace.semantic.breakpoints, each with the last output chunk of the LangChain chunk it ends',
  );
  const cost = byTestId(page, 'semantic-cost');
  assert.deepEqual(
    [await cost.getAttribute('data-calls'), await cost.getAttribute('data-vectors'), await cost.getAttribute('data-dims')],
    ['1', '6', '22'],
    'embedding_calls, vectors, dims',
  );
  // The time the worker took: whole milliseconds, said in the cost line.
  const ms = await byTestId(page, 'semantic-time').getAttribute('data-ms');
  assert.match(ms, /^\d+$/, 'whole milliseconds');
  assert.match(await byTestId(page, 'semantic-time').textContent(), new RegExp(`Time: ${ms} ms in the worker`));
  // A breakpoint is linked to its chunk: clicking it shows that chunk's details.
  await byTestId(page, 'breakpoint').click();
  await waitForText(page, byTestId(page, 'chunk-details'), /Chunk 1\b/, 'the chunk the breakpoint ends');

  // The comparison: each strategy's own split of the same text and settings.
  const rows = async () => (await readAll(page, 'comparison-row')).map((r) => [
    r.strategy, r.chunks, r.min, r.median, r.max, r.cutCalls, r.cutVectors,
  ]);
  await settle(page, rows, [
    ['fixed', '3', '12', '60', '60', '0', '0'],
    ['recursive', '3', '26', '51', '53', '0', '0'],
    ['sentence', '3', '26', '51', '53', '0', '0'],
    ['semantic', '3', '27', '51', '52', '1', '6'],
    ['late', '', '', '', '', '', ''],
  ], 'the comparison rows');
  await waitForText(page, byTestId(page, 'late-static'), /late equals naive/, 'the static-model note');
  // Seed 001's "ideal use case" column, for every row, and when to choose.
  const ideal = await page.$$eval('[data-testid=comparison-row] td:last-child', (cells) => cells.map((c) => c.textContent));
  assert.equal(ideal.length, 5);
  for (const text of ideal) assert.ok(text.length > 20, `an ideal use for every strategy: ${JSON.stringify(ideal)}`);
  assert.match(await byTestId(page, 'comparison-choose').innerText(), /start with recursive separators/);
  // Seed 001's table calls \n the sentence separator: the card says it is wrong.
  const correction = byTestId(page, 'lesson-correction');
  assert.equal(await correction.getAttribute('data-seed'), '001');
  assert.match(await correction.innerText(), /The lesson's table is wrong here/);
  assert.match(await correction.innerText(), /A \\n is a line break, not a sentence end/);

  // The slider, moved to 50: --amount 50 gives breakpoints [1, 3].
  await byTestId(page, 'threshold-slider').evaluate((el) => {
    el.value = '50';
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await waitForChunkSpans(page, [{ start: 0, end: 28 }, { start: 29, end: 79 }, { start: 80, end: 132 }]);
  await settle(page, async () => (await readAll(page, 'breakpoint')).map((m) => [m.index, m.chunk]), [['1', '0'], ['3', '1']], 'breakpoints at 50');
  assert.equal(await byTestId(page, 'threshold-line').getAttribute('data-bits'), bitsOf(0.21797345766950804));
  assert.equal(await byTestId(page, 'threshold-amount').inputValue(), '50');

  // Another kind starts at its default amount; a bad amount says why.
  await byTestId(page, 'breakpoint-select').selectOption('standard_deviation');
  assert.equal(await byTestId(page, 'threshold-amount').inputValue(), '3');
  await byTestId(page, 'threshold-amount').fill('');
  await waitForText(page, byTestId(page, 'config-error'), /threshold amount must be a number/, 'an empty amount');
});

e2e('switching to semantic with an overlap on screen gives its chunks: the overlap is left out, said so, and kept for the others', async ({ page }) => {
  // The semantic split with no overlap, as the page draws it, is the answer.
  await configure(page, { text: TOPICS, size: 60, overlap: 0 });
  await configure(page, { strategy: 'semantic' });
  await byTestId(page, 'similarity-curve').waitFor({ state: 'visible' });
  const alone = (await readChunks(page)).map(({ start, end }) => ({ start, end }));
  assert.ok(alone.length >= 2, `the topics split into several chunks, got ${JSON.stringify(alone)}`);
  // The engineer's path: recursive with overlap 20, then semantic.
  await configure(page, { strategy: 'recursive', overlap: 20 });
  await waitForNoConfigError(page, 'recursive takes overlap 20');
  assert.equal(await byTestId(page, 'overlap-unused').count(), 0);
  await configure(page, { strategy: 'semantic' });
  await waitForChunkSpans(page, alone);
  await waitForNoConfigError(page, 'semantic with overlap 20 on screen');
  assert.equal(await byTestId(page, 'overlap-input').inputValue(), '20', 'the overlap field keeps its number');
  await waitForText(page, byTestId(page, 'overlap-unused'), /never overlap/, 'the note on the overlap');
  // Back to recursive: the overlap applies again.
  await configure(page, { strategy: 'recursive' });
  await waitForNoConfigError(page, 'recursive again');
  assert.equal(await byTestId(page, 'overlap-unused').count(), 0);
  // Typed while semantic is on screen, an overlap changes nothing there.
  await configure(page, { strategy: 'semantic' });
  await configure(page, { overlap: 35 });
  await waitForChunkSpans(page, alone);
  await waitForNoConfigError(page, 'semantic with overlap 35 typed');
});

e2e('a share link carries the semantic threshold kind, amount and buffer', async ({ page }) => {
  await configure(page, { text: TOPICS, strategy: 'semantic', size: 60 });
  await waitForChunkSpans(page, [{ start: 0, end: 51 }, { start: 52, end: 79 }, { start: 80, end: 132 }]);
  await byTestId(page, 'threshold-slider').evaluate((el) => {
    el.value = '50';
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  // --amount 50, as in the test above.
  const at50 = [{ start: 0, end: 28 }, { start: 29, end: 79 }, { start: 80, end: 132 }];
  await waitForChunkSpans(page, at50);
  await byTestId(page, 'share-link').click();
  await page.waitForFunction(() => location.hash.startsWith('#s='));
  const link = page.url();
  await page.goto('about:blank');
  await openApp(page, link);
  await waitForChunkSpans(page, at50);
  assert.equal(await byTestId(page, 'threshold-amount').inputValue(), '50');
  assert.equal(await byTestId(page, 'breakpoint-select').inputValue(), 'percentile');
  assert.equal(await byTestId(page, 'buffer-input').inputValue(), '1');
});

const WIDTHS = [1400, 390];

e2e(
  'sentence and semantic views: screenshots at 1400 and 390 px, light and dark; no overflow at 390 px',
  async ({ page, shot }) => {
    const problems = [];
    for (const [name, cfg] of [
      ['sentence', { text: DR + ' Version 2.0.1 is out… it works. See https://example.com/a.b for more.', strategy: 'sentence', size: 40 }],
      ['semantic', { text: TOPICS, strategy: 'semantic', size: 60 }],
    ]) {
      await configure(page, cfg);
      await byTestId(page, name === 'sentence' ? 'sentence-view' : 'similarity-curve').waitFor();
      for (const colorScheme of ['light', 'dark']) {
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 900 });
          await page.emulateMedia({ colorScheme });
          await byTestId(page, `${name}-view`).evaluate((el) => el.scrollIntoView({ block: 'start' }));
          // Two frames, so the shot is of the page laid out at this width.
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          await shot(`${name}-${width}-${colorScheme}`, { fullPage: false });
          if (width === 390) {
            const wide = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
            if (wide > 1) problems.push(`${name} at 390 px, ${colorScheme}: ${wide}px too wide`);
          }
        }
      }
    }
    assert.deepEqual(problems, []);
  },
  { finalShot: false, timeout: 90000 },
);
