// The end of the free sample: a clear notice with a way to buy. Buying is the wallet's (its
// buy control comes from the route, as `buy`); once bought, the reader swaps the sample for
// the whole book and this notice goes away.
import type { ReactNode } from 'react';
import { Button, ButtonLink } from '@/components/Button';
import { Icon } from '@/components/Icon';
import type { Book } from '../types';

export const SAMPLE_END_TEXT = 'The free sample ends here - buy to continue';

export function TrialEnd({ book, buy, onClose }: { book: Book; buy?: ReactNode; onClose: () => void }) {
  return (
    <section className="trial-end" role="region" aria-label="End of the free sample" data-testid="trial-end">
      <div className="trial-end-icon" aria-hidden>
        <Icon name="book" size={26} />
      </div>
      <div className="trial-end-body">
        <h2 className="trial-end-title">{SAMPLE_END_TEXT}</h2>
        <p className="muted small">
          You have read the free part of <strong>{book.title}</strong>. Buy it to read on from here.
        </p>
        <div className="trial-end-actions">
          {buy ?? (
            <ButtonLink to={`/book?book_id=${encodeURIComponent(book.id)}`}>
              See how to buy it
            </ButtonLink>
          )}
          <Button variant="ghost" onClick={onClose}>
            Keep reading the sample
          </Button>
        </div>
      </div>
    </section>
  );
}
