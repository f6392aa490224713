import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Badge, Card, CardHeader, EmptyState } from '@/components/Card';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { Icon } from '@/components/Icon';
import { Pager } from '@/components/Pager';
import { formatPrice } from '@/lib/money';
import { DEFAULT_PAGE_SIZE } from '../format';
import { useAdminBooks, useTakedown } from '../hooks';
import type { Book } from '../types';
import { useDebouncedValue } from '../use-debounced-value';
import { Cover } from './Cover';
import { LineSkeletons } from './Skeleton';

function StateBadge({ book }: { book: Book }) {
  if (book.taken_down) return <Badge tone="warning">Taken down</Badge>;
  if (book.listed) return <Badge tone="success">Listed</Badge>;
  return <Badge>Switched off</Badge>;
}

/** The confirmation of a take-down or restore, with the reason the writer will read. */
function ModerationDialog({ book, onClose }: { book: Book; onClose: () => void }) {
  const id = useId();
  const takedown = useTakedown();
  const [reason, setReason] = useState('');
  const restoring = book.taken_down;

  const confirm = () =>
    takedown.mutate(
      { bookId: String(book.book_id ?? book.id), takenDown: !restoring, reason: reason.trim() || undefined },
      { onSuccess: onClose },
    );

  const footer = (
    <>
      <Button variant="ghost" onClick={onClose}>
        Cancel
      </Button>
      <Button variant={restoring ? 'primary' : 'danger'} onClick={confirm} loading={takedown.isPending} data-testid="confirm-moderation">
        {restoring ? 'Restore' : 'Take down'}
      </Button>
    </>
  );

  return (
    <Dialog title={`${restoring ? 'Restore' : 'Take down'} “${book.title}”?`} onClose={onClose} busy={takedown.isPending} footer={footer} testId="moderation-dialog">
      <p className="muted small">
        {restoring
          ? 'The book returns to the shop if its writer has it switched on.'
          : 'The book leaves the shop and search at once; its writer, publisher and buyers keep access.'}
      </p>
      <div className="field">
        <label htmlFor={`${id}-reason`} className="field-label">
          Reason {restoring ? '(optional)' : ''}
        </label>
        <textarea id={`${id}-reason`} rows={3} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} placeholder={restoring ? '' : 'e.g. copyright complaint'} />
      </div>
    </Dialog>
  );
}

/** Every book, listed or not, with search, pages and the take-down / restore action. */
export function AdminBooksTable() {
  const id = useId();
  const [text, setText] = useState('');
  const [page, setPage] = useState(1);
  const [target, setTarget] = useState<Book | null>(null);
  const query = useDebouncedValue(text.trim(), 250);
  useEffect(() => setPage(1), [query]);
  const books = useAdminBooks(query, page, DEFAULT_PAGE_SIZE);
  const rows = books.data?.result ?? [];
  const total = books.data?.total ?? 0;
  const atLeast = books.data?.total_exact === false;

  return (
    <Card>
      <CardHeader
        title="Books"
        subtitle={books.data ? `${atLeast ? `More than ${total.toLocaleString('en-US')}` : total} ${total === 1 && !atLeast ? 'book' : 'books'}${query ? ` matching “${query}”` : ''}` : ' '}
        actions={
          <div className="table-search">
            <label htmlFor={`${id}-q`} className="visually-hidden">
              Search books
            </label>
            <Icon name="search" size={16} />
            <input id={`${id}-q`} type="search" placeholder="Title, author, id…" value={text} onChange={(e) => setText(e.target.value)} />
          </div>
        }
      />
      {books.isLoading ? (
        <LineSkeletons count={6} />
      ) : rows.length === 0 ? (
        <EmptyState icon="folder" title={books.isError ? 'Books could not be loaded' : query ? `No books match “${query}”` : 'No books yet'} />
      ) : (
        <div className="table-wrap">
          <table className="table admin-books" aria-label="Books">
            <thead>
              <tr>
                <th>Book</th>
                <th className="hide-sm">Genre</th>
                <th className="hide-sm">Price</th>
                <th>State</th>
                <th className="hide-sm">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((b) => {
                const bookId = String(b.book_id ?? b.id);
                return (
                  <tr key={bookId} data-testid="admin-book-row">
                    <td>
                      <div className="admin-book">
                        <Cover src={b.cover_image} title={b.title} width={32} decorative />
                        <div>
                          <Link to={`/book?book_id=${encodeURIComponent(bookId)}`} className="admin-book-title">
                            {b.title}
                          </Link>
                          <div className="muted small">{b.author}</div>
                        </div>
                      </div>
                    </td>
                    <td className="hide-sm">{b.genre || '—'}</td>
                    <td className="hide-sm">{formatPrice(b.price)}</td>
                    <td>
                      <div className="admin-state">
                        <StateBadge book={b} />
                        {/* phones have no room for the action column: the action sits under the state */}
                        <Button className="show-sm" variant={b.taken_down ? 'secondary' : 'danger'} size="sm" onClick={() => setTarget(b)}>
                          {b.taken_down ? 'Restore' : 'Take down'}
                        </Button>
                      </div>
                    </td>
                    <td className="table-action hide-sm">
                      <Button variant={b.taken_down ? 'secondary' : 'danger'} size="sm" onClick={() => setTarget(b)}>
                        {b.taken_down ? 'Restore' : 'Take down'}
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager numbers page={page} total={total} totalAtLeast={atLeast} pageSize={DEFAULT_PAGE_SIZE} onChange={setPage} busy={books.isFetching} />
      {target ? <ModerationDialog book={target} onClose={() => setTarget(null)} /> : null}
    </Card>
  );
}
