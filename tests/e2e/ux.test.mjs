// A new user's path through the page: "Show me" on a card shows its result
// and asks before replacing the user's own text (undo and Back both return),
// the compare views' numbers for both panes, a long tree two levels deep,
// jump links and a skip link, the chunk downloads, and the bug gallery's code.
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import {
  e2e,
  assert,
  REFUND,
  SEED_CHUNKS,
  SETTLE_MS,
  byTestId,
  configure,
  loadRefundAt40,
  waitForChunkSpans,
} from './harness.mjs';

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Whether the element's top is inside the window. */
const inView = (locator) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.top < window.innerHeight;
  });

// ---------------------------------------------------------------------------
// Show me.

e2e('Show me over an example: the result is scrolled to and named, Undo and Back return', async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  const before = page.url();
  await page.locator('[data-card=empty] [data-testid=card-show]').click();
  const shown = byTestId(page, 'card-shown');
  await shown.waitFor({ state: 'visible' });
  assert.equal(await shown.getAttribute('data-card'), 'empty');
  assert.equal(await shown.getAttribute('data-kept-text'), 'false');
  await page.waitForFunction(() => document.querySelector('[data-testid=chunk][data-cut=hard]') !== null);
  assert.equal(await byTestId(page, 'preset-select').inputValue(), 'base64');
  await page.waitForFunction(() => {
    const r = document.querySelector('[data-testid=card-shown]').getBoundingClientRect();
    return r.top >= 0 && r.top < window.innerHeight;
  }, null, { timeout: SETTLE_MS });
  assert.equal(await byTestId(page, 'card-confirm').count(), 0, 'an example document is replaced without asking');
  assert.notEqual(page.url(), before, 'the card is an entry of its own in the history');

  // Back: the refund page again, still in the app.
  await page.goBack();
  await waitForChunkSpans(page, SEED_CHUNKS);
  assert.equal(await byTestId(page, 'preset-select').inputValue(), 'refund');
  assert.equal(await byTestId(page, 'card-shown').count(), 0);
  assert.equal(await byTestId(page, 'doc-input').inputValue(), REFUND);
  // Forward: the card's setup again.
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('[data-testid=preset-select]').value === 'base64');
  assert.equal(await byTestId(page, 'size-input').inputValue(), '40');

  // Undo does what Back does.
  await page.locator('[data-card=merge] [data-testid=card-show]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=size-input]').value === '100');
  await byTestId(page, 'card-undo').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=preset-select]').value === 'base64');
  assert.equal(await byTestId(page, 'size-input').inputValue(), '40');
});

e2e('Show me asks before replacing a pasted document: cancel, keep it, or replace it and undo', async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  const mine = 'My own notes, pasted here. They are not an example and must not be lost.';
  await byTestId(page, 'doc-input').fill(mine);
  await waitForChunkSpans(page, [{ text: 'My own notes, pasted here.', start: 0, end: 26, cut: '. ' },
    { text: 'They are not an example and must not be', start: 27, end: 66, cut: ' ' },
    { text: 'lost.', start: 67, end: 72, cut: 'end' }]);

  const show = page.locator('[data-card=merge] [data-testid=card-show]');
  await show.click();
  const confirm = page.locator('[data-card=merge] [data-testid=card-confirm]');
  await confirm.waitFor({ state: 'visible' });
  assert.equal(await byTestId(page, 'doc-input').inputValue(), mine, 'nothing replaced before the answer');
  await byTestId(page, 'card-confirm-cancel').click();
  assert.equal(await byTestId(page, 'card-confirm').count(), 0);
  assert.equal(await byTestId(page, 'doc-input').inputValue(), mine);
  assert.equal(await byTestId(page, 'size-input').inputValue(), '40');
  // The question has the keyboard focus; Escape is Cancel.
  await show.click();
  await confirm.waitFor({ state: 'visible' });
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'card-confirm');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.querySelector('[data-testid=card-confirm]') === null);
  assert.equal(await byTestId(page, 'doc-input').inputValue(), mine);

  // Keep my text: the card's settings (size 100) over the same text.
  await show.click();
  await byTestId(page, 'card-confirm-keep').click();
  await waitForChunkSpans(page, [{ text: mine, start: 0, end: 72, cut: 'end' }]);
  assert.equal(await byTestId(page, 'size-input').inputValue(), '100');
  assert.equal(await byTestId(page, 'card-shown').getAttribute('data-kept-text'), 'true');

  // Replace, then undo: the text comes back.
  await byTestId(page, 'size-input').fill('40');
  await show.click();
  await byTestId(page, 'card-confirm-replace').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=preset-select]').value === 'refund');
  assert.equal(await byTestId(page, 'doc-input').inputValue(), REFUND);
  await byTestId(page, 'card-undo').click();
  await page.waitForFunction((mine) => document.querySelector('[data-testid=doc-input]').value === mine, mine);
  assert.equal(await byTestId(page, 'size-input').inputValue(), '40');
});

