import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function CrowdFundingRoute() {
  useTitle('Crowd-funding');
  return (
    <ComingSoon
      title="Crowd-funding"
      icon="users"
      description="Let readers fund your book before it is published."
      highlights={['Funding goal', 'Backer rewards', 'Progress tracking']}
      backTo={{ label: 'Back to AI pricing', to: '/manuscript/tags/AIPrice' }}
    />
  );
}
