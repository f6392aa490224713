import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function ManuscriptEditRoute() {
  useTitle('Edit manuscript');
  return (
    <ComingSoon
      title="Edit manuscript"
      icon="pen"
      description="Review and edit the title, authors and summaries drawn from your manuscript."
      highlights={['Title and authors', 'Short and long summary', 'Genre']}
      backTo={{ label: 'All manuscripts', to: '/manuscript' }}
    />
  );
}
