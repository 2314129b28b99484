// Every lesson on screen: each card's "Show me" sets the playground up and the
// card says what the split really shows (`card-fact`, computed from the engine's
// output); the refund page's fixed windows against the lesson's remark; the
// window-count formula and costs beside the lessons; seed 004's exercises checked
// by the engine; the overlap refusal's suggestion.
import { join } from 'node:path';
import { e2e, assert, byTestId, waitForChunkSpans, waitForText, SEED_CHUNKS, SCREENSHOTS, viewShot } from './harness.mjs';

const card = (page, id) => page.locator(`[data-card="${id}"]`);

/** Clicks a card's button and returns its fact once the worker has answered. */
async function show(page, id, timeout = 15000) {
  await card(page, id).locator('[data-testid=card-show]').click();
  await page.waitForFunction(
    (id) => {
      const f = document.querySelector(`[data-card="${id}"] [data-testid=card-fact]`);
      return f && !f.hasAttribute('data-pending') && f.dataset.holds === 'true';
    },
    id,
    { timeout },
  );
  return card(page, id).locator('[data-testid=card-fact]').innerText();
}

// What each card's fact must say (the numbers the native tests pin word for word).
const FACTS = {
  overlap: /4 of 5 chunks start by repeating the end of the one before \(at most 7 chars, the overlap is 12\)/,
  markdown: /17 of 17 chunks carry a heading path; the last one's is “Returns and refunds > Frequently asked questions > Who do I contact if something goes wrong\?”, put before it as its prefix/,
  'md-heading': /Recursive: 1 chunk ends in a heading whose body starts the next chunk; Markdown: 0\./,
  'md-table': /Recursive: 2 chunks of rows with no header row; Markdown: 2 with the header row recorded as context\./,
  'md-fence': /Chunks holding half a code fence: recursive 2, Markdown 0\./,
  'too-small': /At size 40: 9 chunks; 2 open with a pronoun .*“It takes 5 days\.”.*“It never expires\.”/,
  'too-big': /At size 400: 1 chunk; chunk 0 is 206 chars and holds 5 paragraphs/,
  typical: /Size 1200 chars with overlap 150 \(13 % of the size\): 204 chunks, median 1172 chars/,
  libraries: /Same page, same size: LangChain 5 chunks, text-splitter 5, semchunk 5, Chonkie 4; the same chunks from text-splitter and semchunk, and no chunk is the same in all of them\./,
  headline: /Fixed: 3 windows, 1 of them cut inside a word \(“g\|et”\)\. Recursive: 5 chunks, cut 2 by “\\n\\n”, 1 by “\\n”, 1 by “\. ”\./,
  'equal-sized': /Chunk lengths at size 40: 13, 20, 31, 28, 16: from 13 to 31/,
  'all-at-once': /“\\n\\n” split 1 piece of 114 chars; “\\n” split 1 piece of 81 chars; “\. ” split 1 piece of 52 chars; “ ” and the hard cut never ran/,
  empty: /89 chunks, cut 2 by “\\n\\n”, 1 by “\. ”, 5 by “ ”, 80 by a hard cut\. The longest is 40/,
  meaning: /Chunk 0 .* is about refunds and about shipping/,
  merge: /With the merge: 2 chunks\. Without it \(the lesson's eleven lines\): 3 pieces/,
  slack: /“\\n\\n” never occurs; 29 chunks, cut 24 by “\\n”, 4 by “ ”/,
  pdf: /“\\n\\n” and “\\n” never occur; 7 chunks, cut 3 by “\. ”, 2 by “ ”, 1 by a hard cut\. Hard-cut: “https:\/\/shop\.example\.com\/orders\/track\?id”/,
  'doing-work': /675 chunks, cut 608 by “\\n\\n”, 66 by “ ”: 674 of 674 cuts by a named separator, 0 inside a word\./,
  csv: /“\\n\\n” and “\\n” never occur; 62 chunks, cut 60 by “ ”, 1 by a hard cut; 0 of the 61 chunks after the first start where a row starts/,
  json: /4 chunks, cut 3 by a hard cut\. Chunks starting inside a key or a value: “efunded/,
  crlf: /The text has 3 “\\r\\n\\r\\n” and 0 “\\n\\n”, so “\\n\\n” never occurs\. 2 chunks hold a paragraph break inside them/,
  nfd: /are 27 and 33 chars long .* chunk 4 \(U\+0301\), chunk 7 \(U\+0300\)/,
  abbreviations: /“\. ” cut after “Dr\.”, “today\.”, “e\.g\.”, “Friday\.”\. The shortest chunk is “Dr\.”/,
  sentences: /3 sentences\. Not sentence ends: “Dr\.” \(abbreviation\), “\$3\.50” \(number\)/,
  'cjk-quote': /Chunks that start with the closing quote of the sentence before: chunk 1: ”我们就在家看书。, chunk 3: ”我说好。/,
  thai: /5 chunks, cut 4 by a hard cut\. 2 chunks start with a vowel or tone mark torn from its consonant \(U\+0E31, U\+0E31\)\. The text has 10 zero-width spaces/,
  zwsp: /5 chunks, cut 4 by “\\u\{200B\}”; 0 chunks start with a mark torn from its letter/,
};

e2e(
  'every card shows what it says, computed from the split on screen',
  async ({ page }) => {
    await waitForChunkSpans(page, SEED_CHUNKS);
    const ids = await page.locator('[data-testid=card]').evaluateAll((els) => els.map((e) => e.dataset.card));
    for (const id of [...Object.keys(FACTS), 'tokens']) assert.ok(ids.includes(id), `card ${id}: ${ids}`);
    let compared = 0;
    for (const [id, want] of Object.entries(FACTS)) {
      const fact = await show(page, id);
      assert.match(fact, want, `card ${id}`);
      compared += 1;
    }
    assert.equal(compared, 27);
    // The headline card shows both strategies side by side.
    await show(page, 'headline');
    assert.equal(await byTestId(page, 'strategy-select').inputValue(), 'compare');
    // The libraries card opens the libraries view.
    await show(page, 'libraries');
    assert.equal(await byTestId(page, 'strategy-select').inputValue(), 'libraries');
    // The sentence card runs the sentence strategy.
    await show(page, 'sentences');
    assert.equal(await byTestId(page, 'strategy-select').inputValue(), 'sentence');
  },
  { timeout: 120000 },
);

e2e('the tokens card counts in cl100k and gives chars per token, counted by the worker', async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  const fact = await show(page, 'tokens', 30000);
  assert.equal(await byTestId(page, 'unit-select').inputValue(), 'cl100k');
  assert.equal(fact.replace(/^On screen now: /, ''), 'In cl100k, 15 chunks of at most 60 tokens; the longest is 61 chars.');
  const ratio = byTestId(page, 'token-ratio');
  await page.waitForFunction(() => document.querySelector('[data-testid=token-ratio]')?.dataset.cl100k !== undefined, null, { timeout: 30000 });
  assert.equal(await ratio.getAttribute('data-chars'), '541');
  assert.equal(await ratio.getAttribute('data-cl100k'), '564');
  // A second encoding, once its tables are in, is counted too.
  await byTestId(page, 'unit-select').selectOption('o200k');
  await page.waitForFunction(() => document.querySelector('[data-testid=token-ratio]')?.dataset.o200k === '400', null, { timeout: 30000 });
  assert.equal(
    await ratio.innerText(),
    'This text is 541 chars: 564 cl100k tokens (1.0 chars a token), 400 o200k tokens (1.4 chars a token).',
  );
});

