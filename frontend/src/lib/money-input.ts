// Money a person typed ("4.99", "$12", "1,000.50"), for every feature: one reading, so a
// price, a goal, a pledge and a recharge refuse the same inputs the server refuses (positive,
// at most two places, not absurdly large) before they cost a round trip. The server still
// decides. Showing money is src/lib/money.ts.
import { fromCents } from './money';

/** The most a price, a goal, a pledge, a recharge or a top-up may be. */
export const MAX_MONEY = 1_000_000;
export const MAX_MONEY_CENTS = MAX_MONEY * 100;

export type MoneyProblem = 'required' | 'notMoney' | 'negative' | 'decimals' | 'zero' | 'tooLarge';
export type MoneyMessages = Record<MoneyProblem, string>;

/** What is wrong, in words; a screen may say some of it its own way. */
export const MONEY_MESSAGES: MoneyMessages = {
  required: 'Enter an amount',
  notMoney: 'Enter an amount such as 4.99',
  decimals: 'Use at most 2 decimal places',
  negative: 'The amount cannot be negative',
  zero: 'The amount must be more than 0',
  tooLarge: `Must be at most ${MAX_MONEY.toLocaleString('en-US')}`,
};

export type TypedMoney = { ok: true; cents: number; amount: number } | { ok: false; error: string };

export interface MoneyRules {
  /** A price may be 0 (free); a goal, a pledge or a recharge may not. */
  allowZero?: boolean;
  messages?: Partial<MoneyMessages>;
}

// An optional minus (only to say why it is refused), an optional "$", then digits with an
// optional fraction. Commas only where they group the digits by three, so "12,5" (a decimal
// comma) is refused rather than read as 125. No space inside: "1 5" is not 15.
const SHAPE = /^(-?)\$?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)$/;

/** Reads typed money into whole cents (and the wire's decimal), or says what is wrong. */
export function readMoney(raw: string, { allowZero = false, messages }: MoneyRules = {}): TypedMoney {
  const say = { ...MONEY_MESSAGES, ...messages };
  const refuse = (problem: MoneyProblem): TypedMoney => ({ ok: false, error: say[problem] });
  const text = raw.trim();
  if (text === '') return refuse('required');
  const shape = SHAPE.exec(text);
  if (!shape) return refuse('notMoney');
  const [whole, fraction = ''] = shape[2].replace(/,/g, '').split('.');
  const negative = shape[1] === '-';
  if (negative && /[1-9]/.test(whole + fraction)) return refuse('negative');
  if (fraction.length > 2) return refuse('decimals');
  // Whole cents from the digits themselves, never through a float.
  const wholeDigits = whole.replace(/^0+(?=\d)/, '') || '0';
  if (wholeDigits.length > String(MAX_MONEY).length) return refuse('tooLarge');
  const cents = Number(wholeDigits) * 100 + Number((fraction + '00').slice(0, 2));
  if (cents > MAX_MONEY_CENTS) return refuse('tooLarge');
  if (cents === 0 && !allowZero) return refuse('zero');
  // "-0" is no price either: a sign where none belongs is a typing slip, not a free book.
  if (negative) return refuse('negative');
  return { ok: true, cents, amount: fromCents(cents) };
}
