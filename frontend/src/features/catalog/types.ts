// The catalog's shapes. Replies come from the types generated from the gateway's OpenAPI
// document (re-exported by src/lib/api-types.ts); what the screens send (filters, the
// edit form) is written here, in the screens' own terms (numbers, lists), and turned
// into the wire's form-encoded, multipart or JSON bodies by api.ts.
export type {
  Book,
  BookFormat,
  FavouriteState,
  Paged,
  Publisher,
  PublishStatus,
  SearchHit,
  SearchReply,
  Settings,
  Shelf,
  ShelfBook,
  Takedown,
  TocEntry,
} from '@/lib/api-types';

export type SortKey = 'newest' | 'oldest' | 'price_asc' | 'price_desc' | 'title' | 'rating';

/** Filters of POST /get_all_books/ (form-encoded). */
export interface BookFilters {
  genre?: string;
  tags?: string[];
  author?: string;
  price_min?: number;
  price_max?: number;
  sort?: SortKey;
  page?: number;
  page_size?: number;
}

/** Body of POST /search (JSON). */
export interface SearchInput {
  query: string;
  genre?: string;
  tags?: string[];
  author?: string;
  price_min?: number;
  price_max?: number;
  page?: number;
  page_size?: number;
}

/** Fields of POST /update_book/ (multipart); only the ones present are sent. */
export interface BookUpdate {
  title?: string;
  short_summary?: string;
  long_summary?: string;
  authors?: string[];
  tags?: string[];
  genre?: string;
  assessment_score?: number;
  /** Decimal, e.g. 4.99. */
  price?: number;
  publish_date?: string;
  cover?: File | Blob;
}
