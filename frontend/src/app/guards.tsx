import { useState, type ReactNode } from 'react';
import { Navigate, useLocation, useParams } from 'react-router-dom';
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

/** /h5/{role}/… exists for reader, writer and publisher; `only` narrows a tab to some roles. */
export function RequireH5Role({ children, only }: { children: ReactNode; only?: string[] }) {
  const { role } = useParams();
  if (!isH5Role(role) || (only && !only.includes(role))) return <NotFound />;
  return <>{children}</>;
}
