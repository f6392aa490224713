// Pricing's and analytics' pure logic: the curve's points and what the slider reads between
// them, the money and count formats of chart values, a campaign's progress and countdown,
// the checks of typed prices, goals, days and pledges, and the report's days.
import { describe, expect, it } from 'vitest';
import { formatAxisMoney, formatCopies, formatCount, formatDay } from '@/components/charts';
import { chartDays, hasActivity } from '@/features/analytics';
import {
  acceptsPledges,
  campaignProgress,
  clampToRange,
  curveForm,
  curvePoints,
  openCampaign,
  parseDays,
  parseMoney,
  pointAt,
  priceRange,
  roundMoney,
  timeLeft,
  type Campaign,
} from '@/features/pricing';

const curve = {
  T_values: [1, 3, 5],
  y_values: [100, 60, 20],
  y_low_values: [80, 40, 10],
  y_high_values: [120, 90, 35],
  profit_values: [90, 162, 90],
  cost_line_values: [10, 6, 2],
};

describe('the revenue curve', () => {
  it('turns the parallel arrays into points, cheapest first', () => {
    const shuffled = {
      T_values: [5, 1, 3],
      y_values: [20, 100, 60],
      y_low_values: [10, 80, 40],
      y_high_values: [35, 120, 90],
      profit_values: [90, 90, 162],
      cost_line_values: [2, 10, 6],
    };
    const points = curvePoints(shuffled);
    expect(points.map((p) => p.price)).toEqual([1, 3, 5]);
    expect(points[1]).toEqual({ price: 3, sales: 60, low: 40, high: 90, profit: 162, cost: 6 });
  });

  it('keeps the band around the sales line even when the server sends it the wrong way round', () => {
    const [p] = curvePoints({ ...curve, T_values: [2], y_values: [50], y_low_values: [70], y_high_values: [30] });
    expect(p.low).toBeLessThanOrEqual(p.sales);
    expect(p.high).toBeGreaterThanOrEqual(p.sales);
  });

  it('reads a point exactly at a drawn price', () => {
    const points = curvePoints(curve);
    expect(pointAt(points, 3)).toEqual({ price: 3, sales: 60, low: 40, high: 90, profit: 162, cost: 6 });
  });

  it('interpolates on the straight line between the neighbours', () => {
    const points = curvePoints(curve);
    const at = pointAt(points, 2)!;
    expect(at.price).toBe(2);
    expect(at.sales).toBeCloseTo(80);
    expect(at.low).toBeCloseTo(60);
    expect(at.high).toBeCloseTo(105);
    expect(at.profit).toBeCloseTo(126);
    expect(at.cost).toBeCloseTo(8);
    // a quarter of the way from 3 to 5
    expect(pointAt(points, 3.5)!.sales).toBeCloseTo(50);
  });

  it('holds the nearest end outside the curve, and has nothing for an empty one', () => {
    const points = curvePoints(curve);
    expect(pointAt(points, 0.5)!.sales).toBe(100);
    expect(pointAt(points, 0.5)!.price).toBe(0.5);
    expect(pointAt(points, 9)!.sales).toBe(20);
    expect(pointAt([], 3)).toBeNull();
    expect(pointAt(points, Number.NaN)).toBeNull();
  });

  it('gives the slider its range in cents and keeps prices inside it', () => {
    const points = curvePoints({ ...curve, T_values: [0.99, 3, 12.49] });
    const range = priceRange(points)!;
    expect(range).toEqual({ minCents: 99, maxCents: 1249 });
    expect(clampToRange(0.1, range)).toBe(0.99);
    expect(clampToRange(20, range)).toBe(12.49);
    expect(clampToRange(4.994, range)).toBe(4.99);
    expect(priceRange([])).toBeNull();
  });

  it('rounds money values to the cent', () => {
    expect(roundMoney(126.456)).toBe(126.46);
    expect(roundMoney(0.1 + 0.2)).toBe(0.3);
  });

  it('asks for the curve with k, n, the book and a cost only when there is one', () => {
    const form = curveForm({ bookId: 'b-1' });
    expect(form.get('k')).toBe('0.9');
    expect(form.get('n')).toBe('120');
    expect(form.get('book_id')).toBe('b-1');
    expect(form.get('cost')).toBeNull();
    expect(curveForm({ bookId: 'b-1', cost: 1.5, n: 40 }).get('cost')).toBe('1.50');
    expect(curveForm({ bookId: 'b-1', cost: 1.5, n: 40 }).get('n')).toBe('40');
  });
});

