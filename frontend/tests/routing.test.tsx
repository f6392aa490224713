import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '@/app/router';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { useRoleStore } from '@/stores/role';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// jsdom has no scrolling; ScrollRestoration calls it on every navigation.
window.scrollTo = () => {};

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  localStorage.clear();
  useAuthStore.getState().hydrate();
  useRoleStore.getState().hydrate();
  // No server here: every call fails fast and quietly.
  configureApiClient({ baseUrl: 'http://127.0.0.1:9/api', notifyError: () => {} });
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  resetApiClientConfig();
});

async function render(path: string) {
  // A fresh root per render: a reused one would keep the previous router's elements.
  act(() => root.unmount());
  root = createRoot(container);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await act(async () => {
    root.render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} future={{ v7_startTransition: true }} />
      </QueryClientProvider>,
    );
  });
  return router;
}

describe('admin gate', () => {
  it('sends /admin/users to /admin/login without adminLoggedIn', async () => {
    const router = await render('/admin/users');
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(container.textContent).toContain('Admin area');
  });

  it('gates every admin page but the login', async () => {
    for (const path of ['/admin', '/admin/content', '/admin/settings', '/admin/anything']) {
      const router = await render(path);
      expect(router.state.location.pathname).toBe('/admin/login');
    }
  });

  it('lets the admin in with the flag', async () => {
    localStorage.setItem('adminLoggedIn', 'true');
    useAuthStore.getState().hydrate();
    const router = await render('/admin/content');
    expect(router.state.location.pathname).toBe('/admin/content');
    expect(container.textContent).toContain('Content moderation');
  });
});

describe('account pages', () => {
  it('send a visitor to log in and come back', async () => {
    const router = await render('/user/profile');
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?redirect=%2Fuser%2Fprofile');
  });
});

describe('a session that ends on a guarded page', () => {
  it('goes where the code that ended it says (a 401 goes to /)', async () => {
    localStorage.setItem('access_token', 't');
    localStorage.setItem('adminLoggedIn', 'true');
    useAuthStore.getState().hydrate();
    for (const path of ['/user/settings', '/admin/users']) {
      const router = await render(path);
      expect(router.state.location.pathname).toBe(path);
      await act(async () => {
        useAuthStore.getState().clear();
        await router.navigate('/', { replace: true });
      });
      expect(router.state.location.pathname).toBe('/');
      localStorage.setItem('access_token', 't');
      localStorage.setItem('adminLoggedIn', 'true');
      useAuthStore.getState().hydrate();
    }
  });
});

describe('h5', () => {
  it('takes the current role from the path', async () => {
    await render('/h5/publisher/profile');
    expect(useRoleStore.getState().currentRole).toBe('publisher');
    expect(localStorage.getItem('currentRole')).toBe('publisher');
    expect(container.textContent).toContain('Publisher profile');
  });

  it('shows a role’s pages only to an account that holds the role', async () => {
    localStorage.setItem('access_token', 't');
    localStorage.setItem('userInfo', JSON.stringify({ user_id: 'u1', username: 'ruth', roles: ['reader'], current_role: 'reader' }));
    useAuthStore.getState().hydrate();
    for (const path of ['/h5/publisher/home', '/h5/publisher/profile', '/h5/writer/home']) {
      await render(path);
      expect(container.querySelector('[data-testid="role-needed"]')).not.toBeNull();
      expect(container.querySelector('[role="switch"], .switch')).toBeNull();
      expect(useRoleStore.getState().currentRole).toBe('reader');
    }
    localStorage.setItem('userInfo', JSON.stringify({ user_id: 'u1', username: 'ruth', roles: ['reader', 'publisher'], current_role: 'publisher' }));
    await render('/h5/publisher/profile');
    expect(container.querySelector('[data-testid="role-needed"]')).toBeNull();
    expect(container.textContent).toContain('Publisher profile');
  });

  it('has no favourite tab for writers and no unknown roles', async () => {
    await render('/h5/writer/favourite');
    expect(container.textContent).toContain('not on our shelves');
    await render('/h5/emperor/profile');
    expect(container.textContent).toContain('not on our shelves');
  });
});

describe('every route of the spec renders inside the layout', () => {
  const paths = [
    '/', '/login', '/login/email', '/login/wallet', '/register', '/privacy', '/terms',
    '/book', '/reader', '/writer', '/publisher', '/publisher/book',
    '/manuscript', '/manuscript/upload', '/manuscript/edit', '/manuscript/analysis', '/manuscript/tags',
    '/manuscript/tags/AIPrice', '/manuscript/tags/AIPrice/CustomPrice', '/manuscript/tags/AIPrice/CrowdFunding',
    '/manuscript/tags/AIPrice/PriceInputChart',
    '/user', '/user/books', '/user/recharge', '/user/rewards', '/user/write',
    '/h5', '/h5/book', '/h5/manuscript',
    '/h5/reader/home', '/h5/reader/history', '/h5/reader/favourite', '/h5/reader/profile',
    '/h5/writer/home', '/h5/writer/history', '/h5/writer/analytics', '/h5/writer/profile',
    '/h5/publisher/home', '/h5/publisher/history', '/h5/publisher/analytics', '/h5/publisher/profile',
  ];
  it.each(paths)('%s', async (path) => {
    const router = await render(path);
    expect(router.state.location.pathname).toBe(path);
    expect(container.querySelector('header.topbar')).not.toBeNull();
    expect(container.textContent).not.toContain('not on our shelves');
    expect(container.querySelector('main')?.textContent?.trim().length).toBeGreaterThan(20);
  });
});
