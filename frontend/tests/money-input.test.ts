// Typed money, read one way for every screen: what the wallet (recharges, top-ups), pricing
// (prices, goals, pledges) and the catalog (a book's price, the shop's price range) accept and
// refuse, and where their old readings disagreed, the stricter one.
import { describe, expect, it } from 'vitest';
import { MAX_MONEY, MONEY_MESSAGES, readMoney } from '@/lib/money-input';

const cents = (raw: string, allowZero = false) => {
  const read = readMoney(raw, { allowZero });
  return read.ok ? read.cents : read.error;
};

describe('typed money', () => {
  it.each([
    ['20', 2000],
    ['4.99', 499],
    ['12.5', 1250],
    ['12.50', 1250],
    [' 0.01 ', 1],
    ['$7.25', 725],
    [' $12 ', 1200],
    ['1,000.99', 100099],
    ['1,000,000', 100000000],
    ['1,000.', 100000],
    ['.5', 50],
    ['5.', 500],
    ['007', 700],
    ['1000000', 100000000],
    ['1000000.00', 100000000],
  ])('%j is %d cents', (raw, want) => {
    expect(readMoney(raw)).toEqual({ ok: true, cents: want, amount: want / 100 });
  });

  it('reads cents from the digits, never through a float', () => {
    expect(readMoney('0.29')).toEqual({ ok: true, cents: 29, amount: 0.29 });
    expect(readMoney('999999.99')).toEqual({ ok: true, cents: 99999999, amount: 999999.99 });
  });

  it.each([
    ['', 'required'],
    ['   ', 'required'],
    ['abc', 'notMoney'],
    ['NaN', 'notMoney'],
    ['Infinity', 'notMoney'],
    ['1e3', 'notMoney'],
    ['0x10', 'notMoney'],
    ['12,5', 'notMoney'],
    ['1,00', 'notMoney'],
    [',5', 'notMoney'],
    ['.', 'notMoney'],
    ['$', 'notMoney'],
    ['-', 'notMoney'],
    ['5$', 'notMoney'],
    ['$-5', 'notMoney'],
    ['--5', 'notMoney'],
    ['-abc', 'notMoney'],
    ['-1', 'negative'],
    ['-5', 'negative'],
    ['-$5', 'negative'],
    ['-0.01', 'negative'],
    ['-4.999', 'negative'],
    ['4.999', 'decimals'],
    ['0.001', 'decimals'],
    ['-0.000', 'decimals'],
    ['0', 'zero'],
    ['0.00', 'zero'],
    ['-0', 'zero'],
    ['1000000.01', 'tooLarge'],
    ['2000000', 'tooLarge'],
    ['99999999999', 'tooLarge'],
    ['99999999999999999999', 'tooLarge'],
    ['00000001000000.01', 'tooLarge'],
  ] as const)('%j is refused: %s', (raw, problem) => {
    expect(readMoney(raw)).toEqual({ ok: false, error: MONEY_MESSAGES[problem] });
  });

  it('lets a price be 0 (free), never below it', () => {
    expect(readMoney('0', { allowZero: true })).toEqual({ ok: true, cents: 0, amount: 0 });
    expect(readMoney('0.00', { allowZero: true })).toEqual({ ok: true, cents: 0, amount: 0 });
    expect(readMoney('$.0', { allowZero: true })).toEqual({ ok: true, cents: 0, amount: 0 });
    expect(cents('-0', true)).toBe(MONEY_MESSAGES.negative);
    expect(cents('-1', true)).toBe(MONEY_MESSAGES.negative);
  });

  // Where the wallet and pricing once dropped spaces and a "+" and the catalog refused them,
  // the stricter reading stands: "1 5" is a slip, not 15.
  it.each(['1 000', '1 5', '$ 5', '5 .50', '+5', '+$5'])('refuses %j', (raw) => {
    expect(cents(raw)).toBe(MONEY_MESSAGES.notMoney);
    expect(cents(raw, true)).toBe(MONEY_MESSAGES.notMoney);
  });

  it('says the limit in words, and lets a screen say the rest its own way', () => {
    expect(MONEY_MESSAGES.tooLarge).toBe(`Must be at most ${MAX_MONEY.toLocaleString('en-US')}`);
    expect(readMoney('4.999', { messages: { decimals: 'whole cents, please' } })).toEqual({ ok: false, error: 'whole cents, please' });
    expect(readMoney('', { messages: { decimals: 'whole cents, please' } })).toEqual({ ok: false, error: MONEY_MESSAGES.required });
  });
});
