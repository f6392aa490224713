import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function PublisherRoute() {
  useTitle('Publisher desk');
  return (
    <ComingSoon
      title="Publisher desk"
      icon="landmark"
      description="Curate a shelf of books from Quire writers and manage what you publish."
      highlights={['Book selections', 'Publish on or off per book', 'Sales at a glance']}
    />
  );
}
