// /admin: the platform at a glance over a range of days: headline figures, growth, trades
// and revenue, campaigns, each service's outbox and consumer lag, and the latest admin
// actions. A part whose service did not answer is an "unavailable" card, not an error.
import { useMemo, useState, type ReactNode } from 'react';
import { Button } from '@/components/Button';
import { Card, CardHeader, EmptyState } from '@/components/Card';
import { formatCount } from '@/components/charts';
import { PeriodPicker } from '@/components/PeriodPicker';
import { formatMoney } from '@/lib/money';
import { anyActivity, campaignBars, growthDays, RANGES, serviceBars, tradeDays, type Range } from '../dashboard-series';
import { useDashboard } from '../queries';
import type { Dashboard as DashboardData } from '../types';
import { AuditLog } from './AuditLog';
import { CampaignsChart, GrowthChart, ServicesChart, TradesChart } from './DashboardCharts';

/** The part names the gateway reports in `unavailable`, in words ("services.<name>": that service's status). */
const PART_NAMES: Record<string, string> = {
  users: 'Accounts',
  books: 'Books',
  sales: 'Sales',
  chat: 'Assistant',
  services: 'Services',
};
const partName = (p: string) => PART_NAMES[p] ?? (p.startsWith('services.') ? `${p.slice('services.'.length)} status` : p);

export function Dashboard() {
  const [days, setDays] = useState<Range>(30);
  const dashboard = useDashboard(days);
  return (
    <section className="admin-dashboard" aria-label="Dashboard" data-testid="admin-dashboard">
      <div className="admin-head">
        <h2>Last {days === 365 ? 'year' : `${days} days`}</h2>
        <PeriodPicker options={RANGES} value={days} onChange={setDays} className="admin-range" />
      </div>
      {dashboard.isLoading ? (
        <DashboardSkeleton />
      ) : !dashboard.data ? (
        <Card>
          <EmptyState icon="alert" title="The dashboard could not be loaded">
            <p>{dashboard.error instanceof Error && dashboard.error.message ? dashboard.error.message : 'Please try again.'}</p>
            <Button variant="secondary" size="sm" onClick={() => void dashboard.refetch()}>
              Try again
            </Button>
          </EmptyState>
        </Card>
      ) : (
        <DashboardBody data={dashboard.data} days={days} />
      )}
      <AuditLog />
    </section>
  );
}

