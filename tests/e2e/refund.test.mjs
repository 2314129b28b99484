// Seed 000's refund page at size 40 with the seed separators: the five chunks,
// their spans and cuts, the recursion tree, the invariant badges and the separator list.
import {
  e2e,
  assert,
  REFUND,
  SEED_CHUNKS,
  configure,
  docText,
  waitForChunkSpans,
  waitForChunks,
  parseChunks,
  charIndexOf,
  charLen,
  charSlice,
  readTree,
  readBadges,
  readSeparatorLabels,
  assertSeparatorLabels,
  SETTLE_MS,
} from './harness.mjs';

e2e('refund page at size 40 splits into the five seed chunks', async ({ page }) => {
  // Start elsewhere, so that every control has to do its part to get back here.
  await configure(page, { preset: 'slack', separators: 'default', strategy: 'fixed', size: 90, overlap: 7 });
  await waitForChunks(page, (c) => c.length > 0 && c[0].cut === 'window', 'fixed windows of the slack preset');
  assert.notEqual(await docText(page), REFUND, 'preset "slack" should replace the refund page');

  await configure(page, { preset: 'refund', separators: 'seed', strategy: 'recursive', size: 40, overlap: 0 });

  const doc = await docText(page);
  assert.equal(doc, REFUND, 'preset "refund" should load the seed-000 refund page exactly');

  // Expected spans from the document itself, then the literal numbers of the seed.
  let from = 0;
  const fromDoc = SEED_CHUNKS.map(({ text }) => {
    const start = charIndexOf(doc, text, from);
    assert.ok(start >= 0, `${JSON.stringify(text)} not found in the document`);
    from = start + text.length;
    return { start, end: start + charLen(text) };
  });
  assert.deepEqual(
    fromDoc,
    [
      { start: 0, end: 13 },
      { start: 15, end: 35 },
      { start: 36, end: 67 },
      { start: 68, end: 96 },
      { start: 98, end: 114 },
    ],
    'hand-checked offsets of the five chunks in the refund page',
  );

  const chunks = parseChunks(await waitForChunkSpans(page, fromDoc));
  assert.equal(chunks.length, 5);
  chunks.forEach((c, i) => {
    const want = SEED_CHUNKS[i];
    assert.equal(c.index, i, `chunk ${i}: data-index`);
    assert.equal(c.start, want.start, `chunk ${i}: data-start`);
    assert.equal(c.end, want.end, `chunk ${i}: data-end`);
    assert.equal(charSlice(doc, c.start, c.end), want.text, `chunk ${i}: document[data-start, data-end)`);
    assert.ok(
      c.text.includes(want.text),
      `chunk ${i}: its text should show ${JSON.stringify(want.text)}, shows ${JSON.stringify(c.text)}`,
    );
    assert.equal(c.cut, want.cut, `chunk ${i}: data-cut`);
  });
  // The blank-line cut is the four characters backslash n backslash n.
  assert.equal(chunks[0].cut.length, 4);
  assert.deepEqual([...chunks[0].cut], ['\\', 'n', '\\', 'n']);
});

e2e('refund page recursion tree: \\n\\n, then \\n on 81 chars, then ". " on 52 chars', async ({ page }) => {
  await configure(page, { preset: 'refund', separators: 'seed', strategy: 'recursive', size: 40, overlap: 0 });
  await waitForChunkSpans(page, SEED_CHUNKS);

  // The tree may render a moment after the chunks.
  const deadline = Date.now() + SETTLE_MS;
  let nodes = await readTree(page);
  while (!nodes.some((n) => n.len === '52') && Date.now() < deadline) {
    await page.waitForTimeout(40);
    nodes = await readTree(page);
  }
  const dump = JSON.stringify(nodes);
  const find = (pred, what) => {
    const n = nodes.find(pred);
    assert.ok(n, `no tree-node ${what}; tree-nodes: ${dump}`);
    return n;
  };

  for (const n of nodes) {
    assert.match(String(n.depth), /^\d+$/, `tree-node data-depth should be an integer: ${JSON.stringify(n)}`);
    assert.match(String(n.len), /^\d+$/, `tree-node data-len should be an integer: ${JSON.stringify(n)}`);
    assert.ok(n.tooBig === 'true' || n.tooBig === 'false', `tree-node data-too-big should be true|false: ${JSON.stringify(n)}`);
    assert.ok(n.separator !== null, `tree-node without data-separator: ${JSON.stringify(n)}`);
    assert.ok(
      ['\\n\\n', '\\n', '. ', ''].includes(n.separator),
      `only \\n\\n, \\n and ". " are needed (space and hard cut never are); found data-separator=${JSON.stringify(n.separator)}`,
    );
  }

  const root = find((n) => n.depth === '1', 'with data-depth=1 (the root)');
  assert.equal(nodes.filter((n) => n.depth === '1').length, 1, `exactly one root node; tree-nodes: ${dump}`);
  assert.equal(root.separator, '\\n\\n', 'root: split by the blank line (escaped \\n\\n)');
  assert.equal(root.tooBig, 'true', 'root: too big');
  assert.equal(root.len, '114', 'root: the whole page');

  const para = find((n) => n.len === '81', 'with data-len=81 (the middle paragraph)');
  assert.equal(para.tooBig, 'true', '81-char paragraph: too big');
  assert.equal(para.separator, '\\n', '81-char paragraph: split by \\n (escaped, 2 chars)');
  assert.equal(para.separator.length, 2);
  assert.equal(para.depth, '2', '81-char paragraph: level 2');

  const line = find((n) => n.len === '52', 'with data-len=52 (the long first line)');
  assert.equal(line.tooBig, 'true', '52-char line: too big');
  assert.equal(line.separator, '. ', '52-char line: split by ". "');
  assert.equal(line.depth, '3', '52-char line: level 3');

  for (const len of ['20', '31']) {
    const leaf = find((n) => n.len === len && n.tooBig === 'false', `with data-len=${len} that fits`);
    assert.equal(leaf.separator, '', `${len}-char sentence: fits, so data-separator is empty`);
  }
  for (const n of nodes) {
    assert.equal(n.tooBig === 'true', Number(n.len) > 40, `data-too-big must mean len > 40: ${JSON.stringify(n)}`);
    if (n.tooBig === 'false') assert.equal(n.separator, '', `a node that fits is not split: ${JSON.stringify(n)}`);
  }
});

e2e('refund page: all invariant badges are green', async ({ page }) => {
  await configure(page, { preset: 'refund', separators: 'seed', strategy: 'recursive', size: 40, overlap: 0 });
  await waitForChunkSpans(page, SEED_CHUNKS);
  const want = { coverage: 'true', 'max-size': 'true', order: 'true', overlap: 'true', determinism: 'true' };
  const deadline = Date.now() + SETTLE_MS;
  let badges = await readBadges(page);
  while (JSON.stringify(badges) !== JSON.stringify(want) && Date.now() < deadline) {
    await page.waitForTimeout(40);
    badges = await readBadges(page);
  }
  assert.deepEqual(badges, want, 'data-ok of badge-coverage/max-size/order/overlap/determinism (null = missing)');
});

e2e('seed separators are listed: \\n\\n, \\n, ". ", space, hard cut', async ({ page }) => {
  await configure(page, { preset: 'refund', separators: 'seed', strategy: 'recursive', size: 40, overlap: 0 });
  await waitForChunkSpans(page, SEED_CHUNKS);
  assertSeparatorLabels(await readSeparatorLabels(page), ['\n\n', '\n', '. ', ' ', ''], 'seed separators');
});
