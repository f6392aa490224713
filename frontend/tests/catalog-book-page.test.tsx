import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '@/app/router';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { useToastStore } from '@/stores/toast';
import { byTestId, cleanup, click, render, typeInto, waitFor } from './support/catalog-dom';
import { failure, ok, startServer, type TestServer } from './support/http-server';

let server: TestServer;

const BOOK = {
  id: 'b1',
  book_id: 'b1',
  title: 'The Quiet Harbour',
  author: 'Mara Ellis',
  authors: ['Mara Ellis'],
  cover_image: '/api/books/b1/cover',
  price: 4.99,
  price_cents: 499,
  short_summary: 'A lighthouse keeper and a letter.',
  long_summary: 'First part.\n\nSecond part.',
  tags: ['sea', 'letters'],
  genre: 'Literary Fiction',
  assessment_score: null,
  rating: { average: 4, count: 3 },
  my_rating: null,
  upload_writer_id: 'writer-1',
  format: 'epub',
  on: true,
  taken_down: false,
  listed: true,
  entitled: false,
  bought: false,
  favourite: false,
};

function logIn(userId: string) {
  localStorage.setItem('access_token', 'tok');
  localStorage.setItem('userInfo', JSON.stringify({ user_id: userId, username: 'u', roles: ['reader', 'writer'], current_role: 'reader' }));
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
  server.json('/api/get_books', 200, ok([BOOK]));
  server.json('/api/books/b1/toc', 200, ok([
    { index: 0, title: 'Landfall', trial: true, href: 'c1.xhtml' },
    { index: 1, title: 'The Keeper', trial: false, href: 'c2.xhtml' },
  ]));
  server.json('/api/books/b1/comments', 200, ok({ total: 0, page: 1, page_size: 10, result: [] }));
  server.json('/api/get_all_books/', 200, ok({ total: 2, page: 1, page_size: 9, result: [BOOK, { ...BOOK, id: 'b2', book_id: 'b2', title: 'Salt Wind' }] }));
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
});

const open = async () => {
  const r = await render(routes, '/book?book_id=b1');
  await waitFor(() => byTestId(r.container, 'book-detail'));
  return r;
};

