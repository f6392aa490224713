// How the analysis' numbers read on screen (dates and money: src/lib). Probabilities come
// as 0-1 (a value above 1 is read as a percentage); quality scores come on one scale per
// block (0-1, 0-10 or 0-100), told apart by the largest score of the block.

export type Scale = 1 | 10 | 100;

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}

/** A probability as 0-1, whichever way it came. */
export function probability(p: number | null | undefined): number {
  if (p === null || p === undefined || !Number.isFinite(p)) return 0;
  return clamp(p > 1 ? p / 100 : p, 0, 1);
}

/** "37%". */
export function formatPercent(p: number | null | undefined): string {
  return `${Math.round(probability(p) * 100)}%`;
}

/** The scale a block of scores is on. */
export function scaleOf(scores: readonly number[]): Scale {
  const top = Math.max(0, ...scores.filter(Number.isFinite));
  return top > 10 ? 100 : top > 1 ? 10 : 1;
}

/** How full a score's bar is (0-1). */
export function scoreShare(score: number, scale: Scale): number {
  return Number.isFinite(score) ? clamp(score / scale, 0, 1) : 0;
}

/** A score with its maximum: "72 / 100", "7.5 / 10" (a 0-1 score reads out of 100). */
export function formatScore(score: number | null | undefined, scale: Scale): { value: string; max: number } | null {
  if (score === null || score === undefined || !Number.isFinite(score)) return null;
  if (scale === 10) return { value: score.toFixed(1), max: 10 };
  return { value: String(Math.round(scale === 1 ? score * 100 : score)), max: 100 };
}

/** A score as 0-100 (what update_book's assessment_score takes). */
export function scoreOutOf100(score: number, scale: Scale): number {
  return Math.round(scoreShare(score, scale) * 1000) / 10;
}

export type Tone = 'success' | 'warning' | 'danger';

/** How worrying an AI probability is: low reads human, high reads machine. */
export function aiTone(p: number): Tone {
  const v = probability(p);
  return v < 0.35 ? 'success' : v < 0.65 ? 'warning' : 'danger';
}

/** A signal's leaning (-1 human .. +1 machine) in words. */
export function leaningText(leaning: number): string {
  if (leaning <= -0.2) return 'Leans human';
  if (leaning >= 0.2) return 'Leans machine';
  return 'Neutral';
}

/** Where a leaning sits on a human-machine line, 0-100 (50 is neutral). */
export function leaningPosition(leaning: number): number {
  return Math.round((clamp(Number.isFinite(leaning) ? leaning : 0, -1, 1) + 1) * 50);
}

/** "12,345". */
export function formatCount(n: number | null | undefined): string {
  return Number.isFinite(n) ? Math.round(n as number).toLocaleString('en-US') : '0';
}

/** A signal's measured value, to at most two places. */
export function formatValue(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Where a passage is, for a reader: "Chapter 2 · The Bottle" (its place in the list of
 * chapters, whose `index` it carries), or "Chapter 3" for a chapter not in the list.
 */
export function chapterName(chapters: readonly { index: number; title: string }[], index: number): string {
  const at = chapters.findIndex((c) => c.index === index);
  if (at < 0) return `Chapter ${Math.max(0, Math.round(index)) + 1}`;
  const title = chapters[at].title.trim();
  return title ? `Chapter ${at + 1} · ${title}` : `Chapter ${at + 1}`;
}

/** A feature's weight in nats, signed: "+0.42". */
export function formatWeight(w: number): string {
  const v = Number.isFinite(w) ? Math.round(w * 100) / 100 : 0;
  return `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(v).toFixed(2)}`;
}
