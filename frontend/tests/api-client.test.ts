import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, configureApiClient, describeFailure, isFailureBody, resetApiClientConfig } from '@/lib/api-client';
import { useToastStore } from '@/stores/toast';
import { failure, ok, startServer, type TestServer } from './support/http-server';

let server: TestServer;
const onUnauthorized = vi.fn();

const toasts = () => useToastStore.getState().toasts.map((t) => t.text);

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  localStorage.clear();
  useToastStore.setState({ toasts: [] });
  server.seen.length = 0;
  onUnauthorized.mockReset();
  configureApiClient({ baseUrl: server.baseUrl, onUnauthorized });
});
afterEach(() => resetApiClientConfig());

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected the call to fail');
}

describe('a successful call', () => {
  it('resolves with the envelope data', async () => {
    server.json('/api/books', 200, ok([{ id: 1 }]));
    await expect(api.get('/books')).resolves.toEqual([{ id: 1 }]);
    expect(toasts()).toEqual([]);
  });

  it('sends the bearer token when local storage has one', async () => {
    localStorage.setItem('access_token', 'tok-123');
    server.json('/api/users/me/', 200, ok({ user_id: 1 }));
    await api.get('/users/me/');
    expect(server.seen[0].headers.authorization).toBe('Bearer tok-123');
  });

  it('starts a new trace with every call (a W3C traceparent)', async () => {
    server.json('/api/books', 200, ok([]));
    await api.get('/books');
    await api.get('/books');
    const sent = server.seen.map((r) => String(r.headers.traceparent));
    for (const header of sent) expect(header).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(sent[0].split('-')[1]).not.toBe(sent[1].split('-')[1]);
    expect(sent[0].split('-')[1]).not.toMatch(/^0+$/);
  });

  it('sends no authorization header without a token', async () => {
    server.json('/api/login/nonce', 200, ok({ nonce: 'n' }));
    await api.get('/login/nonce');
    expect(server.seen[0].headers.authorization).toBeUndefined();
  });

  it('puts params in the query string and json in the body', async () => {
    server.json('/api/check_verify_code', 200, ok(true));
    server.json('/api/register/', 200, ok({}));
    await api.post('/check_verify_code', { params: { email: 'a+b@x.io', verify_code: '012345', skip: undefined } });
    await api.post('/register/', { json: { email: 'a@x.io' } });
    expect(server.seen[0].url).toBe('/api/check_verify_code?email=a%2Bb%40x.io&verify_code=012345');
    expect(server.seen[0].body).toBe('');
    expect(server.seen[1].headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.seen[1].body)).toEqual({ email: 'a@x.io' });
  });

  it('sends form-encoded bodies', async () => {
    server.json('/api/get_all_books/', 200, ok([]));
    await api.post('/get_all_books/', { form: { genre: 'sci fi', page: 2 } });
    expect(server.seen[0].headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(server.seen[0].body).toBe('genre=sci+fi&page=2');
  });
});

describe('failure detection', () => {
  it('treats success:false on a 200 as a failure', async () => {
    server.json('/api/x', 200, { code: 200, success: false, message: 'Nope', data: null });
    const err = await failureOf(api.get('/x'));
    expect(err.message).toBe('Nope');
    expect(toasts()).toEqual(['Nope']);
  });

  it('treats data.status === false as a failure', async () => {
    server.json('/api/y', 200, { code: 200, success: true, message: 'Trade refused', data: { status: false } });
    const err = await failureOf(api.get('/y'));
    expect(err.message).toBe('Trade refused');
    expect(isFailureBody({ status: false })).toBe(true);
    expect(isFailureBody({ success: true, data: { status: true } })).toBe(false);
  });

  it('with ignoreErrors a success:false reply is not a failure and shows nothing', async () => {
    server.json('/api/trade', 200, { code: 200, success: false, message: 'Nope', data: { status: false } });
    await expect(api.get('/trade', { ignoreErrors: true })).resolves.toEqual({ status: false });
    expect(toasts()).toEqual([]);
  });

  it('with ignoreErrors an HTTP error still rejects, silently', async () => {
    server.json('/api/wallet/info', 503, failure(503, { message: 'Service unavailable', reason: 'wallet down' }));
    const err = await failureOf(api.post('/wallet/info', { ignoreErrors: true }));
    expect(err.status).toBe(503);
    expect(toasts()).toEqual([]);
  });
});

