import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function AdminSettingsRoute() {
  useTitle('Platform settings');
  return (
    <ComingSoon
      title="Platform settings"
      icon="settings"
      description="Configure pricing shares, trial limits and rate limits."
      highlights={['Revenue share', 'Trial limits', 'Rate limits']}
      backTo={{ label: 'Manage users', to: '/admin/users' }}
    />
  );
}
