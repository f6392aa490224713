import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button, ButtonLink } from '@/components/Button';
import { ApiError } from '@/lib/api-client';
import { loginPathWithRedirect } from '@/lib/redirect';
import { toast } from '@/stores/toast';
import { buyBook, catalogKeys, newIdempotencyKey } from '../api';
import { formatPrice } from '../format';
import type { Book } from '../types';

export type BuyNotice = { kind: 'soon' } | { kind: 'balance' } | { kind: 'error'; message: string };

export const PURCHASES_SOON =
  'Purchases open together with the wallet, very soon. Until then, enjoy the free sample.';

/**
 * What the buyer reads after a failed purchase. The trade route arrives with the wallet
 * milestone; until then the gateway answers 404 "No such API route", which is not an
 * error of the buyer's but a feature not open yet.
 */
export function buyNotice(error: unknown): BuyNotice {
  if (error instanceof ApiError) {
    if (error.status === 404) return { kind: 'soon' };
    if (error.status === 402) return { kind: 'balance' };
    return { kind: 'error', message: error.message };
  }
  return { kind: 'error', message: error instanceof Error ? error.message : 'The purchase failed' };
}

export interface BuyButtonProps {
  book: Pick<Book, 'price'> & { id?: string; book_id?: string; title: string };
  /** The logged-in user's user_id; null for visitors (the button leads to the login). */
  userId: string | null;
  block?: boolean;
}

export function BuyButton({ book, userId, block }: BuyButtonProps) {
  const location = useLocation();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<BuyNotice | null>(null);
  // One key per purchase of this book: repeated clicks replay instead of buying twice.
  const [attemptKey, setAttemptKey] = useState(newIdempotencyKey);
  const bookId = String(book.book_id ?? book.id ?? '');
  const price = formatPrice(book.price);
  const label = price === 'Free' ? 'Get it free' : `Buy for ${price}`;

  const buy = useMutation({
    mutationFn: () => buyBook(userId as string, bookId, attemptKey),
    onMutate: () => setNotice(null),
    onSuccess: async () => {
      setAttemptKey(newIdempotencyKey());
      toast.success(`“${book.title}” is yours`);
      await queryClient.invalidateQueries({ queryKey: catalogKeys.all });
    },
    onError: (error) => setNotice(buyNotice(error)),
  });

  if (!userId) {
    return (
      <ButtonLink to={loginPathWithRedirect(location.pathname + location.search)} size="lg" block={block} data-testid="buy-button">
        {label}
      </ButtonLink>
    );
  }

  return (
    <div className="buy">
      <Button size="lg" block={block} onClick={() => buy.mutate()} loading={buy.isPending} data-testid="buy-button">
        {label}
      </Button>
      {notice ? (
        <div className={`notice ${notice.kind === 'error' ? 'notice-error' : 'notice-warning'} buy-notice`} role="status" data-testid="buy-notice">
          {notice.kind === 'soon' ? (
            <>
              <p className="notice-title">Coming soon</p>
              <p>{PURCHASES_SOON}</p>
            </>
          ) : notice.kind === 'balance' ? (
            <p>
              Your wallet balance is too low for this book. <Link to="/user/recharge">Recharge your wallet</Link>
            </p>
          ) : (
            <p>{notice.message}</p>
          )}
        </div>
      ) : null}
    </div>
  );
}
