// The views around the chunks: the share link (and hostile links), the JSON
// export, the code to take away, the statistics card, the separator editor, the
// chunk details panel and the badge explanations.
import { readFile } from 'node:fs/promises';
import { deflateRawSync } from 'node:zlib';
import {
  e2e,
  assert,
  REFUND,
  SEED_CHUNKS,
  byTestId,
  configure,
  docText,
  openApp,
  readChunks,
  readConfig,
  readSeparatorLabels,
  loadRefundAt40,
  waitForChunks,
  waitForChunkSpans,
  waitForConfigError,
  waitForNoConfigError,
  waitForText,
  visibleConfigError,
} from './harness.mjs';

/** URL-safe base64 without padding, as share links use. */
const base64url = (bytes) => Buffer.from(bytes).toString('base64url');

/** The text a locator shows, once it is visible. */
async function shownText(locator) {
  await locator.waitFor({ state: 'visible' });
  return (await locator.innerText()).trim();
}

// ---------------------------------------------------------------------------
// Share link.

e2e('the share link restores text, size, strategy and separators in a fresh page', async ({ page }) => {
  const text = 'one;two;three;four;five;six;seven\n\nalpha beta gamma delta epsilon zeta eta theta';
  await configure(page, { text, separators: 'default', strategy: 'recursive', size: 18, overlap: 0 });
  // A separator of our own, so the list is not one of the presets.
  await byTestId(page, 'separator-new').fill(';');
  await byTestId(page, 'separator-add').click();
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid=separator-list] [data-testid=separator-item]').length === 5,
  );
  const before = await waitForChunks(
    page,
    (c) => c.length > 1 && c.some((x) => x.cut === ';'),
    'a chunk cut at the added ";"',
  );
  const labelsBefore = await readSeparatorLabels(page);
  const configBefore = await readConfig(page);

  await byTestId(page, 'share-link').click();
  await page.waitForFunction(() => location.hash.startsWith('#s='));
  const link = page.url();
  assert.match(link, /#s=[A-Za-z0-9_-]+$/, 'the link holds the state after #s=, in URL-safe base64');
  await waitForText(page, page.locator('.share [role=status]'), /copied/i, 'the share confirmation');

  // A fresh load of that address.
  await page.goto('about:blank');
  await openApp(page, link);
  await waitForChunkSpans(page, before);
  assert.deepEqual(await readChunks(page), before, 'the same chunks (spans, cuts, text)');
  assert.equal(await docText(page), text, 'the same text');
  assert.deepEqual(await readSeparatorLabels(page), labelsBefore, 'the same separators, in order');
  const configAfter = await readConfig(page);
  assert.equal(configAfter.size, '18');
  assert.equal(configAfter.strategy, 'recursive');
  assert.deepEqual(configAfter, configBefore, 'the same settings');
  assert.equal(await byTestId(page, 'share-error').count(), 0, 'a good link shows no error');
});

e2e('a shared fixed-window view comes back as fixed windows with its overlap', async ({ page }) => {
  await configure(page, { preset: 'slack', strategy: 'fixed', size: 50, overlap: 10 });
  const before = await waitForChunks(page, (c) => c.length > 1 && c[0].cut === 'window', 'fixed windows');
  await byTestId(page, 'share-link').click();
  await page.waitForFunction(() => location.hash.startsWith('#s='));
  const link = page.url();
  await page.goto('about:blank');
  await openApp(page, link);
  await waitForChunkSpans(page, before);
  const config = await readConfig(page);
  assert.equal(config.strategy, 'fixed');
  assert.equal(config.size, '50');
  assert.equal(config.overlap, '10');
});

