// /user/rewards: what invitations earned, and the invite link that earns more.
import { useMemo } from 'react';
import { ButtonLink } from '@/components/Button';
import { EmptyState, PageHeader } from '@/components/Card';
import { PageLoader } from '@/components/Spinner';
import { InvitePanel, useInvitedByMe, useMe } from '@/features/users';
import { HOW_REWARDS_WORK, RewardsPanel } from '@/features/wallet';
import { loginPathWithRedirect } from '@/lib/redirect';
import { useTitle } from '@/lib/use-title';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';

export default function UserRewardsRoute() {
  useTitle('Rewards');
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const me = useMe();
  const invited = useInvitedByMe(me.data?.user_id);
  // Rewards name the invited user by id; the users area knows their names.
  const names = useMemo(
    () => Object.fromEntries((invited.data ?? []).map((u) => [String(u.user_id), u.username || u.email || ''])),
    [invited.data],
  );

  if (!loggedIn) {
    return (
      <div className="page">
        <PageHeader eyebrow="Wallet" title="Rewards" subtitle="Earn money by bringing friends to Quire." />
        <EmptyState icon="gift" title="Log in to see your rewards">
          <p>{HOW_REWARDS_WORK}</p>
          <ButtonLink to={loginPathWithRedirect('/user/rewards')} size="sm">
            Log in
          </ButtonLink>
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="page">
      <PageHeader
        eyebrow="Wallet"
        title="Rewards"
        subtitle="Earn money by bringing friends to Quire: when they join, and when they buy their first book."
        actions={
          <ButtonLink to="/user" variant="secondary">
            Your wallet
          </ButtonLink>
        }
      />
      <div className="grid-2">
        <RewardsPanel names={names} />
        {me.isLoading ? <PageLoader label="Loading your invite link…" /> : me.data ? <InvitePanel user={me.data} /> : null}
      </div>
    </div>
  );
}
