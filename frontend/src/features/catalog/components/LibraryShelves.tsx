import { ButtonLink } from '@/components/Button';
import { useBoughtBooks, useFavourites } from '../hooks';
import { BookSection } from './BookSection';

/** A reader's bought books and favourites. */
export function LibraryShelves({ userId }: { userId: string }) {
  const bought = useBoughtBooks(userId);
  const favourites = useFavourites(true);
  return (
    <>
      <BookSection
        title="Bought books"
        books={bought.data}
        loading={bought.isLoading}
        error={bought.isError}
        onRetry={() => void bought.refetch()}
        layout="grid"
        empty={{
          title: 'No books bought yet',
          body: (
            <ButtonLink to="/" size="sm" variant="secondary">
              Find your next book
            </ButtonLink>
          ),
        }}
      />
      <BookSection
        title="Favourites"
        books={favourites.data}
        loading={favourites.isLoading}
        error={favourites.isError}
        onRetry={() => void favourites.refetch()}
        layout="grid"
        empty={{ title: 'No favourites yet', body: 'Tap the heart on a book page to keep it here.' }}
      />
    </>
  );
}
