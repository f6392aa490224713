import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';
import { ROLE_TITLE, useH5Role } from './use-h5-role';

const TEXT = {
  reader: 'Every book you opened, with where you stopped.',
  writer: 'Your uploads and edits, newest first.',
  publisher: 'What you published and changed, newest first.',
} as const;

export default function H5RoleHistoryRoute() {
  const role = useH5Role();
  useTitle(`${ROLE_TITLE[role]} history`);
  return (
    <ComingSoon title="History" icon="clock" description={TEXT[role]} backTo={{ label: 'Your profile', to: `/h5/${role}/profile` }} />
  );
}
