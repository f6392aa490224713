// Browser end-to-end tests of the reader's finish (issue 23): pages that follow the stage
// when a panel opens or closes, dark pages in every format, full screen, the end-of-book
// page, and a sample that changed on the server reopening where it should.
// Registered from reader.mjs (readerScenarios), with run.mjs's helpers.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE } from './support/browser.mjs';
import { ADMIN_EMAIL, ADMIN_PASSWORD, APP_URL, callApi } from './support/stack.mjs';
import { openedFormat, readSampleToItsEnd, sleep, until } from './support/ui.mjs';

const MOBY = process.env.QUIRE_E2E_BOOK_QUERY || 'Moby-Dick';
const PANELS = ['Chat', 'Comments', 'Explore', 'Bookmarks', 'Settings'];

/** The id of the demo book titled like `query` (and of `format`, when given). */
async function findBook(query, format) {
  const hits = await callApi('POST', '/search', { json: { query, page_size: 20 } });
  const list = (hits?.result || []).filter((b) => !format || b.format === format);
  const book = list.find((b) => b.title?.toLowerCase().includes(query.toLowerCase())) || list[0];
  assert.ok(book, `a demo book matches "${query}"${format ? ` in ${format}` : ''}`);
  return String(book.book_id ?? book.id);
}

async function openReader(page, bookId) {
  await page.goto(`${APP_URL}/reader?book_id=${bookId}`);
  await page.getByTestId('reader-title').waitFor();
  return openedFormat(page);
}

const tools = (page) => page.getByRole('toolbar', { name: 'Reader tools' });
const percentOf = async (page) => parseInt(((await page.getByTestId('reader-percent').textContent()) || '').trim(), 10);
const localPlace = (page, bookId) => page.evaluate((id) => JSON.parse(localStorage.getItem(`readerProgress:${id}`) || 'null'), bookId);

/**
 * How epub.js laid the page out against its host. The book's body is one page wide (its
 * columns, each the body's width less its side padding, plus the gap, step by exactly
 * that much), so the body must be exactly as wide as the host and the scroll a whole
 * number of pages, else lines are cut at the right edge or a sliver of the next column shows.
 */
async function epubLayout(page) {
  const column = await page
    .frameLocator('[data-testid="epub-host"] iframe')
    .first()
    .locator('body')
    .evaluate((b) => {
      const s = getComputedStyle(b);
      const inner = b.getBoundingClientRect().width - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
      return Math.min(parseFloat(s.columnWidth) || Infinity, inner) + parseFloat(s.columnGap);
    });
  const host = await page.evaluate(() => {
    const h = document.querySelector('[data-testid="epub-host"]');
    return { width: h.clientWidth, scroll: h.querySelector('.epub-container')?.scrollLeft ?? 0 };
  });
  return { page: column, host: host.width, scroll: host.scroll };
}

const fitsHost = (l) => typeof l === 'object' && l.page > 0 && Math.abs(l.page - l.host) <= 1 && Math.abs(l.scroll / l.page - Math.round(l.scroll / l.page)) < 0.01;

/** Relative luminance (0 black .. 1 white) of a computed `rgb(...)` colour. */
function luminance(rgb) {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) || []).slice(0, 3).map((v) => Number(v) / 255);
  const lin = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The page's computed background and text colour, inside the book frame for an epub. */
async function pageColours(page, format) {
  if (format === 'epub') {
    return page
      .frameLocator('[data-testid="epub-host"] iframe')
      .first()
      .locator('body')
      .evaluate((b) => ({ bg: getComputedStyle(b).backgroundColor, ink: getComputedStyle(b).color }));
  }
  return page.evaluate((f) => {
    const host = document.querySelector(f === 'txt' ? '[data-testid="txt-view"]' : '[data-testid="pdf-host"]');
    const canvas = document.querySelector('[data-testid="pdf-host"] canvas');
    return {
      bg: getComputedStyle(host).backgroundColor,
      ink: getComputedStyle(host).color,
      filter: canvas ? getComputedStyle(canvas).filter : '',
    };
  }, format);
}

