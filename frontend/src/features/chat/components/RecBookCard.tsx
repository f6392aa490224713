// One recommended book: cover, title, author, price, how well it matches and why. The
// whole card opens the book page.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatPrice } from '@/lib/money';
import type { RecBook } from '../types';

/** A stable hue per title, so a book without a cover still looks like itself. */
function hue(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) % 360;
  return h;
}

export function recBookId(book: Pick<RecBook, 'id' | 'book_id'>): string {
  return String(book.book_id || book.id || '');
}

function RecCover({ book }: { book: RecBook }) {
  const src = book.cover_image || `/api/books/${encodeURIComponent(recBookId(book))}/cover`;
  const [failed, setFailed] = useState(false);
  if (failed) {
    const h = hue(book.title);
    return (
      <div
        className="rec-cover-img rec-cover-fallback"
        style={{ background: `linear-gradient(160deg, hsl(${h} 45% 34%), hsl(${(h + 40) % 360} 50% 18%))` }}
        aria-hidden
      >
        <span>{book.title}</span>
      </div>
    );
  }
  return <img className="rec-cover-img" src={src} alt="" loading="lazy" decoding="async" onError={() => setFailed(true)} />;
}

export interface RecBookCardProps {
  book: RecBook;
  /** Where the card leads (the book page of the desktop or the phone). */
  href: string;
}

export function RecBookCard({ book, href }: RecBookCardProps) {
  const match = Math.max(0, Math.min(100, Math.round(book.match_percentage ?? 0)));
  const author = book.author || 'Unknown author';
  return (
    <article className="rec-card" data-testid="rec-book">
      <Link to={href} className="rec-card-link" aria-label={`${book.title} by ${author}, ${match}% match`}>
        <div className="rec-cover">
          <RecCover book={book} />
        </div>
        <div className="rec-body">
          <div className="rec-top">
            <span className="rec-match" data-testid="rec-match" title="How well this book fits what you asked">
              {match}% match
            </span>
            <span className={`rec-price ${book.bought ? 'rec-owned' : ''}`} data-testid="rec-price">
              {book.bought ? 'Owned' : formatPrice(book.price)}
            </span>
          </div>
          <h3 className="rec-title" data-testid="rec-title">
            {book.title}
          </h3>
          <p className="rec-author">{author}</p>
          {book.reason ? (
            <p className="rec-reason" data-testid="rec-reason">
              {book.reason}
            </p>
          ) : null}
          <span className="rec-meter" aria-hidden>
            <span style={{ width: `${match}%` }} />
          </span>
        </div>
      </Link>
    </article>
  );
}
