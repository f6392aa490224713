import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function PublisherBookRoute() {
  useTitle('Publisher book view');
  return (
    <ComingSoon
      title="Publisher book view"
      icon="library"
      description="Manage one published book: its cover, spine, summary and availability."
      highlights={['Cover and spine images', 'Availability switch', 'Sales of this book']}
      backTo={{ label: 'Back to publisher desk', to: '/publisher' }}
    />
  );
}
