import { Card, CardHeader } from '@/components/Card';
import { Spinner } from '@/components/Spinner';
import { useWallet } from './hooks';

export function WalletSummaryCard() {
  const { data: wallet, isLoading } = useWallet();
  return (
    <Card>
      <CardHeader title="Wallet" subtitle="Your balance for buying books and rewards" />
      {isLoading ? (
        <Spinner />
      ) : wallet ? (
        <div className="wallet-balance">
          <span className="wallet-amount">{String(wallet.balance ?? '0.00')}</span>
          <span className="wallet-currency">{wallet.currency ?? 'QRC'}</span>
        </div>
      ) : (
        <p className="muted">Your wallet will appear here once the wallet service is available.</p>
      )}
    </Card>
  );
}
