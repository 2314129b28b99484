// The lessons' worked examples load with one pick and say whether we match them.
import { e2e, assert, byTestId, optionValues, readTree, waitForChunkSpans, SEED_CHUNKS } from './harness.mjs';

const LESSONS = ['refund', 'fixed', 'windows', 'seed002-merge', 'seed002-no-merge'];

async function pick(page, name) {
  await byTestId(page, 'lesson-select').selectOption(name);
  await page.waitForFunction(
    () => document.querySelector('[data-testid=lesson-match]')?.getAttribute('data-ok') === 'true',
    null,
    { timeout: 5000 },
  ).catch(() => {});
  return byTestId(page, 'lesson-match').getAttribute('data-ok');
}

e2e('every lesson example matches the lesson', async ({ page }) => {
  const values = await optionValues(page, 'lesson-select');
  for (const l of LESSONS) assert.ok(values.includes(l), `lesson-select offers ${l}: ${values}`);
  for (const l of LESSONS) {
    assert.equal(await pick(page, l), 'true', `lesson ${l} matches`);
    const expected = await byTestId(page, 'lesson-expected').innerText();
    const ours = await byTestId(page, 'lesson-ours').innerText();
    assert.equal(ours, expected, `lesson ${l}: ours beside the lesson's`);
  }
});

e2e('the refund lesson loads the page, its chunks and its tree; a change breaks the match', async ({ page }) => {
  await byTestId(page, 'preset-select').selectOption('slack');
  assert.equal(await pick(page, 'refund'), 'true');
  await waitForChunkSpans(page, SEED_CHUNKS);
  const tree = await readTree(page);
  assert.ok(tree.some((n) => n.len === '81' && n.separator === '\\n'));
  await byTestId(page, 'size-input').fill('30');
  await page.waitForFunction(() => document.querySelector('[data-testid=lesson-match]').getAttribute('data-ok') === 'false');
});

e2e('L=250 S=100 O=20 gives the three windows of the lesson', async ({ page }) => {
  assert.equal(await pick(page, 'windows'), 'true');
  await waitForChunkSpans(page, [
    { start: '0', end: '100' },
    { start: '80', end: '180' },
    { start: '160', end: '250' },
  ]);
});
