// Document presets change only the text; separator presets exist and list their separators.
import {
  e2e,
  assert,
  REFUND,
  configure,
  readConfig,
  docText,
  optionValues,
  readSeparatorLabels,
  assertSeparatorLabels,
  waitForChunks,
  readChunks,
  charLen,
  SETTLE_MS,
} from './harness.mjs';

const DOC_PRESETS = ['refund', 'slack', 'csv', 'base64', 'markdown', 'chinese', 'python', 'article'];
const SEP_PRESETS = ['default', 'seed', 'markdown', 'python', 'rust', 'js', 'html', 'cjk'];

e2e('every document preset of DESIGN.md exists', async ({ page }) => {
  const values = await optionValues(page, 'preset-select');
  const missing = DOC_PRESETS.filter((v) => !values.includes(v));
  assert.deepEqual(missing, [], `preset-select options are ${JSON.stringify(values)}`);
});

e2e('every separator preset of DESIGN.md exists', async ({ page }) => {
  const values = await optionValues(page, 'separator-preset-select');
  const missing = SEP_PRESETS.filter((v) => !values.includes(v));
  assert.deepEqual(missing, [], `separator-preset-select options are ${JSON.stringify(values)}`);
});

e2e('loading a document preset changes only the text', async ({ page }) => {
  await configure(page, { preset: 'refund', separators: 'seed', strategy: 'recursive', size: 57, overlap: 5 });
  await waitForChunks(page, (c) => c.length > 0 && c.at(-1).end === String(charLen(REFUND)), 'refund page at 57/5');
  const config = await readConfig(page);
  assert.deepEqual(
    { size: config.size, overlap: config.overlap, strategy: config.strategy, separators: config.separators },
    { size: '57', overlap: '5', strategy: 'recursive', separators: 'seed' },
    'the controls hold what was set',
  );
  const labels = await readSeparatorLabels(page);

  const seen = new Map();
  let previous = await docText(page);
  for (const preset of [...DOC_PRESETS.slice(1), 'refund']) {
    await configure(page, { preset });
    const deadline = Date.now() + SETTLE_MS;
    let text = await docText(page);
    while (text === previous && Date.now() < deadline) {
      await page.waitForTimeout(40);
      text = await docText(page);
    }
    assert.notEqual(text, previous, `preset ${preset}: the text did not change`);
    assert.ok(text.trim().length > 0, `preset ${preset}: empty text`);
    seen.set(preset, text);
    previous = text;

    // Wait for the chunks of the new text, so that any follow-up render has happened.
    // A long text is drawn as a window of its chunks (document-view's data-drawn <
    // data-total); the drawn chunks must then be slices of this text. A short one is
    // drawn whole, so its last chunk ends where the text (or its trimmed end) does.
    // Which of the two applies is known only once the new chunks are drawn, so both
    // are checked on every poll.
    const chars = [...text];
    const len = charLen(text.trimEnd());
    const ofThisText = (c) => c.every((k) => chars.slice(Number(k.start), Number(k.end)).join('') === k.text);
    const deadline2 = Date.now() + SETTLE_MS;
    let state;
    for (;;) {
      state = await page.evaluate(() => {
        const view = document.querySelector('[data-testid="document-view"]');
        return view === null ? null : { drawn: Number(view.dataset.drawn), total: Number(view.dataset.total) };
      });
      const chunks = await readChunks(page);
      const windowed = state !== null && state.drawn < state.total;
      const ends = chunks.length > 0 && [String(len), String(chars.length)].includes(chunks.at(-1).end);
      if (chunks.length > 0 && ofThisText(chunks) && (windowed || ends)) break;
      if (Date.now() > deadline2) {
        assert.fail(
          `preset ${preset}: the chunks of its ${len}-char text were not drawn within ${SETTLE_MS} ms; ` +
            `view ${JSON.stringify(state)}, chunks now: ${JSON.stringify(chunks.slice(0, 3))}…`,
        );
      }
      await page.waitForTimeout(40);
    }
    assert.deepEqual(await readConfig(page), config, `preset ${preset}: size/overlap/strategy/unit/separators changed`);
    assert.deepEqual(await readSeparatorLabels(page), labels, `preset ${preset}: the separator list changed`);
  }
  assert.equal(seen.get('refund'), REFUND, 'preset refund is the seed-000 refund page');
  assert.equal(new Set(seen.values()).size, DOC_PRESETS.length, 'every preset has its own text');
});

