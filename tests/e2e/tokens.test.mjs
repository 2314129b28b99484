// Token units: nothing about tokenizers is fetched until a token unit is
// chosen; then the page says how big the download is, fetches it from its own
// origin, and splits in tokens, every chunk counted on its own text. The token
// overlay then draws each chunk as those tokens, one `token` element each.
import { e2e, assert, byTestId, configure, loadRefundAt40, waitForChunkSpans, REFUND, SEED_CHUNKS, SETTLE_MS } from './harness.mjs';

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

/**
 * The refund page through LangChain's RecursiveCharacterTextSplitter
 * .from_tiktoken_encoder(encoding_name="o200k_base", chunk_size=8,
 * chunk_overlap=0, separators=["\n\n", "\n", ". ", " ", ""]) with its default
 * keep_separator (start): spans in chars, and each chunk's length in o200k
 * tokens, as the pinned langchain-text-splitters and tiktoken give them
 * (with add_start_index=True, every start_index is the chunk's start). At 8
 * chars the same settings give 19 chunks, so a page that ignored the unit
 * would fail here.
 */
const REFUND_LANGCHAIN_O200K_AT_8 = [
  { start: 0, end: 13, tokens: 2 }, // Refund| policy
  { start: 15, end: 34, tokens: 6 },
  { start: 34, end: 63, tokens: 8 }, // ". They go to the original UPI": the ". " starts the chunk
  { start: 64, end: 67, tokens: 2 }, // id|.
  { start: 68, end: 96, tokens: 6 },
  { start: 98, end: 114, tokens: 7 },
];

e2e('o200k with LangChain: the splitter counts tokens as from_tiktoken_encoder does', async ({ page }) => {
  await loadRefundAt40(page);
  await configure(page, { strategy: 'langchain', unit: 'o200k', size: 8 });
  const status = await waitForTokenizer(page, 'loaded');
  assert.match(status, /o200k tokenizer loaded \(1\.5 MB in \d+ ms\)/);
  assert.equal(await byTestId(page, 'placement-select').inputValue(), 'start', "LangChain's keep_separator default");
  await waitForChunkSpans(page, REFUND_LANGCHAIN_O200K_AT_8);
  const lengths = await page.evaluate(() => {
    const table = document.querySelector('[data-testid=chunk-table]');
    const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim());
    const column = heads.indexOf('o200k');
    return [...table.querySelectorAll('[data-testid=chunk-row]')].map((row) => Number(row.cells[column].textContent));
  });
  assert.deepEqual(lengths, REFUND_LANGCHAIN_O200K_AT_8.map((c) => c.tokens), 'each chunk counted in o200k tokens');
  assert.equal(await byTestId(page, 'start-index-mismatch').count(), 0, 'every start_index is the chunk start');
  assert.equal(await byTestId(page, 'badge-max-size').getAttribute('data-ok'), 'true', 'no LangChain chunk is over 8 tokens here');
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

/**
 * Every drawn chunk with its text, its `token` elements (text, partial, the
 * tokens each stands for) and its length from the chunk table's unit column.
 */
function readTokens(page) {
  return page.evaluate(() => {
    const table = document.querySelector('[data-testid=chunk-table]');
    const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim());
    const column = heads.indexOf(document.querySelector('[data-testid=unit-select]').value);
    const lengths = [...table.querySelectorAll('[data-testid=chunk-row]')].map((row) => Number(row.cells[column].textContent));
    return [...document.querySelectorAll('[data-testid=document-view] [data-testid=chunk]')].map((chunk) => ({
      index: Number(chunk.dataset.index),
      text: chunk.textContent,
      len: lengths[Number(chunk.dataset.index)],
      tokens: [...chunk.querySelectorAll('[data-testid=token]')].map((t) => ({
        text: t.textContent,
        partial: t.dataset.partial === 'true',
        count: Number(t.dataset.tokens ?? 1),
        title: t.title,
      })),
    }));
  });
}

/** The chunk elements' attributes, which the overlay must leave as they are. */
function chunkAttributes(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=chunk]')].map((el) =>
      Object.fromEntries([...el.attributes].map((a) => [a.name, a.value])),
    ),
  );
}

/** Turns on the token overlay and waits until every drawn chunk shows its tokens. */
async function showTokens(page) {
  const box = byTestId(page, 'token-overlay');
  await box.check();
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=chunk]')].every((c) => c.querySelector('[data-testid=token]')),
  );
}

