// The login sequence of spec section 4, shared by e-mail and wallet login.
import type { LoginReply } from '@/lib/api-types';
import { useAuthStore } from '@/stores/auth';
import { isRole, useRoleStore } from '@/stores/role';
import { toast } from '@/stores/toast';

export const LOGIN_SUCCESS_MESSAGE = 'Successfully logged in';

export interface LoginDeps {
  /** Refreshes the wallet; its failure is ignored. */
  fetchWallet: () => Promise<unknown>;
}

export async function completeLogin(reply: LoginReply, deps: LoginDeps): Promise<void> {
  if (!reply?.access_token) throw new Error('The server answered without an access token');
  const auth = useAuthStore.getState();
  auth.setTokens(reply.access_token, reply.refresh_token ?? null);
  try {
    await deps.fetchWallet();
  } catch {
    // spec: a wallet failure after login is ignored
  }
  auth.setUser(reply.user ?? null);
  if (isRole(reply.user?.current_role)) useRoleStore.getState().setRole(reply.user.current_role);
  toast.success(LOGIN_SUCCESS_MESSAGE);
}
