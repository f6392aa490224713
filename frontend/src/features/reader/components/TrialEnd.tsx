// The end of the free sample: a clear notice with a Buy button. Buying is the wallet's
// call (GET /api/trade); until the wallet issue lands it answers 404 and we say so.
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { ApiError } from '@/lib/api-client';
import { loginPathWithRedirect } from '@/lib/redirect';
import { useAuthStore } from '@/stores/auth';
import { toast } from '@/stores/toast';
import { buyBook, isFailedEnvelope } from '../api';
import { readerKeys } from '../queries';
import type { Book } from '../types';

export const SAMPLE_END_TEXT = 'The free sample ends here - buy to continue';

export function TrialEnd({ book, onClose }: { book: Book; onClose: () => void }) {
  const user = useAuthStore((s) => s.user);
  const navigate = useNavigate();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const price = Number(book.price);

  const buy = async () => {
    if (!user?.user_id) {
      navigate(loginPathWithRedirect(`/reader?book_id=${encodeURIComponent(book.id)}`));
      return;
    }
    setBusy(true);
    setNote(null);
    try {
      const reply = await buyBook(String(user.user_id), book.id);
      if (isFailedEnvelope(reply)) throw new ApiError('The purchase did not go through', { status: 400, kind: 'envelope' });
      toast.success('Bought! The whole book is yours');
      await client.invalidateQueries({ queryKey: readerKeys.all });
      onClose();
    } catch (e) {
      const status = e instanceof ApiError ? e.status : 0;
      setNote(
        status === 404
          ? 'Purchases open with the wallet soon. Your place in the sample is saved until then.'
          : e instanceof Error
            ? e.message
            : 'The purchase did not go through',
      );
    } finally {
      setBusy(false);
    }
  };

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
        {note ? (
          <p className="notice notice-warning small" role="status">
            {note}
          </p>
        ) : null}
        <div className="trial-end-actions">
          <Button onClick={buy} loading={busy} icon={<Icon name="card" size={16} />}>
            {price > 0 ? `Buy for $${price.toFixed(2)}` : 'Buy'}
          </Button>
          <Button variant="ghost" onClick={onClose}>
            Keep reading the sample
          </Button>
        </div>
      </div>
    </section>
  );
}
