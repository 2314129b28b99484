// End-to-end tests: the built site (dist/) driven in headless Chromium.
//
// How to run
//   ./x build                                   build the site into dist/
//   node --test --test-concurrency=1 tests/e2e/  every end-to-end test (what `./x test` runs)
//   node --test tests/e2e/refund.test.mjs        one file
//   node --test --test-name-pattern='overlap' tests/e2e/errors.test.mjs   one test by name
//
// The tests need playwright-core (npm ci at the repository root) and Debian's
// Chromium at /usr/bin/chromium; set CHUNKSCOPE_CHROMIUM to use another binary and
// CHUNKSCOPE_DIST to test another build directory. Nothing here downloads anything.
//
// Each test file gets its own static server (serve.mjs, 127.0.0.1, ephemeral port)
// and browser; each test gets a fresh browser context and page. A test fails on any
// uncaught page error, on the app's crash message (the panic banner of index.html),
// on any failed request to the site, any request beyond its origin, any violation
// of its Content-Security-Policy and any error logged to the console, all caught
// at the level of the browser context (popups and workers included). A test that
// means to trip a detector names what it expects in `options.expect`, and then
// fails unless the detector caught it. At the end of a failed test, and of
// every test when CHUNKSCOPE_SHOTS=all, a full-page screenshot goes to
// tests/e2e/screenshots/ (git-ignored), named after the file and the test; the
// screenshot tests take theirs (the views at each width and scheme, to look
// at) unless CHUNKSCOPE_SHOTS=off, as `./x test` sets it: their checks (nothing
// too wide, the layout's numbers) run either way, and the images, which nobody
// looks at in a test run, took about a sixth of the end-to-end tests' time.
//
// Tests talk to the page only through the data-testid hooks of DESIGN.md
// ("Test contract"). The helpers below wait for the DOM to reflect a change instead
// of sleeping, and on a timeout they fail with what the page actually showed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';

export { assert };

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '..', '..');
export const DIST = resolve(process.env.CHUNKSCOPE_DIST ?? join(ROOT, 'dist'));
export const SCREENSHOTS = join(HERE, 'screenshots');
/** A full-page screenshot at the end of every test, passed ones too: to look
 * the whole run over by eye. Off by default, as they cost about 0.4 s a test. */
const SHOT_EVERY_TEST = process.env.CHUNKSCOPE_SHOTS === 'all';
/** The screenshot tests' images; a failed test's screenshot is taken regardless. */
const VIEW_SHOTS = process.env.CHUNKSCOPE_SHOTS !== 'off';

/**
 * Saves a screenshot of `target` (a page or a locator) as `path`, unless view
 * screenshots are off; returns the path, or null when none was taken.
 */
export async function viewShot(target, path, opts = {}) {
  if (!VIEW_SHOTS) return null;
  mkdirSync(dirname(path), { recursive: true });
  await target.screenshot({ path, ...opts });
  return path;
}
const CHROMIUM = process.env.CHUNKSCOPE_CHROMIUM ?? '/usr/bin/chromium';

/** How long a change may take to show up in the DOM (debounce + engine + render). */
export const SETTLE_MS = 5000;
/** How long the first load (wasm download, compile, first render) may take. */
const LOAD_MS = 20000;

// ---------------------------------------------------------------------------
// Fixtures from the seeds (DESIGN.md, "Worked examples").

/** The refund page of seed 000, exactly. */
export const REFUND =
  'Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n' +
  'COD orders get store credit.\n\nContact us 24x7.';

/** Seed 000 at size 40 with the seed separators: text, span (chars, half-open), cut. */
export const SEED_CHUNKS = [
  { text: 'Refund policy', start: 0, end: 13, cut: '\\n\\n' },
  { text: 'Refunds take 5 days.', start: 15, end: 35, cut: '. ' },
  { text: 'They go to the original UPI id.', start: 36, end: 67, cut: '\\n' },
  { text: 'COD orders get store credit.', start: 68, end: 96, cut: '\\n\\n' },
  { text: 'Contact us 24x7.', start: 98, end: 114, cut: 'end' },
];

