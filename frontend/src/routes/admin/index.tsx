import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function AdminHomeRoute() {
  useTitle('Admin dashboard');
  return (
    <ComingSoon
      title="Admin dashboard"
      icon="shield"
      description="Platform health, sign-ups and sales at a glance."
      highlights={['Sign-ups and sales', 'Service health', 'Recent activity']}
      backTo={{ label: 'Manage users', to: '/admin/users' }}
    />
  );
}
