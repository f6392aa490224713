// The shop's search state lives in the address (/platform/?q=…&genre=…&min=…&max=…&sort=…
// &page=…) so results can be shared, reloaded and navigated with back/forward.
import type { SortKey } from './types';

export type ShopSort = SortKey | 'relevance';

export interface ShopQuery {
  q: string;
  genre?: string;
  min?: number;
  max?: number;
  sort?: ShopSort;
  page: number;
}

const SORTS: readonly ShopSort[] = ['relevance', 'newest', 'oldest', 'price_asc', 'price_desc', 'title', 'rating'];

export const SORT_LABELS: Record<ShopSort, string> = {
  relevance: 'Best match',
  newest: 'Newest',
  oldest: 'Oldest',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  title: 'Title A–Z',
  rating: 'Highest rated by readers',
};

function num(raw: string | null): number | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function readShopQuery(params: URLSearchParams): ShopQuery {
  const sort = params.get('sort') as ShopSort | null;
  const page = Math.floor(num(params.get('page')) ?? 1);
  return {
    q: (params.get('q') ?? '').trim(),
    genre: params.get('genre')?.trim() || undefined,
    min: num(params.get('min')),
    max: num(params.get('max')),
    sort: sort && SORTS.includes(sort) ? sort : undefined,
    page: page >= 1 ? page : 1,
  };
}

export function writeShopQuery(q: ShopQuery): URLSearchParams {
  const out = new URLSearchParams();
  if (q.q) out.set('q', q.q);
  if (q.genre) out.set('genre', q.genre);
  if (q.min !== undefined) out.set('min', String(q.min));
  if (q.max !== undefined) out.set('max', String(q.max));
  if (q.sort) out.set('sort', q.sort);
  if (q.page > 1) out.set('page', String(q.page));
  return out;
}

/** True when the address asks for results rather than the shop front. */
export function isSearching(q: ShopQuery): boolean {
  return Boolean(q.q || q.genre || q.min !== undefined || q.max !== undefined || q.sort);
}

/**
 * The order of "Highest rated" on a page of hits: the catalog's weighted average (as if each
 * book had 5 more ratings of 3 stars; catalog's ratings.rs says why), so a page sorts as the
 * shop's lists do.
 */
export function ratingRank(rating: { average?: number | null; count?: number } | undefined): number {
  const count = rating?.count ?? 0;
  const sum = count > 0 ? (rating?.average ?? 0) * count : 0;
  return (sum + 3 * 5) / (count + 5);
}

/** Orders one page of hits; the engine ranks by relevance, other orders apply to what is shown. */
export function sortHits<T extends { price?: number; title: string; published_at?: string | null; created_time?: string | null; rating?: { average?: number | null; count?: number } }>(
  hits: T[],
  sort: ShopSort | undefined,
): T[] {
  if (!sort || sort === 'relevance') return hits;
  const date = (b: T) => Date.parse(b.published_at || b.created_time || '') || 0;
  const copy = [...hits];
  const by: Record<Exclude<ShopSort, 'relevance'>, (a: T, b: T) => number> = {
    newest: (a, b) => date(b) - date(a),
    oldest: (a, b) => date(a) - date(b),
    price_asc: (a, b) => (a.price ?? 0) - (b.price ?? 0),
    price_desc: (a, b) => (b.price ?? 0) - (a.price ?? 0),
    title: (a, b) => a.title.localeCompare(b.title),
    rating: (a, b) => ratingRank(b.rating) - ratingRank(a.rating),
  };
  return copy.sort(by[sort]);
}
