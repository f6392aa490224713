// Quinn's rules without a screen: the 500-character input rule (counted as the server
// counts), the message list of a visit, the found-books line and when the mood panel goes.
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import {
  CHAT_INPUT_MAX,
  chatInputLength,
  checkChatInput,
  conversationReducer,
  emptyConversation,
  foundLine,
  INPUT_TOO_LONG,
  showsMoodPanel,
  type ChatReply,
  type RecBook,
} from '@/features/chat';
import { newConversationId } from '@/features/chat/conversation-id';
import { plainError } from '@/features/chat/errors';

const reply = (over: Partial<ChatReply> = {}): ChatReply => ({
  conversation_id: 'c1',
  reply_user: 'Quinn here: let me find cosy books.',
  query: 'cosy',
  intent: 'search',
  user_message: { id: 'm1', content: 'Something cosy', type: 'user', timestamp: '2026-11-25T20:00:01Z', books: [] },
  bot_message: { id: 'm2', content: 'Quinn here: let me find cosy books.', type: 'bot', timestamp: '2026-11-25T20:00:02Z', books: [] },
  ...over,
});

const book = (id: string): RecBook =>
  ({ id, book_id: id, title: `Book ${id}`, author: 'Ann', price: 3.5, match_percentage: 80, reason: 'cosy village' }) as RecBook;

describe('the 500-character rule', () => {
  it('says exactly what the spec says', () => {
    expect(CHAT_INPUT_MAX).toBe(500);
    expect(INPUT_TOO_LONG).toBe('Input exceeds 500 characters limit');
  });

  it('takes 500 characters and refuses 501', () => {
    expect(checkChatInput('a'.repeat(500))).toEqual({ ok: true, text: 'a'.repeat(500) });
    expect(checkChatInput('a'.repeat(501))).toEqual({ ok: false, reason: 'too-long' });
  });

  it('counts characters as the server does: an emoji is one, not two', () => {
    const emoji = '📚';
    expect(emoji.length).toBe(2);
    expect(chatInputLength(emoji)).toBe(1);
    expect(checkChatInput(emoji.repeat(500)).ok).toBe(true);
    expect(checkChatInput(emoji.repeat(501))).toEqual({ ok: false, reason: 'too-long' });
  });

  it('sends the words trimmed and does not send a blank input', () => {
    expect(checkChatInput('  a mystery \n')).toEqual({ ok: true, text: 'a mystery' });
    expect(checkChatInput('   \n ')).toEqual({ ok: false, reason: 'empty' });
    expect(checkChatInput('')).toEqual({ ok: false, reason: 'empty' });
  });

  it('refuses an over-long input even when most of it is spaces (what the box shows counts)', () => {
    expect(checkChatInput(`hi${' '.repeat(500)}`)).toEqual({ ok: false, reason: 'too-long' });
  });
});

describe('the found-books line', () => {
  it('names the assistant and the count, or says none', () => {
    expect(foundLine('Quinn', 3)).toBe('Quinn found 3 books for you');
    expect(foundLine('Ada', 5)).toBe('Ada found 5 books for you');
    expect(foundLine('Quinn', 0)).toBe('no 0 books for you');
  });
});

