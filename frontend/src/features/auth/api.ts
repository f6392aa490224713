import { api } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';
import type { LoginReply, User } from '@/lib/api-types';

// A 401 from these calls means wrong credentials, not an expired session.
const credentialCall = { skipAuthRedirect: true } as const;

/** With `verifyCode` (mailed by sendSignInCode) the password is checked past the limits on failed logins. */
export function loginWithPassword(email: string, password: string, verifyCode?: string) {
  const json = verifyCode ? { email, password, verify_code: verifyCode } : { email, password };
  return api.post<LoginReply>('/login/', { json, ...credentialCall });
}

export function loginWithWallet(message: string, signature: string) {
  return api.post<LoginReply>('/login/', { json: { wallet: { message, signature } }, ...credentialCall });
}

export async function getLoginNonce(): Promise<string> {
  const data = await api.get<{ nonce: string }>('/login/nonce');
  if (!data?.nonce) throw new Error('The server gave no sign-in nonce');
  return data.nonce;
}

export function sendVerifyEmail(email: string) {
  return api.post<unknown>('/send_verify_email', { params: { email }, ...credentialCall });
}

export function checkVerifyCode(email: string, verifyCode: string) {
  return api.post<unknown>('/check_verify_code', { params: { email, verify_code: verifyCode }, ...credentialCall });
}

export interface RegisterInput {
  email: string;
  password: string;
  username: string;
  verify_code: string;
  invite_code?: string;
}

export function register(input: RegisterInput) {
  const body: RegisterInput = { ...input };
  if (!body.invite_code) delete body.invite_code;
  return api.post<User>('/register/', { json: body, ...credentialCall });
}

/** Logout's outcome does not matter: the session is cleared either way. */
export function logout(refreshToken: string | null) {
  return api.post<unknown>('/users/logout', {
    json: refreshToken ? { refresh_token: refreshToken } : {},
    ignoreErrors: true,
  });
}

type Schemas = components['schemas'];
export type PasswordResetInput = Schemas['PasswordResetBody'];

/** Answers the same whether or not an account uses the address (no account is revealed). */
export function sendPasswordResetCode(email: string) {
  return api.post<Schemas['VerifySentOut']>('/users/password-reset/code/', { json: { email }, ...credentialCall });
}

/** A sign-in code for when failed logins keep the account waiting; the same answer for any address. */
export function sendSignInCode(email: string) {
  return api.post<Schemas['VerifySentOut']>('/login/code/', { json: { email }, ...credentialCall });
}

/** Sets the new password with the mailed code; every session of the account ends. */
export function resetPassword(input: PasswordResetInput) {
  return api.post<Schemas['PasswordResetOut']>('/users/password-reset/', { json: input, ...credentialCall });
}

// Sign-in through an OpenID Connect provider (authorization code flow with PKCE; the
// server keeps the verifier and the nonce, the browser only the state).
export interface OidcConfig {
  enabled: boolean;
  display_name: string;
}
export interface OidcStart {
  authorization_url: string;
  state: string;
}

/** Whether a provider is configured; a failure means "no button", not a toast. */
export function getOidcConfig() {
  return api.get<OidcConfig>('/auth/oidc', { ignoreErrors: true });
}

export function startOidcLogin(redirectUri: string) {
  return api.post<OidcStart>('/auth/oidc/start', { json: { redirect_uri: redirectUri }, ...credentialCall });
}

/**
 * The provider's code for the tokens of a password login. Its refusals (401 bad state or
 * code, 403 unverified e-mail or disabled account, 409 registration closed) are the
 * callback page's to show: no toast, no session reset.
 */
export function finishOidcLogin(state: string, code: string) {
  return api.post<LoginReply>('/auth/oidc/finish', { json: { state, code }, ...credentialCall, notify: false });
}