e2e('separator preset "default" lists \\n\\n, \\n, space, hard cut', async ({ page }) => {
  await configure(page, { strategy: 'recursive', separators: 'seed' });
  assertSeparatorLabels(await readSeparatorLabels(page), ['\n\n', '\n', '. ', ' ', ''], 'seed');
  await configure(page, { separators: 'default' });
  const deadline = Date.now() + SETTLE_MS;
  let labels = await readSeparatorLabels(page);
  while (labels.length !== 4 && Date.now() < deadline) {
    await page.waitForTimeout(40);
    labels = await readSeparatorLabels(page);
  }
  assertSeparatorLabels(labels, ['\n\n', '\n', ' ', ''], 'default');
});

/**
 * Every separator preset's `separator-item` labels (`data-label`), written out
 * from the lists they stand for (LangChain's `get_separators_for_language` for
 * the code and markup ones) with docs/testing.md's label rules: `\n` and `\t`
 * escaped, a regex between slashes, the hard cut `""`.
 */
const LINES = ['\\n\\n', '\\n', ' ', '""'];
const SEP_LABELS = {
  default: LINES,
  seed: ['\\n\\n', '\\n', '. ', ' ', '""'],
  markdown: ['/\\n#{1,6} /', '```\\n', '/\\n\\*\\*\\*+\\n/', '/\\n---+\\n/', '/\\n___+\\n/', ...LINES],
  python: ['\\nclass ', '\\ndef ', '\\n\\tdef ', ...LINES],
  rust: ['\\nfn ', '\\nconst ', '\\nlet ', '\\nif ', '\\nwhile ', '\\nfor ', '\\nloop ', '\\nmatch ', ...LINES],
  js: [
    '\\nfunction ', '\\nconst ', '\\nlet ', '\\nvar ', '\\nclass ', '\\nif ', '\\nfor ', '\\nwhile ', '\\nswitch ',
    '\\ncase ', '\\ndefault ', ...LINES,
  ],
  html: [
    '<body', '<div', '<p', '<br', '<li', '<h1', '<h2', '<h3', '<h4', '<h5', '<h6', '<span', '<table', '<tr', '<td',
    '<th', '<ul', '<ol', '<header', '<footer', '<nav', '<head', '<style', '<script', '<meta', '<title', '""',
  ],
  cjk: ['\\n\\n', '\\n', '。', '！', '？', '；', '…', '. ', '! ', '? ', '，', '、', ' ', '""'],
};

e2e('every separator preset lists exactly its separators', async ({ page }) => {
  await configure(page, { strategy: 'recursive' });
  assert.deepEqual(await optionValues(page, 'separator-preset-select'), [...SEP_PRESETS, 'custom']);
  const labels = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=separator-list] [data-testid=separator-item]')].map((el) =>
        el.getAttribute('data-label'),
      ),
    );
  let compared = 0;
  // The page opens on the seed list; each list differs from the one before
  // it, so a list that did not change fails.
  for (const preset of SEP_PRESETS) {
    await configure(page, { separators: preset });
    const want = SEP_LABELS[preset];
    await page
      .waitForFunction(
        (want) =>
          JSON.stringify(
            [...document.querySelectorAll('[data-testid=separator-list] [data-testid=separator-item]')].map((el) =>
              el.getAttribute('data-label'),
            ),
          ) === JSON.stringify(want),
        want,
        { timeout: SETTLE_MS },
      )
      .catch(() => {});
    assert.deepEqual(await labels(), want, `separator preset ${preset}`);
    compared += 1;
  }
  assert.equal(compared, 8);
});
