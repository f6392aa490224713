import { AnalysisView, ManuscriptNav } from '@/features/manuscripts';
import { useTitle } from '@/lib/use-title';
import { WithManuscript } from './with-manuscript';
import { ManuscriptPublishSwitch } from './writer-only';

/** /manuscript/analysis?id=: everything the analysis found, and the book's publish switch. */
export default function ManuscriptAnalysisRoute() {
  useTitle('Manuscript analysis');
  return (
    <WithManuscript>
      {({ detail, book, userId }) => (
        <div className="page">
          <ManuscriptNav id={detail.manuscript_id} bookId={detail.book_id} current="analysis" />
          <AnalysisView
            detail={detail}
            actions={<ManuscriptPublishSwitch userId={userId} bookId={detail.book_id} on={Boolean(book?.on)} disabled={!book} />}
          />
        </div>
      )}
    </WithManuscript>
  );
}
