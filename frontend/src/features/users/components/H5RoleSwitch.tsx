import { useNavigate } from 'react-router-dom';
import { Icon, type IconName } from '@/components/Icon';
import type { User } from '@/lib/api-types';
import { h5ProfilePath, SELF_SERVICE_ROLES, useRoleStore, type H5Role } from '@/stores/role';
import { useRoleChoice } from './use-role-choice';

const ICONS: Record<H5Role, IconName> = { reader: 'book', writer: 'pen', publisher: 'landmark' };

/**
 * The mobile role switch (spec section 2): stores the chosen role and opens
 * /h5/{role}/profile. A logged-in user's server role follows, so the token matches the
 * pages; a role the account does not hold is only added once the user confirms it.
 */
export function H5RoleSwitch({
  user,
  refreshWallet,
  disabled = false,
}: {
  user: User | null;
  refreshWallet: () => Promise<unknown>;
  disabled?: boolean;
}) {
  const navigate = useNavigate();
  const currentRole = useRoleStore((s) => s.currentRole);
  const setRole = useRoleStore((s) => s.setRole);
  const { choose, pending, dialog } = useRoleChoice(user, refreshWallet, (role) => {
    setRole(role);
    navigate(h5ProfilePath(role));
  });

  return (
    <div className="segmented" role="radiogroup" aria-label="Switch role">
      {SELF_SERVICE_ROLES.map((role) => (
        <button
          key={role}
          type="button"
          role="radio"
          aria-checked={currentRole === role}
          className={`segmented-item ${currentRole === role ? 'segmented-item-active' : ''}`}
          onClick={() => choose(role)}
          disabled={disabled || pending !== null}
          data-role={role}
        >
          <Icon name={ICONS[role]} size={16} />
          <span>{pending === role ? '…' : role}</span>
        </button>
      ))}
      {dialog}
    </div>
  );
}
