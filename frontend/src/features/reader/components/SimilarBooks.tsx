// Other books of the same genre (POST /api/search), for the explore panel and the end of a book.
import { Link } from 'react-router-dom';
import { Spinner } from '@/components/Spinner';
import { isFailedEnvelope } from '../api';
import { useSameGenre } from '../queries';
import type { Book } from '../types';

export function SimilarBooks({ book, limit = 8, label }: { book: Book; limit?: number; label?: string }) {
  const genre = useSameGenre(book.genre || undefined);
  const data = genre.data && !isFailedEnvelope(genre.data) ? genre.data : null;
  const others = (data?.result ?? []).filter((b) => (b.book_id || b.id) !== (book.book_id || book.id)).slice(0, limit);
  if (genre.isLoading) return <Spinner label="Finding similar books" />;
  if (others.length === 0) {
    return (
      <p className="muted small">
        {genre.isError || (genre.data && !data) ? 'Similar books could not be loaded.' : 'No other books in this genre yet.'}
      </p>
    );
  }
  return (
    <ul className="explore-list" aria-label={label}>
      {others.map((b) => (
        <li key={b.id}>
          <Link to={`/reader?book_id=${encodeURIComponent(b.id)}`} className="explore-item">
            <img src={b.cover_image || `/api/books/${b.id}/cover`} alt="" loading="lazy" />
            <span>
              <span className="explore-item-title">{b.title}</span>
              <span className="muted small">{b.author}</span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
