// Browser end-to-end tests of the writer's side (issue 17) against a live stack with the
// manuscript service: a reader becomes a writer, uploads a generated novel (.txt) and an
// appendix (.md), watches the upload and the analysis progress, reads the analysis, is told
// "We already have this!" uploading it again, edits the tags, publishes the book and finds
// it in the shop's search; on a phone, the h5 page; and a real published story (from the
// development set of crates/analysis/data/real_books) uploaded, its analysis read with the
// reasons behind it: why the genre, where the summary comes from, the lead named.
// Registered from run.mjs, which owns the browser, the SMTP sink and the helpers.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE } from './support/browser.mjs';
import { realBook } from './support/real-books.mjs';
import { APP_URL, callApi, registerViaApi, uniqueUser } from './support/stack.mjs';
import { loginThroughUi, sleep, until } from './support/ui.mjs';

const HERO = 'Marigold Vance';
const HERO_FIRST = HERO.split(' ')[0];
const CHAPTERS = ['The Light', 'The Bottle', 'The Crossing', 'The Harbour'];

/** A small deterministic random source (mulberry32) seeded by a text. */
function randomFrom(seed) {
  let a = [...seed].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 2654435761) >>> 0, 1779033703);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = {
  verb: ['watched', 'counted', 'mended', 'wound', 'painted', 'carried', 'cleaned', 'studied', 'folded', 'lit', 'read', 'weighed'],
  thing: ['the grey water', 'the gulls', 'the old net', 'the brass clock', 'the lamp glass', 'the oil drums', 'the logbook', 'the letter', 'the storm shutters', 'the rope ladder', 'the tide tables', 'the kettle'],
  place: ['by the tower', 'on the shore', 'near the ferry', 'under the harbour wall', 'in the kitchen', 'in the lamp room', 'at the jetty', 'beside the boathouse', 'on the cliff path', 'behind the chapel'],
  sky: ['calm', 'restless', 'silver', 'black', 'green', 'bruised', 'bright', 'heavy'],
  said: ['the light must not go out tonight', 'someone wrote this before we were born', 'the ferry is late again', 'keep the shutters closed', 'the tide turns at four', 'my mother knew this island'],
};

/**
 * A short novel with a named main character, in chapters a reader (and a parser) can see.
 * Its sentences are drawn at random from `seed`, so every run uploads a text of its own
 * (the service refuses a text that is the same as, or nearly the same as, one it has).
 */
export function generatedNovel(seed) {
  const rnd = randomFrom(seed);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const sentence = () => {
    const kind = Math.floor(rnd() * 3);
    if (kind === 0) return `${HERO} ${pick(WORDS.verb)} ${pick(WORDS.thing)} ${pick(WORDS.place)}.`;
    if (kind === 1) return `"Tobias," she said, "${pick(WORDS.said)}."`;
    return `The sea was ${pick(WORDS.sky)} ${pick(WORDS.place)}, and ${HERO_FIRST} ${pick(WORDS.verb)} ${pick(WORDS.thing)}.`;
  };
  const chapters = CHAPTERS.map((title, c) => {
    const paragraphs = Array.from({ length: 14 }, () => Array.from({ length: 6 }, sentence).join(' '));
    return `Chapter ${c + 1}: ${title}\n\n${paragraphs.join('\n\n')}`;
  });
  return `The Keeper of Skerry Light (${seed})\n\n${chapters.join('\n\n\n')}\n`;
}

export function generatedAppendix(tag) {
  return `# Chapter 5: The Letter\n\n${HERO} kept the letter (${tag}) in a tin box by the lamp.\n\nShe never answered it, and she never threw it away.\n`;
}

