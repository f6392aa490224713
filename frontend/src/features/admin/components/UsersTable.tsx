import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/Button';
import { Badge, Card, CardHeader, EmptyState } from '@/components/Card';
import { Pager } from '@/components/Pager';
import { PageLoader } from '@/components/Spinner';
import { TextField } from '@/components/TextField';
import { formatDate } from '@/lib/dates';
import { useCurrentUser } from '@/lib/me';
import { DEFAULT_PAGE_SIZE } from '../api';
import { useUsers } from '../queries';
import type { AdminUser } from '../types';
import { DisableDialog, RolesDialog } from './UserDialogs';

type Acting = { kind: 'disable' | 'roles'; user: AdminUser } | null;

export function UsersTable({ actions }: { actions?: ReactNode }) {
  const [page, setPage] = useState(1);
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [acting, setActing] = useState<Acting>(null);
  const me = useCurrentUser();
  const pageSize = DEFAULT_PAGE_SIZE;
  const users = useUsers(page, query, pageSize);
  const total = users.data?.total ?? 0;
  const rows = users.data?.result ?? [];

  const search = (e: FormEvent) => {
    e.preventDefault();
    setQuery(typed.trim());
    setPage(1);
  };

  return (
    <Card>
      <CardHeader title="Users" subtitle={users.data ? `${total} ${total === 1 ? 'account' : 'accounts'}${query ? ` matching “${query}”` : ''}` : ' '} actions={actions} />
      <form className="users-search" role="search" aria-label="Search users" onSubmit={search}>
        <TextField label="Search by name or e-mail" name="query" value={typed} onChange={(e) => setTyped(e.target.value)} />
        <div className="form-actions">
          <Button type="submit" variant="secondary" loading={users.isFetching && query !== '' && users.isPlaceholderData}>
            Search
          </Button>
          {query ? (
            <Button
              variant="ghost"
              onClick={() => {
                setTyped('');
                setQuery('');
                setPage(1);
              }}
            >
              Clear
            </Button>
          ) : null}
        </div>
      </form>
      {users.isLoading ? (
        <PageLoader label="Loading users…" />
      ) : rows.length === 0 ? (
        <EmptyState icon="user" title={users.isError ? 'Users could not be loaded' : query ? 'No user matches' : 'No users yet'} />
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
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((u) => {
                const self = me !== null && String(me.user_id) === String(u.user_id);
                return (
                  <tr key={String(u.user_id)} data-testid="user-row">
                    <td className="mono small" title={String(u.user_id)}>
                      {/* ids are UUIDv7: the first digits are the time, the last ones tell users apart */}
                      {String(u.user_id).slice(-8)}
                    </td>
                    <td>
                      {u.username}
                      {u.disabled ? (
                        <>
                          {' '}
                          <span className="badge badge-danger" data-testid="user-disabled">
                            disabled
                          </span>
                        </>
                      ) : null}
                    </td>
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
                    <td>
                      <div className="users-actions">
                        <Button size="sm" variant="secondary" onClick={() => setActing({ kind: 'roles', user: u })} aria-label={`Edit roles of ${u.username}`}>
                          Roles
                        </Button>
                        <Button
                          size="sm"
                          variant={u.disabled ? 'secondary' : 'ghost'}
                          disabled={self && !u.disabled}
                          title={self && !u.disabled ? 'You cannot disable your own account' : undefined}
                          onClick={() => setActing({ kind: 'disable', user: u })}
                          aria-label={`${u.disabled ? 'Enable' : 'Disable'} ${u.username}`}
                        >
                          {u.disabled ? 'Enable' : 'Disable'}
                        </Button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager alwaysShow page={page} total={total} pageSize={pageSize} busy={users.isFetching} onChange={setPage} />
      {acting?.kind === 'disable' ? <DisableDialog user={acting.user} onClose={() => setActing(null)} /> : null}
      {acting?.kind === 'roles' ? <RolesDialog user={acting.user} onClose={() => setActing(null)} /> : null}
    </Card>
  );
}
