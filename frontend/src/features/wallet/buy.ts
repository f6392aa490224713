// What the buy flow shows, decided from what the screen knows. This is a convenience: the
// server decides (price, balance, ownership) and its answer wins, e.g. a 402 turns the
// step into "not enough money" whatever the cached balance said.
import { ApiError } from '@/lib/api-client';
import { isUncertain } from './idempotency';
import { toCents } from '@/lib/money';

export interface BuyFacts {
  loggedIn: boolean;
  /** The buyer already owns it (bought before, or it is theirs to read anyway). */
  owned: boolean;
  price: number;
  /** The wallet's balance; undefined while loading, null when it could not be loaded. */
  balance: number | null | undefined;
}

export type BuyStep =
  | { kind: 'login' }
  | { kind: 'owned' }
  | { kind: 'checking' }
  /** The balance is too small: offer a recharge of at least shortCents. */
  | { kind: 'short'; priceCents: number; balanceCents: number; shortCents: number }
  | { kind: 'ready'; priceCents: number; balanceCents: number; afterCents: number }
  /** The balance is unknown (the wallet did not load): let the server decide. */
  | { kind: 'unknown'; priceCents: number };

export function decideBuy(f: BuyFacts): BuyStep {
  if (!f.loggedIn) return { kind: 'login' };
  if (f.owned) return { kind: 'owned' };
  const priceCents = toCents(f.price);
  if (f.balance === undefined) return { kind: 'checking' };
  if (f.balance === null) return { kind: 'unknown', priceCents };
  const balanceCents = toCents(f.balance);
  if (balanceCents < priceCents) {
    return { kind: 'short', priceCents, balanceCents, shortCents: priceCents - balanceCents };
  }
  return { kind: 'ready', priceCents, balanceCents, afterCents: balanceCents - priceCents };
}

export type BuyFailure =
  /** 402: not enough money (or, after a race, no wallet to pay from). */
  | { kind: 'short' }
  /** A definite refusal (409 not for sale / own book, 404 unknown book): retrying will not help. */
  | { kind: 'refused'; message: string }
  /** The answer was lost or the service is down: retry with the same key. */
  | { kind: 'retry'; message: string };

export function buyFailure(error: unknown): BuyFailure {
  const message = error instanceof Error && error.message ? error.message : 'The purchase did not go through';
  if (error instanceof ApiError) {
    if (error.status === 402) return { kind: 'short' };
    if (error.status === 404 && /wallet not found/i.test(message)) return { kind: 'short' };
  }
  if (isUncertain(error)) return { kind: 'retry', message };
  return { kind: 'refused', message };
}
