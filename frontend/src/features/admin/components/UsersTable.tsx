import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Badge, Card, CardHeader, EmptyState } from '@/components/Card';
import { Button } from '@/components/Button';
import { PageLoader } from '@/components/Spinner';
import { adminKeys, DEFAULT_PAGE_SIZE, listUsers } from '../api';

function formatDate(value?: string) {
  if (!value) return '—';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleDateString();
}

export function UsersTable({ actions }: { actions?: ReactNode }) {
  const [page, setPage] = useState(1);
  const pageSize = DEFAULT_PAGE_SIZE;
  const query = useQuery({
    queryKey: adminKeys.users(page, pageSize),
    queryFn: () => listUsers(page, pageSize),
    placeholderData: keepPreviousData,
  });
  const total = query.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const users = query.data?.result ?? [];

  return (
    <Card>
      <CardHeader title="Users" subtitle={query.data ? `${total} ${total === 1 ? 'account' : 'accounts'}` : ' '} actions={actions} />
      {query.isLoading ? (
        <PageLoader label="Loading users…" />
      ) : users.length === 0 ? (
        <EmptyState icon="user" title={query.isError ? 'Users could not be loaded' : 'No users yet'} />
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Users">
            <thead>
              <tr>
                <th>ID</th>
                <th>Username</th>
                <th>E-mail</th>
                <th>Roles</th>
                <th>Joined</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={String(u.user_id)}>
                  <td className="mono small" title={String(u.user_id)}>
                    {/* ids are UUIDv7: the first digits are the time, the last ones tell users apart */}
                    {String(u.user_id).slice(-8)}
                  </td>
                  <td>{u.username}</td>
                  <td>{u.email ?? u.wallet_address}</td>
                  <td>
                    <div className="badge-row">
                      {(u.roles ?? []).map((r) => (
                        <Badge key={r} tone={r === 'admin' ? 'warning' : 'neutral'}>
                          {r}
                        </Badge>
                      ))}
                    </div>
                  </td>
                  <td>{formatDate(u.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="pager" aria-label="Pages">
        <Button variant="secondary" size="sm" disabled={page <= 1 || query.isFetching} onClick={() => setPage((p) => p - 1)}>
          Previous
        </Button>
        <span className="muted small">
          Page {page} of {pages}
        </span>
        <Button variant="secondary" size="sm" disabled={page >= pages || query.isFetching} onClick={() => setPage((p) => p + 1)}>
          Next
        </Button>
      </nav>
    </Card>
  );
}
