import { Badge, Card, CardHeader } from '@/components/Card';
import { Button } from '@/components/Button';
import type { User } from '@/lib/api-types';
import { SELF_SERVICE_ROLES } from '@/stores/role';
import { useAddRole, useSwitchRole } from '../queries';
import { ROLE_BLURBS } from '../roles';

/** Desktop role management: switch among held roles, add reader/writer/publisher. */
export function RoleSettings({ user, refreshWallet }: { user: User; refreshWallet: () => Promise<unknown> }) {
  const switchRole = useSwitchRole(refreshWallet);
  const addRole = useAddRole();
  const held = user.roles ?? [];
  const addable = SELF_SERVICE_ROLES.filter((r) => !held.includes(r));
  const busy = switchRole.isPending || addRole.isPending;

  return (
    <Card>
      <CardHeader
        title="Roles"
        subtitle="Act as a reader, writer or publisher. Each role has its own pages."
        actions={
          <span className="current-role">
            Current role: <strong data-testid="current-role">{user.current_role}</strong>
          </span>
        }
      />
      <ul className="role-list" aria-label="Your roles">
        {held.map((role) => (
          <li key={role} className={`role-item ${role === user.current_role ? 'role-item-active' : ''}`}>
            <div>
              <p className="role-name">
                {role} {role === user.current_role ? <Badge tone="primary">current</Badge> : null}
              </p>
              <p className="muted small">{ROLE_BLURBS[role]}</p>
            </div>
            {role !== user.current_role ? (
              <Button
                variant="secondary"
                size="sm"
                disabled={busy}
                loading={switchRole.isPending && switchRole.variables === role}
                onClick={() => switchRole.mutate(role)}
                aria-label={`Switch to ${role}`}
              >
                Switch to {role}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {addable.length > 0 ? (
        <>
          <h3 className="section-title">Add a role</h3>
          <div className="role-add">
            {addable.map((role) => (
              <Button
                key={role}
                variant="ghost"
                size="sm"
                disabled={busy}
                loading={addRole.isPending && addRole.variables === role}
                onClick={() => addRole.mutate(role)}
                aria-label={`Add role ${role}`}
              >
                + {role}
              </Button>
            ))}
          </div>
        </>
      ) : null}
    </Card>
  );
}
