// Pricing's screens against a real local HTTP server: the suggestion with its reason and
// "Use this price"; the chart's slider reading the curve; the custom price's checks and the
// server's refusal; starting a campaign; pledging (402 offers a recharge, a lost answer is
// retried with the same Idempotency-Key, the next pledge gets a fresh one).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CampaignOnBook, CampaignPanel, CustomPriceForm, PledgeBox, RevenueChartPanel, SuggestedPrice, type Campaign } from '@/features/pricing';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { useToastStore } from '@/stores/toast';
import { byTestId, cleanup, click, render, typeInto, waitFor } from './support/catalog-dom';
import { failure, ok, startServer, type TestServer } from './support/http-server';

// recharts measures its box; jsdom has no layout, so the size is reported as a phone's.
class FixedResizeObserver {
  constructor(private readonly cb: ResizeObserverCallback) {}
  observe(target: Element) {
    this.cb([{ target, contentRect: { width: 390, height: 300 } } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
  }
  unobserve() {}
  disconnect() {}
}

let server: TestServer;

const curve = (over: Record<string, unknown> = {}) => ({
  T_values: [1, 3, 5, 7],
  y_values: [100, 60, 20, 10],
  y_low_values: [80, 40, 10, 5],
  y_high_values: [120, 90, 35, 20],
  profit_values: [90, 162, 90, 63],
  cost_line_values: [0, 0, 0, 0],
  suggestion: { price: 3, expected_sales: 60, expected_profit: 162, sales_low: 40, sales_high: 90, reason: 'Romance readers here pay about $3.60; at $3.00 the most copies earn the most.' },
  current_price: 5,
  current_expected_sales: 20,
  current_expected_profit: 90,
  calibration: { genre: 'Romance', prior_source: 'genre', genre_sales: 37, genre_books: 12, book_sales: 4, pages: 230, data_weight: 0.31, median_wtp: 3.6, sigma: 0.8, market_size: 410 },
  horizon_days: 365,
  k: 0.9,
  cost: 0,
  ...over,
});

const campaign = (over: Partial<Campaign> = {}): Campaign => ({
  campaign_id: 'c-1',
  book_id: 'b-1',
  writer_uid: 'w-1',
  title: 'Skerry Light',
  goal: 50,
  pledged: 12.5,
  backers: 2,
  status: 'open',
  deadline: new Date(Date.now() + 5 * 86_400_000).toISOString(),
  created_at: '2026-11-20T12:00:00Z',
  settled_at: null,
  writer_earned: 0,
  platform_earned: 0,
  my_pledged: 0,
  progress: 0.25,
  ...over,
});

function logIn(userId = 'reader-7') {
  localStorage.setItem('access_token', 'tok');
  localStorage.setItem('userInfo', JSON.stringify({ user_id: userId, username: 'ruth', email: 'ruth@example.com', roles: ['reader', 'writer'], current_role: 'writer' }));
  useAuthStore.getState().hydrate();
}

const seen = (path: string) => server.seen.filter((s) => s.url.split('?')[0] === path);
const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();
const button = (root: ParentNode, label: string) =>
  [...root.querySelectorAll('button')].find((b) => text(b) === label) as HTMLButtonElement;
const input = (root: HTMLElement, label: string) => {
  const l = [...root.querySelectorAll('label')].find((x) => text(x).startsWith(label));
  if (!l) throw new Error(`no label ${label}`);
  return (root.ownerDocument ?? document).getElementById(l.htmlFor) as HTMLInputElement;
};

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
  logIn();
  useToastStore.setState({ toasts: [] });
  server.seen.length = 0;
  configureApiClient({ baseUrl: server.baseUrl, onUnauthorized: () => {} });
  server.json('/api/revenue_curve', 200, ok(curve()));
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
});