describe('chart values', () => {
  it('writes axis money to the cent when small and short when large', () => {
    expect(formatAxisMoney(4.99)).toBe('$4.99');
    expect(formatAxisMoney(0)).toBe('$0.00');
    expect(formatAxisMoney(120)).toBe('$120');
    expect(formatAxisMoney(1250)).toBe('$1.3K');
    expect(formatAxisMoney(3_400_000)).toBe('$3.4M');
    expect(formatAxisMoney(-250)).toBe('\u2212$250');
    expect(formatAxisMoney(Number.NaN)).toBe('');
  });

  it('writes copies in text as whole copies', () => {
    expect(formatCopies(5.7)).toBe('6 copies');
    expect(formatCopies(0.6)).toBe('1 copy');
    expect(formatCopies(0.4)).toBe('0 copies');
    expect(formatCopies(1249.6)).toBe('1,250 copies');
  });

  it('writes expected copies on axes with a decimal only when small', () => {
    expect(formatCount(0.44)).toBe('0.4');
    expect(formatCount(9.96)).toBe('10');
    expect(formatCount(120.5)).toBe('121');
    expect(formatCount(1250)).toBe('1,250');
    expect(formatCount(12_500)).toBe('12.5K');
    expect(formatCount(Number.POSITIVE_INFINITY)).toBe('—');
  });

  it('writes a report day as a calendar day in every time zone', () => {
    expect(formatDay('2026-11-05')).toBe('Nov 5');
    expect(formatDay('2026-01-31T23:30:00Z')).toBe('Jan 31');
    expect(formatDay('soon')).toBe('soon');
  });
});

const campaign = (over: Partial<Campaign> = {}): Campaign => ({
  campaign_id: 'c-1',
  book_id: 'b-1',
  writer_uid: 'w-1',
  title: 'Skerry Light',
  goal: 50,
  pledged: 12.5,
  backers: 2,
  status: 'open',
  deadline: '2026-12-01T12:00:00Z',
  created_at: '2026-11-20T12:00:00Z',
  settled_at: null,
  writer_earned: 0,
  platform_earned: 0,
  my_pledged: 0,
  progress: 0.25,
  ...over,
});

describe('a campaign', () => {
  it('shows its progress as a percent of the goal, the bar full at most', () => {
    expect(campaignProgress(campaign())).toEqual({ percent: 25, share: 0.25 });
    expect(campaignProgress(campaign({ pledged: 75, progress: 1.5 }))).toEqual({ percent: 150, share: 1 });
    expect(campaignProgress(campaign({ pledged: 0, progress: 0 }))).toEqual({ percent: 0, share: 0 });
    // 0.29 * 100 is 28.999…: still 29%
    expect(campaignProgress(campaign({ pledged: 14.5, progress: 0.29 })).percent).toBe(29);
    // a missing ratio is worked out from the amounts
    expect(campaignProgress(campaign({ pledged: 10, goal: 40, progress: Number.NaN })).percent).toBe(25);
  });

  it('counts down to its deadline', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(timeLeft('2026-12-01T12:00:00Z', now)).toBe('6 days left');
    expect(timeLeft('2026-11-26T20:00:00Z', now)).toBe('32 hours left');
    expect(timeLeft('2026-11-25T13:00:00Z', now)).toBe('1 hour left');
    expect(timeLeft('2026-11-25T12:10:00Z', now)).toBe('10 minutes left');
    expect(timeLeft('2026-11-25T12:00:30Z', now)).toBe('1 minute left');
    expect(timeLeft('2026-11-25T11:00:00Z', now)).toBe('Ended');
    expect(timeLeft('whenever', now)).toBe('');
  });

  it('takes pledges only while open and before its deadline', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(acceptsPledges(campaign(), now)).toBe(true);
    expect(acceptsPledges(campaign({ status: 'funded' }), now)).toBe(false);
    expect(acceptsPledges(campaign({ deadline: '2026-11-25T11:59:00Z' }), now)).toBe(false);
  });

  it('finds the open campaign of a book', () => {
    expect(openCampaign([campaign({ campaign_id: 'old', status: 'failed' }), campaign({ campaign_id: 'now' })])?.campaign_id).toBe('now');
    expect(openCampaign([campaign({ status: 'funded' })])).toBeNull();
    expect(openCampaign(undefined)).toBeNull();
  });
});

