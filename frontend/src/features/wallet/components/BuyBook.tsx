// The buy flow of the book page and of the end of a sample: a Buy button with the price;
// visitors go to the login and come back; buyers confirm in a dialog that shows the price
// and their balance, and are offered a recharge (with the way back) when it is too small.
// The server decides: a 402 shows the same offer, a 409 says why not, a lost answer can be
// retried with the same Idempotency-Key.
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { Button, ButtonLink } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { loginPathWithRedirect } from '@/lib/redirect';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { toast } from '@/stores/toast';
import { buyFailure, decideBuy, type BuyFailure, type BuyStep } from '../buy';
import { useBuyBook, useWallet } from '../hooks';
import { DEFAULT_CURRENCY, formatMoney, fromCents, toCents } from '@/lib/money';
import { suggestedRecharge } from '../money';
import type { Trade } from '../types';
import { Dialog } from '@/components/Dialog';

export interface BuyBookProps {
  bookId: string;
  title: string;
  price: number | string | null | undefined;
  /** The viewer may already read the whole book (bought it, or it is theirs). */
  owned?: boolean;
  /** Called after a purchase: refresh what the purchase unlocks (book, content, library). */
  onBought?: (trade: Trade) => unknown;
  /** Where "Read the whole book" leads after a purchase; none: no such link. */
  readTo?: string;
  size?: 'sm' | 'md' | 'lg';
  block?: boolean;
}

/** Where the recharge page sends the buyer back to, with the amount they miss. */
export function rechargePath(shortCents: number, back: string): string {
  const amount = suggestedRecharge(shortCents);
  return `/user/recharge?amount=${encodeURIComponent(String(amount))}&redirect=${encodeURIComponent(back)}`;
}

export function buyLabel(price: number | string | null | undefined): string {
  const cents = toCents(price);
  return cents > 0 ? `Buy for ${formatMoney(fromCents(cents))}` : 'Get it free';
}