describe('the suggested price', () => {
  it('shows the price, what is expected there and why, and sets it', async () => {
    const setPrice = vi.fn(async () => ({}));
    const { container } = await render(<SuggestedPrice bookId="b-1" onUsePrice={setPrice} />);
    await waitFor(() => byTestId(container, 'suggested-price'));
    expect(text(byTestId(container, 'suggested-price-value'))).toBe('$3.00');
    expect(text(byTestId(container, 'suggested-sales'))).toBe('60 copies');
    expect(text(byTestId(container, 'suggested-earnings'))).toBe('$162.00');
    expect(text(container)).toContain('80% range: 40 – 90');
    expect(text(container)).toContain('Expected sales in a year');
    expect(text(byTestId(container, 'price-reason'))).toContain('the most copies earn the most');

    const body = seen('/api/revenue_curve')[0].body;
    expect(body).toContain('name="k"\r\n\r\n0.9');
    expect(body).toContain('name="n"\r\n\r\n120');
    expect(body).toContain('name="book_id"\r\n\r\nb-1');

    await click(byTestId(container, 'use-suggested-price'));
    expect(setPrice).toHaveBeenCalledWith(3);
  });

  it('says so when the caller may not price the book', async () => {
    server.json('/api/revenue_curve', 404, failure(404, { message: 'book not found', reason: 'book not found' }));
    const { container } = await render(<SuggestedPrice bookId="b-1" onUsePrice={async () => ({})} />);
    await waitFor(() => expect(text(container)).toContain('No price curve for this book'));
  });
});

describe('the price chart', () => {
  it('draws the curve and reads the slider’s price from it', async () => {
    const { container } = await render(<RevenueChartPanel bookId="b-1" />);
    await waitFor(() => byTestId(container, 'price-slider'));
    await waitFor(() => expect(container.querySelectorAll('[data-testid="revenue-chart"] svg path').length).toBeGreaterThan(0));
    const slider = byTestId(container, 'price-slider') as HTMLInputElement;
    expect(slider.type).toBe('range');
    expect(slider.labels?.[0] && text(slider.labels[0])).toContain('Try a price');
    // starts at the current price ($5.00), from $1.00 to $7.00 in cents
    expect([slider.min, slider.max, slider.value]).toEqual(['100', '700', '500']);
    expect(text(byTestId(container, 'slider-sales'))).toBe('20 copies');

    typeInto(slider, '200');
    await waitFor(() => expect(text(byTestId(container, 'slider-price'))).toBe('$2.00'));
    expect(text(byTestId(container, 'slider-sales'))).toBe('80 copies');
    expect(text(byTestId(container, 'slider-earnings'))).toBe('$126.00');
  });

  it('marks the price just saved, before the curve\'s copy of the shop has it', async () => {
    const { container } = await render(<RevenueChartPanel bookId="b-1" currentPrice={3} />);
    await waitFor(() => byTestId(container, 'price-slider'));
    expect((byTestId(container, 'price-slider') as HTMLInputElement).value).toBe('300');
    expect(text(container)).toContain('Now $3.00');
    expect(text(container)).not.toContain('Now $5.00');
  });
});

