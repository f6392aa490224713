import { Card, PageHeader } from '@/components/Card';
import { PageLoader } from '@/components/Spinner';
import { useUpdateBook } from '@/features/catalog';
import { ManuscriptEditForm, ManuscriptNav } from '@/features/manuscripts';
import { useTitle } from '@/lib/use-title';
import { WithManuscript, type ManuscriptContext } from './with-manuscript';

function EditScreen({ detail, book, bookLoading, userId }: ManuscriptContext) {
  const save = useUpdateBook(userId, detail.book_id);
  return (
    <div className="page">
      <ManuscriptNav id={detail.manuscript_id} bookId={detail.book_id} current="edit" />
      <PageHeader eyebrow="Manuscript" title="Details" subtitle={`How “${book?.title || detail.title}” shows in the shop.`} />
      <Card>
        {bookLoading ? (
          <PageLoader label="Loading the book…" />
        ) : (
          <ManuscriptEditForm detail={detail} book={book} onSave={(update) => save.mutate(update)} saving={save.isPending} />
        )}
      </Card>
    </div>
  );
}

/** /manuscript/edit?id=: title, authors, summaries and genre of the manuscript's book. */
export default function ManuscriptEditRoute() {
  useTitle('Edit manuscript');
  return <WithManuscript>{(ctx) => <EditScreen {...ctx} />}</WithManuscript>;
}
