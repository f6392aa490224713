import { ButtonLink } from '@/components/Button';
import { Badge } from '@/components/Card';
import { usePublishStatus, useWriterBooks } from '../hooks';
import { BookGrid } from './BookGrid';
import { PublishSwitch } from './PublishSwitch';

/** A writer's own books (listed or not) with their on/off switches. */
export function MyUploads({ writerId }: { writerId: string }) {
  const uploads = useWriterBooks(writerId);
  const status = usePublishStatus(writerId);
  return (
    <BookGrid
      books={uploads.data}
      loading={uploads.isLoading}
      error={uploads.isError}
      onRetry={() => void uploads.refetch()}
      label="My uploads"
      empty={{
        title: 'You have not uploaded a book yet',
        body: (
          <ButtonLink to="/manuscript/upload" size="sm" variant="secondary">
            Upload a manuscript
          </ButtonLink>
        ),
      }}
      actions={(b) => {
        const id = String(b.book_id ?? b.id);
        const pending = status.isPending && status.variables.bookId === id;
        const on = pending ? status.variables.on : Boolean(b.on);
        return (
          <div className="upload-controls">
            <PublishSwitch checked={on} busy={pending} onChange={(next) => status.mutate({ bookId: id, on: next })} label={on ? 'On' : 'Off'} />
            {b.taken_down ? <Badge tone="warning">Taken down</Badge> : b.listed ? <Badge tone="success">Listed</Badge> : <Badge>Unlisted</Badge>}
          </div>
        );
      }}
    />
  );
}
