// The writer's manuscripts, newest first: state, score, AI probability, length, a link to
// the analysis and the publish switch (from the route: the book is the catalog's). A table
// on a desktop, cards on a phone (`compact`, and the table itself stacks below 720 px).
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button, ButtonLink } from '@/components/Button';
import { Badge, EmptyState } from '@/components/Card';
import { Pager } from '@/components/Pager';
import { Spinner } from '@/components/Spinner';
import { formatDate } from '@/lib/dates';
import { DEFAULT_PAGE_SIZE } from '../api';
import { aiTone, formatCount, formatPercent, formatScore, scaleOf } from '../format';
import { useManuscripts } from '../hooks';
import type { ManuscriptSummary } from '../types';
import { analysisPath } from './ManuscriptNav';

export interface ManuscriptListProps {
  /** The publish switch of one manuscript's book. */
  publish?: (m: ManuscriptSummary) => ReactNode;
  /**
   * Whether the book is in the shop now, where the caller knows better than the list: the
   * list follows the catalog's events, so it can lag a switch the writer just flipped.
   */
  publishedOf?: (m: ManuscriptSummary) => boolean | undefined;
  pageSize?: number;
  /** Only the first page, with a link to all of them instead of a pager. */
  preview?: boolean;
  compact?: boolean;
}

type Row = { items: ManuscriptSummary[] } & Pick<ManuscriptListProps, 'publish' | 'publishedOf'>;

function StateBadge({ m, publishedOf }: { m: ManuscriptSummary } & Pick<ManuscriptListProps, 'publishedOf'>) {
  const published = publishedOf?.(m) ?? m.state === 'published';
  return published ? <Badge tone="success">Published</Badge> : <Badge tone="primary">Analysed</Badge>;
}

function Score({ m }: { m: ManuscriptSummary }) {
  // A list row carries one score, so its own size tells its scale; 0 is "not scored".
  const s = m.overall_score > 0 ? formatScore(m.overall_score, scaleOf([m.overall_score])) : null;
  return s ? (
    <span>
      <strong>{s.value}</strong>
      <span className="muted small"> / {s.max}</span>
    </span>
  ) : (
    <span className="muted">—</span>
  );
}

function Ai({ m }: { m: ManuscriptSummary }) {
  return <span className={`ms-tone-${aiTone(m.ai_probability)}`}>{formatPercent(m.ai_probability)}</span>;
}

function Length({ m }: { m: ManuscriptSummary }) {
  return (
    <span className="small">
      {formatCount(m.words)} words · {m.chapters} {m.chapters === 1 ? 'chapter' : 'chapters'}
    </span>
  );
}

function Rows({ items, publish, publishedOf }: Row) {
  return (
    <div className="table-wrap ms-table-wrap">
      <table className="table ms-table" aria-label="Manuscripts">
        <thead>
          <tr>
            <th>Title</th>
            <th>State</th>
            <th>Score</th>
            <th>AI</th>
            <th>Length</th>
            <th>Published</th>
          </tr>
        </thead>
        <tbody>
          {items.map((m) => (
            <tr key={m.manuscript_id} data-testid="manuscript-row">
              <td data-label="Title">
                <Link to={analysisPath(m.manuscript_id)} className="ms-row-title">
                  {m.title || 'Untitled manuscript'}
                </Link>
                <span className="muted small ms-row-meta">
                  {[m.genre, formatDate(m.created_at)].filter(Boolean).join(' · ')}
                </span>
              </td>
              <td data-label="State">
                <StateBadge m={m} publishedOf={publishedOf} />
              </td>
              <td data-label="Score">
                <Score m={m} />
              </td>
              <td data-label="AI">
                <Ai m={m} />
              </td>
              <td data-label="Length">
                <Length m={m} />
              </td>
              <td data-label="Published">{publish?.(m)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Cards({ items, publish, publishedOf }: Row) {
  return (
    <ul className="ms-cards" aria-label="Manuscripts">
      {items.map((m) => (
        <li key={m.manuscript_id} className="ms-card" data-testid="manuscript-row">
          <div className="row-between">
            <Link to={analysisPath(m.manuscript_id)} className="ms-row-title">
              {m.title || 'Untitled manuscript'}
            </Link>
            <StateBadge m={m} publishedOf={publishedOf} />
          </div>
          <p className="muted small">{[m.genre, formatDate(m.created_at)].filter(Boolean).join(' · ')}</p>
          <div className="ms-card-facts small">
            <span>
              Score <Score m={m} />
            </span>
            <span>
              AI <Ai m={m} />
            </span>
            <Length m={m} />
          </div>
          {publish ? <div className="ms-card-publish">{publish(m)}</div> : null}
        </li>
      ))}
    </ul>
  );
}

export function ManuscriptList({ publish, publishedOf, pageSize = DEFAULT_PAGE_SIZE, preview, compact }: ManuscriptListProps) {
  const [page, setPage] = useState(1);
  const list = useManuscripts(page, pageSize);
  const data = list.data;

  if (list.isLoading) {
    return (
      <div className="ms-loading">
        <Spinner label="Loading manuscripts" /> <span className="muted small">Loading your manuscripts…</span>
      </div>
    );
  }
  if (list.isError && !data) {
    return (
      <EmptyState icon="alert" title="Your manuscripts could not be loaded">
        <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
          Try again
        </Button>
      </EmptyState>
    );
  }
  if (!data || data.items.length === 0) {
    return (
      <EmptyState icon="file" title="No manuscripts yet">
        <p>Upload one to get its summaries, quality scores and AI check.</p>
        <ButtonLink to="/manuscript/upload" size="sm">
          Upload a manuscript
        </ButtonLink>
      </EmptyState>
    );
  }
  return (
    <div className="ms-list" aria-busy={list.isFetching || undefined}>
      {compact ? (
        <Cards items={data.items} publish={publish} publishedOf={publishedOf} />
      ) : (
        <Rows items={data.items} publish={publish} publishedOf={publishedOf} />
      )}
      {preview ? (
        data.total > data.items.length ? (
          <Link to="/manuscript" className="small ms-see-all">
            See all {data.total} manuscripts →
          </Link>
        ) : null
      ) : (
        <Pager page={page} total={data.total} pageSize={pageSize} onChange={setPage} busy={list.isFetching} label="Manuscript pages" />
      )}
    </div>
  );
}
