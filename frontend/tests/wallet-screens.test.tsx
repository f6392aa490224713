// The wallet's screens against a real local HTTP server: the recharge page (validation,
// progress, result, retry with the same Idempotency-Key), the summary (open-and-retry of
// spec section 4, silently), the activity records, the rewards and the admin's wallets.
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '@/app/router';
import { WalletSummaryCard } from '@/features/wallet';
import { api, ApiError, configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { useToastStore } from '@/stores/toast';
import { byTestId, cleanup, click, render, sleep, typeInto, waitFor } from './support/catalog-dom';
import { failure, ok, startServer, type TestServer } from './support/http-server';

let server: TestServer;
const toasts = () => useToastStore.getState().toasts.map((t) => t.text);

const wallet = (balance: number, extra: Record<string, unknown> = {}) => ({
  user_id: 'reader-7',
  balance,
  currency: 'USD',
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-22T10:00:00Z',
  recharged: balance,
  earned: 0,
  spent: 0,
  ...extra,
});

const record = (id: string, amount: number, extra: Record<string, unknown> = {}) => ({
  id,
  user_id: 'reader-7',
  amount,
  kind: 'recharge',
  status: 'settled',
  provider: 'instant',
  provider_ref: `instant-${id}`,
  note: '',
  created_at: '2026-11-22T10:00:00Z',
  settled_at: '2026-11-22T10:00:01Z',
  created_by: null,
  ...extra,
});

const page = (result: unknown[], extra: Record<string, unknown> = {}) => ({ total: result.length, page: 1, page_size: 10, result, ...extra });

function logIn(userId = 'reader-7') {
  localStorage.setItem('access_token', 'tok');
  localStorage.setItem('userInfo', JSON.stringify({ user_id: userId, username: 'ruth', email: 'ruth@example.com', roles: ['reader'], current_role: 'reader' }));
  useAuthStore.getState().hydrate();
}

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
  server.json('/api/wallet/info', 200, ok({ wallet: wallet(0) }));
  server.json('/api/top_up_records', 200, ok(page([])));
  server.json('/api/get_trade_records', 200, ok(page([])));
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
});

const seen = (path: string) => server.seen.filter((s) => s.url.split('?')[0] === path);
const button = (root: ParentNode, text: string) =>
  [...root.querySelectorAll('button')].find((b) => b.textContent?.trim() === text) as HTMLButtonElement;
const submitForm = async (form: Element) =>
  act(async () => {
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });

