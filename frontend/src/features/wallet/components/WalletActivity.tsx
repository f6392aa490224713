// "Wallet activity": the trade and top-up records behind two tabs, on the user's space.
import { useId, useState, type KeyboardEvent } from 'react';
import { Card, CardHeader } from '@/components/Card';
import { useWallet } from '../hooks';
import { DEFAULT_CURRENCY } from '@/lib/money';
import { TopUpRecords, TradeRecords } from './Records';

export type ActivityTab = 'trades' | 'top-ups';

const TABS: { id: ActivityTab; label: string }[] = [
  { id: 'trades', label: 'Purchases and sales' },
  { id: 'top-ups', label: 'Top-ups' },
];

export function WalletActivity({ initialTab = 'trades' }: { initialTab?: ActivityTab }) {
  const [tab, setTab] = useState<ActivityTab>(initialTab);
  const wallet = useWallet();
  const currency = wallet.data?.currency ?? DEFAULT_CURRENCY;
  const base = useId();

  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const i = TABS.findIndex((t) => t.id === tab);
    const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length];
    setTab(next.id);
    document.getElementById(`${base}-${next.id}-tab`)?.focus();
  };

  return (
    <Card className="wallet-activity" id="wallet-activity" data-testid="wallet-activity">
      <CardHeader title="Wallet activity" subtitle="Every book you bought or sold, and every top-up." />
      <div className="tabs" role="tablist" aria-label="Wallet activity" onKeyDown={onKey}>
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`${base}-${t.id}-tab`}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            aria-controls={`${base}-${t.id}-panel`}
            tabIndex={tab === t.id ? 0 : -1}
            className={`tab-button ${tab === t.id ? 'tab-button-active' : ''}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-${tab}-panel`} aria-labelledby={`${base}-${tab}-tab`} className="tab-panel">
        {tab === 'trades' ? <TradeRecords currency={currency} /> : <TopUpRecords currency={currency} />}
      </div>
    </Card>
  );
}
