// Idempotency keys of money-moving calls (DESIGN.md section 4), for every feature that moves
// money (the wallet, crowd-funding pledges). One key per intent of the
// user — "recharge $20", "buy this book" — reused for every retry of that intent, so a
// retry after a lost answer replays the first answer instead of moving the money twice.
// The intent ends, and the next attempt gets a fresh key, when the server gave a definite
// answer (success, or a refusal such as 400/402/409); an uncertain failure (network,
// timeout, 5xx, 429) keeps the key: the money may have moved.
import { ApiError } from '@/lib/api-client';

/** A fresh key (randomUUID needs a secure context; fall back to random bytes). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * True when the server may have done the work although the caller saw a failure: then a
 * retry must carry the same key.
 */
export function isUncertain(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  if (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'abort') return true;
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

/**
 * The key of one intent at a time. `fingerprint` says what the intent is (e.g. the amount):
 * the same fingerprint while the intent is open gets the same key; a different one (the user
 * changed the amount) starts a new intent.
 */
export class IntentKey {
  private current: { fingerprint: string; key: string } | null = null;

  constructor(private readonly make: () => string = newIdempotencyKey) {}

  keyFor(fingerprint: string): string {
    if (!this.current || this.current.fingerprint !== fingerprint) {
      this.current = { fingerprint, key: this.make() };
    }
    return this.current.key;
  }

  /** The key of the open intent, if any. */
  peek(): string | null {
    return this.current?.key ?? null;
  }

  /** Closes the intent after an answer: a success or a definite refusal. */
  settle(error?: unknown): void {
    if (error === undefined || !isUncertain(error)) this.current = null;
  }

  reset(): void {
    this.current = null;
  }
}
