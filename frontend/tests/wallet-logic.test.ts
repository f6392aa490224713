// The wallet's pure rules: typed amounts, money formatting, the idempotency intent, and the
// decisions of the buy flow.
import { describe, expect, it } from 'vitest';
import { buyFailure, decideBuy } from '@/features/wallet/buy';
import { IntentKey, isUncertain, newIdempotencyKey } from '@/features/wallet/idempotency';
import { AMOUNT_MESSAGES, parseAmount, suggestedRecharge } from '@/features/wallet/money';
import { formatMoney, formatSigned, toCents } from '@/lib/money';
import { ApiError } from '@/lib/api-client';
import { inAppReturnPath } from '@/lib/redirect';
import { buyLabel, rechargePath } from '@/features/wallet/components/BuyBook';

describe('a typed amount', () => {
  it.each([
    ['20', 2000],
    ['12.5', 1250],
    ['12.50', 1250],
    [' 0.01 ', 1],
    ['$7.25', 725],
    ['1,000.99', 100099],
    ['.5', 50],
    ['5.', 500],
    ['1000000', 100000000],
    ['1000000.00', 100000000],
    ['007', 700],
  ])('%s is %d cents', (raw, cents) => {
    expect(parseAmount(raw)).toEqual({ ok: true, cents, amount: cents / 100 });
  });

  it.each([
    ['', AMOUNT_MESSAGES.required],
    ['   ', AMOUNT_MESSAGES.required],
    ['abc', AMOUNT_MESSAGES.notNumber],
    ['1e3', AMOUNT_MESSAGES.notNumber],
    ['12,5', AMOUNT_MESSAGES.notNumber],
    ['NaN', AMOUNT_MESSAGES.notNumber],
    ['Infinity', AMOUNT_MESSAGES.notNumber],
    ['0', AMOUNT_MESSAGES.notPositive],
    ['0.00', AMOUNT_MESSAGES.notPositive],
    ['-0', AMOUNT_MESSAGES.notPositive],
    ['-5', AMOUNT_MESSAGES.negative],
    ['-0.01', AMOUNT_MESSAGES.negative],
    ['4.999', AMOUNT_MESSAGES.decimals],
    ['0.001', AMOUNT_MESSAGES.decimals],
    ['1000000.01', AMOUNT_MESSAGES.tooLarge],
    ['2000000', AMOUNT_MESSAGES.tooLarge],
    ['99999999999999999999', AMOUNT_MESSAGES.tooLarge],
  ])('%j is refused: %s', (raw, error) => {
    expect(parseAmount(raw)).toEqual({ ok: false, error });
  });

  it('says the limits in words', () => {
    expect(AMOUNT_MESSAGES.tooLarge).toBe('The most you can add at once is $1,000,000.00');
    expect(AMOUNT_MESSAGES.decimals).toContain('2 decimal places');
  });
});

describe('money on the screen', () => {
  it('formats decimals as currency, without float noise', () => {
    expect(formatMoney(12.5)).toBe('$12.50');
    expect(formatMoney(0.1 + 0.2)).toBe('$0.30');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney('4.99')).toBe('$4.99');
    expect(formatMoney(1000000)).toBe('$1,000,000.00');
    expect(formatMoney(3, 'EUR')).toBe('€3.00');
    expect(formatMoney(3, 'not-a-code')).toBe('$3.00');
    expect(formatMoney(null)).toBe('—');
    expect(formatMoney('x')).toBe('—');
    expect(toCents(4.99)).toBe(499);
    expect(toCents(0.29)).toBe(29); // 28.999… before rounding
  });

  it('signs money in and out', () => {
    expect(formatSigned(20, 'in')).toBe('+$20.00');
    expect(formatSigned(3.99, 'out')).toBe('\u2212$3.99');
  });

  it('suggests the smallest quick amount that covers a shortfall', () => {
    expect(suggestedRecharge(1)).toBe(5);
    expect(suggestedRecharge(500)).toBe(5);
    expect(suggestedRecharge(501)).toBe(10);
    expect(suggestedRecharge(4999)).toBe(50);
    expect(suggestedRecharge(12_001)).toBe(121);
    expect(suggestedRecharge(0)).toBe(5);
  });
});

