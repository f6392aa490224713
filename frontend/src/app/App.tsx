import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { configureApiClient } from '@/lib/api-client';
import { syncMeFromSnapshot } from '@/lib/me';
import { useAuthStore } from '@/stores/auth';
import { useRoleStore } from '@/stores/role';
import { AppProviders, queryClient } from './providers';
import { createAppRouter } from './router';

function createApp() {
  const router = createAppRouter();
  // Spec: a 401/403 clears storage (done by the request layer) and opens the landing page.
  configureApiClient({
    onUnauthorized: () => {
      useAuthStore.getState().hydrate();
      useRoleStore.getState().hydrate();
      queryClient.clear();
      void router.navigate('/', { replace: true });
    },
  });
  return router;
}

export function App() {
  const [router] = useState(createApp);

  // Another tab logging in or out changes local storage; follow it.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.storageArea !== localStorage) return;
      useAuthStore.getState().hydrate();
      useRoleStore.getState().hydrate();
      syncMeFromSnapshot(queryClient);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  return (
    <AppProviders>
      <RouterProvider router={router} future={{ v7_startTransition: true }} />
    </AppProviders>
  );
}
