// The splitter runs in a worker: splits arrive from it, an answer to a request
// the page no longer wants is dropped, documents open from files, long ones are
// shown read-only, and the page answers while the worker works.
import {
  e2e,
  assert,
  byTestId,
  charLen,
  charSlice,
  configure,
  loadRefundAt40,
  waitForChunkSpans,
  waitForNoConfigError,
  SETTLE_MS,
  REFUND,
} from './harness.mjs';

/** Prose of `bytes` ASCII bytes from a fixed seed, paragraphs and sentences. */
function prose(bytes, seed = 11) {
  const words = 'the chunk splits text at a separator and packs the pieces back up to the size'.split(' ');
  let s = seed;
  const next = (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
  const parts = [];
  let length = 0;
  while (length < bytes) {
    const word = words[next(words.length)];
    const end = next(14) === 0 ? (next(6) === 0 ? '.\n\n' : '. ') : ' ';
    parts.push(word + end);
    length += word.length + end.length;
  }
  return parts.join('').slice(0, bytes);
}

/** Waits until no request waits for the worker (the determinism re-run included). */
const settled = (page, timeout = 30000) =>
  page.waitForFunction(
    () =>
      !document.querySelector('[data-testid=splitting]') &&
      !document.querySelector('[data-testid=badge-determinism][data-pending]'),
    null,
    { timeout, polling: 'raf' },
  );

/** The document view's window: first drawn index, drawn count, total. */
const windowOf = (page) =>
  byTestId(page, 'document-view').evaluate((el) => ({
    first: Number(el.getAttribute('data-first')),
    drawn: Number(el.getAttribute('data-drawn')),
    total: Number(el.getAttribute('data-total')),
  }));

/** Puts `text` into doc-input, as a paste does. */
const paste = (page, text) =>
  byTestId(page, 'doc-input').evaluate((el, text) => {
    el.value = text;
    el.dispatchEvent(new InputEvent('input', { bubbles: true }));
  }, text);

/** Chooses a file holding `text` in doc-file. */
const openFile = (page, name, text) =>
  byTestId(page, 'doc-file').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });

e2e('a split arrives from the worker and is read on the page', async ({ page }) => {
  await loadRefundAt40(page);
  const workers = page.workers().map((w) => w.url());
  assert.ok(
    workers.some((url) => url.endsWith('/splitter-worker.js')),
    `the page started its splitting worker: ${JSON.stringify(workers)}`,
  );
  await configure(page, { size: 25 });
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=chunk]')].every((el) => el.textContent.length <= 25),
  );
  await settled(page);
  // Each answer was a binary report, decoded on the page (it marks that in
  // the performance timeline).
  const decoded = await page.evaluate(() => performance.getEntriesByName('chunkscope: decode a report').length);
  assert.ok(decoded >= 2, `reports decoded on the page: ${decoded}`);
  const texts = await page.$$eval('[data-testid=chunk]', (els) => els.map((e) => e.textContent));
  assert.deepEqual(texts, [
    'Refund policy',
    'Refunds take 5 days.',
    'They go to the original',
    'UPI id.',
    'COD orders get store',
    'credit.',
    'Contact us 24x7.',
  ]);
});

e2e(
  'an answer to a size given up is dropped, and the chunks are those of the last size',
  async ({ page }) => {
    const text = prose(1_500_000);
    await configure(page, { strategy: 'fixed', overlap: 0, size: 40 });
    await openFile(page, 'prose.txt', text);
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid=document-view]')?.getAttribute('data-total')) === n,
      Math.ceil(text.length / 40),
      { timeout: 15000 },
    );
    await settled(page);
    const decoded = () => page.evaluate(() => performance.getEntriesByName('chunkscope: decode a report').length);
    const before = await decoded();
    // Size 31 is sent to the worker; the next sizes come while it splits, so
    // its answer is to a request given up.
    await page.evaluate(async () => {
      const input = document.querySelector('[data-testid=size-input]');
      const set = (v) => {
        input.value = v;
        input.dispatchEvent(new InputEvent('input', { bubbles: true }));
      };
      set('31');
      await new Promise((r) => setTimeout(r, 0));
      for (const size of ['47', '63', '79', '95', '111']) set(size);
    });
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid=document-view]').getAttribute('data-total')) === n,
      Math.ceil(text.length / 111),
      { timeout: 15000 },
    );
    await settled(page);
    assert.equal((await decoded()) - before, 1, 'only the answer for size 111 was read');
    // Fixed windows of 111 chars: every drawn chunk is exactly its window.
    const chunks = await page.$$eval('[data-testid=document-view] [data-testid=chunk]', (els) =>
      els.map((e) => ({ start: +e.dataset.start, end: +e.dataset.end, text: e.textContent })),
    );
    assert.ok(chunks.length > 10);
    for (const [i, c] of chunks.entries()) {
      assert.equal(c.start, i * 111, `chunk ${i} starts at its window`);
      assert.equal(c.end, Math.min((i + 1) * 111, text.length));
      assert.equal(c.text, text.slice(c.start, c.end));
    }
  },
  { timeout: 60000 },
);

