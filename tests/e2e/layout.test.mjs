// Layout that broke on real text: a long tree's root row, LangChain's checkbox labels.
import { e2e, assert, configure, waitForChunks, painted, byTestId } from './harness.mjs';

/** Pairs of parts (by selector) of each `rowSelector` element whose drawn contents touch. */
function collisions(page, rowSelector, parts) {
  return page.evaluate(
    ({ rowSelector, parts }) => {
      const hits = [];
      for (const row of document.querySelectorAll(rowSelector)) {
        const boxes = parts
          .map((sel) => [sel, row.querySelector(`:scope > ${sel}`)])
          .filter(([, el]) => el && el.getClientRects().length > 0)
          .map(([sel, el]) => {
            // The extent of what is drawn, not of the grid cell: text that
            // overflows its cell is where the collision is. A part that clips
            // its overflow (the piece's ellipsis) is drawn within its box.
            if (getComputedStyle(el).overflowX === 'hidden') return [sel, el.getBoundingClientRect()];
            const range = document.createRange();
            range.selectNodeContents(el);
            return [sel, range.getBoundingClientRect()];
          });
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) {
            const [a, ra] = boxes[i];
            const [b, rb] = boxes[j];
            // Side by side closer than 4 px reads as one run of text.
            const overlap = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > -4 &&
              Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 0.5;
            if (overlap) hits.push(`${row.dataset.node ?? row.className}: ${a} and ${b}`);
          }
        }
      }
      return hits;
    },
    { rowSelector, parts },
  );
}

for (const [width, colorScheme] of [
  [1400, 'light'],
  [390, 'dark'],
]) {
  e2e(
    `at ${width} px: a 210 690-char root row keeps its length clear of its step, and checkbox labels wrap as text`,
    async ({ page }) => {
      await configure(page, { preset: 'article', separators: 'default', strategy: 'recursive', size: 400, overlap: 0 });
      await waitForChunks(page, (c) => c.length > 3 && c[0].text.startsWith('# Chunking for retrieval'), 'the article at 400');
      await painted(page);
      const root = byTestId(page, 'tree-node').first();
      assert.equal(await root.getAttribute('data-len'), '210690');
      assert.deepEqual(await collisions(page, '[data-testid=tree-node]', ['.level', '.piece', '.len', '.what', '.notes']), []);

      await configure(page, { strategy: 'langchain-markdown' });
      await byTestId(page, 'then-recursive-checkbox').check();
      await byTestId(page, 'then-separators-select').waitFor();
      await painted(page);
      // A name in code is never broken across lines; the "?" never sits on the text.
      const broken = await page.evaluate(() =>
        [...document.querySelectorAll('.controls .field.check code')]
          .filter((el) => el.getClientRects().length !== 1)
          .map((el) => el.textContent),
      );
      assert.deepEqual(broken, []);
      assert.deepEqual(await collisions(page, '.controls .field.check', ['label', '.help']), []);
      // The "?" of the recipe shares the switch's line, not a line of its own.
      const [label, help] = await page.evaluate(() => {
        const field = document.querySelector('.field.check.recipe');
        return [field.querySelector(':scope > label'), field.querySelector(':scope > .help')].map((el) => {
          const r = el.getBoundingClientRect();
          return { top: r.top, bottom: r.bottom };
        });
      });
      assert.ok(help.top < label.bottom && help.bottom > label.top, `the recipe's "?" is beside its switch: ${JSON.stringify({ label, help })}`);
    },
    { viewport: { width, height: 900 }, colorScheme },
  );
}