e2e('a card keeps reading the split as the settings change', async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  await show(page, 'too-small');
  await byTestId(page, 'size-input').fill('400');
  await page.waitForFunction(() => {
    const f = document.querySelector('[data-card="too-small"] [data-testid=card-fact]');
    return f && !f.hasAttribute('data-pending') && f.dataset.holds === 'false' && /At size 400: 1 chunk; 0 open/.test(f.innerText);
  });
});

e2e('the refund page at 40 in fixed windows: the lesson says "Refunds" is cut, the engine shows g|et and a mid-sentence start', async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  await byTestId(page, 'lesson-select').selectOption('refund-fixed');
  await page.waitForFunction(() => document.querySelector('[data-testid=lesson-claim]') !== null);
  const claim = byTestId(page, 'lesson-claim');
  assert.equal(await claim.getAttribute('data-holds'), 'false');
  assert.equal(
    await claim.innerText(),
    'The lesson is wrong here: it says a window starts inside “Refunds”, and none does. Window 2 starts at char 40, in the middle of a sentence (“…They| go…”); window 3 starts at char 80, inside the word “g|et”.',
  );
  assert.equal(await byTestId(page, 'lesson-match').getAttribute('data-ok'), 'false');
  // Who is wrong is said plainly: the lesson, not the engine.
  assert.match(await byTestId(page, 'lesson-match').innerText(), /The lesson's sentence is wrong/);
  // The fixed pane holds the three windows, the recursive pane the lesson's five chunks.
  const starts = await page.locator('[data-testid=pane-fixed] [data-testid=chunk]').evaluateAll((els) => els.map((e) => e.dataset.start));
  assert.deepEqual(starts, ['0', '40', '80']);
  assert.equal(await page.locator('[data-testid=pane-recursive] [data-testid=chunk]').count(), 5);
  const formula = byTestId(page, 'lesson-formula');
  assert.equal(await formula.getAttribute('data-n'), '3');
  assert.equal(await formula.getAttribute('data-chunks'), '3');
  assert.match(await formula.innerText(), /1 \+ ⌈\(114 − 40\)\/\(40 − 0\)⌉ = 3/);
  assert.match(await byTestId(page, 'lesson-cost').innerText(), /O\(n\) time/);
  // The windows lesson: N = 3 for L=250, S=100, O=20; the refund lesson: O(n·s).
  await byTestId(page, 'lesson-select').selectOption('windows');
  await page.waitForFunction(() => /250 − 100/.test(document.querySelector('[data-testid=lesson-formula]')?.innerText ?? ''));
  await byTestId(page, 'lesson-select').selectOption('refund');
  await page.waitForFunction(() => /O\(n·s\).*s = 5/.test(document.querySelector('[data-testid=lesson-cost]')?.innerText ?? ''));
  assert.equal(await byTestId(page, 'lesson-formula').count(), 0, 'no window formula for the recursive splitter');
});