/** Length in Unicode scalar values (what the engine's `chars` unit counts). */
export const charLen = (s) => [...s].length;

/** Char offset (not UTF-16) of `needle` in `hay`, or -1. */
export function charIndexOf(hay, needle, from = 0) {
  const i = hay.indexOf(needle, from);
  return i < 0 ? -1 : charLen(hay.slice(0, i));
}

/** `text[start, end)` counted in chars. */
export const charSlice = (text, start, end) => [...text].slice(start, end).join('');

// ---------------------------------------------------------------------------
// Server, browser, pages.

let server = null;
let browser = null;

async function shared() {
  if (!existsSync(join(DIST, 'index.html'))) {
    throw new Error(
      `${join(DIST, 'index.html')} is missing: build the site first with \`./x build\` ` +
        '(it writes dist/), then run the end-to-end tests again.',
    );
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: run \`./x setup\` (it installs Debian's chromium).`);
  }
  server ??= await startServer(DIST);
  browser ??= await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
  return { server, browser };
}

after(async () => {
  await browser?.close().catch(() => {});
  await server?.close();
  browser = null;
  server = null;
});

const slug = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);

/**
 * Declares an end-to-end test. `body({ page, url, shot, t })` runs with a fresh
 * context and page already on the site (app mounted). Options: `viewport`
 * ({ width, height }), `colorScheme` ('light' | 'dark'), `timeout` (ms), `load`
 * (false: do not open the site first), `finalShot` (false: no end-of-test screenshot
 * unless the test failed, for tests that take their own), `expect` ({ policyViolations,
 * offsite, consoleErrors, pageErrors, failedRequests }: lists of RegExps, each of which
 * must match something that detector caught; what they match does not fail the test).
 */
