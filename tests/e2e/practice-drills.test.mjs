// Practice, answered two more ways: the chunks' lengths typed, and the
// separator that fires at each level of the recursion tree; and the generated
// exercises by difficulty, the same for the same number.
import { e2e, assert, byTestId, optionValues, SETTLE_MS } from './harness.mjs';

async function openPractice(page, exercise) {
  await byTestId(page, 'mode-select').selectOption('practice');
  await byTestId(page, 'practice').waitFor({ state: 'visible' });
  await byTestId(page, 'practice-select').selectOption(exercise);
}

e2e('the refund page: lengths 13 20 31 28 16, and the blank line, the newline, the sentence end', async ({ page }) => {
  await openPractice(page, 'refund');
  await byTestId(page, 'practice-lengths').waitFor();
  const result = byTestId(page, 'practice-lengths-result');

  await byTestId(page, 'practice-lengths').fill('13 20 30 28 16');
  await byTestId(page, 'practice-lengths-check').click();
  assert.equal(await result.getAttribute('data-ok'), 'false');
  assert.equal(await result.innerText(), '✗ chunk 3 is 31 chars, not 30; the lengths before it are right');

  await byTestId(page, 'practice-lengths').fill('13, 20, 31');
  await byTestId(page, 'practice-lengths-check').click();
  assert.equal(await result.innerText(), '✗ the first 3 are right, but there are 5 chunks');

  await byTestId(page, 'practice-lengths').fill('13 twenty');
  await byTestId(page, 'practice-lengths-check').click();
  assert.match(await result.innerText(), /“twenty” is not a length/);

  await byTestId(page, 'practice-lengths').fill('13 20 31 28 16');
  await byTestId(page, 'practice-lengths-check').click();
  assert.equal(await result.getAttribute('data-ok'), 'true');
  assert.equal(await result.innerText(), '✓ right: 5 chunks of 13, 20, 31, 28, 16');

  // The lesson's table: level 1 "\n\n" on the whole page, level 2 "\n" on the
  // 81-char paragraph, level 3 ". " on its 52-char first line.
  const levels = await page.$$eval('[data-testid=practice-level]', (els) =>
    els.map((e) => [Number(e.getAttribute('data-level')), Number(e.getAttribute('data-len'))]),
  );
  assert.deepEqual(levels, [
    [1, 114],
    [2, 81],
    [3, 52],
  ]);
  const guesses = byTestId(page, 'practice-level-guess');
  assert.deepEqual(await guesses.nth(0).evaluate((s) => [...s.options].map((o) => o.value)), ['', '0', '1', '2', '3', '4', 'none']);
  await guesses.nth(0).selectOption('0');
  await guesses.nth(1).selectOption('1');
  await guesses.nth(2).selectOption('3');
  await byTestId(page, 'practice-levels-check').click();
  const score = byTestId(page, 'practice-levels-score');
  assert.deepEqual([await score.getAttribute('data-right'), await score.getAttribute('data-total')], ['2', '3']);
  const oks = await page.$$eval('[data-testid=practice-level]', (els) => els.map((e) => e.getAttribute('data-ok')));
  assert.deepEqual(oks, ['true', 'true', 'false']);
  await guesses.nth(2).selectOption('2');
  await byTestId(page, 'practice-levels-check').click();
  assert.equal(await score.getAttribute('data-right'), '3');
});

e2e('the hard cut is the list\'s "" (index 2), not "none left"; fixed windows have no tree', async ({ page }) => {
  // "abcdefghijklmnop" at size 6 with ["\n", " ", ""]: neither separator occurs,
  // so the piece is cut by the list's own "" entry.
  await openPractice(page, 'fallthrough');
  await byTestId(page, 'practice-level').first().waitFor();
  assert.equal(await byTestId(page, 'practice-level').count(), 1);
  await byTestId(page, 'practice-level-guess').selectOption('none');
  await byTestId(page, 'practice-levels-check').click();
  assert.equal(await byTestId(page, 'practice-levels-score').getAttribute('data-right'), '0');
  assert.match(await byTestId(page, 'practice-level').innerText(), /✗ it is "" \(a hard cut, as the list says\)/);
  await byTestId(page, 'practice-level-guess').selectOption('2');
  await byTestId(page, 'practice-levels-check').click();
  assert.equal(await byTestId(page, 'practice-levels-score').getAttribute('data-right'), '1');
  await byTestId(page, 'practice-select').selectOption('stride');
  await byTestId(page, 'practice-lengths').fill('4 4 4');
  await byTestId(page, 'practice-lengths-check').click();
  assert.equal(await byTestId(page, 'practice-lengths-result').getAttribute('data-ok'), 'true');
  assert.equal(await byTestId(page, 'practice-level').count(), 0);
});

e2e('generated exercises at three levels, the same for the same number', async ({ page }) => {
  await openPractice(page, 'stride');
  const values = await optionValues(page, 'practice-select');
  assert.deepEqual(values.slice(-4), ['seed', 'generated-easy', 'generated-medium', 'generated-hard']);
  const text = () => byTestId(page, 'practice-text').innerText();
  const config = () => byTestId(page, 'practice-config').innerText();

  await byTestId(page, 'practice-select').selectOption('generated-easy');
  await page.waitForFunction(() => document.querySelector('[data-testid=practice-config]').textContent.startsWith('fixed'), null, {
    timeout: SETTLE_MS,
  });
  assert.equal(await config(), 'fixed windows · size 6 · overlap 0 (separators are not used)');
  assert.equal((await text()).replace(/\s/g, ''), 'abcdefghijklmnopqrstu');
  await byTestId(page, 'practice-lengths').fill('6 6 6 3');
  await byTestId(page, 'practice-lengths-check').click();
  assert.equal(await byTestId(page, 'practice-lengths-result').getAttribute('data-ok'), 'true');

  await byTestId(page, 'practice-select').selectOption('generated-medium');
  await page.waitForFunction(() => document.querySelector('[data-testid=practice-config]').textContent.startsWith('recursive · size 22'), null, {
    timeout: SETTLE_MS,
  });
  // Its questions come with the worker's split, after the configuration line.
  await byTestId(page, 'practice-level').first().waitFor({ timeout: SETTLE_MS });
  assert.ok((await byTestId(page, 'practice-level').count()) >= 1, 'a recursive exercise asks about its tree');

  await byTestId(page, 'practice-select').selectOption('generated-hard');
  await page.waitForFunction(() => document.querySelector('[data-testid=practice-config]').textContent.startsWith('recursive · size 16'), null, {
    timeout: SETTLE_MS,
  });
  assert.match(await text(), /https:\/\/pay\.example\.com\/r\/4411/);
  // The next one is number 2 of the same level; going back to 1 gives the first again.
  const first = await text();
  await byTestId(page, 'practice-next').click();
  await page.waitForFunction((t) => document.querySelector('[data-testid=practice-text]').innerText !== t, first, { timeout: SETTLE_MS });
  assert.equal(await byTestId(page, 'practice-select').inputValue(), 'generated-hard');
  assert.equal(await byTestId(page, 'practice-seed').inputValue(), '2');
  await byTestId(page, 'practice-seed').fill('1');
  await byTestId(page, 'practice-seed').dispatchEvent('change');
  await page.waitForFunction((t) => document.querySelector('[data-testid=practice-text]').innerText === t, first, { timeout: SETTLE_MS });
  assert.equal(await byTestId(page, 'practice-select').inputValue(), 'generated-hard');
});
