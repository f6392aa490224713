// The admin dashboard against a real local HTTP server: the figures, the charts drawn by
// recharts, the range switch, parts reported unavailable shown as such, a service that
// needs a look, and the audit log (paging back, a broken chain).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Dashboard } from '@/features/admin';
import { formatAge, serviceBars } from '@/features/admin/dashboard-series';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { byTestId, cleanup, click, render, waitFor } from './support/catalog-dom';
import { ok, startServer, type TestServer } from './support/http-server';

class FixedResizeObserver {
  constructor(private readonly cb: ResizeObserverCallback) {}
  observe(target: Element) {
    this.cb([{ target, contentRect: { width: 390, height: 300 } } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
  }
  unobserve() {}
  disconnect() {}
}

let server: TestServer;
const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();
const days = ['2026-11-24', '2026-11-25', '2026-11-26'];

const dashboard = (over: Record<string, unknown> = {}) => ({
  days: 30,
  users: { total: 1234, disabled: 2, by_role: { reader: 1234, writer: 40, publisher: 3, admin: 1 }, signups: days.map((day, i) => ({ day, count: i + 1 })) },
  books: { total: 80, listed: 75, taken_down: 5, created: days.map((day) => ({ day, count: 2 })) },
  sales: {
    trades: 57,
    revenue: '1234.50',
    platform_revenue: '123.45',
    trades_per_day: days.map((day, i) => ({ day, count: i * 10, amount: `${i * 10}.50` })),
    top_ups_per_day: days.map((day) => ({ day, count: 0, amount: '0.00' })),
    campaigns: { open: 4, funded: 9, failed: 1 },
    escrow: '310.00',
  },
  chat: { conversations: 12, turns_per_day: days.map((day) => ({ day, count: 3 })) },
  services: [
    { service: 'auth', outbox_pending: 0, outbox_oldest_secs: 0, consumers: [] },
    { service: 'wallet', outbox_pending: 40, outbox_oldest_secs: 600, consumers: [{ group: 'wallet-trades', topic: 'quire.book.v1', lag: 5 }] },
    { service: 'chat', outbox_pending: 0, outbox_oldest_secs: 0, consumers: [{ group: 'chat-books', topic: 'quire.book.v1', lag: 4000 }] },
  ],
  unavailable: [],
  ...over,
});

const entry = (id: string, at: string, over: Record<string, unknown> = {}) => ({
  id,
  at,
  service: 'catalog',
  actor_id: '01938a7e-0000-7000-8000-00000000ad01',
  action: 'settings.update',
  target: 'setting:trial_percent',
  before: 10,
  after: 25,
  ...over,
});

beforeAll(async () => {
  server = await startServer();
  vi.stubGlobal('ResizeObserver', FixedResizeObserver);
});
afterAll(async () => {
  await server.close();
  vi.unstubAllGlobals();
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('access_token', 'tok');
  useAuthStore.getState().hydrate();
  server.seen.length = 0;
  configureApiClient({ baseUrl: server.baseUrl, onUnauthorized: () => {} });
  server.json('/api/admin/audit', 200, ok({ entries: [], chain_intact: true, next_before: null, unavailable: [] }));
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
});

describe('the admin dashboard', () => {
  it('shows the headline figures and draws the charts for the chosen range', async () => {
    server.json('/api/admin/dashboard', 200, ok(dashboard()));
    const { container } = await render(<Dashboard />);
    expect(byTestId(container, 'dashboard-loading')).toBeTruthy();
    await waitFor(() => byTestId(container, 'admin-figures'));
    expect(server.seen.find((s) => s.url.startsWith('/api/admin/dashboard'))?.url).toBe('/api/admin/dashboard?days=30');
    expect(text(byTestId(container, 'figure-users-value'))).toBe('1,234');
    expect(text(byTestId(container, 'figure-users'))).toContain('2 disabled');
    expect(text(byTestId(container, 'figure-books-value'))).toBe('75');
    expect(text(byTestId(container, 'figure-books'))).toContain('of 80');
    expect(text(byTestId(container, 'figure-trades-value'))).toBe('57');
    expect(text(byTestId(container, 'figure-revenue-value'))).toBe('$1,234.50');
    expect(text(byTestId(container, 'figure-revenue'))).toContain('platform $123.45');
    expect(text(byTestId(container, 'figure-campaigns-value'))).toBe('4');
    expect(text(byTestId(container, 'figure-escrow-value'))).toBe('$310.00');
    for (const chart of ['chart-growth', 'chart-trades', 'chart-campaigns', 'chart-services']) {
      await waitFor(() => expect(container.querySelectorAll(`[data-testid="${chart}"] svg .recharts-rectangle, [data-testid="${chart}"] svg path`).length).toBeGreaterThan(0));
    }
    expect(container.querySelectorAll('table')).toHaveLength(0);

    // wallet's oldest event waits 10 minutes and chat's consumer is 4,000 behind: both flagged
    const warnings = [...container.querySelectorAll('[data-testid="service-warning"]')].map(text);
    expect(warnings).toEqual(['wallet: oldest event waiting 10 min', 'chat: chat-books is 4,000 behind on quire.book.v1']);

    const year = [...container.querySelectorAll('button')].find((b) => text(b) === '1 year')!;
    server.json('/api/admin/dashboard', 200, ok(dashboard({ days: 365 })));
    await click(year);
    await waitFor(() => expect(server.seen.some((s) => s.url === '/api/admin/dashboard?days=365')).toBe(true));
    expect(year.getAttribute('aria-pressed')).toBe('true');
  });

  it('shows a part whose service failed as unavailable, and the rest as usual', async () => {
    server.json('/api/admin/dashboard', 200, ok(dashboard({ sales: null, services: [], unavailable: ['sales', 'services.auth', 'services.wallet', 'services.chat'] })));
    const { container } = await render(<Dashboard />);
    await waitFor(() => byTestId(container, 'admin-figures'));
    expect(text(byTestId(container, 'dashboard-unavailable'))).toContain('Sales, auth status, wallet status, chat status');
    expect(text(byTestId(container, 'figure-users-value'))).toBe('1,234');
    for (const id of ['figure-trades', 'figure-revenue', 'figure-campaigns', 'figure-escrow']) {
      expect(text(byTestId(container, `${id}-value`))).toBe('unavailable');
    }
    const cards = [...container.querySelectorAll('[data-testid="part-unavailable"]')].map(text);
    expect(cards).toEqual([
      expect.stringMatching(/^Sales: unavailable/),
      expect.stringMatching(/^Campaigns: unavailable/),
      expect.stringMatching(/^Service status: unavailable/),
    ]);
    await waitFor(() => expect(container.querySelectorAll('[data-testid="chart-growth"] svg .recharts-rectangle').length).toBeGreaterThan(0));
    expect(container.querySelector('.notice-error')).toBeNull();
  });

  it('names a service whose status is missing beside the ones that answered', async () => {
    const services = dashboard().services.filter((s) => s.service !== 'chat');
    server.json('/api/admin/dashboard', 200, ok(dashboard({ services, unavailable: ['services.chat'] })));
    const { container } = await render(<Dashboard />);
    await waitFor(() => byTestId(container, 'service-health'));
    expect([...container.querySelectorAll('[data-testid="service-warning"]')].map(text)).toEqual([
      'wallet: oldest event waiting 10 min',
      'chat: unavailable, it did not answer',
    ]);
    expect(container.querySelector('[data-testid="part-unavailable"]')).toBeNull();
  });

  it('lists the audit entries with who, what, when and the change, and pages back with next_before', async () => {
    server.json('/api/admin/dashboard', 200, ok(dashboard()));
    server.on('/api/admin/audit', (req, res) => {
      const before = new URL(req.url, 'http://x').searchParams.get('before');
      const page = before
        ? { entries: [entry('e3', '2026-11-20T08:00:00Z', { action: 'user.disable', target: 'user:01938a7e-0000-7000-8000-0000000000b2', service: 'auth', before: { disabled: false }, after: { disabled: true } })], chain_intact: true, next_before: null, unavailable: [] }
        : { entries: [entry('e1', '2026-11-26T08:00:00Z'), entry('e2', '2026-11-25T08:00:00Z')], chain_intact: true, next_before: '2026-11-25T08:00:00Z', unavailable: [] };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok(page)));
    });
    const { container } = await render(<Dashboard />);
    await waitFor(() => expect(container.querySelectorAll('[data-testid="audit-entry"]')).toHaveLength(2));
    const first = container.querySelector('[data-testid="audit-entry"]')!;
    expect(text(first)).toContain('Changed a setting · setting trial_percent');
    expect(text(first)).toContain('by admin 0000ad01 · catalog');
    expect(text(first.querySelector('[data-testid="audit-change"]')!)).toBe('10 → 25');
    expect(first.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-26T08:00:00Z');

    const older = [...container.querySelectorAll('button')].find((b) => text(b) === 'Load older')!;
    await click(older);
    await waitFor(() => expect(container.querySelectorAll('[data-testid="audit-entry"]')).toHaveLength(3));
    expect(server.seen.some((s) => s.url === `/api/admin/audit?before=${encodeURIComponent('2026-11-25T08:00:00Z')}&limit=50`)).toBe(true);
    const third = container.querySelectorAll('[data-testid="audit-entry"]')[2];
    expect(text(third)).toContain('Disabled an account · user 000000b2');
    expect(text(third.querySelector('[data-testid="audit-change"]')!)).toBe('{"disabled":false} → {"disabled":true}');
    expect([...container.querySelectorAll('button')].some((b) => text(b) === 'Load older')).toBe(false);
    expect(container.querySelector('[data-testid="audit-broken"]')).toBeNull();
  });

  it('warns clearly when the audit chain is broken', async () => {
    server.json('/api/admin/dashboard', 200, ok(dashboard()));
    server.json('/api/admin/audit', 200, ok({ entries: [entry('e1', '2026-11-26T08:00:00Z')], chain_intact: false, next_before: null, unavailable: ['wallet'] }));
    const { container } = await render(<Dashboard />);
    await waitFor(() => byTestId(container, 'audit-broken'));
    expect(byTestId(container, 'audit-broken').getAttribute('role')).toBe('alert');
    expect(text(byTestId(container, 'audit-broken'))).toContain("The audit log's chain is broken");
    expect(text(byTestId(container, 'audit-unavailable'))).toContain('wallet');
  });
});

describe('service health', () => {
  it('flags an old outbox and a high lag, and says when the broker could not be asked', () => {
    const bars = serviceBars([
      { service: 'a', outbox_pending: 3, outbox_oldest_secs: 5, consumers: [{ group: 'g', topic: 't', lag: 10 }] },
      { service: 'b', outbox_pending: 0, outbox_oldest_secs: 0, consumers: [{ group: 'g', topic: 't', lag: -1 }] },
      { service: 'c', outbox_pending: 2, outbox_oldest_secs: 7200, consumers: [] },
    ]);
    expect(bars.map((b) => [b.service, b.health, b.outbox, b.lag])).toEqual([
      ['a', 'ok', 3, 10],
      ['b', 'unknown', 0, 0],
      ['c', 'warning', 2, 0],
    ]);
    expect(bars[1].reasons).toEqual(['the broker could not be asked for its lag']);
    expect(formatAge(45)).toBe('45 s');
    expect(formatAge(7200)).toBe('2 h');
  });
});
