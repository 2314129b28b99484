// The packing sums in the tree add up as shown, from the numbers the trace records.
import { e2e, assert, byTestId, configure, loadRefundAt40, waitForChunks } from './harness.mjs';

/** Every `packing-sum` in the tree, as text. */
const sums = (page) => byTestId(page, 'packing-sum').evaluateAll((els) => els.map((el) => el.textContent));

/**
 * Checks one sum as a learner would: the terms before `=` (each a number,
 * perhaps followed by words) add up to the number after it, which is over the
 * size after `>`. Returns the numbers.
 */
function addsUp(text, size) {
  const m = /^packed while it fit: (.+) = (\d+) > (\d+)$/.exec(text);
  assert.ok(m, `not a sum: ${JSON.stringify(text)}`);
  const terms = m[1].split(' + ').map((t) => {
    const n = /^(\d+)\b/.exec(t) ?? /^(\d+)$/.exec(t);
    assert.ok(n, `term ${JSON.stringify(t)} of ${JSON.stringify(text)} is not a number`);
    return Number(n[1]);
  });
  const total = Number(m[2]);
  assert.equal(terms.reduce((a, b) => a + b, 0), total, `${text}: the terms do not add up`);
  assert.equal(Number(m[3]), size, `${text}: not compared with the size`);
  assert.ok(total > size, `${text}: not over the size`);
  return terms;
}

e2e('the refund page shows its packing sums as computed', async ({ page }) => {
  await loadRefundAt40(page);
  assert.deepEqual(await sums(page), [
    'packed while it fit: 15 with “\\n\\n” + 83 with “\\n\\n” = 98 > 40',
    'packed while it fit: 21 with “.␣” + 31 = 52 > 40',
  ]);
  for (const s of await sums(page)) addsUp(s, 40);
  // The 81-char paragraph and its 52-char line were too big on their own:
  // no packing line on them.
  const big = await page
    .locator('[data-testid=tree-node][data-too-big=true] [data-testid=packing-sum]')
    .count();
  assert.equal(big, 0);
});

e2e('a dropped separator is counted between the parts', async ({ page }) => {
  await loadRefundAt40(page);
  await byTestId(page, 'placement-select').selectOption('none');
  await waitForChunks(page, (c) => c.length === 5 && c[1].text === 'Refunds take 5 days', 'the sentence without its ". "');
  const all = await sums(page);
  assert.ok(all.includes('packed while it fit: 19 + 2 for “.␣” + 31 = 52 > 40'), JSON.stringify(all));
  for (const s of all) addsUp(s, 40);
});

e2e('packing sums add up on the Markdown and chat pages, ours and LangChain', async ({ page }) => {
  let compared = 0;
  // LangChain takes no list that mixes regexes and literals, as the
  // Markdown preset does: it gets the default list there.
  for (const [preset, separators, strategies] of [
    ['markdown', 'markdown', ['recursive']],
    ['markdown', 'default', ['recursive', 'langchain']],
    ['slack', 'default', ['recursive', 'langchain']],
  ]) {
    for (const strategy of strategies) {
      for (const size of [60, 150]) {
        await configure(page, { preset, separators, strategy, size, overlap: 0 });
        await waitForChunks(page, (c) => c.length > 1, `${preset} ${strategy} ${size}`);
        // The tree of the previous size can still be on screen: wait for
        // sums against this size (a page may have none; then none is read).
        await page
          .waitForFunction(
            (size) => {
              const els = [...document.querySelectorAll('[data-testid=packing-sum]')];
              return els.length > 0 && els.every((el) => el.textContent.endsWith(`> ${size}`));
            },
            size,
            { timeout: 3000 },
          )
          .catch(() => {});
        const all = await sums(page);
        for (const s of all) addsUp(s, size);
        compared += all.length;
      }
    }
  }
  assert.ok(compared >= 10, `only ${compared} sums compared`);
});
