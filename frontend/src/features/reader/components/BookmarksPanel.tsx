// Bookmarks of this book: add one at the current place, jump to one, delete one.
import { Link, useLocation } from 'react-router-dom';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { formatDate } from '@/lib/dates';
import { loginPathWithRedirect } from '@/lib/redirect';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { useAddBookmark, useBookmarks, useDeleteBookmark } from '../queries';
import type { ReadingLocation } from '../types';

export function bookmarkTitle(loc: ReadingLocation): string {
  const where = loc.label?.trim() || 'Bookmark';
  return `${where} · ${Math.round(loc.percent)}%`.slice(0, 200);
}

function when(ts: string): string {
  return Number.isNaN(Date.parse(ts)) ? '' : formatDate(ts);
}

export function BookmarksPanel({
  bookId,
  location,
  onJump,
}: {
  bookId: string;
  location: ReadingLocation | null;
  onJump: (position: string) => void;
}) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const here = useLocation();
  const list = useBookmarks(bookId);
  const add = useAddBookmark(bookId);
  const remove = useDeleteBookmark(bookId);
  // One bookmark per place: the button is spent once this place is in the list.
  const marked = !!location && (list.data ?? []).some((b) => b.cfi === location.position);

  if (!loggedIn) {
    return (
      <div className="empty-state">
        <p className="empty-title">Keep your places</p>
        <p className="empty-body">
          <Link to={loginPathWithRedirect(here.pathname + here.search)}>Log in</Link> to add bookmarks that follow you
          to every device.
        </p>
      </div>
    );
  }

  return (
    <div className="stack">
      <Button
        onClick={() => location && !marked && add.mutate({ cfi: location.position, title: bookmarkTitle(location) })}
        disabled={!location || marked || list.isLoading}
        loading={add.isPending}
        icon={<Icon name="tag" size={16} />}
        data-testid="bookmark-add"
      >
        {marked ? 'This place is bookmarked' : 'Add bookmark here'}
      </Button>
      {list.isLoading ? (
        <Spinner label="Loading bookmarks" />
      ) : list.isError ? (
        <p className="notice notice-error">Bookmarks could not be loaded.</p>
      ) : (list.data ?? []).length === 0 ? (
        <div className="empty-state">
          <p className="empty-title">No bookmarks yet</p>
          <p className="empty-body">Add one to come back to this page later.</p>
        </div>
      ) : (
        <ul className="bookmark-list" aria-label="Bookmarks">
          {(list.data ?? []).map((b) => (
            <li key={b.id} className="bookmark">
              <button type="button" className="bookmark-jump" onClick={() => onJump(b.cfi)}>
                <span className="bookmark-title">{b.title || 'Bookmark'}</span>
                <span className="muted small">{when(b.timestamp)}</span>
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Delete bookmark ${b.title}`}
                onClick={() => remove.mutate(b.id)}
                disabled={remove.isPending && remove.variables === b.id}
              >
                <Icon name="close" size={16} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
