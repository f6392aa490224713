import { act, useState } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BookCard } from '@/features/catalog/components/BookCard';
import { SearchBox, SEARCH_DEBOUNCE_MS } from '@/features/catalog/components/SearchBox';
import { SearchResults } from '@/features/catalog/components/SearchResults';
import { useDebouncedValue } from '@/features/catalog/use-debounced-value';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { byTestId, cleanup, click, render, sleep, typeInto, waitFor } from './support/catalog-dom';
import { ok, startServer, type TestServer } from './support/http-server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  localStorage.clear();
  server.seen.length = 0;
  configureApiClient({ baseUrl: server.baseUrl, onUnauthorized: () => {}, notifyError: () => {} });
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
  vi.useRealTimers();
});

const hit = (id: string, title: string, match: number) => ({
  id,
  book_id: id,
  title,
  author: 'Frank Herbert',
  cover_image: `/api/books/${id}/cover`,
  price: 7.5,
  rating: { average: 4.25, count: 12 },
  match_percentage: match,
  _score: 1,
});

describe('BookCard', () => {
  it('shows the cover, title, author, price and readers\' rating and links to the book page', async () => {
    const { container } = await render(<BookCard book={hit('b1', 'Dune', 90)} />);
    const link = container.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('/book?book_id=b1');
    expect(link.getAttribute('aria-label')).toBe('Dune by Frank Herbert');
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/api/books/b1/cover');
    expect(container.textContent).toContain('$7.50');
    expect(byTestId(container, 'rating').getAttribute('aria-label')).toBe('Rated 4.3 out of 5 by 12 ratings');
    expect(byTestId(container, 'rating').textContent).toContain('4.3');
    expect(container.textContent).toContain('90% match');
  });

  it('draws a cover with the title when there is no image or it fails to load', async () => {
    const { container } = await render(<BookCard book={{ id: 'b2', title: 'Untitled Draft', author: 'Me', price: 0 }} />);
    expect(byTestId(container, 'cover-fallback').textContent).toContain('Untitled Draft');
    expect(container.textContent).toContain('Free');

    const other = await render(<BookCard book={hit('b3', 'Broken', 10)} />);
    const img = other.container.querySelector('img')!;
    await act(async () => {
      img.dispatchEvent(new Event('error'));
    });
    expect(other.container.querySelector('img')).toBeNull();
    expect(byTestId(other.container, 'cover-fallback').textContent).toContain('Broken');
  });

  it('says "No ratings yet" for a book nobody rated, and never shows the analysis score', async () => {
    const { container } = await render(
      <BookCard book={{ id: 'b4', title: 'New', author: 'Me', price: 3, rating: { average: null, count: 0 }, ...{ assessment_score: 79 } }} />,
    );
    expect(byTestId(container, 'rating').textContent).toBe('No ratings yet');
    expect(container.textContent).not.toContain('79');
  });

  it('shows Owned instead of the price for bought books', async () => {
    const { container } = await render(<BookCard book={{ ...hit('b1', 'Dune', 0), bought: true }} />);
    expect(container.textContent).toContain('Owned');
    expect(container.textContent).not.toContain('$7.50');
  });
});

