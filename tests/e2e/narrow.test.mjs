// The page on a phone (390 px) and a wide screen (1400 px), light and dark: every
// mode and every explore view is shot for review, and at 390 px nothing sticks out
// to the right of the viewport except inside a deliberate scroll container (a
// table or a document view that scrolls on its own). The interview cards' groups
// are folded on a narrow screen: each opens and closes, by mouse and keyboard.
//   screenshots/narrow-{view or mode}-{390,1400}-{light,dark}.png (full page)
//   screenshots/narrow-comparison-table-390.png, narrow-sweep-{390,1400}.png,
//   narrow-cards-folded-390.png, narrow-cards-shown-390.png
import { join } from 'node:path';
import { e2e, assert, byTestId, painted, waitForChunkSpans, loadRefundAt40, SEED_CHUNKS, SCREENSHOTS, viewShot } from './harness.mjs';

const NARROW = { width: 390, height: 844 };
const WIDTHS = [390, 1400];
const SCHEMES = ['light', 'dark'];

/**
 * Elements whose box ends right of the viewport and that no scroll container
 * holds (an ancestor whose `overflow-x` clips or scrolls, itself inside the
 * viewport), plus the page's own scroll width when it exceeds the viewport.
 */
const overflow = (page) =>
  page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const held = (el) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const o = getComputedStyle(a).overflowX;
        if (o !== 'visible') return a.getBoundingClientRect().right <= vw + 1;
      }
      return false;
    };
    const out = [...document.querySelectorAll('body *')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.right > vw + 1 && !held(el);
      })
      .slice(0, 6)
      .map((el) => {
        const id = el.getAttribute('data-testid');
        const cls = typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : '';
        return `${el.tagName.toLowerCase()}${id ? `[${id}]` : ''}${cls} right=${Math.round(el.getBoundingClientRect().right)}`;
      });
    const sw = document.scrollingElement.scrollWidth;
    if (sw > vw + 1) out.unshift(`page is ${sw}px wide in ${vw}px`);
    return out;
  });

/** Shoots `name` at both widths and schemes; returns what sticks out at 390 px. */
async function shootAll(page, shot, name, ready = async () => {}) {
  const problems = [];
  for (const colorScheme of SCHEMES) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      await ready();
      await page.evaluate(() => document.fonts.ready);
      await shot(`narrow-${name}-${width}-${colorScheme}`);
      if (width === 390) {
        const out = await overflow(page);
        if (out.length) problems.push(`${name} (${colorScheme}): ${out.join(', ')}`);
      }
    }
  }
  return problems;
}

const VIEWS = [
  'fixed',
  'recursive',
  'sentence',
  'markdown',
  'langchain',
  'langchain-character',
  'semantic',
  'semchunk',
  'chonkie-recursive',
  'chonkie-token',
  'chonkie-sentence',
  'llamaindex-sentence',
  'llamaindex-token',
  'llamaindex-markdown',
  'text-splitter',
  'text-splitter-markdown',
  'compare',
  'compare-langchain',
  'compare-markdown',
  'libraries',
];

e2e(
  'explore: every view at 390 and 1400 px, light and dark; nothing sticks out at 390 px',
  async ({ page, shot }) => {
    await loadRefundAt40(page);
    const offered = await page.$$eval('[data-testid=strategy-select] option', (o) => o.map((x) => x.value));
    let problems = [];
    for (const view of VIEWS.filter((v) => offered.includes(v))) {
      await byTestId(page, 'strategy-select').selectOption(view);
      await page.waitForFunction(() => !document.querySelector('[data-testid=splitting]'));
      await page.locator('[data-testid=chunk]').first().waitFor({ state: 'attached' });
      if (view === 'semantic') await byTestId(page, 'strategy-comparison').waitFor({ state: 'visible' });
      problems = problems.concat(await shootAll(page, shot, view));
    }
    assert.deepEqual(problems, []);
  },
  { timeout: 240000 },
);

e2e(
  'the four-strategy comparison reads as one card per strategy at 390 px',
  async ({ page, shot }) => {
    await loadRefundAt40(page);
    await byTestId(page, 'strategy-select').selectOption('semantic');
    const table = byTestId(page, 'strategy-comparison');
    await table.waitFor({ state: 'visible' });
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid=comparison-row]')].filter((r) => r.dataset.chunks).length >= 4,
    );
    const rows = await page.$$eval('[data-testid=comparison-row]', (rs) =>
      rs.map((r) => ({ strategy: r.dataset.strategy, width: r.getBoundingClientRect().width, right: r.getBoundingClientRect().right })),
    );
    assert.ok(rows.length >= 4, `rows: ${JSON.stringify(rows)}`);
    for (const r of rows) assert.ok(r.right <= 391, `${r.strategy} ends at ${r.right}px`);
    await viewShot(table, join(SCREENSHOTS, 'narrow-comparison-table-390.png'));
  },
  { viewport: NARROW, finalShot: false },
);

