// /h5/{role}/history: the books this user opened, most recent first, with how far they
// got; each opens the reader where they stopped.
import { Link } from 'react-router-dom';
import { Card, EmptyState } from '@/components/Card';
import { PageLoader } from '@/components/Spinner';
import { BookList, relativeDay, useHistory } from '@/features/reader';
import { useTitle } from '@/lib/use-title';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { ROLE_TITLE, useH5Role } from './use-h5-role';

export default function H5RoleHistoryRoute() {
  const role = useH5Role();
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const history = useHistory(loggedIn);
  useTitle(`${ROLE_TITLE[role]} history`);
  const items = history.data ?? [];

  return (
    <div className="page h5-list-page" data-testid="h5-history">
      <header className="page-header">
        <div>
          <p className="eyebrow">{ROLE_TITLE[role]}</p>
          <h1>Reading history</h1>
          <p className="page-subtitle">Every book you opened, with where you stopped.</p>
        </div>
      </header>
      {!loggedIn ? (
        <Card>
          <EmptyState icon="clock" title="Log in to see your history">
            <p>
              <Link to={`/login?redirect=${encodeURIComponent(`/h5/${role}/history`)}`}>Log in</Link> and the books you
              read show up here on every device.
            </p>
          </EmptyState>
        </Card>
      ) : history.isLoading ? (
        <PageLoader label="Loading your history…" />
      ) : history.isError ? (
        <p className="notice notice-error">Your reading history could not be loaded. Pull to refresh or try again later.</p>
      ) : items.length === 0 ? (
        <Card>
          <EmptyState icon="clock" title="Nothing read yet">
            <p>
              Open a book from the <Link to="/h5/book">shop</Link> and it appears here with your progress.
            </p>
          </EmptyState>
        </Card>
      ) : (
        <BookList label="Reading history" items={items.map((h) => ({ book: h, percent: h.percent, note: relativeDay(h.last_read_at) }))} />
      )}
    </div>
  );
}
