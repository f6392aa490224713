// Browser end-to-end tests against a live stack: accounts (here), reading (reader.mjs),
// the wallet: recharging and buying (wallet.mjs), writing: manuscripts (manuscripts.mjs),
// Quinn, the book assistant (chat.mjs), and pricing, crowd-funding and analytics (pricing.mjs).
//   npm run e2e        (node e2e/run.mjs; node's test runner prints pass/fail counts)
// Env: QUIRE_BASE_URL (http://127.0.0.1:8080), QUIRE_E2E_SMTP_PORT (2526),
//      QUIRE_ADMIN_EMAIL / QUIRE_ADMIN_PASSWORD, CHROMIUM_PATH (/usr/bin/chromium),
//      QUIRE_E2E_WAIT_SECONDS (60: how long to wait for the stack to answer),
//      QUIRE_E2E_ONLY (a pattern: only the tests whose names match run, e.g. "crowd-funding").
// The stack must send its mail to the SMTP sink this script starts on 127.0.0.1.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DESKTOP, launchBrowser, PHONE } from './support/browser.mjs';
import { createTestWallet } from './support/eth-wallet.mjs';
import { extractCode, startSmtpSink } from './support/smtp-sink.mjs';
import { readerScenarios } from './reader.mjs';
import { walletScenarios } from './wallet.mjs';
import { manuscriptScenarios } from './manuscripts.mjs';
import { passwordResetScenarios } from './password-reset.mjs';
import { roughEdgeScenarios } from './rough-edges.mjs';
import { chatScenarios } from './chat.mjs';
import { pricingScenarios } from './pricing.mjs';
import { adminScenarios } from './admin.mjs';
import { oidcScenarios } from './oidc.mjs';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  APP_URL,
  registerViaApi,
  SMTP_PORT,
  uniqueUser,
  waitForStack,
} from './support/stack.mjs';

// QUIRE_E2E_ONLY: run again under node's --test-name-pattern (which NODE_OPTIONS may not carry).
if (process.env.QUIRE_E2E_ONLY && !process.execArgv.some((a) => a.startsWith('--test-name-pattern'))) {
  const { spawnSync } = await import('node:child_process');
  const only = spawnSync(process.execPath, [`--test-name-pattern=${process.env.QUIRE_E2E_ONLY}`, ...process.execArgv, fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
  });
  process.exit(only.status ?? 1);
}

const SHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
fs.mkdirSync(SHOTS, { recursive: true });

let browser;
let sink;
/** The user registered through the UI in scenario (a); scenario (b) looks for it. */
let readerUser;

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const appPath = (p) => new RegExp(`^${escapeRe(APP_URL)}${p}`);

async function newPage(options) {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`  [page error] ${e.message}`));
  // What the Content-Security-Policy blocked: the app must work within it.
  page.cspViolations = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) page.cspViolations.push(m.text());
    // Failed requests are logged by the browser too (a new user's wallet answers 404 once).
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) console.log(`  [console] ${m.text()}`);
  });
  return page;
}

