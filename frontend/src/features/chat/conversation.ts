// The message list of one chat visit, as a pure reducer: what the reader said, what Quinn
// answered, the books found, and the one failure waiting for a retry. It lives in the
// screen's own state (the server keeps the conversation; this is what the screen shows),
// so it is gone when the reader leaves the screen.
import type { ChatReply, RecBook } from './types';

export interface ChatEntry {
  id: string;
  role: 'user' | 'bot';
  text: string;
  /** RFC 3339. */
  at: string;
  /** Set on a recommendation line (possibly empty: nothing was found). */
  books?: RecBook[];
  /** A user line not yet taken by the server. */
  sending?: boolean;
}

/** What a failed step was, so "Try again" repeats exactly it. */
export type RetryStep = { step: 'chat'; text: string; entryId: string } | { step: 'recs'; query: string };

export interface ChatFailure {
  message: string;
  retry: RetryStep;
}

export interface ConversationState {
  entries: ChatEntry[];
  failure: ChatFailure | null;
}

export type ConversationAction =
  | { type: 'sent'; id: string; text: string; at: string }
  | { type: 'replied'; entryId: string; reply: ChatReply }
  | { type: 'found'; id: string; text: string; at: string; books: RecBook[] }
  | { type: 'failed'; failure: ChatFailure }
  /** Clears the failure; a failed chat turn also takes its unanswered line back (it is sent again). */
  | { type: 'retrying' };

export const emptyConversation: ConversationState = { entries: [], failure: null };

/** Spec: "{name} found N books for you", or "no 0 books for you" when there are none. */
export function foundLine(name: string, count: number): string {
  return count > 0 ? `${name} found ${count} books for you` : 'no 0 books for you';
}

/** The opening mood panel shows until the first result (a recommendation line) arrives. */
export function showsMoodPanel(state: ConversationState): boolean {
  return !state.entries.some((e) => e.books !== undefined);
}

export function conversationReducer(state: ConversationState, action: ConversationAction): ConversationState {
  switch (action.type) {
    case 'sent':
      return {
        failure: null,
        entries: [...state.entries, { id: action.id, role: 'user', text: action.text, at: action.at, sending: true }],
      };
    case 'replied': {
      const { user_message: said, bot_message: answer, reply_user } = action.reply;
      const entries = state.entries.map((e) =>
        e.id === action.entryId ? { id: said.id || e.id, role: 'user' as const, text: e.text, at: said.timestamp || e.at } : e,
      );
      entries.push({ id: answer.id, role: 'bot', text: reply_user || answer.content, at: answer.timestamp });
      return { ...state, entries };
    }
    case 'found':
      return {
        ...state,
        entries: [...state.entries, { id: action.id, role: 'bot', text: action.text, at: action.at, books: action.books }],
      };
    case 'failed':
      return { ...state, failure: action.failure };
    case 'retrying': {
      const retry = state.failure?.retry;
      const entries = retry?.step === 'chat' ? state.entries.filter((e) => e.id !== retry.entryId) : state.entries;
      return { entries, failure: null };
    }
  }
}
