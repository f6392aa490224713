// Reply shapes of the reading routes, from the types generated from the gateway's
// OpenAPI document (src/lib/api-schema.d.ts, narrowed in src/lib/api-types.ts).
import type { components } from '@/lib/api-schema';
import type { Book, BookFormat, SearchHit, SearchReply, TocEntry } from '@/lib/api-types';

type Schemas = components['schemas'];

export type { Book, BookFormat, SearchHit, SearchReply, TocEntry };

/** cfi: an epub CFI, or "page=N" (pdf), or "offset=N" (txt). */
export type Bookmark = Schemas['BookmarkOut'];

/** position: "" when the book was never opened. */
export type Progress = Schemas['ProgressOut'];

/** A book the caller opened (GET /api/history), most recent first. */
export type HistoryEntry = Book & { last_read_at: string; percent: number };

export type Access = 'full' | 'trial';

/** A book file as the viewer gets it. */
export interface BookContent {
  data: ArrayBuffer;
  contentType: string;
  access: Access;
}

/** Where the reader is, as the viewers report it. */
export interface ReadingLocation {
  /** The position string stored in progress and bookmarks. */
  position: string;
  /** 0..=100 within the file the reader has (the sample, for a trial). */
  percent: number;
  /** A short human label: chapter title, page number. */
  label?: string;
}
