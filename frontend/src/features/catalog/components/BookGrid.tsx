import type { ReactNode } from 'react';
import { EmptyState } from '@/components/Card';
import { Button } from '@/components/Button';
import { BookCard, bookIdOf, type CardBook } from './BookCard';
import { CardSkeletons, LoadingLabel } from './Skeleton';

export interface BookGridProps<B extends CardBook> {
  books: B[] | undefined;
  loading?: boolean;
  error?: boolean;
  onRetry?: () => void;
  empty?: { title: string; body?: ReactNode };
  /** Controls under one card (e.g. a publish switch). */
  actions?: (book: B) => ReactNode;
  skeletons?: number;
  /** "row": one horizontal scrolling line instead of a wrapping grid. */
  layout?: 'grid' | 'row';
  label?: string;
}

export function BookGrid<B extends CardBook>({
  books,
  loading,
  error,
  onRetry,
  empty = { title: 'No books here yet' },
  actions,
  skeletons = 5,
  layout = 'grid',
  label,
}: BookGridProps<B>) {
  const cls = layout === 'row' ? 'book-row-scroll' : 'book-grid';
  if (loading && !books) {
    return (
      <div className={cls} aria-busy="true" aria-label={label}>
        <LoadingLabel />
        <CardSkeletons count={skeletons} />
      </div>
    );
  }
  if (error && !books?.length) {
    return (
      <EmptyState icon="alert" title="These books could not be loaded">
        {onRetry ? (
          <Button variant="secondary" size="sm" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </EmptyState>
    );
  }
  if (!books || books.length === 0) {
    return <EmptyState title={empty.title}>{empty.body}</EmptyState>;
  }
  return (
    <ul className={cls} aria-label={label}>
      {books.map((b) => (
        <li key={bookIdOf(b)}>
          <BookCard book={b} actions={actions?.(b)} />
        </li>
      ))}
    </ul>
  );
}
