// The reader's calls against a real local HTTP server: paths, methods, bodies, the bearer
// token, and the book file read as bytes with its X-Quire-Access header.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addBookmark, deleteBookmark, fetchBookContent, getBook, getBookmarks, getProgress, saveProgress } from '@/features/reader/api';
import { bookmarkTitle } from '@/features/reader/components/BookmarksPanel';
import { ApiError, configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { failure, ok, startServer, type TestServer } from './support/http-server';

let server: TestServer;
const BOOK = '0b6f5d0e-3a36-4a55-9a63-2b7f1c0a9e11';

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('access_token', 'tok-1');
  server.seen.length = 0;
  configureApiClient({ baseUrl: server.baseUrl, notifyError: () => {}, onUnauthorized: () => {} });
});
afterEach(() => resetApiClientConfig());

const bookmark = { id: 'bm1', book_id: BOOK, cfi: 'epubcfi(/6/8!/4/2/1:0)', title: 'Loomings · 12%', timestamp: '2026-11-22T12:00:00Z' };

describe('bookmarks', () => {
  it('lists them with GET /api/books/{id}/bookmarks', async () => {
    server.json(`/api/books/${BOOK}/bookmarks`, 200, ok([bookmark]));
    await expect(getBookmarks(BOOK)).resolves.toEqual([bookmark]);
    expect(server.seen[0]).toMatchObject({ method: 'GET', url: `/api/books/${BOOK}/bookmarks` });
    expect(server.seen[0].headers.authorization).toBe('Bearer tok-1');
  });

  it('adds one with POST {cfi, title}', async () => {
    server.json(`/api/books/${BOOK}/bookmarks`, 200, ok(bookmark));
    await expect(addBookmark(BOOK, { cfi: bookmark.cfi, title: bookmark.title })).resolves.toEqual(bookmark);
    expect(server.seen[0].method).toBe('POST');
    expect(server.seen[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.seen[0].body)).toEqual({ cfi: bookmark.cfi, title: bookmark.title });
  });

  it('deletes one with DELETE /api/bookmarks/{id}', async () => {
    server.json('/api/bookmarks/bm1', 200, ok({ deleted: true }));
    await expect(deleteBookmark('bm1')).resolves.toEqual({ deleted: true });
    expect(server.seen[0]).toMatchObject({ method: 'DELETE', url: '/api/bookmarks/bm1' });
  });

  it('titles a bookmark with the chapter and percent', () => {
    expect(bookmarkTitle({ position: 'page=3', percent: 12.4, label: 'Loomings' })).toBe('Loomings · 12%');
    expect(bookmarkTitle({ position: 'page=3', percent: 50 })).toBe('Bookmark · 50%');
  });
});

describe('progress', () => {
  it('saves with PUT {position, percent} and reads it back with GET', async () => {
    const reply = { book_id: BOOK, position: 'page=3', percent: 30, updated_at: '2026-11-22T12:00:00Z' };
    server.on(`/api/books/${BOOK}/progress`, (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok(req.method === 'PUT' ? { ...reply, ...JSON.parse(req.body) } : reply)));
    });
    await saveProgress(BOOK, { position: 'page=3', percent: 30 });
    expect(server.seen[0].method).toBe('PUT');
    expect(JSON.parse(server.seen[0].body)).toEqual({ position: 'page=3', percent: 30 });
    await expect(getProgress(BOOK)).resolves.toEqual(reply);
  });
});

describe('the book', () => {
  it('reads the first item of get_books?book_id=', async () => {
    server.json('/api/get_books', 200, ok([{ id: BOOK, book_id: BOOK, title: 'Moby-Dick' }]));
    await expect(getBook(BOOK)).resolves.toMatchObject({ title: 'Moby-Dick' });
    expect(server.seen[0].url).toBe(`/api/get_books?book_id=${BOOK}`);
  });

  it('is a 404 when the list is empty or the server says so', async () => {
    server.json('/api/get_books', 200, ok([]));
    await expect(getBook(BOOK)).rejects.toMatchObject({ status: 404 });
    server.json('/api/get_books', 404, failure(404, { message: 'book not found' }));
    await expect(getBook(BOOK)).rejects.toMatchObject({ status: 404 });
  });
});

describe('the book file', () => {
  it('comes as bytes with the bearer token, the access and the type', async () => {
    server.on(`/api/books/${BOOK}/content`, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Quire-Access': 'trial' });
      res.end('Call me Ishmael.');
    });
    const content = await fetchBookContent(BOOK, { baseUrl: server.baseUrl });
    expect(new TextDecoder().decode(content.data)).toBe('Call me Ishmael.');
    expect(content.access).toBe('trial');
    expect(content.contentType).toContain('text/plain');
    expect(server.seen[0].headers.authorization).toBe('Bearer tok-1');
  });

  it('is full when the header says so', async () => {
    server.on(`/api/books/${BOOK}/content`, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/pdf', 'X-Quire-Access': 'full' });
      res.end('%PDF-1.4');
    });
    localStorage.clear();
    const content = await fetchBookContent(BOOK, { baseUrl: server.baseUrl });
    expect(content.access).toBe('full');
    expect(server.seen[0].headers.authorization).toBeUndefined();
  });

  it('turns an envelope failure into an ApiError with its status (422 unreadable)', async () => {
    server.json(`/api/books/${BOOK}/content`, 422, failure(422, { message: 'the epub is unreadable' }));
    const error = await fetchBookContent(BOOK, { baseUrl: server.baseUrl }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, message: 'the epub is unreadable' });
  });
});