// ---------------------------------------------------------------------------
// Compare views: both sides' numbers.

e2e('the compare view lists both panes\' numbers side by side', async ({ page }) => {
  await loadRefundAt40(page);
  await byTestId(page, 'strategy-select').selectOption('compare');
  const table = byTestId(page, 'compare-stats');
  await table.waitFor({ state: 'visible' });
  await page.waitForFunction(() =>
    document.querySelector('[data-testid=compare-stat][data-stat=chunks] td[data-pane=fixed]')?.dataset.value === '3');
  const cell = (stat, pane) =>
    page.evaluate(
      ({ stat, pane }) =>
        [...document.querySelectorAll('[data-testid=compare-stat]')]
          .find((row) => row.dataset.stat === stat)
          ?.querySelector(`td[data-pane=${pane}]`)
          ?.getAttribute('data-value') ?? null,
      { stat, pane },
    );
  // Fixed windows of 40 over 114 chars: 40, 40, 34; recursive: the lesson's five.
  assert.deepEqual(
    await Promise.all(['chunks', 'min', 'median', 'max', 'mean'].map((s) => cell(s, 'fixed'))),
    ['3', '34', '40', '40', '38.0'],
  );
  assert.deepEqual(
    await Promise.all(['chunks', 'min', 'median', 'max', 'mean'].map((s) => cell(s, 'recursive'))),
    ['5', '13', '20', '31', '21.6'],
  );
  assert.equal(await cell('window', 'fixed'), '2');
  assert.equal(await cell('window', 'recursive'), '0');
  assert.equal(await cell('cut:\\n\\n', 'recursive'), '2');
  assert.equal(await cell('cut:. ', 'recursive'), '1');
  assert.equal(await cell('cut:\\n', 'recursive'), '1');
  assert.equal(await byTestId(page, 'compare-primary').getAttribute('data-pane'), 'recursive');
});

// ---------------------------------------------------------------------------
// Long pages.

e2e('a long tree starts two levels deep; a node, open all and close all change it', async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  const text = Array.from({ length: 100 }, (_, i) => `Paragraph ${i} has words. And a second sentence.`).join('\n\n');
  await configure(page, { text, size: 30 });
  const collapsed = byTestId(page, 'tree-collapsed');
  await collapsed.waitFor({ state: 'visible', timeout: SETTLE_MS });
  const nodes = Number(await collapsed.getAttribute('data-nodes'));
  const depths = () => page.$$eval('[data-testid=tree-node]', (els) => els.map((e) => Number(e.dataset.depth)));
  let shown = await depths();
  assert.equal(Math.max(...shown), 2, 'two levels drawn');
  // 100 paragraphs: the root and its 50 first children (the rest behind "show more").
  assert.equal(shown.length, 51);
  // One node opened by hand.
  await page.locator('[data-testid=tree-node][data-depth="2"] .twisty').first().click();
  await page.waitForFunction(() => document.querySelector('[data-testid=tree-node][data-depth="3"]') !== null);
  await byTestId(page, 'tree-expand-all').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=tree-node][data-depth="3"]').length >= 100);
  shown = await depths();
  assert.equal(Math.max(...shown), 3);
  assert.ok(nodes > 120, `${nodes} nodes`);
  await byTestId(page, 'tree-collapse-all').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=tree-node][data-depth="3"]') === null);
});

