// Screenshots of pages of a running build, at desktop and phone size, for a human look.
//   node scripts/screenshots.mjs [baseUrl]   (default http://127.0.0.1:4173)
// Writes e2e/screenshots/static-<size>-<page>.png; prints console errors it saw.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DESKTOP, launchBrowser, PHONE } from '../e2e/support/browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '..', 'e2e', 'screenshots');
const base = (process.argv[2] || 'http://127.0.0.1:4173').replace(/\/$/, '');
const pages = (process.env.PAGES || '/platform/,/platform/login,/platform/login/email,/platform/login/wallet,/platform/register,/platform/admin/login,/platform/reader,/platform/h5/reader/profile,/platform/privacy').split(',');

fs.mkdirSync(out, { recursive: true });
const browser = await launchBrowser();
let problems = 0;
for (const [size, opts] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  const context = await browser.newContext(opts);
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') {
      problems++;
      console.log(`[${size}] console error: ${m.text()}`);
    }
  });
  page.on('pageerror', (e) => {
    problems++;
    console.log(`[${size}] page error: ${e.message}`);
  });
  for (const p of pages) {
    await page.goto(base + p, { waitUntil: 'networkidle' });
    const name = p.replace(/^\/platform\/?/, '').replace(/\//g, '_') || 'home';
    const file = path.join(out, `static-${size}-${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`${file}  (${page.url()})`);
  }
  await context.close();
}
await browser.close();
console.log(problems ? `${problems} console problems` : 'no console errors');
