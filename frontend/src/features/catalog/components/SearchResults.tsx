import type { ReactNode } from 'react';
import type { CardBook } from './BookCard';
import { BookGrid } from './BookGrid';
import { GenreChips, type GenreChip } from './GenreChips';
import { Pager } from '@/components/Pager';

export interface SearchResultsProps {
  /** The searched text; empty when browsing by filters. */
  query?: string;
  hits: CardBook[] | undefined;
  total: number;
  /** `total` is a lower bound (the shop counts a filtered list only up to the pages ahead). */
  totalAtLeast?: boolean;
  loading?: boolean;
  fetching?: boolean;
  error?: boolean;
  onRetry?: () => void;
  /** Genre facet counts of the whole result set. */
  facets?: GenreChip[];
  selectedGenre?: string;
  onSelectGenre?: (genre: string | undefined) => void;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  tookMs?: number;
  /** Shown under an empty result (e.g. a "clear filters" button). */
  emptyHint?: ReactNode;
}

function summary(query: string | undefined, total: number, atLeast: boolean, tookMs?: number): string {
  const noun = total === 1 && !atLeast ? 'book' : 'books';
  const count = atLeast ? `More than ${total.toLocaleString('en-US')}` : `${total}`;
  const what = query ? `${count} ${noun} for “${query}”` : `${count} ${noun}`;
  if (tookMs === undefined || tookMs <= 0) return what;
  return `${what} · ${tookMs < 1000 ? `${Math.round(tookMs)} ms` : `${(tookMs / 1000).toFixed(1)} s`}`;
}

/** Hits of a search (with match percentages on the cards), genre facets and pages. */
export function SearchResults({
  query,
  hits,
  total,
  totalAtLeast = false,
  loading,
  fetching,
  error,
  onRetry,
  facets,
  selectedGenre,
  onSelectGenre,
  page,
  pageSize,
  onPage,
  tookMs,
  emptyHint,
}: SearchResultsProps) {
  return (
    <section className="search-results" aria-label="Search results" aria-busy={fetching || loading || undefined}>
      <div className="search-results-head">
        <p className="search-summary" role="status" data-testid="search-summary">
          {loading && !hits ? 'Searching…' : error && !hits ? '' : summary(query, total, totalAtLeast, tookMs)}
        </p>
      </div>
      {facets && facets.length > 0 ? (
        <GenreChips genres={facets} selected={selectedGenre} onSelect={onSelectGenre} withAll={Boolean(onSelectGenre)} label="Filter by genre" />
      ) : null}
      <BookGrid
        books={hits}
        loading={loading}
        error={error}
        onRetry={onRetry}
        skeletons={pageSize > 10 ? 10 : pageSize}
        label="Results"
        empty={{
          title: query ? `No books match “${query}”` : 'No books match these filters',
          body: emptyHint ?? 'Try fewer words, another spelling or a wider price range.',
        }}
      />
      <Pager numbers page={page} total={total} totalAtLeast={totalAtLeast} pageSize={pageSize} onChange={onPage} busy={fetching} />
    </section>
  );
}
