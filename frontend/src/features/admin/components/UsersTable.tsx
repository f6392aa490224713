import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Badge, Card, CardHeader, EmptyState } from '@/components/Card';
import { Pager } from '@/components/Pager';
import { formatDate } from '@/lib/dates';
import { PageLoader } from '@/components/Spinner';
import { adminKeys, DEFAULT_PAGE_SIZE, listUsers } from '../api';


export function UsersTable({ actions }: { actions?: ReactNode }) {
  const [page, setPage] = useState(1);
  const pageSize = DEFAULT_PAGE_SIZE;
  const query = useQuery({
    queryKey: adminKeys.users(page, pageSize),
    queryFn: () => listUsers(page, pageSize),
    placeholderData: keepPreviousData,
  });
  const total = query.data?.total ?? 0;
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
                  <td>{formatDate(u.created_at) || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager alwaysShow page={page} total={total} pageSize={pageSize} busy={query.isFetching} onChange={setPage} />
    </Card>
  );
}
