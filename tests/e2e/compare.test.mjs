// Compare mode: fixed and recursive side by side on the same text, size and overlap.
import {
  e2e,
  assert,
  configure,
  loadRefundAt40,
  waitForChunkSpans,
  waitForChunks,
  parseChunks,
  byTestId,
  docText,
  charLen,
  charSlice,
  SEED_CHUNKS,
} from './harness.mjs';

const FIXED = '[data-testid=pane-fixed]';
const RECURSIVE = '[data-testid=pane-recursive]';

e2e('compare shows both panes, each with its own chunks', async ({ page }) => {
  await loadRefundAt40(page);
  await configure(page, { strategy: 'compare' });
  await byTestId(page, 'pane-fixed').waitFor({ state: 'visible' });
  await byTestId(page, 'pane-recursive').waitFor({ state: 'visible' });

  const recursive = parseChunks(await waitForChunkSpans(page, SEED_CHUNKS, { scope: RECURSIVE }));
  assert.deepEqual(
    recursive.map((c) => c.cut),
    SEED_CHUNKS.map((c) => c.cut),
    'recursive pane: data-cut',
  );
  recursive.forEach((c, i) =>
    assert.ok(c.text.includes(SEED_CHUNKS[i].text), `recursive pane chunk ${i}: shows ${JSON.stringify(c.text)}`),
  );

  // Fixed windows of 40 over the same 114-char page: [0,40) [40,80) [80,114); a
  // window's span may be trimmed of surrounding whitespace, never more.
  const doc = await docText(page);
  const L = charLen(doc);
  const fixed = parseChunks(
    await waitForChunks(page, (c) => c.length === 3 && c[0].start === '0', 'fixed pane: three windows of 40', {
      scope: FIXED,
    }),
  );
  assert.equal(fixed[0].start, 0, 'fixed pane: first window data-start');
  assert.equal(fixed[0].end, 40, 'fixed pane: first window data-end');
  fixed.forEach((c, i) => {
    const [ws, we] = [40 * i, Math.min(40 * i + 40, L)];
    const window = charSlice(doc, ws, we);
    assert.equal(c.index, i, `fixed pane chunk ${i}: data-index`);
    assert.ok(c.start >= ws && c.end <= we && c.start < c.end, `fixed pane chunk ${i}: [${c.start},${c.end}) inside [${ws},${we})`);
    assert.equal(
      charSlice(doc, c.start, c.end),
      c.start === ws && c.end === we ? window : window.trim(),
      `fixed pane chunk ${i}: the window [${ws},${we}), at most trimmed`,
    );
  });
  assert.deepEqual(
    fixed.map((c) => c.cut),
    ['window', 'window', 'end'],
    'fixed pane: data-cut',
  );

  // The two panes hold separate elements.
  const inBoth = await page.evaluate(
    ({ a, b }) => [...document.querySelectorAll(`${a} [data-testid=chunk]`)].filter((el) => el.closest(b)).length,
    { a: FIXED, b: RECURSIVE },
  );
  assert.equal(inBoth, 0, 'no chunk element belongs to both panes');
});

e2e('compare panes follow size changes', async ({ page }) => {
  await loadRefundAt40(page);
  await configure(page, { strategy: 'compare' });
  await waitForChunkSpans(page, SEED_CHUNKS, { scope: RECURSIVE });
  await configure(page, { size: 200 });
  await waitForChunkSpans(page, [{ start: 0, end: 114 }], { scope: RECURSIVE });
  await waitForChunkSpans(page, [{ start: 0, end: 114 }], { scope: FIXED });
  await configure(page, { size: 40 });
  await waitForChunkSpans(page, SEED_CHUNKS, { scope: RECURSIVE });
});
