// Sign-in through an OpenID Connect provider, against a real local HTTP server: the login
// page's button (only when enabled) starts the flow and keeps the state; the callback
// refuses a state this tab did not start, finishes a good one like a password login, and
// shows the server's refusals on the page. Also: the register page when registration is
// closed.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OidcButton, OidcCallback, STATE_MISMATCH } from '@/features/auth';
import { checkCallback } from '@/features/auth/oidc';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import RegisterRoute from '@/routes/register';
import { useAuthStore } from '@/stores/auth';
import { useToastStore } from '@/stores/toast';
import { byTestId, cleanup, click, render, waitFor } from './support/catalog-dom';
import { failure, ok, startServer, type TestServer } from './support/http-server';

let server: TestServer;
const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();
const KEY = 'quire.oidc';

const USER = {
  user_id: '01938a7e-0000-7000-8000-0000000000c3',
  username: 'carol',
  email: 'carol@example.com',
  roles: ['reader'],
  current_role: 'reader',
  created_at: '2026-11-01T10:00:00Z',
  invite_code: 'X',
};
const LOGIN = { access_token: 'acc-1', refresh_token: 'ref-1', token_type: 'Bearer', expires_in: 900, user: USER };
const deps = { fetchWallet: vi.fn(async () => null) };

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  useAuthStore.getState().hydrate();
  useToastStore.setState({ toasts: [] });
  server.seen.length = 0;
  configureApiClient({ baseUrl: server.baseUrl, onUnauthorized: () => {} });
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
});

const callbackRoutes = [
  { path: '/login/oidc', element: <OidcCallback deps={deps} /> },
  { path: '/login', element: <p data-testid="login-page">login</p> },
  { path: '/reader', element: <p data-testid="reader-page">reader</p> },
  { path: '/book', element: <p data-testid="book-page">book</p> },
];
const finishes = () => server.seen.filter((s) => s.url === '/api/auth/oidc/finish');

describe('the OIDC callback', () => {
  it('refuses a state this tab did not start, sends nothing, and leads back to the login page', async () => {
    sessionStorage.setItem(KEY, JSON.stringify({ state: 'started-here', redirect: null }));
    const { container, router } = await render(callbackRoutes, '/login/oidc?code=c-1&state=forged');
    await waitFor(() => byTestId(container, 'oidc-failure'));
    expect(text(byTestId(container, 'oidc-failure-reason'))).toBe(STATE_MISMATCH);
    expect(finishes()).toHaveLength(0);
    expect(sessionStorage.getItem(KEY)).toBeNull(); // a state is used once
    await click(container.querySelector('a[href="/login"]')!);
    expect(router.state.location.pathname).toBe('/login');
  });

  it('refuses a callback when no sign-in was started here', async () => {
    const { container } = await render(callbackRoutes, '/login/oidc?code=c-1&state=any');
    await waitFor(() => byTestId(container, 'oidc-failure'));
    expect(text(byTestId(container, 'oidc-failure-reason'))).toBe(STATE_MISMATCH);
    expect(finishes()).toHaveLength(0);
  });

  it('finishes a matching state like a password login and lands where the login page was asked to go', async () => {
    server.json('/api/auth/oidc/finish', 200, ok(LOGIN));
    sessionStorage.setItem(KEY, JSON.stringify({ state: 's-1', redirect: '/book?book_id=b1' }));
    const { container, router } = await render(callbackRoutes, '/login/oidc?code=c-1&state=s-1');
    await waitFor(() => byTestId(container, 'book-page'));
    expect(finishes()).toHaveLength(1);
    expect(JSON.parse(finishes()[0].body)).toEqual({ state: 's-1', code: 'c-1' });
    expect(router.state.location.search).toBe('?book_id=b1');
    expect(localStorage.getItem('access_token')).toBe('acc-1');
    expect(localStorage.getItem('refresh_token')).toBe('ref-1');
    expect(JSON.parse(localStorage.getItem('userInfo')!).email).toBe('carol@example.com');
    expect(localStorage.getItem('currentRole')).toBe('reader');
    expect(useToastStore.getState().toasts.map((t) => t.text)).toContain('Successfully logged in');
  });

  it('goes to /reader without a kept redirect', async () => {
    server.json('/api/auth/oidc/finish', 200, ok(LOGIN));
    sessionStorage.setItem(KEY, JSON.stringify({ state: 's-2', redirect: null }));
    const { container } = await render(callbackRoutes, '/login/oidc?code=c-2&state=s-2');
    await waitFor(() => byTestId(container, 'reader-page'));
  });

  it.each([
    [403, 'Your e-mail address is not verified by the provider'],
    [409, 'Registration is closed'],
    [401, 'Invalid or expired sign-in'],
  ])('shows a %i refusal on the page, without a toast or a session reset', async (status, words) => {
    localStorage.setItem('isVerified', 'true');
    localStorage.setItem('currentRole', 'reader');
    server.json('/api/auth/oidc/finish', status, failure(status, { message: words, detail: words, error: 'x', reason: words }));
    sessionStorage.setItem(KEY, JSON.stringify({ state: 's-3', redirect: null }));
    const { container, router } = await render(callbackRoutes, '/login/oidc?code=c-3&state=s-3');
    await waitFor(() => byTestId(container, 'oidc-failure'));
    expect(text(byTestId(container, 'oidc-failure-reason'))).toBe(words);
    expect(router.state.location.pathname).toBe('/login/oidc');
    expect(useToastStore.getState().toasts).toEqual([]);
    expect(localStorage.getItem('currentRole')).toBe('reader');
    expect(localStorage.getItem('access_token')).toBeNull();
  });

  it('reads a provider error', () => {
    const r = checkCallback(new URLSearchParams('error=access_denied&state=s'), { state: 's', redirect: null });
    expect(r).toEqual({ ok: false, reason: 'The sign-in was cancelled at the provider.' });
  });
});

