// Browser end-to-end tests of the rough edges a first-time user meets (issue 23, items 6
// and 8): a role is added only after the user says yes and its tools are shown only to
// those who hold it (the server refuses the others anyway); toasts stay clear of the
// header's navigation and can be dismissed; the comment box stops where its counter does;
// a place is bookmarked once; a publisher's spines show whole titles; the API's refusals
// are in plain words. Registered from run.mjs, which owns the browser and the helpers.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE } from './support/browser.mjs';
import { APP_URL, callApi, rawApi, registerViaApi, uniqueUser } from './support/stack.mjs';
import { loginThroughUi, openedFormat, sleep, until } from './support/ui.mjs';

// A short txt demo book: its reader opens fastest.
const BOOK_QUERY = process.env.QUIRE_E2E_WALLET_BOOK_QUERY || 'A Body in the Orchard';

const login = async (user) => (await callApi('POST', '/login/', { json: { email: user.email, password: user.password } })).access_token;
const rolesOf = async (token) => (await callApi('GET', '/users/me/', { token })).roles ?? [];

/** A listed demo book titled like `query`, else the first hit. */
async function titled(query) {
  const hits = await callApi('POST', '/search', { json: { query, page_size: 20 } });
  const books = hits?.result || [];
  const book = books.find((b) => b.title?.toLowerCase().includes(query.toLowerCase())) || books[0];
  assert.ok(book, `a demo book matches "${query}"`);
  return { id: String(book.book_id ?? book.id), title: book.title };
}

/** A listed demo book, the one with the longest title among the search's hits for `query`. */
async function longestTitled(query) {
  const hits = await callApi('POST', '/search', { json: { query, page_size: 50 } });
  const books = (hits?.result || []).filter((b) => b.title);
  assert.ok(books.length > 0, `a demo book matches "${query}"`);
  const book = books.sort((a, b) => b.title.length - a.title.length)[0];
  return { id: String(book.book_id ?? book.id), title: book.title };
}

/** The boxes of the header, its open navigation and the toasts on screen. */
const boxes = (page) =>
  page.evaluate(() => {
    const rect = (el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, height: r.height };
    };
    const header = document.querySelector('header.topbar');
    const navs = [...header.querySelectorAll('nav')].map(rect).filter((r) => r.height > 0);
    return {
      headerBottom: Math.max(rect(header).bottom, ...navs.map((r) => r.bottom)),
      toasts: [...document.querySelectorAll('.toast')].map(rect),
    };
  });

async function assertToastsClearOfHeader(page, what) {
  const seen = await until(() => boxes(page), (b) => b.toasts.length > 0, `${what}: a toast shows`, 10_000);
  for (const t of seen.toasts) {
    assert.ok(t.top >= seen.headerBottom, `${what}: a toast (top ${t.top}) covers the header's navigation (bottom ${seen.headerBottom})`);
  }
}

