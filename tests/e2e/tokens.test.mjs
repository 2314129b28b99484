// Token units: nothing about tokenizers is fetched until a token unit is
// chosen; then the page says how big the download is, fetches it from its own
// origin, and splits in tokens, every chunk counted on its own text.
import { e2e, assert, byTestId, configure, loadRefundAt40, waitForChunkSpans, SETTLE_MS } from './harness.mjs';

/** The refund page at size 8 in cl100k tokens with the lesson's separators. */
const REFUND_CL100K_AT_8 = [
  { start: 0, end: 13 },
  { start: 15, end: 35 },
  { start: 36, end: 63 },
  { start: 64, end: 67 },
  { start: 68, end: 96 },
  { start: 98, end: 114 },
];

/** Waits until the tokenizer status line is in `state`; returns its text. */
async function waitForTokenizer(page, state) {
  const line = byTestId(page, 'tokenizer-status');
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid=tokenizer-status]')?.dataset.state === want,
    state,
    { timeout: SETTLE_MS * 2 },
  );
  return line.innerText();
}

e2e('a token unit loads its tokenizer only when chosen, then splits in tokens', async ({ page, shot }) => {
  const fetched = [];
  page.on('request', (req) => {
    if (/\/tokens\//.test(req.url())) fetched.push(new URL(req.url()).pathname);
  });
  await loadRefundAt40(page);
  assert.deepEqual(fetched, [], 'no tokenizer is fetched for the first paint');
  const units = await page.evaluate(() => [...document.querySelector('[data-testid=unit-select]').options].map((o) => o.value));
  assert.deepEqual(units, ['chars', 'bytes', 'cl100k', 'o200k']);

  await configure(page, { unit: 'cl100k', size: 8 });
  const loaded = await waitForTokenizer(page, 'loaded');
  assert.match(loaded, /cl100k tokenizer loaded \(745 KB in \d+ ms\)/);
  assert.deepEqual(fetched, ['/tokens/cl100k.tokens'], 'only the chosen encoding is fetched');
  await waitForChunkSpans(page, REFUND_CL100K_AT_8);
  await shot('tokens-cl100k-refund-at-8');
  const lens = await page.locator('[data-testid=chunk-row]').evaluateAll((rows) => rows.length);
  assert.ok(lens > 0, 'the chunk table lists the chunks');

  // Back to chars and to cl100k again: nothing is fetched twice.
  await configure(page, { unit: 'chars', size: 40 });
  await configure(page, { unit: 'cl100k', size: 8 });
  await waitForChunkSpans(page, REFUND_CL100K_AT_8);
  assert.deepEqual(fetched, ['/tokens/cl100k.tokens']);
});

e2e('o200k with LangChain: the splitter counts tokens as from_tiktoken_encoder does', async ({ page }) => {
  await loadRefundAt40(page);
  await configure(page, { strategy: 'langchain', unit: 'o200k', size: 8 });
  const status = await waitForTokenizer(page, 'loaded');
  assert.match(status, /o200k tokenizer loaded \(1\.5 MB in \d+ ms\)/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=chunk]').length > 3);
  const badge = byTestId(page, 'badge-max-size');
  assert.equal(await badge.getAttribute('data-ok'), 'true', 'no LangChain chunk is over 8 tokens here');
});

e2e(
  'token units on a narrow screen in dark mode: the menu and the status line fit',
  async ({ page, shot }) => {
    await loadRefundAt40(page);
    await configure(page, { unit: 'cl100k', size: 8 });
    await waitForTokenizer(page, 'loaded');
    await waitForChunkSpans(page, REFUND_CL100K_AT_8);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
    await shot('tokens-narrow-dark', { fullPage: false });
  },
  { viewport: { width: 420, height: 900 }, colorScheme: 'dark', finalShot: false },
);
