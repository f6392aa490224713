import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function AdminContentRoute() {
  useTitle('Content moderation');
  return (
    <ComingSoon
      title="Content moderation"
      icon="folder"
      description="Review books, comments and reports."
      highlights={['Book review queue', 'Comment reports', 'Publish status']}
      backTo={{ label: 'Manage users', to: '/admin/users' }}
    />
  );
}
