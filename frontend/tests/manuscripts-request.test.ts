// The request layer's upload path (onUploadProgress: XMLHttpRequest instead of fetch),
// against a real local HTTP server: progress, the envelope, the error catalogue, the
// session reset, cancelling and a dead server behave as they do for every other call.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, configureApiClient, type UploadProgress } from '@/lib/api-client';
import { ok, type TestServer } from './support/http-server';
import { send, useTestServer, withCors } from './support/manuscripts';

let toasts: string[] = [];
let unauthorized = 0;
const testServer = useTestServer({ notifyError: (m) => toasts.push(m), onUnauthorized: () => unauthorized++ });
let server: TestServer;
beforeEach(() => {
  server = testServer();
  localStorage.setItem('access_token', 'tok-1');
  toasts = [];
  unauthorized = 0;
});

function body(kb: number): FormData {
  const form = new FormData();
  form.append('files', new File(['x'.repeat(kb * 1024)], 'novel.txt', { type: 'text/plain' }));
  form.append('language', 'english');
  return form;
}

describe('an upload with progress', () => {
  it('reports the body going out, ends with done, and unwraps the envelope', async () => {
    server.on('/api/up', withCors((_req, res) => send(res, 200, ok({ manuscript_id: 'm1' }))));
    const seen: UploadProgress[] = [];
    const data = await api.post<{ manuscript_id: string }>('/up', { multipart: body(64), onUploadProgress: (p) => seen.push(p) });
    expect(data).toEqual({ manuscript_id: 'm1' });
    expect(seen.at(-1)?.done).toBe(true);
    expect(seen.filter((p) => p.done)).toHaveLength(1);
    const post = server.seen.find((s) => s.method === 'POST')!;
    expect(post.headers.authorization).toBe('Bearer tok-1');
    expect(post.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(post.body).toContain('filename="novel.txt"');
  });

  it('translates a known refusal and raises no toast when told not to', async () => {
    server.on(
      '/api/up',
      withCors((_req, res) =>
        send(res, 409, { code: 409, success: false, message: 'Book Existed Already!', detail: 'Book Existed Already!', error: 'conflict', data: { reason: 'Book Existed Already!' } }),
      ),
    );
    const failure = await api.post('/up', { multipart: body(1), notify: false, onUploadProgress: () => {} }).catch((e) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 409, kind: 'http', message: 'We already have this!', code: 'conflict' });
    expect(toasts).toEqual([]);
  });

  it('toasts a failure by default and reads a failure inside a 200 envelope', async () => {
    server.on('/api/up', withCors((_req, res) => send(res, 200, { code: 422, success: false, message: 'The epub could not be read', data: {} })));
    const failure = await api.post('/up', { multipart: body(1), onUploadProgress: () => {} }).catch((e) => e);
    expect(failure).toMatchObject({ status: 422, kind: 'envelope', message: 'The epub could not be read' });
    expect(toasts).toEqual(['The epub could not be read']);
  });

  it('ends the session on a 401 like any call', async () => {
    server.on('/api/up', withCors((_req, res) => send(res, 401, { code: 401, success: false, message: 'Token expired', data: {} })));
    await expect(api.post('/up', { multipart: body(1), onUploadProgress: () => {} })).rejects.toMatchObject({ status: 401 });
    expect(unauthorized).toBe(1);
    expect(localStorage.getItem('access_token')).toBeNull();
  });

  it('is cancelled by its signal, before or while it runs', async () => {
    server.on('/api/slow', withCors((_req, res) => setTimeout(() => send(res, 200, ok({})), 2000)));
    const early = new AbortController();
    early.abort();
    await expect(api.post('/slow', { multipart: body(1), signal: early.signal, onUploadProgress: () => {} })).rejects.toMatchObject({ kind: 'abort' });
    const late = new AbortController();
    const pending = api.post('/slow', { multipart: body(1), signal: late.signal, onUploadProgress: () => {} });
    setTimeout(() => late.abort(), 50);
    await expect(pending).rejects.toMatchObject({ kind: 'abort', message: 'Request was cancelled' });
  });

  it('times out like fetch does', async () => {
    server.on('/api/slow', withCors((_req, res) => setTimeout(() => send(res, 200, ok({})), 2000)));
    await expect(api.post('/slow', { multipart: body(1), timeoutMs: 100, onUploadProgress: () => {} })).rejects.toMatchObject({
      kind: 'timeout',
      message: expect.stringMatching(/^Request timed out/),
    });
  });

  it('reports a server that is not there as a network error', async () => {
    configureApiClient({ baseUrl: 'http://127.0.0.1:9/api' });
    vi.spyOn(console, 'error').mockImplementation(() => {}); // jsdom logs the refused connection
    await expect(api.post('/up', { multipart: body(1), onUploadProgress: () => {} })).rejects.toMatchObject({ kind: 'network', status: 0 });
    expect(toasts).toHaveLength(1);
  });
});
