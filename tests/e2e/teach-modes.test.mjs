// The mode menu: explore is the playground as it was; practice and bugs replace it.
import { e2e, assert, byTestId, optionValues, loadRefundAt40 } from './harness.mjs';

e2e('mode-select offers explore, practice, bugs, code and evaluate; explore is the playground', async ({ page }) => {
  assert.deepEqual(await optionValues(page, 'mode-select'), ['explore', 'practice', 'bugs', 'code', 'evaluate']);
  assert.equal(await byTestId(page, 'mode-select').inputValue(), 'explore');
  await loadRefundAt40(page);

  await byTestId(page, 'mode-select').selectOption('bugs');
  await byTestId(page, 'bug-gallery').waitFor({ state: 'visible' });
  assert.equal(await byTestId(page, 'doc-input').isVisible(), false, 'the playground is hidden in bugs mode');

  await byTestId(page, 'mode-select').selectOption('practice');
  await byTestId(page, 'practice').waitFor({ state: 'visible' });
  assert.equal(await byTestId(page, 'bug-gallery').count(), 0);

  await byTestId(page, 'mode-select').selectOption('explore');
  await byTestId(page, 'doc-input').waitFor({ state: 'visible' });
  await loadRefundAt40(page);
});
