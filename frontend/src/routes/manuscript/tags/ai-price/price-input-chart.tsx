import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function PriceInputChartRoute() {
  useTitle('Price and revenue chart');
  return (
    <ComingSoon
      title="Price and revenue chart"
      icon="chart"
      description="Try prices and watch the revenue curve respond."
      highlights={['Revenue curve', 'Cost line', 'Profit at each price']}
      backTo={{ label: 'Back to AI pricing', to: '/manuscript/tags/AIPrice' }}
    />
  );
}
