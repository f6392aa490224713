import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { CardBook } from './BookCard';
import { BookGrid } from './BookGrid';

export interface BookSectionProps {
  title: string;
  subtitle?: ReactNode;
  books: CardBook[] | undefined;
  loading?: boolean;
  error?: boolean;
  onRetry?: () => void;
  seeAllTo?: string;
  layout?: 'grid' | 'row';
  empty?: { title: string; body?: ReactNode };
}

/** A titled shop row ("Featured", "New arrivals", one per genre). */
export function BookSection({ title, subtitle, books, loading, error, onRetry, seeAllTo, layout = 'row', empty }: BookSectionProps) {
  const headingId = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="book-section" aria-labelledby={headingId}>
      <div className="book-section-head">
        <div>
          <h2 id={headingId}>{title}</h2>
          {subtitle ? <p className="muted small">{subtitle}</p> : null}
        </div>
        {seeAllTo ? (
          <Link to={seeAllTo} className="see-all">
            See all <span className="visually-hidden">{title}</span> →
          </Link>
        ) : null}
      </div>
      <BookGrid books={books} loading={loading} error={error} onRetry={onRetry} layout={layout} label={title} empty={empty} />
    </section>
  );
}
