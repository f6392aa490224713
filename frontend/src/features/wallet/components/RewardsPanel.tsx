// Invite rewards: the total earned, then each reward in words. The names of invited friends
// come from the caller (the users area knows them); without one a reward still reads well.
import { useState } from 'react';
import { Button } from '@/components/Button';
import { Card, CardHeader, EmptyState } from '@/components/Card';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { DEFAULT_PAGE_SIZE } from '../api';
import { formatDateTime } from '@/lib/dates';
import { useRewards, useWallet } from '../hooks';
import { DEFAULT_CURRENCY, formatMoney, formatSigned } from '@/lib/money';
import type { Reward } from '../types';
import { Pager } from '@/components/Pager';

export const HOW_REWARDS_WORK =
  "Share your invite link. When a friend who joined with it buys their first book with money they added to their wallet (not one of your own books), you earn two rewards: one for bringing them in and one for the purchase. Rewards are paid straight into your wallet.";

export function rewardText(reward: Pick<Reward, 'reason'>, name?: string | null): string {
  const who = name && name.trim() ? name.trim() : 'A friend';
  return reward.reason === 'first_purchase' ? `${who} made their first purchase` : `${who} joined with your invite`;
}

export function RewardsPanel({ names = {}, pageSize = DEFAULT_PAGE_SIZE }: { names?: Record<string, string>; pageSize?: number }) {
  const [page, setPage] = useState(1);
  const rewards = useRewards(page, pageSize);
  const wallet = useWallet();
  const currency = wallet.data?.currency ?? DEFAULT_CURRENCY;
  const data = rewards.data;
  const list = data?.result ?? [];

  return (
    <Card className="rewards-card" data-testid="rewards">
      <CardHeader title="Rewards earned" subtitle="Money your invitations brought in." />
      {rewards.isLoading ? (
        <div className="wallet-loading">
          <Spinner label="Loading rewards" />
          <span className="muted small">Loading your rewards…</span>
        </div>
      ) : rewards.isError && !data ? (
        <EmptyState icon="alert" title="Your rewards could not be loaded">
          <Button variant="secondary" size="sm" onClick={() => void rewards.refetch()}>
            Try again
          </Button>
        </EmptyState>
      ) : (
        <>
          <div className="rewards-total">
            <span className="wallet-amount" data-testid="rewards-total">
              {formatMoney(data?.total_amount ?? 0, currency)}
            </span>
            <span className="muted small">
              from {data?.total ?? 0} {data?.total === 1 ? 'reward' : 'rewards'}
            </span>
          </div>
          {list.length === 0 ? (
            <EmptyState icon="gift" title="No rewards yet">
              <p>{HOW_REWARDS_WORK}</p>
            </EmptyState>
          ) : (
            <>
              <ul className="ledger" aria-label="Rewards">
                {list.map((r) => (
                  <li key={r.reward_id} className="ledger-row" data-testid="reward">
                    <span className="ledger-icon ledger-icon-in" aria-hidden>
                      <Icon name={r.reason === 'first_purchase' ? 'book' : 'users'} size={18} />
                    </span>
                    <div className="ledger-main">
                      <p className="ledger-title">{rewardText(r, names[r.invitee_id])}</p>
                      <p className="ledger-detail muted small">{formatDateTime(r.created_at)}</p>
                    </div>
                    <span className="ledger-amount ledger-amount-in">{formatSigned(r.amount, 'in', currency)}</span>
                  </li>
                ))}
              </ul>
              <Pager className="pager wallet-pager" page={page} total={data?.total ?? 0} pageSize={pageSize} busy={rewards.isFetching} onChange={setPage} label="Reward pages" />
              <p className="muted small rewards-how">{HOW_REWARDS_WORK}</p>
            </>
          )}
        </>
      )}
    </Card>
  );
}
