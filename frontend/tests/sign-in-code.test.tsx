// A login kept waiting by failed logins (strangers guessing from address after address),
// against a real HTTP server: the form offers a mailed sign-in code, asks for it, and logs
// in with the code and the password; a code that is not 6 digits is never sent.
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EmailLoginForm } from '@/features/auth';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { useToastStore } from '@/stores/toast';
import { cleanup, render, typeInto, waitFor } from './support/catalog-dom';
import { failure, ok, startServer, type TestServer } from './support/http-server';

let server: TestServer;
const USER = {
  user_id: '01938a7e-0000-7000-8000-0000000000c4',
  username: 'dora',
  email: 'dora@example.org',
  roles: ['reader'],
  current_role: 'reader',
  created_at: '2026-11-01T10:00:00Z',
  invite_code: 'Y',
};
const LOGIN = { access_token: 'acc-9', refresh_token: 'ref-9', token_type: 'Bearer', expires_in: 900, user: USER };
const LOCKED = 'Too many failed logins, try again later or sign in with a code mailed to you';
const deps = { fetchWallet: vi.fn(async () => null) };

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  localStorage.clear();
  useAuthStore.getState().hydrate();
  useToastStore.setState({ toasts: [] });
  server.seen.length = 0;
  configureApiClient({ baseUrl: server.baseUrl, onUnauthorized: () => {} });
  // Refused without a code, let in with one: as the auth service answers a paced address.
  server.on('/api/login/', (req, res) => {
    const body = JSON.parse(req.body) as { verify_code?: string };
    const [status, reply] = body.verify_code === '424242' ? [200, ok(LOGIN)] : [429, failure(429, { message: LOCKED, detail: LOCKED, error: 'login_locked', reason: LOCKED })];
    res.writeHead(status, { 'Content-Type': 'application/json', ...(status === 429 ? { 'Retry-After': '30' } : {}) });
    res.end(JSON.stringify(reply));
  });
  server.json('/api/login/code/', 200, ok({ sent: true, resend_after_secs: 60, expires_in_secs: 600 }));
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
});

const routes = [
  { path: '/login/email', element: <EmailLoginForm deps={deps} /> },
  { path: '/reader', element: <p data-testid="reader-page">reader</p> },
];
const calls = (path: string) => server.seen.filter((s) => s.url === `/api${path}`);

function input(container: HTMLElement, label: string): HTMLInputElement {
  const found = [...container.querySelectorAll('label')].find((l) => l.textContent === label);
  if (!found) throw new Error(`no field labelled ${label}`);
  return document.getElementById(found.htmlFor) as HTMLInputElement;
}

function button(container: HTMLElement, text: string): HTMLButtonElement {
  const found = [...container.querySelectorAll('button')].find((b) => b.textContent?.trim() === text);
  if (!found) throw new Error(`no button "${text}"`);
  return found;
}

async function logIn(container: HTMLElement) {
  await act(async () => {
    container.querySelector('form')!.requestSubmit();
  });
}

describe('a login kept waiting', () => {
  it('offers a mailed code and logs in with it and the password', async () => {
    const { container, router } = await render(routes, '/login/email');
    typeInto(input(container, 'E-mail'), 'dora@example.org');
    typeInto(input(container, 'Password'), 'dora-pass-1');
    await logIn(container);
    await waitFor(() => expect(container.textContent).toContain('Mail me a sign-in code'));
    expect(useToastStore.getState().toasts.map((t) => t.text)).toContain(LOCKED);

    await act(async () => {
      button(container, 'Mail me a sign-in code').click();
    });
    await waitFor(() => expect(input(container, 'Verification code')).toBeTruthy());
    expect(JSON.parse(calls('/login/code/')[0].body)).toEqual({ email: 'dora@example.org' });
    expect(container.textContent).toContain('Resend in');

    // Not six digits: told in place, nothing sent.
    typeInto(input(container, 'Verification code'), '42ab');
    await logIn(container);
    expect(container.querySelectorAll('.field-error').length).toBe(1);
    expect(calls('/login/')).toHaveLength(1);

    typeInto(input(container, 'Verification code'), '424242');
    await logIn(container);
    await waitFor(() => expect(router.state.location.pathname).toBe('/reader'));
    expect(JSON.parse(calls('/login/')[1].body)).toEqual({ email: 'dora@example.org', password: 'dora-pass-1', verify_code: '424242' });
    expect(localStorage.getItem('access_token')).toBe('acc-9');
  });
});