describe('typed money and days', () => {
  it('reads prices, goals and pledges like the server does', () => {
    expect(parseMoney('4.99')).toEqual({ ok: true, value: 4.99 });
    expect(parseMoney(' $12 ')).toEqual({ ok: true, value: 12 });
    expect(parseMoney('1,000.50')).toEqual({ ok: true, value: 1000.5 });
    expect(parseMoney('.5')).toEqual({ ok: true, value: 0.5 });
    expect(parseMoney('1000000')).toEqual({ ok: true, value: 1_000_000 });
  });

  it('refuses what the server refuses, with the reason', () => {
    expect(parseMoney('')).toEqual({ ok: false, error: 'Enter an amount' });
    expect(parseMoney('4.999')).toEqual({ ok: false, error: 'Use at most 2 decimal places' });
    expect(parseMoney('-1')).toEqual({ ok: false, error: 'The amount cannot be negative' });
    expect(parseMoney('abc')).toEqual({ ok: false, error: 'Enter an amount such as 4.99' });
    expect(parseMoney('1e3')).toEqual({ ok: false, error: 'Enter an amount such as 4.99' });
    expect(parseMoney('1000000.01')).toEqual({ ok: false, error: 'Must be at most 1,000,000' });
    expect(parseMoney('99999999999')).toEqual({ ok: false, error: 'Must be at most 1,000,000' });
  });

  it('lets a price be 0 (free) but not a goal or a pledge', () => {
    expect(parseMoney('0', { allowZero: true })).toEqual({ ok: true, value: 0 });
    expect(parseMoney('0.00', { allowZero: true })).toEqual({ ok: true, value: 0 });
    expect(parseMoney('0')).toEqual({ ok: false, error: 'The amount must be more than 0' });
  });

  it('reads a campaign length of 1 to 90 whole days', () => {
    expect(parseDays('30')).toEqual({ ok: true, value: 30 });
    expect(parseDays('1')).toEqual({ ok: true, value: 1 });
    expect(parseDays('90')).toEqual({ ok: true, value: 90 });
    expect(parseDays('0')).toEqual({ ok: false, error: 'Between 1 and 90 days' });
    expect(parseDays('91')).toEqual({ ok: false, error: 'Between 1 and 90 days' });
    expect(parseDays('2.5')).toEqual({ ok: false, error: 'Enter a whole number of days' });
    expect(parseDays('')).toEqual({ ok: false, error: 'Enter a number of days' });
  });
});

describe('the report’s days', () => {
  const series = [
    { date: '2026-11-01', units: 2, gross: 9.98, earned: 8.98, campaign: 0, books: [{ book_id: 'a', units: 2, earned: 8.98, campaign: 0 }] },
    {
      date: '2026-11-04',
      units: 1,
      gross: 4.99,
      earned: 4.49,
      campaign: 45,
      books: [
        { book_id: 'a', units: 0, earned: 0, campaign: 45 },
        { book_id: 'b', units: 1, earned: 4.49, campaign: 0 },
      ],
    },
  ];

  it('fills the days without sales with zeros', () => {
    const days = chartDays(series);
    expect(days.map((d) => d.date)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04']);
    expect(days[1]).toEqual({ date: '2026-11-02', units: 0, earned: 0, campaign: 0 });
    expect(days[3]).toEqual({ date: '2026-11-04', units: 1, earned: 4.49, campaign: 45 });
  });

  it('keeps one book’s share of each day', () => {
    const days = chartDays(series, 'b');
    expect(days.map((d) => d.units)).toEqual([0, 0, 0, 1]);
    expect(chartDays(series, 'a')[3].campaign).toBe(45);
    expect(hasActivity(chartDays(series, 'zzz'))).toBe(false);
    expect(hasActivity(days)).toBe(true);
    expect(chartDays([])).toEqual([]);
  });
});
