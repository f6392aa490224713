// Who is looking at the catalog: the screens decide ownership (writer of a book, a
// publisher's shelf) from the logged-in user's profile (react-query, src/lib/me.ts).
import type { Role } from '@/lib/api-types';
import { useCurrentUser } from '@/lib/me';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';

export interface Viewer {
  loggedIn: boolean;
  userId: string | null;
  roles: Role[];
  has: (role: Role) => boolean;
}

export function useViewer(): Viewer {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const user = useCurrentUser();
  const roles = (user?.roles ?? []) as Role[];
  return {
    loggedIn,
    userId: loggedIn && user?.user_id ? String(user.user_id) : null,
    roles,
    has: (role) => roles.includes(role) || user?.current_role === role,
  };
}
