// Browser end-to-end tests of pricing and crowd-funding (issue 18) against a live stack: a
// new writer uploads a novel and publishes it, opens AI pricing, sees a suggested price with
// its reason and uses it, watches the price chart answer its slider, and starts a campaign;
// two readers with recharged wallets pledge from the book page (one first learns that a
// pledge beyond the wallet is refused); the writer closes the campaign, funded; both readers
// then read the whole book, and the writer's analytics show the campaign's earnings, on a
// desktop and at phone size.
// Registered from run.mjs, which owns the browser, the SMTP sink and the helpers.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE } from './support/browser.mjs';
import { APP_URL, BASE_URL, callApi, registerViaApi, uniqueUser } from './support/stack.mjs';
import { chapterEntries, loginThroughUi, openedFormat, until } from './support/ui.mjs';
import { becomeWriter, generatedNovel } from './manuscripts.mjs';

const RECHARGE = 20;
const PLEDGE = 5;
const GOAL = 10;
const CAMPAIGN_DAYS = 7;

const money = (n) => `$${Number(n).toFixed(2)}`;
const textOf = async (locator) => ((await locator.first().textContent()) || '').replace(/\s+/g, ' ').trim();

/** Logs in through the REST API and returns the access token. */
async function apiLogin(user) {
  const reply = await callApi('POST', '/login/', { json: { email: user.email, password: user.password } });
  assert.ok(reply?.access_token, `${user.email} logs in`);
  return reply.access_token;
}

