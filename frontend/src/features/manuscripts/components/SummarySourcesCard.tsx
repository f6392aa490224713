import { Card, CardHeader, EmptyState } from '@/components/Card';
import { chapterName } from '../format';
import type { Chapter, SummarySource } from '../types';

/** The passages shown before the rest are folded away. */
const PREVIEW = 5;

function Source({ source, chapters }: { source: SummarySource; chapters: Chapter[] }) {
  return (
    <li className="ms-passage" data-testid="summary-source" data-in-short={source.in_short}>
      <blockquote className="ms-quote">{source.excerpt}</blockquote>
      <div className="ms-passage-meta">
        <span className="muted small" data-testid="summary-source-chapter">
          {chapterName(chapters, source.chapter)}
        </span>
        {source.in_short ? <span className="badge badge-primary">Short summary</span> : <span className="badge">Long summary only</span>}
      </div>
    </li>
  );
}

/** The book's own sentences the summaries are made of, in reading order, marked by the summary that uses them. */
export function SummarySourcesCard({ sources, chapters }: { sources: SummarySource[]; chapters: Chapter[] }) {
  const short = sources.filter((s) => s.in_short).length;
  const shown = sources.slice(0, PREVIEW);
  const rest = sources.slice(PREVIEW);
  return (
    <Card className="ms-why" data-testid="analysis-summary-sources">
      <CardHeader title="Where the summary comes from" subtitle="The book’s own sentences the summaries are made of, in reading order." />
      {sources.length === 0 ? (
        <EmptyState icon="file" title="No source passages were kept for this manuscript" />
      ) : (
        <div className="stack">
          <p className="muted small" data-testid="summary-source-count">
            {sources.length} {sources.length === 1 ? 'passage' : 'passages'}; {short} of them {short === 1 ? 'feeds' : 'feed'} the short summary.
          </p>
          <ol className="ms-passages" aria-label="Source passages">
            {shown.map((s) => (
              <Source key={`${s.chapter}-${s.offset}`} source={s} chapters={chapters} />
            ))}
          </ol>
          {rest.length > 0 ? (
            <details className="ms-disclosure">
              <summary>
                The other {rest.length} {rest.length === 1 ? 'passage' : 'passages'}
              </summary>
              <ol className="ms-passages" start={PREVIEW + 1} aria-label="More source passages">
                {rest.map((s) => (
                  <Source key={`${s.chapter}-${s.offset}`} source={s} chapters={chapters} />
                ))}
              </ol>
            </details>
          ) : null}
        </div>
      )}
    </Card>
  );
}
