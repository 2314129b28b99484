// Code mode: the lessons' listings, one button per line; marks, the reveal with
// each known bug on its line, the score, and a bug's run in the gallery.
import { e2e, assert, byTestId, optionValues, SETTLE_MS } from './harness.mjs';

async function openCode(page) {
  await byTestId(page, 'mode-select').selectOption('code');
  await byTestId(page, 'code-mode').waitFor({ state: 'visible' });
}

const lines = (page) =>
  page.$$eval('[data-testid=listing-line]', (els) =>
    els.map((e) => ({
      line: Number(e.getAttribute('data-line')),
      marked: e.getAttribute('data-marked'),
      bug: e.getAttribute('data-bug'),
      code: e.querySelector('code').textContent,
    })),
  );

const line = (page, n) => page.locator(`[data-testid=listing-line][data-line="${n}"]`);

e2e('the five listings, verbatim, one element per line', async ({ page }) => {
  await openCode(page);
  assert.deepEqual(await optionValues(page, 'listing-select'), [
    'fixed_chunks',
    'recursive_split',
    'split',
    'RecursiveTextChunker',
    'fixed_windows',
  ]);
  // The class opens first: 39 lines as lesson 001 prints them.
  let shown = await lines(page);
  assert.equal(shown.length, 39);
  assert.equal(shown[2].code, 'class RecursiveTextChunker:');
  assert.equal(
    shown[21].code,
    '                current_chunk = current_chunk[-self.chunk_overlap:] + s if self.chunk_overlap < len(current_chunk) else s',
  );
  assert.equal(shown[12].code, '        ');
  const counts = { fixed_windows: 30, fixed_chunks: 13, recursive_split: 27, split: 11 };
  for (const [name, n] of Object.entries(counts)) {
    await byTestId(page, 'listing-select').selectOption(name);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=listing-line]').length === n, n);
    shown = await lines(page);
    assert.equal(shown.length, n, name);
  }
  assert.equal(shown[7].code, '        out.extend(split(p, size, rest) if len(p) > size else [p])');
  assert.equal(shown[10].code, 'print(split("aa\\n\\nbbb\\ncccccc", 3, ["\\n\\n", "\\n", ""]))');
});

e2e('marks, the reveal with every bug on its line, and the score', async ({ page }) => {
  await openCode(page);
  // Two bug lines, one line with no bug; line 2 marked and unmarked again.
  for (const n of [22, 38, 3, 2, 2]) await line(page, n).click();
  assert.deepEqual(
    (await lines(page)).filter((l) => l.marked === 'true').map((l) => l.line),
    [3, 22, 38],
  );
  assert.equal(await byTestId(page, 'listing-bug').count(), 0, 'no bug shown before the reveal');
  await byTestId(page, 'listing-reveal').click();
  const score = byTestId(page, 'listing-score');
  await score.waitFor();
  assert.equal(await score.getAttribute('data-hits'), '2');
  assert.equal(await score.getAttribute('data-misses'), '6');
  assert.equal(await score.getAttribute('data-false-marks'), '1');
  assert.match(await score.innerText(), /2 of 8 bug lines found · 6 missed · 1 false mark/);
  const bugs = await page.$$eval('[data-testid=listing-bug]', (els) =>
    els.map((e) => [Number(e.getAttribute('data-line')), e.getAttribute('data-bug')]),
  );
  assert.deepEqual(bugs, [
    [6, 'unchecked-overlap'],
    [20, 'seed-001'],
    [22, 'seed-001'],
    [22, 'seed-001'],
    [22, 'overlap-skipped'],
    [22, 'mid-word-overlap'],
    [25, 'lost-offsets'],
    [32, 'seed-001'],
    [35, 'seed-001'],
    [36, 'seed-001'],
    [38, 'seed-001'],
  ]);
  // Each bug is drawn right under its own line.
  const placed = await page.$$eval('[data-testid=listing-bug]', (els) =>
    els.every(
      (e) => e.closest('li').querySelector('[data-testid=listing-line]').getAttribute('data-line') === e.getAttribute('data-line'),
    ),
  );
  assert.ok(placed);
  const shown = await lines(page);
  assert.deepEqual(
    shown.filter((l) => l.bug === 'true').map((l) => l.line),
    [6, 20, 22, 25, 32, 35, 36, 38],
  );
  // Marks are frozen while revealed; "try again" clears them.
  await line(page, 5).click({ force: true });
  assert.equal(await line(page, 5).getAttribute('data-marked'), 'false');
  await byTestId(page, 'listing-retry').click();
  await byTestId(page, 'listing-reveal').waitFor();
  assert.equal((await lines(page)).filter((l) => l.marked === 'true').length, 0);
});

