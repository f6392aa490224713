import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function ManuscriptTagsRoute() {
  useTitle('Tags');
  return (
    <ComingSoon
      title="Tags"
      icon="tag"
      description="Fine-tune the tags and genre readers will use to find your book."
      highlights={['Suggested tags', 'Genre', 'Search preview']}
      backTo={{ label: 'All manuscripts', to: '/manuscript' }}
    />
  );
}
