// What each role is for, and whether an account holds one: the phone and desktop role
// screens and the route guards show a role's tools only to those who hold it (the server
// refuses the others' calls anyway).
import type { Role, User } from '@/lib/api-types';

export const ROLE_BLURBS: Record<Role, string> = {
  reader: 'Find, buy and read books; chat with Quinn.',
  writer: 'Upload manuscripts, get them analysed, price and publish.',
  publisher: 'Curate and publish books from writers.',
  admin: 'Run the platform.',
};

/** Every account reads; the other roles are the ones it was given or added. */
export function holdsRole(user: Pick<User, 'roles' | 'current_role'> | null, role: Role): boolean {
  if (role === 'reader') return true;
  return !!user && ((user.roles ?? []).includes(role) || user.current_role === role);
}
