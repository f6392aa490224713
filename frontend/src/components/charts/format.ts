// Numbers on chart axes and labels: short enough for a phone's width. Exact money (to the
// cent) is for text; axes get "$1.2k".
import { formatMoney } from '@/lib/money';

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** "$4.99" under $100, "$120", "$1.2k", "$3.4M": an axis tick. */
export function formatAxisMoney(value: number): string {
  if (!Number.isFinite(value)) return '';
  const abs = Math.abs(value);
  if (abs < 100) return formatMoney(value);
  const sign = value < 0 ? '\u2212' : '';
  return `${sign}$${compact.format(abs)}`;
}

/** A count of copies: "0.4", "12", "1,250", "12.5k" (expected sales are fractional). */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  if (abs >= 10_000) return compact.format(value);
  if (abs >= 10) return Math.round(value).toLocaleString('en-US');
  return (Math.round(value * 10) / 10).toLocaleString('en-US');
}

/** Copies as a person counts them: whole ("6 copies", "1 copy", "1,250 copies"). A forecast's
 * fractional copies (5.7) round to the nearest whole copy; text never reads "about 5.7 copies". */
export function formatCopies(value: number): string {
  if (!Number.isFinite(value)) return '—';
  const n = Math.max(0, Math.round(value));
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'copy' : 'copies'}`;
}

/** "Nov 5" for an ISO day ("2026-11-05"), read as a calendar day whatever the time zone. */
export function formatDay(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return iso;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}
