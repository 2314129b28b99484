// Step-through, interview cards and practice: the trace replayed one event at a time, and
// each card's button setting the playground up to show its answer.
import { e2e, assert, byTestId, waitForChunkSpans, SEED_CHUNKS } from './harness.mjs';

const stepText = (page) => byTestId(page, 'step-text').innerText();

e2e('step-next walks the refund page to its last chunk; step-prev goes back', async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  const seen = [await stepText(page)];
  const next = byTestId(page, 'step-next');
  while (await next.isEnabled()) {
    await next.click();
    const text = await stepText(page);
    seen.push(text);
    // The current piece is selected in the tree, which highlights it in the text.
    assert.equal(await page.locator('[data-testid=tree-node].selected').count(), 1, `a node is highlighted at: ${text}`);
  }
  assert.ok(seen.length > 10, `many steps: ${seen.length}`);
  assert.notEqual(seen[1], seen[0]);
  assert.match(seen[1], /114 chars, over 40/);
  assert.ok(seen.some((t) => /split on “\\n\\n”/.test(t)), 'names the blank line');
  assert.ok(seen.some((t) => /would make it 98, over the size of 40/.test(t)), 'gives the packing numbers');
  assert.match(seen.at(-1), /Emit chunk 4.*last chunk/);
  await byTestId(page, 'step-prev').click();
  assert.equal(await stepText(page), seen.at(-2));
});

e2e('play advances on its own and stops at the end', async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  await byTestId(page, 'step-speed').selectOption('250');
  await byTestId(page, 'step-play').click();
  await page.waitForFunction(
    () => /last chunk/.test(document.querySelector('[data-testid=step-text]').innerText),
    null,
    { timeout: 15000 },
  );
  assert.equal(await byTestId(page, 'step-next').isDisabled(), true);
});

e2e('a card button loads its setup', async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  const cards = page.locator('[data-testid=card]');
  const ids = await cards.evaluateAll((els) => els.map((e) => e.dataset.card));
  for (const id of ['tokens', 'overlap', 'markdown', 'empty', 'merge', 'slack', 'pdf']) {
    assert.ok(ids.includes(id), `card ${id}: ${ids}`);
  }
  await page.locator('[data-card=empty] [data-testid=card-show]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=preset-select]').value === 'base64');
  assert.equal(await byTestId(page, 'size-input').inputValue(), '40');
  await page.waitForFunction(() => document.querySelector('[data-testid=chunk][data-cut=hard]') !== null);
  await page.locator('[data-card=overlap] [data-testid=card-show]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=overlap-input]').value === '12');
  assert.match(await byTestId(page, 'doc-input').inputValue(), /^Refund policy/);
});

e2e('practice: marking the cuts of stride-and-tail scores 100, a wrong mark scores less', async ({ page }) => {
  await byTestId(page, 'mode-select').selectOption('practice');
  await byTestId(page, 'practice-select').selectOption('stride');
  await page.locator('[data-testid=practice-slot][data-pos="4"]').click();
  await page.locator('[data-testid=practice-slot][data-pos="7"]').click();
  await byTestId(page, 'practice-submit').click();
  assert.equal(await byTestId(page, 'practice-score').getAttribute('data-score'), '100');
  assert.match(await byTestId(page, 'practice-reasons').innerText(), /fixed window/);
  await byTestId(page, 'practice-select').selectOption('overlap');
  await page.locator('[data-testid=practice-slot][data-pos="5"]').click();
  await byTestId(page, 'practice-submit').click();
  assert.equal(await byTestId(page, 'practice-score').getAttribute('data-score'), '0');
  assert.match(await byTestId(page, 'practice-score').innerText(), /2 missed · 1 extra/);
  // Progress survives a reload.
  await page.reload();
  await byTestId(page, 'mode-select').selectOption('practice');
  assert.match(await byTestId(page, 'practice-select').innerText(), /stride · best 100/);
  await byTestId(page, 'practice-seed').fill('42');
  await byTestId(page, 'practice-seed').press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=practice-select]').value === 'seed');
  // Seed 42 generates "five take work\ndays\n\nrefunds work\norders days\n\norders"
  // at size 16 with the lesson's separators (the generator's arithmetic, redone
  // by hand), whose chunks in the independent lesson model are chars 0–14,
  // 15–19, 21–33, 34–45 and 47–53: four cuts, at 14–15, 19–21, 33–34, 45–47.
  const text = 'five take work\ndays\n\nrefunds work\norders days\n\norders';
  await page.waitForFunction(() => document.querySelector('[data-testid=practice-slot][data-pos="52"]') !== null);
  assert.equal(
    await byTestId(page, 'practice-text').evaluate((el) => el.textContent),
    text.replaceAll('\n', '↵\n'),
    'the text of seed 42, a newline drawn as ↵',
  );
  const slots = await page.locator('[data-testid=practice-slot]').evaluateAll((els) => els.map((e) => Number(e.dataset.pos)));
  assert.deepEqual(slots, Array.from({ length: 52 }, (_, i) => i + 1), 'a slot between every two of its 53 chars');
  // Two cuts marked (one at each end of its range) and one mark where no cut
  // is: 2 hits over 4 cuts + 1 extra mark is 40.
  for (const pos of [15, 19, 3]) await page.locator(`[data-testid=practice-slot][data-pos="${pos}"]`).click();
  await byTestId(page, 'practice-submit').click();
  assert.equal(await byTestId(page, 'practice-score').getAttribute('data-score'), '40');
  assert.deepEqual(
    await byTestId(page, 'practice-reasons').locator('li').evaluateAll((lis) => lis.map((li) => li.dataset.hit)),
    ['true', 'true', 'false', 'false'],
  );
  const after = await byTestId(page, 'practice-reasons').locator('li').evaluateAll((lis) =>
    lis.map((li) => Number(/after char (\d+)/.exec(li.textContent)[1])),
  );
  assert.deepEqual(after, [14, 19, 33, 45], 'the reasons name the four cuts');
  assert.equal(await byTestId(page, 'practice-score').innerText(), '40 / 100 · 2 missed · 1 extra');
});

e2e(
  'step-through and cards: screenshots at 1400 and 420',
  async ({ page, shot }) => {
    await waitForChunkSpans(page, SEED_CHUNKS);
    for (let i = 0; i < 9; i++) await byTestId(page, 'step-next').click();
    const problems = [];
    for (const width of [1400, 420]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(`teach-steps-${width}`);
      await byTestId(page, 'mode-select').selectOption('practice');
      await byTestId(page, 'practice-select').selectOption('refund');
      await page.locator('[data-testid=practice-slot][data-pos="14"]').click();
      await page.locator('[data-testid=practice-slot][data-pos="40"]').click();
      await byTestId(page, 'practice-submit').click();
      await shot(`teach-practice-${width}`);
      await byTestId(page, 'mode-select').selectOption('explore');
      const wide = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
      if (width === 420 && wide > 1) problems.push(`${wide}px too wide`);
    }
    assert.deepEqual(problems, []);
  },
  { finalShot: false },
);
