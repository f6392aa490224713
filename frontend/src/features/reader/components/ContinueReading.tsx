// /reader without a book: the side section beside the chat with Quinn. Pick up where you
// left off (GET /api/history: the latest book with its progress, then a few more) and your
// bought books; visitors get a log-in prompt.
import '../reading-list.css';
import { Link } from 'react-router-dom';
import { ButtonLink } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { useCurrentUser } from '@/lib/me';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { useBoughtBooks, useHistory } from '../queries';
import { BookList, relativeDay } from './BookList';

/** How many books each list of the side section shows. */
const SIDE_LIST = 3;

export function ContinueReading() {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const user = useCurrentUser();
  const history = useHistory(loggedIn);
  const bought = useBoughtBooks(loggedIn && user?.user_id ? String(user.user_id) : undefined);
  const recent = history.data ?? [];
  const latest = recent[0];
  const books = bought.data ?? [];

  return (
    <aside className="continue-side" aria-label="Your reading" data-testid="continue-reading">
      {!loggedIn ? (
        <section className="continue-side-card">
          <h2 className="continue-side-title">
            <Icon name="book" size={16} /> Your shelf follows you
          </h2>
          <p className="muted small">
            <Link to="/login?redirect=%2Freader">Log in</Link> to pick up your books on every device, or open any book in the
            shop to read its free sample.
          </p>
        </section>
      ) : (
        <>
          <section className="continue-side-card" aria-labelledby="continue-title">
            <h2 className="continue-side-title" id="continue-title">
              <Icon name="clock" size={16} /> {latest ? 'Continue reading' : 'Start reading'}
            </h2>
            {history.isLoading ? (
              <Spinner label="Loading your history" />
            ) : history.isError ? (
              <p className="notice small">Your reading history is not available right now.</p>
            ) : latest ? (
              <div className="continue-latest">
                <img className="continue-latest-cover" src={latest.cover_image || `/api/books/${latest.id}/cover`} alt="" />
                <div className="continue-latest-text">
                  <p className="reading-title">{latest.title}</p>
                  <p className="muted small">{latest.author}</p>
                  <p className="muted small">{relativeDay(latest.last_read_at)}</p>
                  <span className="progress-bar" role="progressbar" aria-valuenow={Math.round(latest.percent)} aria-valuemin={0} aria-valuemax={100} aria-label="Progress">
                    <span style={{ width: `${Math.min(100, latest.percent)}%` }} />
                  </span>
                  <ButtonLink to={`/reader?book_id=${encodeURIComponent(latest.id)}`} size="sm">
                    Continue at {Math.round(latest.percent)}%
                  </ButtonLink>
                </div>
              </div>
            ) : (
              <p className="muted small">Books you open appear here with how far you got.</p>
            )}
            {recent.length > 1 ? (
              <BookList label="Recently read" items={recent.slice(1, 1 + SIDE_LIST).map((h) => ({ book: h, percent: h.percent }))} />
            ) : null}
          </section>
          <section className="continue-side-card" aria-labelledby="owned-title">
            <h2 className="continue-side-title" id="owned-title">
              <Icon name="library" size={16} /> Your books
            </h2>
            {bought.isLoading ? (
              <Spinner label="Loading your books" />
            ) : books.length === 0 ? (
              <p className="muted small">No books bought yet. Every book has a free sample to try first.</p>
            ) : (
              <BookList label="Your books" items={books.slice(0, SIDE_LIST).map((b) => ({ book: b }))} />
            )}
          </section>
        </>
      )}
      <ButtonLink to="/" variant="secondary" block>
        Browse the shop
      </ButtonLink>
    </aside>
  );
}
