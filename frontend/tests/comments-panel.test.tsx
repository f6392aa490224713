// The comments panel against a real local HTTP server: newest first, paging, the form
// for logged-in readers only, and who may delete what.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { canDelete, CommentsPanel, type Comment } from '@/features/comments';
import { relativeTime } from '@/lib/dates';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { ok, startServer, type TestServer } from './support/http-server';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const BOOK = 'book-1';
const now = Date.now();
const mk = (id: number, user: string, extra: Partial<Comment> = {}): Comment => ({
  id: `c${id}`,
  book_id: BOOK,
  user_id: user,
  username: user === 'u-me' ? 'me' : `reader-${user}`,
  content: `comment number ${id}`,
  created_at: new Date(now - id * 60_000).toISOString(),
  ...extra,
});

let server: TestServer;
let container: HTMLDivElement;
let root: Root;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  localStorage.clear();
  useAuthStore.getState().hydrate();
  server.seen.length = 0;
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

function login(user: { user_id: string; roles: string[]; current_role: string }) {
  localStorage.setItem('access_token', 'tok');
  localStorage.setItem('userInfo', JSON.stringify({ email: 'x@y.z', username: 'me', ...user }));
  useAuthStore.getState().hydrate();
}

async function waitFor(check: () => boolean, ms = 3000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out; page shows: ${container.textContent}`);
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
  }
}

async function render() {
  const router = createMemoryRouter([{ path: '/reader', element: <CommentsPanel bookId={BOOK} /> }], {
    initialEntries: [`/reader?book_id=${BOOK}`],
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await act(async () => {
    root.render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} future={{ v7_startTransition: true }} />
      </QueryClientProvider>,
    );
  });
}

function servePages(all: Comment[]) {
  server.on(`/api/books/${BOOK}/comments`, (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (req.method === 'POST') {
      const c = mk(0, 'u-me', { id: 'new', content: JSON.parse(req.body).content, deletable: true });
      all.unshift(c);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok(c)));
      return;
    }
    const page = Number(url.searchParams.get('page'));
    const size = Number(url.searchParams.get('page_size'));
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(ok({ total: all.length, page, page_size: size, result: all.slice((page - 1) * size, page * size) })));
  });
}

const texts = () => [...container.querySelectorAll('[data-testid="comment"] .comment-text')].map((n) => n.textContent);

describe('comments panel', () => {
  it('lists newest first, pages on, and offers a login link to visitors', async () => {
    const all = Array.from({ length: 12 }, (_, i) => mk(i + 1, `u${i}`));
    servePages(all);
    await render();
    await waitFor(() => texts().length === 10);
    expect(texts()[0]).toBe('comment number 1');
    expect(container.textContent).toContain('12 comments');
    expect(container.textContent).toContain('reader-u0');
    expect(container.textContent).toContain('1 minute ago');
    expect(container.querySelector('form')).toBeNull();
    const login = [...container.querySelectorAll('a')].find((a) => a.textContent === 'Log in to comment');
    expect(login?.getAttribute('href')).toBe(`/login?redirect=${encodeURIComponent(`/reader?book_id=${BOOK}`)}`);
    expect(container.querySelectorAll('.comment-delete')).toHaveLength(0);
    const more = [...container.querySelectorAll('button')].find((b) => b.textContent?.includes('Show older comments'));
    await act(async () => more?.click());
    await waitFor(() => texts().length === 12);
    expect(server.seen.map((s) => new URL(s.url, 'http://x').searchParams.get('page'))).toEqual(['1', '2']);
  });

  it('shows delete on own comments only (server says deletable)', async () => {
    login({ user_id: 'u-me', roles: ['reader'], current_role: 'reader' });
    servePages([mk(1, 'u-me', { deletable: true }), mk(2, 'u-other', { deletable: false })]);
    await render();
    await waitFor(() => texts().length === 2);
    const buttons = container.querySelectorAll('.comment-delete');
    expect(buttons).toHaveLength(1);
    expect(buttons[0].closest('[data-testid="comment"]')?.textContent).toContain('comment number 1');
  });

  it('posts a comment (trimmed) and shows it', async () => {
    login({ user_id: 'u-me', roles: ['reader'], current_role: 'reader' });
    servePages([mk(1, 'u-other', { deletable: false })]);
    await render();
    await waitFor(() => texts().length === 1);
    const area = container.querySelector('textarea') as HTMLTextAreaElement;
    const submit = [...container.querySelectorAll('button')].find((b) => b.textContent?.includes('Post comment')) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await act(async () => {
      const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
      setter?.call(area, '  A whale of a book.  ');
      area.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(submit.disabled).toBe(false);
    await act(async () => submit.click());
    await waitFor(() => texts()[0] === 'A whale of a book.');
    const post = server.seen.find((s) => s.method === 'POST');
    expect(JSON.parse(post?.body ?? '{}')).toEqual({ content: 'A whale of a book.' });
    expect(area.value).toBe('');
  });

  it('refuses more than 2000 characters', async () => {
    login({ user_id: 'u-me', roles: ['reader'], current_role: 'reader' });
    servePages([]);
    await render();
    await waitFor(() => container.textContent?.includes('No comments yet') ?? false);
    const area = container.querySelector('textarea') as HTMLTextAreaElement;
    // Typing and pasting stop where the counter does.
    expect(area.maxLength).toBe(2000);
    await act(async () => {
      const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
      setter?.call(area, 'x'.repeat(2001));
      area.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const submit = [...container.querySelectorAll('button')].find((b) => b.textContent?.includes('Post comment')) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(container.textContent).toContain('2001/2000');
  });
});

describe('delete permission', () => {
  const me = { user_id: 'u-me', roles: ['reader'] as const, current_role: 'reader' as const };
  const admin = { user_id: 'u-admin', roles: ['reader', 'admin'] as const, current_role: 'reader' as const };
  it('follows the server when it says', () => {
    expect(canDelete(mk(1, 'u-other', { deletable: true }), { ...me, roles: [...me.roles] })).toBe(true);
    expect(canDelete(mk(1, 'u-me', { deletable: false }), { ...me, roles: [...me.roles] })).toBe(false);
  });
  it('else: own comments, and any for admins, none for visitors', () => {
    expect(canDelete(mk(1, 'u-me'), { ...me, roles: [...me.roles] })).toBe(true);
    expect(canDelete(mk(1, 'u-other'), { ...me, roles: [...me.roles] })).toBe(false);
    expect(canDelete(mk(1, 'u-other'), { ...admin, roles: [...admin.roles] })).toBe(true);
    expect(canDelete(mk(1, 'u-me'), null)).toBe(false);
  });
});

describe('relative times', () => {
  const t0 = Date.parse('2026-11-22T12:00:00Z');
  it.each([
    ['2026-11-22T11:59:50Z', 'just now'],
    ['2026-11-22T11:55:00Z', '5 minutes ago'],
    ['2026-11-22T11:00:00Z', '1 hour ago'],
    ['2026-11-21T12:00:00Z', 'yesterday'],
    ['2026-11-19T12:00:00Z', '3 days ago'],
  ])('%s reads %s', (iso, text) => {
    expect(relativeTime(iso, t0)).toBe(text);
  });
});
