import { useSearchParams } from 'react-router-dom';
import { ButtonLink } from '@/components/Button';
import { EmptyState, PageHeader } from '@/components/Card';
import { Shelf, useShelf } from '@/features/catalog';
import { useTitle } from '@/lib/use-title';

/** /publisher/book?publisher_id=…: that publisher's selection as spines on shelves. */
export default function PublisherBookRoute() {
  const [params] = useSearchParams();
  const publisherId = params.get('publisher_id')?.trim() || null;
  const shelf = useShelf(publisherId);
  const name = shelf.data?.publisher_name;
  useTitle(name ? `${name} · Shelf` : 'Publisher shelf');

  const back = (
    <ButtonLink to="/publisher" variant="secondary" size="sm">
      All publishers
    </ButtonLink>
  );

  if (!publisherId) {
    return (
      <div className="page">
        <PageHeader eyebrow="Publisher shelf" title="Choose a publisher" />
        <EmptyState icon="landmark" title="Which publisher’s shelf would you like to see?">
          {back}
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="page">
      <PageHeader
        eyebrow="Publisher shelf"
        title={name || (shelf.isLoading ? 'Loading the shelf…' : 'Publisher shelf')}
        subtitle={shelf.data ? `${shelf.data.books.length} ${shelf.data.books.length === 1 ? 'book' : 'books'} chosen by this publisher. Pick a spine to open the book.` : undefined}
        actions={back}
      />
      {shelf.isLoading ? (
        <div className="bookcase" aria-busy="true">
          <span className="visually-hidden" role="status">
            Loading the shelf
          </span>
          <div className="plank">
            <div className="skeleton" style={{ height: 180 }} />
            <div className="plank-board" aria-hidden />
          </div>
        </div>
      ) : shelf.isError || !shelf.data ? (
        <EmptyState icon="alert" title="This shelf could not be found">
          <p>The publisher may not exist, or the link is mistyped.</p>
          {back}
        </EmptyState>
      ) : shelf.data.books.length === 0 ? (
        <EmptyState icon="library" title="This shelf is still empty">
          <p>The publisher has not chosen any books yet.</p>
        </EmptyState>
      ) : (
        <Shelf books={shelf.data.books} label={`${name ?? 'Publisher'} shelf`} />
      )}
    </div>
  );
}
