// Typed prices, goals, durations and pledges, checked the way the server checks them (the
// contract's 400s) so a bad one is refused before it costs a round trip. The server still
// decides: when it refuses, its own message is shown.

/** The most a price, a goal or a pledge may be. */
export const MAX_MONEY = 1_000_000;
export const MIN_DAYS = 1;
export const MAX_DAYS = 90;

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

export const MONEY_MESSAGES = {
  required: 'Enter an amount',
  notMoney: 'Enter an amount such as 4.99',
  decimals: 'Use at most 2 decimal places',
  negative: 'The amount cannot be negative',
  zero: 'The amount must be more than 0',
  tooLarge: `Must be at most ${MAX_MONEY.toLocaleString('en-US')}`,
} as const;

/**
 * Reads money typed by a person ("4.99", "$12", "1,000.50"): at most two decimal places and
 * at most MAX_MONEY; `allowZero` for a price (0 is free), not for a goal or a pledge.
 */
export function parseMoney(raw: string, { allowZero = false }: { allowZero?: boolean } = {}): Checked<number> {
  let text = raw.trim().replace(/\s+/g, '');
  if (text === '') return { ok: false, error: MONEY_MESSAGES.required };
  if (/^-/.test(text)) return { ok: false, error: MONEY_MESSAGES.negative };
  text = text.replace(/^\+/, '').replace(/^\$/, '');
  if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(text)) text = text.replace(/,/g, '');
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text)) return { ok: false, error: MONEY_MESSAGES.notMoney };
  const decimals = text.includes('.') ? text.split('.')[1].length : 0;
  if (decimals > 2) return { ok: false, error: MONEY_MESSAGES.decimals };
  const [whole, fraction = ''] = text.split('.');
  const wholeDigits = whole.replace(/^0+(?=\d)/, '') || '0';
  if (wholeDigits.length > String(MAX_MONEY).length) return { ok: false, error: MONEY_MESSAGES.tooLarge };
  // Whole cents from the digits, never through a float.
  const cents = Number(wholeDigits) * 100 + Number((fraction + '00').slice(0, 2));
  if (cents > MAX_MONEY * 100) return { ok: false, error: MONEY_MESSAGES.tooLarge };
  if (cents === 0 && !allowZero) return { ok: false, error: MONEY_MESSAGES.zero };
  return { ok: true, value: cents / 100 };
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