describe('the recharge page', () => {
  const open = async (path = '/user/recharge?amount=5&redirect=%2Fbook%3Fbook_id%3Db1') => {
    logIn();
    const r = await render(routes, path);
    await waitFor(() => expect(byTestId(r.container, 'recharge-balance').textContent).toBe('$0.00'));
    return r;
  };

  it('asks a visitor to log in and come back', async () => {
    const { container } = await render(routes, '/user/recharge?amount=5');
    expect(container.textContent).toContain('Log in to recharge your wallet');
    const link = [...container.querySelectorAll('main a')].find((a) => a.textContent === 'Log in')!;
    expect(link.getAttribute('href')).toBe('/login?redirect=%2Fuser%2Frecharge%3Famount%3D5');
  });

  it('preselects the amount a purchase misses and says payments are demo payments', async () => {
    const { container } = await open();
    const chips = [...container.querySelectorAll('[role="radio"]')];
    expect(chips.map((c) => c.textContent)).toEqual(['$5.00', '$10.00', '$20.00', '$50.00']);
    expect(chips.find((c) => c.getAttribute('aria-checked') === 'true')?.textContent).toBe('$5.00');
    expect(byTestId(container, 'recharge-submit').textContent).toBe('Recharge $5.00');
    const notice = byTestId(container, 'demo-payment-notice').textContent ?? '';
    expect(notice).toContain('settled instantly by Quire’s built-in demo payment provider');
    expect(notice).toContain('No card is needed');
    // the way back to the book sits in the header too
    expect([...container.querySelectorAll('.page-header a')].map((a) => a.getAttribute('href'))).toContain('/book?book_id=b1');
  });

  it('checks a typed amount before sending it', async () => {
    const { container } = await open('/user/recharge');
    const input = container.querySelector<HTMLInputElement>('input[name="amount"]')!;
    const form = container.querySelector('form[aria-label="Recharge"]')!;
    const errorText = () => container.querySelector('.field-error')?.textContent;
    typeInto(input, '4.999');
    expect(errorText()).toBe('Use at most 2 decimal places (whole cents)');
    typeInto(input, '-3');
    expect(errorText()).toBe('The amount must be positive');
    typeInto(input, '0');
    expect(errorText()).toBe('The amount must be more than 0');
    typeInto(input, '2000000');
    expect(errorText()).toBe('The most you can add at once is $1,000,000.00');
    typeInto(input, 'ten');
    expect(errorText()).toBe('Enter a number, like 12.50');
    expect(byTestId(container, 'recharge-submit').textContent).toBe('Recharge');
    await submitForm(form);
    typeInto(input, '');
    await submitForm(form);
    expect(errorText()).toBe('Enter an amount');
    expect(seen('/api/wallet/recharge')).toHaveLength(0);
    typeInto(input, '12.5');
    expect(errorText()).toBeUndefined();
    expect(byTestId(container, 'recharge-submit').textContent).toBe('Recharge $12.50');
    expect(container.querySelector('[role="radio"][aria-checked="true"]')).toBeNull();
  });

  it('goes straight back to the book a recharge was started from once the money is in', async () => {
    server.on('/api/wallet/recharge', (req, res) => {
      const amount = JSON.parse(req.body).amount;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok({ wallet: wallet(amount), record: record('r1', amount) })));
    });
    server.json('/api/get_books', 200, ok([]));
    const { container, router } = await open();
    expect(router.state.location.pathname).toBe('/user/recharge');
    await click(byTestId(container, 'recharge-submit'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/book?book_id=b1'));
    expect(toasts()).toContain('$5.00 added to your wallet');
  });

  it('stays with the way back when the payment is still pending', async () => {
    server.on('/api/wallet/recharge', (req, res) => {
      const amount = JSON.parse(req.body).amount;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok({ wallet: wallet(0), record: record('r1', amount, { status: 'pending', settled_at: null }) })));
    });
    const { container, router } = await open();
    await click(byTestId(container, 'recharge-submit'));
    const result = await waitFor(() => byTestId(container, 'recharge-result'));
    expect(result.textContent).toContain('Your payment is being confirmed');
    expect(router.state.location.pathname).toBe('/user/recharge');
    expect(byTestId(container, 'recharge-back').getAttribute('href')).toBe('/book?book_id=b1');
    expect(byTestId(container, 'recharge-back').textContent).toBe('Back to the book');
  });

  it('shows progress, then the new balance and the reference; a lost answer is retried with the same key', async () => {
    let calls = 0;
    server.on('/api/wallet/recharge', (req, res) => {
      calls += 1;
      if (calls === 1) {
        res.destroy(); // the answer is lost on the way
        return;
      }
      const amount = JSON.parse(req.body).amount;
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(ok({ wallet: wallet(amount), record: record(`r${calls}`, amount) })));
      }, 150);
    });
    const { container } = await open('/user/recharge?amount=5');
    await click(button(container, '$20.00'));
    await click(byTestId(container, 'recharge-submit'));
    const error = await waitFor(() => byTestId(container, 'recharge-error'));
    expect(error.textContent).toContain('Network error');
    expect(error.textContent).toContain('Trying again is safe');
    expect(toasts().some((t) => t.includes('Network error'))).toBe(false); // shown in place, not as a toast

    await click(byTestId(container, 'recharge-retry'));
    const submit = byTestId(container, 'recharge-submit') as HTMLButtonElement;
    expect(submit.textContent).toBe('Processing payment...');
    expect(submit.disabled).toBe(true);
    expect(submit.querySelector('.spinner')).not.toBeNull();

    const result = await waitFor(() => byTestId(container, 'recharge-result'));
    expect(result.textContent).toContain('Payment settled: $20.00 added');
    expect(byTestId(container, 'recharge-new-balance').textContent).toBe('$20.00');
    expect(byTestId(container, 'recharge-reference').textContent).toBe('instant-r2');
    await waitFor(() => expect(byTestId(container, 'recharge-balance').textContent).toBe('$20.00'));
    expect(toasts()).toContain('$20.00 added to your wallet');

    const [first, retry] = seen('/api/wallet/recharge');
    expect(first.method).toBe('POST');
    expect(JSON.parse(first.body)).toEqual({ amount: 20 });
    expect(first.headers['idempotency-key']).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(retry.headers['idempotency-key']).toBe(first.headers['idempotency-key']);
    expect(retry.body).toBe(first.body);

    // A new recharge is a new intent: a new key.
    await click(button(container, '$10.00'));
    expect(container.querySelector('[data-testid="recharge-result"]')).toBeNull();
    await click(byTestId(container, 'recharge-submit'));
    await waitFor(() => byTestId(container, 'recharge-result'));
    const third = seen('/api/wallet/recharge')[2];
    expect(JSON.parse(third.body)).toEqual({ amount: 10 });
    expect(third.headers['idempotency-key']).not.toBe(first.headers['idempotency-key']);
  });

  it('shows a refusal without a retry, and the next attempt is a new intent', async () => {
    server.json('/api/wallet/recharge', 400, failure(400, { message: 'amount is too large', error: 'invalid_amount', reason: 'amount is too large' }));
    const { container } = await open();
    await click(byTestId(container, 'recharge-submit'));
    const error = await waitFor(() => byTestId(container, 'recharge-error'));
    expect(error.textContent).toContain('amount is too large');
    expect(container.querySelector('[data-testid="recharge-retry"]')).toBeNull();
    await click(byTestId(container, 'recharge-submit'));
    await waitFor(() => expect(seen('/api/wallet/recharge')).toHaveLength(2));
    const [a, b] = seen('/api/wallet/recharge');
    expect(b.headers['idempotency-key']).not.toBe(a.headers['idempotency-key']);
  });

  it('lists the recent top-ups', async () => {
    server.json(
      '/api/top_up_records',
      200,
      ok(page([record('r1', 20), record('t1', 5, { kind: 'top_up', status: 'pending', provider: '', provider_ref: '', note: 'welcome gift', created_by: 'admin-1' })], { total: 7, page_size: 5 })),
    );
    const { container } = await open();
    const rows = await waitFor(() => {
      const list = container.querySelectorAll('[data-testid="top-up-record"]');
      expect(list).toHaveLength(2);
      return [...list].map((r) => r.textContent ?? '');
    });
    expect(rows[0]).toContain('Recharge (demo payment)');
    expect(rows[0]).toContain('settled');
    expect(rows[0]).toContain('+$20.00');
    expect(rows[0]).toContain('instant-r1');
    expect(rows[1]).toContain('Top-up from Quire: welcome gift');
    expect(rows[1]).toContain('pending');
    expect(seen('/api/top_up_records')[0].url).toBe('/api/top_up_records?page=1&page_size=5');
    expect(container.textContent).toContain('Page 1 of 2');
  });
});

