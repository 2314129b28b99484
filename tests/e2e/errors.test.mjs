// Bad configurations show config-error with a message; fixing the value brings
// fresh chunks back (the fix is always a different valid value from the one
// before the error, so the chunks must be recomputed, not just left standing);
// nothing throws.
import {
  e2e,
  assert,
  configure,
  loadRefundAt40,
  waitForConfigError,
  waitForNoConfigError,
  waitForChunkSpans,
  waitForChunks,
  SEED_CHUNKS,
  docText,
} from './harness.mjs';

const WHOLE_PAGE = [{ start: 0, end: 114 }];

/** After an error: a new valid setting shows its own chunks and the error goes. */
const recover = async (page, cfg, spans, why) => {
  await configure(page, cfg);
  await waitForNoConfigError(page, why);
  await waitForChunkSpans(page, spans);
};

e2e('overlap equal to or larger than size shows an error about overlap', async ({ page }) => {
  await loadRefundAt40(page);

  await configure(page, { overlap: 40 });
  let msg = await waitForConfigError(page, 'size 40, overlap 40');
  assert.match(msg, /overlap/i, `the message should mention overlap: ${JSON.stringify(msg)}`);
  await recover(page, { size: 200 }, WHOLE_PAGE, 'size raised to 200 above overlap 40');

  await configure(page, { overlap: 250 });
  msg = await waitForConfigError(page, 'size 200, overlap 250');
  assert.match(msg, /overlap/i, `the message should mention overlap: ${JSON.stringify(msg)}`);
  await recover(page, { overlap: 0, size: 40 }, SEED_CHUNKS, 'back to size 40, overlap 0');
});

e2e('overlap >= size in fixed mode too, and the page recovers', async ({ page }) => {
  await configure(page, { strategy: 'fixed', text: 'abcdefghij', size: 4, overlap: 1 });
  await waitForChunkSpans(page, [
    { start: 0, end: 4 },
    { start: 3, end: 7 },
    { start: 6, end: 10 },
  ]);
  await configure(page, { overlap: 4 });
  const msg = await waitForConfigError(page, 'fixed, size 4, overlap 4');
  assert.match(msg, /overlap/i, `the message should mention overlap: ${JSON.stringify(msg)}`);
  await recover(
    page,
    { overlap: 2 },
    [
      { start: 0, end: 4 },
      { start: 2, end: 6 },
      { start: 4, end: 8 },
      { start: 6, end: 10 },
    ],
    'overlap lowered to 2',
  );
});

e2e('size 0 shows an error and the page recovers', async ({ page }) => {
  await loadRefundAt40(page);
  await configure(page, { size: 0 });
  const msg = await waitForConfigError(page, 'size 0');
  assert.match(msg, /size/i, `the message should mention the size: ${JSON.stringify(msg)}`);
  await recover(page, { size: 200 }, WHOLE_PAGE, 'size 200');
  await recover(page, { size: 40 }, SEED_CHUNKS, 'size 40');
});

e2e('an empty size field shows an error and the page recovers', async ({ page }) => {
  await loadRefundAt40(page);
  await configure(page, { size: '' });
  const msg = await waitForConfigError(page, 'size field emptied');
  assert.match(msg, /size/i, `the message should mention the size: ${JSON.stringify(msg)}`);
  await recover(page, { size: 200 }, WHOLE_PAGE, 'size 200 typed in');
  await recover(page, { size: 40 }, SEED_CHUNKS, 'size 40 typed in');
});

e2e('the page keeps working after a run of bad values', async ({ page }) => {
  await loadRefundAt40(page);
  for (const [field, value] of [
    ['size', 0],
    ['size', ''],
    ['size', 40],
    ['overlap', 40],
    ['overlap', 400],
    ['overlap', 0],
    ['size', 0],
    ['size', 200],
  ]) {
    await configure(page, { [field]: value });
  }
  await waitForNoConfigError(page, 'after the bad values, size 200 overlap 0');
  await waitForChunkSpans(page, WHOLE_PAGE);

  // And it still reacts to new text.
  await configure(page, { text: 'Hello there.' });
  assert.equal(await docText(page), 'Hello there.');
  await waitForChunks(
    page,
    (c) => c.length === 1 && c[0].start === '0' && c[0].end === '12' && c[0].cut === 'end',
    'one chunk [0,12) for "Hello there."',
  );
});
