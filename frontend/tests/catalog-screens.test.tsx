import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '@/app/router';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { useToastStore } from '@/stores/toast';
import { byTestId, cleanup, click, render, waitFor } from './support/catalog-dom';
import { ok, startServer, type TestServer } from './support/http-server';

let server: TestServer;

const book = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  book_id: id,
  title: `Title ${id}`,
  author: 'Ann Author',
  cover_image: `/api/books/${id}/cover`,
  price: 3,
  genre: 'Mystery',
  tags: [],
  assessment_score: 7,
  on: true,
  taken_down: false,
  listed: true,
  ...extra,
});

function logIn(userId: string, roles: string[], admin = false) {
  localStorage.setItem('access_token', 'tok');
  if (admin) localStorage.setItem('adminLoggedIn', 'true');
  localStorage.setItem('userInfo', JSON.stringify({ user_id: userId, username: 'u', roles, current_role: roles[0] }));
  useAuthStore.getState().hydrate();
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  localStorage.clear();
  useAuthStore.getState().hydrate();
  useToastStore.setState({ toasts: [] });
  server.seen.length = 0;
  configureApiClient({ baseUrl: server.baseUrl, onUnauthorized: () => {} });
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
});

const calls = (prefix: string) => server.seen.filter((s) => s.url.startsWith(prefix));

describe('the shop home', () => {
  it('shows featured books, new arrivals and a row per genre', async () => {
    server.on('/api/get_all_books/', (req, res) => {
      const f = Object.fromEntries(new URLSearchParams(req.body));
      const result = f.genre ? [book(`${f.genre}-1`, { genre: f.genre })] : f.sort === 'rating' ? [book('top')] : [book('new')];
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok({ total: result.length, page: 1, page_size: 8, result })));
    });
    server.json('/api/search', 200, ok({ total: 3, page: 1, page_size: 1, result: [], facets: { genre: { Mystery: 2, Poetry: 1 } }, took_ms: 1 }));
    const { container } = await render(routes, '/');
    await waitFor(() => expect(container.textContent).toContain('Title Poetry-1'));
    const headings = [...container.querySelectorAll('.book-section h2')].map((h) => h.textContent);
    expect(headings).toEqual(['Featured', 'New arrivals', 'Mystery', 'Poetry']);
    expect(container.textContent).toContain('Title top');
    expect(container.textContent).toContain('Title new');
    const sorts = calls('/api/get_all_books/').map((s) => new URLSearchParams(s.body).get('sort'));
    expect(sorts).toContain('rating');
    expect(sorts).not.toContain('score');
    expect(container.textContent).toContain('The books readers rate highest');
    expect(sorts).toContain('newest');
  });

  it('shows search results with facets at /?q=', async () => {
    server.json('/api/search', 200, ok({ total: 1, page: 1, page_size: 10, result: [{ ...book('b1'), match_percentage: 75, _score: 2 }], facets: { genre: { Mystery: 1 } }, took_ms: 2 }));
    const { container } = await render(routes, '/?q=harbour&genre=Mystery');
    await waitFor(() => expect(byTestId(container, 'search-summary').textContent).toContain('1 book for “harbour”'));
    expect(container.textContent).toContain('75% match');
    const body = JSON.parse(calls('/api/search').find((s) => JSON.parse(s.body).query === 'harbour')!.body);
    expect(body).toMatchObject({ query: 'harbour', genre: 'Mystery', page: 1, page_size: 10 });
  });
});

describe('admin content', () => {
  it('takes a book down with a reason after confirmation', async () => {
    logIn('admin-1', ['admin'], true);
    server.json('/api/admin/books', 200, ok({ total: 1, page: 1, page_size: 10, result: [book('b1')] }));
    server.json('/api/admin/books/b1/takedown', 200, ok(book('b1', { taken_down: true, listed: false })));
    const { container } = await render(routes, '/admin/content');
    await waitFor(() => byTestId(container, 'admin-book-row'));
    expect(container.textContent).toContain('Content moderation');
    const row = byTestId(container, 'admin-book-row');
    expect(row.textContent).toContain('Listed');
    await click([...row.querySelectorAll('button')].find((b) => b.textContent === 'Take down')!);
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]')!;
    expect(dialog.textContent).toContain('Take down “Title b1”?');
    const reason = dialog.querySelector('textarea')!;
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set?.call(reason, 'copyright claim');
      reason.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await click(byTestId(dialog, 'confirm-moderation'));
    await waitFor(() => expect(calls('/api/admin/books/b1/takedown')).toHaveLength(1));
    expect(JSON.parse(calls('/api/admin/books/b1/takedown')[0].body)).toEqual({ taken_down: true, reason: 'copyright claim' });
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
  });
});

