// The admin's view of every wallet, with a top-up (credit without a payment) per wallet.
// A top-up is an intent like a recharge: its retries resend the same Idempotency-Key.
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { Card, CardHeader, EmptyState } from '@/components/Card';
import { PageLoader } from '@/components/Spinner';
import { TextField } from '@/components/TextField';
import { toast } from '@/stores/toast';
import { DEFAULT_PAGE_SIZE } from '../api';
import { formatDate } from '@/lib/dates';
import { isUncertain } from '../idempotency';
import { useAllWallets, useTopUp } from '../hooks';
import { formatMoney, fromCents } from '@/lib/money';
import { parseAmount } from '../money';
import type { Wallet } from '../types';
import { Pager } from '@/components/Pager';

function TopUpForm({ wallet, onDone }: { wallet: Wallet; onDone: () => void }) {
  const topUp = useTopUp();
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const check = parseAmount(amount);
  const error = topUp.error;

  const send = (cents: number) =>
    topUp.mutate(
      { uid: wallet.user_id, cents, note: note.trim() || undefined },
      {
        onSuccess: () => {
          toast.success(`${formatMoney(fromCents(cents), wallet.currency)} added to the wallet`);
          onDone();
        },
      },
    );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (check.ok && !topUp.isPending) send(check.cents);
  };

  return (
    <form className="top-up-form" aria-label={`Top up wallet of ${wallet.user_id}`} onSubmit={submit} noValidate>
      <TextField
        label="Amount"
        name="amount"
        inputMode="decimal"
        value={amount}
        placeholder="e.g. 25"
        onChange={(e) => {
          setAmount(e.target.value);
          if (!topUp.isIdle) topUp.reset();
        }}
        error={!check.ok && (submitted || amount.trim() !== '') ? check.error : undefined}
      />
      <TextField label="Note (optional)" name="note" value={note} maxLength={200} placeholder="Why" onChange={(e) => setNote(e.target.value)} />
      <div className="top-up-actions">
        <Button type="submit" size="sm" loading={topUp.isPending}>
          {error && isUncertain(error) ? 'Try again' : 'Add money'}
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone} disabled={topUp.isPending}>
          Cancel
        </Button>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error.message}
        </p>
      ) : null}
    </form>
  );
}

export function AdminWallets() {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const pageSize = DEFAULT_PAGE_SIZE;
  const query = useAllWallets(page, pageSize);
  const wallets = query.data?.result ?? [];
  const total = query.data?.total ?? 0;

  return (
    <Card>
      <CardHeader title="Wallets" subtitle={query.data ? `${total} ${total === 1 ? 'wallet' : 'wallets'}` : ' '} />
      {query.isLoading ? (
        <PageLoader label="Loading wallets…" />
      ) : wallets.length === 0 ? (
        <EmptyState icon="wallet" title={query.isError ? 'Wallets could not be loaded' : 'No wallets yet'} />
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Wallets">
            <thead>
              <tr>
                <th>User</th>
                <th>Balance</th>
                <th>Recharged</th>
                <th>Earned</th>
                <th>Spent</th>
                <th>Updated</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {wallets.map((w) => (
                <WalletRow key={w.user_id} wallet={w} open={open === w.user_id} onToggle={() => setOpen(open === w.user_id ? null : w.user_id)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager className="pager wallet-pager" page={page} total={total} pageSize={pageSize} busy={query.isFetching} onChange={setPage} label="Wallet pages" />
    </Card>
  );
}

function WalletRow({ wallet: w, open, onToggle }: { wallet: Wallet; open: boolean; onToggle: () => void }) {
  return (
    <>
      <tr>
        <td className="mono small" title={w.user_id}>
          {w.user_id.slice(-8)}
        </td>
        <td>
          <strong>{formatMoney(w.balance, w.currency)}</strong>
        </td>
        <td>{formatMoney(w.recharged, w.currency)}</td>
        <td>{formatMoney(w.earned, w.currency)}</td>
        <td>{formatMoney(w.spent, w.currency)}</td>
        <td>{formatDate(w.updated_at)}</td>
        <td>
          <Button variant={open ? 'ghost' : 'secondary'} size="sm" onClick={onToggle} aria-expanded={open} aria-label={`Top up ${w.user_id}`}>
            {open ? 'Close' : 'Top up'}
          </Button>
        </td>
      </tr>
      {open ? (
        <tr className="top-up-row">
          <td colSpan={7}>
            <TopUpForm wallet={w} onDone={onToggle} />
          </td>
        </tr>
      ) : null}
    </>
  );
}
