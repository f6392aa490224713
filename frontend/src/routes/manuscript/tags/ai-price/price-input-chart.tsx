import { Card } from '@/components/Card';
import { RevenueChartPanel } from '@/features/pricing';
import { useTitle } from '@/lib/use-title';
import { WithManuscript, type ManuscriptContext } from '../../with-manuscript';
import { PricingFrame } from './pricing-screen';

function PriceChartScreen(ctx: ManuscriptContext) {
  const price = ctx.book ? Number(ctx.book.price) : null;
  return (
    <PricingFrame
      ctx={ctx}
      screen="chart"
      title="Price and revenue chart"
      subtitle="Expected sales (with their 80% range) and earnings at each price. Move the slider to try a price."
    >
      <Card>
        <RevenueChartPanel bookId={ctx.detail.book_id} withCost currentPrice={price !== null && Number.isFinite(price) ? price : null} />
      </Card>
    </PricingFrame>
  );
}

/** /manuscript/tags/AIPrice/PriceInputChart?id=: the revenue curve with a price slider. */
export default function PriceInputChartRoute() {
  useTitle('Price and revenue chart');
  return <WithManuscript>{(ctx) => <PriceChartScreen {...ctx} />}</WithManuscript>;
}
