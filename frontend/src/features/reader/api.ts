// Calls of the reading routes. JSON goes through the api client; the book file is the one
// reply that is not an envelope, so it is fetched here as bytes with the same bearer token.
import { api, ApiError, describeFailure } from '@/lib/api-client';
import { readItem, STORAGE_KEYS } from '@/lib/storage';
import type {
  Access,
  Book,
  BookContent,
  Bookmark,
  HistoryEntry,
  Progress,
  SearchReply,
  TocEntry,
} from './types';

const enc = encodeURIComponent;

export async function getBook(bookId: string): Promise<Book> {
  const list = await api.get<Book[]>('/get_books', { params: { book_id: bookId }, ignoreErrors: true });
  const book = Array.isArray(list) ? list[0] : undefined;
  if (!book) throw new ApiError('This book is not on our shelves', { status: 404, kind: 'http', silent: true });
  return book;
}

export const getToc = (bookId: string) => api.get<TocEntry[]>(`/books/${enc(bookId)}/toc`, { ignoreErrors: true });

export const getBookmarks = (bookId: string) => api.get<Bookmark[]>(`/books/${enc(bookId)}/bookmarks`);

export const addBookmark = (bookId: string, input: { cfi: string; title: string }) =>
  api.post<Bookmark>(`/books/${enc(bookId)}/bookmarks`, { json: input });

export const deleteBookmark = (bookmarkId: string) => api.delete<{ deleted: boolean }>(`/bookmarks/${enc(bookmarkId)}`);

export const getProgress = (bookId: string) =>
  api.get<Progress>(`/books/${enc(bookId)}/progress`, { ignoreErrors: true });

export const saveProgress = (bookId: string, input: { position: string; percent: number }) =>
  api.put<Progress>(`/books/${enc(bookId)}/progress`, { json: input });

/** A comment on the book (the end-of-book words, see rating.ts). */
export const postComment = (bookId: string, content: string) =>
  api.post<{ id: string }>(`/books/${enc(bookId)}/comments`, { json: { content } });

export const getHistory = (limit = 50) =>
  api.get<HistoryEntry[]>('/history', { params: { limit }, ignoreErrors: true });

export const getFavourites = () => api.get<Book[]>('/favourites', { ignoreErrors: true });

export const getBoughtBooks = (uid: string) => api.get<Book[]>('/get_bought_books', { params: { uid }, ignoreErrors: true });

export const searchByGenre = (genre: string, pageSize = 12) =>
  api.post<SearchReply>('/search', { json: { query: '', genre, page: 1, page_size: pageSize }, ignoreErrors: true });

/** The reply of a failed api call with ignoreErrors still resolves; this spots it. */
export function isFailedEnvelope(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { success?: unknown }).success === false;
}

export interface ContentOptions {
  baseUrl?: string;
  signal?: AbortSignal;
}

/** GET /api/books/{id}/content as bytes; X-Quire-Access tells whole file from sample. */
export async function fetchBookContent(bookId: string, opts: ContentOptions = {}): Promise<BookContent> {
  const base = (opts.baseUrl ?? '/api').replace(/\/$/, '');
  const headers: Record<string, string> = {};
  const token = readItem(STORAGE_KEYS.accessToken);
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(`${base}/books/${enc(bookId)}/content`, { headers, signal: opts.signal });
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ApiError(`Network error: ${reason}`, { status: 0, kind: 'network' });
  }
  if (!res.ok) {
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      body = null;
    }
    const { message } = describeFailure(body, `Request failed with status ${res.status}`);
    throw new ApiError(message, { status: res.status, kind: 'http', body, silent: true });
  }
  const access: Access = (res.headers.get('X-Quire-Access') ?? '').toLowerCase() === 'full' ? 'full' : 'trial';
  return {
    data: await res.arrayBuffer(),
    contentType: res.headers.get('Content-Type') ?? 'application/octet-stream',
    access,
  };
}
