// Step-through, interview cards and practice: the trace replayed one event at a time, and
// each card's button setting the playground up to show its answer.
import { e2e, assert, byTestId, configure, waitForChunks, waitForChunkSpans, waitForText, waitForValue, SEED_CHUNKS } from './harness.mjs';

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
  assert.ok(
    seen.some((t) => t.includes('15 with “\\n\\n” + 83 with “\\n\\n” = 98 > 40 chars')),
    'gives the packing sum as computed',
  );
  // Packing is told only for pieces that fit, and after it a piece is checked:
  // no "too big" piece is said to be closed by packing.
  for (let i = 1; i < seen.length; i += 1) {
    if (/^Packing/.test(seen[i])) assert.match(seen[i + 1], /within 40: it fits/, `after: ${seen[i]}`);
  }
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
  assert.match(await byTestId(page, 'practice-select').innerText(), /Fixed windows: where each one ends · best 100/);
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
    await byTestId(page, 'practice-reasons').locator('li[data-hit]').evaluateAll((lis) => lis.map((li) => li.dataset.hit)),
    ['true', 'true', 'false', 'false'],
  );
  const after = await byTestId(page, 'practice-reasons').locator('li[data-hit]').evaluateAll((lis) =>
    lis.map((li) => Number(/after char (\d+)/.exec(li.textContent)[1])),
  );
  assert.deepEqual(after, [14, 19, 33, 45], 'the reasons name the four cuts');
  assert.deepEqual(
    await byTestId(page, 'practice-reasons').locator('li[data-extra]').allTextContents(),
    ['✕ extra mark after char 3: the engine does not cut there'],
    'and the extra mark',
  );
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

e2e('the tree and the chunks grow as you step', async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  const count = () =>
    page.evaluate(() => ({
      nodes: document.querySelectorAll('[data-testid=tree-node]').length,
      chunks: document.querySelectorAll('[data-testid=chunk]:not([data-step-pending=true])').length,
    }));
  assert.deepEqual(await count(), { nodes: 8, chunks: 5 }, 'before stepping the finished split is drawn');
  const next = byTestId(page, 'step-next');
  await next.click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=tree-node]').length === 1);
  assert.deepEqual(await count(), { nodes: 1, chunks: 0 }, 'step 1: only the whole text');
  const seen = [await count()];
  const pos = () => byTestId(page, 'step-pos').textContent();
  while (await next.isEnabled()) {
    const before = await pos();
    await next.click();
    // Read each step once it is drawn: a step read too early repeats the one
    // before and hides the chunk it added.
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid=step-pos]')?.textContent !== before,
      before,
      { timeout: 5000 },
    );
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    seen.push(await count());
  }
  for (let i = 1; i < seen.length; i += 1) {
    assert.ok(
      seen[i].nodes >= seen[i - 1].nodes && seen[i].chunks >= seen[i - 1].chunks,
      `step ${i + 1} shrank: ${JSON.stringify(seen.slice(i - 1, i + 1))}`,
    );
  }
  assert.deepEqual(seen.at(-1), { nodes: 8, chunks: 5 }, 'the last step has drawn everything');
  const grew = new Set(seen.map((s) => s.chunks));
  assert.deepEqual([...grew], [0, 1, 2, 3, 4, 5], 'one chunk at a time');
  // "show all" leaves stepping.
  await byTestId(page, 'step-reset').click();
  assert.equal(await byTestId(page, 'step-pos').innerText(), `0 / ${seen.length}`);
});

