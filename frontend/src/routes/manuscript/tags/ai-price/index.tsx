import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function AiPriceRoute() {
  useTitle('AI pricing');
  return (
    <ComingSoon
      title="AI pricing"
      icon="bulb"
      description="Get a suggested price from demand for similar books, then fine-tune it."
      highlights={['Suggested price', 'Custom price', 'Crowd-funding']}
      backTo={{ label: 'Back to tags', to: '/manuscript/tags' }}
    />
  );
}
