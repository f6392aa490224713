import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';
import { ROLE_TITLE, useH5Role } from './use-h5-role';

const TEXT = {
  reader: 'Recommendations from Quinn and the books you are reading, on your phone.',
  writer: 'Your manuscripts and their analysis at a glance.',
  publisher: 'Your shelf and what is selling today.',
} as const;

export default function H5RoleHomeRoute() {
  const role = useH5Role();
  useTitle(`${ROLE_TITLE[role]} home`);
  return (
    <ComingSoon
      title={`${ROLE_TITLE[role]} home`}
      icon="home"
      description={TEXT[role]}
      backTo={{ label: 'Your profile', to: `/h5/${role}/profile` }}
    />
  );
}
