// Fixed windows: DESIGN.md's two worked examples.
import { e2e, assert, configure, waitForChunkSpans, parseChunks, docText, charSlice } from './harness.mjs';

e2e('fixed("abcdefghij", 4, 1) gives abcd, defg, ghij and no tail', async ({ page }) => {
  await configure(page, { strategy: 'fixed', text: 'abcdefghij', size: 4, overlap: 1 });
  const chunks = parseChunks(
    await waitForChunkSpans(page, [
      { start: 0, end: 4 },
      { start: 3, end: 7 },
      { start: 6, end: 10 },
    ]),
  );
  const doc = await docText(page);
  assert.equal(doc, 'abcdefghij');
  assert.deepEqual(
    chunks.map((c) => c.index),
    [0, 1, 2],
    'data-index',
  );
  assert.deepEqual(
    chunks.map((c) => c.cut),
    ['window', 'window', 'end'],
    'data-cut',
  );
  const texts = ['abcd', 'defg', 'ghij'];
  chunks.forEach((c, i) => {
    assert.equal(charSlice(doc, c.start, c.end), texts[i]);
    assert.ok(c.text.includes(texts[i]), `chunk ${i} should show ${texts[i]}, shows ${JSON.stringify(c.text)}`);
  });
});

e2e('L=250, S=100, O=20 gives [0,100) [80,180) [160,250)', async ({ page }) => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const text = Array.from({ length: 250 }, (_, i) => alphabet[i % alphabet.length]).join('');
  await configure(page, { strategy: 'fixed', text, size: 100, overlap: 20 });
  const chunks = parseChunks(
    await waitForChunkSpans(page, [
      { start: 0, end: 100 },
      { start: 80, end: 180 },
      { start: 160, end: 250 },
    ]),
  );
  assert.deepEqual(
    chunks.map((c) => c.cut),
    ['window', 'window', 'end'],
    'data-cut',
  );
});