e2e('the skip link is the first Tab stop and lands on the first chunk; jump links reach each view', async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  await page.keyboard.press('Tab');
  const skip = byTestId(page, 'skip-link');
  assert.equal(await skip.evaluate((el) => el === document.activeElement), true, 'the first Tab stop');
  assert.equal(await skip.isVisible(), true);
  await page.keyboard.press('Enter');
  assert.equal(
    await page.evaluate(() => document.activeElement?.dataset.testid + ':' + document.activeElement?.dataset.index),
    'chunk:0',
  );
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.index), '1', 'the next Tab is the next chunk');

  const targets = await page.$$eval('[data-testid=jump-link]', (els) => els.map((e) => e.dataset.target));
  assert.deepEqual(targets, ['chunks', 'tree', 'table', 'stats', 'code', 'cards']);
  const into = { tree: 'tree-node', table: 'chunk-table', stats: 'stats', code: 'code-view', cards: 'card' };
  for (const [target, hook] of Object.entries(into)) {
    await page.locator(`[data-testid=jump-link][data-target=${target}]`).click();
    await page.waitForFunction(
      (hook) => {
        const r = document.querySelector(`[data-testid=${hook}]`).getBoundingClientRect();
        return r.top >= 0 && r.top < window.innerHeight;
      },
      hook,
      { timeout: SETTLE_MS },
    );
  }
  assert.equal(await inView(byTestId(page, 'card').first()), true);
});

// ---------------------------------------------------------------------------
// Downloads.

e2e('chunks download as JSONL and CSV with char offsets and SHA-256; the tree on its own', async ({ page }) => {
  await loadRefundAt40(page);
  const save = async (hook) => {
    const [download] = await Promise.all([page.waitForEvent('download'), byTestId(page, hook).click()]);
    return { name: download.suggestedFilename(), body: await readFile(await download.path(), 'utf8') };
  };
  const jsonl = await save('export-jsonl');
  assert.equal(jsonl.name, 'chunks.jsonl');
  const lines = jsonl.body.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(
    lines,
    SEED_CHUNKS.map((c, index) => ({
      doc: 'refund',
      index,
      text: c.text,
      start: c.start,
      end: c.end,
      len: [...c.text].length,
      unit: 'chars',
      cut: c.cut,
      sha256: sha256(c.text),
    })),
  );
  assert.deepEqual(Object.keys(lines[0]), ['doc', 'index', 'text', 'start', 'end', 'len', 'unit', 'cut', 'sha256']);

  const csv = await save('export-csv');
  assert.equal(csv.name, 'chunks.csv');
  assert.equal(
    csv.body,
    'doc,index,text,start,end,len,unit,cut,sha256\r\n' +
      SEED_CHUNKS.map((c, i) => `refund,${i},${c.text},${c.start},${c.end},${[...c.text].length},chars,${c.cut},${sha256(c.text)}\r\n`).join(''),
  );

  const trace = await save('export-trace');
  assert.equal(trace.name, 'chunkscope-trace.json');
  const tree = JSON.parse(trace.body);
  const depths = await page.$$eval('[data-testid=tree-node]', (els) => els.map((e) => Number(e.dataset.depth)));
  assert.equal(tree.depth, Math.max(...depths));
  assert.equal(tree.nodes[0].start, 0);
  assert.equal(tree.nodes[0].end, 114);
  assert.equal(tree.nodes.length, await page.locator('[data-testid=tree-node]').count());
});

e2e('CSV quotes a field with a comma, a quote or a newline', async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  await configure(page, { text: 'a, "b"\nc\n\nplain', separators: 'default', size: 9 });
  await waitForChunkSpans(page, [
    { text: 'a, "b"\nc', start: 0, end: 8, cut: '\\n\\n' },
    { text: 'plain', start: 10, end: 15, cut: 'end' },
  ]);
  const [download] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'export-csv').click()]);
  const body = await readFile(await download.path(), 'utf8');
  assert.equal(
    body,
    'doc,index,text,start,end,len,unit,cut,sha256\r\n' +
      `document,0,"a, ""b""\nc",0,8,8,chars,\\n\\n,${sha256('a, "b"\nc')}\r\n` +
      `document,1,plain,10,15,5,chars,end,${sha256('plain')}\r\n`,
  );
});

// ---------------------------------------------------------------------------
// Bug gallery.

