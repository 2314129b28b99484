// The bug gallery: every mistake runs next to the correct engine; the buggy side's
// badges go red where the mistake breaks a property, the correct side stays green.
import { e2e, assert, byTestId, optionValues, SETTLE_MS } from './harness.mjs';

const BADGES = [
  'coverage', 'max-size', 'order', 'overlap', 'determinism',
  'slices', 'packing', 'overlap-delivered', 'advances', 'hash', 'token-spans', 'boundaries',
];

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
  'dropped-separator': ['coverage', 'order', 'slices', 'hash'],
  'no-hard-cut': ['max-size'],
  'no-progress': ['max-size', 'advances'],
  'seed-001': ['coverage', 'max-size', 'order', 'overlap', 'slices', 'hash'],
  'no-merge': ['packing'],
  'overlap-skipped': ['overlap-delivered'],
  'mid-word-overlap': ['overlap-delivered'],
  'unchecked-overlap': ['overlap-delivered'],
  'lost-offsets': ['coverage', 'order', 'advances'],
  'stale-index': ['coverage', 'order', 'slices', 'hash'],
  'split-before-tokens': ['max-size', 'token-spans'],
  'joined-documents': ['order', 'slices', 'hash', 'boundaries'],
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

/** The title (its detail) of one badge in a pane. */
const badgeDetail = (page, pane, name) =>
  page.locator(`[data-testid="${pane}"] [data-testid="badge-${name}"]`).getAttribute('title');

e2e('seed 004\'s last rows: a stale hash, token spans guessed from strings, a chunk across a permission boundary', async ({ page }) => {
  await openBugs(page);
  // An edit that keeps the size: the index keeps "ten", the page now says "six".
  await byTestId(page, 'bug-select').selectOption('stale-index');
  await panesReady(page);
  assert.deepEqual(await paneTexts(page, 'pane-buggy'), [
    'Card refunds take tensix working days.',
    'Cash refunds are instant.',
    'Disputes: help@pay.example',
  ]);
  assert.match(await badgeDetail(page, 'pane-buggy', 'hash'), /^chunk 0 holds “Card refunds take ten working days\.” \(SHA-256 ec43a9580059…\), but the text at its position, chars 0–35, reads “Card refunds take six working days\.”/);
  assert.match(await byTestId(page, 'bug-note').innerText(), /still 90 bytes/);
  // A longer edit changes the size: split again, every hash current.
  await byTestId(page, 'bug-text').fill('Card refunds take sixty working days.\n\nCash refunds are instant.');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid=pane-buggy] [data-testid=badge-hash]')?.getAttribute('data-ok') === 'true',
  null, { timeout: SETTLE_MS });

  // Ten tokens cut as forty characters: the refund page's cut inside "get".
  await byTestId(page, 'bug-select').selectOption('split-before-tokens');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=pane-correct] [data-testid=chunk]').length === 4,
    null, { timeout: SETTLE_MS });
  assert.equal(
    await badgeDetail(page, 'pane-buggy', 'token-spans'),
    'chunk 1 ends at char 80 inside the document\'s token “ get” (token 22): no span of document tokens is this chunk, and counting it alone makes tokens the document does not have (counted alone, the chunks add up to 34 tokens; the document is 33)',
  );
  assert.deepEqual(
    await page.$$eval('[data-testid=pane-buggy] [data-testid=chunk-tokens]', (els) => els.map((e) => e.textContent)),
    [' · said to be tokens 0–12', ' · said to be tokens 12–23', ' · said to be tokens 23–34'],
  );
  assert.match(await page.locator('[data-testid=pane-buggy] .bug-meta').first().innerText(), /^#0 · 12 cl100k/);
  assert.equal(
    await badgeDetail(page, 'pane-correct', 'token-spans'),
    'each chunk starts and ends where document tokens do, and its count is theirs (33 tokens in all)',
  );

  // Three documents joined: the public refund page runs into the internal rules.
  await byTestId(page, 'bug-select').selectOption('joined-documents');
  await panesReady(page);
  assert.deepEqual(await paneTexts(page, 'pane-correct'), [
    'Card refunds take ten working days.',
    'Refunds over 50,000 go to a second approver.',
    'Cash refunds are instant.',
  ]);
  const labels = (pane) =>
    page.$$eval(`[data-testid=${pane}] [data-testid=chunk-documents]`, (els) => els.map((e) => e.textContent));
  assert.deepEqual(await labels('pane-correct'), [' · refunds.md (public)', ' · fraud-rules.md (internal)', ' · cash.md (public)']);
  assert.deepEqual(await labels('pane-buggy'), [' · refunds.md (public) + fraud-rules.md (internal)', ' · cash.md (public)']);
  assert.equal(
    await badgeDetail(page, 'pane-buggy', 'boundaries'),
    'chunk 0 runs from refunds.md (public) into fraud-rules.md (internal), whose text starts at char 134: a reader allowed only public text is shown internal text',
  );
  assert.equal(
    await badgeDetail(page, 'pane-correct', 'boundaries'),
    'each chunk lies inside one of the 3 documents and keeps its labels',
  );
});