describe('SearchResults', () => {
  it('lists the hits with their match, the genre facets and the count', async () => {
    const onSelectGenre = vi.fn();
    const { container } = await render(
      <SearchResults
        query="dune"
        hits={[hit('b1', 'Dune', 100), hit('b2', 'Dune Messiah', 67)]}
        total={2}
        facets={[
          { name: 'Science Fiction', count: 2 },
          { name: 'Classics', count: 1 },
        ]}
        onSelectGenre={onSelectGenre}
        page={1}
        pageSize={10}
        onPage={() => {}}
      />,
    );
    expect(byTestId(container, 'search-summary').textContent).toBe('2 books for “dune”');
    const cards = container.querySelectorAll('[data-testid="book-card"]');
    expect(cards).toHaveLength(2);
    expect(cards[1].textContent).toContain('67% match');
    const chips = [...container.querySelectorAll('.chips button')];
    expect(chips.map((c) => c.textContent)).toEqual(['All', 'Science Fiction2', 'Classics1']);
    await click(chips[2]);
    expect(onSelectGenre).toHaveBeenCalledWith('Classics');
    // one page only: no pager
    expect(container.querySelector('nav.pagination')).toBeNull();
  });

  it('says so when nothing matches, and pages through many results', async () => {
    const empty = await render(<SearchResults query="zzz" hits={[]} total={0} page={1} pageSize={10} onPage={() => {}} />);
    expect(empty.container.textContent).toContain('No books match “zzz”');

    const onPage = vi.fn();
    const many = await render(<SearchResults query="a" hits={[hit('b1', 'A', 50)]} total={35} page={2} pageSize={10} onPage={onPage} />);
    expect(many.container.querySelector('[aria-current="page"]')?.textContent).toBe('2');
    const next = [...many.container.querySelectorAll('nav.pagination button')].find((b) => b.textContent === 'Next')!;
    await click(next);
    expect(onPage).toHaveBeenCalledWith(3);
  });

  it('says "more than" when the total is a lower bound, and pages on past it', async () => {
    const onPage = vi.fn();
    const { container } = await render(
      <SearchResults hits={[hit('b1', 'A', 50)]} total={1000} totalAtLeast page={100} pageSize={10} onPage={onPage} />,
    );
    expect(byTestId(container, 'search-summary').textContent).toBe('More than 1,000 books');
    expect(container.querySelector('nav.pagination')?.textContent).toContain('Page 100 of 100 or more');
    const next = [...container.querySelectorAll('nav.pagination button')].find((b) => b.textContent === 'Next')!;
    expect((next as HTMLButtonElement).disabled).toBe(false);
    await click(next);
    expect(onPage).toHaveBeenCalledWith(101);
  });

  it('shows skeletons while loading', async () => {
    const { container } = await render(<SearchResults query="a" hits={undefined} total={0} loading page={1} pageSize={10} onPage={() => {}} />);
    expect(container.querySelectorAll('.book-card-skeleton').length).toBeGreaterThan(0);
    expect(container.textContent).toContain('Searching');
  });
});

describe('the search box', () => {
  it('debounces: searches once, ~200 ms after the typing stops, and shows the top hits', async () => {
    server.json('/api/search', 200, ok({ total: 12, page: 1, page_size: 5, result: [hit('b1', 'Dune', 100), hit('b2', 'Dune Messiah', 80)], facets: { genre: {} }, took_ms: 1 }));
    const { container } = await render(<SearchBox />);
    const input = container.querySelector('input')!;
    typeInto(input, 'd');
    await sleep(50);
    typeInto(input, 'du');
    await sleep(50);
    typeInto(input, 'dun');
    await sleep(SEARCH_DEBOUNCE_MS - 80);
    expect(server.seen).toHaveLength(0);
    await waitFor(() => expect(container.querySelectorAll('[data-testid="search-hit"]')).toHaveLength(2));
    expect(server.seen).toHaveLength(1);
    expect(JSON.parse(server.seen[0].body)).toMatchObject({ query: 'dun', page: 1, page_size: 5 });
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(container.textContent).toContain('See all 12 results for “dun”');
  });

  it('opens the highlighted hit with the keyboard, and the results page on Enter', async () => {
    server.json('/api/search', 200, ok({ total: 1, page: 1, page_size: 5, result: [hit('b9', 'Emma', 100)], facets: { genre: {} }, took_ms: 1 }));
    const { container, router } = await render(<SearchBox />);
    const input = container.querySelector('input')!;
    typeInto(input, 'emma');
    await waitFor(() => expect(container.querySelectorAll('[data-testid="search-hit"]')).toHaveLength(1));
    const key = (k: string) => act(() => void input.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })));
    key('ArrowDown');
    expect(input.getAttribute('aria-activedescendant')).toMatch(/opt-0$/);
    key('Enter');
    expect(router.state.location.pathname + router.state.location.search).toBe('/book?book_id=b9');

    const again = await render(<SearchBox />);
    const box = again.container.querySelector('input')!;
    typeInto(box, 'war and peace');
    await act(async () => {
      again.container.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    expect(again.router.state.location.search).toBe('?q=war%20and%20peace');
  });

  it('useDebouncedValue waits for the value to settle', async () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    let set: (v: string) => void = () => {};
    function Probe() {
      const [v, setV] = useState('a');
      set = setV;
      const settled = useDebouncedValue(v, 200);
      seen.push(settled);
      return null;
    }
    await render(<Probe />);
    act(() => set('ab'));
    act(() => vi.advanceTimersByTime(150));
    act(() => set('abc'));
    act(() => vi.advanceTimersByTime(150));
    expect(seen.at(-1)).toBe('a');
    act(() => vi.advanceTimersByTime(60));
    expect(seen.at(-1)).toBe('abc');
    expect(seen).not.toContain('ab');
  });
});
