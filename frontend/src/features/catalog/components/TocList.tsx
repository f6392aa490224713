import { Badge, EmptyState } from '@/components/Card';
import { useToc } from '../hooks';
import { sampleBadge, sampleClaim } from '../sample-claim';
import { LineSkeletons } from './Skeleton';

export interface TocListProps {
  bookId: string;
  /** The whole book is readable; trial marks then do not matter. */
  entitled: boolean;
}

/** The chapters from /books/{id}/toc, with each one's place in the free sample marked. */
export function TocList({ bookId, entitled }: TocListProps) {
  const toc = useToc(bookId);
  if (toc.isLoading) return <LineSkeletons count={4} />;
  const chapters = toc.data ?? [];
  if (chapters.length === 0) {
    return <EmptyState icon="file" title={toc.isError ? 'The chapters could not be loaded' : 'No chapter list for this book'} />;
  }
  // Front matter (cover, title page, licence) is listed unnumbered: the chapters count from
  // the story, as the sentence above them does.
  let number = 0;
  const numbers = chapters.map((c) => (c.front_matter ? null : ++number));
  return (
    <div className="toc">
      {!entitled ? (
        <p className="muted small toc-note" data-testid="sample-claim">
          {sampleClaim(chapters)}
        </p>
      ) : null}
      <ol className="toc-list" data-testid="toc">
        {chapters.map((c, i) => (
          <li key={`${c.index}-${i}`} className={!entitled && !c.trial ? 'toc-locked' : ''}>
            <span className="toc-index">{numbers[i] ?? ''}</span>
            <span className="toc-title">{c.title || `Chapter ${numbers[i] ?? i + 1}`}</span>
            {entitled ? null : <Badge tone={c.trial ? 'success' : undefined}>{sampleBadge(c)}</Badge>}
          </li>
        ))}
      </ol>
    </div>
  );
}
