import { Button } from '@/components/Button';
import './pager.css';

export interface PagerProps {
  page: number;
  total: number;
  /** `total` is a lower bound: more match (the server counted only the pages ahead). */
  totalAtLeast?: boolean;
  pageSize: number;
  onChange: (page: number) => void;
  busy?: boolean;
  /** The nav's accessible name. */
  label?: string;
  /** Also offer the page numbers around the current one. */
  numbers?: boolean;
  /** Keep "Page 1 of 1" on screen instead of hiding a pager with nothing to page. */
  alwaysShow?: boolean;
  /** Defaults to "pagination" with numbers, else "pager" (pager.css). */
  className?: string;
}

/** Previous / next for a paged list; nothing when everything fits on one page. */
export function Pager({ page, total, totalAtLeast, pageSize, onChange, busy, label = 'Pages', numbers, alwaysShow, className }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  if (pages <= 1 && !totalAtLeast && !alwaysShow) return null;
  const last = totalAtLeast ? Infinity : pages;
  const around = numbers ? [page - 2, page - 1, page, page + 1, page + 2].filter((p) => p >= 1 && p <= pages) : [];
  return (
    <nav className={className ?? (numbers ? 'pagination' : 'pager')} aria-label={label}>
      <Button variant="secondary" size="sm" disabled={page <= 1 || busy} onClick={() => onChange(page - 1)}>
        Previous
      </Button>
      {numbers ? (
        <ol className="pagination-pages">
          {around.map((p) => (
            <li key={p}>
              <button
                type="button"
                className={`page-number ${p === page ? 'page-current' : ''}`}
                aria-current={p === page ? 'page' : undefined}
                aria-label={`Page ${p}`}
                disabled={busy}
                onClick={() => p !== page && onChange(p)}
              >
                {p}
              </button>
            </li>
          ))}
        </ol>
      ) : null}
      <span className={numbers ? 'muted small pagination-of' : 'muted small'}>
        Page {page} of {pages}
        {totalAtLeast ? ' or more' : ''}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= last || busy} onClick={() => onChange(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
