import { useBookList, useGenres } from '../hooks';
import { useCatalogLinks } from '../links';
import { BookSection } from './BookSection';
import { GenreChips } from './GenreChips';

const ROW = 8;

/** Genres of some books, most frequent first, without counts (they would only count these). */
function genresOf(books: Array<{ genre?: string }>): Array<{ name: string; count?: number }> {
  const counts = new Map<string, number>();
  for (const b of books) if (b.genre) counts.set(b.genre, (counts.get(b.genre) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([name]) => ({ name }));
}

function GenreRow({ genre }: { genre: string }) {
  const links = useCatalogLinks();
  const list = useBookList({ genre, sort: 'rating', page: 1, page_size: ROW });
  return (
    <BookSection
      title={genre}
      subtitle={list.data ? `${list.data.total} ${list.data.total === 1 ? 'book' : 'books'}` : undefined}
      books={list.data?.result}
      loading={list.isLoading}
      error={list.isError}
      onRetry={() => void list.refetch()}
      seeAllTo={links.genre(genre)}
    />
  );
}

export interface ShopFrontProps {
  /** How many genre rows to show (the biggest genres first). */
  genreRows?: number;
}

/** The living shop: featured (rated highest by readers), new arrivals, then a row per genre. */
export function ShopFront({ genreRows = 4 }: ShopFrontProps) {
  const links = useCatalogLinks();
  const featured = useBookList({ sort: 'rating', page: 1, page_size: ROW });
  const fresh = useBookList({ sort: 'newest', page: 1, page_size: ROW });
  const facets = useGenres();
  const empty = !featured.isLoading && !featured.isError && (featured.data?.total ?? 0) === 0;
  // Without the search engine's facets, the genres of the books on show still give rows.
  const genres = facets.data ?? (facets.isError ? genresOf([...(featured.data?.result ?? []), ...(fresh.data?.result ?? [])]) : undefined);

  return (
    <div className="shop-front">
      {genres && genres.length > 0 ? <GenreChips genres={genres} linkTo={links.genre} label="Browse by genre" /> : null}
      <BookSection
        title="Featured"
        subtitle="The books readers rate highest"
        books={featured.data?.result}
        loading={featured.isLoading}
        error={featured.isError}
        onRetry={() => void featured.refetch()}
        seeAllTo={links.sorted('rating')}
        empty={{ title: 'The shelves are still empty', body: 'Books appear here as soon as writers publish them.' }}
      />
      {empty ? null : (
        <BookSection
          title="New arrivals"
          subtitle="Just published"
          books={fresh.data?.result}
          loading={fresh.isLoading}
          error={fresh.isError}
          onRetry={() => void fresh.refetch()}
          seeAllTo={links.sorted('newest')}
        />
      )}
      {(genres ?? []).slice(0, genreRows).map((g) => (
        <GenreRow key={g.name} genre={g.name} />
      ))}
    </div>
  );
}