export function e2e(name, body, options = {}) {
  const { viewport = { width: 1280, height: 900 }, colorScheme = 'light', timeout = 45000 } = options;
  const fileTag = basename(process.argv[1] ?? 'e2e').replace(/\.test\.mjs$/, '');
  test(name, { timeout }, async (t) => {
    const { server, browser } = await shared();
    const context = await browser.newContext({ viewport, colorScheme });
    // Every detector listens on the browser context, not on one page: a popup,
    // a second page or a frame the test opens is watched too (and workers'
    // requests are the context's).
    const caught = { pageErrors: [], consoleErrors: [], failedRequests: [], offsite: [], policyViolations: [] };
    const { pageErrors, consoleErrors, failedRequests, offsite, policyViolations } = caught;
    context.on('weberror', (err) => pageErrors.push(err.error()?.stack || String(err.error())));
    // The page must never reach beyond its own origin (the text a learner pastes
    // stays on their machine), and nothing it does may trip its own CSP.
    context.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith(server.url) && !/^(data|blob):/.test(url)) offsite.push(`${req.method()} ${url}`);
    });
    context.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) policyViolations.push(`console: ${msg.text()}`);
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    // The policy's own report, as the document raises it (independent of how the
    // browser words its console message).
    await context.exposeBinding('__chunkscopePolicyViolation', (_source, what) => policyViolations.push(`event: ${what}`));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        window.__chunkscopePolicyViolation(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    context.on('requestfailed', (req) => {
      const why = req.failure()?.errorText ?? 'failed';
      // Aborted means the page stopped wanting it (a navigation away, the
      // splitting worker ending with its page), not that the site failed to
      // serve it; a missing or broken file is an HTTP status, caught below.
      // A request elsewhere is the off-origin detector's.
      if (why === 'net::ERR_ABORTED' || !req.url().startsWith(server.url)) return;
      failedRequests.push(`${req.method()} ${req.url()}: ${why}`);
    });
    context.on('response', (res) => {
      const url = res.url();
      if (res.status() >= 400 && url.startsWith(server.url) && !url.endsWith('/favicon.ico')) {
        failedRequests.push(`${res.request().method()} ${url}: HTTP ${res.status()}`);
      }
    });
    const page = await context.newPage();
    page.setDefaultTimeout(SETTLE_MS);

    const shotPath = (label) => join(SCREENSHOTS, `${slug(label)}.png`);
    const shot = (label, opts = {}) => viewShot(page, shotPath(label), { fullPage: true, ...opts });

    let failure = null;
    let panicText = null;
    try {
      if (options.load !== false) await openApp(page, server.url);
      await body({ page, url: server.url, shot, t });
    } catch (err) {
      failure = err;
    } finally {
      panicText = await visiblePanic(page).catch(() => null);
      if (failure || (SHOT_EVERY_TEST && options.finalShot !== false)) {
        mkdirSync(SCREENSHOTS, { recursive: true });
        await page
          .screenshot({ path: shotPath(`${fileTag}-${name}`), fullPage: true })
          .catch((err) => t.diagnostic(`screenshot failed: ${err.message}`));
      }
      await context.close().catch(() => {});
    }

    // What a test expects to trip (`options.expect`) must be caught, which
    // proves that the detector fires; it is then taken out of what fails the test.
    const missed = [];
    for (const [kind, patterns] of Object.entries(options.expect ?? {})) {
      if (!(kind in caught)) throw new Error(`e2e: options.expect.${kind} is not a detector (${Object.keys(caught)})`);
      for (const pattern of patterns) {
        if (!caught[kind].some((entry) => pattern.test(entry))) missed.push(`${kind} ${pattern}`);
      }
      caught[kind] = caught[kind].filter((entry) => !patterns.some((p) => p.test(entry)));
    }
    // A policy violation the test expects is also a console error in Chromium.
    const expectedPolicy = options.expect?.policyViolations ?? [];
    caught.consoleErrors = caught.consoleErrors.filter(
      (entry) => !(/Content Security Policy/i.test(entry) && expectedPolicy.some((p) => p.test(`console: ${entry}`))),
    );

    const report = [];
    if (panicText) report.push(`the page shows its crash message: ${panicText}`);
    if (caught.pageErrors.length) report.push(`uncaught page errors:\n  ${caught.pageErrors.join('\n  ')}`);
    if (caught.failedRequests.length) report.push(`failed requests:\n  ${caught.failedRequests.join('\n  ')}`);
    if (caught.offsite.length) report.push(`requests outside the site:\n  ${caught.offsite.join('\n  ')}`);
    if (caught.policyViolations.length) report.push(`CSP violations:\n  ${caught.policyViolations.join('\n  ')}`);
    if (caught.consoleErrors.length) report.push(`console errors:\n  ${caught.consoleErrors.join('\n  ')}`);
    if (missed.length) report.push(`expected but not caught:\n  ${missed.join('\n  ')}`);
    for (const block of report) for (const line of block.split('\n')) t.diagnostic(line);

    if (failure) {
      if (report.length && failure instanceof Error) {
        failure.message += `\n\n${report.join('\n')}`;
      }
      throw failure;
    }
    assert.equal(panicText, null, 'the app crashed (panic message shown)');
    assert.deepEqual(missed, [], 'a detector did not catch what the test made happen');
    assert.deepEqual(caught.pageErrors, [], 'the page threw uncaught errors');
    assert.deepEqual(caught.failedRequests, [], 'requests to the site failed');
    assert.deepEqual(caught.policyViolations, [], 'the page tripped its Content-Security-Policy');
    assert.deepEqual(caught.offsite, [], 'the page made requests outside its own origin');
    assert.deepEqual(caught.consoleErrors, [], 'the page logged errors to the console');
  });
}

/** The text of the app's crash message (index.html's panic banner) if it is shown. */
function visiblePanic(page) {
  return page.evaluate(() => {
    const el = document.querySelector('[data-testid=panic-banner], #panic-banner');
    if (!el || el.hidden || el.getClientRects().length === 0) return null;
    return (el.textContent || '').trim() || null;
  });
}

