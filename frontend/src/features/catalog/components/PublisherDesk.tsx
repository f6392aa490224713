import { useState } from 'react';
import { Card, CardHeader } from '@/components/Card';
import { DEFAULT_PAGE_SIZE } from '../format';
import { useBookList, useShelf, useShelfSwitch } from '../hooks';
import { BookGrid } from './BookGrid';
import { Pager } from '@/components/Pager';
import { PublishSwitch } from './PublishSwitch';
import { Shelf } from './Shelf';

/**
 * A publisher's desk: their shelf as it looks to readers, and every listed book with a
 * switch that puts it on or takes it off that shelf (publish_book_status with their id).
 */
export function PublisherDesk({ publisherId }: { publisherId: string }) {
  const [page, setPage] = useState(1);
  const shelf = useShelf(publisherId);
  const books = useBookList({ sort: 'newest', page, page_size: DEFAULT_PAGE_SIZE });
  const toggle = useShelfSwitch(publisherId);
  const onShelf = new Set((shelf.data?.books ?? []).map((b) => String(b.id)));

  return (
    <div className="stack">
      <Card>
        <CardHeader title="Your shelf" subtitle={`${onShelf.size} ${onShelf.size === 1 ? 'book' : 'books'} readers see in your selection`} />
        {shelf.data && shelf.data.books.length > 0 ? (
          <Shelf books={shelf.data.books} label="Your shelf" />
        ) : (
          <p className="muted">{shelf.isLoading ? 'Loading your shelf…' : 'Nothing on your shelf yet: switch books on below.'}</p>
        )}
      </Card>
      <Card>
        <CardHeader title="Listed books" subtitle="Switch a book on to put it on your shelf." />
        <BookGrid
          books={books.data?.result}
          loading={books.isLoading}
          error={books.isError}
          onRetry={() => void books.refetch()}
          empty={{ title: 'No listed books yet' }}
          actions={(b) => {
            const id = String(b.book_id ?? b.id);
            const pending = toggle.isPending && toggle.variables.bookId === id;
            const checked = pending ? toggle.variables.on : onShelf.has(id);
            return (
              <PublishSwitch
                checked={checked}
                busy={pending}
                onChange={(on) => toggle.mutate({ bookId: id, on })}
                label={checked ? 'On my shelf' : 'Add to my shelf'}
              />
            );
          }}
        />
        <Pager numbers page={page} total={books.data?.total ?? 0} pageSize={DEFAULT_PAGE_SIZE} onChange={setPage} busy={books.isFetching} />
      </Card>
    </div>
  );
}
