import { Button } from '@/components/Button';

export interface PaginationProps {
  page: number;
  total: number;
  pageSize: number;
  onChange: (page: number) => void;
  busy?: boolean;
}

/** Previous / next with the page numbers around the current one. */
export function Pagination({ page, total, pageSize, onChange, busy }: PaginationProps) {
  const pages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  if (pages <= 1) return null;
  const around = [page - 2, page - 1, page, page + 1, page + 2].filter((p) => p >= 1 && p <= pages);
  return (
    <nav className="pagination" aria-label="Pages">
      <Button variant="secondary" size="sm" disabled={page <= 1 || busy} onClick={() => onChange(page - 1)}>
        Previous
      </Button>
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
      <span className="muted small pagination-of">
        Page {page} of {pages}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= pages || busy} onClick={() => onChange(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
