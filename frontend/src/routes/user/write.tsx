import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function UserWriteRoute() {
  useTitle('Write');
  return (
    <ComingSoon
      title="Write"
      icon="pen"
      description="Start a new manuscript or continue one in progress."
      highlights={['Drafts', 'Upload and analyse', 'Publish']}
      backTo={{ label: 'Open your profile', to: '/user/profile' }}
    />
  );
}
