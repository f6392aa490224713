import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function ManuscriptAnalysisRoute() {
  useTitle('Manuscript analysis');
  return (
    <ComingSoon
      title="Manuscript analysis"
      icon="search"
      description="See what the analysis found: summaries, quality scores and the AI check."
      highlights={['Quality scores', 'AI check', 'Chapter list']}
      backTo={{ label: 'All manuscripts', to: '/manuscript' }}
    />
  );
}
