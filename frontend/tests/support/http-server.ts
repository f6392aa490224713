// A tiny real HTTP server for request-layer tests: each test registers what a path
// answers, and the client under test talks to it with the real fetch.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Handler = (req: Seen, res: http.ServerResponse) => void;

export interface TestServer {
  baseUrl: string;
  seen: Seen[];
  on: (path: string, handler: Handler) => void;
  json: (path: string, status: number, body: unknown) => void;
  close: () => Promise<void>;
}

export async function startServer(): Promise<TestServer> {
  const handlers = new Map<string, Handler>();
  const seen: Seen[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const entry: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(entry);
      const path = (req.url ?? '').split('?')[0];
      const handler = handlers.get(path);
      if (!handler) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ code: 404, success: false, message: 'Not found', detail: 'no route', error: 'not_found', data: { reason: 'no route' } }));
        return;
      }
      handler(entry, res);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    seen,
    on: (path, handler) => handlers.set(path, handler),
    json: (path, status, body) =>
      handlers.set(path, (_req, res) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export const ok = (data: unknown) => ({ code: 200, success: true, message: 'OK', data });

export const failure = (status: number, fields: { message?: string; detail?: string; error?: string; reason?: string }) => ({
  code: status,
  success: false,
  ...(fields.message !== undefined ? { message: fields.message } : {}),
  ...(fields.detail !== undefined ? { detail: fields.detail } : {}),
  ...(fields.error !== undefined ? { error: fields.error } : {}),
  data: fields.reason !== undefined ? { reason: fields.reason } : {},
});
