// A tiny static file server for the built site (dist/), used by the end-to-end tests.
//
//   node tests/e2e/serve.mjs [DIR] [PORT]   serve DIR (default: dist/) on 127.0.0.1
//
// Only GET and HEAD; no directory listings; paths are resolved inside the root and
// anything that would escape it (../, encoded or not, NUL bytes) is refused.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve, join, extname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.webmanifest': 'application/manifest+json',
};

function send(res, status, text) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

/** Maps a request path onto a file path inside `root`, or returns null if it would leave it. */
export function resolveInside(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const full = resolve(join(root, decoded));
  if (full !== root && !full.startsWith(root + sep)) return null;
  return full;
}

/**
 * Starts serving `root` on 127.0.0.1. `port` 0 (the default) picks a free port.
 * Resolves to { url, port, close() }.
 */
export async function startServer(root, port = 0) {
  const rootDir = resolve(root);
  const server = createServer(async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return send(res, 405, 'method not allowed\n');
    }
    const urlPath = new URL(req.url, 'http://localhost').pathname;
    let file = resolveInside(rootDir, urlPath);
    if (!file) return send(res, 403, 'forbidden\n');
    try {
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file);
      }
      if (!info.isFile()) return send(res, 404, 'not found\n');
      res.writeHead(200, {
        'content-type': MIME_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'content-length': info.size,
        'cache-control': 'no-store',
      });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file)
        .on('error', () => res.destroy())
        .pipe(res);
    } catch {
      send(res, 404, 'not found\n');
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  const actualPort = server.address().port;
  return {
    url: `http://127.0.0.1:${actualPort}/`,
    port: actualPort,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections?.();
        server.close(() => ok());
      }),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const dir = process.argv[2] ?? join(here, '..', '..', 'dist');
  const { url } = await startServer(dir, Number(process.argv[3] ?? 0));
  console.log(`serving ${resolve(dir)} on ${url}`);
}
