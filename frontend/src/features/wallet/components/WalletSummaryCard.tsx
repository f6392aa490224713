// The wallet at a glance: balance, money in (recharged), earned (sales, rewards) and spent,
// with the ways to recharge, see the records and the rewards.
import { Link } from 'react-router-dom';
import { Button } from '@/components/Button';
import { Card, CardHeader } from '@/components/Card';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { useWallet } from '../hooks';
import { DEFAULT_CURRENCY, formatMoney } from '@/lib/money';

export function WalletSummaryCard({ showLinks = true }: { showLinks?: boolean }) {
  const wallet = useWallet();
  const w = wallet.data;
  const currency = w?.currency ?? DEFAULT_CURRENCY;

  return (
    <Card className="wallet-card" data-testid="wallet-summary">
      <CardHeader title="Wallet" subtitle="Your balance for buying books. Sales and rewards are paid in here." />
      {wallet.isLoading ? (
        <div className="wallet-loading">
          <Spinner label="Loading your wallet" />
          <span className="muted small">Loading your wallet…</span>
        </div>
      ) : !w ? (
        <div className="notice notice-warning wallet-unavailable">
          <p>Your wallet could not be loaded right now.</p>
          <Button variant="secondary" size="sm" onClick={() => void wallet.refetch()} loading={wallet.isFetching}>
            Try again
          </Button>
        </div>
      ) : (
        <>
          <div className="wallet-balance">
            <span className="wallet-amount" data-testid="wallet-balance">
              {formatMoney(w.balance, currency)}
            </span>
            <span className="wallet-currency">{currency}</span>
          </div>
          <dl className="wallet-stats">
            <div>
              <dt>Recharged</dt>
              <dd data-testid="wallet-recharged">{formatMoney(w.recharged, currency)}</dd>
            </div>
            <div>
              <dt>Earned</dt>
              <dd data-testid="wallet-earned">{formatMoney(w.earned, currency)}</dd>
            </div>
            <div>
              <dt>Spent</dt>
              <dd data-testid="wallet-spent">{formatMoney(w.spent, currency)}</dd>
            </div>
          </dl>
        </>
      )}
      {showLinks ? (
        <nav className="wallet-links" aria-label="Wallet">
          <Link to="/user/recharge">
            <Icon name="card" size={16} /> Recharge
          </Link>
          <Link to="/user#wallet-activity">
            <Icon name="file" size={16} /> Records
          </Link>
          <Link to="/user/rewards">
            <Icon name="gift" size={16} /> Rewards
          </Link>
        </nav>
      ) : null}
    </Card>
  );
}
