import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { OutageBanner } from '@/components/OutageBanner';
import { Toaster } from '@/components/Toaster';
import { AdminNav } from '@/features/admin';
import { holdsRole } from '@/features/users';
import { useCurrentUser } from '@/lib/me';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { roleFromPath, useRoleStore } from '@/stores/role';
import { Footer } from './Footer';
import { H5TabBar } from './H5TabBar';
import { Header } from './Header';

/** The one layout every route renders in (spec section 2). */
export function AppLayout() {
  const { pathname } = useLocation();
  const syncFromPath = useRoleStore((s) => s.syncFromPath);
  const adminLoggedIn = useAuthStore((s) => s.adminLoggedIn);
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const user = useCurrentUser();
  const header = useRef<HTMLElement>(null);
  const h5Role = roleFromPath(pathname);
  // An account acts only in roles it holds: the page of another role asks first.
  const followsPath = !h5Role || !loggedIn || holdsRole(user, h5Role);
  const inAdmin = pathname.startsWith('/admin') && pathname !== '/admin/login' && adminLoggedIn;

  // Spec section 4: the current role follows the role segment of /h5/ paths.
  useEffect(() => {
    if (followsPath) syncFromPath(pathname);
  }, [pathname, syncFromPath, followsPath]);

  return (
    <div className={`app ${h5Role ? 'app-h5' : ''}`}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Header ref={header} />
      {inAdmin ? <AdminNav /> : null}
      <OutageBanner />
      <main id="main" className="main">
        <Outlet />
      </main>
      {h5Role ? <H5TabBar role={h5Role} /> : <Footer />}
      <Toaster below={header} />
      <ScrollRestoration />
    </div>
  );
}
