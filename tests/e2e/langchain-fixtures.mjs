// Texts and steps shared by the LangChain tests and their screenshots.
import { byTestId } from './harness.mjs';

/** A repeated sentence: LangChain's str.find puts the second copy at 0. */
export const SALE = 'Sale today.\n\nSale today.\n\nSale ends soon, so hurry.';
/** LangChain at size 12, overlap 11, the seed separators, keep_separator="start". */
export const SALE_CHUNKS = [
  { start: 0, end: 11, startIndex: 0 },
  { start: 13, end: 24, startIndex: 0 },
  { start: 26, end: 35, startIndex: 26 },
  { start: 31, end: 41, startIndex: 31 },
  { start: 36, end: 44, startIndex: 36 },
  { start: 42, end: 51, startIndex: 42 },
];

/** Words apart by runs of spaces: the regex \s+ cuts them. */
export const SPACED = 'one  two   three four\n\nfive six';

/** Empties the separator list, then adds `pattern` as a regex. */
export async function onlyRegexSeparator(page, pattern) {
  const items = page.locator('[data-testid=separator-list] [data-testid=separator-item]');
  while ((await items.count()) > 0) {
    const n = await items.count();
    await items.first().getByRole('button', { name: /^remove/ }).click();
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=separator-list] [data-testid=separator-item]').length === n - 1,
      n,
    );
  }
  const editor = page.locator('section', { has: byTestId(page, 'separator-list') });
  await editor.getByRole('checkbox', { name: /regex/ }).check();
  await byTestId(page, 'separator-new').fill(pattern);
  await byTestId(page, 'separator-add').click();
  await page.waitForFunction(
    (label) =>
      [...document.querySelectorAll('[data-testid=separator-list] [data-testid=separator-item]')].some(
        (el) => el.dataset.label === label,
      ),
    `/${pattern}/`,
  );
}

