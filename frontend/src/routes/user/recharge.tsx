import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function UserRechargeRoute() {
  useTitle('Recharge wallet');
  return (
    <ComingSoon
      title="Recharge wallet"
      icon="card"
      description="Top up your wallet to buy books and support writers."
      highlights={['Quick amounts', 'Recharge history', 'Instant balance']}
      backTo={{ label: 'Open your profile', to: '/user/profile' }}
    />
  );
}
