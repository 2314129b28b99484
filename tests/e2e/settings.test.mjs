// The settings beside size and overlap, each against output worked out by hand
// and by the independent lesson model (core/tests/reference/lesson_model.py):
// the trim checkbox, the placement, the bytes unit, and share links that carry
// them, regex separators and a token unit (whose tables load when the link opens).
import { deflateRawSync } from 'node:zlib';
import {
  e2e,
  assert,
  REFUND,
  byTestId,
  configure,
  openApp,
  readChunks,
  waitForChunkSpans,
  waitForNoConfigError,
  SETTLE_MS,
} from './harness.mjs';

/** Chunks as [start, end, data-cut]. */
const spansAndCuts = async (page) => (await readChunks(page)).map((c) => [Number(c.start), Number(c.end), c.cut]);

/** Waits for exactly these chunks ([start, end, cut]) and checks their cuts. */
async function expectChunks(page, want, what) {
  await waitForChunkSpans(page, want.map(([start, end]) => ({ start, end })));
  assert.deepEqual(await spansAndCuts(page), want, what);
}

/** Each drawn chunk's length in the chunk table's column for `unit`. */
function tableLengths(page, unit) {
  return page.evaluate((unit) => {
    const table = document.querySelector('[data-testid=chunk-table]');
    const column = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim()).indexOf(unit);
    return [...table.querySelectorAll('[data-testid=chunk-row]')].map((row) => Number(row.cells[column].textContent));
  }, unit);
}

/** The separator items' labels (data-label). */
const separatorLabels = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=separator-list] [data-testid=separator-item]')].map((el) =>
      el.getAttribute('data-label'),
    ),
  );

/** A share link as the page makes them: the snapshot, DEFLATE, URL-safe base64. */
function link(url, { view = 'recursive', size, overlap = 0, unit, placement, trim, separators, text }) {
  const seps = separators
    .map(([kind, pattern]) => `sep=${kind}:${pattern.replaceAll('\\', '\\\\').replaceAll('\n', '\\n')}\n`)
    .join('');
  const plain =
    `chunkscope 1\nview=${view}\nsize=${size}\noverlap=${overlap}\nunit=${unit}\n` +
    `placement=${placement}\ntrim=${trim ? 1 : 0}\n${seps}text\n${text}`;
  return `${url}#s=${deflateRawSync(Buffer.from(plain)).toString('base64url')}`;
}

// ␣0 ␣1 Ç2 a3 ␣4 v5 a6 .7 ⏎8 ⏎9 T10 r11 è12 s13 ␣14 b15 i16 e17 n18 .19 ␣20 ␣21
const UNTRIMMED = '  Ça va.\n\nTrès bien.  ';

e2e('the trim checkbox keeps the whitespace at the ends of pieces, and placement moves the separator', async ({ page }) => {
  await configure(page, { text: UNTRIMMED, separators: 'default', strategy: 'recursive', size: 10, overlap: 0 });
  const trim = byTestId(page, 'trim-checkbox');
  assert.equal(await trim.isChecked(), true, 'trimming is on by default');
  // Trimmed: "Ça va." and "Très bien."; the blank line and the outer spaces in no chunk.
  await expectChunks(page, [[2, 8, '\\n\\n'], [10, 20, 'end']], 'trimmed');

  // Untrimmed: "  Ça va.\n\n" (10) fits; "Très bien.  " (12) has no "\n" and
  // is cut at " " into "Très " (5) and "bien.  " (6 + 1 + 0).
  await trim.uncheck();
  await expectChunks(page, [[0, 10, '\\n\\n'], [10, 15, ' '], [15, 22, 'end']], 'untrimmed');
  assert.equal(await byTestId(page, 'badge-coverage').getAttribute('data-ok'), 'true');

  // Untrimmed, separator at the start of the next piece: "\n\nTrès bien.  "
  // is cut at "\n" into "", "\n" and "\nTrès bien.  ", which goes on at " ".
  await byTestId(page, 'placement-select').selectOption('start');
  await expectChunks(page, [[0, 8, '\\n\\n'], [8, 9, '\\n'], [9, 14, ' '], [14, 22, 'end']], 'untrimmed, start');

  // Nowhere: the blank line between the two is in neither chunk, and the
  // empty pieces after "Très bien." are no chunk.
  await byTestId(page, 'placement-select').selectOption('none');
  await expectChunks(page, [[0, 8, '\\n\\n'], [10, 20, 'end']], 'untrimmed, none');

  // Trimming back on: the same chunks as at first.
  await byTestId(page, 'placement-select').selectOption('end');
  await trim.check();
  await expectChunks(page, [[2, 8, '\\n\\n'], [10, 20, 'end']], 'trimmed again');
});

e2e('placement none drops the separator at the cut and the coverage badge says so', async ({ page }) => {
  await configure(page, { text: 'One. Two. Three.', separators: 'seed', strategy: 'recursive', size: 8, overlap: 0 });
  await expectChunks(page, [[0, 4, '. '], [5, 9, '. '], [10, 16, 'end']], 'end');
  await byTestId(page, 'placement-select').selectOption('start');
  await expectChunks(page, [[0, 8, '. '], [8, 16, 'end']], 'start');
  // "One" "Two" "Three.": 3 + 2 + 3 packs; the ". " at 8 is in neither chunk.
  await byTestId(page, 'placement-select').selectOption('none');
  await expectChunks(page, [[0, 8, '. '], [10, 16, 'end']], 'none');
  await page.waitForFunction(() => document.querySelector('[data-testid=badge-coverage]').dataset.ok === 'false');
});