e2e('practice: try again, show the answer, next; missed and extra marks differ', async ({ page }) => {
  await byTestId(page, 'mode-select').selectOption('practice');
  await byTestId(page, 'practice-select').selectOption('stride');
  const attr = (id, name) => () => byTestId(page, id).getAttribute(name);
  await waitForValue(
    page,
    () => byTestId(page, 'practice-config').innerText(),
    'fixed windows · size 4 · overlap 1 (separators are not used)',
    'the stride exercise is shown',
  );
  const slot = (pos) => page.locator(`[data-testid=practice-slot][data-pos="${pos}"]`);
  // One right, one wrong: the cut at 7 is missed, the mark at 5 is extra.
  await slot(4).click();
  await slot(5).click();
  await byTestId(page, 'practice-submit').click();
  await waitForValue(page, attr('practice-score', 'data-score'), '33', 'one of three right');
  assert.equal(await slot(4).getAttribute('data-mark'), 'hit');
  assert.equal(await slot(7).getAttribute('data-mark'), 'missed');
  assert.equal(await slot(5).getAttribute('data-mark'), 'extra');
  const look = async (pos) =>
    slot(pos).evaluate((el) => {
      const before = getComputedStyle(el, '::before');
      return `${before.backgroundColor} ${before.borderLeftStyle} ${getComputedStyle(el, '::after').content}`;
    });
  assert.notEqual(await look(7), await look(5), 'a missed cut and an extra mark are drawn differently');
  // A mark is a thin line in a wide target: it leaves the letters uncovered.
  const box = await slot(4).boundingBox();
  assert.ok(box.width >= 16 && box.height >= 32, `the click target is ${box.width}×${box.height} px`);
  // One character wide: a slot never covers its neighbour.
  const next = await slot(5).boundingBox();
  assert.ok(box.x + box.width <= next.x + 0.5, `slot 4 ends at ${box.x + box.width}, slot 5 starts at ${next.x}`);
  const line = await slot(4).evaluate((el) => parseFloat(getComputedStyle(el, '::before').width));
  assert.ok(line <= 4, `the mark is ${line} px wide`);
  // Once scored, the engine's chunks are drawn under the text, from char 0.
  const drawn = await byTestId(page, 'practice-text').evaluate((el) =>
    [...el.querySelectorAll('.pch')].map((c) => c.dataset.chunk ?? null),
  );
  assert.equal(drawn[0], '0', `chunks drawn: ${JSON.stringify(drawn)}`);
  assert.ok(new Set(drawn.filter((k) => k !== null)).size >= 2, `chunks drawn: ${JSON.stringify(drawn)}`);
  // Try again keeps the marks and lets them be moved.
  await byTestId(page, 'practice-retry').click();
  await waitForValue(page, () => byTestId(page, 'practice-submit').isEnabled(), true, 'try again');
  assert.equal(await slot(5).getAttribute('aria-pressed'), 'true');
  await slot(5).click();
  await slot(7).click();
  await byTestId(page, 'practice-submit').click();
  await waitForValue(page, attr('practice-score', 'data-score'), '100', 'all right the second time');
  // Show the answer marks every cut, and explains each.
  await byTestId(page, 'practice-next').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=practice-select]').value === 'overlap');
  await waitForValue(page, () => byTestId(page, 'practice-submit').isEnabled(), true, 'a fresh exercise');
  await byTestId(page, 'practice-reveal').click();
  const pressed = () =>
    page.locator('[data-testid=practice-slot][aria-pressed=true]').evaluateAll((els) => els.map((el) => el.dataset.pos));
  await waitForValue(page, pressed, ['8', '14'], 'the answer marks every cut');
  assert.match(await byTestId(page, 'practice-reasons').innerText(), /fixed window of 8 ended; the next starts 6 later/);
  // Readable names, and the recursive settings line says where a separator goes.
  await byTestId(page, 'practice-select').selectOption('placement');
  await waitForText(page, byTestId(page, 'practice-config'), /a separator starts the chunk after the cut/, 'the placement exercise');
  assert.doesNotMatch(await byTestId(page, 'practice-select').innerText(), /^stride$/m);
});

e2e('a Markdown split steps through its sections, blocks and chunks', async ({ page }) => {
  await configure(page, { preset: 'markdown', strategy: 'markdown' });
  const chunks = await waitForChunks(page, (c) => c.length > 10 && Number(c.at(-1).end) > 1000, 'the Markdown page');
  const pos = byTestId(page, 'step-pos');
  await page.waitForFunction(() => /^0 \/ \d+$/.test(document.querySelector('[data-testid=step-pos]')?.textContent ?? ''));
  const total = Number((await pos.textContent()).split('/')[1]);
  // A check, a split and an emit per chunk at least.
  assert.ok(total > chunks.length, `${total} steps for ${chunks.length} chunks`);
  const next = byTestId(page, 'step-next');
  await next.click();
  await next.click();
  await page.waitForFunction(() => document.querySelector('[data-testid=step-pos]')?.textContent.startsWith('2 /'));
  assert.match(await stepText(page), /^Level 1: split at each heading of level 2 or deeper into \d+ parts/);
});