describe('the book page', () => {
  it('shows the book, its chapters with the trial marks and a free sample button', async () => {
    const { container } = await open();
    expect(container.querySelector('h1')?.textContent).toBe('The Quiet Harbour');
    expect(container.textContent).toContain('by Mara Ellis');
    expect(container.textContent).toContain('$4.99');
    expect(container.textContent).toContain('#sea');
    await waitFor(() => expect(byTestId(container, 'toc').querySelectorAll('li')).toHaveLength(2));
    expect(byTestId(container, 'toc').textContent).toContain('Free sample');
    expect(byTestId(container, 'read-button').textContent).toBe('Read free sample');
    expect(byTestId(container, 'read-button').getAttribute('href')).toBe('/reader?book_id=b1');
    expect(container.querySelector('[data-testid="writer-panel"]')).toBeNull();
    // more of the genre, without the book itself
    await waitFor(() => expect(container.textContent).toContain('More in Literary Fiction'));
    // the heading shows while the list loads: wait for the cards themselves
    const cards = () => [...container.querySelectorAll('.book-section [data-testid="book-card"]')].map((c) => c.textContent);
    await waitFor(() => expect(cards().length).toBeGreaterThan(0));
    const more = cards();
    expect(more).toHaveLength(1);
    expect(more[0]).toContain('Salt Wind');
    const form = new URLSearchParams(server.seen.find((s) => s.url === '/api/get_all_books/')!.body);
    expect(form.get('genre')).toBe('Literary Fiction');
  });

  it('sends visitors who want to buy to the login, with the way back', async () => {
    const { container } = await open();
    expect(byTestId(container, 'buy-button').getAttribute('href')).toBe('/login?redirect=%2Fbook%3Fbook_id%3Db1');
  });

  it('offers Read to those entitled', async () => {
    logIn('reader-7');
    server.json('/api/get_books', 200, ok([{ ...BOOK, entitled: true, bought: true }]));
    const { container } = await open();
    expect(byTestId(container, 'read-button').textContent).toBe('Read');
    expect(byTestId(container, 'owned-badge').textContent).toBe('You own this book');
    expect(container.querySelector('[data-testid="buy-button"]')).toBeNull();
  });

  it('shows the readers\' stars, not the analysis\'s score, and lets an owner rate the book', async () => {
    const { container } = await open();
    expect(byTestId(container, 'rating').getAttribute('aria-label')).toBe('Rated 4.0 out of 5 by 3 ratings');
    expect(container.querySelector('[data-testid="rate-book"]')).toBeNull();
    cleanup();

    logIn('reader-7');
    server.json('/api/get_books', 200, ok([{ ...BOOK, entitled: true, bought: true }]));
    server.on('/api/books/b1/rating', (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok({ book_id: 'b1', rating: { average: 4.25, count: 4 }, my_rating: JSON.parse(req.body).stars })));
    });
    const owner = await open();
    const rate = byTestId(owner.container, 'rate-book');
    expect(rate.textContent).toContain('Rate this book');
    server.json('/api/get_books', 200, ok([{ ...BOOK, entitled: true, bought: true, rating: { average: 4.25, count: 4 }, my_rating: 5 }]));
    await click(rate.querySelector('input[aria-label="5 of 5 stars"]')!);
    await waitFor(() => expect(server.seen.some((s) => s.method === 'PUT' && s.url === '/api/books/b1/rating')).toBe(true));
    expect(JSON.parse(server.seen.find((s) => s.method === 'PUT')!.body)).toEqual({ stars: 5 });
    // The page is fetched again and shows the new average.
    await waitFor(() => expect(byTestId(owner.container, 'rating').getAttribute('aria-label')).toBe('Rated 4.3 out of 5 by 4 ratings'));
    expect(byTestId(owner.container, 'rate-book').textContent).toContain('Your rating');
  });

  it('shows the writer the analysis\'s quality score as theirs alone', async () => {
    logIn('writer-1');
    server.json('/api/get_books', 200, ok([{ ...BOOK, assessment_score: 79 }]));
    const { container } = await open();
    expect(byTestId(container, 'writer-quality').textContent).toContain('79 / 100 (only you see it');
  });

  it('gives the writer the on/off switch (publish_book_status) and the editor', async () => {
    logIn('writer-1');
    server.json('/api/publish_book_status', 200, ok({ user_id: 'writer-1', book_id: 'b1', on: false, listed: false, updated_at: 'now' }));
    const { container } = await open();
    const panel = byTestId(container, 'writer-panel');
    const toggle = panel.querySelector<HTMLButtonElement>('[role="switch"]')!;
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    await click(toggle);
    await waitFor(() => expect(server.seen.some((s) => s.url.startsWith('/api/publish_book_status'))).toBe(true));
    const call = server.seen.find((s) => s.url.startsWith('/api/publish_book_status'))!;
    expect(call.method).toBe('POST');
    expect(call.url).toBe('/api/publish_book_status?user_id=writer-1&book_id=b1&on_or_off=off');

    const edit = [...panel.querySelectorAll('button')].find((b) => b.textContent === 'Edit details')!;
    await click(edit);
    const form = container.querySelector('form[aria-label="Edit book"]')!;
    const tags = [...form.querySelectorAll('input')].find((i) => i.name === 'tags')!;
    expect(tags.value).toBe('sea, letters');

    // only what changed goes to update_book, the tags joined by commas
    server.json('/api/update_book/', 200, ok({ ...BOOK, tags: ['sea', 'storms', 'letters'], price: 6 }));
    const price = [...form.querySelectorAll('input')].find((i) => i.name === 'price')!;
    typeInto(tags, 'sea,  storms , letters, sea');
    typeInto(price, '6');
    await act(async () => {
      form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    const update = await waitFor(() => server.seen.find((s) => s.url === '/api/update_book/')!);
    const field = (name: string) => new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)\\r\\n`).exec(update.body)?.[1];
    expect(field('uid')).toBe('writer-1');
    expect(field('book_id')).toBe('b1');
    expect(field('tags')).toBe('sea,storms,letters');
    expect(field('price')).toBe('6');
    expect(update.body).not.toContain('name="title"');
    expect(update.body).not.toContain('name="long_summary"');
  });

  it('refuses a price with three decimals before asking the server', async () => {
    logIn('writer-1');
    const { container } = await open();
    await click([...byTestId(container, 'writer-panel').querySelectorAll('button')].find((b) => b.textContent === 'Edit details')!);
    const form = container.querySelector('form[aria-label="Edit book"]')!;
    typeInto([...form.querySelectorAll('input')].find((i) => i.name === 'price')!, '4.999');
    await act(async () => {
      form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    expect(form.textContent).toContain('Use at most 2 decimal places');
    expect(server.seen.some((s) => s.url === '/api/update_book/')).toBe(false);
  });

  it('says when the book is not in the shop', async () => {
    server.json('/api/get_books', 404, failure(404, { message: 'Book not found', error: 'not_found' }));
    const r = await render(routes, '/book?book_id=b1');
    await waitFor(() => expect(r.container.textContent).toContain('This book is not in the shop'));
  });
});
