// The Markdown strategy on the shipped Markdown preset: its chunks are whole
// sections and blocks, cuts are labelled by structure level, and each chunk's
// details show its heading path as the engine recorded it.
import { e2e, assert, configure, byTestId, waitForChunks, waitForText } from './harness.mjs';

e2e('markdown chunks carry their heading path into the chunk details', async ({ page }) => {
  await configure(page, { preset: 'markdown', strategy: 'markdown', size: 400 });
  const chunks = await waitForChunks(page, (c) => c.length === 11, 'the preset at 400 chars');
  assert.deepEqual(
    chunks.map((c) => c.cut),
    [
      'heading 2', 'heading 2', 'block', 'heading 2', 'block', 'block',
      'heading 2', 'heading 3', 'heading 3', 'heading 3', 'end',
    ],
    'cuts are named by structure level',
  );
  const details = byTestId(page, 'chunk-details');
  const path = byTestId(page, 'heading-path');
  const expected = [
    [1, 'Returns and refunds > Who can return an item'],
    [3, 'Returns and refunds > How long a refund takes'],
    [8, 'Returns and refunds > Frequently asked questions > Can I return part of an order?'],
  ];
  for (const [index, want] of expected) {
    await page.locator(`[data-testid=document-view] [data-testid=chunk][data-index="${index}"]`).hover();
    await waitForText(page, details, new RegExp(`Chunk ${index}\\b`), `details of chunk ${index}`);
    const shown = await waitForText(page, path, /\S/, `heading path of chunk ${index}`);
    assert.equal(shown.trim(), want, `chunk ${index}`);
    assert.equal(await path.getAttribute('data-depth'), String(want.split(' > ').length));
  }
});
