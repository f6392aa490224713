// The book view against a real local HTTP server, with a txt sample: chapters from the toc,
// locked chapters, the left part shown only while a panel is open, the end-of-sample
// notice, and the debounced progress save.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReaderView } from '@/features/reader';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { useReaderSettings } from '@/stores/reader-settings';
import { useToastStore } from '@/stores/toast';
import { ok, startServer, type TestServer } from './support/http-server';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const BOOK = 'b-txt';
const TEXT = 'The Book\n\nCHAPTER 1. Loomings\n\nCall me Ishmael.\n\nSome years ago.\n\nCHAPTER 2. The Carpet-Bag\n\nI stuffed a shirt.\n';
const off = (s: string) => new TextEncoder().encode(TEXT.slice(0, TEXT.indexOf(s))).length;
const TOC = [
  { index: 0, title: 'CHAPTER 1. Loomings', trial: true, href: `offset=${off('CHAPTER 1.')}` },
  { index: 1, title: 'CHAPTER 2. The Carpet-Bag', trial: true, href: `offset=${off('CHAPTER 2.')}` },
  { index: 2, title: 'CHAPTER 3. The Spouter-Inn', trial: false, href: 'offset=999999' },
];

let server: TestServer;
/** What the content route answers: the sample, or the whole book (bought). */
let access: 'trial' | 'full' = 'trial';
let container: HTMLDivElement;
let root: Root;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('access_token', 'tok');
  localStorage.setItem('userInfo', JSON.stringify({ user_id: 'u1', email: 'a@b.c', username: 'ann', roles: ['reader'], current_role: 'reader' }));
  useAuthStore.getState().hydrate();
  useReaderSettings.getState().reset();
  server.seen.length = 0;
  configureApiClient({ baseUrl: server.baseUrl, notifyError: () => {}, onUnauthorized: () => {} });
  // The book file is fetched from /api/… of the page's origin; send it to the test server.
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    realFetch(typeof input === 'string' && input.startsWith('/api/') ? server.baseUrl.replace(/\/api$/, '') + input : input, init),
  );
  server.json('/api/get_books', 200, ok([{ id: BOOK, book_id: BOOK, title: 'The Book', author: 'Ann', format: 'txt', price: 4.99, genre: 'Fiction', tags: [] }]));
  server.json(`/api/books/${BOOK}/toc`, 200, ok(TOC));
  access = 'trial';
  server.on(`/api/books/${BOOK}/content`, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Quire-Access': access });
    res.end(TEXT);
  });
  server.on(`/api/books/${BOOK}/progress`, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    const body = req.method === 'PUT' ? JSON.parse(req.body) : { position: '', percent: 0 };
    res.end(JSON.stringify(ok({ book_id: BOOK, updated_at: null, ...body })));
  });
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  resetApiClientConfig();
  vi.unstubAllGlobals();
});

