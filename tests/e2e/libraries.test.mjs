// Other libraries' splitters, exactly: semchunk on the refund page.
//
// The expected spans are semchunk 4.1.1's own answer, recorded from the
// library: `semchunk.chunkerify(len, 40)(text, offsets=True)` and the same
// with `overlap=10`, on the refund preset (seed 000's page).
import {
  e2e,
  assert,
  REFUND,
  byTestId,
  configure,
  docText,
  waitForChunkSpans,
  parseChunks,
  charSlice,
  waitForText,
  waitForConfigError,
  waitForChunks,
} from './harness.mjs';

const SEMCHUNK_40 = [
  [0, 13],
  [15, 35],
  [36, 67],
  [68, 96],
  [98, 114],
];
const SEMCHUNK_40_OVERLAP_10 = [
  [0, 29],
  [23, 50],
  [47, 78],
  [68, 108],
  [98, 114],
];
const spans = (list) => list.map(([start, end]) => ({ start, end }));

e2e("semchunk on the refund page: the library's chunks, each cut by the splitter it chose there", async ({ page }) => {
  await configure(page, { preset: 'refund', strategy: 'semchunk', size: 40, overlap: 0 });
  assert.equal(await docText(page), REFUND);
  const chunks = parseChunks(await waitForChunkSpans(page, spans(SEMCHUNK_40)));
  // semchunk splits the page at its blank lines, a blank-line piece that is
  // too long at its newline, and "Refunds take 5 days. They go…" (no newline,
  // no run of spaces) at the space after the period: `(?<=\.) `.
  assert.deepEqual(
    chunks.map((c) => c.cut),
    ['\\n\\n', '/(?<=\\.) /', '\\n', '\\n\\n', 'end'],
    'the cut after each chunk',
  );
  for (const c of chunks) assert.ok(!/^\s|\s$/.test(charSlice(REFUND, c.start, c.end)), `chunk ${c.index} is not stripped by semchunk, and needs no stripping here`);

  // With an overlap semchunk chunks at min(10, 30) = 10 and joins three of
  // those chunks every two: what lies between them is joined too.
  await configure(page, { overlap: 10 });
  await waitForChunkSpans(page, spans(SEMCHUNK_40_OVERLAP_10));

  // The Python shown is semchunk's own call, which gives exactly these chunks.
  const view = byTestId(page, 'code-view');
  await view.locator('summary', { hasText: 'Python' }).click();
  const python = await waitForText(page, byTestId(page, 'code-python'), /chunkerify\(/, 'Python code');
  assert.match(python, /import semchunk/);
  assert.match(python, /semchunk\.chunkerify\(len, 40\)/);
  assert.match(python, /chunker\(text, offsets=True, overlap=10\)/);
});

e2e('semchunk counts a character it cannot split as semchunk would never return, and says so', async ({ page }) => {
  await configure(page, { preset: 'refund', strategy: 'semchunk', size: 40, overlap: 0 });
  await waitForChunkSpans(page, spans(SEMCHUNK_40));
  await configure(page, { text: 'naïve café', unit: 'bytes', size: 1 });
  const error = await waitForConfigError(page, 'a character of 2 bytes at size 1');
  assert.match(error, /'ï' at position 2 is 2 bytes/);
  assert.match(error, /RecursionError/);
  // The last good result stays on screen.
  await waitForChunks(page, (c) => c.length > 0, 'the last good chunks');
});

// Chonkie's RecursiveChunker (chonkie 1.7.0) on the refund page at 40:
// `RecursiveChunker(chunk_size=40).chunk(text)`, recorded from the library.
// Four chunks that tile the page: the blank line after "Refund policy" is a
// split under 24 bytes, so it is joined to the next; "COD orders … Contact
// us 24x7." is 46 chars, its words are all under 24 bytes and are joined
// back into one split, so the last level cuts 40 chars and leaves " 24x7.".
const CHONKIE_40 = [
  [0, 36],
  [36, 68],
  [68, 108],
  [108, 114],
];

e2e("Chonkie's RecursiveChunker on the refund page: its four chunks, cut where its levels cut", async ({ page }) => {
  await configure(page, { preset: 'refund', strategy: 'chonkie-recursive', size: 40 });
  const chunks = parseChunks(await waitForChunkSpans(page, spans(CHONKIE_40)));
  assert.equal(charSlice(REFUND, 68, 108), 'COD orders get store credit.\n\nContact us');
  assert.deepEqual(chunks.map((c) => c.cut).slice(0, 2), ['. ', '\\n']);
  assert.equal(chunks[3].cut, 'end');
  // No tree is drawn, and the page says why rather than call the text empty.
  await waitForText(page, byTestId(page, 'tree-empty'), /not drawn as a tree/, 'the tree\'s note');
  // The overlap control is left out: RecursiveChunker has none.
  await waitForText(page, byTestId(page, 'overlap-unused'), /RecursiveChunker has no overlap/, 'the overlap note');
  const view = byTestId(page, 'code-view');
  await view.locator('summary', { hasText: 'Python' }).click();
  const python = await waitForText(page, byTestId(page, 'code-python'), /RecursiveChunker\(/, 'Python code');
  assert.match(python, /RecursiveChunker\(tokenizer="character", chunk_size=40\)/);
});

// The text-splitter crate's TextSplitter on the refund page at 40:
// `TextSplitter(40).chunk_indices(text)`, recorded from
// semantic-text-splitter 0.33.1 (MarkdownSplitter gives the same spans).
const TEXT_SPLITTER_40 = [
  [0, 13],
  [15, 35],
  [36, 67],
  [68, 96],
  [98, 114],
];

e2e("text-splitter on the refund page: the crate's chunks, each cut named by the level it lies on", async ({ page }) => {
  await configure(page, { preset: 'refund', strategy: 'text-splitter', size: 40, overlap: 0 });
  const chunks = parseChunks(await waitForChunkSpans(page, spans(TEXT_SPLITTER_40)));
  assert.deepEqual(chunks.map((c) => c.cut), ['\\n\\n', '\\p{sentence}', '\\n', '\\n\\n', 'end']);
  await waitForText(page, byTestId(page, 'tree-empty'), /not drawn as a tree/, 'the tree\'s note');
  const view = byTestId(page, 'code-view');
  await view.locator('summary', { hasText: 'Python' }).click();
  const python = await waitForText(page, byTestId(page, 'code-python'), /TextSplitter\(/, 'Python code');
  assert.match(python, /from semantic_text_splitter import TextSplitter/);
  assert.match(python, /splitter = TextSplitter\(40\)/);
  await configure(page, { strategy: 'text-splitter-markdown' });
  await waitForChunkSpans(page, spans(TEXT_SPLITTER_40));
  await configure(page, { overlap: 40 });
  const error = await waitForConfigError(page, 'an overlap of the size');
  assert.match(error, /The overlap is larger than or equal to the desired chunk capacity/);
});