e2e(
  'teaching modes and evaluate at 390 and 1400 px, light and dark; nothing sticks out at 390 px',
  async ({ page, shot }) => {
    let problems = [];
    const mode = async (m) => {
      await byTestId(page, 'mode-select').selectOption(m);
      await painted(page);
    };
    await mode('practice');
    await byTestId(page, 'practice').waitFor({ state: 'visible' });
    problems = problems.concat(await shootAll(page, shot, 'practice'));
    await mode('bugs');
    await byTestId(page, 'bug-gallery').waitFor({ state: 'visible' });
    problems = problems.concat(await shootAll(page, shot, 'bugs'));
    await mode('code');
    await byTestId(page, 'code-mode').waitFor({ state: 'visible' });
    problems = problems.concat(await shootAll(page, shot, 'code'));
    await mode('evaluate');
    await byTestId(page, 'eval-page').waitFor({ state: 'visible' });
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-testid=eval-row]')];
      return rows.length > 0 && rows.every((r) => r.dataset.state !== 'waiting');
    }, null, { timeout: 20000 });
    await byTestId(page, 'sweep-start').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=sweep-chart]')?.dataset.state === 'done', null, {
      timeout: 60000,
    });
    problems = problems.concat(await shootAll(page, shot, 'evaluate'));
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await viewShot(page.locator('section.eval-sweep'), join(SCREENSHOTS, `narrow-sweep-${width}.png`));
    }
    // The chart fills the width on a phone, and its tick labels stay legible.
    await page.setViewportSize({ width: 390, height: 900 });
    const sizes = await page.evaluate(() => {
      const svg = document.querySelector('[data-testid=sweep-chart]');
      const tick = svg.querySelector('.tick');
      return { chart: svg.getBoundingClientRect().width, room: svg.parentElement.clientWidth, tick: tick.getBoundingClientRect().height };
    });
    assert.ok(sizes.chart >= sizes.room - 40, `sweep chart is ${sizes.chart}px wide in ${sizes.room}px at 390 px`);
    assert.ok(sizes.tick >= 9, `tick labels are ${sizes.tick}px high at 390 px`);
    assert.deepEqual(problems, []);
  },
  { timeout: 240000, finalShot: false },
);

e2e(
  'lessons and cards at 390 and 1400 px, light and dark; nothing sticks out at 390 px',
  async ({ page, shot }) => {
    await waitForChunkSpans(page, SEED_CHUNKS);
    await byTestId(page, 'lesson-select').selectOption('refund');
    const problems = await shootAll(page, shot, 'lessons');
    assert.deepEqual(problems, []);
  },
  { viewport: NARROW, timeout: 120000, finalShot: false },
);

e2e(
  'at 390 px the card groups are folded, each with its count, and open and close by mouse and keyboard',
  async ({ page, shot }) => {
    await waitForChunkSpans(page, SEED_CHUNKS);
    const groups = byTestId(page, 'card-group');
    const n = await groups.count();
    assert.ok(n >= 4, `${n} card groups`);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const g = groups.nth(i);
      assert.equal(await g.evaluate((d) => d.open), false, `group ${i} starts folded`);
      const count = Number(await g.getAttribute('data-count'));
      assert.equal(await g.locator('[data-testid=card]').count(), count, `group ${i}: data-count`);
      assert.match(await g.locator('[data-testid=card-group-toggle]').innerText(), new RegExp(`\\b${count}\\b`));
      assert.equal(await g.locator('[data-testid=card]').first().isVisible(), false);
      total += count;
    }
    assert.equal(total, await byTestId(page, 'card').count());
    await shot('narrow-cards-folded-390');

    // Mouse: the first group opens, its cards show; a second click folds it.
    const first = groups.nth(0);
    await first.locator('[data-testid=card-group-toggle]').click();
    await first.locator('[data-testid=card]').first().waitFor({ state: 'visible' });
    assert.equal(await first.evaluate((d) => d.open), true);
    await first.locator('[data-testid=card-group-toggle]').click();
    await first.locator('[data-testid=card]').first().waitFor({ state: 'hidden' });

    // Keyboard: the toggle takes the focus and Enter / Space open and fold.
    const second = groups.nth(1);
    await second.locator('[data-testid=card-group-toggle]').focus();
    await page.keyboard.press('Enter');
    await second.locator('[data-testid=card]').first().waitFor({ state: 'visible' });
    await page.keyboard.press(' ');
    await second.locator('[data-testid=card]').first().waitFor({ state: 'hidden' });

    // A card shown keeps its group open, also after a re-render with a new split.
    const last = groups.nth(n - 1);
    await last.locator('[data-testid=card-group-toggle]').click();
    const card = last.locator('[data-testid=card]').first();
    await card.locator('[data-testid=card-show]').click();
    const confirm = byTestId(page, 'card-confirm-replace');
    if (await confirm.isVisible().catch(() => false)) await confirm.click();
    await card.locator('[data-testid=card-fact]').waitFor({ state: 'visible' });
    assert.equal(await last.evaluate((d) => d.open), true);
    await shot('narrow-cards-shown-390');
    assert.deepEqual(await overflow(page), []);
  },
  { viewport: NARROW, timeout: 60000, finalShot: false },
);

e2e(
  'at 1400 px every card group starts open',
  async ({ page }) => {
    await waitForChunkSpans(page, SEED_CHUNKS);
    const open = await page.$$eval('[data-testid=card-group]', (g) => g.map((d) => d.open));
    assert.ok(open.length >= 4 && open.every(Boolean), JSON.stringify(open));
  },
  { viewport: { width: 1400, height: 900 } },
);
