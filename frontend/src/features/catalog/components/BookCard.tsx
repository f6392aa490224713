import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { RatingStars } from '@/components/Rating';
import { useCatalogLinks } from '../links';
import type { Book } from '../types';
import { Cover } from './Cover';
import { PriceTag } from './PriceTag';

export type CardBook = Pick<Book, 'title' | 'author'> &
  Partial<Pick<Book, 'id' | 'book_id' | 'cover_image' | 'price' | 'genre' | 'rating' | 'bought' | 'entitled'>> & {
    match_percentage?: number;
  };

export interface BookCardProps {
  book: CardBook;
  /** Where the card leads; the book page by default. */
  to?: string;
  /** Extra controls under the card (switches, remove buttons); kept outside the link. */
  actions?: ReactNode;
  /** Hides price and readers' rating (shelves, compact rows). */
  minimal?: boolean;
}

export function bookIdOf(book: { id?: string; book_id?: string }): string {
  return String(book.book_id ?? book.id ?? '');
}

export function BookCard({ book, to, actions, minimal }: BookCardProps) {
  const links = useCatalogLinks();
  const id = bookIdOf(book);
  const match = book.match_percentage;
  return (
    <article className="book-card" data-testid="book-card">
      <Link to={to ?? links.book(id)} className="book-card-link" aria-label={`${book.title}${book.author ? ` by ${book.author}` : ''}`}>
        <div className="book-card-cover">
          <Cover src={book.cover_image} title={book.title} author={book.author} decorative />
          {match !== undefined && match !== null ? (
            <span className="match-badge" title="How much of your search this book matches">
              {Math.round(match)}% match
            </span>
          ) : null}
        </div>
        <h3 className="book-card-title">{book.title}</h3>
        <p className="book-card-author">{book.author || 'Unknown author'}</p>
      </Link>
      {minimal ? null : (
        <div className="book-card-meta">
          <PriceTag price={book.price} owned={book.bought} size="sm" />
          <RatingStars rating={book.rating} />
        </div>
      )}
      {actions ? <div className="book-card-actions">{actions}</div> : null}
    </article>
  );
}