/** Opens the site and waits until the app has mounted its controls. */
export async function openApp(page, url) {
  await page.goto(url, { waitUntil: 'load' });
  try {
    await page.locator('[data-testid=doc-input]').waitFor({ state: 'visible', timeout: LOAD_MS });
  } catch {
    const body = (await page.locator('body').innerText().catch(() => '')).slice(0, 400);
    throw new Error(
      `the app did not mount within ${LOAD_MS} ms: no visible [data-testid=doc-input].\n` +
        `page text: ${JSON.stringify(body)}`,
    );
  }
}

// ---------------------------------------------------------------------------
// Reading the page.

export const byTestId = (page, id) => page.locator(`[data-testid="${id}"]`);

/** Waits until the page has painted what it last changed: two animation
 * frames, the second one after the paint of the first. */
export function painted(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** The document text as the app holds it (textarea value or element text). */
export function docText(page) {
  return page
    .locator('[data-testid=doc-input]')
    .evaluate((el) => ('value' in el && typeof el.value === 'string' ? el.value : el.textContent));
}

/**
 * Every `[data-testid=chunk]` (inside `scope`, a CSS selector, if given), in DOM
 * order, with its raw attributes and its text.
 */
export function readChunks(page, scope = '') {
  return page.evaluate((scope) => {
    const root = scope ? document.querySelector(scope) : document;
    if (!root) return [];
    return [...root.querySelectorAll('[data-testid=chunk]')].map((el) => ({
      index: el.getAttribute('data-index'),
      start: el.getAttribute('data-start'),
      end: el.getAttribute('data-end'),
      cut: el.getAttribute('data-cut'),
      text: el.textContent,
    }));
  }, scope);
}

/** Every `[data-testid=tree-node]`: depth, len, separator, tooBig (raw attributes). */
export function readTree(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=tree-node]')].map((el) => ({
      depth: el.getAttribute('data-depth'),
      len: el.getAttribute('data-len'),
      separator: el.getAttribute('data-separator'),
      tooBig: el.getAttribute('data-too-big'),
    })),
  );
}

/** The five invariant badges: { coverage: 'true', ... } (null when a badge is missing). */
export function readBadges(page) {
  return page.evaluate(() => {
    const out = {};
    for (const name of ['coverage', 'max-size', 'order', 'overlap', 'determinism']) {
      const el = document.querySelector(`[data-testid="badge-${name}"]`);
      out[name] = el ? el.getAttribute('data-ok') : null;
    }
    return out;
  });
}

/**
 * The visible label of every `separator-item`: its rendered text plus the value of
 * any input inside it (an editable separator), whitespace kept as is.
 */
export function readSeparatorLabels(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=separator-list] [data-testid=separator-item]')].map((el) => {
      const values = [...el.querySelectorAll('input, textarea')].map((i) => i.value);
      return [el.innerText, ...values].join(' | ');
    }),
  );
}

/** The config-error text if one is visible, else null. */
export async function visibleConfigError(page) {
  return page.evaluate(() => {
    for (const el of document.querySelectorAll('[data-testid=config-error]')) {
      const style = getComputedStyle(el);
      const shown = el.getClientRects().length > 0 && style.visibility !== 'hidden' && style.display !== 'none';
      const text = (el.textContent || '').trim();
      if (shown && text) return text;
    }
    return null;
  });
}

// ---------------------------------------------------------------------------
// Matching separator labels. The contract fixes how `\n` is shown (as the two
// characters backslash, n); for the space and the hard cut it only asks for a
// visible label, so any common rendering is accepted.

