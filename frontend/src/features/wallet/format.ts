// References as the wallet screens show them (dates and money: src/lib).

/** A long id or payment reference, short enough for a row; the whole one goes in a title. */
export function shortRef(ref: string | null | undefined, keep = 12): string {
  if (!ref) return '';
  return ref.length <= keep + 1 ? ref : `…${ref.slice(-keep)}`;
}
