// The end of the book: shown when the reader asks for a page after the last one, instead
// of a Next that does nothing. Rate it (a reader who owns it: the stars go to its readers'
// rating, a few words to the comments, see rating.ts), read the comments, and more books
// like it.
import { useState } from 'react';
import { Button, ButtonLink } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { RatingStars, StarPicker } from '@/components/Rating';
import { useRateBook } from '@/lib/ratings';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { usePostWords } from '../queries';
import { RATING_WORDS_MAX } from '../rating';
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
  const post = usePostWords(book.id);
  const [stars, setStars] = useState(book.my_rating ?? 0);
  const [words, setWords] = useState('');
  const [done, setDone] = useState(false);
  const busy = rate.isPending || post.isPending;
  const failure = rate.error ?? post.error;

  const submit = async () => {
    if (stars === 0) return;
    try {
      await rate.mutateAsync(stars);
      if (words.trim()) await post.mutateAsync(words);
      setDone(true);
    } catch {
      // Shown below from the mutation's error.
    }
  };

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

        <p className="book-end-rating">
          Readers&apos; rating: <RatingStars rating={book.rating} />
        </p>
        {done ? (
          <p className="book-end-thanks" data-testid="book-end-rated">
            <Icon name="check" size={18} /> Your rating is saved{words.trim() ? ', and your words are with the comments' : ''}.
          </p>
        ) : !loggedIn ? (
          <p className="small">
            <ButtonLink to={`/login?redirect=${encodeURIComponent(`/reader?book_id=${book.id}`)}`} variant="ghost" size="sm">
              Log in
            </ButtonLink>{' '}
            to rate it and comment.
          </p>
        ) : book.bought ? (
          <form
            className="book-end-rate"
            aria-label="Rate this book"
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <StarPicker value={stars} onChange={setStars} disabled={busy} />
            <label className="field-label" htmlFor="book-end-words">
              A few words for other readers (optional, posted as a comment)
            </label>
            <textarea
              id="book-end-words"
              className="field-control book-end-words"
              placeholder="What did you think of it?"
              maxLength={RATING_WORDS_MAX}
              rows={3}
              value={words}
              onChange={(e) => setWords(e.target.value)}
            />
            {failure ? (
              <p className="field-error" role="alert">
                {failure instanceof Error ? failure.message : 'The rating was not saved'}
              </p>
            ) : null}
            <div className="book-end-actions">
              <Button type="submit" size="sm" disabled={stars === 0} loading={busy}>
                {book.my_rating ? 'Change rating' : 'Post rating'}
              </Button>
            </div>
          </form>
        ) : (
          <p className="small muted" data-testid="book-end-rate-owners">
            Readers who own this book rate it. Buy it from the book page to add your stars.
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
