import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function UserHomeRoute() {
  useTitle('Your space');
  return (
    <ComingSoon
      title="Your space"
      icon="home"
      description="Your books, wallet, rewards and writing in one place."
      highlights={['Library and history', 'Wallet and rewards', 'Your writing']}
      backTo={{ label: 'Open your profile', to: '/user/profile' }}
    />
  );
}
