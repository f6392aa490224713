import { describe, expect, it } from 'vitest';
import { formatScore, joinList, parsePrice, splitList } from '@/features/catalog/format';
import { formatPrice } from '@/lib/money';
import { isSearching, readShopQuery, sortHits, writeShopQuery } from '@/features/catalog/shop-query';

describe('prices', () => {
  it('formats decimals as money, zero as free, junk as a dash', () => {
    expect(formatPrice(4.99)).toBe('$4.99');
    expect(formatPrice(5)).toBe('$5.00');
    expect(formatPrice('12.5')).toBe('$12.50');
    expect(formatPrice(1234567.8)).toBe('$1,234,567.80');
    expect(formatPrice(0)).toBe('Free');
    expect(formatPrice(undefined)).toBe('—');
    expect(formatPrice(Number.NaN)).toBe('—');
    expect(formatPrice(-1)).toBe('—');
  });

  it('reads typed prices like the server: at most two places, 0 to 1,000,000', () => {
    expect(parsePrice('4.99')).toEqual({ value: 4.99 });
    expect(parsePrice(' $3 ')).toEqual({ value: 3 });
    expect(parsePrice('0')).toEqual({ value: 0 });
    expect(parsePrice('1000000')).toEqual({ value: 1_000_000 });
    expect(parsePrice('1000000.01')).toHaveProperty('error');
    expect(parsePrice('4.999')).toEqual({ error: 'Use at most 2 decimal places' });
    expect(parsePrice('-1')).toHaveProperty('error');
    expect(parsePrice('abc')).toHaveProperty('error');
    expect(parsePrice('NaN')).toHaveProperty('error');
    expect(parsePrice('')).toEqual({ error: 'This field is required' });
  });
});

describe('lists and scores', () => {
  it('splits and joins comma lists without blanks or repeats', () => {
    expect(splitList(' magic, Dragons ,,magic ,dragons')).toEqual(['magic', 'Dragons']);
    expect(joinList(['a ', ' b', ''])).toBe('a,b');
  });

  it('reads scores on a 10 or 100 scale', () => {
    expect(formatScore(8.44)).toEqual({ value: '8.4', max: 10 });
    expect(formatScore(84)).toEqual({ value: '84', max: 100 });
    expect(formatScore(0)).toBeNull();
  });
});

describe('the shop address', () => {
  it('round-trips the query, filters and page', () => {
    const q = readShopQuery(new URLSearchParams('q=dune&genre=Sci-Fi&min=1&max=9.5&sort=price_asc&page=3'));
    expect(q).toEqual({ q: 'dune', genre: 'Sci-Fi', min: 1, max: 9.5, sort: 'price_asc', page: 3 });
    expect(writeShopQuery(q).toString()).toBe('q=dune&genre=Sci-Fi&min=1&max=9.5&sort=price_asc&page=3');
    expect(isSearching(q)).toBe(true);
  });

  it('ignores junk and shows the shop front without a query', () => {
    const q = readShopQuery(new URLSearchParams('sort=bogus&page=-2&min=abc'));
    expect(q).toEqual({ q: '', genre: undefined, min: undefined, max: undefined, sort: undefined, page: 1 });
    expect(isSearching(q)).toBe(false);
  });

  it('orders a page of hits', () => {
    const hits = [
      { title: 'B', price: 3 },
      { title: 'A', price: 9 },
      { title: 'C', price: 1 },
    ];
    expect(sortHits(hits, 'price_asc').map((h) => h.title)).toEqual(['C', 'B', 'A']);
    expect(sortHits(hits, 'title').map((h) => h.title)).toEqual(['A', 'B', 'C']);
    expect(sortHits(hits, 'relevance')).toBe(hits);
  });
});
