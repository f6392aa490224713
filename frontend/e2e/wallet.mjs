// Browser end-to-end tests of the wallet against a live stack with the demo books: a reader
// recharges, reads a priced book's sample to its end, buys it from there and reads on;
// another, with too little money, is offered a recharge that comes back to the book. The
// buyer then rates the book on its page.
// Registered from run.mjs, which owns the browser, the SMTP sink and the helpers.
// Env: QUIRE_E2E_WALLET_BOOK_QUERY (default "A Body in the Orchard"): a priced demo book
//      (a short txt one pages to the end of its sample fastest).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE } from './support/browser.mjs';
import { APP_URL, callApi, registerViaApi, uniqueUser } from './support/stack.mjs';
import { chapterEntries, loginThroughUi, openedFormat, readSampleToItsEnd, sleep, until } from './support/ui.mjs';

const BOOK_QUERY = process.env.QUIRE_E2E_WALLET_BOOK_QUERY || 'A Body in the Orchard';
const RECHARGE = 20;

const money = (n) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);

/** The priced demo book to buy: the search hit titled like the query, with a price. */
async function findPricedBook() {
  const hits = await callApi('POST', '/search', { json: { query: BOOK_QUERY, page_size: 20 } });
  const priced = (hits?.result || []).filter((b) => Number(b.price) > 0);
  const book = priced.find((b) => b.title?.toLowerCase().includes(BOOK_QUERY.toLowerCase())) || priced[0];
  assert.ok(book, `a priced demo book matches "${BOOK_QUERY}"`);
  assert.ok(Number(book.price) < RECHARGE, `the book (${book.price}) costs less than the recharge (${RECHARGE})`);
  return { id: String(book.book_id ?? book.id), title: book.title, price: Number(book.price) };
}

