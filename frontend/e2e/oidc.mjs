// Browser end-to-end tests of single sign-on through an OpenID Connect provider (issue 19)
// against a live stack whose auth service trusts the test provider (testing/oidc-provider,
// started by the e2e script; see /work/notes/oidc-e2e.md): a new person signs in with the
// provider from the login page and lands on /reader signed in, with an account made from
// the provider's verified e-mail; a person whose e-mail the provider has not verified is
// told so on the callback page, and stays signed out.
// The test provider has no login page: it signs in as the request's `login_hint`, which a
// real person would type at the provider. The browser's request to the provider is given
// one here, on its way out.
// Registered from run.mjs, which owns the browser, the SMTP sink and the helpers.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE } from './support/browser.mjs';
import { APP_URL, callApi, uniqueUser } from './support/stack.mjs';

/** Sends the authorization request to the provider as `email` would sign in there. */
async function signInAtProviderAs(page, email) {
  const seen = [];
  await page.route(
    (url) => url.searchParams.has('code_challenge') && url.searchParams.has('state') && !url.searchParams.has('login_hint'),
    (route) => {
      const url = new URL(route.request().url());
      seen.push(url);
      url.searchParams.set('login_hint', email);
      return route.fulfill({ status: 302, headers: { location: url.toString() } });
    },
  );
  return seen;
}

/** Starts from the login page and follows the provider back to /platform/login/oidc. */
async function startFromLoginPage(page, appPath) {
  const config = await callApi('GET', '/auth/oidc');
  assert.equal(config?.enabled, true, 'the e2e stack has an OpenID Connect provider configured (QUIRE_OIDC_ISSUER)');
  await page.goto(`${APP_URL}/login`);
  const button = page.getByTestId('oidc-signin');
  await button.waitFor();
  assert.equal(((await button.textContent()) || '').trim(), `Sign in with ${config.display_name}`);
  await button.click();
  await page.waitForURL(appPath('/login/oidc\\?'), { timeout: 30_000 });
  return config;
}

export function oidcScenarios({ scenario, assertText, shot, setupError, appPath }) {
  describe('single sign-on (OpenID Connect)', { concurrency: false }, () => {
    test('(w) a new person signs in through the provider and lands signed in', { timeout: 120_000 }, async () => {
      if (setupError()) throw setupError();
      const { email } = uniqueUser('sso');
      await scenario('oidc-signin', DESKTOP, async (page) => {
        const asked = await signInAtProviderAs(page, email);
        await startFromLoginPage(page, appPath);
        assert.equal(asked.length, 1, 'the browser went to the provider once');
        assert.equal(asked[0].searchParams.get('redirect_uri'), `${APP_URL}/login/oidc`, 'the provider sends the browser back to /platform/login/oidc');
        assert.equal(asked[0].searchParams.get('code_challenge_method'), 'S256', 'PKCE with S256');
        await page.getByText('Successfully logged in').first().waitFor();
        await page.waitForURL(appPath('/reader$'));
        const stored = await page.evaluate(() => ({
          token: localStorage.getItem('access_token'),
          user: JSON.parse(localStorage.getItem('userInfo') || 'null'),
          pending: sessionStorage.getItem('quire.oidc'),
        }));
        assert.ok(stored.token, 'access_token stored');
        assert.equal(stored.user?.email, email, 'the account carries the provider’s e-mail');
        assert.equal(stored.pending, null, 'the state is used once');
        const me = await callApi('GET', '/users/me/', { token: stored.token });
        assert.equal(me.email, email, 'the token is the new account’s');
        // The header shows a signed-in person: the profile opens without a login.
        await page.goto(`${APP_URL}/user/profile`);
        await assertText(page.getByTestId('profile-email'), email);
        await shot(page, 'e2e-oidc-signed-in');
      });
    });

    test('(x) phone: an e-mail the provider has not verified is refused on the callback page', { timeout: 120_000 }, async () => {
      if (setupError()) throw setupError();
      const { email } = uniqueUser('unverified');
      await scenario('oidc-unverified', PHONE, async (page) => {
        await signInAtProviderAs(page, email);
        await startFromLoginPage(page, appPath);
        const failure = page.getByTestId('oidc-failure');
        await failure.waitFor();
        const reason = ((await page.getByTestId('oidc-failure-reason').textContent()) || '').trim();
        assert.ok(reason.length > 10, `the page says why (saw "${reason}")`);
        assert.match(page.url(), /\/platform\/login\/oidc\?/, 'the page stays put to show it');
        assert.equal(await page.evaluate(() => localStorage.getItem('access_token')), null, 'nobody is signed in');
        await shot(page, 'e2e-oidc-unverified');
        await failure.getByRole('link', { name: 'Back to log in' }).click();
        await page.waitForURL(appPath('/login$'));
      });
    });
  });
}