describe('the wallet summary', () => {
  it('opens a missing wallet and asks again, without a toast (spec section 4)', async () => {
    logIn();
    let opened = false;
    server.on('/api/wallet/info', (_req, res) => {
      res.writeHead(opened ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify(
          opened
            ? ok({ wallet: wallet(12.5, { recharged: 20, earned: 1.5, spent: 9 }) })
            : failure(404, { message: 'Wallet not found', detail: 'Wallet not found', error: 'wallet_not_found', reason: 'Wallet not found' }),
        ),
      );
    });
    server.on('/api/wallet/open', (_req, res) => {
      opened = true;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok({ wallet: wallet(0) })));
    });
    const { container } = await render(<WalletSummaryCard />);
    await waitFor(() => expect(byTestId(container, 'wallet-balance').textContent).toBe('$12.50'));
    expect(byTestId(container, 'wallet-recharged').textContent).toBe('$20.00');
    expect(byTestId(container, 'wallet-earned').textContent).toBe('$1.50');
    expect(byTestId(container, 'wallet-spent').textContent).toBe('$9.00');
    expect(server.seen.map((s) => s.url)).toEqual(['/api/wallet/info', '/api/wallet/open', '/api/wallet/info']);
    expect(toasts()).toEqual([]);
    const links = [...container.querySelectorAll('nav[aria-label="Wallet"] a')].map((a) => [a.textContent?.trim(), a.getAttribute('href')]);
    expect(links).toEqual([
      ['Recharge', '/user/recharge'],
      ['Records', '/user#wallet-activity'],
      ['Rewards', '/user/rewards'],
    ]);
  });

  it('offers to try again when the wallet cannot be loaded', async () => {
    logIn();
    server.json('/api/wallet/info', 503, failure(503, { message: 'Service unavailable' }));
    server.json('/api/wallet/open', 503, failure(503, { message: 'Service unavailable' }));
    const { container } = await render(<WalletSummaryCard />);
    await waitFor(() => expect(container.textContent).toContain('Your wallet could not be loaded right now'));
    expect(toasts()).toEqual([]);
  });
});

