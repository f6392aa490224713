// One campaign at a glance: pledged of the goal as a bar, backers, time left, status.
import { useEffect, useState } from 'react';
import { Badge } from '@/components/Card';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/money';
import { campaignProgress, STATUS_TEXT, statusTone, timeLeft } from '../campaign';
import type { Campaign } from '../types';

/** The clock, ticking every `everyMs` while mounted (for the countdown). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

export function CampaignProgress({ campaign }: { campaign: Campaign }) {
  const now = useNow();
  const { percent, share } = campaignProgress(campaign);
  const left = campaign.status === 'open' ? timeLeft(campaign.deadline, now) : '';
  return (
    <div className="campaign-progress" data-testid="campaign-progress">
      <div className="row-between">
        <p className="campaign-amounts">
          <strong data-testid="campaign-pledged">{formatMoney(campaign.pledged)}</strong>
          <span className="muted"> of {formatMoney(campaign.goal)}</span>
        </p>
        <Badge tone={statusTone(campaign.status)}>
          <span data-testid="campaign-status">{STATUS_TEXT[campaign.status]}</span>
        </Badge>
      </div>
      <div
        className={`campaign-bar campaign-bar-${campaign.status}`}
        role="progressbar"
        aria-label="Pledged of the goal"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(100, percent)}
        aria-valuetext={`${percent}% of the goal`}
      >
        <span style={{ width: `${share * 100}%` }} />
      </div>
      <p className="campaign-facts muted small">
        <span data-testid="campaign-percent">{percent}%</span>
        <span aria-hidden> · </span>
        <span data-testid="campaign-backers">
          {campaign.backers} {campaign.backers === 1 ? 'backer' : 'backers'}
        </span>
        <span aria-hidden> · </span>
        {campaign.status === 'open' ? (
          <span data-testid="campaign-deadline" title={formatDateTime(campaign.deadline)}>
            {left}
          </span>
        ) : (
          <span>Closed {formatDateTime(campaign.settled_at ?? campaign.deadline)}</span>
        )}
      </p>
      {campaign.my_pledged ? (
        <p className="small" data-testid="campaign-my-pledge">
          You pledged {formatMoney(campaign.my_pledged)}.
        </p>
      ) : null}
    </div>
  );
}
