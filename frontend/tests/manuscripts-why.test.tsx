// The analysis screen says why, through the app's routes against a real local HTTP server:
// why the genre is what it is (the reason, the writer's genre kept or overruled, the
// deciding passages with their chapter and probability, the words and traits with their
// weights), where the summary comes from (the book's own passages, marked by the summary
// that uses them), and the kind the quality was judged as with what it left out.
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '@/app/router';
import { byTestId, render, waitFor } from './support/catalog-dom';
import { ok, type TestServer } from './support/http-server';
import { bookReply, detailReply, logIn, MANUSCRIPT_ID, useTestServer } from './support/manuscripts';

const testServer = useTestServer();
let server: TestServer;
beforeEach(() => {
  server = testServer();
});

const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();
const all = (container: ParentNode, id: string) => [...container.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];

type Detail = ReturnType<typeof detailReply>;

async function open(change: (d: Detail) => void = () => {}) {
  logIn(server);
  const detail = detailReply();
  change(detail);
  server.json(`/api/manuscripts/${MANUSCRIPT_ID}`, 200, ok(detail));
  server.json('/api/get_books', 200, ok([bookReply()]));
  const { container } = await render(routes, `/manuscript/analysis?id=${MANUSCRIPT_ID}`);
  await waitFor(() => byTestId(container, 'analysis-why-genre'));
  return container;
}

describe('why this genre', () => {
  it('gives the reason, the overruled genre, the deciding passages and the words', async () => {
    const container = await open();
    const why = byTestId(container, 'analysis-why-genre');
    expect(why.querySelector('h2')!.textContent).toBe('Why this genre');
    expect(text(byTestId(why, 'genre-reason'))).toBe('Read as Literary: the text reads clearly as Literary, not as the Mystery you chose.');
    const hint = text(byTestId(why, 'genre-hint'));
    expect(hint).toContain('Your genre was overruled');
    expect(hint).toContain('You chose Mystery, but the text reads clearly as Literary');
    expect(text(byTestId(why, 'genre-read'))).toBe('6 passages read, spread over the whole text.');

    const passages = all(why, 'genre-passage');
    expect(passages.map((p) => text(p.querySelector('blockquote')!))).toEqual([
      'The bottle was green glass, sealed with wax the colour of old blood.',
      'Marigold climbed the tower at dusk, as her mother had.',
    ]);
    expect(passages.map((p) => text(byTestId(p, 'genre-passage-chapter')))).toEqual(['Chapter 2 · The Bottle', 'Chapter 1 · The Light']);
    expect(passages.map((p) => text(byTestId(p, 'genre-passage-probability')))).toEqual(['81% Literary', '66% Literary']);
    expect(passages[0].querySelector('[role="meter"]')!.getAttribute('aria-valuenow')).toBe('81');
    expect(why.querySelector('#why-genre-passages')!.tagName).toBe('H3');

    // The words fold away behind a disclosure, strongest first, the style trait marked.
    const features = byTestId(why, 'genre-features');
    expect(features.tagName).toBe('DETAILS');
    expect(text(features.querySelector('summary')!)).toBe('The words and traits that weighed most (2)');
    const rows = all(features, 'genre-feature');
    expect(rows.map((r) => text(r.querySelector('.ms-feature-name')!))).toEqual(['lighthouse', 'style long sentences']);
    expect(rows.map((r) => text(r.querySelector('.ms-feature-weight')!))).toEqual(['+0.42', '+0.21']);
    expect(rows[1].querySelector('.badge')!.textContent).toBe('style');
    expect(rows[0].querySelector('[role="meter"]')!.getAttribute('aria-valuenow')).toBe('100');
    expect(rows[1].querySelector('[role="meter"]')!.getAttribute('aria-valuenow')).toBe('50');
  });

  it('says when the writer’s genre was kept, and whether the text leaned elsewhere', async () => {
    const container = await open((d) => {
      d.analyze_dict.genre_evidence.hint_overruled = false;
    });
    expect(text(byTestId(container, 'genre-hint'))).toBe(
      'Your genre was kept You chose Mystery; the text leans to Literary, but not clearly enough to overrule you.',
    );
    expect(text(byTestId(container, 'genre-read'))).not.toContain('play');
  });

  it('says when the text reads as the writer’s genre too', async () => {
    const container = await open((d) => {
      Object.assign(d.analyze_dict.genre_evidence, { hint: 'Literary', hint_overruled: false });
    });
    expect(text(byTestId(container, 'genre-hint'))).toBe('Your genre was kept You chose Literary, and the text reads as it too.');
  });

  it('says when no genre was given, and when the text was read as a play', async () => {
    const container = await open((d) => {
      Object.assign(d.analyze_dict.genre_evidence, { hint: null, play: true, passages_read: 1 });
    });
    expect(text(byTestId(container, 'genre-hint'))).toBe('Chosen by the analysis You gave no genre, so the likeliest one was taken.');
    expect(text(byTestId(container, 'genre-read'))).toBe('Read as one passage, as a play: the speakers’ names and stage directions set aside.');
  });
});