describe('the user space', () => {
  it('shows the wallet and its activity: purchases and sales, then top-ups', async () => {
    logIn();
    server.json('/api/wallet/info', 200, ok({ wallet: wallet(15.01, { recharged: 20, earned: 4.49, spent: 9.48 }) }));
    server.json(
      '/api/get_trade_records',
      200,
      ok(
        page([
          { trade_id: 't2', buyer_uid: 'other', book_id: 'b9', seller_uid: 'reader-7', title: 'My Own Tale', price: 4.99, seller_amount: 4.49, platform_amount: 0.5, created_at: '2026-11-22T12:00:00Z', replayed: false, role: 'sold' },
          { trade_id: 't1', buyer_uid: 'reader-7', book_id: 'b1', seller_uid: 'w1', title: 'The Quiet Harbour', price: 4.99, seller_amount: 4.49, platform_amount: 0.5, created_at: '2026-11-22T11:00:00Z', replayed: false, role: 'bought' },
        ]),
      ),
    );
    server.json('/api/top_up_records', 200, ok(page([record('r1', 20)])));
    const { container } = await render(routes, '/user');
    await waitFor(() => expect(byTestId(container, 'wallet-balance').textContent).toBe('$15.01'));
    const trades = await waitFor(() => {
      const rows = container.querySelectorAll('[data-testid="trade-record"]');
      expect(rows).toHaveLength(2);
      return [...rows];
    });
    expect(trades[0].textContent).toContain('Sold');
    expect(trades[0].textContent).toContain('My Own Tale');
    expect(trades[0].textContent).toContain('Price $4.99, you got $4.49');
    expect(trades[0].textContent).toContain('+$4.49');
    expect(trades[1].textContent).toContain('Bought');
    expect(trades[1].textContent).toContain('\u2212$4.99');
    expect(trades[1].querySelector('a')?.getAttribute('href')).toBe('/book?book_id=b1');
    expect(seen('/api/get_trade_records')[0]).toMatchObject({ method: 'POST', url: '/api/get_trade_records?page=1&page_size=10' });

    await click([...container.querySelectorAll('[role="tab"]')].find((t) => t.textContent === 'Top-ups')!);
    await waitFor(() => expect(container.querySelectorAll('[data-testid="top-up-record"]')).toHaveLength(1));
    expect(container.querySelector('[role="tab"][aria-selected="true"]')?.textContent).toBe('Top-ups');
  });

  it('explains empty records', async () => {
    logIn();
    const { container } = await render(routes, '/user');
    await waitFor(() => expect(container.textContent).toContain('No purchases or sales yet'));
  });
});

