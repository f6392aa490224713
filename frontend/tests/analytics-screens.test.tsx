// The sales report against a real local HTTP server: totals, the per-day chart (all books or
// one), the per-book table with links, the revenue-curve slot; the empty and failed states.
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SalesReport } from '@/features/analytics';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { byTestId, cleanup, click, render, waitFor } from './support/catalog-dom';
import { failure, ok, startServer, type TestServer } from './support/http-server';

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

const report = (over: Record<string, unknown> = {}) => ({
  as: 'writer',
  user_id: 'w-1',
  days: 90,
  totals: { units: 3, gross: 14.97, earned: 13.47, campaign: 9 },
  books: [
    { book_id: 'b-1', title: 'Skerry Light', genre: 'Literary', price: 4.99, units: 3, gross: 14.97, earned: 13.47, campaign: 9 },
    { book_id: 'b-2', title: 'Pocket Tides', genre: 'Romance', price: 0, units: 0, gross: 0, earned: 0, campaign: 0 },
  ],
  series: [
    { date: '2026-11-20', units: 2, gross: 9.98, earned: 8.98, campaign: 0, books: [{ book_id: 'b-1', units: 2, earned: 8.98, campaign: 0 }] },
    { date: '2026-11-22', units: 1, gross: 4.99, earned: 4.49, campaign: 9, books: [{ book_id: 'b-1', units: 1, earned: 4.49, campaign: 9 }] },
  ],
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
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
});

describe('the sales report', () => {
  it('shows the totals, the days, the books and the chosen book’s curve', async () => {
    server.json('/api/analytics/sales', 200, ok(report()));
    const { container } = await render(
      <SalesReport as="writer" bookHref={(id) => `/book?book_id=${id}`} curve={(b) => <p data-testid="curve-slot">curve of {b.title}</p>} />,
    );
    await waitFor(() => byTestId(container, 'total-units'));
    expect(server.seen[0].url).toBe('/api/analytics/sales?as=writer&days=90');
    expect(text(byTestId(container, 'total-units'))).toBe('3');
    expect(text(byTestId(container, 'total-gross'))).toBe('$14.97');
    expect(text(byTestId(container, 'total-earned'))).toBe('$13.47');
    expect(text(byTestId(container, 'total-campaign'))).toBe('$9.00');
    await waitFor(() => expect(container.querySelectorAll('[data-testid="sales-chart"] svg path').length).toBeGreaterThan(0));

    const rows = container.querySelectorAll('[data-testid="analytics-book-row"]');
    expect(rows).toHaveLength(2);
    expect(rows[0].querySelector('a')?.getAttribute('href')).toBe('/book?book_id=b-1');
    expect(text(rows[0].querySelector('[data-testid="analytics-book-campaign"]')!)).toBe('$9.00');
    expect(text(byTestId(container, 'curve-slot'))).toBe('curve of Skerry Light');
    await click(rows[1].querySelector('button')!);
    expect(text(byTestId(container, 'curve-slot'))).toBe('curve of Pocket Tides');

    // One book without sales: the chart says so instead of drawing zeros.
    const picker = container.querySelector('select')!;
    await waitFor(() => expect(picker).toBeTruthy());
    await act(async () => {
      picker.value = 'b-2';
      picker.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(text(byTestId(container, 'sales-chart-empty'))).toBe('No sales in the last 90 days for this book.');

    // Another period asks again.
    await click([...container.querySelectorAll('button')].find((b) => text(b) === '1 year')!);
    await waitFor(() => expect(server.seen.some((s) => s.url === '/api/analytics/sales?as=writer&days=365')).toBe(true));
  });

  it('says when there is nothing to report yet', async () => {
    server.json('/api/analytics/sales', 200, ok(report({ as: 'publisher', books: [], series: [], totals: { units: 0, gross: 0, earned: 0, campaign: 0 } })));
    const { container } = await render(<SalesReport as="publisher" bookHref={(id) => id} />);
    await waitFor(() => expect(text(container)).toContain('No sales yet'));
    expect(text(container)).toContain('Put books on your shelf');
    expect(server.seen[0].url).toBe('/api/analytics/sales?as=publisher&days=90');
  });

  it('offers a retry when the report fails', async () => {
    server.json('/api/analytics/sales', 500, failure(500, { message: 'analytics unavailable' }));
    const { container } = await render(<SalesReport as="writer" bookHref={(id) => id} />);
    await waitFor(() => expect(text(container)).toContain('Your sales could not be loaded'));
    expect(text(container)).toContain('analytics unavailable');
    server.json('/api/analytics/sales', 200, ok(report()));
    await click([...container.querySelectorAll('button')].find((b) => text(b) === 'Try again')!);
    await waitFor(() => byTestId(container, 'total-units'));
  });
});