export function roughEdgeScenarios({ scenario, assertText, shot, sink, setupError, appPath }) {
  describe('rough edges', { concurrency: false }, () => {
    test('(r1) phone: a role is added only after the user confirms, and a reader never gets the publisher’s switches', { timeout: 240_000 }, async () => {
      if (setupError()) throw setupError();
      const user = await registerViaApi(sink(), uniqueUser('roles'));
      const book = await titled(BOOK_QUERY);
      const token = await login(user);

      // The server refuses a reader's curation call whatever the page shows.
      const refused = await rawApi('POST', '/publish_book_status', { params: { book_id: book.id, on_or_off: 'on' }, token });
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.equal(refused.body.success, false);

      await scenario('roles-phone', PHONE, async (page) => {
        await loginThroughUi(page, user, '/h5/reader/profile', appPath);

        // Tapping Publisher asks first; cancelling changes nothing, here or on the server.
        await page.getByRole('radio', { name: /publisher/i }).click();
        const dialog = page.getByRole('dialog', { name: 'Become a publisher?' });
        await dialog.waitFor();
        await shot(page, 'e2e-roles-confirm-phone');
        assert.ok(!(await rolesOf(token)).includes('publisher'), 'no role is added before the user says yes');
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'detached' });
        assert.match(page.url(), /\/h5\/reader\/profile$/);
        assert.ok(!(await rolesOf(token)).includes('publisher'), 'cancelling adds no role');
        assert.equal(await page.evaluate(() => localStorage.getItem('currentRole')), 'reader');

        // The publisher's pages show a reader what the role is, not its switches.
        await page.goto(`${APP_URL}/h5/publisher/home`);
        await page.getByTestId('role-needed').waitFor();
        assert.equal(await page.locator('[role="switch"]').count(), 0, 'no curation switch for a reader');
        assert.equal(await page.evaluate(() => localStorage.getItem('currentRole')), 'reader');
        await shot(page, 'e2e-roles-needed-phone');

        // Confirming adds the role and switches to it.
        await page.goto(`${APP_URL}/h5/reader/profile`);
        await page.getByRole('radio', { name: /writer/i }).click();
        const writer = page.getByRole('dialog', { name: 'Become a writer?' });
        await writer.getByRole('button', { name: 'Add the writer role' }).click();
        await page.waitForURL(appPath('/h5/writer/profile$'));
        await assertText(page.getByTestId('profile-current-role'), 'writer');
        assert.ok((await rolesOf(token)).includes('writer'), 'the confirmed role is on the account');
        assert.ok(!(await rolesOf(token)).includes('publisher'));
      });
    });

    test('(r2) toasts stay below the header and its navigation, and can be dismissed', { timeout: 180_000 }, async () => {
      if (setupError()) throw setupError();
      const user = await registerViaApi(sink(), uniqueUser('toast'));
      await scenario('toasts-desktop', DESKTOP, async (page) => {
        await loginThroughUi(page, user, '/', appPath);
        await assertToastsClearOfHeader(page, 'desktop');
        await shot(page, 'e2e-toast-desktop');
        const toast = page.locator('.toast').filter({ hasText: 'Successfully logged in' });
        await toast.getByRole('button', { name: 'Dismiss' }).click();
        await toast.waitFor({ state: 'detached', timeout: 1000 });
      });
      await scenario('toasts-phone', PHONE, async (page) => {
        await loginThroughUi(page, user, '/user', appPath);
        await assertToastsClearOfHeader(page, 'phone');
        // The phone menu drops down from the header: toasts move below it.
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).waitFor();
        await assertToastsClearOfHeader(page, 'phone, menu open');
        await shot(page, 'e2e-toast-phone-menu');
      });
    });

    test('(r3) the comment box takes no more than its counter allows, and a place is bookmarked once', { timeout: 240_000 }, async () => {
      if (setupError()) throw setupError();
      const user = await registerViaApi(sink(), uniqueUser('cap'));
      const book = await titled(BOOK_QUERY);
      await scenario('comment-cap', DESKTOP, async (page) => {
        await loginThroughUi(page, user, `/book?book_id=${book.id}`, appPath);
        const box = page.getByLabel('Your comment');
        await box.fill('x'.repeat(2200));
        assert.equal((await box.inputValue()).length, 2000, 'typing stops at 2,000 characters');
        await assertText(page.getByTestId('comment-count'), '2000/2000');
        await box.fill('');
        await box.focus();
        await page.keyboard.insertText('y'.repeat(2200));
        assert.equal((await box.inputValue()).length, 2000, 'pasting stops at 2,000 characters');
        await assertText(page.getByTestId('comment-count'), '2000/2000');
        await page.getByRole('button', { name: 'Post comment' }).click();
        await page.getByTestId('comment').filter({ hasText: 'yyyy' }).first().waitFor();
        assert.equal(await box.inputValue(), '', 'the server took the whole comment');

        // One bookmark per place.
        await page.goto(`${APP_URL}/reader?book_id=${encodeURIComponent(book.id)}`);
        await openedFormat(page);
        const bookmarks = page.getByRole('toolbar', { name: 'Reader tools' }).getByRole('button', { name: 'Bookmarks', exact: true });
        if ((await bookmarks.getAttribute('aria-pressed')) !== 'true') await bookmarks.click();
        const add = page.getByTestId('bookmark-add');
        await assertText(add, 'Add bookmark here');
        await add.click();
        await assertText(add, 'This place is bookmarked');
        assert.ok(await add.isDisabled(), 'the same place cannot be bookmarked again');
        await sleep(500);
        assert.equal(await page.getByRole('list', { name: 'Bookmarks' }).getByRole('listitem').count(), 1);
      });
    });

    test('(r4) a publisher’s shelf shows each spine’s whole title', { timeout: 180_000 }, async () => {
      if (setupError()) throw setupError();
      const user = await registerViaApi(sink(), uniqueUser('shelf'));
      const long = await longestTitled('State of the Union');
      const short = await titled('The Salt Witch');
      let token = await login(user);
      await callApi('POST', '/users/add-role/', { json: { role: 'publisher' }, token });
      token = (await callApi('POST', '/users/me/switch-role/', { json: { new_role: 'publisher' }, token })).access_token;
      const me = await callApi('GET', '/users/me/', { token });
      for (const b of [long, short]) {
        await callApi('POST', '/publish_book_status', { params: { user_id: me.user_id, book_id: b.id, on_or_off: 'on' }, token });
      }
      for (const [name, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
        await scenario(`spines-${name}`, options, async (page) => {
          await page.goto(`${APP_URL}/publisher/book?publisher_id=${encodeURIComponent(me.user_id)}`);
          const shelf = page.getByTestId('shelf');
          await shelf.locator('.spine').nth(1).waitFor();
          const spines = await shelf.locator('.spine').evaluateAll((els) =>
            els.map((el) => {
              const title = el.querySelector('.spine-title');
              const s = el.getBoundingClientRect();
              const t = title?.getBoundingClientRect();
              return {
                tooltip: el.getAttribute('title'),
                text: title?.textContent ?? null,
                inside: !!t && t.left >= s.left - 1 && t.right <= s.right + 1 && t.top >= s.top - 1 && t.bottom <= s.bottom + 1,
                clipped: !!title && (title.scrollHeight > title.clientHeight + 1 || title.scrollWidth > title.clientWidth + 1),
              };
            }),
          );
          for (const b of [long, short]) {
            const spine = spines.find((s) => s.text === b.title);
            assert.ok(spine, `a spine reads "${b.title}" in full (saw ${JSON.stringify(spines.map((s) => s.text))})`);
            assert.ok(spine.inside && !spine.clipped, `"${b.title}" fits its spine: ${JSON.stringify(spine)}`);
            assert.ok(spine.tooltip?.startsWith(b.title), `the tooltip reads the whole title: ${spine.tooltip}`);
          }
          await shot(page, `e2e-spines-${name}`);
        });
      }
    });

    test('(r5) the API refuses bad fields in plain words, keeping the envelope', { timeout: 60_000 }, async () => {
      if (setupError()) throw setupError();
      const r = await rawApi('POST', '/search', { json: { query: 'whale', page: 'two' } });
      assert.equal(r.status, 400);
      assert.equal(r.body.success, false);
      assert.equal(r.body.error, 'invalid_json');
      assert.equal(r.body.message, 'page: must be a whole number, not text');
      assert.equal(r.body.data.reason, r.body.message);
    });
  });
}
