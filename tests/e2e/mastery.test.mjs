// The mastery checklist: every skill of the four lessons linked to its proof on
// the page, ticks kept in the browser.
import { join } from 'node:path';
import { e2e, assert, byTestId, openApp, painted, SCREENSHOTS, viewShot } from './harness.mjs';

const TIMEOUT = 15000;

const items = (page) =>
  page.$$eval('[data-testid=mastery-item]', (els) => els.map((el) => ({ item: el.dataset.item, seed: el.dataset.seed, proof: el.dataset.proof, ticked: el.dataset.ticked })));

e2e('the mastery checklist: each skill opens its proof, and ticks outlive a reload', async ({ page, url }) => {
  const list = await items(page);
  assert.equal(list.length, 15);
  assert.deepEqual([...new Set(list.map((i) => i.seed))], ['000', '001', '002', '004'], 'every lesson, in order');
  // Every card a skill names is a card of the page.
  const cards = await page.$$eval('[data-testid=card]', (els) => els.map((el) => el.dataset.card));
  for (const { item, proof } of list.filter((i) => i.proof.startsWith('card:'))) {
    assert.ok(cards.includes(proof.slice(5)), `${item}: ${proof}`);
  }
  const prove = (item) => page.locator(`[data-testid=mastery-item][data-item="${item}"] [data-testid=mastery-prove]`).click();

  // A card: its setup loads, as its own "Show me" does.
  await prove('doing-work');
  await page.waitForFunction(() => document.querySelector('[data-testid=card-shown]')?.dataset.card === 'doing-work', null, { timeout: TIMEOUT });
  // A view: the semantic view, with the four-strategy comparison.
  await prove('choose');
  await byTestId(page, 'strategy-comparison').waitFor({ timeout: TIMEOUT });
  // An element: the exercises, scrolled into view.
  await prove('windows');
  await page.waitForFunction(() => {
    const r = document.querySelector('[data-testid=exercises]')?.getBoundingClientRect();
    return r && r.top < innerHeight && r.bottom > 0;
  }, null, { timeout: TIMEOUT });

  // Ticks: two, kept across a reload; untick one.
  for (const item of ['merge', 'evaluate']) {
    await page.locator(`[data-testid=mastery-item][data-item="${item}"] [data-testid=mastery-check]`).check();
  }
  assert.equal(await byTestId(page, 'mastery-progress').getAttribute('data-done'), '2');
  await openApp(page, url);
  const after = await items(page);
  assert.deepEqual(after.filter((i) => i.ticked === 'true').map((i) => i.item), ['merge', 'evaluate']);
  assert.equal(await byTestId(page, 'mastery-progress').innerText(), '2 of 15');
  await page.locator('[data-testid=mastery-item][data-item="merge"] [data-testid=mastery-check]').uncheck();
  assert.equal(await byTestId(page, 'mastery-progress').getAttribute('data-done'), '1');

  // A mode: the page switches to it.
  await prove('evaluate');
  await byTestId(page, 'eval-page').waitFor({ state: 'visible', timeout: TIMEOUT });
  assert.equal(await byTestId(page, 'mode-select').inputValue(), 'evaluate');
});

for (const [width, colorScheme] of [
  [1400, 'light'],
  [390, 'dark'],
]) {
  e2e(`the mastery checklist at ${width} px, ${colorScheme}`, async ({ page }) => {
    const list = byTestId(page, 'mastery');
    await list.scrollIntoViewIfNeeded();
    await page.locator('[data-testid=mastery-item][data-item="merge"] [data-testid=mastery-check]').check();
    await painted(page);
    const tooWide = await page.$$eval('[data-testid=mastery-item]', (els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.dataset.item));
    assert.deepEqual(tooWide, [], 'no item wider than its row');
    await viewShot(list, join(SCREENSHOTS, `mastery-${width}-${colorScheme}.png`));
  }, { viewport: { width, height: 900 }, colorScheme, finalShot: false });
}
