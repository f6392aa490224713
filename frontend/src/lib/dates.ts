// Dates on the screens, for every feature: one locale and one shape ("Jan 5, 2026").
// Missing values are empty; unreadable ones are shown as they came.

const DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const DAY_TIME: Intl.DateTimeFormatOptions = { ...DAY, hour: 'numeric', minute: '2-digit' };

function parse(value?: string | number | null): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** "Jan 5, 2026". */
export function formatDate(value?: string | null): string {
  if (!value) return '';
  const d = parse(value);
  return d ? d.toLocaleDateString('en-US', DAY) : value;
}

/** "Jan 5, 2026, 3:04 PM". */
export function formatDateTime(value?: string | null): string {
  if (!value) return '';
  const d = parse(value);
  return d ? d.toLocaleString('en-US', DAY_TIME) : value;
}

/** "just now", "5 minutes ago", "yesterday", then a date. Unreadable times are empty. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return m === 1 ? '1 minute ago' : `${m} minutes ago`;
  const h = Math.round(m / 60);
  if (h < 24) return h === 1 ? '1 hour ago' : `${h} hours ago`;
  const d = Math.round(h / 24);
  if (d === 1) return 'yesterday';
  if (d < 30) return `${d} days ago`;
  return formatDate(new Date(t).toISOString());
}