const SPACE_LABEL = /␣|·|⎵|\bspace\b|(["'`])\s\1|\\s|\u00a0/i;
const HARD_LABEL = /hard|\bcut\b|∅|empty|""|''|``|\bnone\b|\(\s*\)/i;

/** Does `label` (from readSeparatorLabels) show separator `sep` (raw string)? */
export function labelShows(label, sep) {
  if (sep === '\n\n') return label.includes('\\n\\n');
  if (sep === '\n') return label.includes('\\n') && !label.includes('\\n\\n');
  if (sep === '. ') return label.includes('.') && !label.includes('\\n');
  if (sep === ' ') return !label.includes('\\n') && !label.includes('.') && SPACE_LABEL.test(label);
  if (sep === '') return HARD_LABEL.test(label) && !label.includes('\\n');
  throw new Error(`labelShows: no rule for ${JSON.stringify(sep)}`);
}

/** Asserts the separator list shows exactly `seps` (raw strings, '' = hard cut), in order. */
export function assertSeparatorLabels(labels, seps, what = 'separator-list') {
  assert.equal(
    labels.length,
    seps.length,
    `${what}: expected ${seps.length} separator-item(s) for ${JSON.stringify(seps)}, got ${JSON.stringify(labels)}`,
  );
  seps.forEach((sep, i) => {
    assert.ok(
      labelShows(labels[i], sep),
      `${what}: item ${i} should show ${JSON.stringify(sep)} (escaped: ${
        sep === '' ? 'the hard cut' : JSON.stringify(sep.replaceAll('\n', '\\n'))
      }), its label is ${JSON.stringify(labels[i])}`,
    );
  });
}

// ---------------------------------------------------------------------------
// Changing the configuration.

/**
 * Sets the controls named in `cfg`, in a fixed order: preset, text, unit,
 * separators, strategy, size, overlap. Numbers are typed as text, so '' and '0' work.
 */
export async function configure(page, cfg) {
  if (cfg.preset !== undefined) await byTestId(page, 'preset-select').selectOption(cfg.preset);
  if (cfg.text !== undefined) await byTestId(page, 'doc-input').fill(cfg.text);
  if (cfg.unit !== undefined) await byTestId(page, 'unit-select').selectOption(cfg.unit);
  if (cfg.separators !== undefined) await byTestId(page, 'separator-preset-select').selectOption(cfg.separators);
  if (cfg.strategy !== undefined) await byTestId(page, 'strategy-select').selectOption(cfg.strategy);
  if (cfg.size !== undefined) await byTestId(page, 'size-input').fill(String(cfg.size));
  if (cfg.overlap !== undefined) await byTestId(page, 'overlap-input').fill(String(cfg.overlap));
}

/** Waits until `locator`'s text matches `pattern`; fails with what it showed. */
export async function waitForText(page, locator, pattern, what) {
  const deadline = Date.now() + SETTLE_MS;
  let text = '';
  for (;;) {
    text = (await locator.count()) ? await locator.first().innerText() : '';
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) break;
    await page.waitForTimeout(40);
  }
  assert.fail(`${what}: expected text matching ${pattern}, shows ${JSON.stringify(text)}`);
}

/**
 * Waits until `read()` gives `want` (compared deeply): what a click or a
 * choice changes is drawn a frame or a worker reply later, so reading it at
 * once can see the state before. Fails with what it read last.
 */
export async function waitForValue(page, read, want, what) {
  const deadline = Date.now() + SETTLE_MS;
  let got;
  for (;;) {
    got = await read();
    if (JSON.stringify(got) === JSON.stringify(want)) return got;
    if (Date.now() > deadline) break;
    await page.waitForTimeout(40);
  }
  assert.deepEqual(got, want, what);
  return got;
}

/** Reads the configuration controls back (values as the page holds them). */
export function readConfig(page) {
  return page.evaluate(() => {
    const v = (id) => {
      const el = document.querySelector(`[data-testid="${id}"]`);
      return el ? el.value : null;
    };
    return {
      size: v('size-input'),
      overlap: v('overlap-input'),
      strategy: v('strategy-select'),
      unit: v('unit-select'),
      separators: v('separator-preset-select'),
    };
  });
}

/** The option values of a <select> by test id. */
export function optionValues(page, testId) {
  return page.evaluate(
    (id) => [...(document.querySelector(`[data-testid="${id}"]`)?.options ?? [])].map((o) => o.value),
    testId,
  );
}

/**
 * Waits until the chunks (inside `scope`) have exactly the spans `expected`
 * ([{ start, end }], in order), then returns them parsed. On a timeout it fails
 * with a diff between what was expected and what the page shows.
 */
export async function waitForChunkSpans(page, expected, { scope = '', timeout = SETTLE_MS } = {}) {
  const want = expected.map(({ start, end }) => ({ start: String(start), end: String(end) }));
  try {
    await page.waitForFunction(
      ({ scope, want }) => {
        const root = scope ? document.querySelector(scope) : document;
        if (!root) return false;
        const got = [...root.querySelectorAll('[data-testid=chunk]')];
        return (
          got.length === want.length &&
          got.every(
            (el, i) => el.getAttribute('data-start') === want[i].start && el.getAttribute('data-end') === want[i].end,
          )
        );
      },
      { scope, want },
      { timeout, polling: 'raf' },
    );
  } catch {
    // Fall through: the assertion below shows what is there instead.
  }
  const chunks = await readChunks(page, scope);
  assert.deepEqual(
    chunks.map(({ start, end }) => ({ start, end })),
    want,
    `chunk spans (data-start/data-end)${scope ? ` in ${scope}` : ''} did not become the expected ones within ${timeout} ms` +
      `${(await visibleConfigError(page)) ? `; config-error shows: ${await visibleConfigError(page)}` : ''}`,
  );
  return chunks;
}

/** Waits until `predicate(chunks)` (run in Node on readChunks) holds; returns the chunks. */
export async function waitForChunks(page, predicate, what, { scope = '', timeout = SETTLE_MS } = {}) {
  const deadline = Date.now() + timeout;
  let chunks;
  for (;;) {
    chunks = await readChunks(page, scope);
    if (predicate(chunks)) return chunks;
    if (Date.now() > deadline) break;
    await page.waitForTimeout(40);
  }
  assert.fail(`${what}: not reached within ${timeout} ms; chunks now: ${JSON.stringify(chunks, null, 1)}`);
}

/**
 * Waits until `read()` deep-equals `want`; fails with what it read last.
 * For what the modes module draws: it may arrive after the chunks it reads.
 */
export async function settle(page, read, want, what, timeout = SETTLE_MS) {
  const deadline = Date.now() + timeout;
  let got;
  for (;;) {
    got = await read();
    try {
      assert.deepEqual(got, want);
      return;
    } catch {
      if (Date.now() > deadline) break;
      await page.waitForTimeout(40);
    }
  }
  assert.deepEqual(got, want, what);
}

/** Waits for a visible config-error and returns its text. */
export async function waitForConfigError(page, why, timeout = SETTLE_MS) {
  try {
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid=config-error]')].some(
          (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && el.textContent.trim(),
        ),
      null,
      { timeout, polling: 'raf' },
    );
  } catch {
    assert.fail(`${why}: no visible, non-empty [data-testid=config-error] within ${timeout} ms`);
  }
  return visibleConfigError(page);
}

