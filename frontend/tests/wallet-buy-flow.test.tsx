// Buying a book, through the real routes and a real local HTTP server: from the book page
// (enough money, too little, a 402 from the server, a refusal, a lost answer retried with
// the same key, already owned) and from the end of a sample in the reader, which then shows
// the whole book.
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/app/router';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { useReaderSettings } from '@/stores/reader-settings';
import { useToastStore } from '@/stores/toast';
import { byTestId, cleanup, click, render, waitFor } from './support/catalog-dom';
import { failure, ok, startServer, type TestServer } from './support/http-server';

let server: TestServer;
const toasts = () => useToastStore.getState().toasts.map((t) => t.text);
const realFetch = globalThis.fetch;

const BOOK = {
  id: 'b1',
  book_id: 'b1',
  title: 'The Quiet Harbour',
  author: 'Mara Ellis',
  authors: ['Mara Ellis'],
  price: 4.99,
  genre: 'Literary Fiction',
  tags: [],
  upload_writer_id: 'writer-1',
  format: 'epub',
  on: true,
  taken_down: false,
  listed: true,
  entitled: false,
  bought: false,
  favourite: false,
};

const wallet = (balance: number) => ({
  user_id: 'reader-7',
  balance,
  currency: 'USD',
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-22T10:00:00Z',
  recharged: balance,
  earned: 0,
  spent: 0,
});

const trade = (extra: Record<string, unknown> = {}) => ({
  trade_id: 'tr-1',
  buyer_uid: 'reader-7',
  book_id: 'b1',
  seller_uid: 'writer-1',
  title: 'The Quiet Harbour',
  price: 4.99,
  seller_amount: 4.49,
  platform_amount: 0.5,
  created_at: '2026-11-22T10:00:00Z',
  replayed: false,
  ...extra,
});

function logIn() {
  localStorage.setItem('access_token', 'tok');
  localStorage.setItem('userInfo', JSON.stringify({ user_id: 'reader-7', username: 'ruth', roles: ['reader'], current_role: 'reader' }));
  useAuthStore.getState().hydrate();
}

/** The book is owned once a trade went through. */
let owned = false;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  owned = false;
  localStorage.clear();
  useAuthStore.getState().hydrate();
  useReaderSettings.getState().reset();
  useToastStore.setState({ toasts: [] });
  server.seen.length = 0;
  configureApiClient({ baseUrl: server.baseUrl, onUnauthorized: () => {} });
  server.on('/api/get_books', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(ok([{ ...BOOK, entitled: owned, bought: owned }])));
  });
  server.json('/api/books/b1/toc', 200, ok([{ index: 0, title: 'Landfall', trial: true, href: 'c1.xhtml' }]));
  server.json('/api/books/b1/comments', 200, ok({ total: 0, page: 1, page_size: 10, result: [] }));
  server.json('/api/get_all_books/', 200, ok({ total: 0, page: 1, page_size: 9, result: [] }));
  server.json('/api/wallet/info', 200, ok({ wallet: wallet(20) }));
  server.json('/api/top_up_records', 200, ok({ total: 0, page: 1, page_size: 5, result: [] }));
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
  vi.unstubAllGlobals();
});

const trades = () => server.seen.filter((s) => s.url.startsWith('/api/trade'));
const dialog = () => document.body.querySelector<HTMLElement>('[data-testid="buy-dialog"]');
const inDialog = (id: string) => byTestId(dialog() ?? document.body, id);

async function openBookAndBuy() {
  const r = await render(routes, '/book?book_id=b1');
  await waitFor(() => byTestId(r.container, 'book-detail'));
  const buy = byTestId(r.container, 'buy-button');
  expect(buy.textContent).toBe('Buy for $4.99');
  await click(buy);
  await waitFor(() => expect(dialog()).not.toBeNull());
  return r;
}