/** Hostile or broken links, each with what makes it so. */
function hostileLinks() {
  let noise = '';
  let seed = 12345;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let i = 0; i < 600_000; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    noise += alphabet[(seed >>> 10) & 63];
  }
  return [
    ['garbage', '#s=garbage', /damaged|too large/],
    ['not base64 at all', '#s=***%20<script>', /not valid base64/],
    ['a huge fragment', `#s=${noise}`, /damaged|too large/],
    ['base64 of plain text, not DEFLATE', `#s=${base64url('hello, this is not a compressed stream at all')}`, /damaged|too large/],
    ['a DEFLATE bomb past the size limit', `#s=${base64url(deflateRawSync(Buffer.alloc(5 << 20, 97)))}`, /too large/],
    ['a DEFLATE stream from another version', `#s=${base64url(deflateRawSync('chunkscope 9\ntext\nhi'))}`, /another version/],
    ['a DEFLATE stream with an unknown setting', `#s=${base64url(deflateRawSync('chunkscope 1\nsize=40\nevil=1\ntext\nhi'))}`, /unknown setting/],
    ['a DEFLATE stream of invalid UTF-8', `#s=${base64url(deflateRawSync(Buffer.from([0xff, 0xfe, 0xfd])))}`, /does not hold text/],
  ];
}

e2e(
  'a broken or hostile share link shows share-error and the default refund page',
  async ({ page, url }) => {
    for (const [what, fragment, reason] of hostileLinks()) {
      await page.goto('about:blank');
      await openApp(page, url + fragment);
      const error = byTestId(page, 'share-error');
      const message = await shownText(error).catch(() => assert.fail(`${what}: no visible share-error`));
      assert.match(message, /could not be opened/i, `${what}: the message says the link could not be opened`);
      assert.match(message, reason, `${what}: the message gives the reason`);
      await waitForChunkSpans(page, SEED_CHUNKS);
      assert.equal(await docText(page), REFUND, `${what}: the default refund page is shown`);
      assert.equal(await visibleConfigError(page), null, `${what}: no config-error`);
    }
    // The message can be closed.
    await byTestId(page, 'share-error').getByRole('button', { name: 'close' }).click();
    await byTestId(page, 'share-error').waitFor({ state: 'detached' });

    // A fragment that is not a share link is no error at all.
    await page.goto('about:blank');
    await openApp(page, `${url}#section-2`);
    await waitForChunkSpans(page, SEED_CHUNKS);
    assert.equal(await byTestId(page, 'share-error').count(), 0, '#section-2 is not a share link');
  },
  { timeout: 60000 },
);

// ---------------------------------------------------------------------------
// Export.

e2e('export-json downloads the five refund chunks and the trace', async ({ page }) => {
  await loadRefundAt40(page);
  const [download] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'export-json').click()]);
  assert.match(download.suggestedFilename(), /\.json$/);
  const json = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.ok(Array.isArray(json.chunks), 'the JSON has a chunks array');
  const raw = { '\\n\\n': '\n\n', '\\n': '\n', '. ': '. ', end: 'end' };
  assert.deepEqual(
    json.chunks.map((c) => ({ index: c.index, start: c.start, end: c.end, cut: c.cut, text: c.text })),
    SEED_CHUNKS.map((c, index) => ({ index, start: c.start, end: c.end, cut: raw[c.cut], text: c.text })),
    'chunks: index, char span, raw cut and text',
  );
  assert.ok(json.trace && Array.isArray(json.trace.nodes) && json.trace.nodes.length > 0, 'the JSON has a trace with nodes');
  assert.ok(json.checks, 'the JSON carries the checks');
});

// ---------------------------------------------------------------------------
// Copy as code.

e2e('the Rust and Python code show the current size and separators', async ({ page }) => {
  await loadRefundAt40(page);
  const view = byTestId(page, 'code-view');
  const rust = byTestId(page, 'code-rust');
  const python = byTestId(page, 'code-python');
  assert.equal(await rust.isVisible(), false, 'the Rust code is folded at first');

  await view.locator('summary', { hasText: 'Rust' }).click();
  let code = await shownText(rust);
  assert.match(code, /Config::recursive\(40\)/);
  assert.ok(code.includes('["\\n\\n", "\\n", ". ", " ", ""]'), `Rust separators: ${code}`);

  await view.locator('summary', { hasText: 'Python' }).click();
  code = await shownText(python);
  assert.match(code, /chunk_size=40\b/);
  assert.match(code, /chunk_overlap=0\b/);
  assert.ok(code.includes('separators=["\\n\\n", "\\n", ". ", " ", ""]'), `Python separators: ${code}`);

  // A new size and separator list show up in both.
  await configure(page, { size: 33, separators: 'default' });
  await waitForText(page, rust, /Config::recursive\(33\)/, 'Rust code after size 33');
  code = await rust.innerText();
  assert.ok(code.includes('["\\n\\n", "\\n", " ", ""]'), `Rust separators after "default": ${code}`);
  code = await waitForText(page, python, /chunk_size=33\b/, 'Python code after size 33');
  assert.ok(code.includes('separators=["\\n\\n", "\\n", " ", ""]'), `Python separators after "default": ${code}`);
});