export function BuyBook({ bookId, title, price, owned = false, onBought, readTo, size = 'lg', block }: BuyBookProps) {
  const location = useLocation();
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const [open, setOpen] = useState(false);
  const here = location.pathname + location.search;
  const label = buyLabel(price);

  if (owned) {
    return (
      <span className="badge badge-success buy-owned" data-testid="owned-badge">
        <Icon name="check" size={14} /> You own this book
      </span>
    );
  }
  if (!loggedIn) {
    return (
      <ButtonLink to={loginPathWithRedirect(here)} size={size} block={block} data-testid="buy-button">
        {label}
      </ButtonLink>
    );
  }
  return (
    <>
      <Button size={size} block={block} onClick={() => setOpen(true)} data-testid="buy-button" icon={<Icon name="card" size={16} />}>
        {label}
      </Button>
      {open ? (
        <BuyDialog
          bookId={bookId}
          title={title}
          price={Number(price) || 0}
          back={here}
          readTo={readTo}
          onBought={onBought}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

function BuyDialog({
  bookId,
  title,
  price,
  back,
  readTo,
  onBought,
  onClose,
}: {
  bookId: string;
  title: string;
  price: number;
  back: string;
  readTo?: string;
  onBought?: (trade: Trade) => unknown;
  onClose: () => void;
}) {
  const wallet = useWallet();
  const [failure, setFailure] = useState<BuyFailure | null>(null);
  const [bought, setBought] = useState<Trade | null>(null);
  const buy = useBuyBook(bookId, async (trade) => {
    setBought(trade);
    toast.success(trade.replayed ? `You already own “${title}”; nothing was charged` : `“${title}” is yours`);
    await onBought?.(trade);
  });
  const currency = wallet.data?.currency ?? DEFAULT_CURRENCY;
  const money = (cents: number) => formatMoney(fromCents(cents), currency);

  const balance = wallet.isLoading ? undefined : wallet.isError ? null : (wallet.data?.balance ?? null);
  let step: BuyStep = decideBuy({ loggedIn: true, owned: false, price, balance });
  // The server said 402: trust it over a cached balance.
  if (failure?.kind === 'short' && step.kind !== 'short' && step.kind !== 'checking') {
    const priceCents = toCents(price);
    const balanceCents = step.kind === 'ready' ? step.balanceCents : 0;
    step = { kind: 'short', priceCents, balanceCents, shortCents: Math.max(1, priceCents - balanceCents) };
  }

  const confirm = () => {
    setFailure(null);
    // (the hook refreshes the balance after a failure, so "short" shows the fresh one)
    buy.mutate(undefined, { onError: (error) => setFailure(buyFailure(error)) });
  };

  const busy = buy.isPending;
  const footer = bought ? (
    <>
      {readTo ? (
        <ButtonLink to={readTo} data-autofocus>
          Read the whole book
        </ButtonLink>
      ) : null}
      <Button variant="secondary" onClick={onClose}>
        Close
      </Button>
    </>
  ) : step.kind === 'short' ? (
    <>
      <ButtonLink to={rechargePath(step.shortCents, back)} data-testid="buy-recharge" data-autofocus>
        Recharge
      </ButtonLink>
      <Button variant="ghost" onClick={onClose}>
        Not now
      </Button>
    </>
  ) : failure?.kind === 'refused' ? (
    <Button variant="secondary" onClick={onClose} data-autofocus>
      Close
    </Button>
  ) : (
    <>
      <Button
        onClick={confirm}
        loading={busy}
        disabled={step.kind === 'checking'}
        data-testid="buy-confirm"
        data-autofocus
      >
        {busy ? 'Buying…' : failure?.kind === 'retry' ? 'Try again' : `Confirm purchase`}
      </Button>
      <Button variant="ghost" onClick={onClose} disabled={busy}>
        Cancel
      </Button>
    </>
  );

  return (
    <Dialog title={bought ? 'You own this book' : 'Buy this book'} onClose={onClose} busy={busy} footer={footer} testId="buy-dialog">
      <p className="buy-title">{title}</p>
      <dl className="buy-lines">
        <div>
          <dt>Price</dt>
          <dd data-testid="buy-price">{price > 0 ? money(toCents(price)) : 'Free'}</dd>
        </div>
        {bought ? null : (
          <div>
            <dt>Your balance</dt>
            <dd data-testid="buy-balance">
              {step.kind === 'checking' ? <Spinner size={14} label="Loading your balance" /> : balance === null ? 'Unavailable' : money(toCents(balance))}
            </dd>
          </div>
        )}
        {step.kind === 'ready' && !bought ? (
          <div className="buy-after">
            <dt>After buying</dt>
            <dd>{money(step.afterCents)}</dd>
          </div>
        ) : null}
      </dl>

      <div aria-live="polite">
        {bought ? (
          <div className="notice notice-success" data-testid="buy-done">
            <p className="notice-title">{bought.replayed ? 'You already owned this book' : 'Purchase complete'}</p>
            <p>{bought.replayed ? 'Nothing was charged.' : `${money(toCents(bought.price))} was paid from your wallet. The whole book is yours.`}</p>
          </div>
        ) : step.kind === 'short' ? (
          <div className="notice notice-warning" data-testid="buy-short">
            <p className="notice-title">Not enough money in your wallet</p>
            <p>
              You need {money(step.shortCents)} more to buy this book. Recharge your wallet and you will come straight back here.
            </p>
          </div>
        ) : failure?.kind === 'refused' ? (
          <div className="notice notice-error" role="alert" data-testid="buy-error">
            <p>{failure.message}</p>
          </div>
        ) : failure?.kind === 'retry' ? (
          <div className="notice notice-error" role="alert" data-testid="buy-error">
            <p>{failure.message}</p>
            <p className="small">Trying again is safe: it is the same purchase, so you are never charged twice.</p>
          </div>
        ) : step.kind === 'unknown' ? (
          <p className="muted small">Your balance could not be loaded; the purchase goes through if your wallet covers the price.</p>
        ) : step.kind === 'ready' ? (
          <p className="muted small">The price is paid from your Quire wallet. You can read the whole book straight away.</p>
        ) : null}
      </div>
    </Dialog>
  );
}
