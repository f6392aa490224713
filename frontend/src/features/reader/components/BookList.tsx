// A compact list of books with an optional progress bar, each opening the reader.
import '../reading-list.css';
import { Link } from 'react-router-dom';
import { formatDate } from '@/lib/dates';
import type { Book } from '../types';

export interface BookListItem {
  book: Book;
  percent?: number;
  note?: string;
}

export function BookList({ items, label }: { items: BookListItem[]; label: string }) {
  return (
    <ul className="reading-list" aria-label={label}>
      {items.map(({ book, percent, note }) => (
        <li key={book.id}>
          <Link to={`/reader?book_id=${encodeURIComponent(book.id)}`} className="reading-item">
            <img className="reading-cover" src={book.cover_image || `/api/books/${book.id}/cover`} alt="" loading="lazy" />
            <span className="reading-text">
              <span className="reading-title">{book.title}</span>
              <span className="muted small">{book.author}</span>
              {percent !== undefined ? (
                <span className="reading-progress">
                  <span className="progress-bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(percent)} aria-label={`${book.title} progress`}>
                    <span style={{ width: `${Math.min(100, Math.max(0, percent))}%` }} />
                  </span>
                  <span className="small muted">{Math.round(percent)}%</span>
                </span>
              ) : null}
              {note ? <span className="small muted">{note}</span> : null}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function relativeDay(ts: string | null | undefined, now = Date.now()): string {
  if (!ts) return '';
  const t = Date.parse(ts);
  if (Number.isNaN(t)) return '';
  const days = Math.floor((now - t) / 86_400_000);
  if (days <= 0) return 'Read today';
  if (days === 1) return 'Read yesterday';
  if (days < 30) return `Read ${days} days ago`;
  return `Read on ${formatDate(new Date(t).toISOString())}`;
}
