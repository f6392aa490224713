// The end-of-book rating: the stars go to the book's readers' rating (PUT .../rating, only
// for a reader who owns the book); the few words, when given, are posted as a comment.
/** A comment's limit. */
export const RATING_WORDS_MAX = 2000;
