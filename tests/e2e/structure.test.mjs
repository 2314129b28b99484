// Structure-aware splitting on the page: the heading-prefix toggle (the size
// counts prefix + text; the prefix is drawn apart from the chunk's exact
// text), the recursive-vs-Markdown compare view, and the cards that set up the
// three structure failures. Expected values are the engine's, from the CLI on
// the same text and settings (docs/cli.md).
import {
  e2e, assert, settle, configure, byTestId, waitForChunks, waitForText, waitForConfigError, readChunks, charLen,
} from './harness.mjs';

const chunkAt = (page, index, scope = '') =>
  page.locator(`${scope} [data-testid=document-view] [data-testid=chunk][data-index="${index}"]`.trim());

async function point(page, index, scope = '') {
  await chunkAt(page, index, scope).hover();
  await waitForText(page, byTestId(page, 'chunk-details'), new RegExp(`Chunk ${index}\\b`), `details of chunk ${index}`);
}

// The shipped Markdown page at 120 chars, the lesson's separators, with the
// prefix: 53 chunks (25 without it); a few of them with their prefixes.
const PREFIXED = [
  [0, 0, 21, 'Returns and refunds'],
  [4, 209, 234, 'Returns and refunds > Who can return an item'],
  [11, 533, 587, 'Returns and refunds > How long a refund takes'],
  [46, 1843, 1866, 'Returns and refunds > Frequently asked questions > Who do I contact if something goes wrong?'],
];

e2e('the heading prefix is counted in the size and drawn apart from the chunk', async ({ page }) => {
  await configure(page, { preset: 'markdown', separators: 'seed', strategy: 'markdown', size: 120 });
  await waitForChunks(page, (c) => c.length === 25, 'the preset at 120 chars without a prefix');
  const box = byTestId(page, 'heading-prefix-checkbox');
  assert.equal(await box.isChecked(), false, 'off by default');
  await box.check();
  const chunks = await waitForChunks(page, (c) => c.length === 53, 'the preset at 120 chars with the prefix');
  for (const [index, start, end, path] of PREFIXED) {
    const c = chunks[index];
    assert.deepEqual([Number(c.start), Number(c.end)], [start, end], `chunk ${index} span`);
    await point(page, index);
    const prefix = await waitForText(page, byTestId(page, 'chunk-prefix'), /\S/, `prefix of chunk ${index}`);
    assert.equal(prefix, path, `chunk ${index}: the prefix is the heading path`);
    assert.equal((await byTestId(page, 'heading-path').textContent()).trim(), path);
    // The chunk drawn in the document is the exact text, without the prefix.
    assert.ok(!c.text.startsWith(path), `chunk ${index} text has no prefix: ${JSON.stringify(c.text)}`);
    // Prefix, its blank line and the text fit in the size together.
    const [p, t] = [charLen(path) + 2, end - start];
    assert.ok(p + t <= 120, `chunk ${index} with its prefix`);
    assert.equal(await byTestId(page, 'prefix-sum').textContent(), `prefix ${p} + text ${t} = ${p + t} chars of 120`);
  }
  // Off again: the same 25 chunks as before, and no prefix in the details.
  await box.uncheck();
  await waitForChunks(page, (c) => c.length === 25, 'prefix off');
  await point(page, 4);
  assert.equal(await byTestId(page, 'chunk-prefix').count(), 0);
});

e2e('a table header repeated in every chunk of its rows is that chunk\'s prefix, counted in the size', async ({ page }) => {
  // Worked by hand (core/tests/markdown.rs): the header rows are 33 chars, 34
  // with their line break, so at 50 each chunk after the table's first has
  // 16 chars of room: "| Pro | 10 |" (12) and "| Team | 20 |" (13) part.
  const text = '# Prices\n\n| Plan | Price |\n| ---- | ----- |\n| Basic | 5 |\n| Pro | 10 |\n| Team | 20 |\n';
  const header = '| Plan | Price |\n| ---- | ----- |';
  await configure(page, { text, strategy: 'markdown', size: 50 });
  const once = await waitForChunks(page, (c) => c.length === 3, 'the header once');
  assert.equal(once[2].text, '| Pro | 10 |\n| Team | 20 |');
  const box = byTestId(page, 'table-header-checkbox');
  assert.equal(await box.isChecked(), false, 'off by default');
  await box.check();
  const chunks = await waitForChunks(page, (c) => c.length === 4, 'the header repeated');
  assert.deepEqual(chunks.map((c) => c.text), ['# Prices', `${header}\n| Basic | 5 |`, '| Pro | 10 |', '| Team | 20 |']);
  for (const [index, len] of [[2, 12], [3, 13]]) {
    await point(page, index);
    assert.equal(await waitForText(page, byTestId(page, 'chunk-prefix'), /\S/, `prefix of chunk ${index}`), header);
    assert.equal(await byTestId(page, 'prefix-sum').textContent(), `prefix 34 + text ${len} = ${34 + len} chars of 50`);
  }
  // The table's first chunk holds the header itself, and has no prefix.
  await point(page, 1);
  assert.equal(await byTestId(page, 'chunk-prefix').count(), 0);
});

