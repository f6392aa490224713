import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '@/app/providers';
import { OutageBanner } from '@/components/OutageBanner';
import { api, ApiError, configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { parseRetryAfter, partOf, retryDelayOf, retryReadWhileDown, unavailableText } from '@/lib/unavailable';
import { useOutageStore } from '@/stores/outage';
import { useToastStore } from '@/stores/toast';
import { failure, ok, startServer, type TestServer } from './support/http-server';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('the words for a part that is down', () => {
  it('names each part the gateway can report', () => {
    expect(unavailableText('chat')).toBe(
      'Quinn is not answering right now; the rest of Quire works. Try again in a moment.',
    );
    expect(unavailableText('catalog')).toBe(
      'The shop and search are not answering right now; the rest of Quire works. Try again in a moment.',
    );
    expect(unavailableText('wallet')).toMatch(/^Payments and the wallet are not answering/);
    expect(unavailableText('manuscript')).toMatch(/^Uploads and manuscripts are not answering/);
    expect(unavailableText('auth')).toMatch(/^Sign-in is not answering/);
    expect(unavailableText('cache')).toMatch(/^Saving changes is paused for a moment; reading and browsing still work/);
  });

  it('reads the part from the reason, and nothing from other reasons', () => {
    expect(partOf('chat_unavailable')).toBe('chat');
    expect(partOf('cache_unavailable')).toBe('cache');
    expect(partOf('unavailable')).toBeNull();
    expect(partOf('printer_unavailable')).toBeNull();
    expect(partOf('rate_limited')).toBeNull();
    expect(partOf(undefined)).toBeNull();
  });

  it('reads Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('5')).toBe(5000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:10 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });

  it('asks a read again after the Retry-After only while a named part is down', () => {
    const down = new ApiError('x', { status: 503, kind: 'http', code: 'catalog_unavailable', retryAfterMs: 7000 });
    const unnamed = new ApiError('x', { status: 503, kind: 'http', code: 'unavailable' });
    const missing = new ApiError('x', { status: 404, kind: 'http', code: 'catalog_unavailable' });
    expect(retryReadWhileDown(0, down)).toBe(true);
    expect(retryReadWhileDown(1, down)).toBe(true);
    expect(retryReadWhileDown(2, down)).toBe(false);
    expect(retryReadWhileDown(0, unnamed)).toBe(false);
    expect(retryReadWhileDown(0, missing)).toBe(false);
    expect(retryDelayOf(0, down)).toBe(7000);
    expect(retryDelayOf(0, new ApiError('x', { status: 503, kind: 'http', code: 'chat_unavailable' }))).toBe(5000);
  });
});

describe('a 503 from a part that is down', () => {
  let server: TestServer;
  let container: HTMLDivElement;
  let root: Root;
  const banner = () => container.querySelector('[data-testid="outage-banner"]');

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(async () => {
    useOutageStore.getState().reset();
    useToastStore.setState({ toasts: [] });
    configureApiClient({ baseUrl: server.baseUrl });
    container = document.createElement('div');
    document.body.appendChild(container);
    root = createRoot(container);
    await act(async () => root.render(<OutageBanner />));
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
    resetApiClientConfig();
  });

  const down = (path: string, reason: string, retryAfter = '7') =>
    server.on(path, (_req, res) => {
      res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': retryAfter });
      const message = 'This needs a part of Quire that is down for a moment; try again shortly';
      res.end(JSON.stringify(failure(503, { message, detail: message, error: reason, reason: message })));
    });

  it('says in the banner which part is down, not in a generic toast', async () => {
    down('/api/chat', 'chat_unavailable');
    const err = (await act(() => api.post('/chat', { json: {} }).catch((e: unknown) => e))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(503);
    expect(err.message).toBe(unavailableText('chat'));
    expect(err.retryAfterMs).toBe(7000);
    expect(banner()?.textContent).toContain('Quinn is not answering right now; the rest of Quire works.');
    expect(useToastStore.getState().toasts).toEqual([]);
  });

  it('shows one line per part, and a dismissed line stays away for a while', async () => {
    down('/api/chat', 'chat_unavailable');
    down('/api/users/me/', 'cache_unavailable');
    await act(async () => {
      await api.post('/chat').catch(() => undefined);
      await api.post('/chat').catch(() => undefined);
      await api.post('/users/me/').catch(() => undefined);
    });
    const lines = () => Array.from(container.querySelectorAll('.outage-line')).map((l) => l.getAttribute('data-part'));
    expect(lines()).toEqual(['chat', 'cache']);
    const close = container.querySelector<HTMLButtonElement>('[data-part="chat"] .outage-close');
    await act(async () => close?.click());
    expect(lines()).toEqual(['cache']);
    await act(async () => {
      await api.post('/chat').catch(() => undefined);
    });
    expect(lines()).toEqual(['cache']);
  });

  it('leaves a 503 that names no part to the usual toast', async () => {
    server.json('/api/wallet/info', 503, failure(503, { message: 'Payment provider temporarily unavailable' }));
    await act(async () => {
      await api.post('/wallet/info').catch(() => undefined);
    });
    expect(banner()).toBeNull();
    expect(useToastStore.getState().toasts.map((t) => t.text)).toEqual(['Payment provider temporarily unavailable']);
  });

  it("asks a read again once its part's Retry-After has passed", async () => {
    let calls = 0;
    server.on('/api/get_books', (_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '0' });
        res.end(JSON.stringify(failure(503, { message: 'down', error: 'catalog_unavailable' })));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok([{ id: 'b-1' }])));
    });
    const books = await act(() =>
      queryClient.fetchQuery({ queryKey: ['outage-test'], queryFn: () => api.get('/get_books') }),
    );
    expect(books).toEqual([{ id: 'b-1' }]);
    expect(calls).toBe(2);
  });
});
