// The recipe of LangChain's docs on the page: MarkdownHeaderTextSplitter, then
// RecursiveCharacterTextSplitter on each section. The chunks are the real
// library's (langchain-text-splitters 1.1.3 gives the same four strings and
// metadata for this text at chunk_size=30), each with its section's headers;
// the tree shows the sections, then the recursive levels inside each; the
// worker's report and the Python code carry the recipe; a share link keeps it.
import { readFile } from 'node:fs/promises';
import {
  e2e,
  assert,
  byTestId,
  configure,
  openApp,
  parseChunks,
  readTree,
  waitForChunkSpans,
  waitForText,
} from './harness.mjs';

const DOC =
  '# Refunds\nWithin 5 days of approval, to the original method.\n\n## UPI\nInstant, to the same UPI id. Ask support if late.\n';

/** The header splitter alone: one chunk per section. */
const SECTIONS = [
  { start: 10, end: 60 },
  { start: 69, end: 118 },
];

/** The recipe at size 30, overlap 0: LangChain's chunks, where they are. */
const RECIPE = [
  { start: 10, end: 39 },
  { start: 40, end: 60 },
  { start: 69, end: 97 },
  { start: 98, end: 118 },
];

async function openRecipe(page) {
  await configure(page, { text: DOC, strategy: 'langchain-markdown', size: 30, overlap: 0 });
  await waitForChunkSpans(page, SECTIONS);
  assert.equal(await byTestId(page, 'then-separators-select').count(), 0, 'no list while the recipe is off');
  await byTestId(page, 'then-recursive-checkbox').check();
  return parseChunks(await waitForChunkSpans(page, RECIPE));
}

e2e('the recipe: sections, then RecursiveCharacterTextSplitter inside each, with the headers as metadata', async ({ page }) => {
  const chunks = await openRecipe(page);
  assert.deepEqual(
    chunks.map((c) => [c.text, c.cut]),
    [
      ['Within 5 days of approval, to', ' '],
      ['the original method.', '##'],
      ['Instant, to the same UPI id.', ' '],
      ['Ask support if late.', 'end'],
    ],
    'LangChain\'s chunks: cut at a space inside a section, at the header between sections',
  );
  assert.deepEqual(
    await page.locator('[data-testid=chunk-row-metadata]').allTextContents(),
    ['Header 1: Refunds', 'Header 1: Refunds', 'Header 1: Refunds › Header 2: UPI', 'Header 1: Refunds › Header 2: UPI'],
    'every piece keeps its section\'s metadata',
  );
  await page.locator('[data-testid=document-view] [data-testid=chunk][data-index="2"]').hover();
  await waitForText(page, byTestId(page, 'chunk-metadata'), /^Header 1: Refunds › Header 2: UPI$/, 'the metadata of chunk 2');

  // The tree: the whole text split at "##" into two sections (depth 2), each
  // split again at " " by the recursive splitter into its chunks (depth 3).
  const tree = await readTree(page);
  assert.deepEqual(
    tree.map((n) => [n.depth, n.separator]),
    [
      ['1', '##'],
      ['2', ' '],
      ['3', ''],
      ['3', ''],
      ['2', ' '],
      ['3', ''],
      ['3', ''],
    ],
    'the tree is the sections, then the recursive levels',
  );
  assert.deepEqual(tree.map((n) => n.len), ['118', '50', '29', '20', '49', '28', '20']);

  // The Python code is the recipe, the same call the CLI prints.
  await byTestId(page, 'code-view').locator('summary', { hasText: 'Python' }).click();
  const python = await waitForText(page, byTestId(page, 'code-python'), /split_documents/, 'the recipe\'s Python');
  assert.match(python, /MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter/);
  assert.match(python, /chunk_size=30/);
  assert.match(python, /docs = splitter\.split_documents\(headers\.split_text\(text\)\)/);

  // LangChain's Markdown list: every entry a regex, as from_language gives it.
  await byTestId(page, 'then-separators-select').selectOption('markdown');
  await waitForText(page, byTestId(page, 'code-python'), /is_separator_regex=True/, 'the Markdown list as regexes');
  await waitForChunkSpans(page, RECIPE);

  // Off again: one chunk per section.
  await byTestId(page, 'then-recursive-checkbox').uncheck();
  await waitForChunkSpans(page, SECTIONS);
});

e2e('the recipe: the worker\'s report carries it, and a share link keeps it', async ({ page, url }) => {
  await openRecipe(page);
  const [download] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'export-json').click()]);
  const json = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.deepEqual(json.config.then_recursive, [], 'the echo: LangChain\'s default list');
  assert.equal(json.config.strategy, 'langchain-markdown');
  assert.deepEqual(
    json.chunks.map((c) => [c.text, c.metadata]),
    [
      ['Within 5 days of approval, to', { 'Header 1': 'Refunds' }],
      ['the original method.', { 'Header 1': 'Refunds' }],
      ['Instant, to the same UPI id.', { 'Header 1': 'Refunds', 'Header 2': 'UPI' }],
      ['Ask support if late.', { 'Header 1': 'Refunds', 'Header 2': 'UPI' }],
    ],
  );
  assert.deepEqual(
    json.trace.nodes.map((n) => n.depth),
    [1, 2, 3, 3, 2, 3, 3],
  );

  const before = page.url();
  await byTestId(page, 'share-link').click();
  await page.waitForFunction((b) => location.hash.startsWith('#s=') && location.href !== b, before);
  const link = page.url();
  assert.ok(link.startsWith(url), link);
  await page.goto('about:blank');
  await openApp(page, link);
  await waitForChunkSpans(page, RECIPE, { timeout: 15000 });
  assert.equal(await byTestId(page, 'then-recursive-checkbox').isChecked(), true, 'the link keeps the recipe');
});

e2e(
  'screenshots: the recipe at 390 and 1400 px, light and dark',
  async ({ page, shot }) => {
    await openRecipe(page);
    const overflow = [];
    for (const colorScheme of ['light', 'dark']) {
      for (const width of [1400, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme });
        await page.locator('[data-testid=document-view] [data-testid=chunk][data-index="1"]').hover();
        await shot(`recipe-${width}-${colorScheme}`);
        await byTestId(page, 'then-recursive-checkbox').scrollIntoViewIfNeeded();
        await shot(`recipe-${width}-${colorScheme}-controls`, { fullPage: false });
        const wide = await page.evaluate(() => {
          if (document.scrollingElement.scrollWidth <= window.innerWidth + 1) return null;
          return [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(0, 4)
            .map((el) => `${el.tagName.toLowerCase()}[${el.getAttribute('data-testid') ?? el.className}]`)
            .join(', ');
        });
        if (wide) overflow.push(`${width} ${colorScheme}: ${wide}`);
      }
    }
    assert.deepEqual(overflow, [], 'horizontal overflow');
  },
  { finalShot: false },
);
