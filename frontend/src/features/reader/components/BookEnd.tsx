// The end of the book: shown when the reader asks for a page after the last one, instead
// of a Next that does nothing. Rate it (posted as a comment, see rating.ts), read the
// comments, and more books like it.
import { useState } from 'react';
import { Button, ButtonLink } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { useRateBook } from '../queries';
import { RATING_MAX, RATING_WORDS_MAX } from '../rating';
import type { Book } from '../types';
import { SimilarBooks } from './SimilarBooks';

export const BOOK_END_TEXT = 'You have reached the end';

export interface BookEndProps {
  book: Book;
  onComments: () => void;
  onClose: () => void;
}

export function BookEnd({ book, onComments, onClose }: BookEndProps) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const rate = useRateBook(book.id);
  const [stars, setStars] = useState(0);
  const [words, setWords] = useState('');

  return (
    <section className="book-end" role="region" aria-label="End of the book" data-testid="book-end">
      <div className="book-end-inner">
        <header className="book-end-head">
          <h2 className="book-end-title">{BOOK_END_TEXT}</h2>
          <p className="muted">
            of <strong>{book.title}</strong>
            {book.author ? ` by ${book.author}` : ''}.
          </p>
        </header>

        {rate.isSuccess ? (
          <p className="book-end-thanks" data-testid="book-end-rated">
            <Icon name="check" size={18} /> Your rating is with the comments.
          </p>
        ) : loggedIn ? (
          <form
            className="book-end-rate"
            aria-label="Rate this book"
            onSubmit={(e) => {
              e.preventDefault();
              if (stars > 0) rate.mutate({ stars, words });
            }}
          >
            <div className="book-end-stars" role="radiogroup" aria-label="Your rating">
              {Array.from({ length: RATING_MAX }, (_, i) => i + 1).map((n) => (
                <button
                  key={n}
                  type="button"
                  role="radio"
                  aria-checked={stars === n}
                  aria-label={`${n} of ${RATING_MAX} stars`}
                  className={`book-end-star ${n <= stars ? 'book-end-star-on' : ''}`}
                  onClick={() => setStars(n)}
                >
                  {n <= stars ? '★' : '☆'}
                </button>
              ))}
            </div>
            <textarea
              aria-label="A few words about it"
              className="field-control book-end-words"
              placeholder="A few words about it (optional)"
              maxLength={RATING_WORDS_MAX}
              rows={2}
              value={words}
              onChange={(e) => setWords(e.target.value)}
            />
            <div className="book-end-actions">
              <Button type="submit" size="sm" disabled={stars === 0} loading={rate.isPending}>
                Post rating
              </Button>
            </div>
          </form>
        ) : (
          <p className="small">
            <ButtonLink to={`/login?redirect=${encodeURIComponent(`/reader?book_id=${book.id}`)}`} variant="ghost" size="sm">
              Log in
            </ButtonLink>{' '}
            to rate it and comment.
          </p>
        )}

        <h3 className="section-title">More like it</h3>
        <SimilarBooks book={book} limit={4} label="More like it" />

        <div className="book-end-actions">
          <Button type="button" variant="secondary" size="sm" onClick={onComments} icon={<Icon name="users" size={16} />}>
            Comments
          </Button>
          <ButtonLink to={`/book?book_id=${encodeURIComponent(book.id)}`} variant="secondary" size="sm">
            Back to the book page
          </ButtonLink>
          <Button variant="ghost" size="sm" onClick={onClose}>
            Back to the last page
          </Button>
        </div>
      </div>
    </section>
  );
}