describe('where the summary comes from', () => {
  it('lists the source passages in reading order with their chapter, marked by the summary that uses them', async () => {
    const container = await open();
    const card = byTestId(container, 'analysis-summary-sources');
    expect(card.querySelector('h2')!.textContent).toBe('Where the summary comes from');
    expect(text(byTestId(card, 'summary-source-count'))).toBe('2 passages; 1 of them feeds the short summary.');
    const sources = all(card, 'summary-source');
    expect(sources.map((s) => text(s.querySelector('blockquote')!))).toEqual([
      'Marigold Vance keeps the light on a northern island.',
      'One winter a bottle washes up.',
    ]);
    expect(sources.map((s) => text(byTestId(s, 'summary-source-chapter')))).toEqual(['Chapter 1 · The Light', 'Chapter 2 · The Bottle']);
    expect(sources.map((s) => s.dataset.inShort)).toEqual(['true', 'false']);
    expect(text(sources[0])).toContain('Short summary');
    expect(text(sources[1])).toContain('Long summary only');
    expect(card.querySelector('details')).toBeNull();
  });

  it('folds the passages past the first five behind a disclosure, numbered on', async () => {
    const container = await open((d) => {
      d.analyze_dict.summary_sources = Array.from({ length: 8 }, (_, i) => ({
        chapter: 9 + i,
        offset: i * 100,
        excerpt: `Sentence ${i + 1} of the book.`,
        in_short: i < 2,
      }));
    });
    const card = byTestId(container, 'analysis-summary-sources');
    const rest = card.querySelector('details')!;
    expect(text(rest.querySelector('summary')!)).toBe('The other 3 passages');
    expect(rest.querySelector('ol')!.getAttribute('start')).toBe('6');
    expect(all(rest, 'summary-source').map((s) => text(s.querySelector('blockquote')!))).toEqual([
      'Sentence 6 of the book.',
      'Sentence 7 of the book.',
      'Sentence 8 of the book.',
    ]);
    // A chapter the list does not hold is named by its place.
    expect(text(byTestId(all(card, 'summary-source')[0], 'summary-source-chapter'))).toBe('Chapter 10');
    expect(text(byTestId(card, 'summary-source-count'))).toBe('8 passages; 2 of them feed the short summary.');
  });
});

describe('the quality’s kind', () => {
  it('says the kind the text was judged as and what was left out for it', async () => {
    const container = await open((d) => {
      d.qa.kind = 'verse';
      d.qa.notes = ['Dialogue is not scored in verse: a poem has no speech to weigh.'] as never;
    });
    const quality = byTestId(container, 'analysis-quality');
    expect(text(byTestId(quality, 'quality-kind'))).toBe('Judged as verse, and measured against published verse.');
    expect(quality.querySelector('#quality-notes')!.textContent).toBe('Not measured for verse');
    expect(all(quality, 'quality-note').map(text)).toEqual(['Dialogue is not scored in verse: a poem has no speech to weigh.']);
  });

  it('shows a report from before the reasons were kept without them', async () => {
    const container = await open((d) => {
      const a = d.analyze_dict as Record<string, unknown>;
      delete a.genre_evidence;
      delete a.summary_sources;
      const q = d.qa as Record<string, unknown>;
      delete q.kind;
      delete q.notes;
    });
    expect(text(byTestId(container, 'analysis-why-genre'))).toContain('No reasons were kept for this manuscript');
    expect(text(byTestId(container, 'analysis-summary-sources'))).toContain('No source passages were kept for this manuscript');
    expect(byTestId(container, 'analysis-quality').querySelector('[data-testid="quality-kind"]')).toBeNull();
    expect(all(container, 'genre-passage')).toHaveLength(0);
  });
});