describe('the custom price', () => {
  it('checks the price before sending it and notes that 0 is free', async () => {
    const save = vi.fn(async () => ({}));
    const { container } = await render(<CustomPriceForm bookId="b-1" currentPrice={5} onSave={save} />);
    const field = input(container, 'Price (USD)');
    expect(field.value).toBe('5.00');
    typeInto(field, '4.999');
    await click(byTestId(container, 'custom-price-save'));
    expect(text(container)).toContain('Use at most 2 decimal places');
    expect(save).not.toHaveBeenCalled();

    typeInto(field, '0');
    await waitFor(() => expect(text(container)).toContain('A price of 0 makes the book free'));
    await click(byTestId(container, 'custom-price-save'));
    expect(save).toHaveBeenCalledWith(0);
    await waitFor(() => expect(text(byTestId(container, 'custom-price-saved'))).toContain('Free'));
  });

  it('shows what the curve expects at the typed price, and the server’s words when it refuses', async () => {
    const save = vi.fn(async () => {
      throw new Error('price: the server refused it');
    });
    const { container } = await render(<CustomPriceForm bookId="b-1" currentPrice={5} onSave={save} />);
    const field = input(container, 'Price (USD)');
    typeInto(field, '2');
    await waitFor(() => expect(text(byTestId(container, 'custom-price-expected'))).toContain('about 80 copies and $126.00'));
    await click(byTestId(container, 'custom-price-save'));
    await waitFor(() => expect(text(container)).toContain('price: the server refused it'));
  });

  it('keeps the price within the store\'s bounds and shows them', async () => {
    const save = vi.fn(async () => ({}));
    const { container } = await render(<CustomPriceForm bookId="b-1" currentPrice={5} onSave={save} />);
    expect(text(container)).toContain('from $0.99 to $200.00');
    const field = input(container, 'Price (USD)');
    for (const bad of ['10000', '200.01', '0.50']) {
      typeInto(field, bad);
      await click(byTestId(container, 'custom-price-save'));
      expect(text(container)).toContain('Must be free (0) or from $0.99 to $200.00');
    }
    expect(save).not.toHaveBeenCalled();
    typeInto(field, '200');
    await click(byTestId(container, 'custom-price-save'));
    expect(save).toHaveBeenCalledWith(200);
  });
});

