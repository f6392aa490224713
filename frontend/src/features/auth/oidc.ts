// The browser's half of the OpenID Connect sign-in: where the provider sends the browser
// back, and the state kept for the round trip (sessionStorage: this tab only, gone when
// it closes) with the page to land on afterwards. The callback refuses a state that is
// not the one this tab started with (a forged or replayed callback).

export const OIDC_CALLBACK_PATH = '/platform/login/oidc';
const KEY = 'quire.oidc';

export interface PendingOidc {
  state: string;
  /** The ?redirect= the login page had, if any. */
  redirect: string | null;
}

export function callbackUri(origin: string = window.location.origin): string {
  return `${origin}${OIDC_CALLBACK_PATH}`;
}

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function rememberPending(pending: PendingOidc): void {
  session()?.setItem(KEY, JSON.stringify(pending));
}

/** Reads and forgets the pending sign-in: a state is used once. */
export function takePending(): PendingOidc | null {
  const s = session();
  const raw = s?.getItem(KEY) ?? null;
  s?.removeItem(KEY);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<PendingOidc>;
    return typeof v.state === 'string' && v.state ? { state: v.state, redirect: typeof v.redirect === 'string' ? v.redirect : null } : null;
  } catch {
    return null;
  }
}

export type CallbackCheck =
  | { ok: true; state: string; code: string; redirect: string | null }
  | { ok: false; reason: string };

export const STATE_MISMATCH = 'This sign-in did not start in this browser tab, or it was already used. For your safety it was stopped.';

/** What the provider sent back (`?code=&state=` or `?error=`) against what this tab started. */
export function checkCallback(params: URLSearchParams, pending: PendingOidc | null): CallbackCheck {
  const error = params.get('error');
  if (error) {
    const said = params.get('error_description');
    return { ok: false, reason: error === 'access_denied' ? 'The sign-in was cancelled at the provider.' : `The provider refused the sign-in${said ? `: ${said}` : ` (${error})`}.` };
  }
  const state = params.get('state');
  const code = params.get('code');
  if (!state || !code) return { ok: false, reason: 'The provider sent the browser back without a sign-in code.' };
  if (!pending || pending.state !== state) return { ok: false, reason: STATE_MISMATCH };
  return { ok: true, state, code, redirect: pending.redirect };
}

/** The words for a refused finish, by status (the server's own text when it gave one). */
export function finishFailure(status: number, serverText: string | null): string {
  if (status === 403) return serverText || 'Your account cannot sign in this way: the provider has not verified your e-mail address, or the account is disabled.';
  if (status === 409) return serverText || 'Registration is closed: a new account cannot be created right now.';
  if (status === 401) return serverText || 'The sign-in could not be completed (it expired or was already used). Please start again.';
  return serverText || 'The sign-in could not be completed. Please try again.';
}
