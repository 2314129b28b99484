// The overlap drawn once (the document reads as a document, the shared text marked
// as in two chunks) or repeated in each chunk (what the embedder sees).
import {
  e2e,
  assert,
  REFUND,
  configure,
  byTestId,
  waitForChunks,
  charLen,
  charSlice,
  painted,
} from './harness.mjs';

/**
 * Every chunk of the document view as drawn: its offsets, the text its hooks
 * hold (textContent, the whole chunk in both drawings) and the text a reader
 * sees (innerText, which leaves out what is not displayed), with the text of
 * its `.again` and `.shared` parts.
 */
function drawnChunks(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=document-view] [data-testid=chunk]')].map((el) => ({
      start: Number(el.dataset.start),
      end: Number(el.dataset.end),
      text: el.textContent,
      seen: el.innerText,
      again: [...el.querySelectorAll('.again')].map((e) => e.textContent).join(''),
      shared: [...el.querySelectorAll('.shared')].map((e) => `${e.className}:${e.textContent}`),
    })),
  );
}

const legendText = (page) => page.locator('.legend').first().innerText();

e2e('overlap is drawn once by default, marked as in two chunks, and repeated on request', async ({ page }) => {
  await configure(page, { preset: 'refund', separators: 'seed', strategy: 'recursive', size: 57, overlap: 12 });
  await waitForChunks(page, (c) => c.length === 4 && c[2].start === '60', 'the refund page at 57/12');
  await painted(page);
  const toggle = byTestId(page, 'overlap-repeat');
  assert.equal(await toggle.isChecked(), false, 'drawn once until asked');

  let chunks = await drawnChunks(page);
  // The hooks hold each chunk's whole text in both drawings.
  for (const c of chunks) assert.equal(c.text, charSlice(REFUND, c.start, c.end), `chunk at ${c.start}`);
  // What a reader sees: each character once. A chunk shows what the one before
  // did not already show.
  chunks.forEach((c, i) => {
    const from = i === 0 ? c.start : Math.max(c.start, chunks[i - 1].end);
    assert.equal(c.seen, charSlice(REFUND, from, c.end), `chunk ${i} as seen`);
  });
  // "UPI id." and "credit." are the two overlaps: hidden at the start of the
  // chunk that repeats them, marked at the end of the one that gave them, in the
  // colour of the next chunk (2 is even, 3 is odd).
  assert.deepEqual(
    chunks.map((c) => [c.again, c.shared]),
    [
      ['', []],
      ['', ['shared into-even:UPI id.']],
      ['UPI id.', ['shared into-odd:credit.']],
      ['credit.', []],
    ],
  );
  assert.match(await legendText(page), /in two chunks \(overlap\)/);

  await toggle.check();
  await painted(page);
  chunks = await drawnChunks(page);
  for (const [i, c] of chunks.entries()) {
    assert.equal(c.seen, c.text, `chunk ${i} repeated: shown whole`);
    assert.deepEqual([c.again, c.shared], ['', []], `chunk ${i} repeated: no once-marks`);
  }
  assert.equal(chunks[2].seen, 'UPI id.\nCOD orders get store credit.');
  assert.match(await legendText(page), /repeated \(overlap\)/);

  // The choice outlives a new split; without any overlap it is not offered.
  await configure(page, { size: 40 });
  await waitForChunks(page, (c) => c.length === 5 && c[0].end === '13', 'the refund page at 40/12');
  assert.equal(await toggle.isChecked(), true, 'kept across a new size');
  await configure(page, { overlap: 0 });
  await waitForChunks(page, (c) => c.length === 5 && c[2].start === '36', 'the seed chunks at 40/0');
  assert.equal(await toggle.count(), 0, 'no overlap, no choice');
});

e2e('fixed windows overlapping by more than half still read as the text, once', async ({ page }) => {
  // Windows of 20 every 5 chars: each character is in up to four chunks. Drawn
  // once, the windows' visible parts put together are the text, exactly.
  await configure(page, { preset: 'refund', strategy: 'fixed', size: 20, overlap: 15 });
  await waitForChunks(page, (c) => c.length > 0 && c.at(-1).end === String(charLen(REFUND)) && c[1]?.start === '5', 'windows of 20 every 5');
  await painted(page);
  const chunks = await drawnChunks(page);
  assert.equal(chunks.map((c) => c.seen).join(''), REFUND, 'the windows as seen are the text');
  assert.ok(chunks.slice(1).every((c) => charLen(c.again) === 15), 'each window after the first hides the 15 it repeats');
  await byTestId(page, 'overlap-repeat').check();
  await painted(page);
  const repeated = await drawnChunks(page);
  assert.equal(
    repeated.map((c) => c.seen).join(''),
    repeated.map((c) => charSlice(REFUND, c.start, c.end)).join(''),
    'repeated: every window whole',
  );
});
