// The manuscript screens through the app's routes, against a real local HTTP server: the
// analysis (everything found, the AI check, a passage check, the publish switch), details
// and tags saved through update_book (lists comma-joined), the list with its switches, the
// writer's home, the phone page, and the ways in for visitors and readers.
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '@/app/router';
import { useAuthStore } from '@/stores/auth';
import { useToastStore } from '@/stores/toast';
import { byTestId, click, render, waitFor } from './support/catalog-dom';
import { ok, type TestServer } from './support/http-server';
import { BOOK_ID, bookReply, button, detailReply, logIn, MANUSCRIPT_ID, multipartFields, send, typeText, useTestServer, WRITER_ID } from './support/manuscripts';

const testServer = useTestServer();
let server: TestServer;
beforeEach(() => {
  server = testServer();
});

const text = (el: Element) => el.textContent ?? '';
const all = (container: ParentNode, id: string) => [...container.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
const calls = (path: string) => server.seen.filter((s) => s.url.split('?')[0] === path);

function serveManuscript(book = bookReply(), detail = detailReply()) {
  server.json(`/api/manuscripts/${MANUSCRIPT_ID}`, 200, ok(detail));
  server.json('/api/get_books', 200, ok([book]));
}

function row(id: string, extra: Record<string, unknown> = {}) {
  return {
    manuscript_id: id,
    book_id: `book-${id}`,
    title: `Manuscript ${id}`,
    genre: 'Mystery',
    state: 'analysed',
    overall_score: 68,
    ai_probability: 0.2,
    words: 41250,
    chapters: 12,
    created_at: '2026-01-05T10:00:00Z',
    ...extra,
  };
}

describe('the analysis', () => {
  it('shows everything the analysis found', async () => {
    logIn(server);
    serveManuscript();
    const { container } = await render(routes, `/manuscript/analysis?id=${MANUSCRIPT_ID}`);
    await waitFor(() => expect(text(byTestId(container, 'analysis-title'))).toBe('The Lighthouse Keeper'));
    expect(text(container.querySelector('.page-subtitle')!)).toBe('by Wren Hale · Literary');
    expect(text(byTestId(container, 'stat-overall'))).toBe('72 / 100');
    expect(text(byTestId(container, 'stat-ai'))).toBe('18%');
    expect(text(byTestId(container, 'stat-chapters'))).toBe('2');
    expect(text(byTestId(container, 'stat-words'))).toBe('5,500');

    expect(text(byTestId(container, 'analysis-short-summary'))).toBe('A keeper finds a letter in a bottle.');
    expect(text(byTestId(container, 'analysis-long-summary'))).toContain('Marigold Vance keeps the light');
    expect(text(byTestId(container, 'analysis-authors'))).toBe('Wren Hale');
    expect([...byTestId(container, 'analysis-characters').querySelectorAll('li')].map(text)).toEqual(['Marigold Vance', 'Tobias Reed']);
    expect([...byTestId(container, 'analysis-tags').querySelectorAll('li')].map(text)).toEqual(['lighthouse', 'letters']);

    expect(text(byTestId(container, 'analysis-genre-name'))).toBe('Literary');
    expect(all(container, 'genre-score').map(text)).toEqual(['Literary64%', 'Mystery21%', 'Romance15%']);
    expect(text(byTestId(container, 'analysis-genre'))).not.toContain('Show all');

    const parts = all(container, 'quality-part');
    expect(parts).toHaveLength(2);
    expect(text(parts[0])).toContain('Pacing64 / 100');
    expect(text(parts[0])).toContain('How evenly the story moves.');
    expect(text(parts[0])).toContain('Tighten the middle chapters.');
    expect(parts[0].querySelector('[role="meter"]')!.getAttribute('aria-valuenow')).toBe('64');
    expect(text(byTestId(container, 'analysis-overall'))).toBe('72 / 100 overall');

    const ai = byTestId(container, 'analysis-ai');
    expect(text(byTestId(ai, 'ai-probability'))).toBe('18%');
    expect(text(byTestId(ai, 'ai-verdict'))).toBe('Likely human');
    const signals = all(ai, 'ai-signal');
    expect(text(signals[0])).toContain('Sentence variety · 0.73');
    expect(text(signals[0])).toContain('Leans human');
    expect(signals[0].querySelector('.ms-lean-mark')!.getAttribute('style')).toContain('left: 20%');
    expect(text(signals[1])).toContain('Leans machine');
    expect(text(byTestId(ai, 'ai-notice'))).toBe('The AI check is advisory: it can be wrong, and it is no proof either way.');

    const chapters = all(container, 'analysis-chapter');
    expect(chapters.map((c) => c.querySelector('h3')!.textContent)).toEqual(['The Light', 'The Bottle']);
    expect(text(chapters[1])).toContain('3,100 words');
    expect(text(chapters[1])).toContain('AI 74%');
    expect(text(chapters[1])).toContain('A bottle washes up.');

    // The way on: details, tags, pricing; the switch shows the book's state.
    const nav = container.querySelector('nav[aria-label="Manuscript"]')!;
    expect([...nav.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      `/manuscript/analysis?id=${MANUSCRIPT_ID}`,
      `/manuscript/edit?id=${MANUSCRIPT_ID}`,
      `/manuscript/tags?id=${MANUSCRIPT_ID}`,
      `/manuscript/tags/AIPrice?id=${MANUSCRIPT_ID}&book_id=${BOOK_ID}`,
    ]);
    await waitFor(() => expect(byTestId(container, 'publish-switch').querySelector('[role="switch"]')!.getAttribute('aria-checked')).toBe('false'));
  });

  it('shows the likeliest genres first and all of them on request', async () => {
    logIn(server);
    const genres = ['Mystery', 'Thriller', 'Romance', 'Fantasy', 'Horror', 'Poetry', 'Cookery'];
    const detail = detailReply();
    detail.analyze_dict.genre_scores = genres.map((genre, i) => ({ genre, probability: (i + 1) / 28 }));
    serveManuscript(bookReply(), detail);
    const { container } = await render(routes, `/manuscript/analysis?id=${MANUSCRIPT_ID}`);
    await waitFor(() => expect(all(container, 'genre-score')).toHaveLength(5));
    expect(all(container, 'genre-score').map((g) => g.querySelector('.ms-genre-name')!.textContent)).toEqual(['Cookery', 'Poetry', 'Horror', 'Fantasy', 'Romance']);
    await click(button(byTestId(container, 'analysis-genre'), 'Show all 7 genres'));
    expect(all(container, 'genre-score')).toHaveLength(7);
  });

  it('reads the overall score under its other name and tolerates a reply with parts missing', async () => {
    logIn(server);
    serveManuscript(bookReply(), {
      manuscript_id: MANUSCRIPT_ID,
      book_id: BOOK_ID,
      title: '',
      qa: { scores: { 'Overall Score': 7.5 } },
    } as never);
    const { container } = await render(routes, `/manuscript/analysis?id=${MANUSCRIPT_ID}`);
    await waitFor(() => expect(text(byTestId(container, 'analysis-title'))).toBe('Untitled manuscript'));
    expect(text(byTestId(container, 'stat-overall'))).toBe('7.5 / 10');
    expect(text(container)).toContain('No chapters were found');
    expect(text(container)).toContain('No quality measures for this manuscript');
    expect(text(container)).toContain('No genre was found');
  });

  it('switches the book on and shows it', async () => {
    logIn(server);
    serveManuscript();
    server.json('/api/publish_book_status', 200, ok({ user_id: WRITER_ID, book_id: BOOK_ID, on: true, listed: true, updated_at: 'now' }));
    const { container } = await render(routes, `/manuscript/analysis?id=${MANUSCRIPT_ID}`);
    const toggle = await waitFor(() => {
      const t = byTestId(container, 'publish-switch').querySelector<HTMLButtonElement>('[role="switch"]')!;
      if (t.disabled) throw new Error('book not loaded');
      return t;
    });
    server.json('/api/get_books', 200, ok([bookReply({ on: true, listed: true })]));
    await click(toggle);
    await waitFor(() => expect(calls('/api/publish_book_status')).toHaveLength(1));
    expect(calls('/api/publish_book_status')[0].url).toBe(`/api/publish_book_status?user_id=${WRITER_ID}&book_id=${BOOK_ID}&on_or_off=on`);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    await waitFor(() => expect(useToastStore.getState().toasts.map((t) => t.text)).toContain('Published: the book is in the shop'));
  });

  it('checks a passage', async () => {
    logIn(server);
    serveManuscript();
    server.json('/api/v1/ai_checker', 200, ok({ probability: 0.91, verdict: 'Likely machine', signals: [], notice: 'Advisory only.' }));
    const { container } = await render(routes, `/manuscript/analysis?id=${MANUSCRIPT_ID}`);
    const box = await waitFor(() => byTestId(container, 'passage-check'));
    const submit = button(box, 'Check passage');
    await click(submit);
    expect(text(box)).toContain('This field is required');
    expect(calls('/api/v1/ai_checker')).toHaveLength(0);
    typeText(box.querySelector('textarea')!, '  It was a dark and stormy night.  ');
    await click(submit);
    const result = await waitFor(() => byTestId(box, 'passage-result'));
    expect(JSON.parse(calls('/api/v1/ai_checker')[0].body)).toEqual({ text: 'It was a dark and stormy night.' });
    expect(text(byTestId(result, 'ai-probability'))).toBe('91%');
    expect(text(byTestId(result, 'ai-verdict'))).toBe('Likely machine');
  });

  it('says when there is no manuscript to show', async () => {
    logIn(server);
    const first = await render(routes, '/manuscript/analysis');
    expect(text(first.container)).toContain('Choose a manuscript');
    first.unmount();
    server.json('/api/manuscripts/nope', 404, { code: 404, success: false, message: 'Manuscript not found', data: {} });
    const { container } = await render(routes, '/manuscript/analysis?id=nope');
    await waitFor(() => expect(text(container)).toContain('This manuscript could not be opened'));
    expect(text(container)).toContain('Manuscript not found');
    expect(useToastStore.getState().toasts).toEqual([]);
  });
});

describe('editing', () => {
  it('saves the tags as chips, joined with commas', async () => {
    logIn(server);
    serveManuscript(bookReply({ tags: ['lighthouse', 'sea'] }));
    server.json('/api/update_book/', 200, ok(bookReply({ tags: ['lighthouse', 'harbour town', 'letters'] })));
    const { container } = await render(routes, `/manuscript/tags?id=${MANUSCRIPT_ID}`);
    const editor = await waitFor(() => byTestId(container, 'tag-editor'));
    await waitFor(() => expect(all(editor, 'tag-chip').map(text)).toEqual(['lighthouse', 'sea']));
    const input = editor.querySelector<HTMLInputElement>('input')!;

    await click(button(editor, 'Remove tag sea'));
    typeText(input, 'harbour   town');
    act(() => {
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    typeText(input, 'Lighthouse, x'.replace('x', 'y'.repeat(51)));
    act(() => {
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    expect(text(editor)).toContain('Must be at most 50 characters');
    typeText(input, '');
    // The analysis' tag that is not on the book yet is offered.
    await click(button(editor, 'Add tag letters'));
    expect(all(editor, 'tag-chip').map(text)).toEqual(['lighthouse', 'harbour town', 'letters']);

    await click(button(editor, 'Save tags'));
    await waitFor(() => expect(calls('/api/update_book/')).toHaveLength(1));
    const fields = multipartFields(calls('/api/update_book/')[0].body);
    expect(fields.get('tags')).toEqual(['lighthouse,harbour town,letters']);
    expect(fields.get('uid')).toEqual([WRITER_ID]);
    expect(fields.get('book_id')).toEqual([BOOK_ID]);
    expect([...fields.keys()].sort()).toEqual(['book_id', 'tags', 'uid']);
    await waitFor(() => expect(useToastStore.getState().toasts.map((t) => t.text)).toContain('Book saved'));
  });

  it('saves only the details that changed, authors joined with commas', async () => {
    logIn(server);
    serveManuscript(bookReply({ short_summary: '', assessment_score: 72 }));
    server.json('/api/update_book/', 200, ok(bookReply()));
    const { container } = await render(routes, `/manuscript/edit?id=${MANUSCRIPT_ID}`);
    const form = await waitFor(() => {
      const f = container.querySelector<HTMLFormElement>('form[aria-label="Edit manuscript"]');
      if (!f) throw new Error('no form yet');
      return f;
    });
    const title = form.querySelector<HTMLInputElement>('input[name="title"]')!;
    expect(title.value).toBe('The Lighthouse Keeper');
    // The book has no short summary yet: the analysis' one fills it.
    expect(form.querySelector<HTMLTextAreaElement>('textarea[name="short_summary"]')!.value).toBe('A keeper finds a letter in a bottle.');

    typeText(title, '   ');
    await act(async () => form.requestSubmit());
    expect(text(form)).toContain('This field is required');
    expect(calls('/api/update_book/')).toHaveLength(0);

    typeText(title, 'The Keeper of the Light');
    typeText(form.querySelector<HTMLInputElement>('input[name="authors"]')!, 'Wren Hale,  Ada Moss ,');
    await act(async () => form.requestSubmit());
    await waitFor(() => expect(calls('/api/update_book/')).toHaveLength(1));
    const fields = multipartFields(calls('/api/update_book/')[0].body);
    expect(fields.get('title')).toEqual(['The Keeper of the Light']);
    expect(fields.get('authors')).toEqual(['Wren Hale,Ada Moss']);
    expect(fields.get('short_summary')).toEqual(['A keeper finds a letter in a bottle.']);
    expect(fields.has('long_summary')).toBe(false);
    expect(fields.has('genre')).toBe(false);
    expect(fields.has('assessment_score')).toBe(false);
  });
});

describe('the list and the writer home', () => {
  it('pages through the manuscripts and publishes one from its row', async () => {
    logIn(server);
    server.on('/api/manuscripts', (req, res) => {
      const page = Number(new URL(req.url, 'http://x').searchParams.get('page'));
      const items = page === 1 ? Array.from({ length: 10 }, (_, i) => row(`m${i + 1}`)) : [row('m11', { state: 'published', overall_score: 0 })];
      send(res, 200, ok({ items, total: 11, page, page_size: 10 }));
    });
    // The catalog answers for the switches at once; the list itself still says "analysed".
    const on = new Set(['book-m11']);
    server.on('/api/get_books', (_req, res) => {
      const books = Array.from({ length: 11 }, (_, i) => `book-m${i + 1}`).map((id) => bookReply({ id, book_id: id, on: on.has(id), listed: on.has(id) }));
      send(res, 200, ok(books));
    });
    server.on('/api/publish_book_status', (req, res) => {
      const q = new URL(req.url, 'http://x').searchParams;
      on.add(q.get('book_id')!);
      send(res, 200, ok({ user_id: WRITER_ID, book_id: q.get('book_id'), on: true, listed: true, updated_at: 'now' }));
    });
    const { container } = await render(routes, '/manuscript');
    await waitFor(() => expect(all(container, 'manuscript-row')).toHaveLength(10));
    const second = all(container, 'manuscript-row')[1];
    expect(text(second)).toContain('Manuscript m2');
    expect(text(second)).toContain('Analysed');
    expect(text(second)).toContain('68 / 100');
    expect(text(second)).toContain('41,250 words · 12 chapters');
    expect(text(second)).toContain('Jan 5, 2026');
    expect(second.querySelector('a')!.getAttribute('href')).toBe('/manuscript/analysis?id=m2');

    await waitFor(() => expect(calls('/api/get_books')).toHaveLength(1));
    expect(calls('/api/get_books')[0].url).toBe(`/api/get_books?upload_writer_id=${WRITER_ID}`);
    await click(second.querySelector('[role="switch"]')!);
    await waitFor(() => expect(text(all(container, 'manuscript-row')[1])).toContain('Published'));
    expect(server.seen.filter((x) => x.url.startsWith('/api/manuscripts?')).length).toBe(1);
    expect(calls('/api/publish_book_status')[0].url).toContain('book_id=book-m2&on_or_off=on');
    expect(all(container, 'manuscript-row')[1].querySelector('[role="switch"]')!.getAttribute('aria-checked')).toBe('true');

    await click(button(container, 'Next'));
    await waitFor(() => expect(all(container, 'manuscript-row').map((r) => r.querySelector('a')!.textContent)).toEqual(['Manuscript m11']));
    expect(text(all(container, 'manuscript-row')[0])).toContain('—');
  });

  it('shows an empty list with the way to upload', async () => {
    logIn(server);
    server.json('/api/manuscripts', 200, ok({ items: [], total: 0, page: 1, page_size: 10 }));
    const { container } = await render(routes, '/manuscript');
    await waitFor(() => expect(text(container)).toContain('No manuscripts yet'));
    expect(container.querySelector('main a[href="/manuscript/upload"]')).not.toBeNull();
  });

  it("gives a writer their desk: the recent manuscripts and their books", async () => {
    logIn(server);
    server.json('/api/manuscripts', 200, ok({ items: [row('m1'), row('m2')], total: 7, page: 1, page_size: 5 }));
    server.json('/api/get_books', 200, ok([bookReply({ on: true, listed: true })]));
    for (const path of ['/writer', '/user/write']) {
      const r = await render(routes, path);
      await waitFor(() => expect(all(r.container, 'manuscript-row')).toHaveLength(2));
      expect(text(r.container)).toContain('See all 7 manuscripts');
      expect(r.container.querySelector('[data-testid="writer-upload"]')!.getAttribute('href')).toBe('/manuscript/upload');
      await waitFor(() => expect(text(r.container)).toContain('Your books in the shop'));
      await waitFor(() => expect(text(r.container)).toContain('The Lighthouse Keeper'));
      r.unmount();
    }
    expect(calls('/api/manuscripts')[0].url).toBe('/api/manuscripts?page=1&page_size=5');
    expect(calls('/api/get_books')[0].url).toBe(`/api/get_books?upload_writer_id=${WRITER_ID}`);
  });

  it('shows a reader how to become a writer, and a visitor how to log in', async () => {
    logIn(server, 'reader');
    const reader = await render(routes, '/writer');
    await waitFor(() => byTestId(reader.container, 'become-writer'));
    expect(text(reader.container)).toContain('Become a writer');
    expect(button(reader.container, 'Add role writer')).toBeTruthy();
    expect(calls('/api/manuscripts')).toHaveLength(0);
    reader.unmount();

    logIn(server, 'reader', ['reader', 'writer']);
    const holder = await render(routes, '/manuscript/upload');
    await waitFor(() => expect(text(holder.container)).toContain('Switch to your writer role'));
    expect(button(holder.container, 'Switch to writer')).toBeTruthy();
    holder.unmount();

    localStorage.clear();
    useAuthStore.getState().hydrate();
    const visitor = await render(routes, '/user/write');
    expect(text(visitor.container)).toContain('Log in to start writing');
    expect(visitor.container.querySelector('a[href="/login?redirect=%2Fuser%2Fwrite"]')).not.toBeNull();
  });

  it('has a phone page with the list as cards and the upload folded in', async () => {
    logIn(server);
    server.json('/api/manuscripts', 200, ok({ items: [row('m1', { state: 'published' })], total: 1, page: 1, page_size: 10 }));
    const { container } = await render(routes, '/h5/manuscript');
    await waitFor(() => expect(all(container, 'manuscript-row')).toHaveLength(1));
    expect(container.querySelector('.ms-card')).not.toBeNull();
    expect(container.querySelector('input[type="file"]')).toBeNull();
    await click(byTestId(container, 'phone-upload-toggle'));
    expect(container.querySelector('form[aria-label="Upload a manuscript"] input[type="file"]')).not.toBeNull();
  });
});
