import { useSearchParams } from 'react-router-dom';
import { Button } from '@/components/Button';
import { DEFAULT_PAGE_SIZE } from '../format';
import { useBookList, useGenres, useSearch } from '../hooks';
import { readShopQuery, SORT_LABELS, sortHits, writeShopQuery, type ShopQuery } from '../shop-query';
import type { SortKey } from '../types';
import { ShopFilters } from './ShopFilters';
import { SearchResults } from './SearchResults';

/**
 * The results page of the shop, driven by the address: with ?q= it asks the search
 * engine (relevance, match percentages, genre facets); with filters only it browses the
 * catalogue (get_all_books, which can sort on the server).
 */
export function ShopSearch() {
  const [params, setParams] = useSearchParams();
  const query = readShopQuery(params);
  const pageSize = DEFAULT_PAGE_SIZE;
  const textMode = query.q.length > 0;

  const search = useSearch(
    { query: query.q, genre: query.genre, price_min: query.min, price_max: query.max, page: query.page, page_size: pageSize },
    textMode,
  );
  const browse = useBookList(
    {
      genre: query.genre,
      price_min: query.min,
      price_max: query.max,
      sort: (query.sort && query.sort !== 'relevance' ? query.sort : 'newest') as SortKey,
      page: query.page,
      page_size: pageSize,
    },
    !textMode,
  );
  const genres = useGenres();

  const change = (next: ShopQuery) => {
    setParams(writeShopQuery(next));
    window.scrollTo?.({ top: 0, behavior: 'smooth' });
  };

  const active = textMode ? search : browse;
  const hits = textMode ? (search.data ? sortHits(search.data.result, query.sort) : undefined) : browse.data?.result;
  const facets = textMode && search.data
    ? Object.entries(search.data.facets.genre)
        .filter(([g]) => g.trim() !== '')
        .sort((a, b) => b[1] - a[1])
        .map(([name, count]) => ({ name, count }))
    : undefined;
  const genreNames = (genres.data ?? []).map((g) => g.name);

  return (
    <div className="shop-search">
      <ShopFilters value={query} genres={genreNames} onChange={change} />
      {textMode && query.sort && query.sort !== 'relevance' ? (
        <p className="muted small">The search ranks the best matches first; “{SORT_LABELS[query.sort]}” orders the books of each page.</p>
      ) : null}
      <SearchResults
        query={query.q}
        hits={hits}
        total={active.data?.total ?? 0}
        totalAtLeast={!textMode && browse.data?.total_exact === false}
        loading={active.isLoading}
        fetching={active.isFetching}
        error={active.isError}
        onRetry={() => void active.refetch()}
        facets={facets}
        selectedGenre={query.genre}
        onSelectGenre={(genre) => change({ ...query, genre, page: 1 })}
        page={query.page}
        pageSize={pageSize}
        onPage={(page) => change({ ...query, page })}
        tookMs={textMode ? search.data?.took_ms : undefined}
        emptyHint={
          query.genre || query.min !== undefined || query.max !== undefined ? (
            <Button variant="secondary" size="sm" onClick={() => change({ q: query.q, page: 1 })}>
              Clear filters
            </Button>
          ) : undefined
        }
      />
    </div>
  );
}
