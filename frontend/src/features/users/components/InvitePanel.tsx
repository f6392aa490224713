import { Card, CardHeader, EmptyState } from '@/components/Card';
import { CopyButton } from '@/components/CopyButton';
import { Spinner } from '@/components/Spinner';
import type { User } from '@/lib/api-types';
import { useInviteCodes, useInvitedByMe } from '../queries';
import { formatDate } from '@/lib/dates';

export function inviteLink(code: string, origin = window.location.origin): string {
  return `${origin}/platform/register?invite=${encodeURIComponent(code)}`;
}

export function InvitePanel({ user }: { user: User }) {
  const codes = useInviteCodes();
  const invited = useInvitedByMe(user.user_id);

  return (
    <Card>
      <CardHeader title="Invite friends" subtitle="Share a link; friends who join with it show up below." />
      {codes.isLoading ? (
        <Spinner />
      ) : codes.data && codes.data.length > 0 ? (
        <ul className="invite-list">
          {codes.data.map((c) => (
            <li key={c.code} className="invite-item">
              <div className="invite-meta">
                <span className="mono invite-code">{c.code}</span>
                <span className="muted small">
                  used {c.uses ?? 0} {c.uses === 1 ? 'time' : 'times'}
                </span>
              </div>
              <div className="invite-link">
                <input readOnly value={inviteLink(c.code)} aria-label={`Invite link for ${c.code}`} onFocus={(e) => e.target.select()} />
                <CopyButton text={inviteLink(c.code)} label="Copy link" />
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{codes.isError ? 'Invite codes could not be loaded.' : 'You have no invite codes yet.'}</p>
      )}

      <h3 className="section-title">Invited by me</h3>
      {invited.isLoading ? (
        <Spinner />
      ) : invited.data && invited.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>User</th>
                <th>E-mail</th>
                <th>Joined</th>
              </tr>
            </thead>
            <tbody>
              {invited.data.map((u) => (
                <tr key={String(u.user_id)}>
                  <td>{u.username}</td>
                  <td>{u.email}</td>
                  <td>{formatDate(u.created_at) || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <EmptyState icon="users" title="Nobody yet">
          Friends who register with your link will be listed here.
        </EmptyState>
      )}
    </Card>
  );
}
