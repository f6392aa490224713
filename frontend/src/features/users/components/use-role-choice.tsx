// Choosing a role on the phone: a role the account holds is switched to at once; one it
// does not hold is added only after the user says yes in a dialog, then switched to.
import { useState } from 'react';
import type { User } from '@/lib/api-types';
import type { H5Role } from '@/stores/role';
import { addRole } from '../api';
import { useSwitchRole } from '../queries';
import { holdsRole } from '../roles';
import { AddRoleDialog } from './AddRoleDialog';

export function useRoleChoice(user: User | null, refreshWallet: () => Promise<unknown>, onChosen: (role: H5Role) => void) {
  const switchRole = useSwitchRole(refreshWallet);
  const [pending, setPending] = useState<H5Role | null>(null);
  const [asking, setAsking] = useState<H5Role | null>(null);

  const take = async (role: H5Role) => {
    setPending(role);
    try {
      if (user) {
        if (!(user.roles ?? []).includes(role)) await addRole(role);
        if (user.current_role !== role) await switchRole.mutateAsync(role);
      }
      setAsking(null);
      onChosen(role);
    } catch {
      // shown by the request layer; nothing changes here
    } finally {
      setPending(null);
    }
  };

  const choose = (role: H5Role) => {
    if (pending) return;
    if (user && !holdsRole(user, role)) setAsking(role);
    else void take(role);
  };

  const dialog = asking ? (
    <AddRoleDialog role={asking} busy={pending === asking} onConfirm={() => void take(asking)} onCancel={() => setAsking(null)} />
  ) : null;

  return { choose, pending, dialog };
}
