// The catalog's calls and query keys. Every call goes through the api client (timeout,
// bearer header, envelope, toasts, 401/403); payload kinds follow the contract: filters of
// get_all_books are form-encoded, update_book is multipart with comma-joined lists,
// publish_book_status takes params, search and the admin routes take JSON.
import { api, type QueryParams } from '@/lib/api-client';
import { DEFAULT_PAGE_SIZE, joinList } from './format';
import type {
  Book,
  BookFilters,
  BookUpdate,
  FavouriteState,
  Paged,
  Publisher,
  PublishStatus,
  SearchInput,
  SearchReply,
  Settings,
  Shelf,
  Takedown,
  TocEntry,
} from './types';

export const catalogKeys = {
  all: ['catalog'] as const,
  books: () => [...catalogKeys.all, 'books'] as const,
  book: (bookId: string) => [...catalogKeys.books(), 'detail', bookId] as const,
  list: (filters: BookFilters) => [...catalogKeys.books(), 'list', filters] as const,
  byWriter: (writerId: string) => [...catalogKeys.books(), 'writer', writerId] as const,
  bought: (uid: string) => [...catalogKeys.books(), 'bought', uid] as const,
  favourites: () => [...catalogKeys.books(), 'favourites'] as const,
  search: (input: SearchInput) => [...catalogKeys.all, 'search', input] as const,
  toc: (bookId: string) => [...catalogKeys.all, 'toc', bookId] as const,
  publishers: () => [...catalogKeys.all, 'publishers'] as const,
  shelf: (publisherId: string) => [...catalogKeys.all, 'shelf', publisherId] as const,
  adminBooks: (query: string, page: number, pageSize: number) =>
    [...catalogKeys.books(), 'admin', query, page, pageSize] as const,
  settings: () => [...catalogKeys.all, 'settings'] as const,
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Lists may come plain or paged; screens that want the items get the items. */
export function asList<T>(data: unknown): T[] {
  if (Array.isArray(data)) return data as T[];
  if (isRecord(data) && Array.isArray(data.result)) return data.result as T[];
  return [];
}

/** The paged shape, filled in when the server answered a plain list. */
export function asPaged<T>(data: unknown, page: number, pageSize: number): Paged<T> {
  if (Array.isArray(data)) return { total: data.length, page, page_size: pageSize, result: data as T[] };
  const d = isRecord(data) ? data : {};
  const result = Array.isArray(d.result) ? (d.result as T[]) : [];
  return {
    total: typeof d.total === 'number' ? d.total : result.length,
    page: typeof d.page === 'number' ? d.page : page,
    page_size: typeof d.page_size === 'number' ? d.page_size : pageSize,
    result,
    ...(d.total_exact === false ? { total_exact: false } : {}),
  };
}

// ---------- books ----------

export interface GetBooksParams {
  book_id?: string;
  uid?: string;
  upload_writer_id?: string;
}

export async function getBooks(params: GetBooksParams, opts: { ignoreErrors?: boolean } = {}): Promise<Book[]> {
  return asList<Book>(await api.get('/get_books', { params: params as QueryParams, ...opts }));
}

/**
 * One book (get_books answers a list; the spec reads its first item). Its 404 is the
 * page's own empty state, so the call raises no toast.
 */
export async function getBook(bookId: string): Promise<Book | null> {
  const list = await getBooks({ book_id: bookId }, { ignoreErrors: true });
  return list[0] ?? null;
}

/** The form body of get_all_books: only set filters, lists comma-joined. */
export function filtersToForm(filters: BookFilters): Record<string, string> {
  const form: Record<string, string> = {};
  if (filters.genre) form.genre = filters.genre;
  if (filters.tags && filters.tags.length > 0) form.tags = joinList(filters.tags);
  if (filters.author) form.author = filters.author;
  if (filters.price_min !== undefined && Number.isFinite(filters.price_min)) form.price_min = String(filters.price_min);
  if (filters.price_max !== undefined && Number.isFinite(filters.price_max)) form.price_max = String(filters.price_max);
  if (filters.sort) form.sort = filters.sort;
  form.page = String(filters.page ?? 1);
  form.page_size = String(filters.page_size ?? DEFAULT_PAGE_SIZE);
  return form;
}

export async function listBooks(filters: BookFilters = {}): Promise<Paged<Book>> {
  const data = await api.post('/get_all_books/', { form: filtersToForm(filters) });
  return asPaged<Book>(data, filters.page ?? 1, filters.page_size ?? DEFAULT_PAGE_SIZE);
}

/** The JSON body of search: blank filters left out so the engine does not filter on "". */
export function searchBody(input: SearchInput): Record<string, unknown> {
  const body: Record<string, unknown> = { query: input.query.trim() };
  if (input.genre) body.genre = input.genre;
  if (input.tags && input.tags.length > 0) body.tags = input.tags;
  if (input.author) body.author = input.author;
  if (input.price_min !== undefined && Number.isFinite(input.price_min)) body.price_min = input.price_min;
  if (input.price_max !== undefined && Number.isFinite(input.price_max)) body.price_max = input.price_max;
  body.page = input.page ?? 1;
  body.page_size = input.page_size ?? DEFAULT_PAGE_SIZE;
  return body;
}

/** `quiet`: failures raise no toast (suggestions and facets degrade in place instead). */
export async function searchBooks(input: SearchInput, signal?: AbortSignal, quiet = false): Promise<SearchReply> {
  const data = await api.post('/search', { json: searchBody(input), signal, ignoreErrors: quiet });
  const paged = asPaged<SearchReply['result'][number]>(data, input.page ?? 1, input.page_size ?? DEFAULT_PAGE_SIZE);
  const d = isRecord(data) ? data : {};
  const facets = isRecord(d.facets) && isRecord(d.facets.genre) ? (d.facets.genre as Record<string, number>) : {};
  return { ...paged, facets: { genre: facets }, took_ms: typeof d.took_ms === 'number' ? d.took_ms : 0 };
}

export async function getBoughtBooks(uid: string): Promise<Book[]> {
  return asList<Book>(await api.get('/get_bought_books', { params: { uid } }));
}

/** The multipart body of update_book: uid, book_id and the fields present. */
export function updateBookForm(uid: string, bookId: string, update: BookUpdate): FormData {
  const form = new FormData();
  form.append('uid', uid);
  form.append('book_id', bookId);
  const text = (key: string, value: string | number | undefined) => {
    if (value !== undefined) form.append(key, String(value));
  };
  text('title', update.title);
  text('short_summary', update.short_summary);
  text('long_summary', update.long_summary);
  if (update.authors) form.append('authors', joinList(update.authors));
  if (update.tags) form.append('tags', joinList(update.tags));
  text('genre', update.genre);
  text('assessment_score', update.assessment_score);
  text('price', update.price);
  text('publish_date', update.publish_date);
  if (update.cover) {
    const name = (update.cover as { name?: unknown }).name;
    form.append('cover', update.cover, typeof name === 'string' && name ? name : 'cover');
  }
  return form;
}

/** `notify: false` when the caller shows a refusal in place (a form), so no toast repeats it. */
export function updateBook(uid: string, bookId: string, update: BookUpdate, notify = true): Promise<Book> {
  return api.post<Book>('/update_book/', { multipart: updateBookForm(uid, bookId, update), notify });
}

/** Flips the caller's switch for a book: the writer's listing, or a publisher's shelf. */
export function publishBookStatus(userId: string, bookId: string, on: boolean): Promise<PublishStatus> {
  return api.post<PublishStatus>('/publish_book_status', {
    params: { user_id: userId, book_id: bookId, on_or_off: on ? 'on' : 'off' },
  });
}

export async function getToc(bookId: string): Promise<TocEntry[]> {
  return asList<TocEntry>(await api.get(`/books/${encodeURIComponent(bookId)}/toc`, { ignoreErrors: true }));
}

// ---------- favourites ----------

export async function getFavourites(): Promise<Book[]> {
  return asList<Book>(await api.get('/favourites'));
}

export function setFavourite(bookId: string, favourite: boolean): Promise<FavouriteState> {
  const path = `/favourites/${encodeURIComponent(bookId)}`;
  return favourite ? api.post<FavouriteState>(path) : api.delete<FavouriteState>(path);
}

// ---------- publishers ----------

export async function getPublishers(): Promise<Publisher[]> {
  return asList<Publisher>(await api.get('/publishers'));
}

export function getShelf(publisherId: string): Promise<Shelf> {
  return api.get<Shelf>(`/publishers/${encodeURIComponent(publisherId)}/shelf`, { ignoreErrors: true });
}

// ---------- admin ----------

export async function adminListBooks(query: string, page: number, pageSize = DEFAULT_PAGE_SIZE): Promise<Paged<Book>> {
  const data = await api.get('/admin/books', {
    params: { query: query.trim() || undefined, page, page_size: pageSize },
  });
  return asPaged<Book>(data, page, pageSize);
}

export function takedownBook(bookId: string, body: Takedown): Promise<Book> {
  const json: Takedown = { taken_down: body.taken_down };
  if (body.reason && body.reason.trim()) json.reason = body.reason.trim();
  return api.post<Book>(`/admin/books/${encodeURIComponent(bookId)}/takedown`, { json });
}

export function getSettings(): Promise<Settings> {
  return api.get<Settings>('/settings');
}
