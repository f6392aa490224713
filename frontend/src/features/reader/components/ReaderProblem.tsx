// Finished-looking error states of the reader: unknown book (404), unreadable file (422),
// anything else with a retry.
import { Button, ButtonLink } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { ApiError } from '@/lib/api-client';

export function ReaderProblem({ error, onRetry, compact }: { error: Error | null; onRetry: () => void; compact?: boolean }) {
  const status = error instanceof ApiError ? error.status : 0;
  const [title, text] =
    status === 404
      ? ['This book is not on our shelves', 'It may have been taken down, or the link is wrong.']
      : status === 422
        ? ['This book cannot be opened', 'Its file is damaged or in a form the reader does not know. The writer has been asked to upload it again.']
        : status === 0
          ? ['We could not reach the library', 'Check your connection and try again.']
          : ['The book did not open', error?.message ?? 'Something went wrong.'];
  return (
    <section className={`reader-problem ${compact ? 'reader-problem-compact' : ''}`} role="alert" data-testid="reader-problem">
      <div className="empty-icon" aria-hidden>
        <Icon name="alert" size={30} />
      </div>
      <h1 className="reader-problem-title">{title}</h1>
      <p className="muted">{text}</p>
      <div className="row-actions">
        {status !== 404 && status !== 422 ? <Button onClick={onRetry}>Try again</Button> : null}
        <ButtonLink to="/" variant="secondary">
          Browse the shop
        </ButtonLink>
      </div>
    </section>
  );
}
