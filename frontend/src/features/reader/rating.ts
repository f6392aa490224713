// The end-of-book rating. The platform keeps comments and no separate ratings, so a rating
// is a comment that opens with its stars ("★★★★☆ 4/5"), readable by everyone in the list.
export const RATING_MAX = 5;
/** The comment limit (2000) less room for the stars. */
export const RATING_WORDS_MAX = 1900;

export function ratingComment(stars: number, words: string): string {
  const n = Math.min(RATING_MAX, Math.max(1, Math.round(stars)));
  const head = `${'★'.repeat(n)}${'☆'.repeat(RATING_MAX - n)} ${n}/${RATING_MAX}`;
  const text = words.trim().slice(0, RATING_WORDS_MAX);
  return text ? `${head} · ${text}` : head;
}
