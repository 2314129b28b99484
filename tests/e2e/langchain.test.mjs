// The LangChain strategies: LangChain's own chunks drawn over the source, its
// start_index beside the real start, its warnings, chunks whose text is not a
// slice of the source, the side-by-side view with our recursive splitter, the
// Python that gives the same chunks, and share links that bring all of it back.
import {
  e2e,
  assert,
  byTestId,
  configure,
  openApp,
  parseChunks,
  readChunks,
  readConfig,
  loadRefundAt40,
  waitForChunkSpans,
  waitForConfigError,
  waitForNoConfigError,
  waitForText,
  charSlice,
  SEED_CHUNKS,
} from './harness.mjs';
import { SALE, SALE_CHUNKS, SPACED, onlyRegexSeparator } from './langchain-fixtures.mjs';

/** The label of the selected option of a select, by test id. */
const selectedLabel = (page, testId) =>
  byTestId(page, testId).evaluate((el) => el.options[el.selectedIndex]?.textContent ?? '');

e2e('langchain on a repeated sentence: LangChain\'s chunks, and a start_index that lands on the earlier copy', async ({ page }) => {
  await configure(page, { text: SALE, separators: 'seed', strategy: 'langchain', size: 12, overlap: 11 });
  const chunks = parseChunks(await waitForChunkSpans(page, SALE_CHUNKS));
  chunks.forEach((c, i) => {
    assert.equal(c.text, charSlice(SALE, c.start, c.end), `chunk ${i}: its text is the source between its offsets`);
  });
  assert.deepEqual(
    chunks.map((c) => c.cut),
    ['\\n\\n', '\\n\\n', ' ', ' ', ' ', 'end'],
    'data-cut: the separator that ended each chunk',
  );
  const slices = await page.locator('[data-testid=chunk]').evaluateAll((els) => els.map((el) => el.dataset.slice));
  assert.deepEqual(slices, SALE_CHUNKS.map(() => 'true'), 'every chunk is a slice of the source');

  // LangChain's keep_separator default, under its own name.
  assert.equal(await byTestId(page, 'placement-select').inputValue(), 'start');
  assert.match(await selectedLabel(page, 'placement-select'), /keep_separator: "start"/);

  // The second "Sale today." starts at 13; str.find from the guessed offset finds 0.
  const flags = byTestId(page, 'start-index-mismatch');
  await flags.first().waitFor({ state: 'visible' });
  assert.equal(await flags.count(), 1, 'one chunk has a start_index that is not its start');
  assert.deepEqual(
    await flags.first().evaluate((el) => [el.dataset.index, el.dataset.start, el.dataset.startIndex]),
    ['1', '13', '0'],
  );
  await waitForText(page, byTestId(page, 'start-index-note'), /chunk 1 starts at 13; start_index is 0/, 'the note under the chunks');

  // Its details say why, and the table shows start_index beside every span.
  const details = byTestId(page, 'chunk-details');
  await page.locator('[data-testid=document-view] [data-testid=chunk][data-index="1"]').hover();
  const text = await waitForText(page, details, /Chunk 1\b/, 'details of chunk 1');
  assert.match(text, /0 in LangChain, but the chunk starts at 13/);
  assert.match(text, /str\.find/);
  assert.match(text, /earlier/);
  const starts = await page
    .locator('[data-testid=chunk-row]')
    .evaluateAll((rows) => rows.map((r) => r.children[2].textContent.replace('⚑', '').trim()));
  assert.deepEqual(starts, SALE_CHUNKS.map((c) => String(c.startIndex)), 'the start_index column');
  assert.equal(await page.locator('[data-testid=chunk-row] td.mismatch').count(), 1, 'one start_index highlighted');

  // How LangChain differs from ours, and the Python that gives these chunks.
  await waitForText(page, byTestId(page, 'langchain-differences'), /str\.find/, 'the differences panel');
  const view = byTestId(page, 'code-view');
  await view.locator('summary', { hasText: 'Python' }).click();
  const python = await waitForText(page, byTestId(page, 'code-python'), /RecursiveCharacterTextSplitter\(/, 'Python code');
  assert.match(python, /chunk_size=12,/);
  assert.match(python, /chunk_overlap=11,/);
  assert.match(python, /keep_separator="start"/);
  assert.match(python, /add_start_index=True/);
  assert.ok(python.includes('separators=["\\n\\n", "\\n", ". ", " ", ""]'), python);
});

e2e('langchain-character keeps a paragraph it cannot split: a warning, a red max-size badge, and why', async ({ page }) => {
  await loadRefundAt40(page);
  await configure(page, { strategy: 'langchain-character' });
  // CharacterTextSplitter splits on "\n\n" only; the 81-char paragraph stays whole.
  const chunks = parseChunks(
    await waitForChunkSpans(page, [
      { start: 0, end: 13 },
      { start: 15, end: 96 },
      { start: 98, end: 114 },
    ]),
  );
  assert.deepEqual(chunks.map((c) => c.cut), ['\\n\\n', '\\n\\n', 'end']);
  assert.equal(await byTestId(page, 'placement-select').inputValue(), 'none', 'keep_separator=False is its default');
  assert.match(await selectedLabel(page, 'placement-select'), /keep_separator: False/);

  const warnings = byTestId(page, 'langchain-warnings');
  const shown = await waitForText(page, warnings, /Created a chunk of size 81, which is longer than the specified 40/, 'the warnings list');
  assert.equal(shown.trim().split('\n').length, 1, 'one warning');
  await page.waitForFunction(() => document.querySelector('[data-testid=badge-max-size]')?.dataset.ok === 'false');
  await waitForText(page, byTestId(page, 'stats-line'), /1 over the size/, 'the stats line');

  await byTestId(page, 'badge-max-size').click();
  const why = await waitForText(page, byTestId(page, 'badge-explanation'), /passes/, 'the max-size explanation');
  assert.match(why, /longer than chunk_size/);
  assert.match(why, /chunk 1 at position 15 is 81 chars/);

  // The tree says the piece was kept whole, not that it fits.
  await waitForText(page, page.locator('[data-testid=tree-node][data-too-big=true][data-len="81"]'), /kept whole/, 'the oversized leaf');
});

e2e('compare-langchain puts our recursive splitter beside LangChain\'s on the same settings', async ({ page }) => {
  await loadRefundAt40(page);
  await configure(page, { strategy: 'compare-langchain' });
  await byTestId(page, 'pane-recursive').waitFor({ state: 'visible' });
  await byTestId(page, 'pane-langchain').waitFor({ state: 'visible' });
  assert.equal(await byTestId(page, 'pane-fixed').count(), 0, 'no fixed pane here');

  // The placement stays the recursive view's ("end") for both panes.
  assert.equal(await byTestId(page, 'placement-select').inputValue(), 'end');
  await waitForChunkSpans(page, SEED_CHUNKS, { scope: '[data-testid=pane-recursive]' });
  const theirs = await waitForChunkSpans(page, SEED_CHUNKS, { scope: '[data-testid=pane-langchain]' });
  assert.deepEqual(theirs.map((c) => c.cut), SEED_CHUNKS.map((c) => c.cut), 'LangChain pane: data-cut');
  for (const pane of ['pane-recursive', 'pane-langchain']) {
    await waitForText(page, page.locator(`[data-testid=${pane}] [data-testid=stats-line]`), /5 chunks/, `${pane} stats`);
  }
  const inBoth = await page.evaluate(
    () =>
      [...document.querySelectorAll('[data-testid=pane-recursive] [data-testid=chunk]')].filter((el) =>
        el.closest('[data-testid=pane-langchain]'),
      ).length,
  );
  assert.equal(inBoth, 0, 'no chunk element belongs to both panes');

  // keep_separator="start" moves the full stop to the next chunk in both.
  await byTestId(page, 'placement-select').selectOption('start');
  const start = [
    { start: 0, end: 13 },
    { start: 15, end: 34 },
    { start: 34, end: 67 },
    { start: 68, end: 96 },
    { start: 98, end: 114 },
  ];
  await waitForChunkSpans(page, start, { scope: '[data-testid=pane-langchain]' });
  await waitForChunkSpans(page, start, { scope: '[data-testid=pane-recursive]' });
  await byTestId(page, 'langchain-differences').waitFor({ state: 'visible' });

  // The plain compare view still shows fixed and recursive.
  await configure(page, { strategy: 'compare' });
  await byTestId(page, 'pane-fixed').waitFor({ state: 'visible' });
  assert.equal(await byTestId(page, 'pane-langchain').count(), 0);
  assert.equal(await byTestId(page, 'langchain-differences').count(), 0, 'no LangChain panel without LangChain');
});

e2e('a regex separator put back as its pattern: chunks that are not slices are marked and explained', async ({ page }) => {
  await configure(page, { text: SPACED, strategy: 'langchain', size: 12 });
  await onlyRegexSeparator(page, '\\s+');
  await byTestId(page, 'placement-select').selectOption('none');
  const chunks = parseChunks(
    await waitForChunkSpans(page, [
      { start: 0, end: 8 },
      { start: 11, end: 21 },
      { start: 23, end: 31 },
    ]),
  );
  // The spans are where each chunk came from; LangChain's text differs.
  assert.equal(chunks[0].text, 'one  two');
  assert.deepEqual(chunks.map((c) => c.cut), ['/\\s+/', '/\\s+/', 'end'], 'a regex cut is labelled /pattern/');
  const marks = await page.locator('[data-testid=chunk]').evaluateAll((els) =>
    els.map((el) => [el.dataset.slice, getComputedStyle(el, '::before').content]),
  );
  assert.deepEqual(marks, chunks.map(() => ['false', '"≠"']), 'every chunk is marked as not a slice');

  await page.locator('[data-testid=document-view] [data-testid=chunk][data-index="0"]').focus();
  const details = byTestId(page, 'chunk-details');
  const text = await waitForText(page, details, /Chunk 0\b/, 'details of chunk 0');
  assert.equal((await details.locator('[data-testid=langchain-text]').innerText()).trim(), 'one\\s+two');
  assert.match(text, /pattern text itself/);
  assert.match(text, /keep_separator=False/);
  // str.find cannot find text that is not in the source.
  assert.equal(await byTestId(page, 'start-index-mismatch').count(), 3);
  assert.match(text, /-1 in LangChain/);
  await waitForText(page, page.locator('[data-testid=chunk-row][data-index="0"]'), /LangChain: one\\s\+two/, 'the table row');
  await byTestId(page, 'badge-order').waitFor();

  // A literal among regexes: LangChain has one is_separator_regex switch.
  const editor = page.locator('section', { has: byTestId(page, 'separator-list') });
  await editor.getByRole('checkbox', { name: /regex/ }).uncheck();
  await byTestId(page, 'separator-new').fill(';');
  await byTestId(page, 'separator-add').click();
  const message = await waitForConfigError(page, 'a regex and a literal');
  assert.match(message, /is_separator_regex/);
  assert.equal(await byTestId(page, 'separator-list').getAttribute('aria-invalid'), 'true');
  await page.locator('[data-testid=separator-item][data-label=";"]').getByRole('button', { name: /^remove/ }).click();
  await waitForNoConfigError(page, 'the literal removed');
});

e2e('a share link brings back a LangChain view with its keep_separator', async ({ page }) => {
  await loadRefundAt40(page);
  await configure(page, { strategy: 'langchain-character' });
  await byTestId(page, 'placement-select').selectOption('start');
  // Stripping takes the "\n\n" off again, so the spans are the same as with False.
  const before = await waitForChunkSpans(page, [
    { start: 0, end: 13 },
    { start: 15, end: 96 },
    { start: 98, end: 114 },
  ]);
  await byTestId(page, 'share-link').click();
  await page.waitForFunction(() => location.hash.startsWith('#s='));
  const link = page.url();
  await page.goto('about:blank');
  await openApp(page, link);
  await waitForChunkSpans(page, before);
  assert.deepEqual(await readChunks(page), before);
  const config = await readConfig(page);
  assert.equal(config.strategy, 'langchain-character');
  assert.equal(await byTestId(page, 'placement-select').inputValue(), 'start');
  assert.equal(await byTestId(page, 'share-error').count(), 0);

  for (const view of ['compare-langchain', 'langchain']) {
    const old = page.url();
    await configure(page, { strategy: view });
    await byTestId(page, 'share-link').click();
    await page.waitForFunction((old) => location.href !== old, old);
    const again = page.url();
    await page.goto('about:blank');
    await openApp(page, again);
    assert.equal((await readConfig(page)).strategy, view, `${view} comes back`);
  }
});