describe('the error toast', () => {
  it('prefers data.reason, then detail, then error, then message', async () => {
    const all = { message: 'm', detail: 'd', error: 'e', reason: 'r' };
    server.json('/api/a', 400, failure(400, all));
    server.json('/api/b', 400, failure(400, { ...all, reason: undefined }));
    server.json('/api/c', 400, failure(400, { message: 'm', error: 'e' }));
    server.json('/api/d', 400, failure(400, { message: 'm' }));
    expect((await failureOf(api.get('/a'))).message).toBe('r');
    expect((await failureOf(api.get('/b'))).message).toBe('d');
    expect((await failureOf(api.get('/c'))).message).toBe('e');
    expect((await failureOf(api.get('/d'))).message).toBe('m');
    expect(toasts()).toEqual(['r', 'd', 'e', 'm']);
  });

  it('falls back to the error itself when the body says nothing', async () => {
    server.on('/api/empty', (_req, res) => {
      res.writeHead(502);
      res.end();
    });
    const err = await failureOf(api.get('/empty'));
    expect(err.message).toBe('Request failed with status 502');
    expect(toasts()).toEqual(['Request failed with status 502']);
  });

  it.each([
    ['Email already registered', 'This email already has a registered account'],
    ['Wrong password', 'Wrong password!'],
    ['User not found', 'User not found!'],
    ['Book Existed Already!', 'We already have this!'],
  ])('translates %s', async (server_text, shown) => {
    server.json('/api/t', 409, failure(409, { message: server_text, detail: server_text, error: 'code', reason: server_text }));
    const err = await failureOf(api.post('/t'));
    expect(err.message).toBe(shown);
    expect(toasts()).toEqual([shown]);
  });

  it('translates a known text even when it is not the first field', () => {
    expect(describeFailure(failure(401, { message: 'Wrong password', reason: 'invalid credentials' }), 'x')).toEqual({
      message: 'Wrong password!',
      silent: false,
    });
  });

  it('keeps "Wallet not found" silent', async () => {
    server.json('/api/wallet/info', 404, failure(404, { message: 'Wallet not found', detail: 'Wallet not found', error: 'wallet_not_found', reason: 'Wallet not found' }));
    const err = await failureOf(api.post('/wallet/info'));
    expect(err.message).toBe('wallet not found');
    expect(err.silent).toBe(true);
    expect(toasts()).toEqual([]);
  });
});

describe('401 and 403', () => {
  it.each([401, 403])('%i clears storage except isVerified and goes to the landing page', async (status) => {
    localStorage.setItem('access_token', 't');
    localStorage.setItem('refresh_token', 'r');
    localStorage.setItem('adminLoggedIn', 'true');
    localStorage.setItem('userInfo', '{"user_id":1}');
    localStorage.setItem('currentRole', 'writer');
    localStorage.setItem('isVerified', 'true');
    server.json('/api/users/me/', status, failure(status, { message: 'Unauthorized' }));
    await failureOf(api.get('/users/me/'));
    expect(Object.keys({ ...localStorage })).toEqual(['isVerified']);
    expect(localStorage.getItem('isVerified')).toBe('true');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('uses /platform/ as the landing page by default', async () => {
    resetApiClientConfig();
    const assign = vi.fn();
    configureApiClient({ baseUrl: server.baseUrl });
    const original = window.location;
    Object.defineProperty(window, 'location', { configurable: true, value: { ...original, assign } });
    try {
      server.json('/api/z', 401, failure(401, { message: 'Unauthorized' }));
      await failureOf(api.get('/z'));
      expect(assign).toHaveBeenCalledWith('/platform/');
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: original });
    }
  });

  it('a credential call keeps the session when it gets a 401', async () => {
    localStorage.setItem('isVerified', 'true');
    localStorage.setItem('currentRole', 'writer');
    server.json('/api/login/', 401, failure(401, { message: 'Wrong password' }));
    const err = await failureOf(api.post('/login/', { json: {}, skipAuthRedirect: true }));
    expect(err.message).toBe('Wrong password!');
    expect(localStorage.getItem('currentRole')).toBe('writer');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe('transport failures', () => {
  it('reports a network error and toasts it', async () => {
    configureApiClient({ baseUrl: 'http://127.0.0.1:9/api' });
    const err = await failureOf(api.get('/anything'));
    expect(err.kind).toBe('network');
    expect(err.message).toMatch(/^Network error/);
    expect(toasts()).toEqual([err.message]);
  });

  it('reports a timeout', async () => {
    server.on('/api/slow', (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(ok(1)));
      }, 1000);
    });
    const err = await failureOf(api.get('/slow', { timeoutMs: 50 }));
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/timed out/);
    expect(toasts()).toEqual([err.message]);
  });

  it('reports an abort', async () => {
    server.on('/api/slow2', (_req, res) => {
      setTimeout(() => res.end(), 1000);
    });
    const controller = new AbortController();
    const pending = api.get('/slow2', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const err = await failureOf(pending);
    expect(err.kind).toBe('abort');
    expect(toasts()).toEqual(['Request was cancelled']);
  });

  it('has a 100 s default timeout', async () => {
    const { API_TIMEOUT_MS } = await import('@/lib/api-client');
    expect(API_TIMEOUT_MS).toBe(100000);
  });
});
