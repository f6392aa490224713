// Where a login ends (spec section 2): the `redirect` query parameter may be a full web
// address (full page navigation) or an in-app path (router navigation); without one the
// user goes to /reader.

export const BASE_PATH = '/platform';
export const DEFAULT_AFTER_LOGIN = '/reader';

export type RedirectTarget = { kind: 'external'; url: string } | { kind: 'internal'; path: string };

const FULL_ADDRESS = /^https?:\/\//i;
// Pages that would only bring the user back to a login form.
const AUTH_PAGES = /^\/(login|register)(\/|$|\?|#)/;

/** Turns a path that may carry the /platform base into a router path. */
export function toRouterPath(path: string): string {
  if (path === BASE_PATH) return '/';
  if (path.startsWith(`${BASE_PATH}/`) || path.startsWith(`${BASE_PATH}?`)) {
    const rest = path.slice(BASE_PATH.length);
    return rest.startsWith('?') ? `/${rest}` : rest;
  }
  return path;
}

export function resolveRedirect(raw: string | null | undefined, fallback = DEFAULT_AFTER_LOGIN): RedirectTarget {
  const value = (raw ?? '').trim();
  if (!value) return { kind: 'internal', path: fallback };
  if (FULL_ADDRESS.test(value)) return { kind: 'external', url: value };
  // Anything else with a scheme (javascript:, data:) or a protocol-relative //host is
  // neither a full web address nor an in-app path.
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith('//') || value.startsWith('\\')) {
    return { kind: 'internal', path: fallback };
  }
  const path = toRouterPath(value.startsWith('/') ? value : `/${value}`);
  if (AUTH_PAGES.test(path)) return { kind: 'internal', path: fallback };
  return { kind: 'internal', path };
}

/** Performs the navigation for a resolved target. */
export function followRedirect(
  target: RedirectTarget,
  navigate: (path: string, opts?: { replace?: boolean }) => void,
  assign: (url: string) => void = (url) => window.location.assign(url),
): void {
  if (target.kind === 'external') assign(target.url);
  else navigate(target.path, { replace: true });
}

/** `/login?redirect=<path>` for a router path (search included). */
export function loginPathWithRedirect(currentPath: string, loginPath = '/login'): string {
  return `${loginPath}?redirect=${encodeURIComponent(currentPath)}`;
}

/** Appends a query string (e.g. a forwarded ?redirect=) to a path. */
export function withSearch(path: string, params: URLSearchParams): string {
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * A `redirect` to offer as a "go back" link: an in-app path only (never another site, never
 * a login page), or null.
 */
export function inAppReturnPath(raw: string | null | undefined): string | null {
  const value = (raw ?? '').trim();
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  const path = toRouterPath(value);
  return AUTH_PAGES.test(path) ? null : path;
}