describe('the rewards page', () => {
  const me = { user_id: 'reader-7', email: 'ruth@example.com', username: 'ruth', roles: ['reader'], current_role: 'reader', invite_code: 'ABCD2345', created_at: '2026-11-20T10:00:00Z' };

  beforeEach(() => {
    server.json('/api/users/me/', 200, ok(me));
    server.json('/api/get_invite_codes', 200, ok([{ code: 'ABCD2345', uses: 1, created_at: '2026-11-20T10:00:00Z' }]));
    server.json('/api/users/get_invited_by_me', 200, ok([{ ...me, user_id: 'ann-1', username: 'ann', email: 'ann@example.com', invite_code: 'ZZZZ9999' }]));
  });

  it('tells each reward in words, with the total, and shows the invite link', async () => {
    logIn();
    server.json(
      '/api/rewards',
      200,
      ok({
        ...page([
          { reward_id: 'w2', user_id: 'reader-7', invitee_id: 'ann-1', reason: 'first_purchase', amount: 2, created_at: '2026-11-22T12:00:00Z' },
          { reward_id: 'w1', user_id: 'reader-7', invitee_id: 'ann-1', reason: 'registered', amount: 1, created_at: '2026-11-21T12:00:00Z' },
          { reward_id: 'w0', user_id: 'reader-7', invitee_id: 'gone-9', reason: 'registered', amount: 1, created_at: '2026-11-20T12:00:00Z' },
        ]),
        total_amount: 4,
      }),
    );
    const { container } = await render(routes, '/user/rewards');
    // the names come from the users area, once it has answered
    const rows = await waitFor(() => {
      const list = [...container.querySelectorAll('[data-testid="reward"]')].map((r) => r.textContent ?? '');
      expect(list).toHaveLength(3);
      expect(list[0]).toContain('ann made their first purchase');
      return list;
    });
    expect(rows[0]).toContain('+$2.00');
    expect(rows[1]).toContain('ann joined with your invite');
    expect(rows[2]).toContain('A friend joined with your invite');
    expect(byTestId(container, 'rewards-total').textContent).toBe('$4.00');
    await waitFor(() => expect(container.querySelector<HTMLInputElement>('input[aria-label="Invite link for ABCD2345"]')?.value).toContain('/platform/register?invite=ABCD2345'));
  });

  it('explains how rewards work when there are none yet', async () => {
    logIn();
    server.json('/api/rewards', 200, ok({ ...page([]), total_amount: 0 }));
    const { container } = await render(routes, '/user/rewards');
    await waitFor(() => expect(container.textContent).toContain('No rewards yet'));
    expect(container.textContent).toContain('buys their first book with money they added to their wallet');
    expect(byTestId(container, 'rewards-total').textContent).toBe('$0.00');
  });
});

describe("the admin's wallets", () => {
  it('lists every wallet and tops one up with an Idempotency-Key', async () => {
    logIn('admin-1');
    localStorage.setItem('adminLoggedIn', 'true');
    useAuthStore.getState().hydrate();
    server.json('/api/wallet/all', 200, ok(page([wallet(3, { user_id: '0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001' })])));
    server.json('/api/top_up', 200, ok(record('t9', 25, { kind: 'top_up', provider: '', provider_ref: '', note: 'prize', created_by: 'admin-1' })));
    const { container } = await render(routes, '/admin/users?tab=wallets');
    const table = await waitFor(() => {
      const t = container.querySelector('table[aria-label="Wallets"]');
      if (!t) throw new Error(`no wallets table; page shows: ${container.textContent?.slice(0, 300)}`);
      return t;
    });
    await waitFor(() => expect(table.querySelectorAll('tbody tr')).toHaveLength(1));
    expect(table.textContent).toContain('$3.00');
    expect(seen('/api/wallet/all')[0]).toMatchObject({ method: 'POST', url: '/api/wallet/all?page=1&page_size=10' });
    await click(button(table, 'Top up'));
    const form = container.querySelector('form.top-up-form')!;
    typeInto(form.querySelector<HTMLInputElement>('input[name="amount"]')!, '25.5');
    typeInto(form.querySelector<HTMLInputElement>('input[name="note"]')!, 'prize');
    await submitForm(form);
    await waitFor(() => expect(toasts()).toContain('$25.50 added to the wallet'));
    const call = seen('/api/top_up')[0];
    expect(call.method).toBe('POST');
    expect(call.url).toBe('/api/top_up?uid=0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001&amount=25.5&note=prize');
    expect(call.headers['idempotency-key']).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(seen('/api/users/')).toHaveLength(0);
  });
});

describe('the request layer for in-place failures', () => {
  it('raises no toast with notify: false, but a 401 still ends the session', async () => {
    let unauthorized = 0;
    configureApiClient({ baseUrl: server.baseUrl, onUnauthorized: () => (unauthorized += 1) });
    localStorage.setItem('access_token', 'tok');
    server.json('/api/wallet/recharge', 503, failure(503, { message: 'Payment provider temporarily unavailable' }));
    const err = (await api.post('/wallet/recharge', { json: { amount: 1 }, notify: false }).catch((e) => e)) as ApiError;
    expect(err.message).toBe('Payment provider temporarily unavailable');
    expect(err.status).toBe(503);
    await sleep(10);
    expect(toasts()).toEqual([]);
    server.json('/api/wallet/recharge', 401, failure(401, { message: 'Authentication required' }));
    await api.post('/wallet/recharge', { json: { amount: 1 }, notify: false }).catch(() => undefined);
    expect(unauthorized).toBe(1);
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(toasts()).toEqual([]);
  });
});
