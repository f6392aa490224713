import { CustomPriceForm } from '@/features/pricing';
import { PageLoader } from '@/components/Spinner';
import { useTitle } from '@/lib/use-title';
import { WithManuscript, type ManuscriptContext } from '../../with-manuscript';
import { PricingFrame, useSetPrice } from './pricing-screen';

function CustomPriceScreen(ctx: ManuscriptContext) {
  const setPrice = useSetPrice(ctx, { inPlace: true });
  const price = ctx.book ? Number(ctx.book.price) : null;
  return (
    <PricingFrame ctx={ctx} screen="custom" title="Custom price" subtitle="Your own price, with what the curve expects at it.">
      {ctx.bookLoading ? (
        <PageLoader label="Loading the book…" />
      ) : (
        <CustomPriceForm bookId={ctx.detail.book_id} currentPrice={price !== null && Number.isFinite(price) ? price : null} onSave={setPrice} />
      )}
    </PricingFrame>
  );
}

/** /manuscript/tags/AIPrice/CustomPrice?id=: the writer sets the price. */
export default function CustomPriceRoute() {
  useTitle('Custom price');
  return <WithManuscript>{(ctx) => <CustomPriceScreen {...ctx} />}</WithManuscript>;
}
