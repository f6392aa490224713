// Book explore: the book's details and other books of the same genre (POST /api/search).
import { Link } from 'react-router-dom';
import { Badge } from '@/components/Card';
import { Spinner } from '@/components/Spinner';
import { formatPrice } from '@/lib/money';
import { isFailedEnvelope } from '../api';
import { useSameGenre } from '../queries';
import type { Book } from '../types';


export function ExplorePanel({ book }: { book: Book }) {
  const genre = useSameGenre(book.genre || undefined);
  const data = genre.data && !isFailedEnvelope(genre.data) ? genre.data : null;
  const others = (data?.result ?? []).filter((b) => (b.book_id || b.id) !== (book.book_id || book.id)).slice(0, 8);
  return (
    <div className="stack reader-explore">
      <div className="explore-book">
        <img className="explore-cover" src={book.cover_image || `/api/books/${book.id}/cover`} alt="" loading="lazy" />
        <div>
          <p className="explore-title">{book.title}</p>
          <p className="muted small">{book.authors?.length ? book.authors.join(', ') : book.author}</p>
          <p className="small">
            {formatPrice(Number(book.price) || 0)} · {book.format?.toUpperCase()} · {book.chapter_count} chapters
          </p>
        </div>
      </div>
      {book.short_summary ? <p className="small">{book.short_summary}</p> : null}
      <div className="badge-row">
        {book.genre ? <Badge tone="primary">{book.genre}</Badge> : null}
        {(book.tags ?? []).slice(0, 6).map((t) => (
          <Badge key={t}>{t}</Badge>
        ))}
      </div>
      <Link to={`/book?book_id=${encodeURIComponent(book.id)}`} className="small">
        Full details and reviews
      </Link>
      <h3 className="section-title">More {book.genre || 'books'} like this</h3>
      {genre.isLoading ? (
        <Spinner label="Finding similar books" />
      ) : others.length === 0 ? (
        <p className="muted small">{genre.isError || (genre.data && !data) ? 'Similar books could not be loaded.' : 'No other books in this genre yet.'}</p>
      ) : (
        <ul className="explore-list">
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
      )}
    </div>
  );
}