/** Waits until no config-error is visible. */
export async function waitForNoConfigError(page, why, timeout = SETTLE_MS) {
  try {
    await page.waitForFunction(
      () =>
        ![...document.querySelectorAll('[data-testid=config-error]')].some(
          (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && el.textContent.trim(),
        ),
      null,
      { timeout, polling: 'raf' },
    );
  } catch {
    assert.fail(`${why}: [data-testid=config-error] still shows ${JSON.stringify(await visibleConfigError(page))}`);
  }
}

/** Parses the raw chunk attributes into numbers, checking each is a plain integer. */
export function parseChunks(chunks) {
  return chunks.map((c, i) => {
    for (const key of ['index', 'start', 'end']) {
      assert.match(String(c[key]), /^\d+$/, `chunk ${i}: data-${key} should be a non-negative integer, is ${JSON.stringify(c[key])}`);
    }
    return { ...c, index: Number(c.index), start: Number(c.start), end: Number(c.end) };
  });
}

/** Seed 000 at size 40 with the seed separators, from a fresh page. */
export async function loadRefundAt40(page) {
  await configure(page, { preset: 'refund', separators: 'seed', strategy: 'recursive', size: 40, overlap: 0 });
  return waitForChunkSpans(page, SEED_CHUNKS);
}
