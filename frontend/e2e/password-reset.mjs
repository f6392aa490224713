// Browser end-to-end test of a forgotten password: from the login form's "Forgot password?"
// to a code read from the mail, a new password, and logging in with it; the sessions the
// account had before stop working.
// Registered from run.mjs, which owns the browser, the SMTP sink and the helpers.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP } from './support/browser.mjs';
import { APP_URL, callApi, registerViaApi, uniqueUser } from './support/stack.mjs';
import { extractCode } from './support/smtp-sink.mjs';

/** The HTTP status a call fails with (it must fail). */
async function failingStatus(call) {
  const error = await call().then(
    () => null,
    (e) => e,
  );
  assert.ok(error, 'the call was refused');
  return Number(/-> (\d{3})/.exec(error.message)?.[1]);
}

export function passwordResetScenarios({ scenario, assertText, shot, sink, setupError, appPath }) {
  describe('password reset', { concurrency: false }, () => {
    test('(pw) a reader who forgot the password resets it with the mailed code and logs in with the new one', { timeout: 180_000 }, async () => {
      if (setupError()) throw setupError();
      const user = await registerViaApi(sink(), uniqueUser('forgot'));
      // A session opened before the reset, as on another device.
      const before = await callApi('POST', '/login/', { json: { email: user.email, password: user.password } });
      const newPassword = `${user.password}-new`;

      await scenario('password-reset', DESKTOP, async (page) => {
        await page.goto(`${APP_URL}/login/email?redirect=${encodeURIComponent('/user/profile')}`);
        const login = page.getByRole('form', { name: 'Log in with e-mail' });
        await login.getByLabel('E-mail', { exact: true }).fill(user.email);
        await login.getByRole('link', { name: 'Forgot password?' }).click();
        await page.waitForURL(appPath('/login/reset\\?'));

        // The address typed on the login form comes along.
        const ask = page.getByRole('form', { name: 'Reset your password' });
        assert.equal(await ask.getByLabel('E-mail', { exact: true }).inputValue(), user.email);
        const since = Date.now();
        await ask.getByRole('button', { name: 'Send code' }).click();
        const mail = await sink().waitForMail(user.email, { since });
        assert.match(mail.subject, /Reset your Quire password/);
        const code = extractCode(mail);

        const choose = page.getByRole('form', { name: 'Choose a new password' });
        await assertText(choose, user.email);
        await choose.getByLabel('Verification code', { exact: true }).fill(code);
        await choose.getByLabel('New password', { exact: true }).fill(newPassword);
        await choose.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
        await shot(page, 'e2e-password-reset');
        await choose.getByRole('button', { name: 'Reset password' }).click();
        await page.getByText('Your password is reset').first().waitFor();
        await page.waitForURL(appPath('/login/email\\?redirect='));

        // The old password is refused; the new one logs in and the redirect is kept.
        const again = page.getByRole('form', { name: 'Log in with e-mail' });
        await again.getByLabel('E-mail', { exact: true }).fill(user.email);
        await again.getByLabel('Password', { exact: true }).fill(user.password);
        await again.getByRole('button', { name: 'Log in' }).click();
        await page.getByText('Wrong password').first().waitFor();
        await again.getByLabel('Password', { exact: true }).fill(newPassword);
        await again.getByRole('button', { name: 'Log in' }).click();
        await page.getByText('Successfully logged in').waitFor();
        await page.waitForURL(appPath('/user/profile$'));
        await assertText(page.getByTestId('profile-email'), user.email);
      });

      // The session opened before the reset has ended: its access and refresh tokens.
      assert.equal(await failingStatus(() => callApi('GET', '/users/me/', { token: before.access_token })), 401);
      assert.equal(await failingStatus(() => callApi('POST', '/users/refresh-token/', { json: { refresh_token: before.refresh_token } })), 401);
    });
  });
}
