// The writer's own price: a money field (0 makes the book free), checked here the way the
// server checks it; what the curve expects at the typed price; the server's own words when
// it refuses.
import { useMemo, useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { Card, CardHeader } from '@/components/Card';
import { formatCopies } from '@/components/charts';
import { TextField } from '@/components/TextField';
import { formatMoney, formatPrice } from '@/lib/money';
import { useQueryClient } from '@tanstack/react-query';
import { pricingKeys } from '../api';
import { curvePoints, pointAt } from '../curve';
import { useRevenueCurve } from '../hooks';
import { LIST_PRICE_BOUNDS, parseListPrice } from '../validate';

export interface CustomPriceFormProps {
  bookId: string;
  /** The book's price now, if known. */
  currentPrice?: number | null;
  /** Sets the price (update_book); rejects with the server's refusal. */
  onSave: (price: number) => Promise<unknown>;
}

export const FREE_NOTE = 'A price of 0 makes the book free: every reader can read it whole, and it earns nothing from sales.';

export function CustomPriceForm({ bookId, currentPrice, onSave }: CustomPriceFormProps) {
  const [text, setText] = useState(currentPrice !== null && currentPrice !== undefined ? currentPrice.toFixed(2) : '');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<number | null>(null);
  const queryClient = useQueryClient();
  const curve = useRevenueCurve(bookId);
  const points = useMemo(() => (curve.data ? curvePoints(curve.data) : []), [curve.data]);

  const checked = parseListPrice(text);
  const typed = checked.ok ? checked.value : null;
  const at = typed !== null && points.length >= 2 ? pointAt(points, typed) : null;
  const outside = typed !== null && points.length >= 2 && (typed < points[0].price || typed > points[points.length - 1].price);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    setError(undefined);
    setSaving(true);
    try {
      await onSave(checked.value);
      setSaved(checked.value);
      await queryClient.invalidateQueries({ queryKey: pricingKeys.curves() });
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : 'The price was not saved');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card data-testid="custom-price">
      <CardHeader
        title="Your price"
        subtitle={currentPrice !== null && currentPrice !== undefined ? `Now ${formatPrice(currentPrice)}.` : 'Set the price readers pay.'}
      />
      <form className="form" onSubmit={(e) => void submit(e)} aria-label="Custom price" noValidate>
        <TextField
          label="Price (USD)"
          name="price"
          inputMode="decimal"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setError(undefined);
            setSaved(null);
          }}
          error={error}
          hint={typed === 0 ? FREE_NOTE : `${LIST_PRICE_BOUNDS}; up to 2 decimal places.`}
          placeholder="4.99"
        />
        {typed === 0 && error ? <p className="muted small">{FREE_NOTE}</p> : null}
        {at ? (
          <p className="muted small" data-testid="custom-price-expected">
            At {formatPrice(typed)}: about {formatCopies(at.sales)} and {formatMoney(at.profit)} expected earnings
            {curve.data?.suggestion ? ` (suggested: ${formatPrice(curve.data.suggestion.price)})` : ''}.
            {outside ? ' This price is outside the curve, so the figures are those of its nearest end.' : ''}
          </p>
        ) : null}
        {saved !== null ? (
          <p className="notice notice-success" role="status" data-testid="custom-price-saved">
            Saved: the book now costs {formatPrice(saved)}.
          </p>
        ) : null}
        <div className="form-actions">
          <Button type="submit" loading={saving} data-testid="custom-price-save">
            Save price
          </Button>
        </div>
      </form>
    </Card>
  );
}