e2e(
  'typing quickly ends with the chunks of the final text',
  async ({ page }) => {
    const base = prose(300_000, 5);
    await configure(page, { separators: 'seed', strategy: 'recursive', size: 200, overlap: 0 });
    await paste(page, base);
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid=document-view]')?.getAttribute('data-total')) > 1000,
      null,
      { timeout: 15000 },
    );
    // Keys a little slower than the text area's pause, so each makes a request,
    // faster than the worker splits 300 KB twice.
    await byTestId(page, 'doc-input').press('End');
    await page.keyboard.type(' Zebra crossing.', { delay: 170 });
    await settled(page);
    const final = `${base} Zebra crossing.`;
    assert.equal(await byTestId(page, 'doc-input').inputValue(), final);
    await byTestId(page, 'document-view').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.waitForFunction(
      () => {
        const v = document.querySelector('[data-testid=document-view]');
        return v.querySelector(`[data-testid=chunk][data-index="${Number(v.getAttribute('data-total')) - 1}"]`);
      },
      null,
      { timeout: SETTLE_MS, polling: 'raf' },
    );
    const last = await page
      .locator('[data-testid=document-view] [data-testid=chunk]')
      .last()
      .evaluate((el) => ({ start: +el.dataset.start, end: +el.dataset.end, text: el.textContent }));
    assert.equal(last.end, charLen(final), 'the last chunk ends where the final text ends');
    assert.equal(last.text, charSlice(final, last.start, last.end));
    assert.match(last.text, /Zebra crossing\.$/);
  },
  { timeout: 90000 },
);

e2e('doc-file opens a text file as the document', async ({ page }) => {
  await loadRefundAt40(page);
  const notes = 'Opening hours\n\nWe open at nine. We close at five.\n\nCall us any time.';
  await openFile(page, 'notes.txt', notes);
  await page.waitForFunction((t) => document.querySelector('[data-testid=doc-input]')?.value === t, notes);
  await waitForChunkSpans(page, [
    { start: 0, end: 13 },
    { start: 15, end: 49 },
    { start: 51, end: 68 },
  ]);
  assert.match(await page.locator('.inputs').innerText(), /From notes\.txt/);
  assert.equal(await byTestId(page, 'preset-select').inputValue(), 'custom');
  // Editing it makes it the learner's own text again.
  await configure(page, { preset: 'refund' });
  await waitForChunkSpans(page, [
    { start: 0, end: 13 },
    { start: 15, end: 35 },
    { start: 36, end: 67 },
    { start: 68, end: 96 },
    { start: 98, end: 114 },
  ]);
  assert.equal(await byTestId(page, 'doc-input').inputValue(), REFUND);
});

e2e('a file that is not text is refused with a message, and the document stays', async ({ page }) => {
  await loadRefundAt40(page);
  await byTestId(page, 'doc-file').setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  });
  const error = byTestId(page, 'file-error');
  await error.waitFor();
  assert.match(await error.innerText(), /photo\.png does not look like text/);
  assert.equal(await byTestId(page, 'doc-input').inputValue(), REFUND);
});

e2e(
  'a long document is shown read-only, drawn a window at a time, and a part of it can be edited',
  async ({ page }) => {
    const text = prose(2_000_000, 3);
    await configure(page, { separators: 'seed', strategy: 'recursive', size: 400, overlap: 0 });
    await openFile(page, 'long.txt', text);
    const view = byTestId(page, 'doc-readonly');
    await view.waitFor();
    assert.equal(await byTestId(page, 'doc-input').count(), 0, 'no text area holds 2 MB');
    assert.match(await byTestId(page, 'doc-large-note').innerText(), /long\.txt \(2\.0 MB\) is too long to edit here/);
    assert.equal(await view.getAttribute('data-bytes'), String(text.length));
    const shown = await view.evaluate((el) => el.textContent.length);
    assert.ok(shown < 100_000, `only a window of the text is drawn: ${shown} chars`);
    assert.equal(await view.evaluate((el) => el.textContent.slice(0, 200)), text.slice(0, 200));
    // Scrolling to the end draws the end.
    await view.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.waitForFunction((tail) => document.querySelector('[data-testid=doc-readonly]').textContent.endsWith(tail), text.slice(-100), {
      timeout: SETTLE_MS,
      polling: 'raf',
    });
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid=document-view]')?.getAttribute('data-total')) > 4000,
      null,
      { timeout: 15000 },
    );
    // A smaller part goes back into the text area, to edit.
    await byTestId(page, 'doc-edit-part').click();
    const input = byTestId(page, 'doc-input');
    await input.waitFor();
    assert.equal(await input.inputValue(), text.slice(0, 250_000));
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid=document-view]')?.getAttribute('data-total')) < 1000,
      null,
      { timeout: 15000 },
    );
  },
  { timeout: 60000 },
);

