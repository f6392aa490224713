// Rendering helpers for the catalog's component tests: a real react-dom root in jsdom,
// a memory router and a fresh query client per render; no testing library needed.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, type ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
window.scrollTo = (() => {}) as typeof window.scrollTo;

export interface Rendered {
  container: HTMLDivElement;
  router: ReturnType<typeof createMemoryRouter>;
  unmount: () => void;
}

const mounted: Array<{ root: Root; container: HTMLDivElement }> = [];

/** Renders `ui` at `path` (or the given routes), inside a router and a query client. */
export async function render(ui: ReactElement | RouteObject[], path = '/'): Promise<Rendered> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  mounted.push({ root, container });
  const routes: RouteObject[] = Array.isArray(ui) ? ui : [{ path: '*', element: ui }];
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  await act(async () => {
    root.render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} future={{ v7_startTransition: true }} />
      </QueryClientProvider>,
    );
  });
  return {
    container,
    router,
    unmount: () => {
      act(() => root.unmount());
      container.remove();
    },
  };
}

export function cleanup(): void {
  for (const { root, container } of mounted.splice(0)) {
    act(() => root.unmount());
    container.remove();
  }
}

/** Types into a controlled input the way a browser does (React listens to "input"). */
export function typeInto(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  act(() => {
    setter?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export async function click(el: Element): Promise<void> {
  await act(async () => {
    (el as HTMLElement).click();
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` stops throwing (real timers; requests go to a real server). */
export async function waitFor<T>(check: () => T, timeoutMs = 3000): Promise<T> {
  const start = Date.now();
  let last: unknown;
  while (Date.now() - start < timeoutMs) {
    try {
      return check();
    } catch (e) {
      last = e;
    }
    await act(async () => {
      await sleep(20);
    });
  }
  throw last;
}

export function byTestId(container: ParentNode, id: string): HTMLElement {
  const el = container.querySelector<HTMLElement>(`[data-testid="${id}"]`);
  if (!el) throw new Error(`no element with data-testid=${id}`);
  return el;
}
