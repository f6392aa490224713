// Comments of a book: newest first with paging, a form for logged-in readers (1-2000
// characters), delete on own comments (admins: any). Used by the reader and the book page.
import '../comments.css';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { loginPathWithRedirect } from '@/lib/redirect';
import { useCurrentUser } from '@/lib/me';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { canDelete } from '../permissions';
import { useAddComment, useComments, useDeleteComment } from '../queries';
import { formatDateTime, relativeTime } from '@/lib/dates';
import { COMMENT_MAX } from '../types';

export function CommentsPanel({ bookId }: { bookId: string }) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const user = useCurrentUser();
  const here = useLocation();
  const comments = useComments(bookId);
  const add = useAddComment(bookId);
  const remove = useDeleteComment(bookId);
  const [text, setText] = useState('');
  const trimmed = text.trim();
  // The box takes no more than the counter allows (maxLength counts what text.length does).
  const tooLong = text.length > COMMENT_MAX;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!trimmed || tooLong) return;
    add.mutate(trimmed, { onSuccess: () => setText('') });
  };

  const pages = comments.data?.pages ?? [];
  const list = pages.flatMap((p) => p.result ?? []);
  const total = pages[0]?.total ?? 0;

  return (
    <section className="comments" aria-label="Comments" data-testid="comments">
      {loggedIn ? (
        <form className="comment-form" onSubmit={submit} aria-label="Add a comment">
          <label className="field-label" htmlFor={`comment-${bookId}`}>
            Your comment
          </label>
          <textarea
            id={`comment-${bookId}`}
            className="field-control comment-input"
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={3}
            maxLength={COMMENT_MAX}
            placeholder="What did you think?"
            aria-invalid={tooLong || undefined}
            aria-describedby={`comment-${bookId}-count`}
          />
          <div className="comment-form-foot">
            <span id={`comment-${bookId}-count`} className={`small ${tooLong ? 'field-error' : 'muted'}`} data-testid="comment-count">
              {text.length}/{COMMENT_MAX}
            </span>
            <Button type="submit" size="sm" loading={add.isPending} disabled={!trimmed || tooLong}>
              Post comment
            </Button>
          </div>
        </form>
      ) : (
        <p className="notice small comment-login">
          <Link to={loginPathWithRedirect(here.pathname + here.search)}>Log in to comment</Link> and join the conversation.
        </p>
      )}

      {comments.isLoading ? (
        <Spinner label="Loading comments" />
      ) : comments.isError ? (
        <p className="notice notice-error small">Comments could not be loaded.</p>
      ) : list.length === 0 ? (
        <div className="empty-state">
          <p className="empty-title">No comments yet</p>
          <p className="empty-body">Be the first to say something about this book.</p>
        </div>
      ) : (
        <>
          <p className="muted small">
            {total} {total === 1 ? 'comment' : 'comments'}
          </p>
          <ul className="comment-list">
            {list.map((c) => (
              <li key={c.id} className="comment" data-testid="comment">
                <div className="comment-head">
                  <span className="comment-author">{c.username || 'A reader'}</span>
                  <time className="muted small" dateTime={c.created_at} title={formatDateTime(c.created_at)}>
                    {relativeTime(c.created_at)}
                  </time>
                  {canDelete(c, user) ? (
                    <button
                      type="button"
                      className="icon-button comment-delete"
                      aria-label={`Delete comment by ${c.username || 'you'}`}
                      onClick={() => remove.mutate(c.id)}
                      disabled={remove.isPending && remove.variables === c.id}
                    >
                      <Icon name="close" size={14} />
                    </button>
                  ) : null}
                </div>
                <p className="comment-text">{c.content}</p>
              </li>
            ))}
          </ul>
          {comments.hasNextPage ? (
            <Button variant="secondary" size="sm" onClick={() => void comments.fetchNextPage()} loading={comments.isFetchingNextPage}>
              Show older comments
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