e2e('a heading path that leaves no room is refused naming the size', async ({ page }) => {
  await configure(page, { preset: 'markdown', strategy: 'markdown', size: 30 });
  await byTestId(page, 'heading-prefix-checkbox').check();
  const message = await waitForConfigError(page, 'a prefix longer than the size');
  assert.match(message, /heading path "Returns and refunds > Who can return an item\\n\\n"/);
  assert.match(message, /turn the heading prefix off/);
  assert.equal(await byTestId(page, 'size-input').getAttribute('aria-invalid'), 'true');
});

e2e('a character too big for the room the prefix leaves names that room', async ({ page }) => {
  await configure(page, { text: '# Ab\n\n😀', unit: 'bytes', strategy: 'markdown', size: 7 });
  await waitForChunks(page, (c) => c.length >= 1, 'no prefix: the emoji fits in 7 bytes');
  await byTestId(page, 'heading-prefix-checkbox').check();
  const message = await waitForConfigError(page, 'the emoji after a 4-byte prefix');
  assert.match(message, /leaves a chunk of this section 3 of the 7 bytes, but the character '😀' at position 6 is 4 bytes/);
  assert.match(message, /raise the size to at least 8/);
});

// The cards: recursive separators on the left, the Markdown strategy on the
// right, on the same text and settings (blank line, newline, space, hard cut).
const CARDS = {
  'md-heading': {
    size: '70',
    recursive: [
      '# Refunds\n\n## UPI',
      'Refunds to a UPI account arrive within 2 hours of approval.',
      '## Cards\n\nCard refunds take 5 to 7 working days.',
    ],
    markdown: [
      '# Refunds',
      '## UPI\n\nRefunds to a UPI account arrive within 2 hours of approval.',
      '## Cards\n\nCard refunds take 5 to 7 working days.',
    ],
  },
  'md-table': {
    size: '80',
    recursive: [
      '## Fees',
      '| Method | Fee | Arrives |\n| --- | --- | --- |\n| UPI | free | 2 hours |',
      '| Card | 1% | 5 to 7 days |\n| Bank transfer | 0.5% | 3 days |',
      '| Wallet | free | instantly |',
    ],
    markdown: [
      '## Fees',
      '| Method | Fee | Arrives |\n| --- | --- | --- |\n| UPI | free | 2 hours |',
      '| Card | 1% | 5 to 7 days |\n| Bank transfer | 0.5% | 3 days |',
      '| Wallet | free | instantly |',
    ],
  },
  'md-fence': {
    size: '100',
    recursive: [
      '## Install\n\nRun the installer, then put it on your PATH:\n\n```sh\n./install.sh --prefix ~/.local',
      'export PATH="$HOME/.local/bin:$PATH"\nchunkscope --version\n```\n\nThe last line prints the version.',
    ],
    markdown: [
      '## Install\n\nRun the installer, then put it on your PATH:',
      '```sh\n./install.sh --prefix ~/.local\n\nexport PATH="$HOME/.local/bin:$PATH"\nchunkscope --version\n```',
      'The last line prints the version.',
    ],
  },
};

const texts = (chunks) => chunks.map((c) => c.text);

e2e('the structure cards show recursive and Markdown side by side', async ({ page }) => {
  for (const [card, want] of Object.entries(CARDS)) {
    await page.locator(`[data-card=${card}] [data-testid=card-show]`).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=strategy-select]').value === 'compare-markdown');
    assert.equal(await byTestId(page, 'size-input').inputValue(), want.size, card);
    const same = (expected) => (c) => JSON.stringify(texts(c)) === JSON.stringify(expected);
    await waitForChunks(page, same(want.recursive), `${card}: recursive`, { scope: '[data-testid=pane-recursive]' });
    await waitForChunks(page, same(want.markdown), `${card}: markdown`, { scope: '[data-testid=pane-markdown]' });
  }
  // The table's later rows, on the Markdown side, carry its header row.
  await page.locator('[data-card=md-table] [data-testid=card-show]').click();
  await waitForChunks(page, (c) => c.length === 4, 'table', { scope: '[data-testid=pane-markdown]' });
  await point(page, 3, '[data-testid=pane-markdown]');
  assert.equal(
    await byTestId(page, 'table-header').textContent(),
    '| Method | Fee | Arrives |\n| --- | --- | --- |',
  );
  assert.equal(
    (await byTestId(page, 'heading-path').textContent()).trim(),
    'Fees',
  );
  // Point at the recursive side: no heading path, no table header.
  await point(page, 3, '[data-testid=pane-recursive]');
  assert.equal(await byTestId(page, 'table-header').count(), 0);
  assert.equal(await byTestId(page, 'heading-path').count(), 0);
});

