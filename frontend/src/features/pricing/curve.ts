// The revenue curve as the screens use it: the server's parallel arrays as points, and what
// is expected at any price between two of them (the slider moves in cents, the curve is
// drawn at n prices), read by straight-line interpolation of the neighbours.
import type { CurvePoint } from '@/components/charts';
import { fromCents, toCents } from '@/lib/money';
import type { RevenueCurve } from './types';

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The curve's points, cheapest first; prices missing or unreadable are left out. */
export function curvePoints(curve: Pick<RevenueCurve, 'T_values' | 'y_values' | 'profit_values' | 'cost_line_values' | 'y_low_values' | 'y_high_values'>): CurvePoint[] {
  const points: CurvePoint[] = [];
  curve.T_values.forEach((price, i) => {
    if (typeof price !== 'number' || !Number.isFinite(price)) return;
    const sales = num(curve.y_values[i]);
    points.push({
      price,
      sales,
      low: Math.min(sales, num(curve.y_low_values[i] ?? sales)),
      high: Math.max(sales, num(curve.y_high_values[i] ?? sales)),
      profit: num(curve.profit_values[i]),
      cost: num(curve.cost_line_values[i]),
    });
  });
  return points.sort((a, b) => a.price - b.price);
}

/**
 * What is expected at `price`: between two points, each value on the straight line joining
 * them; outside the curve, its nearest end. Null for an empty curve.
 */
export function pointAt(points: readonly CurvePoint[], price: number): CurvePoint | null {
  if (points.length === 0 || !Number.isFinite(price)) return null;
  const first = points[0];
  const last = points[points.length - 1];
  if (price <= first.price) return { ...first, price };
  if (price >= last.price) return { ...last, price };
  let hi = 1;
  while (points[hi].price < price) hi++;
  const a = points[hi - 1];
  const b = points[hi];
  const t = b.price === a.price ? 0 : (price - a.price) / (b.price - a.price);
  const mix = (x: number, y: number) => x + (y - x) * t;
  return {
    price,
    sales: mix(a.sales, b.sales),
    low: mix(a.low, b.low),
    high: mix(a.high, b.high),
    profit: mix(a.profit, b.profit),
    cost: mix(a.cost, b.cost),
  };
}

/** The slider's range in whole cents: the curve's cheapest and dearest prices. */
export function priceRange(points: readonly CurvePoint[]): { minCents: number; maxCents: number } | null {
  if (points.length === 0) return null;
  return { minCents: toCents(points[0].price), maxCents: toCents(points[points.length - 1].price) };
}

/** A price kept inside the slider's range, in whole cents. */
export function clampToRange(price: number, range: { minCents: number; maxCents: number }): number {
  const cents = Math.min(range.maxCents, Math.max(range.minCents, toCents(price)));
  return fromCents(cents);
}

/** Money values are shown to the cent: the expected earnings at a price, rounded. */
export function roundMoney(value: number): number {
  return fromCents(toCents(value));
}
