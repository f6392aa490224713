// Presentation helpers for catalog values (money and dates: src/lib). Prices travel as
// decimals with at most two places (contract, domain rules); a typed price is read the shared
// way (src/lib/money-input.ts), in the catalog's own words.
import { formatDate } from '@/lib/dates';
import { MAX_MONEY, readMoney } from '@/lib/money-input';

export const DEFAULT_PAGE_SIZE = 10;

const PRICE_WORDS = {
  required: 'This field is required',
  notMoney: 'Must be a price such as 4.99',
  negative: 'Must be a price such as 4.99',
  decimals: 'Use at most 2 decimal places',
  tooLarge: `Must be at most ${MAX_MONEY}`,
};

/** Reads a price typed by a person: 0 (free) up to MAX_MONEY, whole cents. Returns the number, or what is wrong. */
export function parsePrice(raw: string): { value: number } | { error: string } {
  const read = readMoney(raw, { allowZero: true, messages: PRICE_WORDS });
  return read.ok ? { value: read.amount } : { error: read.error };
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