// ---------------------------------------------------------------------------
// Statistics.

/** The statistics card's numbers: { chunks, min, median, mean, max }. */
const readStats = (page) =>
  byTestId(page, 'stats').evaluate((el) =>
    Object.fromEntries(
      [...el.querySelectorAll('dl dt')].map((dt) => [dt.textContent.trim(), dt.nextElementSibling?.textContent.trim()]),
    ),
  );

e2e('stats shows 5 chunks, min 13 and max 31 for the refund page at 40', async ({ page }) => {
  await loadRefundAt40(page);
  const stats = await readStats(page);
  assert.equal(stats.chunks, '5');
  assert.equal(stats.min, '13');
  assert.equal(stats.max, '31');
  assert.equal(stats.median, '20', 'lengths 13, 20, 31, 28, 16');
  assert.equal(Number(stats.mean), 21.6);
  assert.equal((await byTestId(page, 'chunk-count').first().innerText()).trim(), '5');
  await waitForText(page, byTestId(page, 'stats-line'), /13\D+31/, 'the stats line');

  await configure(page, { size: 100 });
  await waitForChunks(page, (c) => c.length === 2, 'two chunks at size 100');
  const after = await readStats(page);
  assert.equal(after.chunks, '2');
  assert.equal(after.min, '16');
  assert.equal(after.max, '96');
});

// ---------------------------------------------------------------------------
// Separator editor.

e2e('the separator editor adds, removes and rejects separators, and warns without a hard cut', async ({ page }) => {
  await loadRefundAt40(page);
  const items = page.locator('[data-testid=separator-list] [data-testid=separator-item]');
  const editor = page.locator('section', { has: byTestId(page, 'separator-list') });
  const noHardCut = editor.locator('.warn', { hasText: /hard cut/i });
  assert.equal(await items.count(), 5);
  assert.equal(await noHardCut.count(), 0, 'no warning while the hard cut is listed');

  // A literal: it joins the list before the hard cut, and cuts the text.
  await byTestId(page, 'separator-new').fill('UPI');
  await byTestId(page, 'separator-add').click();
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid=separator-list] [data-testid=separator-item]').length === 6,
  );
  assert.deepEqual(
    await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-label'))),
    ['\\n\\n', '\\n', '. ', ' ', 'UPI', '""'],
    'the new separator goes just above the hard cut',
  );
  assert.equal(await byTestId(page, 'separator-new').inputValue(), '', 'the box is cleared after adding');

  // Without the hard cut a warning says so; the chunks still fit.
  await page.locator('[data-testid=separator-item][data-label=\'""\']').getByRole('button', { name: /^remove/ }).click();
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid=separator-list] [data-testid=separator-item]').length === 5,
  );
  assert.equal(await page.locator('[data-testid=separator-item][data-label=\'""\']').count(), 0, 'the hard cut is gone');
  const warning = await shownText(noHardCut);
  assert.match(warning, /No hard cut/);
  await waitForChunkSpans(page, SEED_CHUNKS);

  // Adding the empty separator brings the hard cut back and the warning goes.
  await byTestId(page, 'separator-add').click();
  await page.locator('[data-testid=separator-item][data-label=\'""\']').waitFor();
  await noHardCut.waitFor({ state: 'detached' });

  // An invalid regex is a configuration error, marked on the list; removing it clears it.
  await editor.getByRole('checkbox', { name: /regex/ }).check();
  await byTestId(page, 'separator-new').fill('(unclosed');
  await byTestId(page, 'separator-add').click();
  const message = await waitForConfigError(page, 'the regex "(unclosed"');
  assert.match(message, /regular expression|regex/i, `config-error: ${message}`);
  assert.equal(await byTestId(page, 'separator-list').getAttribute('aria-invalid'), 'true');
  // The error names the one separator to blame, and only that one is marked.
  const bad = page.locator('[data-testid=separator-item][data-label="/(unclosed/"]');
  assert.equal(await bad.getAttribute('aria-invalid'), 'true');
  assert.equal(await page.locator('[data-testid=separator-item][aria-invalid=true]').count(), 1);
  await bad.getByRole('button', { name: /^remove/ }).click();
  await waitForNoConfigError(page, 'the bad regex removed');
  assert.equal(await byTestId(page, 'separator-list').getAttribute('aria-invalid'), null);

  // A malformed escape is reported by the editor and not added; the draft is kept.
  await editor.getByRole('checkbox', { name: /regex/ }).uncheck();
  const listed = await items.count();
  await byTestId(page, 'separator-new').fill('\\q');
  await byTestId(page, 'separator-add').click();
  await shownText(editor.locator('[role=alert]'));
  assert.equal(await items.count(), listed, 'nothing was added');
  assert.equal(await byTestId(page, 'separator-new').inputValue(), '\\q', 'the draft is kept to fix');

  // An empty list cannot split.
  while ((await items.count()) > 0) {
    const n = await items.count();
    await items.first().getByRole('button', { name: /^remove/ }).click();
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=separator-list] [data-testid=separator-item]').length === n - 1,
      n,
    );
  }
  await waitForConfigError(page, 'an empty separator list');
  await shownText(editor.locator('.warn', { hasText: /list is empty/ }));
});