export function walletScenarios({ scenario, assertText, shot, sink, setupError, appPath }) {
  describe('wallet and buying', { concurrency: false }, () => {
    test('(g) a reader recharges 20, reads a priced sample to its end, buys the book there and reads it whole', { timeout: 420_000 }, async () => {
      if (setupError()) throw setupError();
      const book = await findPricedBook();
      const user = await registerViaApi(sink(), uniqueUser('buyer'));
      await scenario('wallet-buy', DESKTOP, async (page) => {
        await loginThroughUi(page, user, '/user/recharge', appPath);

        // Recharge: a quick amount, the demo provider's notice, progress, then the result.
        await assertText(page.getByTestId('demo-payment-notice'), 'built-in demo payment provider');
        await page.getByRole('radio', { name: money(RECHARGE) }).click();
        const submit = page.getByTestId('recharge-submit');
        await assertText(submit, `Recharge ${money(RECHARGE)}`);
        await submit.click();
        const result = page.getByTestId('recharge-result');
        await result.waitFor();
        await assertText(result, `Payment settled: ${money(RECHARGE)} added`);
        await assertText(page.getByTestId('recharge-new-balance'), money(RECHARGE));
        const reference = ((await page.getByTestId('recharge-reference').textContent()) || '').trim();
        assert.ok(reference.length > 0, 'the payment has a reference');
        await page.getByRole('list', { name: 'Top-up records' }).getByText(reference.slice(-12)).first().waitFor();
        await shot(page, 'e2e-wallet-recharged');

        // The wallet summary in the user's space shows the balance.
        await page.goto(`${APP_URL}/user`);
        await assertText(page.getByTestId('wallet-balance'), money(RECHARGE));
        await assertText(page.getByTestId('wallet-recharged'), money(RECHARGE));

        // The book page sells it at its price; read the free sample first.
        await page.goto(`${APP_URL}/book?book_id=${encodeURIComponent(book.id)}`);
        await assertText(page.getByTestId('buy-button'), `Buy for ${money(book.price)}`);
        await page.getByTestId('read-button').first().click();
        await page.waitForURL(appPath('/reader\\?book_id='));
        const format = await openedFormat(page);
        await assertText(page.getByTestId('reader'), 'Free sample');

        // To the end of the sample, and buy from the notice.
        const notice = await readSampleToItsEnd(page, format);
        await assertText(notice, 'The free sample ends here - buy to continue');
        await notice.getByRole('button', { name: `Buy for ${money(book.price)}` }).click();
        const dialog = page.getByRole('dialog', { name: 'Buy this book' });
        await assertText(dialog.getByTestId('buy-price'), money(book.price));
        await assertText(dialog.getByTestId('buy-balance'), money(RECHARGE));
        await assertText(dialog, `After buying${money(RECHARGE - book.price)}`);
        await shot(page, 'e2e-wallet-confirm');
        await dialog.getByRole('button', { name: 'Confirm purchase' }).click();
        await page.getByText(`“${book.title}” is yours`).first().waitFor();

        // The reader now has the whole book: no notice, no sample badge, no locked chapter.
        await notice.waitFor({ state: 'detached' });
        await until(() => page.locator('.reader-sample-badge').count(), (n) => n === 0, 'the "Free sample" badge is gone');
        await until(() => page.getByTestId('reader-percent').textContent(), (t) => typeof t === 'string' && !t.includes('of the sample'), 'the percent is of the whole book');
        const { entries, labels } = await chapterEntries(page);
        assert.ok(labels.length >= 2, 'the book has chapters');
        assert.ok(!labels.some((l) => l.endsWith('(locked)')), `no chapter is locked any more (${labels.join(' | ')})`);
        await entries.nth(labels.length - 1).click();
        await sleep(1500);
        assert.equal(await page.getByTestId('trial-end').count(), 0, 'the last chapter opens without the notice');
        if (format === 'txt') {
          const last = labels.at(-1);
          const headings = await page.locator('[data-testid="txt-view"] .txt-heading').allTextContents();
          assert.ok(headings.some((h) => h.trim() === last.trim()), `the last chapter "${last}" is in the text`);
        }
        if (format === 'txt') {
          await until(() => page.getByTestId('reader-percent').textContent(), (t) => /^\d+%/.test(t || '') && parseInt(t, 10) > 50, 'the reader is far into the whole book');
        }
        await shot(page, 'e2e-wallet-whole-book');

        // The book page says it is owned; the records list the purchase; the balance dropped.
        await page.goto(`${APP_URL}/book?book_id=${encodeURIComponent(book.id)}`);
        await assertText(page.getByTestId('owned-badge'), 'You own this book');
        assert.equal(await page.getByTestId('buy-button').count(), 0, 'no Buy button for an owned book');
        // An owner rates it: four stars, saved as the reader's rating, counted in the book's.
        const rate = page.getByTestId('rate-book');
        await assertText(rate, 'Rate this book');
        const label = (await page.getByTestId('rating').first().getAttribute('aria-label')) || '';
        const before = Number((/by ([\d,]+) rating/.exec(label) || [])[1]?.replace(/,/g, '') || 0);
        await rate.locator('label').nth(3).click();
        await assertText(page.getByTestId('rate-book'), 'Your rating');
        await until(
          () => page.getByTestId('rating').first().getAttribute('aria-label'),
          (t) => new RegExp(`by ${(before + 1).toLocaleString('en-US')} ratings?$`).test(t || ''),
          'the book counts the new rating',
        );
        assert.equal(await rate.locator('input[aria-label="4 of 5 stars"]').isChecked(), true, 'the four stars stay picked');
        await shot(page, 'e2e-wallet-rated');
        await page.goto(`${APP_URL}/user`);
        await assertText(page.getByTestId('wallet-balance'), money(RECHARGE - book.price));
        await assertText(page.getByTestId('wallet-spent'), money(book.price));
        const bought = page.getByTestId('trade-record').filter({ hasText: book.title }).first();
        await assertText(bought, 'Bought');
        await shot(page, 'e2e-wallet-activity');
      });
    });

    test('(h) phone: too little money offers a recharge that comes straight back to the book', { timeout: 240_000 }, async () => {
      if (setupError()) throw setupError();
      const book = await findPricedBook();
      const user = await registerViaApi(sink(), uniqueUser('skint'));
      const bookPath = `/book?book_id=${book.id}`;
      await scenario('wallet-short', PHONE, async (page) => {
        await loginThroughUi(page, user, bookPath, appPath);
        await page.getByTestId('buy-button').click();
        const dialog = page.getByRole('dialog', { name: 'Buy this book' });
        await assertText(dialog.getByTestId('buy-balance'), money(0));
        await assertText(dialog.getByTestId('buy-short'), 'Not enough money in your wallet');
        await assertText(dialog.getByTestId('buy-short'), `You need ${money(book.price)} more`);
        assert.equal(await dialog.getByRole('button', { name: 'Confirm purchase' }).count(), 0, 'no way to confirm without the money');
        await shot(page, 'e2e-wallet-short-phone');

        await dialog.getByRole('link', { name: 'Recharge' }).click();
        await page.waitForURL(appPath('/user/recharge\\?amount=\\d+&redirect='));
        await page.getByRole('radio', { checked: true }).waitFor();
        const chosen = ((await page.getByRole('radio', { checked: true }).textContent()) || '').trim();
        assert.ok(Number(chosen.replace(/[$,]/g, '')) >= book.price, `the preselected amount (${chosen}) covers the price`);
        const back = page.getByRole('link', { name: 'Back to the book' }).first();
        assert.equal(await back.getAttribute('href'), `/platform${bookPath}`);
        await shot(page, 'e2e-wallet-recharge-phone');

        // Paying brings the reader back to the book by itself, where the money now suffices.
        await page.getByTestId('recharge-submit').click();
        await page.waitForURL(appPath(bookPath.replace(/[?]/g, '\\?') + '$'));
        await page.getByText(`${money(Number(chosen.replace(/[$,]/g, '')))} added to your wallet`).first().waitFor();
        await page.getByTestId('buy-button').click();
        const again = page.getByRole('dialog', { name: 'Buy this book' });
        await assertText(again.getByTestId('buy-balance'), chosen);
        await again.getByRole('button', { name: 'Confirm purchase' }).waitFor();
        assert.equal(await again.getByTestId('buy-short').count(), 0, 'the recharge covers the price');
      });
    });
  });
}