const exercise = (page, id) => page.locator(`[data-testid=exercise][data-exercise="${id}"]`);

e2e("seed 004's exercises are checked by the engine", async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  // 1. Duplication: a wrong answer, then the right one.
  const dup = exercise(page, 'duplication');
  await dup.locator('[data-field=repeated]').fill('20');
  await dup.locator('[data-field=embedded]').fill('270');
  await dup.locator('[data-testid=exercise-check]').click();
  await page.waitForFunction(() => document.querySelector('[data-exercise=duplication] [data-testid=exercise-result]')?.dataset.ok === 'false');
  await dup.locator('[data-field=repeated]').fill('40');
  await dup.locator('[data-field=embedded]').fill('290');
  await page.waitForFunction(() => document.querySelector('[data-exercise=duplication] [data-testid=exercise-result]')?.dataset.ok === 'true');
  assert.match(await dup.locator('[data-testid=exercise-result]').innerText(), /\[0, 100\) \[80, 180\) \[160, 250\)\. 2 overlaps of 20 repeat 40 units, so 290 units are embedded/);
  // 2. The six unit tests.
  const unit = exercise(page, 'unit-tests');
  const typed = { empty: '', one: '[0, 4)', tail: '[0,4) [4,8) [8,10)', overlap: '0-4 2-6 4-8', invalid: 'error', determinism: '[0,4) [3,7) [6,10)' };
  for (const [id, v] of Object.entries(typed)) await unit.locator(`[data-field="${id}"]`).fill(v);
  await unit.locator('[data-testid=exercise-check]').click();
  await page.waitForFunction(() => document.querySelector('[data-exercise=unit-tests] [data-testid=exercise-result]')?.dataset.ok === 'true');
  const cases = await unit.locator('[data-testid=exercise-case-result]').evaluateAll((els) => els.map((e) => e.dataset.ok));
  assert.deepEqual(cases, ['true', 'true', 'true', 'true', 'true', 'true']);
  await unit.locator('[data-field=tail]').fill('[0,4) [4,8) [8,10) [10,10)');
  await page.waitForFunction(() => document.querySelector('[data-exercise=unit-tests] [data-testid=exercise-result]')?.dataset.ok === 'false');
  // 3. Separator priority: paragraphs first cuts the fence; headings, fences, paragraphs, sentences keeps it.
  const prio = exercise(page, 'priority');
  await prio.locator('[data-testid=exercise-check]').click();
  await page.waitForFunction(() => document.querySelector('[data-exercise=priority] [data-testid=exercise-result]')?.dataset.ok === 'false');
  // Fence first fails, and the reason is the cut the engine made: the fence's
  // separator also matches the closing fence line.
  for (const [pos, value] of [[0, '1'], [1, '0'], [2, '2'], [3, '3']]) {
    await prio.locator(`[data-testid=exercise-order][data-pos="${pos}"]`).selectOption(value);
  }
  await prio.locator('[data-testid=exercise-check]').click();
  await waitForText(page, prio.locator('[data-testid=exercise-result]'), /matches the closing fence line too/, 'why fence-first fails');
  assert.equal(await prio.locator('[data-testid=exercise-result]').getAttribute('data-ok'), 'false');
  for (const [pos, value] of [[0, '0'], [1, '1'], [2, '2'], [3, '3']]) {
    await prio.locator(`[data-testid=exercise-order][data-pos="${pos}"]`).selectOption(value);
  }
  await prio.locator('[data-testid=exercise-check]').click();
  await page.waitForFunction(() => document.querySelector('[data-exercise=priority] [data-testid=exercise-result]')?.dataset.ok === 'true');
  // 4. Rejoining with overlap.
  const rejoin = exercise(page, 'rejoin');
  await rejoin.locator('[data-testid=exercise-check]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=exercise-rejoin]') !== null);
  const r = byTestId(page, 'exercise-rejoin');
  assert.equal(await r.getAttribute('data-equal'), 'false');
  assert.equal(await r.getAttribute('data-dedup'), 'true');
  assert.match(await r.innerText(), /give 290 chars for a text of 250/);
});

