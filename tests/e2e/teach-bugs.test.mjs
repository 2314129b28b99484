// The bug gallery: every mistake runs next to the correct engine; the buggy side's
// badges go red where the mistake breaks a property, the correct side stays green.
import { e2e, assert, byTestId, optionValues, SETTLE_MS } from './harness.mjs';

const BADGES = ['coverage', 'max-size', 'order', 'overlap', 'determinism', 'slices', 'packing', 'overlap-delivered', 'advances'];

/** data-ok of every badge inside a pane. */
const paneBadges = (page, pane) =>
  page.evaluate(
    ({ pane, names }) => {
      const root = document.querySelector(`[data-testid="${pane}"]`);
      const out = {};
      for (const n of names) out[n] = root?.querySelector(`[data-testid="badge-${n}"]`)?.getAttribute('data-ok') ?? null;
      return out;
    },
    { pane, names: BADGES },
  );

const paneTexts = (page, pane) =>
  page.$$eval(`[data-testid="${pane}"] [data-testid=chunk] .bug-text`, (els) => els.map((e) => e.textContent));

// Which badges each mistake turns red on its own demo text.
const BREAKS = {
  tail: ['order', 'advances'],
  'last-units-missing': ['coverage'],
  'dropped-separator': ['coverage', 'order', 'slices'],
  'no-hard-cut': ['max-size'],
  'no-progress': ['max-size', 'advances'],
  'seed-001': ['coverage', 'max-size', 'order', 'overlap', 'slices'],
  'no-merge': ['packing'],
  'overlap-skipped': ['overlap-delivered'],
  'mid-word-overlap': ['overlap-delivered'],
  'unchecked-overlap': ['overlap-delivered'],
  'lost-offsets': ['coverage', 'order', 'advances'],
};
// Settings the engine refuses (the correct side shows why) and the variant runs.
const REFUSED = ['unchecked-overlap'];

/**
 * Waits until both panes show the run of the chosen mistake: the correct side is
 * split by the worker, so it lands a moment after the choice.
 */
const panesReady = (page) =>
  page.waitForFunction(
    () => document.querySelector('[data-testid=pane-correct]') && document.querySelector('[data-testid=pane-buggy]'),
    null,
    { timeout: SETTLE_MS },
  );

async function openBugs(page) {
  await byTestId(page, 'mode-select').selectOption('bugs');
  await byTestId(page, 'bug-gallery').waitFor({ state: 'visible' });
}

e2e('every mistake turns its badges red on the buggy side only', async ({ page }) => {
  await openBugs(page);
  assert.deepEqual(await optionValues(page, 'bug-select'), Object.keys(BREAKS));
  for (const [bug, broken] of Object.entries(BREAKS)) {
    await byTestId(page, 'bug-select').selectOption(bug);
    await page.waitForFunction(
      (bug) => document.querySelector('[data-testid=bug-select]').value === bug,
      bug,
      { timeout: SETTLE_MS },
    );
    await panesReady(page);
    const good = await paneBadges(page, 'pane-correct');
    const bad = await paneBadges(page, 'pane-buggy');
    const refused = REFUSED.includes(bug);
    if (refused) {
      const why = await page.locator('[data-testid=pane-correct] [data-testid=config-error]').innerText();
      assert.match(why, /must be smaller than size/, `${bug}: the engine says why it refuses`);
    }
    for (const n of BADGES) {
      if (!refused) assert.equal(good[n], 'true', `${bug}: correct engine badge ${n}`);
      assert.equal(bad[n], broken.includes(n) ? 'false' : 'true', `${bug}: buggy badge ${n}`);
    }
    const explain = await byTestId(page, 'bug-explain').innerText();
    assert.ok(explain.length > 80, `${bug}: an explanation is shown`);
    assert.ok((await byTestId(page, 'bug-fix').innerText()).length > 40, `${bug}: a fix is shown`);
    assert.equal(await byTestId(page, 'bug-code').getAttribute('data-bug'), bug, `${bug}: its code is offered`);
  }
});

e2e('range() loop: the lone "j" tail; seed 002 without merge: six single c', async ({ page }) => {
  await openBugs(page);
  await byTestId(page, 'bug-select').selectOption('tail');
  await panesReady(page);
  assert.deepEqual(await paneTexts(page, 'pane-buggy'), ['abcd', 'defg', 'ghij', 'j']);
  assert.deepEqual(await paneTexts(page, 'pane-correct'), ['abcd', 'defg', 'ghij']);
  await byTestId(page, 'bug-select').selectOption('no-merge');
  await panesReady(page);
  assert.deepEqual(await paneTexts(page, 'pane-buggy'), ['aa', 'bbb', 'c', 'c', 'c', 'c', 'c', 'c']);
  assert.deepEqual(await paneTexts(page, 'pane-correct'), ['aa', 'bbb', 'ccc', 'ccc']);
});

e2e('no progress is stopped by a budget and says so', async ({ page }) => {
  await openBugs(page);
  await byTestId(page, 'bug-select').selectOption('no-progress');
  const note = await byTestId(page, 'bug-note').innerText();
  assert.match(note, /stopped after \d+ levels without progress/);
});

e2e('the dropped separator: a chunk that is not a slice of the text, and editing the text re-runs', async ({ page }) => {
  await openBugs(page);
  await byTestId(page, 'bug-select').selectOption('dropped-separator');
  await panesReady(page);
  const slices = await page.$$eval('[data-testid=pane-buggy] [data-testid=chunk]', (els) =>
    els.map((e) => e.getAttribute('data-slice')),
  );
  assert.ok(slices.includes('false'), `some buggy chunk is not a slice: ${slices}`);
  await byTestId(page, 'bug-text').fill('One. Two.');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=pane-buggy] [data-testid=chunk]')].length === 1,
  );
  const bad = await paneBadges(page, 'pane-buggy');
  assert.equal(bad.coverage, 'true', 'short text fits whole: nothing lost');
});
