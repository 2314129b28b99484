// Other libraries' splitters, exactly: semchunk on the refund page.
//
// The expected spans are semchunk 4.1.1's own answer, recorded from the
// library: `semchunk.chunkerify(len, 40)(text, offsets=True)` and the same
// with `overlap=10`, on the refund preset (seed 000's page).
import {
  e2e,
  assert,
  REFUND,
  byTestId,
  configure,
  docText,
  waitForChunkSpans,
  parseChunks,
  charSlice,
  waitForText,
  waitForConfigError,
  waitForChunks,
  waitForValue,
  openApp,
} from './harness.mjs';

const SEMCHUNK_40 = [
  [0, 13],
  [15, 35],
  [36, 67],
  [68, 96],
  [98, 114],
];
const SEMCHUNK_40_OVERLAP_10 = [
  [0, 29],
  [23, 50],
  [47, 78],
  [68, 108],
  [98, 114],
];
const spans = (list) => list.map(([start, end]) => ({ start, end }));

e2e("semchunk on the refund page: the library's chunks, each cut by the splitter it chose there", async ({ page }) => {
  await configure(page, { preset: 'refund', strategy: 'semchunk', size: 40, overlap: 0 });
  assert.equal(await docText(page), REFUND);
  const chunks = parseChunks(await waitForChunkSpans(page, spans(SEMCHUNK_40)));
  // semchunk splits the page at its blank lines, a blank-line piece that is
  // too long at its newline, and "Refunds take 5 days. They go…" (no newline,
  // no run of spaces) at the space after the period: `(?<=\.) `.
  assert.deepEqual(
    chunks.map((c) => c.cut),
    ['\\n\\n', '/(?<=\\.) /', '\\n', '\\n\\n', 'end'],
    'the cut after each chunk',
  );
  for (const c of chunks) assert.ok(!/^\s|\s$/.test(charSlice(REFUND, c.start, c.end)), `chunk ${c.index} is not stripped by semchunk, and needs no stripping here`);

  // With an overlap semchunk chunks at min(10, 30) = 10 and joins three of
  // those chunks every two: what lies between them is joined too.
  await configure(page, { overlap: 10 });
  await waitForChunkSpans(page, spans(SEMCHUNK_40_OVERLAP_10));

  // The Python shown is semchunk's own call, which gives exactly these chunks.
  const view = byTestId(page, 'code-view');
  await view.locator('summary', { hasText: 'Python' }).click();
  const python = await waitForText(page, byTestId(page, 'code-python'), /chunkerify\(/, 'Python code');
  assert.match(python, /import semchunk/);
  assert.match(python, /semchunk\.chunkerify\(len, 40\)/);
  assert.match(python, /chunker\(text, offsets=True, overlap=10\)/);
});

e2e('semchunk counts a character it cannot split as semchunk would never return, and says so', async ({ page }) => {
  await configure(page, { preset: 'refund', strategy: 'semchunk', size: 40, overlap: 0 });
  await waitForChunkSpans(page, spans(SEMCHUNK_40));
  await configure(page, { text: 'naïve café', unit: 'bytes', size: 1 });
  const error = await waitForConfigError(page, 'a character of 2 bytes at size 1');
  assert.match(error, /'ï' at position 2 is 2 bytes/);
  assert.match(error, /RecursionError/);
  // The last good result stays on screen.
  await waitForChunks(page, (c) => c.length > 0, 'the last good chunks');
});

// Chonkie's RecursiveChunker (chonkie 1.7.0) on the refund page at 40:
// `RecursiveChunker(chunk_size=40).chunk(text)`, recorded from the library.
// Four chunks that tile the page: the blank line after "Refund policy" is a
// split under 24 bytes, so it is joined to the next; "COD orders … Contact
// us 24x7." is 46 chars, its words are all under 24 bytes and are joined
// back into one split, so the last level cuts 40 chars and leaves " 24x7.".
const CHONKIE_40 = [
  [0, 36],
  [36, 68],
  [68, 108],
  [108, 114],
];

e2e("Chonkie's RecursiveChunker on the refund page: its four chunks, cut where its levels cut", async ({ page }) => {
  await configure(page, { preset: 'refund', strategy: 'chonkie-recursive', size: 40 });
  const chunks = parseChunks(await waitForChunkSpans(page, spans(CHONKIE_40)));
  assert.equal(charSlice(REFUND, 68, 108), 'COD orders get store credit.\n\nContact us');
  assert.deepEqual(chunks.map((c) => c.cut).slice(0, 2), ['. ', '\\n']);
  assert.equal(chunks[3].cut, 'end');
  // The tree is chonkie's recursion: the page split at every line break
  // (level 1), the title's group at its sentence end (level 2), and the
  // last paragraph, whose words are joined back under the minimum, down to
  // runs of 40 characters.
  await page.locator('[data-testid=tree-node]').first().waitFor();
  const steps = await page.locator('[data-testid=tree-node]').allInnerTexts();
  assert.match(steps[0], /split at Chonkie's level 1, paragraphs, into \d+ parts?, packed into \d+ pieces?/);
  assert.ok(steps.some((s) => /Chonkie's level 2, sentence ends/.test(s)), `a sentence-end level: ${JSON.stringify(steps)}`);
  assert.ok(steps.some((s) => /hard cut into 2 windows/.test(s)), `runs of tokens: ${JSON.stringify(steps)}`);
  assert.equal(await byTestId(page, 'tree-empty').count(), 0);
  // The overlap control is left out: RecursiveChunker has none.
  await waitForText(page, byTestId(page, 'overlap-unused'), /RecursiveChunker has no overlap/, 'the overlap note');
  const view = byTestId(page, 'code-view');
  await view.locator('summary', { hasText: 'Python' }).click();
  const python = await waitForText(page, byTestId(page, 'code-python'), /RecursiveChunker\(/, 'Python code');
  assert.match(python, /RecursiveChunker\(tokenizer="character", chunk_size=40\)/);
});

// The same call with `min_characters_per_chunk=1` (nothing joined: the
// title and the blank line after it are a chunk, each sentence is a split)
// and `=100` (each level is one split, so the page reaches the last level and
// is cut every 40 chars), recorded from chonkie 1.7.0.
const CHONKIE_40_MIN_1 = [
  [0, 15],
  [15, 36],
  [36, 68],
  [68, 98],
  [98, 114],
];
const CHONKIE_40_MIN_100 = [
  [0, 40],
  [40, 80],
  [80, 114],
];

e2e("Chonkie's minimum: its input changes the chunks, a bad value is reported, and it is kept across strategies", async ({ page }) => {
  await configure(page, { preset: 'refund', strategy: 'chonkie-recursive', size: 40 });
  await waitForChunkSpans(page, spans(CHONKIE_40));
  const input = byTestId(page, 'min-characters-input');
  assert.equal(await input.inputValue(), '24', "chonkie's default");
  await input.fill('1');
  await waitForChunkSpans(page, spans(CHONKIE_40_MIN_1));
  const view = byTestId(page, 'code-view');
  await view.locator('summary', { hasText: 'Python' }).click();
  await waitForText(page, byTestId(page, 'code-python'), /chunk_size=40, min_characters_per_chunk=1\)/, 'the Python call');
  // 0 is chonkie's own ValueError; the last good chunks stay, the input is marked.
  await input.fill('0');
  const error = byTestId(page, 'config-error');
  await waitForText(page, error, /ValueError: min_characters_per_chunk must be greater than 0/, "chonkie's refusal");
  assert.equal(await input.getAttribute('aria-invalid'), 'true');
  await waitForChunkSpans(page, spans(CHONKIE_40_MIN_1));
  // A half-typed value is reported, not read as a default.
  await input.fill('');
  await waitForText(page, error, /min_characters_per_chunk is empty/, 'the empty field');
  await input.fill('100');
  await waitForChunkSpans(page, spans(CHONKIE_40_MIN_100));
  assert.equal(await input.getAttribute('aria-invalid'), null);
  // Another strategy has no such input and does not read it; back on
  // chonkie-recursive, the value is where the learner left it.
  await byTestId(page, 'strategy-select').selectOption('recursive');
  await waitForValue(page, () => input.count(), 0, 'no minimum for recursive');
  await byTestId(page, 'strategy-select').selectOption('chonkie-recursive');
  await waitForChunkSpans(page, spans(CHONKIE_40_MIN_100));
  assert.equal(await input.inputValue(), '100');
});

// Chonkie's TokenChunker(tiktoken cl100k_base, chunk_size=3) on a line of
// Japanese, recorded from chonkie 1.7.0: "語" is two tokens, and a window ends
// between them, so chonkie decodes each window's bytes alone to U+FFFD, and
// its start_index, a sum of those decoded lengths, drifts from there on:
// [("Refunds:", 0, 8), (" 日本\ufffd", 8, 12), ("\ufffdの文", 12, 15), ("です。", 15, 18)].
const JAPANESE = 'Refunds: 日本語の文です。';

e2e("Chonkie's U+FFFD: a window that ends inside a character is chonkie's own text beside the span it stands for, and its drifting start_index is flagged", async ({ page }) => {
  await configure(page, { text: JAPANESE, strategy: 'chonkie-token', unit: 'cl100k', size: 3, overlap: 0 });
  // Our spans: each holds the characters whose first byte is in its window.
  const chunks = parseChunks(
    await waitForChunkSpans(page, spans([[0, 8], [8, 12], [12, 14], [14, 17]]), { timeout: 20000 }),
  );
  assert.equal(chunks[1].text, ' 日本語');
  const slices = await page.locator('[data-testid=document-view] [data-testid=chunk]').evaluateAll((els) => els.map((el) => el.dataset.slice));
  assert.deepEqual(slices, ['true', 'false', 'false', 'true'], 'the two windows decoded apart are marked');
  // chonkie's start_index for the last chunk is 15 (it counted "\ufffdの文" as
  // three characters); the chunk starts at 14.
  const flags = byTestId(page, 'start-index-mismatch');
  await waitForValue(page, () => flags.count(), 1, 'one start_index flag');
  assert.equal(await flags.getAttribute('data-start-index'), '15');
  assert.equal(await flags.getAttribute('data-start'), '14');

  await page.locator('[data-testid=document-view] [data-testid=chunk][data-index="1"]').focus();
  const details = byTestId(page, 'chunk-details');
  const text = await waitForText(page, details, /Chunk 1\b/, 'details of chunk 1');
  assert.equal(await details.locator('[data-testid=langchain-text]').textContent(), ' 日本\ufffd');
  assert.match(text, /Chonkie's text/);
  assert.match(text, /U\+FFFD/);
  await waitForText(page, page.locator('[data-testid=chunk-row][data-index="2"]'), /≠ Chonkie: \ufffdの文/, 'the table row');
});

// Chonkie's SentenceChunker(chunk_size=40, chunk_overlap=25) and LlamaIndex's
// TokenTextSplitter(chunk_size=40, chunk_overlap=10, tokenizer=list).split_text
// on the refund page, recorded from chonkie 1.7.0 and llama-index-core
// 0.14.25. Chonkie walks back over whole sentences for its overlap, so its
// second chunk, "Refunds take 5 days. ", lies inside the first.
const CHONKIE_SENTENCE_40_25 = [
  [0, 36],
  [15, 36],
  [36, 68],
  [68, 98],
  [98, 114],
];
const LLAMAINDEX_TOKEN_40_10 = [
  [0, 40],
  [36, 71],
  [64, 88],
  [79, 114],
];

e2e("Chonkie's SentenceChunker and LlamaIndex's TokenTextSplitter on the refund page: their chunks, their overlaps and their own calls", async ({ page }) => {
  await configure(page, { preset: 'refund', strategy: 'chonkie-sentence', size: 40, overlap: 25 });
  const sentences = parseChunks(await waitForChunkSpans(page, spans(CHONKIE_SENTENCE_40_25)));
  assert.equal(sentences[1].text, 'Refunds take 5 days. ');
  assert.equal(sentences[2].cut, '\\n');
  assert.equal(sentences[4].cut, 'end');
  const view = byTestId(page, 'code-view');
  await view.locator('summary', { hasText: 'Python' }).click();
  await waitForText(page, byTestId(page, 'code-python'), /SentenceChunker\(tokenizer="character", chunk_size=40, chunk_overlap=25\)/, 'the SentenceChunker call');

  await configure(page, { strategy: 'llamaindex-token', unit: 'chars', overlap: 10 });
  const tokens = parseChunks(await waitForChunkSpans(page, spans(LLAMAINDEX_TOKEN_40_10)));
  assert.equal(tokens[0].text, 'Refund policy\n\nRefunds take 5 days. They');
  // The code view is drawn anew for another library: open its Python again.
  const python = view.locator('details', { has: page.locator('summary', { hasText: 'Python' }) });
  if (!(await python.evaluate((d) => d.open))) await python.locator('summary').click();
  await waitForText(page, byTestId(page, 'code-python'), /TokenTextSplitter\(/, 'the TokenTextSplitter call');
});

// LlamaIndex's MarkdownNodeParser on a small Markdown text whose second
// header has a tab after its #s: `MarkdownNodeParser().get_nodes_from_documents(
// [Document(text=MD)])`, recorded from llama-index-core 0.14.25, gives the
// nodes "# Refunds\nWithin 5 days.", "## UPI\nInstant." (the header line
// rebuilt with a space, so start_char_idx None: str.find does not find it)
// and "## Cards\nsee # Refunds" at 41, with header_path "/", "/Refunds/",
// "/Refunds/". The spans are where the sections lie.
const LLAMAINDEX_MD = '# Refunds\nWithin 5 days.\n##\tUPI\nInstant.\n## Cards\nsee # Refunds';
const LLAMAINDEX_MARKDOWN = [
  [0, 24],
  [25, 40],
  [41, 63],
];

e2e("LlamaIndex's MarkdownNodeParser: a chunk per section, the header it rebuilt shown beside its span, its start_char_idx None flagged, header_path as metadata", async ({ page }) => {
  await configure(page, { text: LLAMAINDEX_MD, strategy: 'llamaindex-markdown', size: 400 });
  const chunks = parseChunks(await waitForChunkSpans(page, spans(LLAMAINDEX_MARKDOWN)));
  assert.deepEqual(chunks.map((c) => c.cut), ['##', '##', 'end'], 'each cut names the #s of the header after it');
  const flags = await page.locator('[data-testid=start-index-mismatch]').evaluateAll((els) =>
    els.map((el) => [el.getAttribute('data-index'), el.getAttribute('data-start'), el.getAttribute('data-start-index')]),
  );
  assert.deepEqual(flags, [['1', '25', '-1']], "only the rebuilt header's node has no start_char_idx");
  assert.deepEqual(
    await page.locator('[data-testid=chunk-row-metadata]').allTextContents(),
    ['header_path: /', 'header_path: /Refunds/', 'header_path: /Refunds/'],
    "the table lists each node's header_path",
  );
  await page.locator('[data-testid=document-view] [data-testid=chunk][data-index="1"]').hover();
  await waitForText(page, byTestId(page, 'langchain-text'), /^## UPI\nInstant\.$/, "LlamaIndex's own text for the rebuilt header");
  await waitForText(page, byTestId(page, 'chunk-details'), /rebuilds a header line as its #s, one space/, 'why it is not a slice');
  await waitForText(page, byTestId(page, 'chunk-details'), /left start_char_idx and end_char_idx None/, 'why it has no start');
  const view = byTestId(page, 'code-view');
  await view.locator('summary', { hasText: 'Python' }).click();
  await waitForText(page, byTestId(page, 'code-python'), /MarkdownNodeParser\(\)/, 'the MarkdownNodeParser call');
});

// The libraries view: the same page, size and unit, each library with its
// own defaults. LangChain's `RecursiveCharacterTextSplitter(chunk_size=40,
// add_start_index=True)` on the refund page, recorded from
// langchain-text-splitters 1.1.3: its default separators have no ". ", so
// the second paragraph is cut at a space (`…They go to the` /
// `original UPI id.`), not between its sentences.
const LANGCHAIN_DEFAULTS_40 = [
  [0, 13],
  [15, 50],
  [51, 67],
  [68, 96],
  [98, 114],
];
// `SentenceSplitter(chunk_size=40, chunk_overlap=0, tokenizer=list)` on the
// refund page, recorded from llama-index-core 0.14.25: Punkt's sentences,
// packed; "Refund policy" has no full stop, so it is one sentence with the
// next.
const LLAMAINDEX_40 = [
  [0, 35],
  [36, 67],
  [68, 96],
  [98, 114],
];
// The text-splitter crate's TextSplitter on the refund page at 40:
// `TextSplitter(40).chunk_indices(text)`, recorded from
// semantic-text-splitter 0.33.1 (MarkdownSplitter gives the same spans).
const TEXT_SPLITTER_40 = [
  [0, 13],
  [15, 35],
  [36, 67],
  [68, 96],
  [98, 114],
];
const LIBRARY_PANE = (name) => `[data-testid="library-pane"][data-strategy="${name}"]`;

e2e('the libraries view: LangChain, text-splitter, semchunk and Chonkie side by side with their own defaults, where they agree, and the interview cards', async ({ page }) => {
  // The page's list has ". " (the lesson's): the libraries view must not
  // hand it to LangChain.
  await configure(page, { preset: 'refund', separators: 'default', strategy: 'libraries', size: 40, overlap: 0 });
  const panes = await page.locator('[data-testid="library-pane"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-strategy')));
  assert.deepEqual(panes, ['langchain', 'text-splitter', 'semchunk', 'chonkie-recursive']);
  const langchain = parseChunks(await waitForChunkSpans(page, spans(LANGCHAIN_DEFAULTS_40), { scope: LIBRARY_PANE('langchain') }));
  assert.deepEqual(langchain.map((c) => c.cut), ['\\n\\n', ' ', '\\n', '\\n\\n', 'end']);
  await waitForChunkSpans(page, spans(TEXT_SPLITTER_40), { scope: LIBRARY_PANE('text-splitter') });
  await waitForChunkSpans(page, spans(SEMCHUNK_40), { scope: LIBRARY_PANE('semchunk') });
  await waitForChunkSpans(page, spans(CHONKIE_40), { scope: LIBRARY_PANE('chonkie-recursive') });
  // Each pane names the library it reproduces.
  assert.match(await page.locator(LIBRARY_PANE('chonkie-recursive')).innerText(), /chonkie 1\.7\.0, its defaults/);
  assert.match(await page.locator(LIBRARY_PANE('text-splitter')).innerText(), /semantic-text-splitter 0\.33\.1, its defaults/);

  // Controls the libraries do not share are greyed, and the editor says why.
  assert.equal(await byTestId(page, 'placement-select').isDisabled(), true);
  assert.equal(await byTestId(page, 'trim-checkbox').isDisabled(), true);
  await waitForText(page, page.locator('[aria-label="Separators"]'), /its own defaults here/, 'the separator editor\'s note');

  // Where they agree: text-splitter and semchunk give the same chunks (the
  // lesson's five); no chunk is the same in all four (Chonkie joins
  // "Refund policy" to the next line).
  const stat = (name) =>
    page.locator(`[data-testid="compare-stat"][data-stat="${name}"] td`).evaluateAll((tds) => tds.map((td) => td.getAttribute('data-value')));
  await waitForValue(page, () => stat('same-chunks'), ['none', 'semchunk', 'text-splitter', 'none'], 'the same-chunks row');
  assert.deepEqual(await stat('chunks'), ['5', '5', '5', '4']);
  assert.deepEqual(await stat('lost'), ['0', '0', '0', '0']);
  assert.deepEqual(await stat('not-slices'), ['0', '0', '0', '0']);
  assert.deepEqual(await stat('max'), ['35', '31', '31', '40']);
  assert.equal(await byTestId(page, 'compare-common').getAttribute('data-common'), '0');

  // The interview cards: one per library, each ending with what its rule
  // did to this text.
  const cards = page.locator('[data-testid="library-card"]');
  assert.deepEqual(await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-strategy'))), panes);
  const here = (name) => page.locator(`[data-testid="library-card"][data-strategy="${name}"] [data-testid="library-card-here"]`).innerText();
  assert.equal(await here('langchain'), 'Here: 5 chunks of 13 to 35 chars; cuts: 2 at \\n\\n, 1 at \\n, 1 at ␣.');
  assert.equal(await here('chonkie-recursive'), 'Here: 4 chunks of 6 to 40 chars; cuts: 1 at \\n, 1 at .␣, 1 hard.');

  // A box per library, no more than four ticked: LlamaIndex waits for a
  // place, and the last one left cannot be unticked.
  const toggle = (name) => page.locator(`[data-testid="library-toggle"][data-strategy="${name}"]`);
  const shown = () => page.locator('[data-testid="library-pane"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-strategy')));
  assert.equal(await toggle('llamaindex-sentence').isDisabled(), true);
  await toggle('semchunk').uncheck();
  await waitForValue(page, shown, ['langchain', 'text-splitter', 'chonkie-recursive'], 'the panes without semchunk');
  await toggle('llamaindex-sentence').check();
  await waitForValue(page, shown, ['langchain', 'text-splitter', 'chonkie-recursive', 'llamaindex-sentence'], 'LlamaIndex in');
  await waitForChunkSpans(page, spans(LLAMAINDEX_40), { scope: LIBRARY_PANE('llamaindex-sentence') });
  assert.deepEqual(await stat('max'), ['35', '31', '40', '35']);
  await toggle('langchain').uncheck();
  await toggle('text-splitter').uncheck();
  await toggle('llamaindex-sentence').uncheck();
  await waitForValue(page, shown, ['chonkie-recursive'], 'Chonkie alone');
  assert.equal(await toggle('chonkie-recursive').isDisabled(), true);
  await toggle('semchunk').check();
  await waitForValue(page, shown, ['semchunk', 'chonkie-recursive'], 'semchunk back');

  // With an overlap, the libraries that have one repeat text; Chonkie has none.
  await configure(page, { overlap: 10 });
  await waitForChunkSpans(page, spans(SEMCHUNK_40_OVERLAP_10), { scope: LIBRARY_PANE('semchunk') });
  await waitForValue(page, async () => (await stat('repeated'))[1], '0', 'Chonkie repeats nothing');
  assert.notEqual((await stat('repeated'))[0], '0');

  // The choice is in the link the share button makes.
  await byTestId(page, 'share-link').click();
  await page.waitForFunction(() => location.hash.startsWith('#s='));
  const link = page.url();
  await page.goto('about:blank');
  await openApp(page, link);
  await waitForValue(page, shown, ['semchunk', 'chonkie-recursive'], 'the panes the link names');
  await waitForChunkSpans(page, spans(SEMCHUNK_40_OVERLAP_10), { scope: LIBRARY_PANE('semchunk') });

  // Leaving the view gives LangChain the page's settings back.
  await configure(page, { strategy: 'langchain', overlap: 0 });
  await waitForChunks(page, (c) => c.length > 0, 'LangChain alone');
});

// LlamaIndex's SentenceSplitter (llama-index-core 0.14.25) on the refund page
// at 20 chars with an overlap of 8: `SentenceSplitter(chunk_size=20,
// chunk_overlap=8, tokenizer=list).split_text(text)`, recorded from the
// library (char offsets where its own splits lie). No sentence fits in 20,
// so each is split at its spaces; a chunk starts with the last words of the
// one before that fit in 8, and every chunk is stripped.
const LLAMAINDEX_20_8 = [
  [0, 6],
  [7, 22],
  [23, 40],
  [36, 50],
  [44, 63],
  [60, 78],
  [72, 88],
  [83, 96],
  [98, 114],
];

e2e("LlamaIndex's SentenceSplitter on the refund page: its chunks, their overlap and its own call", async ({ page }) => {
  await configure(page, { preset: 'refund', strategy: 'llamaindex-sentence', size: 20, overlap: 8, unit: 'chars' });
  const chunks = parseChunks(await waitForChunkSpans(page, spans(LLAMAINDEX_20_8)));
  assert.equal(charSlice(REFUND, 36, 50), 'They go to the');
  assert.equal(chunks[0].cut, ' ');
  assert.equal(chunks[8].cut, 'end');
  await waitForText(page, byTestId(page, 'tree-empty'), /not drawn as a tree/, "the tree's note");
  const view = byTestId(page, 'code-view');
  await view.locator('summary', { hasText: 'Python' }).click();
  const python = await waitForText(page, byTestId(page, 'code-python'), /SentenceSplitter\(/, 'Python code');
  assert.match(python, /chunk_size=20,\n {4}chunk_overlap=8,\n {4}tokenizer=list/);
});


e2e("text-splitter on the refund page: the crate's chunks, each cut named by the level it lies on, from a worker started only then", async ({ page }) => {
  // The crate's segmenters make its worker seven times the first one's
  // wasm: the lesson loads without it, and choosing the strategy starts it.
  const fetched = [];
  page.context().on('request', (request) => fetched.push(new URL(request.url()).pathname));
  const ownWasm = () => fetched.filter((path) => path.endsWith('/chunkscope-text-splitter-worker_bg.wasm')).length;
  await page.reload({ waitUntil: 'load' });
  await waitForChunks(page, (c) => c.length > 0, 'the lesson\'s chunks');
  assert.ok(fetched.some((path) => path.endsWith('/chunkscope-worker_bg.wasm')), `the first worker's wasm was fetched: ${fetched}`);
  assert.equal(ownWasm(), 0, "the text-splitter worker's wasm is not fetched for the lesson");
  await configure(page, { preset: 'refund', strategy: 'text-splitter', size: 40, overlap: 0 });
  const chunks = parseChunks(await waitForChunkSpans(page, spans(TEXT_SPLITTER_40)));
  assert.deepEqual(chunks.map((c) => c.cut), ['\\n\\n', '\\p{sentence}', '\\n', '\\n\\n', 'end']);
  assert.equal(ownWasm(), 1, "the text-splitter worker's wasm is fetched once it is asked for");
  await waitForText(page, byTestId(page, 'tree-empty'), /not drawn as a tree/, 'the tree\'s note');
  const view = byTestId(page, 'code-view');
  await view.locator('summary', { hasText: 'Python' }).click();
  const python = await waitForText(page, byTestId(page, 'code-python'), /TextSplitter\(/, 'Python code');
  assert.match(python, /from semantic_text_splitter import TextSplitter/);
  assert.match(python, /splitter = TextSplitter\(40\)/);
  await configure(page, { strategy: 'text-splitter-markdown' });
  await waitForChunkSpans(page, spans(TEXT_SPLITTER_40));
  await configure(page, { overlap: 40 });
  const error = await waitForConfigError(page, 'an overlap of the size');
  assert.match(error, /The overlap is larger than or equal to the desired chunk capacity/);
});

// `TextSplitter.from_tiktoken_model("gpt-3.5-turbo", 10).chunk_indices(text)`
// on the refund page, recorded from semantic-text-splitter 0.33.1.
const TEXT_SPLITTER_CL100K_10 = [
  [0, 13],
  [15, 35],
  [36, 67],
  [68, 96],
  [98, 114],
];

e2e('text-splitter in tokens: its worker, started after the cl100k tables were fetched, is handed them too', async ({ page }) => {
  // The tables go to the first worker when the unit is chosen; the
  // text-splitter worker starts later and must count with the same tables.
  await configure(page, { preset: 'refund', strategy: 'recursive', unit: 'cl100k', size: 10, overlap: 0 });
  await waitForChunks(page, (c) => c.length > 0, 'the recursive chunks in cl100k');
  await configure(page, { strategy: 'text-splitter' });
  await waitForChunkSpans(page, spans(TEXT_SPLITTER_CL100K_10));
});