e2e('the Markdown card shows the real heading path and prefix', async ({ page }) => {
  await page.locator('[data-card=markdown] [data-testid=card-show]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=strategy-select]').value === 'markdown');
  assert.equal(await byTestId(page, 'heading-prefix-checkbox').isChecked(), true);
  // The refund page's five chunks, still on screen for a moment, end within
  // its 100-odd characters.
  const chunks = await waitForChunks(page, (c) => c.length > 3 && Number(c.at(-1).end) > 1000, 'the Markdown page');
  const last = chunks.length - 1;
  await point(page, last);
  const path = (await byTestId(page, 'heading-path').textContent()).trim();
  assert.match(path, /^Returns and refunds > Frequently asked questions > /);
  assert.equal(await byTestId(page, 'chunk-prefix').textContent(), path);
  assert.ok(!(await readChunks(page))[last].text.includes(path), 'the prefix is not in the chunk');
});

e2e('the outline nests the sections the engine cut, with their chunks', async ({ page }) => {
  await configure(page, { preset: 'markdown', strategy: 'markdown', size: 400 });
  await waitForChunks(page, (c) => c.length === 11, 'the preset at 400 chars');
  // The outline is drawn by the modes module, which may arrive after the chunks.
  const rows = () => page.locator('[data-testid=outline-section]').evaluateAll((els) =>
    els.map((el) => {
      let depth = 0;
      for (let p = el.parentElement; p && !p.matches('[data-testid=outline]'); p = p.parentElement) {
        if (p.matches('[data-testid=outline-section]')) depth += 1;
      }
      return [depth, el.dataset.level, el.dataset.chunks, el.querySelector('.heading').textContent];
    }),
  );
  await settle(page, rows, [
    [0, '1', '0-10', 'Returns and refunds'],
    [1, '0', '0-0', "the section's own text, before its subsections"],
    [1, '2', '1-1', 'Who can return an item'],
    [1, '2', '2-3', 'How long a refund takes'],
    [1, '2', '4-6', 'Checking a refund from the API'],
    [1, '2', '7-10', 'Frequently asked questions'],
    [2, '0', '7-7', "the section's own text, before its subsections"],
    [2, '3', '8-8', 'Can I return part of an order?'],
    [2, '3', '9-9', 'What if I paid with two methods?'],
    [2, '3', '10-10', 'Who do I contact if something goes wrong?'],
  ], 'the outline');
  // Not for the other strategies.
  await configure(page, { strategy: 'recursive' });
  await byTestId(page, 'outline').waitFor({ state: 'detached' });
});

e2e(
  'screenshots: the compare view and the prefix at 390 and 1400 px, light and dark',
  async ({ page, shot }) => {
    const overflow = [];
    for (const [name, card, pane] of [['structure-fence', 'md-fence', 'pane-markdown'], ['structure-prefix', 'markdown', '']]) {
      await page.locator(`[data-card=${card}] [data-testid=card-show]`).click();
      await waitForChunks(page, (c) => c.length >= 3, name, { scope: pane ? `[data-testid=${pane}]` : '' });
      for (const colorScheme of ['light', 'dark']) {
        for (const width of [1400, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await page.emulateMedia({ colorScheme });
          await point(page, 1, pane ? `[data-testid=${pane}]` : '');
          await shot(`${name}-${width}-${colorScheme}`);
          // The part a reviewer looks at, at screen size: the details and the outline.
          await byTestId(page, 'chunk-details').scrollIntoViewIfNeeded();
          await shot(`${name}-${width}-${colorScheme}-details`, { fullPage: false });
          const wide = await page.evaluate(() => {
            if (document.scrollingElement.scrollWidth <= window.innerWidth + 1) return null;
            return [...document.querySelectorAll('body *')]
              .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
              .slice(0, 4)
              .map((el) => `${el.tagName.toLowerCase()}[${el.getAttribute('data-testid') ?? el.className}]`)
              .join(', ');
          });
          if (wide) overflow.push(`${name} ${width} ${colorScheme}: ${wide}`);
        }
      }
    }
    assert.deepEqual(overflow, [], 'horizontal overflow');
  },
  { finalShot: false },
);
