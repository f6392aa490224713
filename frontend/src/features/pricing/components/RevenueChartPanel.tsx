// The revenue curve with a price to try: the chart (sales with their 80% band, earnings, the
// cost line, the current and suggested prices marked) and a slider that moves a marker and
// reads what is expected at that price, interpolated between the curve's points.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { CHART_COLORS, formatCopies, RevenueChart, type PriceMarker } from '@/components/charts';
import { TextField } from '@/components/TextField';
import { formatMoney, formatPrice, fromCents, toCents } from '@/lib/money';
import { clampToRange, curvePoints, pointAt, priceRange } from '../curve';
import { useRevenueCurve } from '../hooks';
import { parseMoney } from '../validate';
import { CurveLoading, CurveProblem } from './CurveProblem';
import { horizonText } from './SuggestedPrice';

export interface RevenueChartPanelProps {
  bookId: string;
  /** Offer the cost-per-copy field (the pricing page does, the analytics page does not). */
  withCost?: boolean;
  height?: number;
  /**
   * The book's price as the catalog has it now (the saved price at once): the curve's own
   * `current_price` comes from the analytics' copy of the shop, which learns of a new price
   * a moment later.
   */
  currentPrice?: number | null;
}

export function RevenueChartPanel({ bookId, withCost = false, height = 300, currentPrice }: RevenueChartPanelProps) {
  const [cost, setCost] = useState(0);
  const curve = useRevenueCurve(bookId, undefined, undefined, cost);
  const points = useMemo(() => (curve.data ? curvePoints(curve.data) : []), [curve.data]);
  const range = priceRange(points);
  const [picked, setPicked] = useState<number | null>(null);
  const sliderId = useId();

  if (curve.isLoading) return <CurveLoading />;
  if (!curve.data) return <CurveProblem error={curve.error} onRetry={() => void curve.refetch()} />;
  if (!range || points.length < 2) {
    return <p className="notice">The curve has too few points to draw. Try again later.</p>;
  }

  const { suggestion } = curve.data;
  const current = currentPrice ?? curve.data.current_price;
  const start = current ?? suggestion.price;
  const price = clampToRange(picked ?? start, range);
  const at = pointAt(points, price);
  const markers: PriceMarker[] = [];
  if (current !== null && current !== undefined) markers.push({ price: current, label: 'Now', color: CHART_COLORS.current });
  markers.push({ price: suggestion.price, label: 'Suggested', color: CHART_COLORS.suggested });
  markers.push({ price, label: 'Try', color: CHART_COLORS.selected });
  const when = horizonText(curve.data.horizon_days);

  return (
    <div className="revenue-panel" data-testid="revenue-panel">
      <RevenueChart
        points={points}
        markers={markers}
        height={height}
        label={`Expected sales and earnings at prices from ${formatMoney(points[0].price)} to ${formatMoney(points[points.length - 1].price)}`}
        testId="revenue-chart"
      />
      <div className="price-slider">
        <label htmlFor={sliderId} className="field-label">
          Try a price: <strong data-testid="slider-price">{formatPrice(price)}</strong>
        </label>
        <input
          id={sliderId}
          type="range"
          min={range.minCents}
          max={range.maxCents}
          step={1}
          value={toCents(price)}
          onChange={(e) => setPicked(fromCents(Number(e.target.value)))}
          aria-valuetext={formatMoney(price)}
          data-testid="price-slider"
        />
        <div className="price-slider-ends muted small" aria-hidden>
          <span>{formatMoney(points[0].price)}</span>
          <span>{formatMoney(points[points.length - 1].price)}</span>
        </div>
      </div>
      {at ? (
        <dl className="pricing-stats" aria-live="polite">
          <div>
            <dt>Expected sales {when}</dt>
            <dd data-testid="slider-sales">{formatCopies(at.sales)}</dd>
            <dd className="muted small">
              80% range: {Math.round(at.low).toLocaleString('en-US')} – {formatCopies(at.high)}
            </dd>
          </div>
          <div>
            <dt>Expected earnings {when}</dt>
            <dd data-testid="slider-earnings">{formatMoney(at.profit)}</dd>
          </div>
          {at.cost > 0 ? (
            <div>
              <dt>Cost</dt>
              <dd>{formatMoney(at.cost)}</dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      {withCost ? <CostForm cost={cost} onApply={setCost} busy={curve.isFetching} /> : null}
    </div>
  );
}

/** The writer's cost per copy (printing, fees): the curve is drawn again with it. */
function CostForm({ cost, onApply, busy }: { cost: number; onApply: (cost: number) => void; busy: boolean }) {
  const [text, setText] = useState(cost ? cost.toFixed(2) : '');
  const [error, setError] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() === '') {
      setError(undefined);
      onApply(0);
      return;
    }
    const checked = parseMoney(text, { allowZero: true });
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    setError(undefined);
    onApply(checked.value);
  };
  return (
    <form className="cost-form" onSubmit={submit} aria-label="Cost per copy">
      <TextField
        label="Cost per copy (USD)"
        inputMode="decimal"
        value={text}
        onChange={(e) => setText(e.target.value)}
        error={error}
        hint="Optional: what each copy costs you. The cost line and the earnings take it off."
        placeholder="0.00"
      />
      <Button type="submit" variant="secondary" size="sm" loading={busy}>
        Apply
      </Button>
    </form>
  );
}
