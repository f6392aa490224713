// Browser end-to-end tests of the admin area (issue 19) against a live stack: the admin
// logs in, sees the dashboard's figures and charts (and the page fits a phone), renames
// the assistant in /admin/settings, the change is in the audit log, and a reader's next
// chat reply introduces itself by the new name. The old name is put back afterwards.
// Registered from run.mjs, which owns the browser, the SMTP sink and the helpers.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE } from './support/browser.mjs';
import { ADMIN_EMAIL, ADMIN_PASSWORD, APP_URL, callApi, registerViaApi, uniqueUser } from './support/stack.mjs';
import { loginThroughUi, until } from './support/ui.mjs';

const textOf = async (locator) => ((await locator.first().textContent()) || '').replace(/\s+/g, ' ').trim();

/** The admin's access token, through the REST API. */
async function adminToken() {
  const reply = await callApi('POST', '/login/', { json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  assert.ok(reply?.access_token, 'the admin logs in');
  return reply.access_token;
}

/** Logs in on /admin/login and opens `path`. */
async function adminLogin(page, path, appPath) {
  await page.goto(`${APP_URL}/admin/login`);
  await page.getByLabel('Admin e-mail', { exact: true }).fill(ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Enter admin area' }).click();
  await page.waitForURL(appPath('/admin/users$'));
  await page.goto(`${APP_URL}${path}`);
}

/** A name the assistant has never had: letters only, so it passes the server's rule. */
function freshName() {
  const letters = Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
  return `Ada ${letters[0].toUpperCase()}${letters.slice(1)}`;
}

export function adminScenarios({ scenario, shot, sink, setupError, appPath }) {
  describe('the admin area', { concurrency: false }, () => {
    test('(u) the admin reads the dashboard, renames the assistant, and a reader’s next reply uses the new name', { timeout: 300_000 }, async () => {
      if (setupError()) throw setupError();
      const token = await adminToken();
      const before = await callApi('GET', '/admin/settings', { token });
      const name = freshName();
      const reader = await registerViaApi(sink(), uniqueUser('asker'));
      try {
        await scenario('admin-dashboard', DESKTOP, async (page) => {
          await adminLogin(page, '/admin', appPath);
          const figures = page.getByTestId('admin-figures');
          await figures.waitFor();
          const users = await textOf(page.getByTestId('figure-users-value'));
          assert.match(users, /^[\d,.]+[KM]?$/, `the user count is a number (saw "${users}")`);
          assert.ok(Number(users.replace(/,/g, '')) >= 2 || /[KM]$/.test(users), 'the admin and the new reader are counted');
          assert.match(await textOf(page.getByTestId('figure-books-value')), /^[\d,.]+[KM]?$/);
          assert.match(await textOf(page.getByTestId('figure-revenue-value')), /^\$[\d,]+\.\d{2}$/);
          assert.match(await textOf(page.getByTestId('figure-escrow-value')), /^\$[\d,]+\.\d{2}$/);
          assert.equal(await page.getByTestId('part-unavailable').count(), 0, 'every part of the dashboard answered');
          // The charts are drawn (recharts' SVG), not tables of numbers.
          await until(() => page.locator('[data-testid="chart-campaigns"] svg').count(), (n) => n >= 1, 'the campaigns chart is drawn');
          await until(() => page.locator('[data-testid="chart-services"] svg').count(), (n) => n >= 1, 'the services chart is drawn');
          await page.getByTestId('chart-growth').waitFor();
          await page.getByRole('button', { name: '90 days' }).click();
          await until(() => page.getByRole('button', { name: '90 days' }).getAttribute('aria-pressed'), (v) => v === 'true', 'the range switches to 90 days');
          await figures.waitFor();
          await page.getByTestId('audit-log').waitFor();
          await shot(page, 'e2e-admin-dashboard');

          // Settings: the assistant's name.
          await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' }).click();
          await page.waitForURL(appPath('/admin/settings$'));
          const field = page.getByLabel("Assistant's name", { exact: true });
          await until(() => field.inputValue(), (v) => v === before.assistant_name, 'the form shows the current name');
          await field.fill('9 lives');
          await page.getByRole('button', { name: 'Save settings' }).click();
          await page.getByText('Must start with a letter').waitFor();
          await field.fill(name);
          await page.getByRole('button', { name: 'Save settings' }).click();
          await page.getByTestId('settings-saved').waitFor();
          await shot(page, 'e2e-admin-settings');
          const after = await callApi('GET', '/admin/settings', { token });
          assert.equal(after.assistant_name, name, 'the server has the new name');

          // The change is in the audit log, with the value before and after.
          await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Dashboard' }).click();
          const entry = page.getByTestId('audit-entry').filter({ hasText: 'assistant_name' }).first();
          await entry.waitFor();
          const change = await textOf(entry.getByTestId('audit-change'));
          assert.ok(change.includes(before.assistant_name) && change.includes(name) && change.indexOf(before.assistant_name) < change.lastIndexOf(name), `the entry shows ${before.assistant_name} -> ${name} (saw "${change}")`);
          assert.equal(await page.getByTestId('audit-broken').count(), 0, 'the audit chain is intact');
        });

        // A reader's next reply uses the new name, without a restart.
        await scenario('admin-assistant-name', DESKTOP, async (page) => {
          await loginThroughUi(page, reader, '/reader', appPath);
          await page.getByRole('region', { name: `Chat with ${name}` }).waitFor();
          const input = page.getByTestId('chat-input');
          await input.fill('hello');
          await input.press('Enter');
          const said = await until(
            () => page.getByTestId('bot-message').allTextContents(),
            (lines) => lines.some((l) => l.includes(name)),
            `a reply introduces itself as ${name}`,
            60_000,
          );
          assert.ok(said.some((l) => l.includes(`I'm ${name}`) || l.includes(`${name} here`)), `the reply says who it is (saw ${JSON.stringify(said)})`);
          await shot(page, 'e2e-admin-assistant-renamed');
        });
      } finally {
        await callApi('PUT', '/admin/settings', { json: { assistant_name: before.assistant_name }, token: await adminToken() });
      }
    });

    test('(v) phone: the dashboard fits the screen', { timeout: 120_000 }, async () => {
      if (setupError()) throw setupError();
      await scenario('admin-dashboard-phone', PHONE, async (page) => {
        await adminLogin(page, '/admin', appPath);
        await page.getByTestId('admin-figures').waitFor();
        await until(() => page.locator('[data-testid="chart-campaigns"] svg').count(), (n) => n >= 1, 'the charts are drawn on the phone');
        await page.getByTestId('audit-log').waitFor();
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 390, `the dashboard fits 390 px (scroll width ${width})`);
        await shot(page, 'e2e-admin-dashboard-phone');
      });
    });
  });
}
