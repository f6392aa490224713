// The writer's crowd-funding of one book: the open campaign's progress with Close, or the
// form that starts one (a goal and a number of days); the campaigns that ended, below.
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { Card, CardHeader, EmptyState } from '@/components/Card';
import { TextField } from '@/components/TextField';
import { formatDate } from '@/lib/dates';
import { formatMoney } from '@/lib/money';
import { openCampaign, STATUS_TEXT } from '../campaign';
import { useCampaigns, useCreateCampaign } from '../hooks';
import { MAX_DAYS, MIN_DAYS, parseDays, parseMoney } from '../validate';
import { CampaignProgress } from './CampaignProgress';
import { CloseCampaign } from './CloseCampaign';
import { CurveLoading } from './CurveProblem';

export interface CampaignPanelProps {
  bookId: string;
  /** Called after a campaign was settled (the route refreshes the book and the wallet). */
  onClosed?: () => unknown;
}

export function CampaignPanel({ bookId, onClosed }: CampaignPanelProps) {
  const campaigns = useCampaigns(bookId);
  if (campaigns.isLoading) {
    return (
      <Card>
        <CurveLoading label="Loading the campaigns…" />
      </Card>
    );
  }
  if (campaigns.isError) {
    return (
      <Card>
        <EmptyState icon="alert" title="The campaigns could not be loaded">
          <p>{campaigns.error instanceof Error ? campaigns.error.message : 'Please try again.'}</p>
          <Button variant="secondary" size="sm" onClick={() => void campaigns.refetch()}>
            Try again
          </Button>
        </EmptyState>
      </Card>
    );
  }
  const list = campaigns.data ?? [];
  const open = openCampaign(list);
  const ended = list.filter((c) => c.status !== 'open');
  return (
    <div className="stack" data-testid="campaign-panel">
      {open ? (
        <Card data-testid="campaign-open">
          <CardHeader title="Your campaign" subtitle="Readers pledge from the book page." actions={<CloseCampaign campaign={open} onClosed={onClosed} />} />
          <CampaignProgress campaign={open} />
        </Card>
      ) : (
        <StartCampaign bookId={bookId} />
      )}
      {ended.length ? (
        <Card>
          <CardHeader title="Earlier campaigns" />
          <div className="table-wrap">
            <table className="table" aria-label="Earlier campaigns">
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Goal</th>
                  <th scope="col">Pledged</th>
                  <th scope="col">Backers</th>
                  <th scope="col">Result</th>
                  <th scope="col">You earned</th>
                </tr>
              </thead>
              <tbody>
                {ended.map((c) => (
                  <tr key={c.campaign_id} data-testid="campaign-row">
                    <td>{formatDate(c.created_at)}</td>
                    <td>{formatMoney(c.goal)}</td>
                    <td>{formatMoney(c.pledged)}</td>
                    <td>{c.backers}</td>
                    <td>{STATUS_TEXT[c.status]}</td>
                    <td data-testid="campaign-earned">{formatMoney(c.writer_earned)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      ) : null}
    </div>
  );
}

function StartCampaign({ bookId }: { bookId: string }) {
  const [goal, setGoal] = useState('');
  const [days, setDays] = useState('30');
  const [errors, setErrors] = useState<{ goal?: string; days?: string; server?: string }>({});
  const create = useCreateCampaign(bookId);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const g = parseMoney(goal);
    const d = parseDays(days);
    const found = { goal: g.ok ? undefined : g.error, days: d.ok ? undefined : d.error };
    setErrors(found);
    if (!g.ok || !d.ok) return;
    create.mutate(
      { goal: g.value, days: d.value },
      {
        onError: (err) => setErrors({ server: err instanceof Error && err.message ? err.message : 'The campaign was not started' }),
      },
    );
  };

  return (
    <Card data-testid="campaign-start">
      <CardHeader
        title="Start a campaign"
        subtitle="Readers pledge towards a goal. Met by the deadline: you are paid and every backer gets the whole book. Not met: the pledges go back."
      />
      <form className="form" onSubmit={submit} aria-label="Start a campaign" noValidate>
        <div className="campaign-form-grid">
          <TextField
            label="Goal (USD)"
            name="goal"
            inputMode="decimal"
            value={goal}
            onChange={(e) => setGoal(e.target.value)}
            error={errors.goal}
            placeholder="50.00"
          />
          <TextField
            label="Days to run"
            name="days"
            inputMode="numeric"
            value={days}
            onChange={(e) => setDays(e.target.value)}
            error={errors.days}
            hint={`${MIN_DAYS} to ${MAX_DAYS} days.`}
          />
        </div>
        {errors.server ? (
          <p className="notice notice-error" role="alert" data-testid="campaign-error">
            {errors.server}
          </p>
        ) : null}
        <div className="form-actions">
          <Button type="submit" loading={create.isPending} data-testid="campaign-submit">
            Start campaign
          </Button>
        </div>
      </form>
    </Card>
  );
}
