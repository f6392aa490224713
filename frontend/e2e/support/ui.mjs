// UI steps shared by the scenario files: polling, the e-mail login, which viewer opened.
import assert from 'node:assert/strict';
import { APP_URL } from './stack.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `read` until `ok(value)` holds; fails with the last value seen. */
export async function until(read, ok, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await read().catch((e) => `error: ${e.message}`);
    if (ok(last)) return last;
    await sleep(200);
  }
  assert.fail(`${what}: last saw ${JSON.stringify(last)}`);
}

export async function loginThroughUi(page, user, redirect, appPath) {
  await page.goto(`${APP_URL}/login/email?redirect=${encodeURIComponent(redirect)}`);
  const form = page.getByRole('form', { name: 'Log in with e-mail' });
  await form.getByLabel('E-mail', { exact: true }).fill(user.email);
  await form.getByLabel('Password', { exact: true }).fill(user.password);
  await form.getByRole('button', { name: 'Log in' }).click();
  await page.getByText('Successfully logged in').waitFor();
  const escaped = redirect === '/' ? '/?' : redirect.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await page.waitForURL(appPath(`${escaped}$`));
}

/** Which viewer opened: epub (iframe), pdf (canvas) or txt (text column). */
export async function openedFormat(page) {
  return until(
    () =>
      page.evaluate(() => {
        if (document.querySelector('[data-testid="epub-host"] iframe')) return 'epub';
        if (document.querySelector('[data-testid="pdf-host"] canvas')) return 'pdf';
        if (document.querySelector('[data-testid="txt-view"] p')) return 'txt';
        return null;
      }),
    Boolean,
    'a viewer shows the book',
    30_000,
  );
}

/** The chapter buttons of the reader's Chapters menu, opened; with their labels. */
export async function chapterEntries(page) {
  const menu = page.getByRole('navigation', { name: 'Chapters' });
  if (!(await menu.isVisible().catch(() => false))) await page.getByRole('button', { name: 'Chapters' }).click();
  const entries = menu.getByRole('button');
  await entries.first().waitFor();
  const labels = await entries.evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label') || ''));
  return { entries, labels };
}

/** Jumps to the last chapter of the sample and pages on until the end-of-sample notice shows. */
export async function readSampleToItsEnd(page, format) {
  const { entries, labels } = await chapterEntries(page);
  const open = labels.map((l, i) => [l, i]).filter(([l]) => !l.endsWith('(locked)'));
  assert.ok(open.length >= 1, 'the sample has at least one chapter');
  assert.ok(labels.some((l) => l.endsWith('(locked)')), `chapters beyond the sample are locked (saw ${labels.length} chapters)`);
  await entries.nth(open.at(-1)[1]).click();
  await sleep(800);
  const notice = page.getByTestId('trial-end');
  const next = page.getByRole('button', { name: 'Next page' });
  for (let i = 0; i < 600 && !(await notice.isVisible()); i++) {
    await next.click();
    await sleep(format === 'epub' ? 120 : 60);
  }
  return notice;
}
