// Where catalog links lead. The desktop pages and the phone (h5) pages show the same
// components; the h5 routes wrap them in a provider so a card opens the h5 book page.
import { createContext, useContext, type ReactNode } from 'react';

export interface CatalogLinks {
  book: (bookId: string) => string;
  read: (bookId: string) => string;
  search: (query: string) => string;
  genre: (genre: string) => string;
  /** The whole catalogue in one order (e.g. "score", "newest"). */
  sorted: (sort: string) => string;
}

export const desktopLinks: CatalogLinks = {
  book: (id) => `/book?book_id=${encodeURIComponent(id)}`,
  read: (id) => `/reader?book_id=${encodeURIComponent(id)}`,
  search: (q) => `/?q=${encodeURIComponent(q)}`,
  genre: (g) => `/?genre=${encodeURIComponent(g)}`,
  sorted: (sort) => `/?sort=${encodeURIComponent(sort)}`,
};

export const h5Links: CatalogLinks = {
  ...desktopLinks,
  book: (id) => `/h5/book?book_id=${encodeURIComponent(id)}`,
  search: (q) => `/h5/reader/home?q=${encodeURIComponent(q)}`,
  genre: (g) => `/h5/reader/home?genre=${encodeURIComponent(g)}`,
  sorted: (sort) => `/h5/reader/home?sort=${encodeURIComponent(sort)}`,
};

const LinksContext = createContext<CatalogLinks>(desktopLinks);

export function CatalogLinksProvider({ value, children }: { value: CatalogLinks; children: ReactNode }) {
  return <LinksContext.Provider value={value}>{children}</LinksContext.Provider>;
}

export function useCatalogLinks(): CatalogLinks {
  return useContext(LinksContext);
}
