import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function ManuscriptRoute() {
  useTitle('Manuscripts');
  return (
    <ComingSoon
      title="Manuscripts"
      icon="file"
      description="All your manuscripts in one place, from first upload to published book."
      highlights={['Upload epub, pdf or txt', 'Track analysis', 'Edit and publish']}
    />
  );
}
