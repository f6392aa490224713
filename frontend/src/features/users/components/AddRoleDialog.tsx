import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import type { Role } from '@/lib/api-types';
import { ROLE_BLURBS } from '../roles';

/** Asks before a role is added to the account: adding one is never a side effect of a tap. */
export function AddRoleDialog({
  role,
  busy,
  onConfirm,
  onCancel,
}: {
  role: Role;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog
      title={`Become a ${role}?`}
      onClose={onCancel}
      busy={busy}
      testId="add-role-dialog"
      footer={
        <>
          <Button onClick={onConfirm} loading={busy} data-testid="add-role-confirm">
            Add the {role} role
          </Button>
          <Button variant="ghost" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        </>
      }
    >
      <p>{ROLE_BLURBS[role]}</p>
      <p className="muted small">
        Your account does not have the {role} role yet. Adding it switches you to it; you can switch back to reading at
        any time.
      </p>
    </Dialog>
  );
}
