// The chat with Quinn against a real local HTTP server: the mood panel until the first
// books, a turn followed by the recommendation call, cards that open the book, the
// 500-character rule (warning, nothing sent), Enter and Shift+Enter, the waiting line,
// failures with a retry, the sign-in prompt, and an empty list after navigating away.
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChatScreen, type RecBook } from '@/features/chat';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { byTestId, cleanup, click, render, waitFor, type Rendered } from './support/catalog-dom';
import { failure, ok, startServer, type Seen, type TestServer } from './support/http-server';

const MOODS = {
  assistant_name: 'Quinn',
  moods: [
    { id: 'cosy', label: 'Something cosy', utterance: 'Something cosy', genres: ['Romance', 'Mystery'] },
    { id: 'thrilling', label: 'I need a thrill', utterance: 'I need a thrill', genres: ['Thriller'] },
  ],
};

const rec = (id: string, title: string, price: number, match: number, reason: string): RecBook =>
  ({ id, book_id: id, title, author: 'Ann Author', price, cover_image: '', match_percentage: match, reason, bought: false }) as unknown as RecBook;

const COSY = [rec('b1', 'The Village Letters', 4.99, 92, 'A cosy mystery told in letters'), rec('b2', 'Tea at Four', 7.5, 71, 'Warm friendships')];

let server: TestServer;
let view: Rendered;
let chats: Seen[];
let recs: Seen[];

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  localStorage.clear();
  useAuthStore.getState().hydrate();
  server.seen.length = 0;
  configureApiClient({ baseUrl: server.baseUrl, notifyError: () => {}, onUnauthorized: () => {} });
  server.json('/api/chat/moods', 200, ok(MOODS));
  server.json('/api/users/me/', 200, ok({ user_id: 'u-7', email: 'r@q.test', username: 'reader', roles: ['reader'], current_role: 'reader' }));
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
});

const posted = (path: string) => server.seen.filter((s) => s.method === 'POST' && s.url === path);

function login() {
  localStorage.setItem('access_token', 'tok');
  localStorage.setItem('userInfo', JSON.stringify({ user_id: 'u-7', email: 'r@q.test', username: 'reader', roles: ['reader'], current_role: 'reader' }));
  useAuthStore.getState().hydrate();
}

/** Answers a turn like the service: the reply, and a query when there is something to search. */
function serveChat(answer: (input: string) => { reply: string; query: string | null; intent?: string }, delayMs = 0) {
  let n = 0;
  server.on('/api/chat', (req, res) => {
    const body = JSON.parse(req.body);
    const a = answer(body.current_input);
    n++;
    const at = new Date(Date.UTC(2026, 10, 25, 18, 30 + n)).toISOString();
    setTimeout(() => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify(
          ok({
            conversation_id: body.conversation_id,
            reply_user: a.reply,
            query: a.query,
            intent: a.intent ?? (a.query ? 'search' : 'greeting'),
            user_message: { id: `u${n}`, content: body.current_input, type: 'user', timestamp: at, books: [] },
            bot_message: { id: `b${n}`, content: a.reply, type: 'bot', timestamp: at, books: [] },
          }),
        ),
      );
    }, delayMs);
  });
}

function serveBooks(books: (query: string) => RecBook[]) {
  server.on('/api/recbooks', (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(ok(books(JSON.parse(req.body).query))));
  });
}

async function show() {
  view = await render(
    [
      { path: '/reader', element: <ChatScreen loginHref="/login?redirect=%2Freader" /> },
      { path: '/book', element: <p data-testid="book-page">book page</p> },
      { path: '/elsewhere', element: <p data-testid="elsewhere">elsewhere</p> },
      { path: '/login', element: <p data-testid="login-page">login</p> },
    ],
    '/reader',
  );
  chats = [];
  recs = [];
  return view;
}

const q = <T extends Element = HTMLElement>(sel: string) => view.container.querySelector<T>(sel);
const qa = (sel: string) => [...view.container.querySelectorAll<HTMLElement>(sel)];
const input = () => byTestId(view.container, 'chat-input') as HTMLTextAreaElement;
const moodButton = (label: string) => qa('.quinn-mood').find((b) => b.textContent === label);
const lines = () => qa('.quinn-msg:not(.quinn-pending)').map((li) => li.querySelector('.quinn-bubble')?.textContent?.replace(/^(You|Quinn): /, ''));

