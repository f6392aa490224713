import { Button } from '@/components/Button';
import { EmptyState } from '@/components/Card';
import { ApiError } from '@/lib/api-client';

/** Why the revenue curve is not shown: a book the caller may not price, or a failure to retry. */
export function CurveProblem({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (error instanceof ApiError && (error.status === 404 || error.status === 403)) {
    return (
      <EmptyState icon="chart" title="No price curve for this book">
        <p>Only the book’s writer can price it. Open one of your own books.</p>
      </EmptyState>
    );
  }
  return (
    <EmptyState icon="alert" title="The price curve could not be worked out">
      <p>{error instanceof Error && error.message ? error.message : 'Please try again.'}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </EmptyState>
  );
}

/** A card-shaped placeholder while the curve is computed. */
export function CurveLoading({ label = 'Working out the price curve…' }: { label?: string }) {
  return (
    <div className="pricing-loading" aria-busy="true">
      <span className="spinner" role="status" aria-label={label} style={{ width: 24, height: 24 }} />
      <span className="muted">{label}</span>
    </div>
  );
}