e2e('a listing with no known bug: every mark is a false mark', async ({ page }) => {
  await openCode(page);
  await byTestId(page, 'listing-select').selectOption('fixed_chunks');
  await line(page, 10).click();
  await byTestId(page, 'listing-reveal').click();
  const score = byTestId(page, 'listing-score');
  assert.deepEqual(
    [await score.getAttribute('data-hits'), await score.getAttribute('data-misses'), await score.getAttribute('data-false-marks')],
    ['0', '0', '1'],
  );
  assert.match(await byTestId(page, 'listing-note').innerText(), /No known bug/);
});

e2e("a bug's link runs the gallery variant that reproduces it", async ({ page }) => {
  await openCode(page);
  await byTestId(page, 'listing-reveal').click();
  // Line 22's mid-word overlap: the gallery opens on its variant and demo.
  await page.locator('[data-testid=listing-run][data-bug="mid-word-overlap"]').click();
  await byTestId(page, 'bug-gallery').waitFor({ state: 'visible' });
  assert.equal(await byTestId(page, 'bug-select').inputValue(), 'mid-word-overlap');
  assert.equal(await byTestId(page, 'mode-select').inputValue(), 'bugs');
  const texts = (pane) =>
    page.$$eval(`[data-testid="${pane}"] [data-testid=chunk] .bug-text`, (els) => els.map((e) => e.textContent));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=pane-correct] [data-testid=chunk]').length === 3, null, {
    timeout: SETTLE_MS,
  });
  assert.deepEqual(await texts('pane-buggy'), ['Refunds take five days.', 'ays. Cash refunds are', 'are instant.']);
  assert.deepEqual(await texts('pane-correct'), ['Refunds take five days.', 'Cash refunds are', 'are instant.']);

  // Line 20's empty chunk runs the class on a text of its own.
  await byTestId(page, 'mode-select').selectOption('code');
  await byTestId(page, 'listing-reveal').click();
  await page.locator('[data-testid=listing-bug][data-line="20"] [data-testid=listing-run]').click();
  await byTestId(page, 'bug-gallery').waitFor({ state: 'visible' });
  assert.equal(await byTestId(page, 'bug-select').inputValue(), 'seed-001');
  assert.equal(await byTestId(page, 'bug-text').inputValue(), 'Fees.\n\n\n\n\n\nNone.');
  assert.equal(await byTestId(page, 'bug-size').inputValue(), '6');
  assert.equal(await byTestId(page, 'bug-overlap').inputValue(), '1');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=pane-buggy] [data-testid=chunk]').length === 3, null, {
    timeout: SETTLE_MS,
  });
  assert.deepEqual(await texts('pane-buggy'), ['Fees.', '(empty)', 'None.']);

  // Line 6: the engine refuses overlap 10 at size 10, the class runs with it.
  await byTestId(page, 'mode-select').selectOption('code');
  await byTestId(page, 'listing-reveal').click();
  await page.locator('[data-testid=listing-run][data-bug="unchecked-overlap"]').click();
  await byTestId(page, 'pane-buggy').waitFor();
  assert.match(await page.locator('[data-testid=pane-correct] [data-testid=config-error]').innerText(), /overlap \(10\) must be smaller than size \(10\)/);
  assert.deepEqual(await texts('pane-buggy'), ['one two', 'three', 'four five', 'six']);
});

/** Screenshots at 1400 and 390 px, light and dark; says where the page is wider than 390 px. */
async function shoot(page, shot, name) {
  const problems = [];
  for (const colorScheme of ['light', 'dark']) {
    for (const width of [1400, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      await shot(`code-${name}-${width}-${colorScheme}`);
      const wide = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
      if (width === 390 && wide > 1) problems.push(`${name} ${colorScheme}: ${wide}px too wide`);
    }
  }
  return problems;
}

e2e(
  'code mode and the practice drills: screenshots, no overflow at 390 px',
  async ({ page, shot }) => {
    await openCode(page);
    for (const n of [6, 22, 30]) await line(page, n).click();
    let problems = await shoot(page, shot, 'marked');
    await byTestId(page, 'listing-reveal').click();
    problems = problems.concat(await shoot(page, shot, 'revealed'));
    await byTestId(page, 'mode-select').selectOption('practice');
    await byTestId(page, 'practice-select').selectOption('refund');
    await byTestId(page, 'practice-lengths').fill('13 20 30 28 16');
    await byTestId(page, 'practice-lengths-check').click();
    await byTestId(page, 'practice-level-guess').nth(0).selectOption('0');
    await byTestId(page, 'practice-level-guess').nth(1).selectOption('2');
    await byTestId(page, 'practice-levels-check').click();
    problems = problems.concat(await shoot(page, shot, 'drills'));
    assert.deepEqual(problems, []);
  },
  { finalShot: false, timeout: 120000 },
);
