import { Badge, Card } from '@/components/Card';
import type { User } from '@/lib/api-types';
import { formatDate } from '@/lib/dates';
import { Avatar } from './Avatar';


function shortAddress(address: string) {
  return address.length > 14 ? `${address.slice(0, 8)}…${address.slice(-6)}` : address;
}

export function ProfileSummary({ user }: { user: User }) {
  return (
    <Card className="profile-summary">
      <div className="profile-head">
        <Avatar name={user.username || user.email || user.wallet_address || "?"} url={user.avatar_url} size={72} />
        <div className="profile-id">
          <h2 className="profile-name" data-testid="profile-username">
            {user.username || 'Unnamed reader'}
          </h2>
          <p className="muted" data-testid="profile-email">
            {user.email}
          </p>
          <div className="badge-row">
            {(user.roles ?? []).map((r) => (
              <Badge key={r} tone={r === user.current_role ? 'primary' : 'neutral'}>
                {r}
              </Badge>
            ))}
          </div>
        </div>
      </div>
      {user.bio ? <p className="profile-bio">{user.bio}</p> : null}
      <dl className="facts">
        <div>
          <dt>Acting as</dt>
          <dd data-testid="profile-current-role">{user.current_role}</dd>
        </div>
        <div>
          <dt>Member since</dt>
          <dd>{formatDate(user.created_at) || '—'}</dd>
        </div>
        <div>
          <dt>Wallet</dt>
          <dd className="mono" title={user.wallet_address ?? undefined}>
            {user.wallet_address ? shortAddress(user.wallet_address) : 'Not linked'}
          </dd>
        </div>
        <div>
          <dt>Your invite code</dt>
          <dd className="mono">{user.invite_code || '—'}</dd>
        </div>
      </dl>
    </Card>
  );
}
