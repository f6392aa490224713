// The login sequence of spec section 4, shared by e-mail and wallet login.
import type { QueryClient } from '@tanstack/react-query';
import type { LoginReply } from '@/lib/api-types';
import { rememberMe } from '@/lib/me';
import { useAuthStore } from '@/stores/auth';
import { isRole, useRoleStore } from '@/stores/role';
import { toast } from '@/stores/toast';

export const LOGIN_SUCCESS_MESSAGE = 'Successfully logged in';

export interface LoginDeps {
  /** Refreshes the wallet; its failure is ignored. */
  fetchWallet: () => Promise<unknown>;
}

/** `queryClient` receives the reply's profile (react-query; also kept as userInfo). */
export async function completeLogin(reply: LoginReply, deps: LoginDeps & { queryClient: QueryClient }): Promise<void> {
  if (!reply?.access_token) throw new Error('The server answered without an access token');
  const auth = useAuthStore.getState();
  auth.setTokens(reply.access_token, reply.refresh_token ?? null);
  try {
    await deps.fetchWallet();
  } catch {
    // spec: a wallet failure after login is ignored
  }
  rememberMe(deps.queryClient, reply.user ?? null);
  if (isRole(reply.user?.current_role)) useRoleStore.getState().setRole(reply.user.current_role);
  toast.success(LOGIN_SUCCESS_MESSAGE);
}