describe('the sign-in button', () => {
  it('is not there when no provider is configured', async () => {
    server.json('/api/auth/oidc', 200, ok({ enabled: false, display_name: 'your identity provider' }));
    const { container } = await render(<OidcButton />);
    await waitFor(() => expect(server.seen.some((s) => s.url === '/api/auth/oidc')).toBe(true));
    expect(container.querySelector('[data-testid="oidc-signin"]')).toBeNull();
  });

  it('starts the flow with this site’s callback, keeps the state, and leaves for the provider', async () => {
    server.json('/api/auth/oidc', 200, ok({ enabled: true, display_name: 'Example ID' }));
    server.json('/api/auth/oidc/start', 200, ok({ authorization_url: 'https://id.example/authorize?x=1', state: 'st-9' }));
    const go = vi.fn();
    const { container } = await render(<OidcButton redirect="/user/books" go={go} />);
    await waitFor(() => byTestId(container, 'oidc-signin'));
    expect(text(byTestId(container, 'oidc-signin'))).toBe('Sign in with Example ID');
    await click(byTestId(container, 'oidc-signin'));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://id.example/authorize?x=1'));
    const start = server.seen.find((s) => s.url === '/api/auth/oidc/start')!;
    expect(JSON.parse(start.body)).toEqual({ redirect_uri: 'http://localhost/platform/login/oidc' });
    expect(JSON.parse(sessionStorage.getItem(KEY)!)).toEqual({ state: 'st-9', redirect: '/user/books' });
  });
});

describe('the register page', () => {
  it('says registration is closed instead of showing the form', async () => {
    server.json('/api/settings', 200, ok({ trial_percent: 10, registration_open: false, assistant_name: 'Quinn' }));
    const { container } = await render(<RegisterRoute />, '/register');
    await waitFor(() => byTestId(container, 'registration-closed'));
    expect(text(byTestId(container, 'registration-closed'))).toContain('Registration is closed');
    expect(container.querySelector('input[type="email"]')).toBeNull();
  });

  it('shows the form while registration is open', async () => {
    server.json('/api/settings', 200, ok({ trial_percent: 10, registration_open: true, assistant_name: 'Quinn' }));
    const { container } = await render(<RegisterRoute />, '/register');
    await waitFor(() => expect(container.querySelector('input[type="email"]')).not.toBeNull());
    expect(container.querySelector('[data-testid="registration-closed"]')).toBeNull();
  });
});
