import { Card, PageHeader } from '@/components/Card';
import { PageLoader } from '@/components/Spinner';
import { useUpdateBook } from '@/features/catalog';
import { ManuscriptNav, TagEditor } from '@/features/manuscripts';
import { useTitle } from '@/lib/use-title';
import { WithManuscript, type ManuscriptContext } from '../with-manuscript';

function TagsScreen({ detail, book, bookLoading, userId }: ManuscriptContext) {
  const save = useUpdateBook(userId, detail.book_id);
  return (
    <div className="page">
      <ManuscriptNav id={detail.manuscript_id} bookId={detail.book_id} current="tags" />
      <PageHeader eyebrow="Manuscript" title="Tags" subtitle={`What readers search for to find “${book?.title || detail.title}”.`} />
      <Card>
        {bookLoading ? (
          <PageLoader label="Loading the book…" />
        ) : (
          <TagEditor
            initial={book ? book.tags : detail.analyze_dict.tags}
            suggested={detail.analyze_dict.tags}
            onSave={(tags) => save.mutate({ tags })}
            saving={save.isPending}
          />
        )}
      </Card>
    </div>
  );
}

/** /manuscript/tags?id=: the book's tags as chips, saved comma-joined by update_book. */
export default function ManuscriptTagsRoute() {
  useTitle('Manuscript tags');
  return <WithManuscript>{(ctx) => <TagsScreen {...ctx} />}</WithManuscript>;
}
