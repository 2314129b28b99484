// Full-page screenshots for human review (never compared by pixels), and no
// horizontal overflow on a narrow screen. Each test takes its shots in one page,
// switching the viewport and the colour scheme between them:
//   screenshots/refund-{1400,420}-{light,dark}.png
//   screenshots/compare-{1400,420}-{light,dark}.png
//   screenshots/langchain-{sale,character,regex,compare}-{1400,420}-{light,dark}.png
//   screenshots/long-{1400,420}-{light,dark}.png (a 2 MB file, shown read-only)
// and the README's picture, docs/screenshot.png (checked in: a run that changes
// the page changes it, and the change is committed with the page's).
import { join } from 'node:path';
import { e2e, assert, configure, loadRefundAt40, waitForChunkSpans, byTestId, SEED_CHUNKS, ROOT, viewShot } from './harness.mjs';
import { SALE, SALE_CHUNKS, SPACED, onlyRegexSeparator } from './langchain-fixtures.mjs';

const WIDTHS = [1400, 420];
const SCHEMES = ['light', 'dark'];
const NARROW = 420;

/** What sticks out to the right of the viewport (empty when nothing does). */
const horizontalOverflow = (page) =>
  page.evaluate(() => {
    const { scrollWidth } = document.scrollingElement;
    if (scrollWidth <= window.innerWidth + 1) return null;
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((el) => {
        const id = el.getAttribute('data-testid');
        const cls = typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : '';
        return `${el.tagName.toLowerCase()}${id ? `[${id}]` : ''}${cls} right=${Math.round(el.getBoundingClientRect().right)}`;
      });
    return `page is ${scrollWidth}px wide in a ${window.innerWidth}px viewport; sticking out: ${wide.join(', ')}`;
  });

/** Shoots every width × scheme; returns the overflow problems found at the narrow width. */
async function shootAll(page, shot, name, ready) {
  const problems = [];
  for (const colorScheme of SCHEMES) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      await ready();
      const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
      assert.equal(dark, colorScheme === 'dark', `prefers-color-scheme should be ${colorScheme}`);
      await page.evaluate(() => document.fonts.ready);
      await shot(`${name}-${width}-${colorScheme}`);
      if (width === NARROW) {
        const overflow = await horizontalOverflow(page);
        if (overflow) problems.push(`${name} at ${width}px, ${colorScheme}: ${overflow}`);
      }
    }
  }
  return problems;
}

e2e(
  "the README's screenshot: the lesson's refund page at 40, 1280 × 800, light",
  async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await loadRefundAt40(page);
    // No focus ring left on the last setting typed, and the page from its top.
    await page.evaluate(() => {
      document.activeElement?.blur();
      window.scrollTo(0, 0);
    });
    await page.evaluate(() => document.fonts.ready);
    await viewShot(page, join(ROOT, 'docs', 'screenshot.png'));
  },
  { finalShot: false },
);

e2e(
  'refund page: screenshots at 1400 and 420 px, light and dark; no overflow at 420 px',
  async ({ page, shot }) => {
    await loadRefundAt40(page);
    const problems = await shootAll(page, shot, 'refund', () => waitForChunkSpans(page, SEED_CHUNKS));
    assert.deepEqual(problems, [], 'horizontal overflow');
  },
  { finalShot: false },
);

e2e(
  'compare mode: screenshots at 1400 and 420 px, light and dark; no overflow at 420 px',
  async ({ page, shot }) => {
    await loadRefundAt40(page);
    await configure(page, { strategy: 'compare' });
    await byTestId(page, 'pane-fixed').waitFor({ state: 'visible' });
    const problems = await shootAll(page, shot, 'compare', async () => {
      await byTestId(page, 'pane-fixed').waitFor({ state: 'visible' });
      await waitForChunkSpans(page, SEED_CHUNKS, { scope: '[data-testid=pane-recursive]' });
    });
    assert.deepEqual(problems, [], 'horizontal overflow');
  },
  { finalShot: false },
);

e2e(
  'LangChain views: screenshots at 1400 and 420 px, light and dark; no overflow at 420 px',
  async ({ page, shot }) => {
    const chunk = (i) => page.locator(`[data-testid=document-view] [data-testid=chunk][data-index="${i}"]`).first();
    let problems = [];

    // A start_index on the earlier copy, with the chunk's details open.
    await configure(page, { text: SALE, separators: 'seed', strategy: 'langchain', size: 12, overlap: 11 });
    await waitForChunkSpans(page, SALE_CHUNKS);
    await chunk(1).focus();
    problems = problems.concat(
      await shootAll(page, shot, 'langchain-sale', () => byTestId(page, 'start-index-mismatch').first().waitFor()),
    );

    // An oversized chunk: the warnings and the max-size explanation.
    await loadRefundAt40(page);
    await configure(page, { strategy: 'langchain-character' });
    await byTestId(page, 'langchain-warnings').waitFor();
    await byTestId(page, 'badge-max-size').click();
    problems = problems.concat(
      await shootAll(page, shot, 'langchain-character', () => byTestId(page, 'badge-explanation').waitFor()),
    );

    // Not slices: LangChain's text beside the source.
    await configure(page, { text: SPACED, strategy: 'langchain', size: 12 });
    await onlyRegexSeparator(page, '\\s+');
    await byTestId(page, 'placement-select').selectOption('none');
    await page.waitForFunction(() => document.querySelector('[data-testid=chunk]')?.dataset.slice === 'false');
    await chunk(0).focus();
    problems = problems.concat(
      await shootAll(page, shot, 'langchain-regex', () => byTestId(page, 'langchain-text').waitFor()),
    );

    // Ours beside LangChain's.
    await loadRefundAt40(page);
    await configure(page, { strategy: 'compare-langchain' });
    problems = problems.concat(
      await shootAll(page, shot, 'langchain-compare', () =>
        waitForChunkSpans(page, SEED_CHUNKS, { scope: '[data-testid=pane-langchain]' }),
      ),
    );
    assert.deepEqual(problems, [], 'horizontal overflow');
  },
  { finalShot: false, timeout: 120000 },
);

e2e(
  'a long document opened from a file: screenshots at 1400 and 420 px, light and dark; no overflow at 420 px',
  async ({ page, shot }) => {
    const sentence = 'Refunds take five days to reach the original payment method. ';
    const paragraph = `${sentence.repeat(6)}\n\n`;
    const text = paragraph.repeat(Math.ceil(2_000_000 / paragraph.length));
    await configure(page, { separators: 'seed', strategy: 'recursive', size: 400, overlap: 0 });
    await byTestId(page, 'doc-file').setInputFiles({ name: 'refunds.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
    const drawn = () =>
      page.waitForFunction(
        () =>
          Number(document.querySelector('[data-testid=document-view]')?.getAttribute('data-total')) > 4000 &&
          !document.querySelector('[data-testid=badge-determinism][data-pending]'),
        null,
        { timeout: 20000 },
      );
    await drawn();
    const problems = await shootAll(page, shot, 'long', async () => {
      await byTestId(page, 'doc-readonly').waitFor();
      await drawn();
    });
    assert.deepEqual(problems, [], 'horizontal overflow');
  },
  { finalShot: false, timeout: 90000 },
);