e2e('the bug gallery shows each mistake\'s code with its faulty lines, and a slices badge', async ({ page }) => {
  await byTestId(page, 'mode-select').selectOption('bugs');
  await byTestId(page, 'bug-select').selectOption('seed-001');
  const code = byTestId(page, 'bug-code');
  await code.locator('summary').click();
  const faulty = await page.$$eval('[data-testid=bug-code-line]', (els) => els.map((e) => e.textContent.trim()));
  // The lines code mode reveals for the lesson's class (teach/src/listings.rs).
  assert.deepEqual(faulty, [
    'final_chunks.append(current_chunk.strip())',
    'current_chunk = current_chunk[-self.chunk_overlap:] + s if self.chunk_overlap < len(current_chunk) else s',
    'splits = text.split(sep)',
    'if len(s) > self.chunk_size and len(separators) > 1:',
    'result.extend(self._split(s, separators[1:]))',
    'result.append(s + sep)',
  ]);
  await page.waitForFunction(() => document.querySelector('[data-testid=pane-buggy] [data-testid=badge-slices]') !== null);
  assert.equal(await page.locator('[data-testid=pane-buggy] [data-testid=badge-slices]').getAttribute('data-ok'), 'false');
  assert.equal(await page.locator('[data-testid=pane-correct] [data-testid=badge-slices]').getAttribute('data-ok'), 'true');
  await byTestId(page, 'bug-select').selectOption('tail');
  await page.waitForFunction(() => document.querySelector('[data-testid=bug-code]').dataset.bug === 'tail');
  assert.deepEqual(
    await page.$$eval('[data-testid=bug-code-line]', (els) => els.map((e) => e.textContent.trim())),
    ['for start in range(0, len(text), size - overlap):'],
  );
});

e2e('a lesson mistake\'s code in the gallery links to its listing in code mode', async ({ page }) => {
  await byTestId(page, 'mode-select').selectOption('bugs');
  await byTestId(page, 'bug-select').selectOption('no-merge');
  await page.waitForFunction(() => document.querySelector('[data-testid=bug-code]')?.dataset.bug === 'no-merge');
  await byTestId(page, 'bug-code').locator('summary').click();
  // A classic mistake written out for the gallery has no listing to go to.
  const review = byTestId(page, 'bug-code-review');
  assert.equal(await review.getAttribute('data-listing'), 'split');
  await review.click();
  await page.waitForFunction(() => document.querySelector('[data-testid=mode-select]').value === 'code');
  assert.equal(await byTestId(page, 'listing-select').inputValue(), 'split');
  assert.equal(await page.locator('[data-testid=listing-line]').count(), 11);
  await byTestId(page, 'mode-select').selectOption('bugs');
  await byTestId(page, 'bug-select').selectOption('tail');
  await page.waitForFunction(() => document.querySelector('[data-testid=bug-code]')?.dataset.bug === 'tail');
  assert.equal(await byTestId(page, 'bug-code-review').count(), 0);
});

// ---------------------------------------------------------------------------
// Screenshots for review: screenshots/ux-{card,compare,bug}-{1400,390}-{light,dark}.png,
// with no horizontal overflow at 390 px.

const overflow = (page) =>
  page.evaluate(() => (document.scrollingElement.scrollWidth > window.innerWidth + 1 ? document.scrollingElement.scrollWidth : null));

e2e(
  'screenshots: a card asking, a card shown, the compare numbers and the bug code at 1400 and 390 px, light and dark',
  async ({ page, shot }) => {
    await waitForChunkSpans(page, SEED_CHUNKS);
    const problems = [];
    const all = async (name, before) => {
      for (const colorScheme of ['light', 'dark']) {
        for (const width of [1400, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await page.emulateMedia({ colorScheme });
          if (before) await before();
          await shot(`ux-${name}-${width}-${colorScheme}`);
          if (width === 390 && (await overflow(page))) problems.push(`${name} ${colorScheme}: ${await overflow(page)}px wide`);
        }
      }
    };
    await byTestId(page, 'doc-input').fill('My own pasted notes. They matter.');
    await page.waitForFunction(() => document.querySelector('[data-testid=preset-select]').value === 'custom');
    await page.locator('[data-card=overlap] [data-testid=card-show]').click();
    await byTestId(page, 'card-confirm').waitFor({ state: 'visible' });
    await all('card-asking', () => byTestId(page, 'card-confirm').scrollIntoViewIfNeeded());
    await byTestId(page, 'card-confirm-replace').click();
    await byTestId(page, 'card-shown').waitFor({ state: 'visible' });
    await all('card-shown', () => byTestId(page, 'card-shown').scrollIntoViewIfNeeded());
    await byTestId(page, 'strategy-select').selectOption('compare');
    await byTestId(page, 'compare-stats').waitFor({ state: 'visible' });
    await all('compare', () => byTestId(page, 'compare-stats').scrollIntoViewIfNeeded());
    await byTestId(page, 'mode-select').selectOption('bugs');
    await byTestId(page, 'bug-select').selectOption('seed-001');
    await byTestId(page, 'bug-code').locator('summary').click();
    await all('bug', () => byTestId(page, 'bug-code').scrollIntoViewIfNeeded());
    assert.deepEqual(problems, [], 'horizontal overflow at 390 px');
  },
  { finalShot: false, timeout: 90000 },
);
