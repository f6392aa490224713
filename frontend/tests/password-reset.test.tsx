// The forgotten-password screens against a real HTTP server: the login form's link, the
// code request, the new password checked before it is sent, and the way back to log in.
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '@/app/router';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { useToastStore } from '@/stores/toast';
import { cleanup, click, render, typeInto, waitFor } from './support/catalog-dom';
import { ok, startServer, type TestServer } from './support/http-server';

let server: TestServer;

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
  server.json('/api/users/password-reset/code/', 200, ok({ sent: true, resend_after_secs: 60, expires_in_secs: 600 }));
  server.json('/api/users/password-reset/', 200, ok({ reset: true }));
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
});

function input(container: HTMLElement, label: string): HTMLInputElement {
  const found = [...container.querySelectorAll('label')].find((l) => l.textContent === label);
  if (!found) throw new Error(`no field labelled ${label}`);
  return document.getElementById(found.htmlFor) as HTMLInputElement;
}

function button(container: HTMLElement, text: string): HTMLElement {
  const found = [...container.querySelectorAll('button, a')].find((b) => b.textContent?.trim() === text);
  if (!found) throw new Error(`no button or link "${text}"`);
  return found as HTMLElement;
}

const calls = (path: string) => server.seen.filter((s) => s.url === `/api${path}`);

async function submit(container: HTMLElement, text: string) {
  await act(async () => {
    button(container, text).closest('form')!.requestSubmit();
  });
}

describe('a forgotten password', () => {
  it('goes from the login form to a new password and back to log in, redirect kept', async () => {
    const { container, router } = await render(routes, '/login/email?redirect=%2Fuser%2Fprofile');
    typeInto(input(container, 'E-mail'), 'ada@example.org');
    await click(button(container, 'Forgot password?'));
    expect(router.state.location.pathname).toBe('/login/reset');
    expect(input(container, 'E-mail').value).toBe('ada@example.org');

    await submit(container, 'Send code');
    await waitFor(() => expect(input(container, 'New password')).toBeTruthy());
    expect(JSON.parse(calls('/users/password-reset/code/')[0].body)).toEqual({ email: 'ada@example.org' });
    expect(container.textContent).toContain('Resend in');

    typeInto(input(container, 'Verification code'), '123456');
    typeInto(input(container, 'New password'), 'a-new-password');
    typeInto(input(container, 'Confirm new password'), 'another-password');
    await submit(container, 'Reset password');
    expect(container.textContent).toContain('The passwords do not match');
    expect(calls('/users/password-reset/')).toHaveLength(0);

    typeInto(input(container, 'Confirm new password'), 'a-new-password');
    await submit(container, 'Reset password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login/email'));
    expect(router.state.location.search).toBe('?redirect=%2Fuser%2Fprofile');
    expect(JSON.parse(calls('/users/password-reset/')[0].body)).toEqual({
      email: 'ada@example.org',
      verify_code: '123456',
      password: 'a-new-password',
    });
    expect(useToastStore.getState().toasts.map((t) => t.text)).toContain('Your password is reset. Log in with your new password.');
  });

  it('asks for nothing until the code and the new password follow the rules', async () => {
    const { container } = await render(routes, '/login/reset?email=ada%40example.org');
    await submit(container, 'Send code');
    await waitFor(() => expect(input(container, 'New password')).toBeTruthy());
    typeInto(input(container, 'Verification code'), '12ab');
    typeInto(input(container, 'New password'), 'short');
    typeInto(input(container, 'Confirm new password'), 'short');
    await submit(container, 'Reset password');
    expect(container.querySelectorAll('.field-error').length).toBe(2);
    expect(calls('/users/password-reset/')).toHaveLength(0);
  });
});
