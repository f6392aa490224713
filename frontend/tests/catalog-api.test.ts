import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  adminListBooks,
  getBook,
  getBooks,
  listBooks,
  publishBookStatus,
  searchBooks,
  setFavourite,
  takedownBook,
  updateBook,
  updateBookForm,
} from '@/features/catalog/api';
import { ApiError, configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useToastStore } from '@/stores/toast';
import { failure, ok, startServer, type TestServer } from './support/http-server';

let server: TestServer;
const toasts = () => useToastStore.getState().toasts.map((t) => t.text);

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('access_token', 'tok');
  useToastStore.setState({ toasts: [] });
  server.seen.length = 0;
  configureApiClient({ baseUrl: server.baseUrl, onUnauthorized: () => {} });
});
afterEach(() => resetApiClientConfig());

const book = (id: string, extra: Record<string, unknown> = {}) => ({ id, book_id: id, title: `Book ${id}`, author: 'A', price: 4.99, ...extra });

describe('get_all_books', () => {
  it('sends the filters form-encoded, lists comma-joined, and reads the paged reply', async () => {
    server.json('/api/get_all_books/', 200, ok({ total: 31, page: 2, page_size: 10, result: [book('b1')] }));
    const page = await listBooks({ genre: 'Science Fiction', tags: ['space', 'first contact'], author: 'Le Guin', price_min: 0, price_max: 9.5, sort: 'price_asc', page: 2 });
    const req = server.seen[0];
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({
      genre: 'Science Fiction',
      tags: 'space,first contact',
      author: 'Le Guin',
      price_min: '0',
      price_max: '9.5',
      sort: 'price_asc',
      page: '2',
      page_size: '10',
    });
    expect(page.total).toBe(31);
    expect(page.result.map((b) => b.id)).toEqual(['b1']);
  });

  it('leaves unset filters out and defaults to the first page of 10', async () => {
    server.json('/api/get_all_books/', 200, ok([book('b1'), book('b2')]));
    const page = await listBooks({});
    expect(server.seen[0].body).toBe('page=1&page_size=10');
    expect(page).toMatchObject({ total: 2, page: 1, page_size: 10 });
  });
});

describe('search', () => {
  it('posts JSON without blank filters and reads facets and match percentages', async () => {
    server.json(
      '/api/search',
      200,
      ok({ total: 1, page: 1, page_size: 5, result: [{ ...book('b1'), _score: 3.2, match_percentage: 80 }], facets: { genre: { Fiction: 1 } }, took_ms: 4 }),
    );
    const reply = await searchBooks({ query: '  dune  ', genre: '', price_max: 20, page_size: 5 });
    expect(server.seen[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.seen[0].body)).toEqual({ query: 'dune', price_max: 20, page: 1, page_size: 5 });
    expect(reply.result[0].match_percentage).toBe(80);
    expect(reply.facets.genre).toEqual({ Fiction: 1 });
    expect(reply.took_ms).toBe(4);
  });
});

describe('get_books', () => {
  it('asks for a writer’s books by params', async () => {
    server.json('/api/get_books', 200, ok([book('b1', { on: false })]));
    const books = await getBooks({ upload_writer_id: 'w-1' });
    expect(server.seen[0].url).toBe('/api/get_books?upload_writer_id=w-1');
    expect(books).toHaveLength(1);
  });

  it('reads one book as the first of the list, and its 404 raises no toast', async () => {
    server.json('/api/get_books', 200, ok([book('b7')]));
    await expect(getBook('b7')).resolves.toMatchObject({ id: 'b7' });
    server.json('/api/get_books', 404, failure(404, { message: 'Book not found', error: 'not_found' }));
    const err = await getBook('nope').catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(404);
    expect(toasts()).toEqual([]);
  });
});

describe('update_book', () => {
  it('sends multipart with uid, book_id and tags and authors joined by commas', async () => {
    server.json('/api/update_book/', 200, ok(book('b1', { title: 'New' })));
    await updateBook('u-1', 'b1', { title: 'New', tags: ['dark fantasy', ' magic ', ''], authors: ['Ann', 'Bo'], price: 2.5 });
    const req = server.seen[0];
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const field = (name: string) => new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)\\r\\n`).exec(req.body)?.[1];
    expect(field('uid')).toBe('u-1');
    expect(field('book_id')).toBe('b1');
    expect(field('title')).toBe('New');
    expect(field('tags')).toBe('dark fantasy,magic');
    expect(field('authors')).toBe('Ann,Bo');
    expect(field('price')).toBe('2.5');
    expect(req.body).not.toContain('name="genre"');
  });

  it('puts a new cover in as a file part', () => {
    const cover = new File(['<svg/>'], 'cover.svg', { type: 'image/svg+xml' });
    const form = updateBookForm('u-1', 'b1', { cover });
    const part = form.get('cover') as File;
    expect(part.name).toBe('cover.svg');
    expect([...form.keys()]).toEqual(['uid', 'book_id', 'cover']);
  });
});

describe('publish_book_status', () => {
  it('sends user_id, book_id and on_or_off as params', async () => {
    server.json('/api/publish_book_status', 200, ok({ user_id: 'u-1', book_id: 'b1', on: false, listed: false, updated_at: 'x' }));
    const status = await publishBookStatus('u-1', 'b1', false);
    await publishBookStatus('u-1', 'b1', true);
    expect(server.seen[0].method).toBe('POST');
    expect(server.seen[0].url).toBe('/api/publish_book_status?user_id=u-1&book_id=b1&on_or_off=off');
    expect(server.seen[0].body).toBe('');
    expect(server.seen[1].url).toBe('/api/publish_book_status?user_id=u-1&book_id=b1&on_or_off=on');
    expect(status.listed).toBe(false);
  });
});

describe('favourites, admin and settings', () => {
  it('adds with POST and removes with DELETE', async () => {
    server.json('/api/favourites/b1', 200, ok({ book_id: 'b1', favourite: true }));
    await setFavourite('b1', true);
    await setFavourite('b1', false);
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /api/favourites/b1', 'DELETE /api/favourites/b1']);
  });

  it('pages the admin list and posts a take-down with its reason', async () => {
    server.json('/api/admin/books', 200, ok({ total: 0, page: 3, page_size: 10, result: [] }));
    server.json('/api/admin/books/b1/takedown', 200, ok(book('b1', { taken_down: true })));
    await adminListBooks('  dune ', 3);
    await takedownBook('b1', { taken_down: true, reason: ' copyright ' });
    await takedownBook('b1', { taken_down: false, reason: '  ' });
    expect(server.seen[0].url).toBe('/api/admin/books?query=dune&page=3&page_size=10');
    expect(JSON.parse(server.seen[1].body)).toEqual({ taken_down: true, reason: 'copyright' });
    expect(JSON.parse(server.seen[2].body)).toEqual({ taken_down: false });
  });
});
