// Presentation helpers for catalog values (money and dates: src/lib). Prices travel as
// decimals with at most two places (contract, domain rules); typed prices are validated the
// same way the server does, so a bad price is refused before it costs a round trip.
import { formatDate } from '@/lib/dates';

export const MAX_PRICE = 1_000_000;
export const DEFAULT_PAGE_SIZE = 10;

/**
 * Reads a price typed by a person: a decimal with at most two places between 0 and
 * MAX_PRICE. Returns the number, or an error message naming what is wrong.
 */
export function parsePrice(raw: string): { value: number } | { error: string } {
  const text = raw.trim().replace(/^\$/, '');
  if (text === '') return { error: 'This field is required' };
  if (!/^\d+(\.\d{1,2})?$/.test(text)) {
    return /^\d+\.\d{3,}$/.test(text)
      ? { error: 'Use at most 2 decimal places' }
      : { error: 'Must be a price such as 4.99' };
  }
  const value = Number(text);
  if (value > MAX_PRICE) return { error: `Must be at most ${MAX_PRICE}` };
  return { value };
}

/** Scores may come on a 0-10 or a 0-100 scale; both read as "x / max". */
export function formatScore(score: number | null | undefined): { value: string; max: number } | null {
  if (score === null || score === undefined || !Number.isFinite(score) || score <= 0) return null;
  const max = score > 10 ? 100 : 10;
  return { value: max === 10 ? score.toFixed(1) : String(Math.round(score)), max };
}

/** "a, b ,c" -> ["a", "b", "c"], without blanks or repeats. */
export function splitList(raw: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of raw.split(',')) {
    const t = part.trim();
    if (t && !seen.has(t.toLowerCase())) {
      seen.add(t.toLowerCase());
      out.push(t);
    }
  }
  return out;
}

/** The wire form of tag and author lists: comma-joined (spec section 3). */
export function joinList(items: readonly string[]): string {
  return items
    .map((s) => s.trim())
    .filter(Boolean)
    .join(',');
}

export function formatBytes(bytes?: number | null): string {
  if (!bytes || bytes <= 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The date a book went on sale, whichever field the server filled. */
export function bookDate(book: { published_at?: string | null; publish_date?: string | null; created_time?: string | null }): string {
  return formatDate(book.published_at || book.publish_date || book.created_time);
}
