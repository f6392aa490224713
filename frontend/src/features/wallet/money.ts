// Amounts typed on the wallet screens, read the shared way (src/lib/money-input.ts) with the
// wallet's own words; formatting lives in src/lib/money.ts.
import { formatMoney } from '@/lib/money';
import { MAX_MONEY, readMoney, type TypedMoney } from '@/lib/money-input';

/** The most one recharge or top-up may add: $1,000,000.00. */
export const MAX_AMOUNT = MAX_MONEY;

/** Quick amounts of the recharge page. */
export const PRESET_AMOUNTS = [5, 10, 20, 50] as const;

export type AmountCheck = TypedMoney;

export const AMOUNT_MESSAGES = {
  required: 'Enter an amount',
  notNumber: 'Enter a number, like 12.50',
  notPositive: 'The amount must be more than 0',
  negative: 'The amount must be positive',
  decimals: 'Use at most 2 decimal places (whole cents)',
  tooLarge: `The most you can add at once is ${formatMoney(MAX_AMOUNT)}`,
} as const;

const { notNumber, notPositive, ...same } = AMOUNT_MESSAGES;
const WALLET_WORDS = { ...same, notMoney: notNumber, zero: notPositive };

/** Reads an amount typed by a person ("20", "12.5", "$1,000.00"): positive, whole cents, at most MAX_AMOUNT. */
export function parseAmount(raw: string): AmountCheck {
  return readMoney(raw, { messages: WALLET_WORDS });
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
