// Where Quinn lives: /reader without a book (the chat as the main part, continue reading
// beside it), the book view's Chat panel, and the phone home's "Ask Quinn" / "Shop" switch.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '@/app/router';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { useRoleStore } from '@/stores/role';
import { ok, startServer, type TestServer } from './support/http-server';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
window.scrollTo = () => {};

const USER = { user_id: 'u1', email: 'r@q.test', username: 'ruth', roles: ['reader'], current_role: 'reader' };
const MOODS = { assistant_name: 'Quinn', moods: [{ id: 'cosy', label: 'Something cosy', utterance: 'Something cosy', genres: ['Romance'] }] };

let server: TestServer;
let container: HTMLDivElement;
let root: Root;

beforeAll(async () => {
  server = await startServer();
  server.json('/api/chat/moods', 200, ok(MOODS));
  server.json('/api/users/me/', 200, ok(USER));
  server.json('/api/history', 200, ok([]));
  server.json('/api/get_bought_books', 200, ok([]));
  server.on('/api/chat', (req, res) => {
    const body = JSON.parse(req.body);
    const msg = (id: string, type: string, content: string) => ({ id, type, content, timestamp: '2026-11-25T18:00:00Z', books: [] });
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(ok({ conversation_id: body.conversation_id, reply_user: 'On it.', query: 'cosy', intent: 'search', user_message: msg('u1', 'user', body.current_input), bot_message: msg('b1', 'bot', 'On it.') })));
  });
  server.json('/api/recbooks', 200, ok([{ id: 'b1', book_id: 'b1', title: 'Tea at Four', author: 'Ann', price: 3.5, cover_image: '', match_percentage: 88, reason: 'Warm' }]));
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  localStorage.clear();
  useAuthStore.getState().hydrate();
  useRoleStore.getState().hydrate();
  configureApiClient({ baseUrl: server.baseUrl, notifyError: () => {}, onUnauthorized: () => {} });
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  resetApiClientConfig();
});

function login() {
  localStorage.setItem('access_token', 'tok');
  localStorage.setItem('userInfo', JSON.stringify(USER));
  localStorage.setItem('currentRole', 'reader');
  useAuthStore.getState().hydrate();
  useRoleStore.getState().hydrate();
}

async function render(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await act(async () => {
    root.render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} future={{ v7_startTransition: true }} />
      </QueryClientProvider>,
    );
  });
  return router;
}

async function waitFor(check: () => boolean, ms = 3000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out; page shows: ${container.textContent}`);
    await act(async () => new Promise((r) => setTimeout(r, 20)));
  }
}

const has = (id: string) => container.querySelector(`[data-testid="${id}"]`) !== null;

describe('where Quinn lives', () => {
  it('/reader: the chat is the main part and continue reading stands beside it', async () => {
    login();
    await render('/reader');
    await waitFor(() => container.textContent?.includes('Something cosy') ?? false);
    const room = container.querySelector('[data-testid="reading-room"]');
    expect(room?.firstElementChild?.getAttribute('data-testid')).toBe('chat');
    expect(has('continue-reading')).toBe(true);
    expect(has('chat-input')).toBe(true);
    expect(container.querySelector('h1')?.textContent).toBe('Quinn');
  });

  it('/reader signed out: a sign-in prompt instead of the input, leading back here', async () => {
    await render('/reader');
    await waitFor(() => has('chat-signin'));
    expect(has('chat-input')).toBe(false);
    expect(container.querySelector('[data-testid="chat-signin"] a')?.getAttribute('href')).toBe('/login?redirect=%2Freader');
  });

  it('/h5/reader/home keeps the shop and switches to Ask Quinn, whose cards open the phone book page', async () => {
    login();
    const router = await render('/h5/reader/home');
    const nav = container.querySelector('nav[aria-label="Home view"]');
    const links = [...(nav?.querySelectorAll('a') ?? [])];
    expect(links.map((a) => a.textContent?.trim())).toEqual(['Ask Quinn', 'Shop']);
    expect(links[1].getAttribute('aria-current')).toBe('page');
    expect(has('chat')).toBe(false);
    expect(container.querySelector('input[placeholder="Search books"]')).not.toBeNull();

    await act(async () => links[0].click());
    expect(router.state.location.search).toBe('?view=quinn');
    await waitFor(() => has('chat-input'));
    expect(container.querySelector('nav[aria-label="Home view"] a[aria-current="page"]')?.textContent?.trim()).toBe('Ask Quinn');
    await waitFor(() => container.querySelector('.quinn-mood:not(:disabled)') !== null);
    await act(async () => container.querySelector<HTMLButtonElement>('.quinn-mood')?.click());
    await waitFor(() => has('rec-book'));
    expect(container.querySelector('[data-testid="rec-book"] a')?.getAttribute('href')).toBe('/h5/book?book_id=b1');
  });
});
