import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function H5ManuscriptRoute() {
  useTitle('Manuscripts');
  return (
    <ComingSoon
      title="Manuscripts"
      icon="file"
      description="Follow your manuscripts from upload to publication on the go."
      highlights={['Analysis status', 'Quick edits', 'Publish switch']}
      backTo={{ label: 'Your profile', to: '/h5/writer/profile' }}
    />
  );
}
