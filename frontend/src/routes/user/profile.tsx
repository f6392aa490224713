import { PageHeader } from '@/components/Card';
import { ButtonLink } from '@/components/Button';
import { PageLoader } from '@/components/Spinner';
import { InvitePanel, ProfileEditForm, ProfileSummary, useMe } from '@/features/users';
import { WalletSummaryCard } from '@/features/wallet';
import { useTitle } from '@/lib/use-title';

export default function UserProfileRoute() {
  useTitle('Your profile');
  const me = useMe();
  if (me.isLoading) return <PageLoader label="Loading your profile…" />;
  if (!me.data) {
    return (
      <div className="page">
        <PageHeader title="Your profile" subtitle="Your profile could not be loaded. Please try again." />
      </div>
    );
  }
  const user = me.data;
  return (
    <div className="page">
      <PageHeader
        eyebrow="Account"
        title="Your profile"
        subtitle="Your details, your invite link and the friends you brought along."
        actions={
          <ButtonLink to="/user/settings" variant="secondary">
            Settings
          </ButtonLink>
        }
      />
      <div className="grid-2">
        <div className="stack">
          <ProfileSummary user={user} />
          <WalletSummaryCard />
        </div>
        <ProfileEditForm key={String(user.user_id)} user={user} />
      </div>
      <InvitePanel user={user} />
    </div>
  );
}