async function adminLogin(page) {
  await page.goto(`${APP_URL}/admin/login`);
  await page.getByLabel('Admin e-mail', { exact: true }).fill(ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Enter admin area' }).click();
  await page.waitForURL(/\/admin\/users$/);
}

/**
 * The percent once epub.js has counted the sample's locations: until then it reads 0, so
 * this is for a place past the start.
 */
const countedPercent = (page) =>
  until(
    () => percentOf(page),
    (n) => Number.isInteger(n) && n > 0,
    'the percent is counted',
    60_000,
  );

export function readerPolishScenarios({ scenario, shot, setupError }) {
  describe('reading, polished', { concurrency: false }, () => {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ]) {
      test(`(p) ${size}: opening and closing every panel never cuts a line, and the reader stays on the same page`, { timeout: 240_000 }, async () => {
        if (setupError()) throw setupError();
        const bookId = await findBook(MOBY, 'epub');
        await scenario(`reader-panels-${size}`, viewport, async (page) => {
          assert.equal(await openReader(page, bookId), 'epub');
          const next = page.getByRole('button', { name: 'Next page' });
          for (let i = 0; i < 3; i++) {
            await next.click();
            await sleep(300);
          }
          await until(() => epubLayout(page), fitsHost, 'the first layout fits the host');
          const start = await until(() => localPlace(page, bookId), (p) => p?.position?.startsWith('epubcfi('), 'a place is recorded');
          for (const name of PANELS) {
            const button = tools(page).getByRole('button', { name, exact: true });
            await button.click();
            await page.getByRole('complementary', { name: `${name} panel` }).waitFor();
            const open = await until(() => epubLayout(page), fitsHost, `with ${name} open, a page is as wide as the stage`);
            if (size === 'desktop') assert.ok(open.host < (await page.viewportSize()).width - 340, `${name} takes room beside the book`);
            await shot(page, `e2e-reader-panel-${size}-${name.toLowerCase()}`);
            await page.getByRole('button', { name: 'Close panel' }).click();
            await page.getByRole('complementary', { name: `${name} panel` }).waitFor({ state: 'detached' });
            await until(() => epubLayout(page), fitsHost, `with ${name} closed, a page is as wide as the stage again`);
            await until(() => localPlace(page, bookId), (p) => p?.position === start.position, `after ${name}, the same page as before`);
          }
        });
      });
    }

    test('(p) desktop: txt and pdf pages follow the stage when a panel opens and closes, at the same place', { timeout: 240_000 }, async () => {
      if (setupError()) throw setupError();
      const books = [
        [await findBook('A Body in the Orchard', 'txt'), 'txt'],
        [await findBook('Ember and the Iron Crown', 'pdf'), 'pdf'],
      ];
      await scenario('reader-panels-txt-pdf', DESKTOP, async (page) => {
        for (const [bookId, format] of books) {
          assert.equal(await openReader(page, bookId), format);
          await page.getByRole('button', { name: 'Next page' }).click();
          await sleep(500);
          const start = await until(() => localPlace(page, bookId), (p) => Boolean(p?.position), `${format}: a place is recorded`);
          // Nothing wider than the stage: no line or page runs past its right edge.
          const fits = () =>
            page.evaluate((f) => {
              const host = document.querySelector(f === 'txt' ? '[data-testid="txt-view"]' : '[data-testid="pdf-host"]');
              const canvas = host.querySelector('canvas');
              return host.scrollWidth <= host.clientWidth && (!canvas || canvas.getBoundingClientRect().right <= host.getBoundingClientRect().right);
            }, format);
          for (const name of ['Explore', 'Settings']) {
            await tools(page).getByRole('button', { name, exact: true }).click();
            await page.getByRole('complementary', { name: `${name} panel` }).waitFor();
            await until(fits, Boolean, `${format}: with ${name} open, nothing runs past the stage`);
            await page.getByRole('button', { name: 'Close panel' }).click();
            await until(fits, Boolean, `${format}: with ${name} closed, nothing runs past the stage`);
            await until(() => localPlace(page, bookId), (p) => p?.position === start.position, `${format}: after ${name}, the same place`);
          }
        }
      });
    });

    test('(q) the dark theme darkens the page itself in epub, txt and pdf, and full screen comes and goes', { timeout: 300_000 }, async () => {
      if (setupError()) throw setupError();
      const books = [
        [await findBook(MOBY, 'epub'), 'epub'],
        [await findBook('A Body in the Orchard', 'txt'), 'txt'],
        [await findBook('Ember and the Iron Crown', 'pdf'), 'pdf'],
      ];
      await scenario('reader-dark', DESKTOP, async (page) => {
        for (const [bookId, format] of books) {
          assert.equal(await openReader(page, bookId), format);
          const light = await until(() => pageColours(page, format), (c) => c?.bg && luminance(c.bg) > 0.8, `${format}: the light page is light`);
          assert.ok(!light.filter || light.filter === 'none', `${format}: no filter on a light page`);
          const settings = tools(page).getByRole('button', { name: 'Settings', exact: true });
          if ((await settings.getAttribute('aria-pressed')) !== 'true') await settings.click();
          await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Dark' }).click();
          const dark = await until(() => pageColours(page, format), (c) => c?.bg && luminance(c.bg) < 0.05, `${format}: the dark theme darkens the page`);
          if (format !== 'pdf') assert.ok(luminance(dark.ink) > 0.5, `${format}: light ink on the dark page (${dark.ink})`);
          else assert.match(dark.filter, /invert/, 'pdf: the page picture is inverted');
          await shot(page, `e2e-reader-dark-${format}`);
          await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Light' }).click();
          await until(() => pageColours(page, format), (c) => c?.bg && luminance(c.bg) > 0.8, `${format}: back to a light page`);
          await page.getByRole('button', { name: 'Close panel' }).click();
        }

        // Full screen: the reader takes the screen, the pages follow, and it leaves again.
        const full = page.getByTestId('reader-fullscreen');
        assert.equal(await openReader(page, books[0][0]), 'epub');
        await until(() => epubLayout(page), fitsHost, 'the layout fits before full screen');
        const before = await epubLayout(page);
        await full.click();
        await until(() => page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid') ?? null), (v) => v === 'reader', 'the reader is in full screen');
        await until(() => full.getAttribute('aria-pressed'), (v) => v === 'true', 'the toggle shows full screen on');
        await until(() => epubLayout(page), (l) => fitsHost(l) && l.host !== before.host, 'in full screen a page is as wide as the larger stage');
        await shot(page, 'e2e-reader-fullscreen');
        await full.click();
        await until(() => page.evaluate(() => document.fullscreenElement === null), Boolean, 'full screen is left');
        await until(() => full.getAttribute('aria-pressed'), (v) => v === 'false', 'the toggle shows full screen off');
        await until(() => epubLayout(page), (l) => fitsHost(l) && l.host === before.host, 'the page is back to its size');
      });
    });

    test('(s) after the admin changes the trial percentage, the sample opened again is the new one and one Next is one page', { timeout: 420_000 }, async () => {
      if (setupError()) throw setupError();
      const bookId = await findBook(MOBY, 'epub');
      const admin = (await callApi('POST', '/login/', { json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })).access_token;
      const before = (await callApi('GET', '/settings')).trial_percent;
      const changed = before <= 50 ? before + 20 : before - 20;
      try {
        await scenario('reader-trial-changed', DESKTOP, async (page) => {
          // A visitor reads the sample to its end.
          assert.equal(await openReader(page, bookId), 'epub');
          const notice = await readSampleToItsEnd(page, 'epub');
          await notice.waitFor();
          assert.equal(await percentOf(page), 100, 'the end of the sample is 100%');

          // Back on the book page (no reload), the admin changes the trial percentage.
          await page.getByRole('link', { name: 'Back to the book page' }).click();
          await page.getByTestId('read-button').first().waitFor();
          await callApi('PUT', '/admin/settings', { token: admin, json: { trial_percent: changed } });

          // Opened again: the new sample, where the reader was, and Next turns one page.
          await page.getByTestId('read-button').first().click();
          await page.waitForURL(/\/reader\?book_id=/);
          assert.equal(await openedFormat(page), 'epub');
          const opened = await countedPercent(page);
          assert.ok(opened < 100, `the reader is inside the larger sample, not at its end (${opened}%)`);
          await page.getByRole('button', { name: 'Next page' }).click();
          await sleep(1500);
          const after = await percentOf(page);
          await shot(page, 'e2e-reader-trial-changed');
          assert.ok(after >= opened && after - opened <= 5, `one Next is a small step (${opened}% -> ${after}%)`);
          assert.equal(await page.getByTestId('trial-end').count(), 0, 'no end-of-sample notice after one page');
        });
      } finally {
        await callApi('PUT', '/admin/settings', { token: admin, json: { trial_percent: before } });
      }
    });

    test('(r) past the last page of a whole book comes the end page: rate it, comment, more like it', { timeout: 300_000 }, async () => {
      if (setupError()) throw setupError();
      const bookId = await findBook('Harbour Lights', 'epub');
      await scenario('reader-book-end', DESKTOP, async (page) => {
        // The admin reads every book whole.
        await adminLogin(page);
        assert.equal(await openReader(page, bookId), 'epub');
        assert.equal(await page.locator('.reader-sample-badge').count(), 0, 'the whole book, not the sample');
        const next = page.getByRole('button', { name: 'Next page' });
        const end = page.getByTestId('book-end');
        for (let i = 0; i < 400 && !(await end.isVisible()); i++) {
          await next.click();
          await sleep(120);
        }
        await end.waitFor();
        assert.equal(await percentOf(page), 100, 'the end page comes at 100%');
        await shot(page, 'e2e-reader-book-end');

        // More like it: other books of the genre, opening in the reader.
        const similar = end.getByRole('list', { name: 'More like it' }).getByRole('link');
        await similar.first().waitFor();
        assert.doesNotMatch(await similar.first().getAttribute('href'), new RegExp(bookId), 'not the same book again');

        // Rate it: only a reader who owns the book rates it (wallet.mjs rates a bought one);
        // this reader reads it without buying and is told so.
        await end.getByTestId('book-end-rate-owners').waitFor();
        assert.equal(await end.getByRole('radio', { name: '4 of 5 stars' }).count(), 0, 'no stars to give for a book not owned');
        // Comment: the comments panel opens beside it.
        await end.getByRole('button', { name: 'Comments' }).click();
        await page.getByRole('complementary', { name: 'Comments panel' }).waitFor();

        // Back to the last page, and Prev leaves the end page as well.
        await end.getByRole('button', { name: 'Back to the last page' }).click();
        await end.waitFor({ state: 'detached' });
        await next.click();
        await end.waitFor();
        await page.getByRole('button', { name: 'Previous page' }).click();
        await end.waitFor({ state: 'detached' });
      });
    });
  });
}
