import { Badge, EmptyState } from '@/components/Card';
import { useToc } from '../hooks';
import { LineSkeletons } from './Skeleton';

export interface TocListProps {
  bookId: string;
  /** The whole book is readable; trial marks then do not matter. */
  entitled: boolean;
}

/** The chapters from /books/{id}/toc, with the ones inside the free sample marked. */
export function TocList({ bookId, entitled }: TocListProps) {
  const toc = useToc(bookId);
  if (toc.isLoading) return <LineSkeletons count={4} />;
  const chapters = toc.data ?? [];
  if (chapters.length === 0) {
    return <EmptyState icon="file" title={toc.isError ? 'The chapters could not be loaded' : 'No chapter list for this book'} />;
  }
  const inTrial = chapters.filter((c) => c.trial).length;
  return (
    <div className="toc">
      {!entitled ? (
        <p className="muted small toc-note">
          {inTrial > 0
            ? `The free sample covers ${inTrial} of ${chapters.length} ${chapters.length === 1 ? 'chapter' : 'chapters'}.`
            : 'The free sample covers the opening of the first chapter.'}
        </p>
      ) : null}
      <ol className="toc-list" data-testid="toc">
        {chapters.map((c, i) => (
          <li key={`${c.index}-${i}`} className={!entitled && !c.trial ? 'toc-locked' : ''}>
            <span className="toc-index">{i + 1}</span>
            <span className="toc-title">{c.title || `Chapter ${i + 1}`}</span>
            {entitled ? null : c.trial ? <Badge tone="success">Free sample</Badge> : <Badge>Full book</Badge>}
          </li>
        ))}
      </ol>
    </div>
  );
}
