// Money on the screens, for every feature (what a person types is read in money-input.ts).
// The wire carries decimals with at most two places; arithmetic here is done in whole cents
// so 0.1 + 0.2 never shows up as a balance.

export const DEFAULT_CURRENCY = 'USD';

export function toCents(amount: number | string | null | undefined): number {
  const n = typeof amount === 'number' ? amount : Number(amount);
  return Number.isFinite(n) ? Math.round(n * 100) : 0;
}

/** Cents to the wire's decimal (1250 -> 12.5). */
export function fromCents(cents: number): number {
  return Math.round(cents) / 100;
}

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(currency: string): Intl.NumberFormat {
  const code = /^[A-Z]{3}$/.test(currency) ? currency : DEFAULT_CURRENCY;
  let f = formatters.get(code);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    } catch {
      f = new Intl.NumberFormat('en-US', { style: 'currency', currency: DEFAULT_CURRENCY });
    }
    formatters.set(code, f);
  }
  return f;
}

function asNumber(amount: number | string | null | undefined): number | null {
  if (amount === null || amount === undefined || amount === '') return null;
  const n = typeof amount === 'number' ? amount : Number(amount);
  return Number.isFinite(n) ? n : null;
}

/** "$12.50"; missing or unreadable values are an em dash. */
export function formatMoney(amount: number | string | null | undefined, currency = DEFAULT_CURRENCY): string {
  const n = asNumber(amount);
  return n === null ? '—' : formatterFor(currency).format(fromCents(toCents(n)));
}

/** "+$12.50" / "−$4.99": money in and out of a statement. */
export function formatSigned(amount: number, direction: 'in' | 'out', currency = DEFAULT_CURRENCY): string {
  return `${direction === 'in' ? '+' : '\u2212'}${formatMoney(Math.abs(amount), currency)}`;
}

/** A book's price: "$4.99"; zero is "Free"; missing, unreadable or negative is an em dash. */
export function formatPrice(price: number | string | null | undefined): string {
  const n = asNumber(price);
  if (n === null || n < 0) return '—';
  return n === 0 ? 'Free' : formatMoney(n);
}
