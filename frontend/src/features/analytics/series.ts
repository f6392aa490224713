// The report's days as the chart draws them: every calendar day between the first and the
// last (a day without sales is a zero, not a gap), for all books or for one.
import type { SalesDay } from '@/components/charts';
import type { SalesDayRow } from './types';

const DAY_MS = 86_400_000;

function dayNumber(iso: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS : null;
}

const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The chart's days; `bookId` keeps one book's share of each day. */
export function chartDays(series: readonly SalesDayRow[], bookId: string | null = null): SalesDay[] {
  const byDay = new Map<number, SalesDay>();
  for (const row of series) {
    const n = dayNumber(row.date);
    if (n === null) continue;
    const part = bookId ? row.books?.find((b) => b.book_id === bookId) : row;
    const prev = byDay.get(n) ?? { date: isoOf(n), units: 0, earned: 0, campaign: 0 };
    byDay.set(n, {
      date: prev.date,
      units: prev.units + (part?.units ?? 0),
      earned: prev.earned + (part?.earned ?? 0),
      campaign: prev.campaign + (part?.campaign ?? 0),
    });
  }
  if (byDay.size === 0) return [];
  const days = [...byDay.keys()];
  const first = Math.min(...days);
  const last = Math.max(...days);
  const out: SalesDay[] = [];
  for (let d = first; d <= last; d++) out.push(byDay.get(d) ?? { date: isoOf(d), units: 0, earned: 0, campaign: 0 });
  return out;
}

/** Whether anything happened at all (the chart is then worth drawing). */
export function hasActivity(days: readonly SalesDay[]): boolean {
  return days.some((d) => d.units > 0 || d.earned > 0 || d.campaign > 0);
}