// ---------------------------------------------------------------------------
// Chunk details.

e2e('pointing at or focusing a chunk fills chunk-details with its index and span', async ({ page }) => {
  await loadRefundAt40(page);
  const details = byTestId(page, 'chunk-details');
  assert.doesNotMatch(await details.innerText(), /Chunk \d/, 'nothing pointed at first');

  await page.locator('[data-testid=document-view] [data-testid=chunk][data-index="2"]').hover();
  let text = await waitForText(page, details, /Chunk 2\b/, 'details after hovering chunk 2');
  assert.match(text, /chars 36–67/);
  assert.match(text, /31 chars of 40/);

  await page.locator('[data-testid=document-view] [data-testid=chunk][data-index="4"]').focus();
  text = await waitForText(page, details, /Chunk 4\b/, 'details after focusing chunk 4');
  assert.match(text, /chars 98–114/);
  assert.match(text, /16 chars of 40/);

  await page.locator('[data-testid=document-view] [data-testid=chunk][data-index="0"]').hover();
  text = await waitForText(page, details, /Chunk 0\b/, 'details after hovering chunk 0');
  assert.match(text, /chars 0–13/);
  assert.match(text, /start of the text/);
});

// ---------------------------------------------------------------------------
// Badges.

e2e('clicking a badge explains it; clicking again closes it', async ({ page }) => {
  await loadRefundAt40(page);
  const explanation = byTestId(page, 'badge-explanation');
  assert.equal(await explanation.count(), 0);

  const coverage = byTestId(page, 'badge-coverage');
  await coverage.click();
  let text = await shownText(explanation);
  assert.match(text, /no text lost/i);
  assert.match(text, /✓/, 'the refund page passes the check');
  assert.equal(await coverage.getAttribute('aria-expanded'), 'true');

  await byTestId(page, 'badge-max-size').click();
  text = await waitForText(page, explanation, /size cap/i, 'explanation of badge-max-size');
  assert.doesNotMatch(text, /no text lost/i, 'one explanation at a time');
  assert.equal(await coverage.getAttribute('aria-expanded'), 'false');

  await byTestId(page, 'badge-max-size').click();
  await explanation.waitFor({ state: 'detached' });
});
