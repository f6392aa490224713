import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { Toaster } from '@/components/Toaster';
import { AdminNav } from '@/features/admin';
import { useAuthStore } from '@/stores/auth';
import { roleFromPath, useRoleStore } from '@/stores/role';
import { Footer } from './Footer';
import { H5TabBar } from './H5TabBar';
import { Header } from './Header';

/** The one layout every route renders in (spec section 2). */
export function AppLayout() {
  const { pathname } = useLocation();
  const syncFromPath = useRoleStore((s) => s.syncFromPath);
  const adminLoggedIn = useAuthStore((s) => s.adminLoggedIn);
  const h5Role = roleFromPath(pathname);
  const inAdmin = pathname.startsWith('/admin') && pathname !== '/admin/login' && adminLoggedIn;

  // Spec section 4: the current role follows the role segment of /h5/ paths.
  useEffect(() => {
    syncFromPath(pathname);
  }, [pathname, syncFromPath]);

  return (
    <div className={`app ${h5Role ? 'app-h5' : ''}`}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Header />
      {inAdmin ? <AdminNav /> : null}
      <main id="main" className="main">
        <Outlet />
      </main>
      {h5Role ? <H5TabBar role={h5Role} /> : <Footer />}
      <Toaster />
      <ScrollRestoration />
    </div>
  );
}
