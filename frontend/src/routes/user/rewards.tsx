import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function UserRewardsRoute() {
  useTitle('Rewards');
  return (
    <ComingSoon
      title="Rewards"
      icon="gift"
      description="Earn rewards for inviting friends and for reading."
      highlights={['Invite rewards', 'Reading streaks', 'Reward history']}
      backTo={{ label: 'Open your profile', to: '/user/profile' }}
    />
  );
}