e2e('a file dropped on the page opens as the document', async ({ page }) => {
  await loadRefundAt40(page);
  const text = 'Dropped text.\n\nIt splits like any other text, into two.';
  await page.evaluate((text) => {
    const files = new DataTransfer();
    files.items.add(new File([text], 'dropped.md', { type: 'text/markdown' }));
    const app = document.querySelector('.app');
    app.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: files }));
    app.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: files }));
  }, text);
  await page.waitForFunction((t) => document.querySelector('[data-testid=doc-input]')?.value === t, text);
  await waitForChunkSpans(page, [
    { start: 0, end: 13 },
    { start: 15, end: 55 },
  ]);
  assert.match(await page.locator('.inputs').innerText(), /From dropped\.md/);
});

e2e(
  'the page answers clicks while the worker splits a long document',
  async ({ page }) => {
    const text = prose(6_000_000, 9);
    await configure(page, { separators: 'seed', strategy: 'recursive', size: 400, overlap: 0 });
    await openFile(page, 'six.txt', text);
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid=document-view]')?.getAttribute('data-total')) > 10000,
      null,
      { timeout: 30000 },
    );
    await settled(page);
    // A new size: while the worker splits six megabytes, the page still opens a
    // badge's explanation and takes keys in another field.
    await byTestId(page, 'size-input').fill('350');
    // The request goes out on the page's next task; on a busy machine that can
    // be after `fill` returns, so wait for it rather than look once.
    await byTestId(page, 'splitting').waitFor({ state: 'attached', timeout: 10000 });
    assert.equal(await byTestId(page, 'splitting').count(), 1, 'the split is under way');
    await byTestId(page, 'badge-coverage').click();
    await byTestId(page, 'badge-explanation').waitFor();
    await byTestId(page, 'overlap-input').fill('10');
    assert.equal(await byTestId(page, 'overlap-input').inputValue(), '10');
    assert.equal(await byTestId(page, 'splitting').count(), 1, 'all that while the worker was still splitting');
    await settled(page);
    await waitForNoConfigError(page, 'size 350, overlap 10');
    const lens = await page.$$eval('[data-testid=document-view] [data-testid=chunk]', (els) =>
      els.map((e) => Number(e.dataset.end) - Number(e.dataset.start)),
    );
    assert.ok(lens.length > 0 && lens.every((n) => n <= 350), `chunks of at most 350 chars: ${lens.slice(0, 5)}`);
  },
  { timeout: 90000 },
);

e2e('the policy lets the page start workers from its own origin only', async ({ page }) => {
  const policy = await page.evaluate(
    () => document.querySelector('meta[http-equiv="Content-Security-Policy"]').getAttribute('content'),
  );
  assert.ok(policy.includes("worker-src 'self'"), policy);
  const outcome = await page.evaluate(async () => {
    const violations = [];
    // The refusal's event, waited for (within 5 s) rather than slept on.
    const refused = new Promise((r) => {
      document.addEventListener('securitypolicyviolation', (e) => {
        violations.push(e.violatedDirective);
        r();
      });
      setTimeout(r, 5000);
    });
    let said = false;
    const worker = new Worker(URL.createObjectURL(new Blob(['postMessage(1)'], { type: 'text/javascript' })));
    worker.onmessage = () => {
      said = true;
    };
    await refused;
    return { said, violations };
  });
  assert.equal(outcome.said, false, 'a worker from a blob: URL ran');
  assert.ok(outcome.violations.includes('worker-src'), JSON.stringify(outcome.violations));
}, { expect: { policyViolations: [/^event: worker-src blob/, /^console: .*worker-src/] } });

e2e('pasting a document too long to edit swaps the text area for the read-only view', async ({ page }) => {
  await loadRefundAt40(page);
  const text = prose(1_200_000, 4);
  await paste(page, text);
  await byTestId(page, 'doc-readonly').waitFor();
  assert.equal(await byTestId(page, 'doc-input').count(), 0);
  assert.match(await byTestId(page, 'doc-large-note').innerText(), /^This document is too long to edit here/);
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid=document-view]')?.getAttribute('data-total')) > 20000,
    null,
    { timeout: 15000 },
  );
  const first = await page.$eval('[data-testid=document-view] [data-testid=chunk]', (el) => el.textContent);
  assert.equal(first, text.slice(0, first.length));
});