describe('publishers', () => {
  it('draws a publisher’s selection as spines that open the book', async () => {
    server.json('/api/publishers/p1/shelf', 200, ok({ publisher_id: 'p1', publisher_name: 'Harbour House', books: [
      { id: 'b1', title: 'Franklin D. Roosevelt: State of the Union, 1934–1945', coverImage: '', spineImage: '/api/books/b1/spine', author: 'A' },
      { id: 'b2', title: 'Two', coverImage: '', spineImage: '', author: 'B' },
    ] }));
    const { container, router } = await render(routes, '/publisher/book?publisher_id=p1');
    const shelf = await waitFor(() => byTestId(container, 'shelf'));
    expect(container.querySelector('h1')?.textContent).toBe('Harbour House');
    const spines = shelf.querySelectorAll('a.spine');
    expect(spines).toHaveLength(2);
    // The whole title is on the spine (the server's image cropped long ones) and in its tooltip.
    const long = 'Franklin D. Roosevelt: State of the Union, 1934–1945';
    expect(spines[0].getAttribute('aria-label')).toBe(`${long} by A`);
    expect(spines[0].getAttribute('title')).toBe(`${long} by A`);
    expect(spines[0].querySelector('.spine-title')?.textContent).toBe(long);
    expect(spines[0].querySelector('img')).toBeNull();
    expect(spines[1].textContent).toContain('Two');
    await click(spines[1]);
    expect(router.state.location.search).toBe('?book_id=b2');
  });

  it('lets a publisher put a listed book on their shelf with publish_book_status', async () => {
    logIn('pub-1', ['publisher']);
    server.json('/api/publishers', 200, ok([{ publisher_id: 'pub-1', name: 'Mine', book_count: 1 }]));
    server.json('/api/publishers/pub-1/shelf', 200, ok({ publisher_id: 'pub-1', publisher_name: 'Mine', books: [{ id: 'b1', title: 'Title b1', coverImage: '', spineImage: '', author: 'A' }] }));
    server.json('/api/get_all_books/', 200, ok({ total: 2, page: 1, page_size: 10, result: [book('b1'), book('b2')] }));
    server.json('/api/publish_book_status', 200, ok({ user_id: 'pub-1', book_id: 'b2', on: true, listed: true, updated_at: 'now' }));
    const { container } = await render(routes, '/publisher');
    await waitFor(() => expect(container.querySelectorAll('.book-grid [role="switch"]')).toHaveLength(2));
    await waitFor(() => expect(container.querySelector('.book-grid [role="switch"]')!.getAttribute('aria-checked')).toBe('true'));
    const switches = container.querySelectorAll('.book-grid [role="switch"]');
    expect(switches[1].getAttribute('aria-checked')).toBe('false');
    await click(switches[1]);
    await waitFor(() => expect(calls('/api/publish_book_status')).toHaveLength(1));
    expect(calls('/api/publish_book_status')[0].url).toBe('/api/publish_book_status?user_id=pub-1&book_id=b2&on_or_off=on');
  });
});

describe('the library', () => {
  it('asks visitors to log in', async () => {
    const { container } = await render(routes, '/user/books');
    expect(container.textContent).toContain('Log in to see your library');
  });

  it('shows bought books, favourites and a writer’s uploads with their switches', async () => {
    logIn('w-1', ['reader', 'writer']);
    server.json('/api/get_bought_books', 200, ok([book('bought')]));
    server.json('/api/favourites', 200, ok([book('fav')]));
    server.json('/api/get_books', 200, ok([book('mine', { on: false, listed: false })]));
    const { container } = await render(routes, '/user/books');
    await waitFor(() => expect(container.textContent).toContain('Title mine'));
    expect(container.textContent).toContain('Title bought');
    expect(container.textContent).toContain('Title fav');
    expect(calls('/api/get_bought_books')[0].url).toBe('/api/get_bought_books?uid=w-1');
    expect(calls('/api/get_books')[0].url).toBe('/api/get_books?upload_writer_id=w-1');
    expect(container.querySelector('[role="switch"]')?.getAttribute('aria-checked')).toBe('false');
  });
});

describe('phone pages', () => {
  it('opens h5 book pages from the h5 shop', async () => {
    server.json('/api/get_all_books/', 200, ok({ total: 1, page: 1, page_size: 8, result: [book('b1')] }));
    server.json('/api/search', 200, ok({ total: 0, page: 1, page_size: 1, result: [], facets: { genre: {} }, took_ms: 1 }));
    const { container } = await render(routes, '/h5/reader/home');
    await waitFor(() => expect(container.querySelectorAll('[data-testid="book-card"]').length).toBeGreaterThan(0));
    expect(container.querySelector('[data-testid="book-card"] a')?.getAttribute('href')).toBe('/h5/book?book_id=b1');
  });
});