describe('buying from the book page', () => {
  it('sends a visitor to the login with the way back', async () => {
    const { container } = await render(routes, '/book?book_id=b1');
    const buy = await waitFor(() => byTestId(container, 'buy-button'));
    expect(buy.tagName).toBe('A');
    expect(buy.getAttribute('href')).toBe('/login?redirect=%2Fbook%3Fbook_id%3Db1');
  });

  it('confirms with the price and the balance, buys with an Idempotency-Key, and the book is owned', async () => {
    logIn();
    server.on('/api/trade', (_req, res) => {
      owned = true;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok(trade())));
    });
    const { container } = await openBookAndBuy();
    expect(inDialog('buy-price').textContent).toBe('$4.99');
    await waitFor(() => expect(inDialog('buy-balance').textContent).toBe('$20.00'));
    expect(dialog()!.textContent).toContain('After buying$15.01');
    expect(trades()).toHaveLength(0); // nothing is bought before the confirmation

    await click(inDialog('buy-confirm'));
    await waitFor(() => expect(byTestId(container, 'owned-badge').textContent).toBe('You own this book'));
    expect(byTestId(container, 'read-button').textContent).toBe('Read');
    expect(container.querySelector('[data-testid="buy-button"]')).toBeNull();
    expect(dialog()).toBeNull();
    expect(toasts()).toContain('“The Quiet Harbour” is yours');
    const [call] = trades();
    expect(call.method).toBe('GET');
    expect(call.url).toBe('/api/trade?buyer_uid=reader-7&book_id=b1');
    expect(call.headers.authorization).toBe('Bearer tok');
    expect(call.headers['idempotency-key']).toMatch(/^[0-9a-f-]{32,36}$/);
    // the book was asked for again (entitled now), and the balance
    expect(server.seen.filter((s) => s.url.startsWith('/api/get_books')).length).toBeGreaterThanOrEqual(2);
    expect(server.seen.filter((s) => s.url === '/api/wallet/info').length).toBeGreaterThanOrEqual(2);
  });

  it('says when the balance is too small and offers a recharge that comes back here', async () => {
    logIn();
    server.json('/api/wallet/info', 200, ok({ wallet: wallet(1.5) }));
    await openBookAndBuy();
    const short = await waitFor(() => inDialog('buy-short'));
    expect(short.textContent).toContain('Not enough money in your wallet');
    expect(short.textContent).toContain('You need $3.49 more');
    const recharge = inDialog('buy-recharge');
    expect(recharge.textContent).toBe('Recharge');
    expect(recharge.getAttribute('href')).toBe('/user/recharge?amount=5&redirect=%2Fbook%3Fbook_id%3Db1');
    expect(dialog()!.querySelector('[data-testid="buy-confirm"]')).toBeNull();
    await click(recharge);
    await waitFor(() => expect(document.body.textContent).toContain('Recharge your wallet'));
    expect(trades()).toHaveLength(0);
  });

  it('turns a 402 from the server into the recharge offer, without an error toast', async () => {
    logIn();
    server.json('/api/trade', 402, failure(402, { message: 'Insufficient balance', error: 'insufficient_funds', reason: 'Insufficient balance' }));
    await openBookAndBuy();
    await waitFor(() => expect(inDialog('buy-balance').textContent).toBe('$20.00'));
    server.json('/api/wallet/info', 200, ok({ wallet: wallet(2) })); // spent elsewhere meanwhile
    await click(inDialog('buy-confirm'));
    const short = await waitFor(() => inDialog('buy-short'));
    await waitFor(() => expect(short.textContent).toContain('You need $2.99 more'));
    expect(inDialog('buy-recharge').getAttribute('href')).toBe('/user/recharge?amount=5&redirect=%2Fbook%3Fbook_id%3Db1');
    expect(toasts()).toEqual([]);
  });

  it('says why a purchase is refused (409)', async () => {
    logIn();
    server.json('/api/trade', 409, failure(409, { message: 'You cannot buy your own book', error: 'own_book', reason: 'You cannot buy your own book' }));
    await openBookAndBuy();
    await waitFor(() => expect(inDialog('buy-balance').textContent).toBe('$20.00'));
    await click(inDialog('buy-confirm'));
    const error = await waitFor(() => inDialog('buy-error'));
    expect(error.textContent).toBe('You cannot buy your own book');
    expect(dialog()!.querySelector('[data-testid="buy-confirm"]')).toBeNull();
    expect(toasts()).toEqual([]);
  });

  it('retries a purchase whose answer was lost with the same Idempotency-Key', async () => {
    logIn();
    let calls = 0;
    server.on('/api/trade', (_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.destroy();
        return;
      }
      owned = true;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok(trade({ replayed: true }))));
    });
    const { container } = await openBookAndBuy();
    await waitFor(() => expect(inDialog('buy-balance').textContent).toBe('$20.00'));
    await click(inDialog('buy-confirm'));
    const error = await waitFor(() => inDialog('buy-error'));
    expect(error.textContent).toContain('Trying again is safe');
    const retry = inDialog('buy-confirm');
    expect(retry.textContent).toBe('Try again');
    await click(retry);
    await waitFor(() => byTestId(container, 'owned-badge'));
    const [first, second] = trades();
    expect(second.headers['idempotency-key']).toBe(first.headers['idempotency-key']);
    expect(toasts()).toContain('You already own “The Quiet Harbour”; nothing was charged');
  });

  it('closes the confirmation on Escape or Cancel without buying', async () => {
    logIn();
    const { container } = await openBookAndBuy();
    await waitFor(() => expect(inDialog('buy-balance').textContent).toBe('$20.00'));
    expect(dialog()!.contains(document.activeElement)).toBe(true);
    await act(async () => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    });
    expect(dialog()).toBeNull();
    // focus goes back to where it was (a browser focuses the clicked button; jsdom does not)
    byTestId(container, 'buy-button').focus();
    await click(byTestId(container, 'buy-button'));
    await act(async () => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    });
    expect(document.activeElement).toBe(byTestId(container, 'buy-button'));
    await click(byTestId(container, 'buy-button'));
    await click([...dialog()!.querySelectorAll('button')].find((b) => b.textContent === 'Cancel')!);
    expect(dialog()).toBeNull();
    expect(trades()).toHaveLength(0);
  });

  it('offers Read, not Buy, for a book already owned', async () => {
    logIn();
    owned = true;
    const { container } = await render(routes, '/book?book_id=b1');
    await waitFor(() => byTestId(container, 'owned-badge'));
    expect(container.querySelector('[data-testid="buy-button"]')).toBeNull();
  });
});

