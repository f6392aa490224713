import { useState, type ReactNode } from 'react';
import { Navigate, useLocation, useParams } from 'react-router-dom';
import { PageLoader } from '@/components/Spinner';
import { holdsRole, RoleNeeded, useMe } from '@/features/users';
import { useRefreshWallet } from '@/features/wallet';
import { loginPathWithRedirect } from '@/lib/redirect';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { isH5Role } from '@/stores/role';
import { NotFound } from './NotFound';

// The guards redirect only a visitor who arrives without the session. When the session
// ends while the page is open (logout, a 401), whoever ended it decides where to go
// (/login, /), so the guard just stops rendering instead of racing it with a redirect.

/** Spec: every /admin path but /admin/login needs the local adminLoggedIn flag. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const adminLoggedIn = useAuthStore((s) => s.adminLoggedIn);
  const [arrivedAsAdmin] = useState(adminLoggedIn);
  if (!arrivedAsAdmin) return <Navigate to="/admin/login" replace />;
  return adminLoggedIn ? <>{children}</> : null;
}

/** Account pages need a session; the login page brings the user back here. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const [arrivedLoggedIn] = useState(loggedIn);
  const location = useLocation();
  if (!arrivedLoggedIn) return <Navigate to={loginPathWithRedirect(location.pathname + location.search)} replace />;
  return loggedIn ? <>{children}</> : null;
}

/**
 * /h5/{role}/… exists for reader, writer and publisher; `only` narrows a tab to some roles.
 * A logged-in account sees a role's pages only when it holds the role (visitors see what
 * each role offers and are asked to log in by the pages themselves).
 */
export function RequireH5Role({ children, only }: { children: ReactNode; only?: string[] }) {
  const { role } = useParams();
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const me = useMe();
  const refreshWallet = useRefreshWallet();
  if (!isH5Role(role) || (only && !only.includes(role))) return <NotFound />;
  if (loggedIn && !holdsRole(me.data ?? null, role)) {
    if (!me.data) return me.isLoading ? <PageLoader /> : null;
    return <RoleNeeded role={role} user={me.data} refreshWallet={refreshWallet} />;
  }
  return <>{children}</>;
}