/** Records what the upload's progress panel shows, from the page itself (it can be brief). */
async function recordProgress(page) {
  await page.evaluate(() => {
    const seen = (window.__uploadSeen = []);
    const note = () => {
      const read = (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? null;
      const entry = { bytes: read('upload-bytes'), step: read('upload-step'), count: read('upload-step-count') };
      const last = seen.at(-1);
      if (entry.bytes !== null && JSON.stringify(entry) !== JSON.stringify(last)) seen.push(entry);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const seenProgress = (page) => page.evaluate(() => window.__uploadSeen || []);

/** No part of the page is wider than the phone. */
async function fitsThePhone(page, what) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `${what} fits 390 px (scroll width ${width})`);
}

/** From the become-a-writer page: add the writer role, switch to it, land on `landmark`. */
export async function becomeWriter(page, landmark) {
  await page.getByTestId('become-writer').waitFor();
  await page.getByRole('button', { name: 'Add role writer' }).click();
  await page.getByRole('button', { name: 'Switch to writer' }).click();
  await page.getByText('You are now acting as writer').first().waitFor();
  await landmark.waitFor();
}

export function manuscriptScenarios({ scenario, assertText, shot, sink, setupError, appPath }) {
  describe('writing', { concurrency: false }, () => {
    test('(i) a reader becomes a writer, uploads a novel and an appendix, reads the analysis, tags, publishes and finds the book', { timeout: 600_000 }, async () => {
      if (setupError()) throw setupError();
      const user = await registerViaApi(sink(), uniqueUser('author'));
      const tag = user.username.slice(-8);
      const txt = `skerry-light-${tag}.txt`;
      const md = `appendix-${tag}.md`;
      await scenario('manuscripts', DESKTOP, async (page) => {
        await loginThroughUi(page, user, '/writer', appPath);
        await becomeWriter(page, page.getByTestId('writer-upload'));
        await shot(page, 'e2e-writer-home');

        // Upload: two files in order, a genre, progress, then the analysis.
        await page.getByTestId('writer-upload').click();
        await page.waitForURL(appPath('/manuscript/upload$'));
        const files = [
          { name: txt, mimeType: 'text/plain', buffer: Buffer.from(generatedNovel(tag)) },
          { name: md, mimeType: 'text/markdown', buffer: Buffer.from(generatedAppendix(tag)) },
        ];
        await page.getByLabel('Manuscript files').setInputFiles(files);
        const listed = page.getByRole('list', { name: 'Files to upload' }).getByTestId('upload-file');
        assert.equal(await listed.count(), 2);
        await assertText(listed.nth(0), txt);
        await assertText(listed.nth(1), md);
        await page.getByLabel('Genre').selectOption('Literary Fiction');
        await recordProgress(page);
        await page.getByTestId('upload-submit').click();
        await page.getByTestId('upload-progress').waitFor();
        await shot(page, 'e2e-upload-progress');
        await page.waitForURL(appPath('/manuscript/analysis\\?id=[^&]+$'), { timeout: 180_000 });
        const progress = await seenProgress(page);
        console.log(`  upload progress seen: ${JSON.stringify(progress)}`);
        assert.ok(progress.some((p) => p.bytes?.endsWith('· 100%')), 'the bytes bar reached 100%');
        assert.ok(
          progress.some((p) => p.step && p.step !== 'Analysis starts once the files are sent'),
          'the analysis phase showed after the bytes were sent',
        );
        const manuscriptId = new URL(page.url()).searchParams.get('id');

        // The analysis: everything found.
        const title = ((await page.getByTestId('analysis-title').textContent()) || '').trim();
        assert.ok(title.length > 0 && title !== 'Untitled manuscript', `the manuscript has a title (${title})`);
        // The analysis may name the hero by the first name alone.
        await assertText(page.getByTestId('analysis-characters'), HERO_FIRST);
        const chapters = page.getByTestId('analysis-chapter');
        await chapters.first().waitFor();
        const headings = (await chapters.locator('h3').allTextContents()).map((t) => t.trim());
        for (const name of [...CHAPTERS, 'The Letter']) {
          assert.ok(headings.some((h) => h.includes(name)), `a chapter "${name}" was found (${headings.join(' | ')})`);
        }
        assert.ok((await page.getByTestId('quality-part').count()) >= 1, 'quality scores are shown');
        await page.getByTestId('analysis-ai').getByTestId('ai-probability').waitFor();
        await page.getByTestId('ai-notice').first().waitFor();
        assert.match(((await page.getByTestId('stat-words').textContent()) || '').trim(), /^[\d,]+$/);
        await shot(page, 'e2e-analysis');

        // The same text again: the service knows it, and the form says so in place.
        await page.goto(`${APP_URL}/manuscript/upload`);
        await page.getByLabel('Manuscript files').setInputFiles(files);
        await page.getByTestId('upload-submit').click();
        await assertText(page.getByTestId('upload-error'), 'We already have this!');
        assert.equal(await listed.count(), 2, 'the files stay in the form');
        await shot(page, 'e2e-upload-duplicate');
        await page.goto(`${APP_URL}/manuscript/analysis?id=${manuscriptId}`);

        // Tags: add one, save, and the book carries it.
        await page.getByRole('navigation', { name: 'Manuscript' }).getByRole('link', { name: 'Tags' }).click();
        await page.waitForURL(appPath(`/manuscript/tags\\?id=${manuscriptId}$`));
        const editor = page.getByTestId('tag-editor');
        const newTag = `skerry-${tag}`;
        await editor.getByLabel('Tags', { exact: true }).fill(newTag);
        await editor.getByLabel('Tags', { exact: true }).press('Enter');
        await assertText(editor.getByTestId('tag-chip').last(), newTag);
        await editor.getByTestId('tags-save').click();
        await page.getByText('Book saved').first().waitFor();
        const pricing = await page.getByRole('navigation', { name: 'Manuscript' }).getByRole('link', { name: 'Pricing' }).getAttribute('href');
        const bookId = new URL(pricing, APP_URL).searchParams.get('book_id');
        const token = await page.evaluate(() => localStorage.getItem('access_token'));
        const [book] = await callApi('GET', '/get_books', { params: { book_id: bookId }, token });
        assert.ok(book.tags.includes(newTag), `the book's tags have ${newTag} (${book.tags.join(', ')})`);
        await shot(page, 'e2e-tags');

        // Publish from the analysis; the list shows it.
        await page.getByRole('navigation', { name: 'Manuscript' }).getByRole('link', { name: 'Analysis' }).click();
        const toggle = page.getByTestId('publish-switch').getByRole('switch');
        await until(() => toggle.isEnabled(), Boolean, 'the publish switch is ready');
        assert.equal(await toggle.getAttribute('aria-checked'), 'false');
        await toggle.click();
        await page.getByText('Published: the book is in the shop').first().waitFor();
        assert.equal(await toggle.getAttribute('aria-checked'), 'true');
        await page.goto(`${APP_URL}/manuscript`);
        const row = page.getByTestId('manuscript-row').filter({ hasText: title }).first();
        await assertText(row, 'Published');
        await shot(page, 'e2e-manuscripts-list');

        // The shop's search finds it (the index follows the catalog's events).
        const query = encodeURIComponent(title);
        await until(
          async () => {
            await page.goto(`${APP_URL}/?q=${query}`);
            await page.getByTestId('search-summary').waitFor();
            return page.locator('main').getByText(title, { exact: true }).count();
          },
          (n) => n > 0,
          `the search for "${title}" lists the book`,
          60_000,
        );
        await shot(page, 'e2e-manuscript-in-search');
      });
    });

    test('(j) phone: a new writer uploads from the h5 manuscripts page and finds it in the list', { timeout: 300_000 }, async () => {
      if (setupError()) throw setupError();
      const user = await registerViaApi(sink(), uniqueUser('pocket'));
      const tag = user.username.slice(-8);
      await scenario('manuscripts-phone', PHONE, async (page) => {
        await loginThroughUi(page, user, '/h5/manuscript', appPath);
        await fitsThePhone(page, 'the become-a-writer page');
        await becomeWriter(page, page.getByText('No manuscripts yet'));
        await fitsThePhone(page, 'the empty manuscripts page');

        await page.getByTestId('phone-upload-toggle').click();
        await page.getByLabel('Manuscript files').setInputFiles([
          { name: `pocket-${tag}.md`, mimeType: 'text/markdown', buffer: Buffer.from(`# Pocket Tides ${tag}\n\n${generatedNovel(`${tag}-phone`)}`) },
        ]);
        await fitsThePhone(page, 'the upload form');
        await shot(page, 'e2e-h5-upload');
        await page.getByTestId('upload-submit').click();
        await page.waitForURL(appPath('/manuscript/analysis\\?id=[^&]+$'), { timeout: 180_000 });
        await assertText(page.getByTestId('analysis-characters'), HERO_FIRST);
        await sleep(300);
        await fitsThePhone(page, 'the analysis');
        const title = ((await page.getByTestId('analysis-title').textContent()) || '').trim();

        await page.goto(`${APP_URL}/h5/manuscript`);
        const card = page.getByTestId('manuscript-row').filter({ hasText: title }).first();
        await assertText(card, 'Analysed');
        await fitsThePhone(page, 'the list of manuscripts');
        await shot(page, 'e2e-h5-manuscripts');
      });
    });

    test('(k) a writer uploads a real published story and reads why the analysis says what it says', { timeout: 300_000 }, async () => {
      if (setupError()) throw setupError();
      // A short story of the development set; its lead as the manifest labels it.
      const work = realBook('hop-frog');
      assert.ok(work.lead.length > 0, 'the manifest names the lead');
      const user = await registerViaApi(sink(), uniqueUser('realbook'));
      await scenario('manuscripts-real-book', DESKTOP, async (page) => {
        await loginThroughUi(page, user, '/writer', appPath);
        await becomeWriter(page, page.getByTestId('writer-upload'));
        await page.getByTestId('writer-upload').click();
        await page.waitForURL(appPath('/manuscript/upload$'));
        // No genre: the analysis chooses, and says why.
        await page.getByLabel('Manuscript files').setInputFiles([
          { name: `${work.id}.txt`, mimeType: 'text/plain', buffer: Buffer.from(work.text) },
        ]);
        await page.getByTestId('upload-submit').click();
        await page.waitForURL(appPath('/manuscript/analysis\\?id=[^&]+$'), { timeout: 180_000 });

        // The genre shown, and the reasons for it.
        const genre = ((await page.getByTestId('analysis-genre-name').textContent()) || '').trim();
        assert.ok(genre.length > 0, 'a genre is shown');
        const why = page.getByTestId('analysis-why-genre');
        await why.getByRole('heading', { name: 'Why this genre' }).waitFor();
        await assertText(why.getByTestId('genre-reason'), genre);
        await assertText(why.getByTestId('genre-hint'), 'Chosen by the analysis');
        const passages = why.getByTestId('genre-passage');
        assert.ok((await passages.count()) >= 1, 'at least one deciding passage');
        await assertText(passages.first().getByTestId('genre-passage-chapter'), 'Chapter');
        await assertText(passages.first().getByTestId('genre-passage-probability'), genre);
        const excerpt = ((await passages.first().locator('blockquote').textContent()) || '').trim();
        const letters = (t) => t.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
        assert.ok(excerpt && letters(work.text).includes(letters(excerpt)), `the passage is the story's own (${excerpt})`);
        // The words behind it, behind a disclosure the writer opens.
        const features = why.getByTestId('genre-features');
        await features.locator('summary').click();
        await features.getByTestId('genre-feature').first().waitFor();
        await shot(page, 'e2e-analysis-why-genre');

        // Where the summary comes from: the story's own sentences, the short summary's marked.
        const sourcesCard = page.getByTestId('analysis-summary-sources');
        await sourcesCard.getByRole('heading', { name: 'Where the summary comes from' }).waitFor();
        const sources = sourcesCard.getByTestId('summary-source');
        assert.ok((await sources.count()) >= 1, 'the summary sources are listed');
        assert.ok((await sourcesCard.locator('[data-testid="summary-source"][data-in-short="true"]').count()) >= 1, 'some feed the short summary');
        const source = ((await sources.first().locator('blockquote').textContent()) || '').trim();
        assert.ok(source && letters(work.text).includes(letters(source)), `the source is the story's own (${source})`);

        // The lead is named (a character sharing a word of one of the lead's names, as the
        // development set's test counts it), and the quality says what it judged the text as.
        const nameWords = (name) => name.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter((w) => w.length >= 2);
        const characters = (await page.getByTestId('analysis-characters').locator('li').allTextContents()).map((c) => c.trim());
        const leadWords = new Set(work.lead.flatMap(nameWords));
        assert.ok(
          characters.some((c) => nameWords(c).some((w) => leadWords.has(w))),
          `the lead (${work.lead.join(' or ')}) is among the characters (${characters.join(', ')})`,
        );
        await assertText(page.getByTestId('quality-kind'), 'Judged as prose');
        await shot(page, 'e2e-analysis-real-book');
      });
    });
  });
}
