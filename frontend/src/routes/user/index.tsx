// /user: the user's space: the wallet at a glance, shortcuts, and the wallet's activity.
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ButtonLink } from '@/components/Button';
import { Card, CardHeader, EmptyState, PageHeader } from '@/components/Card';
import { Icon, type IconName } from '@/components/Icon';
import { WalletActivity, WalletSummaryCard } from '@/features/wallet';
import { useCurrentUser } from '@/lib/me';
import { loginPathWithRedirect } from '@/lib/redirect';
import { useTitle } from '@/lib/use-title';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';

const SHORTCUTS: { to: string; icon: IconName; label: string; text: string }[] = [
  { to: '/user/books', icon: 'library', label: 'Library', text: 'Books you bought and loved' },
  { to: '/user/rewards', icon: 'gift', label: 'Rewards', text: 'What your invites earned' },
  { to: '/user/profile', icon: 'user', label: 'Profile', text: 'Your details and invite link' },
  { to: '/user/settings', icon: 'settings', label: 'Settings', text: 'Roles and reading look' },
];

export default function UserHomeRoute() {
  useTitle('Your space');
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const user = useCurrentUser();
  const location = useLocation();

  // The wallet's "Records" link lands on the activity card.
  useEffect(() => {
    if (location.hash !== '#wallet-activity') return;
    const timer = setTimeout(() => document.getElementById('wallet-activity')?.scrollIntoView?.({ behavior: 'smooth', block: 'start' }), 50);
    return () => clearTimeout(timer);
  }, [location.hash]);

  if (!loggedIn) {
    return (
      <div className="page">
        <PageHeader eyebrow="Account" title="Your space" subtitle="Your wallet, your books and your rewards in one place." />
        <EmptyState icon="wallet" title="Log in to see your space">
          <p>Your balance, the books you bought and sold, and what your invites earned.</p>
          <ButtonLink to={loginPathWithRedirect('/user')} size="sm">
            Log in
          </ButtonLink>
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="page">
      <PageHeader
        eyebrow="Account"
        title={user?.username ? `Hello, ${user.username}` : 'Your space'}
        subtitle="Your wallet, your books and everything you earned."
        actions={
          <ButtonLink to="/user/recharge" data-testid="user-recharge">
            Recharge
          </ButtonLink>
        }
      />
      <div className="grid-2">
        <WalletSummaryCard />
        <Card>
          <CardHeader title="Shortcuts" />
          <ul className="shortcut-list">
            {SHORTCUTS.map((s) => (
              <li key={s.to}>
                <Link to={s.to} className="shortcut">
                  <span className="shortcut-icon" aria-hidden>
                    <Icon name={s.icon} size={18} />
                  </span>
                  <span className="shortcut-text">
                    <span className="shortcut-label">{s.label}</span>
                    <span className="muted small">{s.text}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      </div>
      <WalletActivity />
    </div>
  );
}
