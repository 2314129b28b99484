// Long documents are drawn a window at a time and stay responsive; the tree,
// the keyboard and the error state mark what they are about.
import {
  e2e,
  assert,
  byTestId,
  configure,
  loadRefundAt40,
  readBadges,
  waitForConfigError,
  waitForNoConfigError,
  charSlice,
} from './harness.mjs';

/** Puts `bytes` of prose-like text (fixed seed) into doc-input, as a paste would. */
function pasteProse(page, bytes) {
  return page.evaluate((bytes) => {
    const words = 'the chunk splits text at a separator and packs the pieces back up to the size'.split(' ');
    let seed = 7;
    const next = (n) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const parts = [];
    let length = 0;
    while (length < bytes) {
      const word = words[next(words.length)];
      const end = next(14) === 0 ? (next(6) === 0 ? '.\n\n' : '. ') : ' ';
      parts.push(word + end);
      length += word.length + end.length;
    }
    const input = document.querySelector('[data-testid=doc-input]');
    input.value = parts.join('').slice(0, bytes);
    input.dispatchEvent(new InputEvent('input', { bubbles: true }));
    return input.value;
  }, bytes);
}

/** The document view's window: first drawn index, drawn count, total. */
const windowOf = (page) =>
  byTestId(page, 'document-view').evaluate((el) => ({
    first: Number(el.getAttribute('data-first')),
    drawn: Number(el.getAttribute('data-drawn')),
    total: Number(el.getAttribute('data-total')),
    inDom: el.querySelectorAll('[data-testid=chunk]').length,
  }));

e2e(
  'a 1 MB paste draws a window of chunks, scrolls to later ones, and stays responsive',
  async ({ page }) => {
    await configure(page, { separators: 'seed', strategy: 'recursive', size: 300, overlap: 0 });
    const text = await pasteProse(page, 1_000_000);
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid=document-view]')?.getAttribute('data-total')) > 3000,
      null,
      { timeout: 15000 },
    );
    let w = await windowOf(page);
    assert.ok(w.drawn < w.total, `a window is drawn, not all ${w.total} chunks: ${JSON.stringify(w)}`);
    assert.equal(w.inDom, w.drawn, 'data-drawn counts the chunk elements in the view');
    assert.equal(w.first, 0);

    // The determinism check of a long text runs after the first paint, then passes.
    await page.waitForFunction(
      () => {
        const b = document.querySelector('[data-testid=badge-determinism]');
        return b && !b.hasAttribute('data-pending') && b.getAttribute('data-ok') === 'true';
      },
      null,
      { timeout: 15000 },
    );
    assert.deepEqual(Object.values(await readBadges(page)), ['true', 'true', 'true', 'true', 'true']);

    // Scrolling to the end draws the last chunks, with the right offsets.
    await byTestId(page, 'document-view').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.waitForFunction(
      () => {
        const v = document.querySelector('[data-testid=document-view]');
        return v.querySelector(`[data-testid=chunk][data-index="${Number(v.getAttribute('data-total')) - 1}"]`);
      },
      null,
      { timeout: 5000, polling: 'raf' },
    );
    w = await windowOf(page);
    assert.ok(w.first > 0, `the window moved: ${JSON.stringify(w)}`);
    const last = await page
      .locator('[data-testid=document-view] [data-testid=chunk]')
      .last()
      .evaluate((el) => ({ start: +el.dataset.start, end: +el.dataset.end, text: el.textContent }));
    assert.equal(last.text, charSlice(text, last.start, last.end), 'the last chunk is its span of the text');

    // The page still answers: a new size re-splits and repaints.
    const before = w.total;
    await configure(page, { size: 150 });
    await page.waitForFunction(
      (before) => Number(document.querySelector('[data-testid=document-view]').getAttribute('data-total')) > before,
      before,
      { timeout: 10000 },
    );
    const frame = await page.evaluate(
      () => new Promise((resolve) => {
        const t0 = performance.now();
        requestAnimationFrame(() => resolve(performance.now() - t0));
      }),
    );
    assert.ok(frame < 1000, `a frame came ${frame} ms after asking`);
  },
  { timeout: 60000 },
);

e2e('a small document is drawn whole', async ({ page }) => {
  await loadRefundAt40(page);
  const w = await windowOf(page);
  assert.deepEqual(w, { first: 0, drawn: 5, total: 5, inDom: 5 });
  assert.equal(await byTestId(page, 'doc-more').count(), 0);
});

e2e('a tree node, clicked or chosen with Enter, highlights its span in the document', async ({ page }) => {
  await loadRefundAt40(page);
  const lit = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=document-view] [data-testid=chunk]')]
        .filter((el) => el.classList.contains('in-node'))
        .map((el) => el.getAttribute('data-index')),
    );
  const middle = page.locator('[data-testid=tree-node][data-len="81"]');
  await middle.click();
  await page.waitForFunction(() => document.querySelectorAll('.in-node').length > 0);
  assert.deepEqual(await lit(), ['1', '2', '3'], 'the 81-char piece holds chunks 1 to 3');
  assert.equal(await middle.getAttribute('aria-selected'), 'true');

  // Keyboard: focus the last piece and press Enter.
  const contact = page.locator('[data-testid=tree-node][data-len="16"]');
  await contact.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('.in-node')?.getAttribute('data-index') === '4');
  assert.deepEqual(await lit(), ['4']);

  // A chunk is reachable with Tab and Enter finds its node in the tree.
  await page.locator('[data-testid=chunk][data-index="0"]').focus();
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-index'));
  assert.equal(focused, '1', 'Tab moves from chunk 0 to chunk 1');
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=tree-node][aria-selected=true]')?.getAttribute('data-len') === '20',
  );
});

e2e('a bad setting marks its input and shows the old badges as stale', async ({ page }) => {
  await loadRefundAt40(page);
  await configure(page, { size: 0 });
  await waitForConfigError(page, 'size 0');
  assert.equal(await byTestId(page, 'size-input').getAttribute('aria-invalid'), 'true');
  assert.equal(await byTestId(page, 'overlap-input').getAttribute('aria-invalid'), null);
  const badge = byTestId(page, 'badge-coverage');
  assert.equal(await badge.getAttribute('data-ok'), 'true', 'data-ok keeps the last result');
  assert.match(await badge.getAttribute('class'), /\bstale\b/);
  assert.equal((await badge.locator('.mark').textContent()).trim(), '—');

  await configure(page, { size: 40, overlap: 40 });
  await waitForConfigError(page, 'overlap 40');
  assert.equal(await byTestId(page, 'overlap-input').getAttribute('aria-invalid'), 'true');
  assert.equal(await byTestId(page, 'size-input').getAttribute('aria-invalid'), null);

  await configure(page, { overlap: 0 });
  await waitForNoConfigError(page, 'overlap 0');
  assert.equal(await byTestId(page, 'overlap-input').getAttribute('aria-invalid'), null);
  assert.doesNotMatch(await badge.getAttribute('class'), /\bstale\b/);
});

e2e('the space separator has a visible label in the list and the cuts panel', async ({ page }) => {
  await loadRefundAt40(page);
  const space = page.locator('[data-testid=separator-item][data-label=" "]');
  assert.match(await space.innerText(), /␣[\s\S]*space/);
  const cuts = await page.locator('.fired code').allInnerTexts();
  assert.ok(cuts.includes('␣'), `cuts panel labels: ${JSON.stringify(cuts)}`);
});
