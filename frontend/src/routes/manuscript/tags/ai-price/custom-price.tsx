import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function CustomPriceRoute() {
  useTitle('Custom price');
  return (
    <ComingSoon
      title="Custom price"
      icon="coins"
      description="Set your own price and see how it compares with the suggestion."
      highlights={['Your price', 'Comparison with AI price', 'Expected revenue']}
      backTo={{ label: 'Back to AI pricing', to: '/manuscript/tags/AIPrice' }}
    />
  );
}