export function DashboardBody({ data, days }: { data: DashboardData; days: number }) {
  const { users, books, sales, services } = data;
  const growth = useMemo(() => growthDays(users, books), [users, books]);
  const trades = useMemo(() => tradeDays(sales), [sales]);
  const campaigns = useMemo(() => campaignBars(sales), [sales]);
  const health = useMemo(() => serviceBars(services), [services]);
  const over = days === 365 ? 'over the last year' : `over the last ${days} days`;
  const missing = data.unavailable.map(partName);
  const silentServices = data.unavailable.filter((p) => p.startsWith('services.')).map((p) => p.slice('services.'.length));
  const noServices = services.length === 0 && silentServices.length > 0;

  return (
    <>
      {missing.length ? (
        <p className="notice notice-warning" role="status" data-testid="dashboard-unavailable">
          Unavailable right now: {missing.join(', ')}. The rest of the dashboard is current.
        </p>
      ) : null}
      <dl className="admin-figures" data-testid="admin-figures">
        <Figure label="Users" testId="figure-users" value={users ? formatCount(users.total) : null} note={users?.disabled ? `${formatCount(users.disabled)} disabled` : undefined} />
        <Figure label="Books listed" testId="figure-books" value={books ? formatCount(books.listed) : null} note={books ? `of ${formatCount(books.total)}` : undefined} />
        <Figure label="Trades" testId="figure-trades" value={sales ? formatCount(sales.trades) : null} note={`${days} days`} />
        <Figure label="Revenue" testId="figure-revenue" value={sales ? formatMoney(sales.revenue) : null} note={sales ? `platform ${formatMoney(sales.platform_revenue)}` : undefined} />
        <Figure label="Open campaigns" testId="figure-campaigns" value={sales ? formatCount(sales.campaigns.open) : null} />
        <Figure label="In escrow" testId="figure-escrow" value={sales ? formatMoney(sales.escrow) : null} />
      </dl>
      <div className="admin-charts">
        <Card>
          <CardHeader title="Sign-ups and new books" subtitle={`Per day, ${over}`} />
          {!users && !books ? (
            <Unavailable what="Accounts and books" />
          ) : anyActivity(growth as never, ['signups', 'books']) ? (
            <GrowthChart days={growth} label={`Sign-ups and books created per day, ${over}`} />
          ) : (
            <p className="muted">No sign-ups or new books {over}.</p>
          )}
          {users && !books ? <p className="muted small">Books are unavailable right now.</p> : null}
          {books && !users ? <p className="muted small">Accounts are unavailable right now.</p> : null}
        </Card>
        <Card>
          <CardHeader title="Trades and revenue" subtitle={`Per day, ${over}`} />
          {!sales ? (
            <Unavailable what="Sales" />
          ) : anyActivity(trades as never, ['trades', 'revenue']) ? (
            <TradesChart days={trades} label={`Trades and revenue per day, ${over}`} />
          ) : (
            <p className="muted">No trades {over}.</p>
          )}
        </Card>
        <Card>
          <CardHeader title="Campaigns" subtitle="By status, now" />
          {!sales ? <Unavailable what="Campaigns" /> : <CampaignsChart bars={campaigns} label="Crowd-funding campaigns by status" />}
        </Card>
        <Card>
          <CardHeader title="Services" subtitle="Events waiting in each outbox, and the largest consumer lag" />
          {noServices ? (
            <Unavailable what="Service status" />
          ) : health.length === 0 ? (
            <p className="muted">No service reported.</p>
          ) : (
            <>
              <ServicesChart bars={health} label="Outbox events waiting and consumer lag per service" />
              <ul className="admin-health" data-testid="service-health">
                {health
                  .filter((s) => s.health !== 'ok')
                  .map((s) => (
                    <li key={s.service} className="admin-health-warning" data-testid="service-warning">
                      <strong>{s.service}</strong>: {s.reasons.join('; ')}
                    </li>
                  ))}
                {silentServices.map((name) => (
                  <li key={name} className="admin-health-warning" data-testid="service-warning">
                    <strong>{name}</strong>: unavailable, it did not answer
                  </li>
                ))}
                {silentServices.length === 0 && health.every((s) => s.health === 'ok') ? <li className="muted">Every outbox is draining and every consumer keeps up.</li> : null}
              </ul>
            </>
          )}
        </Card>
      </div>
    </>
  );
}

function Figure({ label, value, note, testId }: { label: string; value: string | null; note?: ReactNode; testId: string }) {
  return (
    <div className={`admin-figure ${value === null ? 'admin-figure-unavailable' : ''}`} data-testid={testId}>
      <dt>{label}</dt>
      <dd>
        <span data-testid={`${testId}-value`}>{value ?? 'unavailable'}</span>
        {value !== null && note ? <span className="admin-figure-note">{note}</span> : null}
      </dd>
    </div>
  );
}

function Unavailable({ what }: { what: string }) {
  return (
    <div className="admin-unavailable" data-testid="part-unavailable">
      <strong>{what}: unavailable</strong>
      <span>The service did not answer. The figures come back when it does.</span>
    </div>
  );
}

function DashboardSkeleton() {
  return (
    <div className="admin-dashboard" aria-busy="true" data-testid="dashboard-loading">
      <span className="visually-hidden" role="status">
        Loading the dashboard
      </span>
      <div className="admin-figures" aria-hidden>
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="admin-skeleton admin-skeleton-figure" />
        ))}
      </div>
      <div className="admin-charts" aria-hidden>
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="card">
            <div className="admin-skeleton admin-skeleton-line" style={{ width: '40%' }} />
            <div className="admin-skeleton admin-skeleton-chart" style={{ marginTop: 16 }} />
          </div>
        ))}
      </div>
    </div>
  );
}