describe('the message list of a visit', () => {
  it('shows the line at once, then takes the server’s ids and times, and adds Quinn’s reply', () => {
    let s = conversationReducer(emptyConversation, { type: 'sent', id: 'local-1', text: 'Something cosy', at: '2026-11-25T20:00:00Z' });
    expect(s.entries).toEqual([{ id: 'local-1', role: 'user', text: 'Something cosy', at: '2026-11-25T20:00:00Z', sending: true }]);
    s = conversationReducer(s, { type: 'replied', entryId: 'local-1', reply: reply() });
    expect(s.entries).toEqual([
      { id: 'm1', role: 'user', text: 'Something cosy', at: '2026-11-25T20:00:01Z' },
      { id: 'm2', role: 'bot', text: 'Quinn here: let me find cosy books.', at: '2026-11-25T20:00:02Z' },
    ]);
  });

  it('keeps the order of a whole exchange and carries the books on their line', () => {
    let s = conversationReducer(emptyConversation, { type: 'sent', id: 'l1', text: 'cosy', at: 't0' });
    s = conversationReducer(s, { type: 'replied', entryId: 'l1', reply: reply() });
    s = conversationReducer(s, { type: 'found', id: 'f1', text: foundLine('Quinn', 2), at: 't3', books: [book('a'), book('b')] });
    s = conversationReducer(s, { type: 'sent', id: 'l2', text: 'under $5', at: 't4' });
    expect(s.entries.map((e) => `${e.role}: ${e.text}`)).toEqual([
      'user: cosy',
      'bot: Quinn here: let me find cosy books.',
      'bot: Quinn found 2 books for you',
      'user: under $5',
    ]);
    expect(s.entries[2].books?.map((b) => b.id)).toEqual(['a', 'b']);
  });

  it('a failed turn waits for a retry; retrying takes the unanswered line back so it is sent once', () => {
    let s = conversationReducer(emptyConversation, { type: 'sent', id: 'l1', text: 'cosy', at: 't0' });
    s = conversationReducer(s, { type: 'failed', failure: { message: 'down', retry: { step: 'chat', text: 'cosy', entryId: 'l1' } } });
    expect(s.failure?.message).toBe('down');
    expect(s.entries).toHaveLength(1);
    s = conversationReducer(s, { type: 'retrying' });
    expect(s).toEqual(emptyConversation);
  });

  it('retrying the book search keeps the conversation as it was', () => {
    let s = conversationReducer(emptyConversation, { type: 'sent', id: 'l1', text: 'cosy', at: 't0' });
    s = conversationReducer(s, { type: 'replied', entryId: 'l1', reply: reply() });
    s = conversationReducer(s, { type: 'failed', failure: { message: 'no books', retry: { step: 'recs', query: 'cosy' } } });
    const before = s.entries;
    s = conversationReducer(s, { type: 'retrying' });
    expect(s.failure).toBeNull();
    expect(s.entries).toBe(before);
  });

  it('a new line clears an old failure', () => {
    let s = conversationReducer(emptyConversation, { type: 'failed', failure: { message: 'x', retry: { step: 'recs', query: 'q' } } });
    s = conversationReducer(s, { type: 'sent', id: 'l1', text: 'hello', at: 't0' });
    expect(s.failure).toBeNull();
  });
});

describe('the opening mood panel', () => {
  it('shows until the first result arrives, even through replies without books', () => {
    let s = conversationReducer(emptyConversation, { type: 'sent', id: 'l1', text: 'hello', at: 't0' });
    expect(showsMoodPanel(s)).toBe(true);
    s = conversationReducer(s, { type: 'replied', entryId: 'l1', reply: reply({ query: null, intent: 'greeting' }) });
    expect(showsMoodPanel(s)).toBe(true);
    s = conversationReducer(s, { type: 'found', id: 'f1', text: foundLine('Quinn', 1), at: 't2', books: [book('a')] });
    expect(showsMoodPanel(s)).toBe(false);
  });

  it('goes on a result with no books too (a result is an answer)', () => {
    const s = conversationReducer(emptyConversation, { type: 'found', id: 'f1', text: foundLine('Quinn', 0), at: 't', books: [] });
    expect(showsMoodPanel(s)).toBe(false);
  });
});

describe('conversation ids and failures in plain words', () => {
  it('makes a fresh UUID each time, within the server’s id rule', () => {
    const a = newConversationId();
    const b = newConversationId();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('builds a UUID without crypto.randomUUID (pages served over plain http)', () => {
    const real = globalThis.crypto.randomUUID;
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newConversationId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(globalThis.crypto, 'randomUUID', { value: real, configurable: true });
    }
  });

  it('says what went wrong without server jargon, and passes a refusal’s own words through', () => {
    const http = (status: number, message = 'internal: tonic status Unavailable') => new ApiError(message, { status, kind: 'http' });
    expect(plainError(new ApiError('Network error', { status: 0, kind: 'network' }), 'Quinn', 'chat')).toBe(
      'Quinn cannot be reached right now. Check your connection and try again.',
    );
    expect(plainError(http(503), 'Quinn', 'chat')).toBe('Quinn could not answer just now. Please try again in a moment.');
    expect(plainError(http(502), 'Quinn', 'recs')).toBe('Quinn could not fetch the books just now. Please try again in a moment.');
    expect(plainError(http(400, INPUT_TOO_LONG), 'Quinn', 'chat')).toBe(INPUT_TOO_LONG);
    expect(plainError(new Error('boom'), 'Quinn', 'chat')).toBe('Quinn could not answer. Please try again.');
  });
});