async function waitFor(check: () => boolean, ms = 4000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out; page shows: ${container.textContent?.slice(0, 400)}`);
    await act(async () => {
      await new Promise((r) => setTimeout(r, 25));
    });
  }
}

async function render() {
  const router = createMemoryRouter(
    [{ path: '/reader', element: <ReaderView bookId={BOOK} commentsPanel={<p>the comments</p>} chatPanel={(b) => <p>Quinn on {b.title}</p>} /> }],
    { initialEntries: [`/reader?book_id=${BOOK}`] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await act(async () => {
    root.render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} future={{ v7_startTransition: true }} />
      </QueryClientProvider>,
    );
  });
}

const click = async (el: Element | null | undefined) => {
  expect(el).toBeTruthy();
  await act(async () => (el as HTMLElement).click());
};
const tool = (name: string) => container.querySelector(`[role="toolbar"] button[aria-label="${name}"]`);

describe('the book view', () => {
  it('shows the txt sample in chapters, with the chapters past the sample locked', async () => {
    await render();
    await waitFor(() => Boolean(container.querySelector('[data-testid="txt-view"] p')));
    expect(container.querySelector('[data-testid="reader-title"]')?.textContent).toBe('The Book');
    expect([...container.querySelectorAll('.txt-heading')].map((h) => h.textContent)).toEqual(['CHAPTER 1. Loomings', 'CHAPTER 2. The Carpet-Bag']);
    expect(container.textContent).toContain('Free sample');
    await click([...container.querySelectorAll('button')].find((b) => b.textContent?.includes('Chapters')));
    const labels = [...container.querySelectorAll('nav[aria-label="Chapters"] button')].map((b) => b.getAttribute('aria-label'));
    expect(labels).toEqual(['CHAPTER 1. Loomings', 'CHAPTER 2. The Carpet-Bag', 'CHAPTER 3. The Spouter-Inn (locked)']);
    await click(container.querySelector('nav[aria-label="Chapters"] button[aria-label$="(locked)"]'));
    expect(container.querySelector('[data-testid="trial-end"]')?.textContent).toContain('The free sample ends here - buy to continue');
  });

  it('does not split the sample at a chapter it lacks (the end-of-sample line stands there)', async () => {
    server.json(`/api/books/${BOOK}/toc`, 200, ok(TOC.map((t) => (t.index === 1 ? { ...t, trial: false } : t))));
    await render();
    await waitFor(() => Boolean(container.querySelector('[data-testid="txt-view"] p')));
    expect([...container.querySelectorAll('.txt-heading')].map((h) => h.textContent)).toEqual(['CHAPTER 1. Loomings']);
    expect(container.querySelector('[data-testid="txt-view"]')?.textContent).toContain('CHAPTER 2. The Carpet-Bag');
  });

  it('shows the left part only while a panel is open', async () => {
    await render();
    await waitFor(() => Boolean(container.querySelector('[data-testid="txt-view"]')));
    expect(container.querySelector('[data-testid="reader-left"]')).toBeNull();
    await click(tool('Comments'));
    expect(container.querySelector('[data-testid="reader-left"]')?.textContent).toContain('the comments');
    await click(tool('Settings'));
    const left = container.querySelector('[data-testid="reader-left"]');
    expect(left?.getAttribute('aria-label')).toBe('Settings panel');
    expect(left?.textContent).toContain('Calm larger');
    await click(container.querySelector('button[aria-label="Close panel"]'));
    expect(container.querySelector('[data-testid="reader-left"]')).toBeNull();
    await click(tool('Chat'));
    expect(container.querySelector('[data-testid="reader-left"]')?.textContent).toContain('Quinn on The Book');
  });

  it('saves the place to the server after the reader stops moving', async () => {
    await render();
    await waitFor(() => Boolean(container.querySelector('[data-testid="txt-view"] p')));
    // (an earlier test's view may have sent its last place while unmounting)
    await act(async () => new Promise((r) => setTimeout(r, 100)));
    server.seen.length = 0;
    const opened = Date.now();
    await waitFor(() => server.seen.some((s) => s.method === 'PUT'), 5000);
    expect(Date.now() - opened).toBeGreaterThan(1000); // debounced, not sent on every move
    const put = server.seen.filter((s) => s.method === 'PUT');
    expect(put).toHaveLength(1);
    expect(put[0].url).toBe(`/api/books/${BOOK}/progress`);
    const body = JSON.parse(put[0].body);
    expect(body.position).toMatch(/^offset=\d+$/);
    expect(body.percent).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(localStorage.getItem(`readerProgress:${BOOK}`) ?? '{}').position).toBe(body.position);
  });

  it('paints the page dark in the dark theme', async () => {
    await render();
    await waitFor(() => Boolean(container.querySelector('[data-testid="txt-view"] p')));
    const page = () => (container.querySelector('[data-testid="txt-view"]') as HTMLElement).style;
    expect(page().background).toBe('rgb(255, 255, 255)');
    await act(async () => useReaderSettings.getState().setTheme('dark'));
    expect(page().background).toBe('rgb(22, 24, 29)');
    expect(page().color).toBe('rgb(229, 231, 235)');
  });

  it('fills the window where the browser has no full screen, and says so', async () => {
    await render();
    await waitFor(() => Boolean(container.querySelector('[data-testid="txt-view"]')));
    const toggle = container.querySelector('[data-testid="reader-fullscreen"]');
    await click(toggle);
    expect(container.querySelector('[data-testid="reader"]')?.classList.contains('reader-full-window')).toBe(true);
    expect(toggle?.getAttribute('aria-pressed')).toBe('true');
    expect(useToastStore.getState().toasts.map((t) => t.text).join()).toContain('does not allow full screen');
    await click(toggle);
    expect(container.querySelector('[data-testid="reader"]')?.classList.contains('reader-full')).toBe(false);
  });

  it('shows the end page after the last page of a bought book, and saves the reader\'s stars as a rating', async () => {
    access = 'full';
    server.json('/api/get_books', 200, ok([{ id: BOOK, book_id: BOOK, title: 'The Book', author: 'Ann', format: 'txt', price: 4.99, genre: 'Fiction', tags: [], bought: true, entitled: true, rating: { average: 3, count: 2 }, my_rating: null }]));
    server.json('/api/search', 200, ok({ total: 2, page: 1, page_size: 12, result: [{ id: 'b-other', book_id: 'b-other', title: 'Another Book', author: 'Bea' }] }));
    server.on(`/api/books/${BOOK}/rating`, (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const { stars } = JSON.parse(req.body);
      res.end(JSON.stringify(ok({ book_id: BOOK, rating: { average: (6 + stars) / 3, count: 3 }, my_rating: stars })));
    });
    await render();
    await waitFor(() => Boolean(container.querySelector('[data-testid="txt-view"] p')));
    expect(container.querySelector('[data-testid="book-end"]')).toBeNull();
    await click(container.querySelector('button[aria-label="Next page"]'));
    const end = () => container.querySelector('[data-testid="book-end"]');
    expect(end()?.textContent).toContain('You have reached the end');
    expect(end()?.querySelector('[data-testid="rating"]')?.getAttribute('aria-label')).toBe('Rated 3.0 out of 5 by 2 ratings');
    await waitFor(() => Boolean(end()?.querySelector('a[href*="b-other"]')));
    await click(end()?.querySelector('input[aria-label="4 of 5 stars"]'));
    await click([...(end()?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Post rating'));
    await waitFor(() => Boolean(end()?.querySelector('[data-testid="book-end-rated"]')));
    const put = server.seen.find((r) => r.method === 'PUT' && r.url === `/api/books/${BOOK}/rating`);
    expect(JSON.parse(put?.body ?? '{}')).toEqual({ stars: 4 });
    // No words, no comment: the stars are a rating, not a comment.
    expect(server.seen.some((r) => r.method === 'POST' && r.url === `/api/books/${BOOK}/comments`)).toBe(false);
    await click([...(end()?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Back to the last page'));
    expect(end()).toBeNull();
  });

  it('tells a reader who does not own the book that owners rate it', async () => {
    access = 'full';
    server.json('/api/search', 200, ok({ total: 0, page: 1, page_size: 12, result: [] }));
    await render();
    await waitFor(() => Boolean(container.querySelector('[data-testid="txt-view"] p')));
    await click(container.querySelector('button[aria-label="Next page"]'));
    const end = container.querySelector('[data-testid="book-end"]');
    expect(end?.querySelector('[data-testid="book-end-rate-owners"]')?.textContent).toContain('Readers who own this book rate it');
    expect(end?.querySelector('[data-testid="rating"]')?.textContent).toBe('No ratings yet');
    expect(end?.querySelector('input[type="radio"]')).toBeNull();
  });
});
