import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { LoginReply } from '@/lib/api-types';
import { followRedirect, resolveRedirect } from '@/lib/redirect';
import { useAuthStore } from '@/stores/auth';
import { useRoleStore } from '@/stores/role';
import { logout } from './api';
import { completeLogin, type LoginDeps } from './session';

/**
 * Finishes a login and leaves for ?redirect= (full address or in-app path) or /reader. A
 * login that went through another site (OIDC) passes the redirect it kept for the trip.
 */
export function useFinishLogin(deps: LoginDeps) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  return async (reply: LoginReply, redirect: string | null = params.get('redirect')) => {
    queryClient.clear(); // nothing cached for a previous user may leak into this session
    await completeLogin(reply, { ...deps, queryClient });
    followRedirect(resolveRedirect(redirect), navigate);
  };
}

export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => logout(useAuthStore.getState().refreshToken),
    onSettled: () => {
      useAuthStore.getState().clear();
      useRoleStore.getState().hydrate();
      queryClient.clear();
      navigate('/login', { replace: true });
    },
  });
}