/** Opens the reader's wallet and recharges it (the demo provider settles at once). */
async function rechargeViaApi(token, amount) {
  await callApi('POST', '/wallet/open', { json: {}, token });
  const res = await fetch(`${BASE_URL}/api/wallet/recharge`, {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      Authorization: `Bearer ${token}`,
      'Idempotency-Key': `e2e-recharge-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    },
    body: JSON.stringify({ amount }),
  });
  const body = await res.json().catch(() => null);
  assert.ok(res.ok && body?.success !== false, `the recharge of ${amount} went through (${res.status} ${JSON.stringify(body)?.slice(0, 200)})`);
}

/** No part of the page is wider than the phone. */
async function fitsThePhone(page, what) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `${what} fits 390 px (scroll width ${width})`);
}

export function pricingScenarios({ scenario, assertText, shot, sink, setupError, appPath }) {
  describe('pricing and crowd-funding', { concurrency: false }, () => {
    test('(t) a writer prices a book from its analysis, crowd-funds it, two readers pledge, get the whole book, and the earnings show', { timeout: 900_000 }, async () => {
      if (setupError()) throw setupError();
      const writer = await registerViaApi(sink(), uniqueUser('pricer'));
      const readers = [await registerViaApi(sink(), uniqueUser('backer')), await registerViaApi(sink(), uniqueUser('backer'))];
      for (const r of readers) await rechargeViaApi(await apiLogin(r), RECHARGE);
      const tag = writer.username.slice(-8);
      const book = {};

      // 1. The writer uploads a novel, publishes it, and prices it from its analysis.
      await scenario('pricing-writer', DESKTOP, async (page) => {
        await loginThroughUi(page, writer, '/writer', appPath);
        await becomeWriter(page, page.getByTestId('writer-upload'));
        await page.getByTestId('writer-upload').click();
        await page.waitForURL(appPath('/manuscript/upload$'));
        await page.getByLabel('Manuscript files').setInputFiles([
          { name: `priced-${tag}.txt`, mimeType: 'text/plain', buffer: Buffer.from(generatedNovel(`priced-${tag}`)) },
        ]);
        await page.getByLabel('Genre').selectOption('Literary Fiction');
        await page.getByTestId('upload-submit').click();
        await page.waitForURL(appPath('/manuscript/analysis\\?id=[^&]+$'), { timeout: 180_000 });
        book.manuscriptId = new URL(page.url()).searchParams.get('id');
        book.title = await textOf(page.getByTestId('analysis-title'));

        const toggle = page.getByTestId('publish-switch').getByRole('switch');
        await until(() => toggle.isEnabled(), Boolean, 'the publish switch is ready');
        await toggle.click();
        await page.getByText('Published: the book is in the shop').first().waitFor();

        // AI pricing: a suggested price, what is expected there, and why.
        await page.getByRole('navigation', { name: 'Manuscript' }).getByRole('link', { name: 'Pricing' }).click();
        await page.waitForURL(appPath('/manuscript/tags/AIPrice\\?id=[^&]+&book_id=[0-9a-f-]{36}$'));
        book.id = new URL(page.url()).searchParams.get('book_id');
        const suggested = page.getByTestId('suggested-price');
        await suggested.waitFor({ timeout: 60_000 });
        const priceText = await textOf(page.getByTestId('suggested-price-value'));
        assert.match(priceText, /^(\$\d+\.\d{2}|Free)$/, `a suggested price (saw "${priceText}")`);
        const reason = await textOf(page.getByTestId('price-reason'));
        assert.ok(reason.length > 20, `the suggestion says why (saw "${reason}")`);
        assert.match(await textOf(page.getByTestId('suggested-sales')), /^[\d.,K]+ copies$/);
        assert.match(await textOf(page.getByTestId('suggested-earnings')), /^\$[\d,]+\.\d{2}$/);
        await shot(page, 'e2e-pricing-suggested');

        const token = await page.evaluate(() => localStorage.getItem('access_token'));
        const use = page.getByTestId('use-suggested-price');
        if (await use.isEnabled()) {
          await use.click();
          await page.getByText('Book saved').first().waitFor();
          await assertText(use, 'This is your price');
        }
        const [saved] = await callApi('GET', '/get_books', { params: { book_id: book.id }, token });
        const expected = priceText === 'Free' ? 0 : Number(priceText.slice(1));
        assert.equal(Number(saved.price), expected, 'the book now costs the suggested price');
        book.price = expected;

        // The chart: recharts draws it; the slider moves the price and the expectations follow.
        await page.getByRole('navigation', { name: 'Pricing', exact: true }).getByRole('link', { name: 'Price chart', exact: true }).click();
        await page.waitForURL(appPath('/manuscript/tags/AIPrice/PriceInputChart\\?'));
        await until(() => page.locator('[data-testid="revenue-chart"] svg path').count(), (n) => n >= 3, 'the chart draws its lines', 60_000);
        const slider = page.getByLabel(/Try a price/);
        assert.equal(await slider.getAttribute('type'), 'range');
        const before = await textOf(page.getByTestId('slider-sales'));
        const priceBefore = await textOf(page.getByTestId('slider-price'));
        const [min, max] = await Promise.all(['min', 'max'].map((a) => slider.getAttribute(a)));
        const now = await slider.inputValue();
        // The keyboard moves a range input the way a person does (Home: cheapest, End: dearest).
        const toEnd = Number(max) - Number(now) >= Number(now) - Number(min);
        await slider.focus();
        await slider.press(toEnd ? 'End' : 'Home');
        await until(() => slider.inputValue(), (v) => v === (toEnd ? max : min), 'the slider goes to the end of the curve');
        await until(() => textOf(page.getByTestId('slider-price')), (t) => t !== priceBefore, 'the slider moves the price');
        await until(() => textOf(page.getByTestId('slider-sales')), (t) => t !== before, `the expected sales change with the price (was "${before}")`);
        await shot(page, 'e2e-pricing-chart');

        // A custom price past the store's bounds ($0.99 to $200.00, or free) is refused with
        // the bounds named, and the price stays as it was.
        await page.getByRole('navigation', { name: 'Pricing', exact: true }).getByRole('link', { name: 'Custom price', exact: true }).click();
        await page.waitForURL(appPath('/manuscript/tags/AIPrice/CustomPrice\\?'));
        const custom = page.getByTestId('custom-price');
        await assertText(custom, 'from $0.99 to $200.00');
        await custom.getByLabel('Price (USD)').fill('10000');
        await page.getByTestId('custom-price-save').click();
        await assertText(custom, 'Must be free (0) or from $0.99 to $200.00');
        assert.equal(await page.getByTestId('custom-price-saved').count(), 0, 'nothing was saved');
        const [kept] = await callApi('GET', '/get_books', { params: { book_id: book.id }, token });
        assert.equal(Number(kept?.price), book.price, 'the price is unchanged');

        // Crowd-funding: start a campaign.
        await page.getByRole('navigation', { name: 'Pricing', exact: true }).getByRole('link', { name: 'Crowd-funding', exact: true }).click();
        await page.waitForURL(appPath('/manuscript/tags/AIPrice/CrowdFunding\\?'));
        book.crowdUrl = page.url();
        const start = page.getByTestId('campaign-start');
        await start.getByLabel('Goal (USD)').fill(String(GOAL));
        await start.getByLabel('Days to run').fill(String(CAMPAIGN_DAYS));
        await start.getByTestId('campaign-submit').click();
        const open = page.getByTestId('campaign-open');
        await open.waitFor();
        await assertText(open.getByTestId('campaign-pledged'), money(0));
        await assertText(open.getByTestId('campaign-status'), 'Open');
        await assertText(open.getByTestId('campaign-deadline'), 'days left');
        await shot(page, 'e2e-pricing-campaign-started');
      });

      // 2. Two readers pledge from the book page.
      for (const [i, reader] of readers.entries()) {
        await scenario(`pricing-backer-${i + 1}`, DESKTOP, async (page) => {
          const bookPath = `/book?book_id=${book.id}`;
          await page.goto(`${APP_URL}${bookPath}`);
          const box = page.getByTestId('book-campaign');
          await box.waitFor();
          await box.getByTestId('pledge-signin').click();
          await page.waitForURL(appPath('/login\\?redirect='));
          await loginThroughUi(page, reader, bookPath, appPath);
          await box.waitFor();
          if (i === 1) {
            // More than the wallet holds: refused, with the way to recharge.
            await box.getByLabel('Your pledge (USD)').fill(String(RECHARGE + 100));
            await box.getByTestId('pledge-submit').click();
            await assertText(box.getByTestId('pledge-short'), 'Not enough money in your wallet');
            const href = await box.getByTestId('pledge-short').getByRole('link', { name: 'Recharge your wallet' }).getAttribute('href');
            assert.match(href, /\/user\/recharge\?amount=\d+&redirect=/, 'the recharge link comes back here');
          }
          await box.getByLabel('Your pledge (USD)').fill(String(PLEDGE));
          await box.getByTestId('pledge-submit').click();
          await page.getByText(`Thank you! You pledged ${money(PLEDGE)}`).first().waitFor();
          await assertText(box.getByTestId('campaign-pledged'), money(PLEDGE * (i + 1)));
          await assertText(box.getByTestId('campaign-backers'), `${i + 1} backer`);
          await assertText(box.getByTestId('campaign-percent'), `${Math.floor((PLEDGE * (i + 1) * 100) / GOAL)}%`);
          await shot(page, `e2e-pricing-pledged-${i + 1}`);
        });
      }

      // 3. The writer closes it: funded.
      await scenario('pricing-close', DESKTOP, async (page) => {
        await loginThroughUi(page, writer, new URL(book.crowdUrl).pathname.replace(/^\/platform/, '') + new URL(book.crowdUrl).search, appPath);
        const open = page.getByTestId('campaign-open');
        await assertText(open.getByTestId('campaign-pledged'), money(PLEDGE * 2));
        await open.getByTestId('campaign-close').click();
        await page.getByTestId('campaign-close-dialog').getByTestId('campaign-close-confirm').click();
        await page.getByText('Campaign closed: funded').first().waitFor();
        const row = page.getByTestId('campaign-row').first();
        await assertText(row, 'Funded');
        const earned = await textOf(row.getByTestId('campaign-earned'));
        assert.match(earned, /^\$\d+\.\d{2}$/);
        assert.ok(Number(earned.slice(1)) > 0, `the writer earned from the campaign (${earned})`);
        book.campaignEarned = earned;
        await page.getByTestId('campaign-start').waitFor();
        await shot(page, 'e2e-pricing-campaign-funded');
      });

      // 4. Both backers read the whole book (the funding reaches the catalog as an event).
      for (const [i, reader] of readers.entries()) {
        const token = await apiLogin(reader);
        await until(
          async () => (await callApi('GET', '/get_books', { params: { book_id: book.id }, token }))[0]?.entitled,
          (entitled) => entitled === true,
          `backer ${i + 1} is entitled to the whole book`,
          60_000,
        );
        await scenario(`pricing-backer-reads-${i + 1}`, DESKTOP, async (page) => {
          await loginThroughUi(page, reader, `/reader?book_id=${book.id}`, appPath);
          await openedFormat(page);
          await until(() => page.locator('.reader-sample-badge').count(), (n) => n === 0, 'no "Free sample" badge for a backer');
          const { labels } = await chapterEntries(page);
          assert.ok(labels.length >= 2, 'the book has chapters');
          assert.ok(!labels.some((l) => l.endsWith('(locked)')), `no chapter is locked for a backer (${labels.join(' | ')})`);
          await shot(page, `e2e-pricing-backer-reads-${i + 1}`);
        });
      }

      // 5. The writer's analytics show the campaign's earnings, on a desktop and a phone.
      await scenario('pricing-analytics', DESKTOP, async (page) => {
        await loginThroughUi(page, writer, '/writer', appPath);
        const report = page.getByTestId('sales-report');
        await report.waitFor();
        await until(
          async () => {
            const t = await textOf(report.getByTestId('total-campaign')).catch(() => '');
            if (t !== book.campaignEarned) {
              await page.reload();
              await report.waitFor();
            }
            return t;
          },
          (t) => t === book.campaignEarned,
          `the analytics show the campaign's ${book.campaignEarned}`,
          90_000,
        );
        const row = report.getByTestId('analytics-book-row').filter({ hasText: book.title });
        await assertText(row.getByTestId('analytics-book-campaign'), book.campaignEarned);
        await until(() => report.locator('[data-testid="sales-chart"] svg path').count(), (n) => n > 0, 'the per-day chart is drawn');
        await until(() => report.locator('[data-testid="revenue-chart"] svg path').count(), (n) => n > 0, 'the revenue curve is drawn');
        await shot(page, 'e2e-pricing-analytics');
      });
      await scenario('pricing-analytics-phone', PHONE, async (page) => {
        await loginThroughUi(page, writer, '/h5/writer/analytics', appPath);
        const report = page.getByTestId('sales-report');
        await assertText(report.getByTestId('total-campaign'), book.campaignEarned);
        await until(() => report.locator('[data-testid="sales-chart"] svg path').count(), (n) => n > 0, 'the per-day chart is drawn on the phone');
        await until(() => report.locator('[data-testid="revenue-chart"] svg path').count(), (n) => n > 0, 'the revenue curve is drawn on the phone');
        const chartWidth = await report.locator('[data-testid="sales-chart"] .recharts-wrapper').first().evaluate((s) => s.getBoundingClientRect().width);
        assert.ok(chartWidth > 250 && chartWidth <= 390, `the chart takes the phone's width (${chartWidth}px)`);
        await fitsThePhone(page, 'the phone analytics');
        await shot(page, 'e2e-pricing-analytics-phone');
      });
    });
  });
}
