// The wallet's statements: trades (books bought and sold) and top-ups (recharges and admin
// credits), newest first, paged. Rows read like a bank statement and stack on a phone.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/Button';
import { EmptyState } from '@/components/Card';
import { Icon, type IconName } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { DEFAULT_PAGE_SIZE } from '../api';
import { formatDateTime } from '@/lib/dates';
import { shortRef } from '../format';
import { useTopUpRecords, useTradeRecords } from '../hooks';
import { DEFAULT_CURRENCY, formatMoney, formatSigned } from '@/lib/money';
import type { TopUpRecord, TopUpStatus, TradeRecord } from '../types';
import { Pager } from '@/components/Pager';

const STATUS_TONE: Record<TopUpStatus, string> = {
  settled: 'badge-success',
  pending: 'badge-warning',
  failed: 'badge-danger',
};

function Row({
  icon,
  direction,
  title,
  detail,
  amount,
  currency,
  muted,
  testId,
}: {
  icon: IconName;
  direction: 'in' | 'out';
  title: React.ReactNode;
  detail: React.ReactNode;
  amount: number;
  currency: string;
  muted?: boolean;
  testId: string;
}) {
  return (
    <li className="ledger-row" data-testid={testId}>
      <span className={`ledger-icon ledger-icon-${direction}`} aria-hidden>
        <Icon name={icon} size={18} />
      </span>
      <div className="ledger-main">
        <p className="ledger-title">{title}</p>
        <p className="ledger-detail muted small">{detail}</p>
      </div>
      <span className={`ledger-amount ledger-amount-${direction} ${muted ? 'ledger-amount-muted' : ''}`}>
        {formatSigned(amount, direction, currency)}
      </span>
    </li>
  );
}

function ListState({ loading, error, onRetry }: { loading: boolean; error: boolean; onRetry: () => void }) {
  if (loading) {
    return (
      <div className="ledger-loading">
        <Spinner label="Loading records" /> <span className="muted small">Loading…</span>
      </div>
    );
  }
  if (error) {
    return (
      <EmptyState icon="alert" title="The records could not be loaded">
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Try again
        </Button>
      </EmptyState>
    );
  }
  return null;
}

export function topUpTitle(r: TopUpRecord): string {
  if (r.kind === 'top_up') return r.note ? `Top-up from Quire: ${r.note}` : 'Top-up from Quire';
  return r.provider === 'instant' ? 'Recharge (demo payment)' : 'Recharge';
}

export function TopUpRecords({ pageSize = DEFAULT_PAGE_SIZE, currency = DEFAULT_CURRENCY }: { pageSize?: number; currency?: string }) {
  const [page, setPage] = useState(1);
  const query = useTopUpRecords(page, pageSize);
  const records = query.data?.result ?? [];
  if (query.isLoading || (query.isError && !query.data)) {
    return <ListState loading={query.isLoading} error={query.isError} onRetry={() => void query.refetch()} />;
  }
  if (records.length === 0) {
    return (
      <EmptyState icon="card" title="No top-ups yet">
        <p>Recharges and credits from Quire will be listed here.</p>
      </EmptyState>
    );
  }
  return (
    <>
      <ul className="ledger" aria-label="Top-up records">
        {records.map((r) => {
          const ref = r.provider_ref || r.id;
          return (
            <Row
              key={r.id}
              testId="top-up-record"
              icon={r.kind === 'top_up' ? 'gift' : 'card'}
              direction="in"
              muted={r.status !== 'settled'}
              amount={r.amount}
              currency={currency}
              title={
                <>
                  {topUpTitle(r)} <span className={`badge ${STATUS_TONE[r.status] ?? ''}`}>{r.status}</span>
                </>
              }
              detail={
                <>
                  {formatDateTime(r.created_at)}
                  <span className="dot" aria-hidden>
                    ·
                  </span>
                  Ref{' '}
                  <span className="mono" title={ref}>
                    {shortRef(ref)}
                  </span>
                </>
              }
            />
          );
        })}
      </ul>
      <Pager className="pager wallet-pager" page={page} total={query.data?.total ?? 0} pageSize={pageSize} busy={query.isFetching} onChange={setPage} label="Top-up pages" />
    </>
  );
}

export function TradeRecords({ pageSize = DEFAULT_PAGE_SIZE, currency = DEFAULT_CURRENCY }: { pageSize?: number; currency?: string }) {
  const [page, setPage] = useState(1);
  const query = useTradeRecords(page, pageSize);
  const records = query.data?.result ?? [];
  if (query.isLoading || (query.isError && !query.data)) {
    return <ListState loading={query.isLoading} error={query.isError} onRetry={() => void query.refetch()} />;
  }
  if (records.length === 0) {
    return (
      <EmptyState icon="book" title="No purchases or sales yet">
        <p>Books you buy, and books of yours that readers buy, will be listed here.</p>
      </EmptyState>
    );
  }
  return (
    <>
      <ul className="ledger" aria-label="Trade records">
        {records.map((t) => (
          <TradeRow key={`${t.trade_id}-${t.role ?? ''}`} trade={t} currency={currency} />
        ))}
      </ul>
      <Pager className="pager wallet-pager" page={page} total={query.data?.total ?? 0} pageSize={pageSize} busy={query.isFetching} onChange={setPage} label="Trade pages" />
    </>
  );
}

function TradeRow({ trade, currency }: { trade: TradeRecord; currency: string }) {
  const sold = trade.role === 'sold';
  const book = (
    <Link to={`/book?book_id=${encodeURIComponent(trade.book_id)}`} className="ledger-book">
      {trade.title || 'A book'}
    </Link>
  );
  return (
    <Row
      testId="trade-record"
      icon={sold ? 'coins' : 'book'}
      direction={sold ? 'in' : 'out'}
      amount={sold ? trade.seller_amount : trade.price}
      currency={currency}
      title={
        <>
          <span className={`badge ${sold ? 'badge-success' : 'badge-primary'}`}>{sold ? 'Sold' : 'Bought'}</span> {book}
        </>
      }
      detail={
        <>
          {formatDateTime(trade.created_at)}
          {sold ? (
            <>
              <span className="dot" aria-hidden>
                ·
              </span>
              Price {formatMoney(trade.price, currency)}, you got {formatMoney(trade.seller_amount, currency)}
            </>
          ) : null}
        </>
      }
    />
  );
}
