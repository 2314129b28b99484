// Markup and code separator presets: each carries the placement it needs, so no
// chunk ends in heading marks; a chunk of markup alone is flagged.
import { e2e, assert, byTestId, configure, readChunks, readConfig, waitForChunks, docText } from './harness.mjs';

/** The placement select's value. */
const placement = (page) => byTestId(page, 'placement-select').inputValue();

e2e("the Markdown preset's chunks never end in heading marks", async ({ page }) => {
  await configure(page, { preset: 'markdown', separators: 'markdown', strategy: 'recursive', unit: 'chars' });
  assert.equal(await placement(page), 'start', 'the markdown preset starts the next piece with its separator');
  const text = await docText(page);
  let compared = 0;
  // Size 40 is the page's default, so start elsewhere: every step then changes the chunks.
  let before = JSON.stringify(await readChunks(page));
  for (const size of [80, 40, 120, 200, 512]) {
    await configure(page, { size });
    // The chunks of this size: none longer, and the last reaching the text's end.
    // The previous size's chunks can pass those checks too (all of size 80's
    // fit in 120), so wait until the list has changed as well.
    const chunks = await waitForChunks(
      page,
      (c) =>
        c.length > 0 &&
        JSON.stringify(c) !== before &&
        c.every((ch) => [...ch.text].length <= size) &&
        c.some((ch) => [...ch.text].length > size / 2) &&
        Number(c.at(-1).end) === [...text.trimEnd()].length,
      `markdown page at size ${size}`,
    );
    before = JSON.stringify(chunks);
    for (const c of chunks) {
      assert.doesNotMatch(c.text.trimEnd(), /#$/, `size ${size}: chunk ${c.index} ends in heading marks: ${JSON.stringify(c.text)}`);
      compared += 1;
    }
    // Flagged: exactly the chunks with no letter or digit (a table's rule
    // row, a closing code fence or a horizontal rule left on its own).
    // The document view draws its chunks a frame after the list the harness
    // reads, so give its marks a moment to catch up before comparing.
    const wordless = chunks.filter((c) => !/[\p{L}\p{N}]/u.test(c.text)).map((c) => c.index);
    const flagged = (sel) => [...document.querySelectorAll(sel)].map((el) => el.dataset.index);
    const sel = '[data-testid=chunk][data-only-markup=true]';
    await page
      .waitForFunction(
        ([sel, want]) =>
          JSON.stringify([...document.querySelectorAll(sel)].map((el) => el.dataset.index)) === JSON.stringify(want),
        [sel, wordless],
        { timeout: 5000 },
      )
      .catch(() => {});
    const marked = await page.evaluate(flagged, sel);
    assert.deepEqual(marked, wordless, `size ${size}: the flagged chunks`);
    const line = byTestId(page, 'only-markup');
    assert.equal((await line.count()) ? await line.getAttribute('data-count') : '0', String(wordless.length));
  }
  assert.ok(compared > 20, `only ${compared} chunks compared`);
  // A prose preset goes back to the strategy's own placement.
  await configure(page, { separators: 'seed' });
  assert.equal(await placement(page), 'end');
  assert.equal((await readConfig(page)).separators, 'seed');
});

e2e('every code and markup preset starts the next piece', async ({ page }) => {
  for (const [preset, want] of [
    ['python', 'start'],
    ['rust', 'start'],
    ['js', 'start'],
    ['html', 'start'],
    ['cjk', 'end'],
    ['default', 'end'],
  ]) {
    await configure(page, { separators: preset });
    assert.equal(await placement(page), want, preset);
  }
});

e2e('a chunk that is only markup is flagged', async ({ page }) => {
  await configure(page, { text: 'Some words\n\n##\n\nmore words', separators: 'default', strategy: 'recursive', size: 12 });
  const chunks = await waitForChunks(page, (c) => c.length === 3, 'three chunks');
  assert.deepEqual(
    chunks.map((c) => c.text),
    ['Some words', '##', 'more words'],
  );
  const flagged = await page.locator('[data-testid=chunk][data-only-markup=true]').evaluateAll((els) =>
    els.map((el) => el.getAttribute('data-index')),
  );
  assert.deepEqual(flagged, ['1']);
  const line = byTestId(page, 'only-markup');
  assert.equal(await line.getAttribute('data-count'), '1');
  assert.match(await line.innerText(), /1 only markup/);
  // Words make it content again.
  await configure(page, { text: 'Some words\n\n## Usage\n\nmore words' });
  await waitForChunks(page, (c) => c.length === 3 && c[1].text === '## Usage', 'the heading with its words');
  assert.equal(await byTestId(page, 'only-markup').count(), 0);
});
