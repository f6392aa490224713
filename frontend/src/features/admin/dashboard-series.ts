// What the dashboard's charts draw, from the reply's parts: pure, so the rules (which
// service needs a look, how the days line up) are tested without a browser.
import { fromCents, toCents } from '@/lib/money';
import type { BooksPart, SalesPart, ServiceStatus, UsersPart } from './types';

/** An outbox whose oldest event waits longer than this is stuck, or its relay is down. */
export const OUTBOX_OLD_SECS = 60;
/** A consumer this many records behind is not keeping up. */
export const LAG_HIGH = 1000;

export const RANGES = [30, 90, 365] as const;
export type Range = (typeof RANGES)[number];

export interface GrowthDay {
  day: string;
  signups: number | null;
  books: number | null;
}

/** Sign-ups and books created on one time line; a part that is missing draws nothing. */
export function growthDays(users: UsersPart | null, books: BooksPart | null): GrowthDay[] {
  const days = new Map<string, GrowthDay>();
  const at = (day: string) => {
    let d = days.get(day);
    if (!d) {
      d = { day, signups: users ? 0 : null, books: books ? 0 : null };
      days.set(day, d);
    }
    return d;
  };
  for (const p of users?.signups ?? []) at(p.day).signups = p.count;
  for (const p of books?.created ?? []) at(p.day).books = p.count;
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
}

export interface TradeDay {
  day: string;
  trades: number;
  /** Dollars, added up in cents. */
  revenue: number;
}

export function tradeDays(sales: SalesPart | null): TradeDay[] {
  return (sales?.trades_per_day ?? []).map((p) => ({ day: p.day, trades: p.count, revenue: fromCents(toCents(p.amount)) }));
}

export interface CampaignBar {
  status: 'Open' | 'Funded' | 'Failed';
  count: number;
}

export function campaignBars(sales: SalesPart | null): CampaignBar[] {
  const c = sales?.campaigns;
  if (!c) return [];
  return [
    { status: 'Open', count: c.open },
    { status: 'Funded', count: c.funded },
    { status: 'Failed', count: c.failed },
  ];
}

export type Health = 'ok' | 'warning' | 'unknown';

export interface ServiceBar {
  service: string;
  outbox: number;
  /** The largest lag of its consumers; 0 when it has none. */
  lag: number;
  oldestSecs: number;
  health: Health;
  /** Why it is not ok, in words. */
  reasons: string[];
}

export function serviceBars(services: ServiceStatus[]): ServiceBar[] {
  return services.map((s) => {
    const reasons: string[] = [];
    let unknown = false;
    if (s.outbox_pending > 0 && s.outbox_oldest_secs > OUTBOX_OLD_SECS) {
      reasons.push(`oldest event waiting ${formatAge(s.outbox_oldest_secs)}`);
    }
    let lag = 0;
    for (const c of s.consumers) {
      if (c.lag < 0) unknown = true;
      else {
        lag = Math.max(lag, c.lag);
        if (c.lag > LAG_HIGH) reasons.push(`${c.group} is ${c.lag.toLocaleString('en-US')} behind on ${c.topic}`);
      }
    }
    if (unknown) reasons.push('the broker could not be asked for its lag');
    const health: Health = reasons.length === 0 ? 'ok' : unknown && reasons.length === 1 ? 'unknown' : 'warning';
    return { service: s.service, outbox: s.outbox_pending, lag, oldestSecs: s.outbox_oldest_secs, health, reasons };
  });
}

/** "45 s", "12 min", "3 h", "2 days". */
export function formatAge(secs: number): string {
  if (!Number.isFinite(secs) || secs < 0) return '—';
  if (secs < 90) return `${Math.round(secs)} s`;
  const min = secs / 60;
  if (min < 90) return `${Math.round(min)} min`;
  const h = min / 60;
  if (h < 36) return `${Math.round(h)} h`;
  return `${Math.round(h / 24)} days`;
}

/** Whether a series has anything to draw. */
export const anyActivity = (days: Array<Record<string, unknown>>, keys: string[]) =>
  days.some((d) => keys.some((k) => Number(d[k] ?? 0) > 0));
