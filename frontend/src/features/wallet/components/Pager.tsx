import { Button } from '@/components/Button';

/** Previous / next for a paged list; nothing when everything fits on one page. */
export function Pager({
  page,
  total,
  pageSize,
  busy,
  onChange,
  label = 'Pages',
}: {
  page: number;
  total: number;
  pageSize: number;
  busy?: boolean;
  onChange: (page: number) => void;
  label?: string;
}) {
  const pages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  if (pages <= 1) return null;
  return (
    <nav className="pager wallet-pager" aria-label={label}>
      <Button variant="secondary" size="sm" disabled={page <= 1 || busy} onClick={() => onChange(page - 1)}>
        Previous
      </Button>
      <span className="muted small">
        Page {page} of {pages}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= pages || busy} onClick={() => onChange(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
