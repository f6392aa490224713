// The two account actions an admin confirms: disabling or enabling an account, and the
// roles it holds. Each shows the server's refusal in the dialog ("cannot remove your own
// admin role"), where the admin is looking.
import { useState } from 'react';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import type { Role } from '@/lib/api-types';
import { toast } from '@/stores/toast';
import { useSetDisabled, useSetRoles } from '../queries';
import type { AdminUser } from '../types';

export const ALL_ROLES: readonly Role[] = ['reader', 'writer', 'publisher', 'admin'];

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback);

export function DisableDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const action = useSetDisabled();
  const disabling = !user.disabled;
  const verb = disabling ? 'Disable' : 'Enable';
  const confirm = () =>
    action.mutate(
      { user, disabled: disabling },
      {
        onSuccess: () => {
          toast.success(disabling ? `${user.username} is disabled` : `${user.username} is enabled`);
          onClose();
        },
      },
    );
  return (
    <Dialog
      title={`${verb} ${user.username}?`}
      onClose={onClose}
      busy={action.isPending}
      testId="disable-dialog"
      footer={
        <>
          <Button variant={disabling ? 'danger' : 'primary'} onClick={confirm} loading={action.isPending} data-testid="disable-confirm">
            {verb} account
          </Button>
          <Button variant="ghost" onClick={onClose} disabled={action.isPending}>
            Cancel
          </Button>
        </>
      }
    >
      <p>
        {disabling
          ? 'The account cannot log in any more, and every session it has ends at once. Its books, wallet and history stay.'
          : 'The account can log in again.'}
      </p>
      <p className="muted small">{user.email ?? user.wallet_address}</p>
      {action.isError ? (
        <p className="notice notice-error" role="alert" data-testid="user-action-error">
          {messageOf(action.error, `The account could not be ${disabling ? 'disabled' : 'enabled'}`)}
        </p>
      ) : null}
    </Dialog>
  );
}

export function RolesDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const action = useSetRoles();
  const [roles, setRoles] = useState<Role[]>(() => Array.from(new Set<Role>(['reader', ...(user.roles ?? [])])));
  const toggle = (role: Role) => {
    if (role === 'reader') return; // every account reads
    action.reset();
    setRoles((rs) => (rs.includes(role) ? rs.filter((r) => r !== role) : [...rs, role]));
  };
  const unchanged = ALL_ROLES.every((r) => roles.includes(r) === (user.roles ?? []).includes(r) || r === 'reader');
  const save = () =>
    action.mutate(
      { user, roles: ALL_ROLES.filter((r) => roles.includes(r)) },
      {
        onSuccess: () => {
          toast.success(`Roles of ${user.username} saved`);
          onClose();
        },
      },
    );
  return (
    <Dialog
      title={`Roles of ${user.username}`}
      onClose={onClose}
      busy={action.isPending}
      testId="roles-dialog"
      footer={
        <>
          <Button onClick={save} loading={action.isPending} disabled={unchanged} data-testid="roles-save">
            Save roles
          </Button>
          <Button variant="ghost" onClick={onClose} disabled={action.isPending}>
            Cancel
          </Button>
        </>
      }
    >
      <fieldset className="checks">
        <legend className="field-label">Roles</legend>
        {ALL_ROLES.map((role) => (
          <label key={role} className="check">
            <input type="checkbox" checked={roles.includes(role)} disabled={role === 'reader' || action.isPending} onChange={() => toggle(role)} />
            <span>{role}</span>
            {role === 'reader' ? <span className="muted small"> (every account)</span> : null}
          </label>
        ))}
      </fieldset>
      <p className="muted small">Removing a role ends the account's sessions, so no token still carries it.</p>
      {action.isError ? (
        <p className="notice notice-error" role="alert" data-testid="user-action-error">
          {messageOf(action.error, 'The roles could not be saved')}
        </p>
      ) : null}
    </Dialog>
  );
}