describe('buying at the end of a sample', () => {
  const BOOK_ID = 'b-txt';
  const SAMPLE = 'The Book\n\nCHAPTER 1. Loomings\n\nCall me Ishmael.\n\nCHAPTER 2. The Carpet-Bag\n\nI stuffed a shirt.\n';
  const WHOLE = `${SAMPLE}\nCHAPTER 3. The Spouter-Inn\n\nEntering that gable-ended Spouter-Inn.\n`;
  const off = (s: string) => new TextEncoder().encode(WHOLE.slice(0, WHOLE.indexOf(s))).length;
  const TOC = [
    { index: 0, title: 'CHAPTER 1. Loomings', trial: true, href: `offset=${off('CHAPTER 1.')}` },
    { index: 1, title: 'CHAPTER 2. The Carpet-Bag', trial: true, href: `offset=${off('CHAPTER 2.')}` },
    { index: 2, title: 'CHAPTER 3. The Spouter-Inn', trial: false, href: `offset=${off('CHAPTER 3.')}` },
  ];

  beforeEach(() => {
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      realFetch(typeof input === 'string' && input.startsWith('/api/') ? server.baseUrl.replace(/\/api$/, '') + input : input, init),
    );
    server.on('/api/get_books', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok([{ id: BOOK_ID, book_id: BOOK_ID, title: 'The Book', author: 'Ann', format: 'txt', price: 3.99, genre: 'Fiction', tags: [], entitled: owned, bought: owned }])));
    });
    server.json(`/api/books/${BOOK_ID}/toc`, 200, ok(TOC));
    server.on(`/api/books/${BOOK_ID}/content`, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Quire-Access': owned ? 'full' : 'trial' });
      res.end(owned ? WHOLE : SAMPLE);
    });
    server.json(`/api/books/${BOOK_ID}/progress`, 200, ok({ book_id: BOOK_ID, position: '', percent: 0, updated_at: null }));
    server.on('/api/trade', (_req, res) => {
      owned = true;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok(trade({ book_id: BOOK_ID, title: 'The Book', price: 3.99 }))));
    });
  });

  it('buys from the notice, and the reader shows the whole book without the notice', async () => {
    logIn();
    const { container } = await render(routes, `/reader?book_id=${BOOK_ID}`);
    await waitFor(() => expect(container.querySelector('[data-testid="txt-view"] p')).not.toBeNull(), 5000);
    expect(container.textContent).toContain('Free sample');
    const chapters = () => [...container.querySelectorAll('button')].find((b) => b.textContent?.includes('Chapters'))!;
    await click(chapters());
    await click(container.querySelector('nav[aria-label="Chapters"] button[aria-label$="(locked)"]')!);
    const notice = byTestId(container, 'trial-end');
    expect(notice.textContent).toContain('The free sample ends here - buy to continue');
    const buy = byTestId(notice, 'buy-button');
    expect(buy.textContent).toBe('Buy for $3.99');
    await click(buy);
    await waitFor(() => expect(inDialog('buy-balance').textContent).toBe('$20.00'));
    await click(inDialog('buy-confirm'));

    await waitFor(() => expect(container.querySelector('[data-testid="trial-end"]')).toBeNull());
    await waitFor(() => expect([...container.querySelectorAll('.txt-heading')].map((h) => h.textContent)).toContain('CHAPTER 3. The Spouter-Inn'));
    expect(container.querySelector('.reader-sample-badge')).toBeNull();
    expect(byTestId(container, 'reader-percent').textContent).not.toContain('of the sample');
    await click(chapters());
    const labels = [...container.querySelectorAll('nav[aria-label="Chapters"] button')].map((b) => b.getAttribute('aria-label'));
    expect(labels).toEqual(['CHAPTER 1. Loomings', 'CHAPTER 2. The Carpet-Bag', 'CHAPTER 3. The Spouter-Inn']);
    await click(container.querySelector('nav[aria-label="Chapters"] button[aria-label="CHAPTER 3. The Spouter-Inn"]')!);
    expect(container.querySelector('[data-testid="trial-end"]')).toBeNull();
    expect(toasts()).toContain('“The Book” is yours');
    expect(trades()[0].url).toBe(`/api/trade?buyer_uid=reader-7&book_id=${BOOK_ID}`);
  });

  it('sends a visitor from the notice to the login and back to the reader', async () => {
    const { container } = await render(routes, `/reader?book_id=${BOOK_ID}`);
    await waitFor(() => expect(container.querySelector('[data-testid="txt-view"] p')).not.toBeNull(), 5000);
    await click([...container.querySelectorAll('button')].find((b) => b.textContent?.includes('Chapters'))!);
    await click(container.querySelector('nav[aria-label="Chapters"] button[aria-label$="(locked)"]')!);
    const buy = byTestId(byTestId(container, 'trial-end'), 'buy-button');
    expect(buy.getAttribute('href')).toBe(`/login?redirect=${encodeURIComponent(`/reader?book_id=${BOOK_ID}`)}`);
  });
});
