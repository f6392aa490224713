// Serves dist/ the way the gateway does: /platform/* from dist with SPA fallback to
// index.html, / redirects to /platform/. /api is proxied to QUIRE_API_TARGET when set,
// else answered with a 503 envelope. For looking at a build without the Rust stack.
//   node scripts/serve-dist.mjs [port]        (default 4173)
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const port = Number(process.argv[2] || process.env.PORT || 4173);
const apiTarget = process.env.QUIRE_API_TARGET ? new URL(process.env.QUIRE_API_TARGET) : null;

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

function sendFile(res, file) {
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
    'Cache-Control': file.endsWith('index.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
  });
  fs.createReadStream(file).pipe(res);
}

function proxy(req, res) {
  const upstream = http.request(
    { hostname: apiTarget.hostname, port: apiTarget.port || 80, path: req.url, method: req.method, headers: { ...req.headers, host: apiTarget.host } },
    (up) => {
      res.writeHead(up.statusCode || 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', () => {
    res.writeHead(502, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ code: 502, success: false, message: 'Bad gateway', detail: 'upstream unreachable', error: 'bad_gateway', data: { reason: 'Bad gateway' } }));
  });
  req.pipe(upstream);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url || '/', 'http://localhost');
  if (url.pathname.startsWith('/api/')) {
    if (apiTarget) return proxy(req, res);
    res.writeHead(503, { 'Content-Type': 'application/json' });
    return res.end(JSON.stringify({ code: 503, success: false, message: 'Service unavailable', detail: 'no backend behind this static server', error: 'unavailable', data: { reason: 'Service unavailable' } }));
  }
  if (url.pathname === '/' || url.pathname === '/platform') {
    res.writeHead(302, { Location: '/platform/' });
    return res.end();
  }
  if (!url.pathname.startsWith('/platform/')) {
    res.writeHead(404);
    return res.end('not found');
  }
  const rel = decodeURIComponent(url.pathname.slice('/platform/'.length));
  const file = path.normalize(path.join(root, rel));
  if (file.startsWith(root) && fs.existsSync(file) && fs.statSync(file).isFile()) return sendFile(res, file);
  if (rel.startsWith('assets/')) {
    res.writeHead(404);
    return res.end('not found');
  }
  return sendFile(res, path.join(root, 'index.html'));
});

server.listen(port, '127.0.0.1', () => {
  console.log(`serving ${root} at http://127.0.0.1:${port}/platform/`);
});
