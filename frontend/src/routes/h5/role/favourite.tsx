// /h5/reader/favourite: the books this reader marked as favourites; each opens the reader.
import { Link } from 'react-router-dom';
import { Card, EmptyState } from '@/components/Card';
import { PageLoader } from '@/components/Spinner';
import { BookList, useFavourites } from '@/features/reader';
import { useTitle } from '@/lib/use-title';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';

export default function H5ReaderFavouriteRoute() {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const favourites = useFavourites(loggedIn);
  useTitle('Favourites');
  const items = favourites.data ?? [];

  return (
    <div className="page h5-list-page" data-testid="h5-favourites">
      <header className="page-header">
        <div>
          <p className="eyebrow">Reader</p>
          <h1>Favourites</h1>
          <p className="page-subtitle">The books you love, one tap away.</p>
        </div>
      </header>
      {!loggedIn ? (
        <Card>
          <EmptyState icon="heart" title="Log in to keep favourites">
            <p>
              <Link to={`/login?redirect=${encodeURIComponent('/h5/reader/favourite')}`}>Log in</Link> and tap the heart
              on any book to keep it here.
            </p>
          </EmptyState>
        </Card>
      ) : favourites.isLoading ? (
        <PageLoader label="Loading your favourites…" />
      ) : favourites.isError ? (
        <p className="notice notice-error">Your favourites could not be loaded. Try again later.</p>
      ) : items.length === 0 ? (
        <Card>
          <EmptyState icon="heart" title="No favourites yet">
            <p>
              Tap the heart on a book in the <Link to="/h5/book">shop</Link> to keep it here.
            </p>
          </EmptyState>
        </Card>
      ) : (
        <BookList label="Favourites" items={items.map((b) => ({ book: b }))} />
      )}
    </div>
  );
}