function typeText(value: string) {
  const el = input();
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
  act(() => {
    setter?.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function press(key: string, init: KeyboardEventInit = {}) {
  await act(async () => {
    input().dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));
  });
}

describe('the chat with Quinn', () => {
  it('shows the moods from the server, then a turn brings books as cards and the panel goes', async () => {
    login();
    serveChat((said) => ({ reply: 'Quinn here: let me find cosy books.', query: said === 'Something cosy' ? 'cosy' : null }));
    serveBooks(() => COSY);
    await show();
    await waitFor(() => expect(moodButton('Something cosy')).toBeTruthy());
    expect(qa('.quinn-mood').map((b) => b.textContent)).toEqual(['Something cosy', 'I need a thrill']);
    expect(byTestId(view.container, 'mood-panel').textContent).toContain('Hi, I’m Quinn');

    await click(moodButton('Something cosy')!);
    await waitFor(() => expect(qa('[data-testid="rec-book"]')).toHaveLength(2));
    chats = posted('/api/chat');
    recs = posted('/api/recbooks');
    expect(chats).toHaveLength(1);
    const sent = JSON.parse(chats[0].body);
    expect(sent.current_input).toBe('Something cosy');
    expect(sent.uid).toBe('u-7');
    expect(sent.conversation_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(recs).toHaveLength(1);
    expect(JSON.parse(recs[0].body)).toMatchObject({ query: 'cosy', uid: 'u-7', conversation_id: sent.conversation_id });

    expect(lines()).toEqual(['Something cosy', 'Quinn here: let me find cosy books.', 'Quinn found 2 books for you']);
    // every line has its time
    const times = qa('.quinn-msg:not(.quinn-pending) time');
    expect(times).toHaveLength(3);
    expect(times.every((t) => /^\d{1,2}:\d{2} (AM|PM)$/.test(t.textContent ?? ''))).toBe(true);
    expect(times[0].getAttribute('dateTime')).toBe('2026-11-25T18:31:00.000Z');

    const card = qa('[data-testid="rec-book"]')[0];
    expect(card.querySelector('[data-testid="rec-title"]')?.textContent).toBe('The Village Letters');
    expect(card.textContent).toContain('Ann Author');
    expect(card.querySelector('[data-testid="rec-price"]')?.textContent).toBe('$4.99');
    expect(card.querySelector('[data-testid="rec-match"]')?.textContent).toBe('92% match');
    expect(card.querySelector('[data-testid="rec-reason"]')?.textContent).toBe('A cosy mystery told in letters');
    expect(card.querySelector('a')?.getAttribute('href')).toBe('/book?book_id=b1');
    expect(q('[data-testid="mood-panel"]')).toBeNull();
    // after a result, ways to narrow it down are offered
    expect(qa('.quinn-chip').map((c) => c.textContent)).toEqual(['Under $5', 'Shorter', 'Cheaper']);

    await click(card.querySelector('a')!);
    await waitFor(() => byTestId(view.container, 'book-page'));
    expect(view.router.state.location.search).toBe('?book_id=b1');
  });

  it('keeps the mood panel through a reply without books, and says so when nothing is found', async () => {
    login();
    serveChat((said) => (said === 'hello' ? { reply: 'Hi, I’m Quinn!', query: null } : { reply: 'Let me look.', query: 'dragons in space' }));
    serveBooks(() => []);
    await show();
    typeText('hello');
    await press('Enter');
    await waitFor(() => expect(lines()).toEqual(['hello', 'Hi, I’m Quinn!']));
    expect(posted('/api/recbooks')).toHaveLength(0);
    expect(q('[data-testid="mood-panel"]')).not.toBeNull();
    expect(input().value).toBe('');

    typeText('dragons in space');
    await press('Enter');
    await waitFor(() => expect(lines()).toContain('no 0 books for you'));
    expect(qa('[data-testid="rec-book"]')).toHaveLength(0);
    expect(q('[data-testid="mood-panel"]')).toBeNull();
  });

  it('refuses 501 characters with the warning and sends nothing; 500 go out', async () => {
    login();
    serveChat(() => ({ reply: 'Let me look.', query: null }));
    await show();
    await waitFor(() => expect(moodButton('Something cosy')).toBeTruthy());
    typeText('x'.repeat(501));
    expect(byTestId(view.container, 'chat-count').textContent).toBe('501/500');
    expect(byTestId(view.container, 'chat-warning').textContent).toContain('Input exceeds 500 characters limit');
    expect(byTestId(view.container, 'chat-warning').getAttribute('role')).toBe('alert');
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect((byTestId(view.container, 'chat-send') as HTMLButtonElement).disabled).toBe(true);
    await press('Enter');
    await act(async () => {
      view.container.querySelector('form')?.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    await act(async () => new Promise((r) => setTimeout(r, 150)));
    expect(posted('/api/chat')).toHaveLength(0);
    expect(lines()).toEqual([]);
    expect(input().value).toHaveLength(501);

    typeText('x'.repeat(500));
    expect(q('[data-testid="chat-warning"]')).toBeNull();
    expect(byTestId(view.container, 'chat-count').textContent).toBe('500/500');
    await press('Enter');
    await waitFor(() => expect(posted('/api/chat')).toHaveLength(1));
    expect(JSON.parse(posted('/api/chat')[0].body).current_input).toHaveLength(500);
  });

  it('Shift+Enter is a new line; Enter sends; Quinn is looking while the turn is under way', async () => {
    login();
    serveChat(() => ({ reply: 'Let me find mysteries.', query: 'mystery' }), 300);
    serveBooks(() => COSY.slice(0, 1));
    await show();
    typeText('a mystery');
    await press('Enter', { shiftKey: true });
    expect(posted('/api/chat')).toHaveLength(0);
    await press('Enter');
    await waitFor(() => expect(byTestId(view.container, 'chat-pending').textContent).toContain('Quinn is looking…'));
    expect(lines()).toEqual(['a mystery']);
    expect(q('.quinn-msg-user time')?.textContent).toBe('Sending…');
    expect((byTestId(view.container, 'chat-send') as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(lines()).toContain('Quinn found 1 books for you'));
    expect(q('[data-testid="chat-pending"]')).toBeNull();
    const log = q('[role="log"]');
    expect(log?.getAttribute('aria-live')).toBe('polite');
  });

  it('says a failure in plain words and retries the step that failed, once', async () => {
    login();
    let down = true;
    server.on('/api/chat', (req, res) => {
      if (down) {
        res.writeHead(503, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(failure(503, { message: 'upstream connect error: tonic::transport' })));
        return;
      }
      const body = JSON.parse(req.body);
      const at = '2026-11-25T18:40:00Z';
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify(
          ok({
            conversation_id: body.conversation_id,
            reply_user: 'On it.',
            query: 'cosy',
            intent: 'search',
            user_message: { id: 'u1', content: body.current_input, type: 'user', timestamp: at, books: [] },
            bot_message: { id: 'b1', content: 'On it.', type: 'bot', timestamp: at, books: [] },
          }),
        ),
      );
    });
    let booksDown = true;
    server.on('/api/recbooks', (_req, res) => {
      res.writeHead(booksDown ? 500 : 200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(booksDown ? failure(500, { message: 'db' }) : ok(COSY)));
    });
    await show();
    typeText('cosy please');
    await press('Enter');
    await waitFor(() => expect(byTestId(view.container, 'chat-error').textContent).toContain('Quinn could not answer just now'));
    expect(byTestId(view.container, 'chat-error').textContent).not.toContain('tonic');
    expect(lines()).toEqual(['cosy please']);

    down = false;
    const retry = qa('button').find((b) => b.textContent === 'Try again')!;
    await click(retry);
    await waitFor(() => expect(byTestId(view.container, 'chat-error').textContent).toContain('Quinn could not fetch the books'));
    expect(lines()).toEqual(['cosy please', 'On it.']);
    expect(posted('/api/chat')).toHaveLength(2);

    booksDown = false;
    await click(qa('button').find((b) => b.textContent === 'Try again')!);
    await waitFor(() => expect(qa('[data-testid="rec-book"]')).toHaveLength(2));
    expect(q('[data-testid="chat-error"]')).toBeNull();
    expect(posted('/api/chat')).toHaveLength(2);
    expect(posted('/api/recbooks')).toHaveLength(2);
    expect(lines()).toEqual(['cosy please', 'On it.', 'Quinn found 2 books for you']);
  });

  it('starts empty with a new conversation after navigating away and back', async () => {
    login();
    serveChat(() => ({ reply: 'Hello!', query: null }));
    await show();
    typeText('hi');
    await press('Enter');
    await waitFor(() => expect(lines()).toEqual(['hi', 'Hello!']));
    const first = JSON.parse(posted('/api/chat')[0].body).conversation_id;
    await act(async () => {
      await view.router.navigate('/elsewhere');
    });
    await act(async () => {
      await view.router.navigate('/reader');
    });
    await waitFor(() => expect(moodButton('Something cosy')).toBeTruthy());
    expect(lines()).toEqual([]);
    typeText('hi again');
    await press('Enter');
    await waitFor(() => expect(posted('/api/chat')).toHaveLength(2));
    expect(JSON.parse(posted('/api/chat')[1].body).conversation_id).not.toBe(first);
  });

  it('shows visitors the moods and a sign-in prompt instead of the input', async () => {
    await show();
    await waitFor(() => expect(moodButton('Something cosy')).toBeTruthy());
    expect(q('[data-testid="chat-input"]')).toBeNull();
    const prompt = byTestId(view.container, 'chat-signin');
    expect(prompt.textContent).toContain('Log in to chat with Quinn');
    expect(prompt.querySelector('a')?.getAttribute('href')).toBe('/login?redirect=%2Freader');
    await click(moodButton('Something cosy')!);
    await waitFor(() => byTestId(view.container, 'login-page'));
    expect(view.router.state.location.search).toBe('?redirect=%2Freader');
    expect(posted('/api/chat')).toHaveLength(0);
  });
});
