// What the book page says the free sample covers. The server marks each chapter of the
// table of contents by the same rule it cuts the sample with (front matter, whole, only
// the opening, or out), so this sentence says exactly what the reader will be served.
import type { TocEntry } from './types';

type Marks = Pick<TocEntry, 'title' | 'trial'> & Partial<Pick<TocEntry, 'front_matter' | 'trial_partial'>>;

const quoted = (title: string) => `\u201c${title}\u201d`;

export function sampleClaim(entries: readonly Marks[]): string {
  const chapters = entries.filter((e) => !e.front_matter);
  const count = chapters.length;
  const noun = count === 1 ? 'chapter' : 'chapters';
  const whole = chapters.filter((e) => e.trial && !e.trial_partial).length;
  const opening = chapters.find((e) => e.trial && e.trial_partial);
  if (whole > 0) {
    const more = opening ? ` and the opening of ${quoted(opening.title)}` : '';
    return `The free sample covers ${whole} of ${count} ${noun}${more}.`;
  }
  if (opening) {
    return count === 1
      ? `The free sample covers the opening pages of the book's only chapter.`
      : `The free sample covers the opening pages of ${quoted(opening.title)}, the first of ${count} chapters.`;
  }
  return 'The free sample holds none of the chapters.';
}

/** The badge of one chapter in the table of contents. */
export function sampleBadge(entry: Marks): string {
  if (!entry.trial) return 'Full book';
  return entry.trial_partial ? 'Opening free' : 'Free sample';
}
