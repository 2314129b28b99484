// How long a first visit takes on a modest link: from navigation to the lesson's
// chunks painted, in headless Chromium on the built site (dist/), with the network
// throttled and an empty cache. A script run by hand, not a test: speed depends on
// the machine, so this prints numbers for docs/performance.md. Each run is a
// fresh browser context, so its cache starts empty.
//
//   ./x build && node tests/e2e/coldload.mjs [runs] [mbit] [rtt-ms]
//   CHUNKSCOPE_CPU_SLOWDOWN=3 node tests/e2e/coldload.mjs   (a slower machine)
//
// The link defaults to 10 Mbit/s down and up with 40 ms of round trip, emulated
// by Chromium (`Network.emulateNetworkConditions`). The site is served gzip'd,
// as any static host serves it, from a server of this script's own (the tests'
// serve.mjs sends files as they are). For each run, on a fresh browser context:
//   - painted: from navigation start to the first paint of the refund page's
//     five chunks (the DOM shows them, a frame was produced and the task after
//     it ran);
//   - longest task: the longest main-thread task (Long Tasks API, every task
//     over 50 ms) from navigation start until the page has been idle for 2 s
//     after painting, so the worker's and the modes module's arrival count;
//   - tasks over 50 ms: how many there were in that time;
//   - bytes: what was fetched (compressed), and per file, the workers'
//     fetches included.
// Each number is the median of `runs` (default 5).
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { MIME_TYPES, resolveInside } from './serve.mjs';

const RUNS = Number(process.argv[2] ?? 5);
const MBIT = Number(process.argv[3] ?? 10);
const RTT = Number(process.argv[4] ?? 40);
const CHROMIUM = process.env.CHUNKSCOPE_CHROMIUM ?? '/usr/bin/chromium';
// CHUNKSCOPE_CPU_SLOWDOWN=N runs the page's main thread N times slower
// (`Emulation.setCPUThrottlingRate`): a slower machine, to see which tasks
// would pass 50 ms there.
const SLOWDOWN = Number(process.env.CHUNKSCOPE_CPU_SLOWDOWN ?? 1);
const DIST = resolve(process.env.CHUNKSCOPE_DIST ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist'));

if (!existsSync(join(DIST, 'index.html'))) {
  console.error(`no ${join(DIST, 'index.html')}: build the site first with ./x build`);
  process.exit(1);
}

/** Serves DIST gzip'd (compressed once per file, kept in memory). */
function gzipServer() {
  const cache = new Map();
  const server = createServer((req, res) => {
    let file = resolveInside(DIST, new URL(req.url, 'http://localhost').pathname);
    if (file && existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    if (!cache.has(file)) cache.set(file, gzipSync(readFileSync(file), { level: 9 }));
    const body = cache.get(file);
    res.writeHead(200, {
      'content-type': MIME_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-encoding': 'gzip',
      'content-length': body.length,
      // Cacheable, as a static host serves it: the modes module starts a
      // worker of its own, whose files the page's worker fetched already.
      'cache-control': 'public, max-age=3600',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

/** Runs in the page before its own scripts: records every long task. */
function watchLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

const server = await gzipServer();
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: CHROMIUM });
const runs = [];
for (let r = 0; r < RUNS; r++) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(watchLongTasks);
  const cdp = await context.newCDPSession(page);
  // Every response's bytes on the link, the worker's own fetches included
  // (the page's resource timeline does not list those).
  const wire = [];
  context.on('requestfinished', async (request) => {
    const sizes = await request.sizes();
    wire.push({ name: request.url().split('/').pop(), bytes: sizes.responseBodySize + sizes.responseHeadersSize });
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: RTT,
    downloadThroughput: (MBIT * 1e6) / 8,
    uploadThroughput: (MBIT * 1e6) / 8,
  });
  if (SLOWDOWN > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
  await page.goto(url, { waitUntil: 'commit' });
  const painted = await page.evaluate(
    () =>
      new Promise((done) => {
        const check = () => {
          if (document.querySelectorAll('[data-testid=chunk]').length === 5) {
            requestAnimationFrame(() => setTimeout(() => done(performance.now()), 0));
          } else {
            setTimeout(check, 5);
          }
        };
        check();
      }),
  );
  // Until the page has been quiet for 2 s: the worker and the modes module land.
  await page.waitForFunction(
    () => {
      const last = window.__longTasks.at(-1);
      const quietSince = last ? last.start + last.ms : 0;
      return performance.now() - quietSince > 2000 && performance.getEntriesByType('resource').length > 0;
    },
    undefined,
    { timeout: 120_000, polling: 100 },
  );
  const { tasks, resources } = await page.evaluate(() => ({
    tasks: window.__longTasks,
    resources: performance
      .getEntriesByType('resource')
      .map((e) => ({ name: e.name.split('/').pop(), bytes: e.transferSize, end: e.responseEnd })),
  }));
  runs.push({
    painted,
    longest: Math.max(0, ...tasks.map((t) => t.ms)),
    over50: tasks.length,
    tasks,
    beforePaint: Math.max(0, ...tasks.filter((t) => t.start < painted).map((t) => t.ms)),
    bytes: wire.reduce((n, e) => n + e.bytes, 0),
    resources,
    wire,
  });
  await context.close();
}
await browser.close();
server.close();

console.log(`cold load over ${MBIT} Mbit/s, ${RTT} ms RTT, gzip'd, an empty cache${SLOWDOWN > 1 ? `, the CPU ${SLOWDOWN}× slower` : ''}; median of ${RUNS}`);
console.log(`  painted (the lesson's 5 chunks):   ${median(runs.map((r) => r.painted)).toFixed(0)} ms`);
console.log(`  longest task before that paint:    ${median(runs.map((r) => r.beforePaint)).toFixed(0)} ms`);
console.log(`  longest task until 2 s idle:       ${median(runs.map((r) => r.longest)).toFixed(0)} ms`);
console.log(`  tasks over 50 ms until 2 s idle:   ${median(runs.map((r) => r.over50))}`);
console.log(`  bytes over the link:               ${(median(runs.map((r) => r.bytes)) / 1000).toFixed(1)} KB`);
for (const e of runs[0].wire.filter((e) => e.bytes > 5000)) {
  const timed = runs[0].resources.find((r) => r.name === e.name);
  const done = timed ? `, done at ${timed.end.toFixed(0)} ms` : ' (fetched by the worker)';
  console.log(`    ${e.name.padEnd(44)} ${(e.bytes / 1000).toFixed(1).padStart(7)} KB${done}`);
}
for (const [i, r] of runs.entries()) {
  const when = r.tasks.map((t) => `${t.ms.toFixed(0)} ms at ${t.start.toFixed(0)}`).join(', ');
  console.log(`  run ${i + 1}: painted ${r.painted.toFixed(0)} ms, longest task ${r.longest.toFixed(0)} ms (${r.beforePaint.toFixed(0)} before the paint), ${r.over50} over 50 ms${when ? ` (${when})` : ''}`);
}
