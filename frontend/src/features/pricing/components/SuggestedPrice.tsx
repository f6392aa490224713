// The AI price of a book: the suggested price, the copies and money expected there over the
// curve's horizon (with the 80% range), the reason in one sentence, and "Use this price",
// which sets it through the route's update_book (the catalog's).
import { useState } from 'react';
import { Badge, Card, CardHeader } from '@/components/Card';
import { Button } from '@/components/Button';
import { formatCopies } from '@/components/charts';
import { formatMoney, formatPrice, toCents } from '@/lib/money';
import { useQueryClient } from '@tanstack/react-query';
import { pricingKeys } from '../api';
import { useRevenueCurve } from '../hooks';
import { CurveLoading, CurveProblem } from './CurveProblem';

export interface SuggestedPriceProps {
  bookId: string;
  /** Sets the book's price (update_book); resolves when the server took it. */
  onUsePrice?: (price: number) => Promise<unknown>;
}

/** When to read the curve again after a price change, once the catalog's event went round. */
const CATCH_UP_MS = 4000;

export function horizonText(days: number | undefined): string {
  if (!days || days <= 0) return '';
  if (days === 365) return 'in a year';
  if (days % 30 === 0 && days < 365) return `in ${days / 30} ${days === 30 ? 'month' : 'months'}`;
  return `in ${days} days`;
}

export function SuggestedPrice({ bookId, onUsePrice }: SuggestedPriceProps) {
  const curve = useRevenueCurve(bookId);
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  // The price just set here: the curve's own "current price" follows the catalog a moment
  // later (it learns of the change from an event), so the screen does not wait for it.
  const [saved, setSaved] = useState<number | null>(null);

  if (curve.isLoading) {
    return (
      <Card>
        <CurveLoading />
      </Card>
    );
  }
  if (!curve.data) {
    return (
      <Card>
        <CurveProblem error={curve.error} onRetry={() => void curve.refetch()} />
      </Card>
    );
  }
  const { suggestion, current_price: current, horizon_days: horizon } = curve.data;
  const when = horizonText(horizon);
  const isCurrent =
    (saved !== null && saved === toCents(suggestion.price)) ||
    (saved === null && current !== null && current !== undefined && toCents(current) === toCents(suggestion.price));

  const use = async () => {
    if (!onUsePrice) return;
    setSaving(true);
    try {
      await onUsePrice(suggestion.price);
      setSaved(toCents(suggestion.price));
      await queryClient.invalidateQueries({ queryKey: pricingKeys.curves() });
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: pricingKeys.curves() }), CATCH_UP_MS);
    } catch {
      // The server's refusal was shown where the price is saved; the suggestion stays.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card className="suggested-price" data-testid="suggested-price">
      <CardHeader
        title="Suggested price"
        subtitle="From how books like this one sell, and what this one has sold so far."
        actions={isCurrent ? <Badge tone="success">Your current price</Badge> : null}
      />
      <div className="suggestion-main">
        <p className="suggestion-price" data-testid="suggested-price-value">
          {formatPrice(suggestion.price)}
        </p>
        <dl className="pricing-stats">
          <div>
            <dt>Expected sales {when}</dt>
            <dd data-testid="suggested-sales">{formatCopies(suggestion.expected_sales)}</dd>
            <dd className="muted small">
              80% range: {Math.round(suggestion.sales_low).toLocaleString('en-US')} – {formatCopies(suggestion.sales_high)}
            </dd>
          </div>
          <div>
            <dt>Expected earnings {when}</dt>
            <dd data-testid="suggested-earnings">{formatMoney(suggestion.expected_profit)}</dd>
          </div>
          {current !== null && current !== undefined ? (
            <div>
              <dt>Now: {formatPrice(current)}</dt>
              <dd>
                {formatCopies(curve.data.current_expected_sales ?? 0)} · {formatMoney(curve.data.current_expected_profit ?? 0)}
              </dd>
            </div>
          ) : null}
        </dl>
      </div>
      <p className="suggestion-reason" data-testid="price-reason">
        {suggestion.reason}
      </p>
      {onUsePrice ? (
        <div className="form-actions">
          <Button onClick={() => void use()} loading={saving} disabled={isCurrent} data-testid="use-suggested-price">
            {isCurrent ? 'This is your price' : 'Use this price'}
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
