// Amounts typed on the wallet screens (formatting lives in src/lib/money.ts). Typed amounts
// are checked the way the server checks them (positive, two places, not absurdly large), so a
// bad one is refused with a clear message before it costs a round trip.
import { formatMoney, fromCents } from '@/lib/money';

/** The most one recharge or top-up may add: $1,000,000.00. */
export const MAX_AMOUNT = 1_000_000;
export const MAX_AMOUNT_CENTS = MAX_AMOUNT * 100;

/** Quick amounts of the recharge page. */
export const PRESET_AMOUNTS = [5, 10, 20, 50] as const;

export type AmountCheck = { ok: true; cents: number; amount: number } | { ok: false; error: string };

export const AMOUNT_MESSAGES = {
  required: 'Enter an amount',
  notNumber: 'Enter a number, like 12.50',
  notPositive: 'The amount must be more than 0',
  negative: 'The amount must be positive',
  decimals: 'Use at most 2 decimal places (whole cents)',
  tooLarge: `The most you can add at once is ${formatMoney(MAX_AMOUNT)}`,
} as const;

/**
 * Reads an amount typed by a person: "20", "12.5", "$1,000.00". It must be positive, have at
 * most two decimal places and be at most MAX_AMOUNT. Returns the cents, or what is wrong.
 */
export function parseAmount(raw: string): AmountCheck {
  let text = raw.trim().replace(/\s+/g, '');
  if (text === '') return { ok: false, error: AMOUNT_MESSAGES.required };
  const negative = /^-/.test(text);
  text = text.replace(/^[-+]/, '').replace(/^\$/, '');
  // Thousands separators only where they group digits by three.
  if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(text)) text = text.replace(/,/g, '');
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text)) return { ok: false, error: AMOUNT_MESSAGES.notNumber };
  if (negative && Number(text) !== 0) return { ok: false, error: AMOUNT_MESSAGES.negative };
  const decimals = text.includes('.') ? text.split('.')[1].length : 0;
  if (decimals > 2) return { ok: false, error: AMOUNT_MESSAGES.decimals };
  const [whole, fraction = ''] = text.split('.');
  // Whole cents from the digits themselves, never through a float.
  const wholeDigits = whole.replace(/^0+(?=\d)/, '') || '0';
  if (wholeDigits.length > String(MAX_AMOUNT).length) return { ok: false, error: AMOUNT_MESSAGES.tooLarge };
  const cents = Number(wholeDigits) * 100 + Number((fraction + '00').slice(0, 2));
  if (cents <= 0) return { ok: false, error: AMOUNT_MESSAGES.notPositive };
  if (cents > MAX_AMOUNT_CENTS) return { ok: false, error: AMOUNT_MESSAGES.tooLarge };
  return { ok: true, cents, amount: fromCents(cents) };
}

/**
 * The amount to suggest on the recharge page when `cents` are missing: the smallest quick
 * amount that covers it, else the shortfall itself rounded up to whole units.
 */
export function suggestedRecharge(shortCents: number): number {
  if (shortCents <= 0) return PRESET_AMOUNTS[0];
  const preset = PRESET_AMOUNTS.find((p) => p * 100 >= shortCents);
  return preset ?? Math.ceil(shortCents / 100);
}
