// The admin's users list against a real local HTTP server: search, the disabled badge,
// disabling and enabling behind a confirmation, the roles editor (reader always kept),
// and a refusal shown in the dialog where the admin is looking.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UsersTable } from '@/features/admin';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { useToastStore } from '@/stores/toast';
import { cleanup, click, render, typeInto, waitFor } from './support/catalog-dom';
import { failure, ok, startServer, type TestServer } from './support/http-server';

let server: TestServer;
const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();

const ME = '01938a7e-0000-7000-8000-00000000ad01';
const user = (id: string, name: string, over: Record<string, unknown> = {}) => ({
  user_id: id,
  username: name,
  email: `${name}@example.com`,
  roles: ['reader'],
  current_role: 'reader',
  created_at: '2026-11-01T10:00:00Z',
  invite_code: 'X',
  disabled: false,
  ...over,
});
const ALICE = user('01938a7e-0000-7000-8000-0000000000a1', 'alice');
const BOB = user('01938a7e-0000-7000-8000-0000000000b2', 'bob', { disabled: true, roles: ['reader', 'writer'] });
const ADMIN = user(ME, 'root', { roles: ['reader', 'admin'], current_role: 'admin' });

const page = (rows: unknown[]) => ok({ total: rows.length, page: 1, page_size: 10, result: rows });

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('access_token', 'tok');
  localStorage.setItem('userInfo', JSON.stringify(ADMIN));
  useAuthStore.getState().hydrate();
  useToastStore.setState({ toasts: [] });
  server.seen.length = 0;
  configureApiClient({ baseUrl: server.baseUrl, onUnauthorized: () => {} });
  server.json('/api/users/', 200, page([ADMIN, ALICE, BOB]));
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
});

const rowOf = (c: HTMLElement, name: string) => {
  const row = [...c.querySelectorAll('[data-testid="user-row"]')].find((r) => r.querySelectorAll('td')[1] && text(r.querySelectorAll('td')[1]).startsWith(name));
  if (!row) throw new Error(`no row for ${name}`);
  return row as HTMLElement;
};
const button = (root: ParentNode, label: string) => {
  const b = [...root.querySelectorAll('button')].find((x) => text(x) === label || x.getAttribute('aria-label') === label);
  if (!b) throw new Error(`no button ${label}`);
  return b;
};
const dialog = (testId: string) => {
  const d = document.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  if (!d) throw new Error(`no dialog ${testId}`);
  return d;
};

describe('the users list', () => {
  it('searches, marks disabled accounts, and does not offer to disable yourself', async () => {
    const { container } = await render(<UsersTable />);
    await waitFor(() => rowOf(container, 'bob'));
    expect(rowOf(container, 'bob').querySelector('[data-testid="user-disabled"]')).not.toBeNull();
    expect(rowOf(container, 'alice').querySelector('[data-testid="user-disabled"]')).toBeNull();
    expect(button(rowOf(container, 'bob'), 'Enable bob')).toBeTruthy();
    expect(button(rowOf(container, 'root'), 'Disable root').disabled).toBe(true);

    server.json('/api/users/', 200, page([ALICE]));
    typeInto(container.querySelector<HTMLInputElement>('input[name="query"]')!, ' ali ');
    await click(button(container, 'Search'));
    await waitFor(() => expect(server.seen.some((s) => s.url === '/api/users/?page=1&page_size=10&query=ali')).toBe(true));
    await waitFor(() => expect(container.querySelectorAll('[data-testid="user-row"]')).toHaveLength(1));
  });

  it('disables an account only after the confirmation, then shows it disabled', async () => {
    server.json(`/api/admin/users/${ALICE.user_id}/disable`, 200, ok({ ...ALICE, disabled: true }));
    const { container } = await render(<UsersTable />);
    await waitFor(() => rowOf(container, 'alice'));
    await click(button(rowOf(container, 'alice'), 'Disable alice'));
    const d = dialog('disable-dialog');
    expect(text(d)).toContain('Disable alice?');
    expect(server.seen.filter((s) => s.method === 'POST')).toHaveLength(0);

    server.json('/api/users/', 200, page([ADMIN, { ...ALICE, disabled: true }, BOB]));
    await click(button(d, 'Disable account'));
    await waitFor(() => expect(document.querySelector('[data-testid="disable-dialog"]')).toBeNull());
    expect(server.seen.filter((s) => s.method === 'POST').map((s) => s.url)).toEqual([`/api/admin/users/${ALICE.user_id}/disable`]);
    await waitFor(() => expect(rowOf(container, 'alice').querySelector('[data-testid="user-disabled"]')).not.toBeNull());
    expect(useToastStore.getState().toasts.map((t) => t.text)).toContain('alice is disabled');
  });

  it('enables a disabled account', async () => {
    server.json(`/api/admin/users/${BOB.user_id}/enable`, 200, ok({ ...BOB, disabled: false }));
    const { container } = await render(<UsersTable />);
    await waitFor(() => rowOf(container, 'bob'));
    await click(button(rowOf(container, 'bob'), 'Enable bob'));
    await click(button(dialog('disable-dialog'), 'Enable account'));
    await waitFor(() => expect(server.seen.some((s) => s.method === 'POST' && s.url === `/api/admin/users/${BOB.user_id}/enable`)).toBe(true));
  });

  it('edits roles with reader always on', async () => {
    server.json(`/api/admin/users/${BOB.user_id}/roles`, 200, ok({ ...BOB, roles: ['reader', 'publisher'] }));
    const { container } = await render(<UsersTable />);
    await waitFor(() => rowOf(container, 'bob'));
    await click(button(rowOf(container, 'bob'), 'Edit roles of bob'));
    const d = dialog('roles-dialog');
    const box = (role: string) => [...d.querySelectorAll('label')].find((l) => text(l).startsWith(role))!.querySelector('input')!;
    expect(box('reader').checked).toBe(true);
    expect(box('reader').disabled).toBe(true);
    expect(box('writer').checked).toBe(true);
    expect(button(d, 'Save roles').disabled).toBe(true);
    await click(box('writer'));
    await click(box('publisher'));
    await click(button(d, 'Save roles'));
    await waitFor(() => expect(server.seen.filter((s) => s.method === 'PUT')).toHaveLength(1));
    expect(JSON.parse(server.seen.find((s) => s.method === 'PUT')!.body)).toEqual({ roles: ['reader', 'publisher'] });
    await waitFor(() => expect(document.querySelector('[data-testid="roles-dialog"]')).toBeNull());
  });

  it('shows the server’s refusal in the dialog, which stays open', async () => {
    const words = 'You cannot remove your own admin role';
    server.json(`/api/admin/users/${ME}/roles`, 409, failure(409, { message: words, detail: words, error: 'wrong_state', reason: words }));
    const { container } = await render(<UsersTable />);
    await waitFor(() => rowOf(container, 'root'));
    await click(button(rowOf(container, 'root'), 'Edit roles of root'));
    const d = dialog('roles-dialog');
    await click([...d.querySelectorAll('label')].find((l) => text(l).startsWith('admin'))!.querySelector('input')!);
    await click(button(d, 'Save roles'));
    await waitFor(() => expect(text(d.querySelector('[data-testid="user-action-error"]')!)).toBe(words));
    expect(document.querySelector('[data-testid="roles-dialog"]')).not.toBeNull();
    expect(useToastStore.getState().toasts).toEqual([]);
    expect(localStorage.getItem('access_token')).toBe('tok');
  });
});
