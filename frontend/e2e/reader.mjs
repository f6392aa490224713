// Browser end-to-end tests of reading (issue 3) against a live stack with the demo books.
// Registered from run.mjs, which owns the browser, the SMTP sink and the helpers.
// Env: QUIRE_E2E_BOOK_QUERY (default "Moby-Dick"): the demo book searched for.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE } from './support/browser.mjs';
import { APP_URL, callApi, registerViaApi, uniqueUser } from './support/stack.mjs';
import { loginThroughUi, openedFormat, readSampleToItsEnd, sleep, until } from './support/ui.mjs';
import { readerPolishScenarios } from './reader-polish.mjs';

const BOOK_QUERY = process.env.QUIRE_E2E_BOOK_QUERY || 'Moby-Dick';
const AMBER_100 = 'rgb(254, 243, 199)';
const WHITE = 'rgb(255, 255, 255)';

/** The computed page style the reader sees: background, font size in px, weight. */
async function pageStyle(page, format) {
  if (format === 'epub') {
    return page
      .frameLocator('[data-testid="epub-host"] iframe')
      .first()
      .locator('body')
      .evaluate((b) => {
        const s = getComputedStyle(b);
        return { bg: s.backgroundColor, size: parseFloat(s.fontSize), weight: s.fontWeight };
      });
  }
  if (format === 'txt') {
    return page.evaluate(() => {
      const host = getComputedStyle(document.querySelector('[data-testid="txt-view"]'));
      const text = getComputedStyle(document.querySelector('[data-testid="txt-view"] p'));
      return { bg: host.backgroundColor, size: parseFloat(text.fontSize), weight: text.fontWeight };
    });
  }
  return page.evaluate(() => {
    const host = getComputedStyle(document.querySelector('[data-testid="pdf-host"]'));
    const canvas = document.querySelector('[data-testid="pdf-host"] canvas');
    return { bg: host.backgroundColor, size: canvas ? canvas.getBoundingClientRect().width : 0, weight: null };
  });
}

const tools = (page) => page.getByRole('toolbar', { name: 'Reader tools' });

async function openPanel(page, name) {
  const button = tools(page).getByRole('button', { name, exact: true });
  if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
  await page.getByRole('complementary', { name: `${name} panel` }).waitFor();
}

/** Waits until the server's progress equals the browser's copy (the debounced save landed). */
async function serverHoldsLocal(page, bookId, token) {
  let local = null;
  await until(
    async () => {
      local = await page.evaluate((id) => JSON.parse(localStorage.getItem(`readerProgress:${id}`) || 'null'), bookId);
      return callApi('GET', `/books/${bookId}/progress`, { token });
    },
    (p) => local && p && p.position === local.position,
    'the server holds the position the browser shows (debounced save)',
  );
  return local;
}

const percentText = async (page) => ((await page.getByTestId('reader-percent').textContent()) || '').trim();