describe('the idempotency key of an intent', () => {
  const network = new ApiError('Network error: fetch failed', { status: 0, kind: 'network' });
  const timeout = new ApiError('Request timed out after 100 s', { status: 0, kind: 'timeout' });
  const unavailable = new ApiError('Payment provider temporarily unavailable', { status: 503, kind: 'http' });
  const tooMany = new ApiError('Too many requests', { status: 429, kind: 'http' });
  const bad = new ApiError('amount must have at most 2 decimal places', { status: 400, kind: 'http' });
  const short = new ApiError('Insufficient balance', { status: 402, kind: 'http' });

  const counter = () => {
    let n = 0;
    return () => `key-${++n}`;
  };

  it('are fresh UUIDs', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });

  it('is reused by every retry of the same intent while its outcome is unknown', () => {
    const intent = new IntentKey(counter());
    const first = intent.keyFor('recharge:2000');
    for (const error of [network, timeout, unavailable, tooMany, new Error('boom')]) {
      intent.settle(error);
      expect(intent.keyFor('recharge:2000')).toBe(first);
    }
  });

  it('is new after a success or a definite refusal', () => {
    const intent = new IntentKey(counter());
    expect(intent.keyFor('recharge:2000')).toBe('key-1');
    intent.settle();
    expect(intent.peek()).toBeNull();
    expect(intent.keyFor('recharge:2000')).toBe('key-2');
    intent.settle(bad);
    expect(intent.keyFor('recharge:2000')).toBe('key-3');
    intent.settle(short);
    expect(intent.keyFor('recharge:2000')).toBe('key-4');
  });

  it('is new when the intent changes (another amount)', () => {
    const intent = new IntentKey(counter());
    expect(intent.keyFor('recharge:2000')).toBe('key-1');
    intent.settle(network);
    expect(intent.keyFor('recharge:500')).toBe('key-2');
  });

  it('tells uncertain failures from answers', () => {
    expect([network, timeout, unavailable, tooMany].map(isUncertain)).toEqual([true, true, true, true]);
    expect([bad, short, new ApiError('Not for sale', { status: 409, kind: 'http' })].map(isUncertain)).toEqual([false, false, false]);
  });
});

describe('the buy flow decides', () => {
  const base = { loggedIn: true, owned: false, price: 4.99 };

  it('that a visitor logs in first', () => {
    expect(decideBuy({ ...base, loggedIn: false, balance: 100 })).toEqual({ kind: 'login' });
  });

  it('that an owner has nothing to buy', () => {
    expect(decideBuy({ ...base, owned: true, balance: 0 })).toEqual({ kind: 'owned' });
  });

  it('to wait for the balance', () => {
    expect(decideBuy({ ...base, balance: undefined })).toEqual({ kind: 'checking' });
  });

  it('that too little money offers a recharge of what is missing', () => {
    expect(decideBuy({ ...base, balance: 1.5 })).toEqual({ kind: 'short', priceCents: 499, balanceCents: 150, shortCents: 349 });
    expect(decideBuy({ ...base, balance: 4.98 })).toMatchObject({ kind: 'short', shortCents: 1 });
  });

  it('that enough money (exactly enough too) can buy, and shows what is left', () => {
    expect(decideBuy({ ...base, balance: 20 })).toEqual({ kind: 'ready', priceCents: 499, balanceCents: 2000, afterCents: 1501 });
    expect(decideBuy({ ...base, balance: 4.99 })).toMatchObject({ kind: 'ready', afterCents: 0 });
    expect(decideBuy({ ...base, price: 0, balance: 0 })).toMatchObject({ kind: 'ready', afterCents: 0 });
  });

  it('to let the server decide when the balance is unknown', () => {
    expect(decideBuy({ ...base, balance: null })).toEqual({ kind: 'unknown', priceCents: 499 });
  });

  it('what a failed purchase means', () => {
    expect(buyFailure(new ApiError('Insufficient balance', { status: 402, kind: 'http' }))).toEqual({ kind: 'short' });
    expect(buyFailure(new ApiError('wallet not found', { status: 404, kind: 'http' }))).toEqual({ kind: 'short' });
    expect(buyFailure(new ApiError('You cannot buy your own book', { status: 409, kind: 'http' }))).toEqual({
      kind: 'refused',
      message: 'You cannot buy your own book',
    });
    expect(buyFailure(new ApiError('Book not found', { status: 404, kind: 'http' }))).toEqual({ kind: 'refused', message: 'Book not found' });
    expect(buyFailure(new ApiError('Network error: fetch failed', { status: 0, kind: 'network' }))).toEqual({
      kind: 'retry',
      message: 'Network error: fetch failed',
    });
    expect(buyFailure(new ApiError('Service unavailable', { status: 503, kind: 'http' })).kind).toBe('retry');
  });
});

describe('the way to a recharge and back', () => {
  it('asks for what is missing and brings the buyer back to the page', () => {
    expect(rechargePath(349, '/book?book_id=b1')).toBe('/user/recharge?amount=5&redirect=%2Fbook%3Fbook_id%3Db1');
    expect(rechargePath(2001, '/reader?book_id=b1')).toBe('/user/recharge?amount=50&redirect=%2Freader%3Fbook_id%3Db1');
  });

  it('goes back only to in-app pages', () => {
    expect(inAppReturnPath('/book?book_id=b1')).toBe('/book?book_id=b1');
    expect(inAppReturnPath('/platform/reader?book_id=b1')).toBe('/reader?book_id=b1');
    expect(inAppReturnPath('https://evil.example/')).toBeNull();
    expect(inAppReturnPath('//evil.example/')).toBeNull();
    expect(inAppReturnPath('javascript:alert(1)')).toBeNull();
    expect(inAppReturnPath('/login?redirect=/x')).toBeNull();
    expect(inAppReturnPath(null)).toBeNull();
  });

  it('labels the Buy button with the price', () => {
    expect(buyLabel(4.99)).toBe('Buy for $4.99');
    expect(buyLabel('12.5')).toBe('Buy for $12.50');
    expect(buyLabel(0)).toBe('Get it free');
  });
});
