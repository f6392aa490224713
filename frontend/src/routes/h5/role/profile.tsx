import { useLocation } from 'react-router-dom';
import { ButtonLink } from '@/components/Button';
import { Card } from '@/components/Card';
import { PageLoader } from '@/components/Spinner';
import { H5RoleSwitch, ProfileSummary, useMe } from '@/features/users';
import { useRefreshWallet, WalletSummaryCard } from '@/features/wallet';
import { loginPathWithRedirect } from '@/lib/redirect';
import { useTitle } from '@/lib/use-title';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { ROLE_TITLE, useH5Role } from './use-h5-role';

export default function H5RoleProfileRoute() {
  const role = useH5Role();
  useTitle(`${ROLE_TITLE[role]} profile`);
  const location = useLocation();
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const me = useMe();
  const refreshWallet = useRefreshWallet();

  return (
    <div className="page h5-page">
      <header className="h5-hero">
        <p className="eyebrow">{ROLE_TITLE[role]}</p>
        <h1 data-testid="h5-role-title">{ROLE_TITLE[role]} profile</h1>
      </header>
      <section aria-label="Role">
        <p className="field-label">Use Quire as</p>
        <H5RoleSwitch
          user={loggedIn ? (me.data ?? null) : null}
          refreshWallet={refreshWallet}
          disabled={loggedIn && me.isLoading}
        />
      </section>
      {!loggedIn ? (
        <Card className="h5-login">
          <p className="empty-title">Log in to see your profile</p>
          <p className="muted">Your books, wallet and invites follow you to your phone.</p>
          <div className="stack">
            <ButtonLink to={loginPathWithRedirect(location.pathname, '/login/email')} block>
              Log in
            </ButtonLink>
            <ButtonLink to="/register" variant="secondary" block>
              Create an account
            </ButtonLink>
          </div>
        </Card>
      ) : me.isLoading ? (
        <PageLoader />
      ) : me.data ? (
        <>
          <ProfileSummary user={me.data} />
          <WalletSummaryCard />
          <div className="stack">
            <ButtonLink to="/user/profile" variant="secondary" block>
              Edit profile and invites
            </ButtonLink>
          </div>
        </>
      ) : null}
    </div>
  );
}