/** Runs a scenario; on failure leaves a screenshot and the URL behind for the reader of the log. */
async function scenario(name, options, body) {
  if (setupError) throw setupError;
  const page = await newPage(options);
  try {
    await body(page);
    assert.deepEqual(page.cspViolations, [], 'the page broke the Content-Security-Policy');
  } catch (error) {
    const file = path.join(SHOTS, `failure-${name}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => {});
    error.message += `\n  at ${page.url()} (screenshot: ${file})`;
    throw error;
  } finally {
    await page.context().close();
  }
}

const shot = (page, name) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

// A set-up failure is reported by every test (as a failure, not a silent cancel).
let setupError = null;
before(async () => {
  try {
    sink = await startSmtpSink({ port: SMTP_PORT });
    await waitForStack();
    browser = await launchBrowser();
  } catch (error) {
    setupError = error;
  }
});

after(async () => {
  await browser?.close();
  await sink?.close();
});

describe('accounts', { concurrency: false }, () => {
  test('(a) a new reader registers, logs in, manages roles and logs out', { timeout: 180_000 }, async () => {
    const user = uniqueUser('reader');
    await scenario('register-login', DESKTOP, async (page) => {
      // Register: e-mail -> code from the mail -> account details.
      await page.goto(`${APP_URL}/register`);
      const since = Date.now();
      await page.getByLabel('E-mail', { exact: true }).fill(user.email);
      await page.getByRole('button', { name: 'Send code' }).click();
      const code = extractCode(await sink.waitForMail(user.email, { since }));
      await page.getByLabel('Verification code', { exact: true }).fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByLabel('Username', { exact: true }).fill(user.username);
      assert.equal(await page.evaluate(() => localStorage.getItem('isVerified')), 'true');
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByLabel('Confirm password', { exact: true }).fill(user.password);
      await shot(page, 'e2e-register-account-step');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL(appPath('/login\\?redirect='));
      readerUser = user;

      // Log in by e-mail; the redirect travels along and ends on /reader.
      await page.getByRole('link', { name: /Log in with e-mail/ }).click();
      await page.waitForURL(appPath('/login/email\\?redirect='));
      const form = page.getByRole('form', { name: 'Log in with e-mail' });
      await form.getByLabel('E-mail', { exact: true }).fill(user.email);
      await form.getByLabel('Password', { exact: true }).fill(user.password);
      await form.getByRole('button', { name: 'Log in' }).click();
      await page.getByText('Successfully logged in').waitFor();
      await page.waitForURL(appPath('/reader$'));
      const stored = await page.evaluate(() => ({
        token: localStorage.getItem('access_token'),
        user: JSON.parse(localStorage.getItem('userInfo') || 'null'),
      }));
      assert.ok(stored.token, 'access_token stored');
      assert.equal(stored.user?.email, user.email);
      assert.ok(stored.user?.user_id !== undefined, 'userInfo has user_id');

      // Profile shows who we are.
      await page.goto(`${APP_URL}/user/profile`);
      await assertText(page.getByTestId('profile-username'), user.username);
      await assertText(page.getByTestId('profile-email'), user.email);
      await shot(page, 'e2e-profile');

      // Settings: add the writer role, switch to it, see the current role change.
      await page.goto(`${APP_URL}/user/settings`);
      await assertText(page.getByTestId('current-role'), 'reader');
      const tokenBefore = await page.evaluate(() => localStorage.getItem('access_token'));
      await page.getByRole('button', { name: 'Add role writer' }).click();
      await page.getByRole('button', { name: 'Switch to writer' }).click();
      await assertText(page.getByTestId('current-role'), 'writer');
      await assertText(page.getByTestId('header-role'), 'writer');
      const after = await page.evaluate(() => ({
        token: localStorage.getItem('access_token'),
        role: localStorage.getItem('currentRole'),
        user: JSON.parse(localStorage.getItem('userInfo') || 'null'),
      }));
      assert.notEqual(after.token, tokenBefore, 'switch-role replaced the access token');
      assert.equal(after.role, 'writer');
      assert.equal(after.user?.current_role, 'writer');
      await shot(page, 'e2e-settings');

      // Log out: storage cleared (isVerified kept), back on /login.
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL(appPath('/login$'));
      const left = await page.evaluate(() => ({ ...localStorage }));
      assert.equal(left.access_token, undefined);
      assert.equal(left.isVerified, 'true');
    });
  });

  test('(b) the admin area needs the admin login and lists users', { timeout: 120_000 }, async () => {
    await scenario('admin', DESKTOP, async (page) => {
      await page.goto(`${APP_URL}/admin/users`);
      await page.waitForURL(appPath('/admin/login$'));
      await page.getByLabel('Admin e-mail', { exact: true }).fill(ADMIN_EMAIL);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Enter admin area' }).click();
      await page.waitForURL(appPath('/admin/users$'));
      assert.equal(await page.evaluate(() => localStorage.getItem('adminLoggedIn')), 'true');
      const table = page.getByRole('table', { name: 'Users' });
      await table.waitFor();
      const rows = table.locator('tbody tr');
      assert.ok((await rows.count()) >= 1, 'the users table has rows');
      await assertText(rows.first(), '@', 'a row shows an e-mail');

      if (readerUser) {
        // Page through (up to 50 pages) looking for the user of scenario (a).
        let found = false;
        for (let i = 0; i < 50 && !found; i++) {
          found = (await table.getByText(readerUser.email, { exact: true }).count()) > 0;
          if (found) break;
          const next = page.getByRole('button', { name: 'Next' });
          if (await next.isDisabled()) break;
          const pageLabel = await page.getByText(/^Page \d+ of \d+$/).textContent();
          await next.click();
          await page.waitForFunction((prev) => !document.body.innerText.includes(prev), pageLabel);
          await table.locator('tbody tr').first().waitFor();
        }
        assert.ok(found, `the users table lists ${readerUser.email}`);
      }
      await shot(page, 'e2e-admin-users');

      // Create a user from the admin form.
      const created = uniqueUser('made');
      await page.getByRole('button', { name: 'Create user' }).click();
      const form = page.getByRole('form', { name: 'Create user' });
      await form.getByLabel('E-mail', { exact: true }).fill(created.email);
      await form.getByLabel('Username', { exact: true }).fill(created.username);
      await form.getByLabel('Password', { exact: true }).fill(created.password);
      await form.getByRole('checkbox', { name: 'writer' }).check();
      await form.getByRole('button', { name: 'Create user' }).click();
      await page.getByText('User created').waitFor();
    });
  });

  test('(c) h5: the phone profile switches role through the path', { timeout: 120_000 }, async () => {
    if (setupError) throw setupError;
    const user = await registerViaApi(sink, uniqueUser('phone'));
    await scenario('h5', PHONE, async (page) => {
      await page.goto(`${APP_URL}/login/email?redirect=${encodeURIComponent('/h5/reader/profile')}`);
      const form = page.getByRole('form', { name: 'Log in with e-mail' });
      await form.getByLabel('E-mail', { exact: true }).fill(user.email);
      await form.getByLabel('Password', { exact: true }).fill(user.password);
      await form.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(appPath('/h5/reader/profile$'));
      await assertText(page.getByTestId('profile-email'), user.email);
      assert.equal(await page.evaluate(() => localStorage.getItem('currentRole')), 'reader');
      await shot(page, 'e2e-h5-reader-profile');

      await page.getByRole('radio', { name: /writer/i }).click();
      await page.getByRole('dialog', { name: 'Become a writer?' }).getByRole('button', { name: 'Add the writer role' }).click();
      await page.waitForURL(appPath('/h5/writer/profile$'));
      await assertText(page.getByTestId('h5-role-title'), 'Writer profile');
      await assertText(page.getByTestId('profile-current-role'), 'writer');
      assert.equal(await page.evaluate(() => localStorage.getItem('currentRole')), 'writer');
      await shot(page, 'e2e-h5-writer-profile');
    });
  });
});

describe('wallet', { concurrency: false }, () => {
  test('(d) Sign-In with Ethereum through an injected wallet', { timeout: 120_000 }, async () => {
    const wallet = createTestWallet();
    const signed = [];
    await scenario('wallet-login', DESKTOP, async (page) => {
      await page.exposeFunction('__quireE2eSign', (param, address) => {
        signed.push({ param, address });
        return wallet.personalSign(param);
      });
      // An EIP-1193 provider like MetaMask's; it hands out the address in lower case,
      // as some wallets do, so the page has to checksum it.
      await page.addInitScript((address) => {
        window.ethereum = {
          request: async ({ method, params }) => {
            if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address];
            if (method === 'eth_chainId') return '0x1';
            if (method === 'personal_sign') return window.__quireE2eSign(params[0], params[1]);
            throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
          },
        };
      }, wallet.address.toLowerCase());

      await page.goto(`${APP_URL}/login/wallet`);
      await page.getByRole('button', { name: 'Connect wallet and sign in' }).click();
      await page.getByText('Successfully logged in').waitFor();
      await page.waitForURL(appPath('/reader$'));

      assert.equal(signed.length, 1);
      assert.equal(signed[0].address, wallet.address, 'signed with the checksummed address');
      const message = Buffer.from(signed[0].param.slice(2), 'hex').toString('utf8');
      const host = new URL(APP_URL).host;
      assert.match(message, new RegExp(`^${escapeRe(host)} wants you to sign in with your Ethereum account:\n${wallet.address}\n\nSign in to Quire\n\nURI: ${escapeRe(new URL(APP_URL).origin)}\nVersion: 1\nChain ID: 1\nNonce: \\S+\nIssued At: \\S+$`));
      const stored = await page.evaluate(() => ({
        token: localStorage.getItem('access_token'),
        user: JSON.parse(localStorage.getItem('userInfo') || 'null'),
      }));
      assert.ok(stored.token, 'access_token stored');
      assert.ok(stored.user?.user_id !== undefined, 'userInfo has user_id');
    });
  });
});

readerScenarios({ scenario, assertText, shot, sink: () => sink, setupError: () => setupError, appPath });
walletScenarios({ scenario, assertText, shot, sink: () => sink, setupError: () => setupError, appPath });
manuscriptScenarios({ scenario, assertText, shot, sink: () => sink, setupError: () => setupError, appPath });
passwordResetScenarios({ scenario, assertText, shot, sink: () => sink, setupError: () => setupError, appPath });
roughEdgeScenarios({ scenario, assertText, shot, sink: () => sink, setupError: () => setupError, appPath });
chatScenarios({ scenario, assertText, shot, sink: () => sink, setupError: () => setupError, appPath });
pricingScenarios({ scenario, assertText, shot, sink: () => sink, setupError: () => setupError, appPath });
adminScenarios({ scenario, assertText, shot, sink: () => sink, setupError: () => setupError, appPath });
oidcScenarios({ scenario, assertText, shot, sink: () => sink, setupError: () => setupError, appPath });

/** Waits (up to the default timeout) until the locator's text contains `expected`. */
async function assertText(locator, expected, message) {
  const deadline = Date.now() + 20_000;
  let last = '';
  while (Date.now() < deadline) {
    last = ((await locator.first().textContent({ timeout: 20_000 }).catch(() => '')) || '').trim();
    if (last.includes(expected)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.fail(`${message || 'text'}: expected "${expected}", saw "${last}"`);
}