e2e('the bytes unit counts UTF-8 bytes in recursive and fixed splits', async ({ page }) => {
  // "éé éé éé": 8 chars, 14 bytes. At 6 chars "éé éé" (5) packs; at 6 bytes
  // "éé " (5 bytes) and the next one do not.
  await configure(page, { text: 'éé éé éé', separators: 'default', strategy: 'recursive', size: 6, overlap: 0 });
  await expectChunks(page, [[0, 5, ' '], [6, 8, 'end']], 'in chars');
  assert.deepEqual(await tableLengths(page, 'chars'), [5, 2]);
  await configure(page, { unit: 'bytes' });
  await expectChunks(page, [[0, 2, ' '], [3, 5, ' '], [6, 8, 'end']], 'in bytes');
  assert.deepEqual(await tableLengths(page, 'bytes'), [4, 4, 4]);

  // a0 ñ1-2 b3 😀4-7 c8 d9: windows of 5 bytes every 3. "añb" stops before the
  // emoji; "b😀" starts 3 bytes on; 3 bytes on from it is inside the emoji,
  // so the last window starts after it. Offsets are in chars.
  await configure(page, { text: 'añb😀cd', strategy: 'fixed', size: 5, overlap: 2 });
  await expectChunks(page, [[0, 3, 'window'], [2, 4, 'window'], [4, 6, 'end']], 'fixed windows in bytes');
  assert.deepEqual(await tableLengths(page, 'bytes'), [4, 5, 2]);
  assert.equal(await byTestId(page, 'unit-select').inputValue(), 'bytes');
});

// D0 é1 j2 à3 ␣4 v5 u6 .7 ␣8 Ç9 a10 ␣11 v12 a13 .14 ␣15 ␣16 T17 r18 è19 s20 ␣21
// b22 i23 e24 n25 .26 ␣27 O28 l29 é30 .31 ␣32: 33 chars, 38 bytes.
const SHARED = 'Déjà vu. Ça va.  Très bien. Olé. ';
/** At 14 bytes, the separator at the start of each piece, untrimmed: no other
 * combination of unit, placement and trimming gives these (lesson model). */
const SHARED_CHUNKS = [
  [0, 7, '/[.?] /'], // "Déjà vu" (9 bytes)
  [7, 14, '/[.?] /'], // ". Ça va" (8)
  [14, 26, '/[.?] /'], // ".  Très bien" (13)
  [26, 33, 'end'], // ". Olé. " (8)
];

e2e('a share link carries the unit, trimming, placement and regex separators, both ways', async ({ page, url }) => {
  const shared = link(url, {
    size: 14,
    unit: 'bytes',
    placement: 'start',
    trim: false,
    separators: [['r', '[.?] '], ['l', '']],
    text: SHARED,
  });
  await page.goto('about:blank');
  await openApp(page, shared);
  await expectChunks(page, SHARED_CHUNKS, 'the link opened');
  const settings = async () => ({
    unit: await byTestId(page, 'unit-select').inputValue(),
    placement: await byTestId(page, 'placement-select').inputValue(),
    trim: await byTestId(page, 'trim-checkbox').isChecked(),
    size: await byTestId(page, 'size-input').inputValue(),
    separators: await separatorLabels(page),
  });
  const want = { unit: 'bytes', placement: 'start', trim: false, size: '14', separators: ['/[.?] /', '""'] };
  assert.deepEqual(await settings(), want, 'the settings the link holds');
  assert.deepEqual(await tableLengths(page, 'bytes'), [9, 8, 13, 8]);

  // The page's own link for the same state opens the same way in a fresh page.
  await byTestId(page, 'share-link').click();
  await page.waitForFunction((before) => location.hash.startsWith('#s=') && location.href !== before, shared);
  const again = page.url();
  await page.goto('about:blank');
  await openApp(page, again);
  await expectChunks(page, SHARED_CHUNKS, "the page's own link");
  assert.deepEqual(await settings(), want, "the settings of the page's own link");
  assert.equal(await byTestId(page, 'share-error').count(), 0);
});

/** The refund page at size 8 in cl100k tokens with the lesson's separators. */
const REFUND_CL100K_AT_8 = [
  [0, 13, '\\n\\n'],
  [15, 35, '. '],
  [36, 63, ' '],
  [64, 67, '\\n'],
  [68, 96, '\\n\\n'],
  [98, 114, 'end'],
];

e2e(
  'a share link in a token unit fetches its tables when it opens, and splits in tokens',
  async ({ page, url }) => {
    const fetched = [];
    page.on('request', (req) => {
      if (/\/tokens\//.test(req.url())) fetched.push(new URL(req.url()).pathname);
    });
    await openApp(
      page,
      link(url, {
        size: 8,
        unit: 'cl100k',
        placement: 'end',
        trim: true,
        separators: [['l', '\n\n'], ['l', '\n'], ['l', '. '], ['l', ' '], ['l', '']],
        text: REFUND,
      }),
    );
    await page.waitForFunction(
      () => document.querySelector('[data-testid=tokenizer-status]')?.dataset.state === 'loaded',
      null,
      { timeout: SETTLE_MS * 2 },
    );
    assert.deepEqual(fetched, ['/tokens/cl100k.tokens'], 'only the link’s encoding is fetched');
    await waitForNoConfigError(page, 'once the tables are in');
    await expectChunks(page, REFUND_CL100K_AT_8, 'the refund page at 8 cl100k tokens');
    // Each chunk's cl100k tokens, as tiktoken counts them.
    assert.deepEqual(await tableLengths(page, 'cl100k'), [3, 7, 7, 2, 6, 7]);
    assert.equal(await byTestId(page, 'unit-select').inputValue(), 'cl100k');
  },
  { load: false },
);