e2e('the token overlay cuts every chunk into the tokens it was counted in', async ({ page, shot }) => {
  await loadRefundAt40(page);
  assert.equal(await byTestId(page, 'token-overlay').count(), 0, 'no overlay checkbox while the unit counts chars');
  await configure(page, { unit: 'cl100k', size: 8 });
  await waitForTokenizer(page, 'loaded');
  await waitForChunkSpans(page, REFUND_CL100K_AT_8);
  const box = byTestId(page, 'token-overlay');
  assert.equal(await box.isChecked(), false, 'the overlay starts off');
  assert.equal(await page.locator('[data-testid=token]').count(), 0);
  const before = await chunkAttributes(page);
  const texts = (await readTokens(page)).map((c) => c.text);

  await showTokens(page);
  const chunks = await readTokens(page);
  assert.equal(chunks.length, REFUND_CL100K_AT_8.length);
  for (const c of chunks) {
    assert.equal(c.tokens.map((t) => t.text).join(''), c.text, `chunk ${c.index}: its tokens spell its text`);
    assert.equal(c.tokens.length, c.len, `chunk ${c.index}: one token element per counted token`);
    assert.ok(c.tokens.every((t) => !t.partial), `chunk ${c.index}: ASCII has no split characters`);
  }
  assert.deepEqual(chunks.map((c) => c.text), texts, 'the chunks read the same with the overlay');
  assert.deepEqual(await chunkAttributes(page), before, 'the chunk elements keep their attributes');
  // "Refunds take 5 days." is [Ref][unds][ take][ ][5][ days][.] in cl100k.
  assert.deepEqual(chunks[1].tokens.map((t) => t.text), ['Ref', 'unds', ' take', ' ', '5', ' days', '.']);
  await shot('tokens-overlay-refund-at-8');

  await box.uncheck();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=token]').length === 0);
  assert.deepEqual((await readTokens(page)).map((c) => c.text), texts);
  assert.deepEqual(await chunkAttributes(page), before);

  // Back to chars: the checkbox goes, and so do the tokens.
  await box.check();
  await configure(page, { unit: 'chars', size: 40 });
  await waitForChunkSpans(page, SEED_CHUNKS);
  assert.equal(await byTestId(page, 'token-overlay').count(), 0);
  assert.equal(await page.locator('[data-testid=token]').count(), 0);
});

e2e('a character split across tokens is one marked piece', async ({ page, shot }) => {
  await loadRefundAt40(page);
  await configure(page, { text: 'Hi 😀 there, 你好世界 and 🎉!', unit: 'cl100k', size: 4 });
  await waitForTokenizer(page, 'loaded');
  await page.waitForFunction(() => document.querySelector('[data-testid=chunk]')?.textContent.startsWith('Hi'));
  await showTokens(page);
  const chunks = await readTokens(page);
  const partial = chunks.flatMap((c) => c.tokens.filter((t) => t.partial));
  // " 😀" is one cl100k token, but "🎉" is three and "世" two.
  assert.ok(partial.some((t) => t.text.includes('🎉')), `the emoji is marked: ${JSON.stringify(chunks)}`);
  assert.ok(partial.some((t) => t.text.includes('世')), `the CJK character is marked: ${JSON.stringify(chunks)}`);
  assert.ok(chunks.some((c) => c.tokens.some((t) => t.text === ' 😀' && !t.partial)), 'a whole-character token is not marked');
  for (const t of partial) {
    assert.ok(t.count >= 2, `a partial piece stands for several tokens: ${JSON.stringify(t)}`);
    assert.match(t.title, new RegExp(`spans ${t.count} tokens`));
  }
  for (const c of chunks) {
    assert.equal(c.tokens.map((t) => t.text).join(''), c.text, `chunk ${c.index}: its tokens spell its text`);
    assert.equal(c.tokens.reduce((n, t) => n + t.count, 0), c.len, `chunk ${c.index}: the pieces stand for its length`);
  }
  await shot('tokens-overlay-emoji');
});

for (const [width, scheme] of [
  [1280, 'light'],
  [1280, 'dark'],
  [420, 'light'],
  [420, 'dark'],
]) {
  e2e(
    `the token overlay at ${width} px in ${scheme} mode`,
    async ({ page, shot }) => {
      await loadRefundAt40(page);
      await configure(page, { text: `${REFUND}\n\nEmoji 😀 and 你好世界 too.`, unit: 'cl100k', size: 8, overlap: 2 });
      await waitForTokenizer(page, 'loaded');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=chunk]').length > 6);
      await showTokens(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
      await byTestId(page, 'document-view').scrollIntoViewIfNeeded();
      await shot(`tokens-overlay-${width}-${scheme}`, { fullPage: false });
    },
    { viewport: { width, height: 900 }, colorScheme: scheme, finalShot: false },
  );
}
