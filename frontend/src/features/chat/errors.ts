// A failed chat or recommendation call, in words a reader understands. The server's own
// text is shown for a refused input (it is written for readers: "Input exceeds 500
// characters limit"); transport and server faults get a plain sentence instead.
import { ApiError } from '@/lib/api-client';

export type ChatStep = 'chat' | 'recs';

export function plainError(error: unknown, name: string, step: ChatStep): string {
  const what = step === 'chat' ? `${name} could not answer` : `${name} could not fetch the books`;
  if (!(error instanceof ApiError)) return `${what}. Please try again.`;
  if (error.kind === 'network') return `${name} cannot be reached right now. Check your connection and try again.`;
  if (error.kind === 'timeout') return `${name} took too long to answer. Please try again.`;
  if (error.status === 401) return 'Your session has ended. Log in again to keep chatting.';
  if (error.status === 403) return 'This conversation belongs to another account. Reload the page to start your own.';
  if (error.status === 404) return 'This conversation is no longer available. Reload the page to start a new one.';
  if (error.status === 429) return `${name} is getting a lot of messages. Wait a moment, then try again.`;
  if (error.status >= 500 || error.status === 0) return `${what} just now. Please try again in a moment.`;
  return error.message || `${what}. Please try again.`;
}
