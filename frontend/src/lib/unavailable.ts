// When a part of Quire is down the gateway answers 503 with a reason naming it
// (`chat_unavailable`, `cache_unavailable` for Redis) and a Retry-After. This file is the one
// place that turns such a reason into words a person reads: which part is away and that the
// rest still works. The api client puts the words on the error and in the outage banner.

/** The parts the gateway names in a `<part>_unavailable` reason. */
export type Part = 'auth' | 'catalog' | 'wallet' | 'manuscript' | 'chat' | 'cache';

/** What a reader calls each part, and whether the name takes "are". */
const PART_WORDS: Record<Exclude<Part, 'cache'>, { name: string; plural: boolean }> = {
  chat: { name: 'Quinn', plural: false },
  catalog: { name: 'The shop and search', plural: true },
  wallet: { name: 'Payments and the wallet', plural: true },
  manuscript: { name: 'Uploads and manuscripts', plural: true },
  auth: { name: 'Sign-in', plural: false },
};

const PARTS: readonly Part[] = ['auth', 'catalog', 'wallet', 'manuscript', 'chat', 'cache'];

/** The default wait when a 503 names no Retry-After (the gateway's own default). */
export const DEFAULT_RETRY_AFTER_MS = 5_000;

/** The part a failure's machine reason names, or null when it names none of them. */
export function partOf(reason: string | undefined): Part | null {
  const match = /^([a-z]+)_unavailable$/.exec(reason ?? '');
  const part = match?.[1] as Part | undefined;
  return part && PARTS.includes(part) ? part : null;
}

/** The sentence shown when `part` is down. */
export function unavailableText(part: Part): string {
  if (part === 'cache') {
    return 'Saving changes is paused for a moment; reading and browsing still work. Try again in a moment.';
  }
  const { name, plural } = PART_WORDS[part];
  return `${name} ${plural ? 'are' : 'is'} not answering right now; the rest of Quire works. Try again in a moment.`;
}

/** Seconds (or an HTTP date) of a Retry-After header, in milliseconds; null when absent. */
export function parseRetryAfter(header: string | null | undefined, now: number = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** What a failure needs for the outage words and the retry policy. */
export interface OutageLike {
  status: number;
  code?: string;
  retryAfterMs?: number;
}

/** Whether a failure says which part is down (a 503 with a `<part>_unavailable` reason). */
export function isOutage(error: unknown): error is OutageLike {
  if (typeof error !== 'object' || error === null) return false;
  const { status, code } = error as OutageLike;
  return status === 503 && partOf(code) !== null;
}

/** How many times a read is asked again while its part is down, after its Retry-After. */
export const OUTAGE_READ_RETRIES = 2;

/**
 * react-query's `retry` for reads: only a named part that is down, a few times (its banner
 * line shows once however often it is asked; any other failure was toasted, and asking
 * again would toast it again).
 */
export function retryReadWhileDown(failureCount: number, error: unknown): boolean {
  return isOutage(error) && failureCount < OUTAGE_READ_RETRIES;
}

/** react-query's `retryDelay`: what the server's Retry-After asked for. */
export function retryDelayOf(_failureCount: number, error: unknown): number {
  return (isOutage(error) ? error.retryAfterMs : undefined) ?? DEFAULT_RETRY_AFTER_MS;
}
