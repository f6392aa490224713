import { ButtonLink } from '@/components/Button';
import { useRefreshAfterPurchase } from '@/app/purchase';
import { desktopLinks } from '@/features/catalog';
import { CampaignPanel } from '@/features/pricing';
import { useTitle } from '@/lib/use-title';
import { WithManuscript, type ManuscriptContext } from '../../with-manuscript';
import { PricingFrame } from './pricing-screen';

function CrowdFundingScreen(ctx: ManuscriptContext) {
  const refresh = useRefreshAfterPurchase();
  const bookId = ctx.detail.book_id;
  return (
    <PricingFrame
      ctx={ctx}
      screen="crowd"
      title="Crowd-funding"
      subtitle="Let readers fund the book: they pledge towards your goal from the book page."
    >
      <CampaignPanel bookId={bookId} onClosed={refresh} />
      <div>
        <ButtonLink to={desktopLinks.book(bookId)} variant="secondary" size="sm">
          See the book page as readers do
        </ButtonLink>
      </div>
    </PricingFrame>
  );
}

/** /manuscript/tags/AIPrice/CrowdFunding?id=: start, follow and close a campaign. */
export default function CrowdFundingRoute() {
  useTitle('Crowd-funding');
  return <WithManuscript>{(ctx) => <CrowdFundingScreen {...ctx} />}</WithManuscript>;
}
