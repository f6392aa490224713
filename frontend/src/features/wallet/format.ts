// Dates and references as the wallet screens show them.

export function formatDateTime(value?: string | null): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return d.toLocaleString('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

export function formatDay(value?: string | null): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return d.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** A long id or payment reference, short enough for a row; the whole one goes in a title. */
export function shortRef(ref: string | null | undefined, keep = 12): string {
  if (!ref) return '';
  return ref.length <= keep + 1 ? ref : `…${ref.slice(-keep)}`;
}
