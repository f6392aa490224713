import { Button, ButtonLink } from '@/components/Button';
import { Card, EmptyState } from '@/components/Card';
import type { User } from '@/lib/api-types';
import { h5ProfilePath, type H5Role } from '@/stores/role';
import { ROLE_BLURBS } from '../roles';
import { useRoleChoice } from './use-role-choice';

/**
 * What a phone page of a role shows to an account without that role: what the role is for
 * and a way to take it on (asked first), instead of the role's tools.
 */
export function RoleNeeded({ role, user, refreshWallet }: { role: H5Role; user: User; refreshWallet: () => Promise<unknown> }) {
  const { choose, pending, dialog } = useRoleChoice(user, refreshWallet, () => {});
  return (
    <div className="page h5-page">
      <Card data-testid="role-needed">
        <EmptyState icon={role === 'writer' ? 'pen' : 'landmark'} title={`For ${role}s only`}>
          <p>
            {ROLE_BLURBS[role]} Your account does not have the {role} role, so these pages and their tools are not open to
            it.
          </p>
          <div className="stack">
            <Button block onClick={() => choose(role)} loading={pending === role}>
              Become a {role}
            </Button>
            <ButtonLink to={h5ProfilePath('reader')} variant="secondary" block>
              Back to reading
            </ButtonLink>
          </div>
        </EmptyState>
      </Card>
      {dialog}
    </div>
  );
}
