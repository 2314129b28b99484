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

/**
 * What each lesson states, written out here from the seeds (DESIGN.md,
 * "Worked examples"): the lines `lesson-expected` quotes, and the chunks the
 * playground must draw for it (char spans), which merge even where the lesson
 * does not.
 */
const q = (t) => `“${t}”`;
const STATED = {
  refund: {
    lines: SEED_CHUNKS.map((c) => q(c.text)),
    spans: SEED_CHUNKS.map(({ start, end }) => [start, end]),
  },
  fixed: { lines: ['abcd', 'defg', 'ghij'].map(q), spans: [[0, 4], [3, 7], [6, 10]] },
  windows: { lines: ['[0, 100)', '[80, 180)', '[160, 250)'], spans: [[0, 100], [80, 180], [160, 250]] },
  'seed002-merge': { lines: ['aa', 'bbb', 'ccc', 'ccc'].map(q), spans: [[0, 2], [4, 7], [8, 11], [11, 14]] },
  // Seed 002's eleven lines, run as written, leave every c alone; the
  // playground below still merges them.
  'seed002-no-merge': {
    lines: ['aa', 'bbb', 'c', 'c', 'c', 'c', 'c', 'c'].map(q),
    spans: [[0, 2], [4, 7], [8, 11], [11, 14]],
  },
};

const items = (page, id) => byTestId(page, id).locator('li').evaluateAll((lis) => lis.map((li) => li.textContent));

e2e('every lesson example matches what the lesson states', async ({ page }) => {
  const values = await optionValues(page, 'lesson-select');
  for (const l of LESSONS) assert.ok(values.includes(l), `lesson-select offers ${l}: ${values}`);
  let compared = 0;
  for (const l of LESSONS) {
    assert.equal(await pick(page, l), 'true', `lesson ${l} matches`);
    assert.deepEqual(await items(page, 'lesson-expected'), STATED[l].lines, `lesson ${l}: what the lesson says`);
    assert.deepEqual(await items(page, 'lesson-ours'), STATED[l].lines, `lesson ${l}: what we get`);
    await waitForChunkSpans(page, STATED[l].spans.map(([start, end]) => ({ start, end })));
    compared += 1;
  }
  assert.equal(compared, 5);
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
