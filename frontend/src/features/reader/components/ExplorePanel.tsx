// Book explore: the book's details and other books of the same genre (POST /api/search).
import { Link } from 'react-router-dom';
import { Badge } from '@/components/Card';
import { formatPrice } from '@/lib/money';
import type { Book } from '../types';
import { SimilarBooks } from './SimilarBooks';

export function ExplorePanel({ book }: { book: Book }) {
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
      <SimilarBooks book={book} />
    </div>
  );
}
