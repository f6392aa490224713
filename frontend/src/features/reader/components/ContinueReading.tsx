// /reader without a book: pick up where you left off (GET /api/history) and your books.
import { Link } from 'react-router-dom';
import { ButtonLink } from '@/components/Button';
import { Card, CardHeader, EmptyState, PageHeader } from '@/components/Card';
import { Spinner } from '@/components/Spinner';
import { useCurrentUser } from '@/lib/me';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { useBoughtBooks, useHistory } from '../queries';
import { BookList, relativeDay } from './BookList';

export function ContinueReading() {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const user = useCurrentUser();
  const history = useHistory(loggedIn);
  const bought = useBoughtBooks(loggedIn && user?.user_id ? String(user.user_id) : undefined);
  const recent = history.data ?? [];
  const latest = recent[0];

  return (
    <div className="page" data-testid="continue-reading">
      <PageHeader
        eyebrow="Your reading room"
        title={latest ? 'Continue reading' : 'Start reading'}
        subtitle="Open a book and the reader keeps your place, bookmarks and display settings."
        actions={
          <ButtonLink to="/" variant="secondary">
            Find a book
          </ButtonLink>
        }
      />
      {!loggedIn ? (
        <Card>
          <EmptyState icon="book" title="Your shelf follows you">
            <p>
              <Link to="/login?redirect=%2Freader">Log in</Link> to see the books you are reading on every device, or
              open any book in the shop to read its free sample.
            </p>
          </EmptyState>
        </Card>
      ) : (
        <>
          {latest ? (
            <Card className="continue-hero">
              <img className="continue-cover" src={latest.cover_image || `/api/books/${latest.id}/cover`} alt="" />
              <div className="stack">
                <p className="eyebrow">{relativeDay(latest.last_read_at)}</p>
                <h2 className="card-title">{latest.title}</h2>
                <p className="muted small">{latest.author}</p>
                <div className="progress-bar" role="progressbar" aria-valuenow={Math.round(latest.percent)} aria-valuemin={0} aria-valuemax={100} aria-label="Progress">
                  <span style={{ width: `${Math.min(100, latest.percent)}%` }} />
                </div>
                <ButtonLink to={`/reader?book_id=${encodeURIComponent(latest.id)}`}>Continue at {Math.round(latest.percent)}%</ButtonLink>
              </div>
            </Card>
          ) : null}
          <Card>
            <CardHeader title="Recently read" subtitle="Most recent first" />
            {history.isLoading ? (
              <Spinner label="Loading your history" />
            ) : history.isError ? (
              <p className="notice">Your reading history is not available right now.</p>
            ) : recent.length === 0 ? (
              <EmptyState icon="clock" title="Nothing read yet">
                <p>Books you open appear here with how far you got.</p>
              </EmptyState>
            ) : (
              <BookList label="Recently read" items={recent.map((h) => ({ book: h, percent: h.percent, note: relativeDay(h.last_read_at) }))} />
            )}
          </Card>
          <Card>
            <CardHeader title="Your books" subtitle="Bought books open in full" />
            {bought.isLoading ? (
              <Spinner label="Loading your books" />
            ) : (bought.data ?? []).length === 0 ? (
              <EmptyState icon="library" title="No books bought yet">
                <p>Every book has a free sample to try first.</p>
              </EmptyState>
            ) : (
              <BookList label="Your books" items={(bought.data ?? []).map((b) => ({ book: b }))} />
            )}
          </Card>
        </>
      )}
    </div>
  );
}