export function readerScenarios({ scenario, assertText, shot, sink, setupError, appPath }) {
  /** Shared with the phone run: the book the desktop run found. */
  let found = null;

  describe('reading', { concurrency: false }, () => {
    test('(e) a reader finds a demo book, reads the sample to its end, bookmarks, comments, changes the look and comes back to the same place', { timeout: 420_000 }, async () => {
      if (setupError()) throw setupError();
      const user = await registerViaApi(sink(), uniqueUser('bookworm'));
      await scenario('reader', DESKTOP, async (page) => {
        await loginThroughUi(page, user, '/', appPath);

        // Search from the home page's search box, open the hit, then the reader.
        const box = page.locator('main').getByRole('combobox', { name: 'Search books' });
        await box.fill(BOOK_QUERY);
        const hit = page.getByTestId('search-hit').filter({ hasText: BOOK_QUERY }).first();
        await hit.waitFor({ timeout: 30_000 });
        await hit.click();
        await page.waitForURL(appPath('/book\\?book_id='));
        await page.getByTestId('read-button').first().click();
        await page.waitForURL(appPath('/reader\\?book_id='));
        const bookId = new URL(page.url()).searchParams.get('book_id');
        assert.ok(bookId, 'the reader got a book_id');
        await assertText(page.getByTestId('reader-title'), BOOK_QUERY.split(/\s/)[0]);
        const format = await openedFormat(page);
        found = { bookId, format };
        await assertText(page.getByTestId('reader'), 'Free sample');
        await shot(page, 'e2e-reader-open');

        // Chapters: those past the sample are locked; jump to the last open one and page on
        // to the end of the sample.
        const notice = await readSampleToItsEnd(page, format);
        await assertText(notice, 'The free sample ends here - buy to continue');
        await shot(page, 'e2e-reader-sample-end');
        // Buy: a new reader's wallet is empty, so the confirmation offers a recharge instead.
        await notice.getByRole('button', { name: /^Buy for / }).click();
        const dialog = page.getByRole('dialog', { name: 'Buy this book' });
        await assertText(dialog.getByTestId('buy-short'), 'Not enough money in your wallet');
        const recharge = dialog.getByRole('link', { name: 'Recharge' });
        assert.match(await recharge.getAttribute('href'), /\/user\/recharge\?amount=\d+&redirect=%2Freader%3Fbook_id%3D/);
        await dialog.getByRole('button', { name: 'Not now' }).click();
        await dialog.waitFor({ state: 'detached' });
        await notice.getByRole('button', { name: 'Keep reading the sample' }).click();
        await notice.waitFor({ state: 'hidden' });

        // Step back a little (keyboard) so the place is inside the text, then let it save.
        for (let i = 0; i < 3; i++) {
          await page.keyboard.press('ArrowLeft');
          await sleep(300);
        }
        await until(() => percentText(page), (t) => /^\d+%/.test(t) && !t.startsWith('100%'), 'the percent moved back from 100%');
        const token = await page.evaluate(() => localStorage.getItem('access_token'));
        await serverHoldsLocal(page, bookId, token);

        // A bookmark here.
        await openPanel(page, 'Bookmarks');
        await page.getByRole('button', { name: 'Add bookmark here' }).click();
        const marks = page.getByRole('list', { name: 'Bookmarks' }).getByRole('listitem');
        await marks.first().waitFor();
        const markTitle = ((await marks.first().locator('.bookmark-title').textContent()) || '').trim();
        assert.ok(markTitle.length > 0, 'the bookmark has a title');

        // A comment, seen in the list.
        await openPanel(page, 'Comments');
        const words = `A fine sample, says ${user.username}`;
        await page.getByLabel('Your comment').fill(words);
        await page.getByRole('button', { name: 'Post comment' }).click();
        await page.getByTestId('comment').filter({ hasText: words }).first().waitFor();
        await shot(page, 'e2e-reader-comment');

        // Appearance presets change what the page computes.
        await openPanel(page, 'Settings');
        await page.getByTestId('preset-original').click();
        const original = await until(() => pageStyle(page, format), (s) => s?.bg === WHITE, 'original is white');
        await page.getByTestId('preset-calmLarger').click();
        const larger = await until(() => pageStyle(page, format), (s) => s?.bg === AMBER_100 && s.size > original.size, 'calm larger is amber and larger');
        await page.getByTestId('preset-calmBold').click();
        const bold = await until(() => pageStyle(page, format), (s) => s?.bg === AMBER_100 && s.size < larger.size, 'calm bold is amber');
        if (format !== 'pdf') {
          assert.ok(Math.abs(bold.size / original.size - 1.2) < 0.02, `calm bold is 120% (${original.size}px -> ${bold.size}px)`);
          assert.ok(Math.abs(larger.size / original.size - 1.5) < 0.02, `calm larger is 150% (${original.size}px -> ${larger.size}px)`);
          assert.equal(String(bold.weight), '700', 'calm bold is bold');
          assert.equal(String(original.weight), '400', 'original is normal weight');
        }
        await shot(page, 'e2e-reader-calm-bold');

        // Reload with only the server's copy of the position: same place, same bookmark.
        await openPanel(page, 'Bookmarks');
        await sleep(500);
        const before = await percentText(page);
        const stored = await serverHoldsLocal(page, bookId, token);
        await page.evaluate((id) => localStorage.removeItem(`readerProgress:${id}`), bookId);
        await page.reload();
        await page.getByTestId('reader-title').waitFor();
        await openedFormat(page);
        await page.getByRole('list', { name: 'Bookmarks' }).getByText(markTitle).first().waitFor();
        await assertText(page.getByTestId('reader-percent'), before, 'the same place after a reload');
        const again = await until(
          () => page.evaluate((id) => JSON.parse(localStorage.getItem(`readerProgress:${id}`) || 'null'), bookId),
          (p) => p && Math.round(p.percent) === Math.round(stored.percent),
          'the reopened position has the same percent',
        );
        if (format !== 'epub') assert.equal(again.position, stored.position, 'the same position');
        const look = await pageStyle(page, format);
        assert.equal(look.bg, AMBER_100, 'the chosen appearance survives the reload');
        await shot(page, 'e2e-reader-reloaded');
      });
    });

    test('(f) phone: the reader with a bottom sheet, and the h5 history', { timeout: 240_000 }, async () => {
      if (setupError()) throw setupError();
      const user = await registerViaApi(sink(), uniqueUser('pocket'));
      let bookId = found?.bookId;
      if (!bookId) {
        const hits = await callApi('POST', '/search', { json: { query: BOOK_QUERY } });
        bookId = hits?.result?.[0]?.id;
      }
      assert.ok(bookId, `a demo book matches "${BOOK_QUERY}"`);
      await scenario('reader-phone', PHONE, async (page) => {
        await loginThroughUi(page, user, `/reader?book_id=${bookId}`, appPath);
        await page.getByTestId('reader-title').waitFor();
        await openedFormat(page);
        const saved = page.waitForResponse((r) => r.url().includes(`/api/books/${bookId}/progress`) && r.request().method() === 'PUT', { timeout: 30_000 });
        for (let i = 0; i < 2; i++) {
          await page.getByRole('button', { name: 'Next page' }).click();
          await sleep(400);
        }
        assert.equal((await saved).status(), 200, 'the progress was saved');

        // Panels are bottom sheets on a phone.
        await openPanel(page, 'Settings');
        const sheet = await page.getByTestId('reader-left').boundingBox();
        const viewport = page.viewportSize();
        assert.ok(sheet, 'the settings sheet is shown');
        assert.ok(Math.abs(sheet.y + sheet.height - viewport.height) <= 2, `the sheet sits on the bottom edge (${JSON.stringify(sheet)})`);
        assert.ok(sheet.width >= viewport.width - 2, 'the sheet spans the width');
        await shot(page, 'e2e-reader-phone-sheet');
        await page.getByRole('button', { name: 'Close panel' }).click();

        // The history lists the book with its progress and opens the reader.
        await page.goto(`${APP_URL}/h5/reader/history`);
        const history = page.getByTestId('h5-history');
        const entry = history.getByRole('link').filter({ has: page.getByRole('progressbar') }).first();
        await entry.waitFor();
        await shot(page, 'e2e-h5-history');
        await entry.click();
        await page.waitForURL(appPath(`/reader\\?book_id=${bookId}$`));
        await page.getByTestId('reader-title').waitFor();
      });
    });
  });

  readerPolishScenarios({ scenario, shot, setupError });
}
