// Readers' ratings: what a book's readers gave it (stars 1-5, the average and how many), and
// the control a reader rates with. The analysis's quality score is never shown here: it is
// the writer's, on the manuscript pages.
import { useId } from 'react';
import './rating.css';

export const STARS_MAX = 5;

export interface ReaderRating {
  /** null while nobody rated the book. */
  average?: number | null;
  count?: number;
}

/** "4.3" (one place), or null without ratings. */
export function ratingAverage(rating: ReaderRating | null | undefined): string | null {
  if (!rating || !rating.count || rating.average === null || rating.average === undefined) return null;
  return (Math.round(rating.average * 10) / 10).toFixed(1);
}

function countText(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'rating' : 'ratings'}`;
}

export interface RatingStarsProps {
  rating: ReaderRating | null | undefined;
  size?: 'sm' | 'lg';
}

/** "★ 4.3 (12 ratings)", or "No ratings yet". */
export function RatingStars({ rating, size = 'sm' }: RatingStarsProps) {
  const average = ratingAverage(rating);
  if (!average || !rating?.count) {
    return (
      <span className={`rating rating-none rating-${size}`} data-testid="rating">
        No ratings yet
      </span>
    );
  }
  const full = Math.round(Number(average));
  return (
    <span
      className={`rating rating-${size}`}
      data-testid="rating"
      aria-label={`Rated ${average} out of ${STARS_MAX} by ${countText(rating.count)}`}
    >
      <span className="rating-stars" aria-hidden>
        {'★'.repeat(full)}
        <span className="rating-stars-off">{'★'.repeat(STARS_MAX - full)}</span>
      </span>{' '}
      <span aria-hidden>
        <strong>{average}</strong> <span className="muted">({size === 'lg' ? countText(rating.count) : rating.count.toLocaleString('en-US')})</span>
      </span>
    </span>
  );
}

export interface StarPickerProps {
  value: number;
  onChange: (stars: number) => void;
  disabled?: boolean;
  label?: string;
}

/** Five stars to pick from (a radio group: arrow keys move, as in any radio group). */
export function StarPicker({ value, onChange, disabled, label = 'Your rating' }: StarPickerProps) {
  const name = useId();
  return (
    <fieldset className="star-picker" disabled={disabled}>
      <legend className="rating-hidden">{label}</legend>
      {Array.from({ length: STARS_MAX }, (_, i) => i + 1).map((n) => (
        <label key={n} className={`star-picker-star ${n <= value ? 'star-picker-on' : ''}`}>
          <input
            type="radio"
            name={name}
            value={n}
            checked={value === n}
            onChange={() => onChange(n)}
            className="rating-hidden"
            aria-label={`${n} of ${STARS_MAX} stars`}
          />
          <span aria-hidden>★</span>
        </label>
      ))}
    </fieldset>
  );
}
