// LangChain's MarkdownHeaderTextSplitter on the page: a chunk per section,
// drawn where its lines are, its headers as metadata in the details and the
// table, return_each_line as a checkbox, and the separator list holding
// header markers while it is on screen (the cut patterns come back after).
import {
  e2e,
  assert,
  byTestId,
  configure,
  parseChunks,
  readSeparatorLabels,
  waitForChunkSpans,
  waitForText,
} from './harness.mjs';

const DOC = '# Refunds\nRefunds take 5 days.\n\n## UPI\nInstant.\n# Shipping\nFree.';

e2e('langchain-markdown: a chunk per section with its headers as metadata', async ({ page }) => {
  const before = await readSeparatorLabels(page);
  await configure(page, { text: DOC, strategy: 'langchain-markdown', size: 400 });
  const chunks = parseChunks(
    await waitForChunkSpans(page, [
      { start: 10, end: 30 },
      { start: 39, end: 47 },
      { start: 59, end: 64 },
    ]),
  );
  assert.deepEqual(
    chunks.map((c) => [c.text, c.cut]),
    [
      ['Refunds take 5 days.', '##'],
      ['Instant.', '#'],
      ['Free.', 'end'],
    ],
    'each chunk is its section, cut where the next header starts',
  );
  const labels = await readSeparatorLabels(page);
  assert.deepEqual(
    labels.map((l) => l.split('\n')[0].trim()),
    ['#', '##', '###'],
    'the separator list holds the header markers',
  );

  await page.locator('[data-testid=document-view] [data-testid=chunk][data-index="1"]').hover();
  await waitForText(page, byTestId(page, 'chunk-metadata'), /^Header 1: Refunds › Header 2: UPI$/, 'the metadata of chunk 1');
  assert.deepEqual(
    await page.locator('[data-testid=chunk-row-metadata]').allTextContents(),
    ['Header 1: Refunds', 'Header 1: Refunds › Header 2: UPI', 'Header 1: Shipping'],
    'the table lists each chunk\'s metadata',
  );

  // Back to the recursive splitter: its own separators are back.
  await configure(page, { strategy: 'recursive' });
  assert.deepEqual(await readSeparatorLabels(page), before, 'the cut patterns come back');
});

e2e('langchain-markdown: paragraphs of a section are joined, or kept apart with return_each_line', async ({ page }) => {
  const text = '# A\none\n\ntwo';
  await configure(page, { text, strategy: 'langchain-markdown', size: 400 });
  await waitForChunkSpans(page, [{ start: 4, end: 12 }]);
  const slice = await page.locator('[data-testid=document-view] [data-testid=chunk]').evaluateAll((els) => els.map((el) => el.dataset.slice));
  assert.deepEqual(slice, ['false'], 'the joined text is not the source between the offsets');
  await page.locator('[data-testid=document-view] [data-testid=chunk][data-index="0"]').hover();
  await waitForText(page, byTestId(page, 'langchain-text'), /^one {2}\ntwo$/, 'LangChain\'s own text');

  await byTestId(page, 'each-line-checkbox').check();
  const chunks = parseChunks(
    await waitForChunkSpans(page, [
      { start: 4, end: 7 },
      { start: 9, end: 12 },
    ]),
  );
  assert.deepEqual(chunks.map((c) => c.cut), ['\\n\\n', 'end']);
});
