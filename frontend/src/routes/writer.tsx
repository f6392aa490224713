import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function WriterRoute() {
  useTitle('Writer studio');
  return (
    <ComingSoon
      title="Writer studio"
      icon="pen"
      description="Upload manuscripts, get an automatic analysis, set a price with AI pricing and publish."
      highlights={['Manuscript analysis and AI check', 'AI pricing and crowd-funding', 'Revenue curves']}
    />
  );
}