e2e('an overlap as large as the size is refused with a suggestion of 10–15 %', async ({ page }) => {
  await waitForChunkSpans(page, SEED_CHUNKS);
  await byTestId(page, 'overlap-input').fill('40');
  await page.waitForFunction(() => document.querySelector('[data-testid=config-error]') !== null);
  assert.match(await byTestId(page, 'config-error').innerText(), /try overlap 5: 10–15 % of the size is typical/);
});

e2e(
  'cards, lessons and exercises: screenshots at 390 and 1400 px, light and dark, nothing too wide',
  async ({ page }) => {
    await waitForChunkSpans(page, SEED_CHUNKS);
    await show(page, 'crlf');
    await exercise(page, 'duplication').locator('[data-field=repeated]').fill('40');
    await exercise(page, 'duplication').locator('[data-field=embedded]').fill('290');
    await exercise(page, 'duplication').locator('[data-testid=exercise-check]').click();
    const problems = [];
    for (const colorScheme of ['light', 'dark']) {
      for (const width of [1400, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme });
        const cards = page.locator('section[aria-label="Interview follow-ups"]');
        await viewShot(cards, join(SCREENSHOTS, `teach-cards-${width}-${colorScheme}.png`));
        await viewShot(byTestId(page, 'exercises'), join(SCREENSHOTS, `teach-exercises-${width}-${colorScheme}.png`));
        if (width === 390) {
          // Nothing of the cards, the lessons or the exercises sticks out.
          const out = await page.evaluate(() =>
            [...document.querySelectorAll('section[aria-label="Interview follow-ups"] *, [data-testid=exercises] *, section.lessons *')]
              .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
              .slice(0, 5)
              .map((e) => `${e.tagName.toLowerCase()}.${e.className}[${e.dataset.testid ?? ''}]`),
          );
          if (out.length) problems.push(`${colorScheme}: too wide: ${out.join(', ')}`);
        }
      }
    }
    await byTestId(page, 'lesson-select').selectOption('refund-fixed');
    await page.waitForFunction(() => document.querySelector('[data-testid=lesson-claim]') !== null);
    for (const width of [1400, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await viewShot(page.locator('section.lessons'), join(SCREENSHOTS, `teach-claim-${width}.png`));
    }
    assert.deepEqual(problems, []);
  },
  { finalShot: false, timeout: 90000 },
);
