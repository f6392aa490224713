import { Link } from 'react-router-dom';
import { pricingPath, SuggestedPrice } from '@/features/pricing';
import { useTitle } from '@/lib/use-title';
import { WithManuscript, type ManuscriptContext } from '../../with-manuscript';
import { PricingFrame, useSetPrice } from './pricing-screen';

function AiPriceScreen(ctx: ManuscriptContext) {
  const setPrice = useSetPrice(ctx);
  const { manuscript_id: id, book_id: bookId } = ctx.detail;
  const links = [
    { to: pricingPath('custom', id, bookId), title: 'Set your own price', text: 'Type a price, see what the curve expects there; 0 makes it free.' },
    { to: pricingPath('chart', id, bookId), title: 'Explore the price chart', text: 'Sales and earnings at every price, with a slider to try one.' },
    { to: pricingPath('crowd', id, bookId), title: 'Start a crowd-funding campaign', text: 'Readers pledge towards a goal; backers get the whole book.' },
  ];
  return (
    <PricingFrame ctx={ctx} screen="suggested" title="AI pricing" subtitle="A price suggested from how books like this one sell, and why.">
      <SuggestedPrice bookId={bookId} onUsePrice={setPrice} />
      <nav className="pricing-links" aria-label="More pricing">
        {links.map((l) => (
          <Link key={l.to} to={l.to} className="pricing-link">
            <strong>{l.title}</strong>
            <span className="muted small">{l.text}</span>
          </Link>
        ))}
      </nav>
    </PricingFrame>
  );
}

/** /manuscript/tags/AIPrice?id=: the suggested price of the manuscript's book. */
export default function AiPriceRoute() {
  useTitle('AI pricing');
  return <WithManuscript>{(ctx) => <AiPriceScreen {...ctx} />}</WithManuscript>;
}
