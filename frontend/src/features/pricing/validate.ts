// Typed prices, goals, durations and pledges, checked the way the server checks them (the
// contract's 400s) so a bad one is refused before it costs a round trip. The server still
// decides: when it refuses, its own message is shown. Money is read the shared way
// (src/lib/money-input.ts), in its own words.
import { readMoney } from '@/lib/money-input';

export const MIN_DAYS = 1;
export const MAX_DAYS = 90;

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** A price (`allowZero`: 0 is free), a goal or a pledge, as the decimal the wire carries. */
export function parseMoney(raw: string, { allowZero = false }: { allowZero?: boolean } = {}): Checked<number> {
  const read = readMoney(raw, { allowZero });
  return read.ok ? { ok: true, value: read.amount } : read;
}

/**
 * What a book may cost, as the catalog allows it: 0 (free), or from $0.99 to $200.00, the
 * bounds Kindle Direct Publishing keeps for an e-book's list price in US dollars.
 */
export const LIST_PRICE_MIN = 0.99;
export const LIST_PRICE_MAX = 200;
export const LIST_PRICE_BOUNDS = 'Free (0) or from $0.99 to $200.00, the range Kindle Direct Publishing allows for e-books';

/** A book's price: money as parseMoney reads it, within the list-price bounds. */
export function parseListPrice(raw: string): Checked<number> {
  const read = parseMoney(raw, { allowZero: true });
  if (!read.ok) return read;
  if (read.value !== 0 && (read.value < LIST_PRICE_MIN || read.value > LIST_PRICE_MAX)) {
    return { ok: false, error: `Must be ${LIST_PRICE_BOUNDS.charAt(0).toLowerCase()}${LIST_PRICE_BOUNDS.slice(1)}` };
  }
  return read;
}

/** A campaign's length: a whole number of days, MIN_DAYS..MAX_DAYS. */
export function parseDays(raw: string): Checked<number> {
  const text = raw.trim();
  if (text === '') return { ok: false, error: 'Enter a number of days' };
  if (!/^\d+$/.test(text)) return { ok: false, error: 'Enter a whole number of days' };
  const days = Number(text);
  if (days < MIN_DAYS || days > MAX_DAYS) return { ok: false, error: `Between ${MIN_DAYS} and ${MAX_DAYS} days` };
  return { ok: true, value: days };
}
