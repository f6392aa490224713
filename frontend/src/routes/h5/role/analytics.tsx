import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';
import { ROLE_TITLE, useH5Role } from './use-h5-role';

export default function H5RoleAnalyticsRoute() {
  const role = useH5Role();
  useTitle(`${ROLE_TITLE[role]} analytics`);
  return (
    <ComingSoon
      title="Analytics"
      icon="chart"
      description="Sales, readers and revenue curves for your books."
      backTo={{ label: 'Your profile', to: `/h5/${role}/profile` }}
    />
  );
}
