import { ButtonLink } from '@/components/Button';
import { EmptyState, PageHeader } from '@/components/Card';
import { LibraryShelves, MyUploads, useViewer } from '@/features/catalog';
import { loginPathWithRedirect } from '@/lib/redirect';
import { useTitle } from '@/lib/use-title';

/** /user/books: bought books, favourites and, for writers, their uploads. */
export default function UserBooksRoute() {
  useTitle('Your library');
  const viewer = useViewer();
  if (!viewer.userId) {
    return (
      <div className="page">
        <PageHeader eyebrow="Library" title="Your library" subtitle="Every book you buy or love, on any device." />
        <EmptyState icon="library" title="Log in to see your library">
          <p>Bought books, favourites and your own uploads live here.</p>
          <ButtonLink to={loginPathWithRedirect('/user/books')} size="sm">
            Log in
          </ButtonLink>
        </EmptyState>
      </div>
    );
  }
  const writer = viewer.has('writer');
  return (
    <div className="page">
      <PageHeader
        eyebrow="Library"
        title="Your library"
        subtitle="Every book you bought or loved, ready to read."
        actions={
          <ButtonLink to="/" variant="secondary">
            Browse the shop
          </ButtonLink>
        }
      />
      <div className="shop-front">
        <LibraryShelves userId={viewer.userId} />
        {writer ? (
          <section className="book-section" aria-labelledby="uploads-title">
            <div className="book-section-head">
              <div>
                <h2 id="uploads-title">My uploads</h2>
                <p className="muted small">Switch a book on to list it in the shop, off to take it out.</p>
              </div>
              <ButtonLink to="/manuscript/upload" size="sm" variant="secondary">
                Upload
              </ButtonLink>
            </div>
            <MyUploads writerId={viewer.userId} />
          </section>
        ) : null}
      </div>
    </div>
  );
}