describe('crowd-funding', () => {
  it('checks the goal and days, then starts a campaign with an Idempotency-Key', async () => {
    server.json('/api/crowdfunding', 200, ok({ campaigns: [] }));
    const { container } = await render(<CampaignPanel bookId="b-1" />);
    await waitFor(() => byTestId(container, 'campaign-start'));
    typeInto(input(container, 'Goal (USD)'), '0');
    typeInto(input(container, 'Days to run'), '120');
    await click(byTestId(container, 'campaign-submit'));
    expect(text(container)).toContain('The amount must be more than 0');
    expect(text(container)).toContain('Between 1 and 90 days');
    expect(seen('/api/crowdfunding').filter((s) => s.method === 'POST')).toHaveLength(0);

    server.on('/api/crowdfunding', (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok(req.method === 'POST' ? campaign({ pledged: 0, backers: 0, progress: 0 }) : { campaigns: [campaign({ pledged: 0, backers: 0, progress: 0 })] })));
    });
    typeInto(input(container, 'Goal (USD)'), '50');
    typeInto(input(container, 'Days to run'), '14');
    await click(byTestId(container, 'campaign-submit'));
    await waitFor(() => byTestId(container, 'campaign-open'));
    expect(useToastStore.getState().toasts.map((t) => t.text)).toContain('Campaign started: readers can pledge from the book page');
    const post = seen('/api/crowdfunding').find((s) => s.method === 'POST')!;
    expect(JSON.parse(post.body)).toEqual({ book_id: 'b-1', goal: 50, days: 14 });
    expect(post.headers['idempotency-key']).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(text(byTestId(container, 'campaign-pledged'))).toBe('$0.00');
    expect(text(byTestId(container, 'campaign-deadline'))).toMatch(/days left$/);
  });

  it('a pledge without the money offers a recharge', async () => {
    server.json('/api/crowdfunding/c-1/pledge', 402, failure(402, { message: 'insufficient funds', reason: 'insufficient_funds' }));
    const { container } = await render(
      <PledgeBox campaign={campaign()} loggedIn loginTo="/login" rechargeTo={(cents) => `/user/recharge?cents=${cents}`} />,
    );
    typeInto(byTestId(container, 'pledge-amount') as HTMLInputElement, '7.50');
    await click(byTestId(container, 'pledge-submit'));
    const short = await waitFor(() => byTestId(container, 'pledge-short'));
    expect(text(short)).toContain('Not enough money in your wallet');
    expect(short.querySelector('a')?.getAttribute('href')).toBe('/user/recharge?cents=750');
    expect(JSON.parse(seen('/api/crowdfunding/c-1/pledge')[0].body)).toEqual({ amount: 7.5 });
  });

  it('retries a lost pledge with the same key, and the next pledge gets a fresh one', async () => {
    let calls = 0;
    server.on('/api/crowdfunding/c-1/pledge', (_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(503, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(failure(503, { message: 'wallet unavailable' })));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ok({ pledge_id: `p-${calls}`, amount: 5, created_at: '2026-11-25T12:00:00Z', campaign: campaign({ pledged: 17.5 }), wallet: null })));
    });
    server.json('/api/crowdfunding', 200, ok({ campaigns: [campaign()] }));
    const { container } = await render(<PledgeBox campaign={campaign()} loggedIn loginTo="/login" rechargeTo={() => '/user/recharge'} />);
    await click(byTestId(container, 'pledge-submit'));
    await waitFor(() => expect(text(byTestId(container, 'pledge-error'))).toContain('wallet unavailable'));
    expect(button(container, 'Try again')).toBeTruthy();
    await click(byTestId(container, 'pledge-submit'));
    await waitFor(() => expect(calls).toBe(2));
    await waitFor(() => expect(useToastStore.getState().toasts.map((t) => t.text)).toContain('Thank you! You pledged $5.00'));
    await click(byTestId(container, 'pledge-submit'));
    await waitFor(() => expect(calls).toBe(3));
    const keys = seen('/api/crowdfunding/c-1/pledge').map((s) => s.headers['idempotency-key']);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('asks a visitor to sign in, and offers nothing on a closed campaign', async () => {
    const { container } = await render(<PledgeBox campaign={campaign()} loggedIn={false} loginTo="/login?redirect=%2Fbook" rechargeTo={() => ''} />);
    expect(byTestId(container, 'pledge-signin').getAttribute('href')).toBe('/login?redirect=%2Fbook');
    cleanup();
    const closed = await render(<PledgeBox campaign={campaign({ status: 'funded' })} loggedIn loginTo="/login" rechargeTo={() => ''} />);
    expect(closed.container.querySelector('[data-testid="pledge-box"]')).toBeNull();
  });

  it('shows a book’s open campaign: the pledge box to a reader, Close to its writer, nothing without one', async () => {
    server.json('/api/crowdfunding', 200, ok({ campaigns: [campaign({ campaign_id: 'old', status: 'failed' }), campaign()] }));
    const reader = await render(<CampaignOnBook bookId="b-1" loggedIn viewerId="reader-7" loginTo="/login" rechargeTo={() => ''} />);
    await waitFor(() => byTestId(reader.container, 'book-campaign'));
    expect(seen('/api/crowdfunding')[0].url).toBe('/api/crowdfunding?book_id=b-1');
    expect(text(byTestId(reader.container, 'campaign-pledged'))).toBe('$12.50');
    expect(text(byTestId(reader.container, 'campaign-percent'))).toBe('25%');
    expect(text(byTestId(reader.container, 'campaign-backers'))).toBe('2 backers');
    expect(reader.container.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('25');
    byTestId(reader.container, 'pledge-box');
    expect(reader.container.querySelector('[data-testid="campaign-close"]')).toBeNull();
    cleanup();

    const writer = await render(<CampaignOnBook bookId="b-1" loggedIn viewerId="w-1" loginTo="/login" rechargeTo={() => ''} />);
    await waitFor(() => byTestId(writer.container, 'campaign-close'));
    expect(writer.container.querySelector('[data-testid="pledge-box"]')).toBeNull();
    cleanup();

    server.json('/api/crowdfunding', 200, ok({ campaigns: [campaign({ status: 'funded' })] }));
    const none = await render(<CampaignOnBook bookId="b-2" loggedIn viewerId="reader-7" loginTo="/login" rechargeTo={() => ''} />);
    await waitFor(() => expect(seen('/api/crowdfunding').some((s) => s.url.endsWith('b-2'))).toBe(true));
    expect(none.container.querySelector('[data-testid="book-campaign"]')).toBeNull();
  });
});
