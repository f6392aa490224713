import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role, User } from '@/lib/api-types';
import { fetchMe, meQueryKey, rememberMe } from '@/lib/me';
import { useAuthStore } from '@/stores/auth';
import { useRoleStore } from '@/stores/role';
import { toast } from '@/stores/toast';
import { addRole, getInviteCodes, getInvitedByMe, switchRole, updateMe, type ProfilePatch } from './api';

export { useCurrentUser, useMe } from '@/lib/me';

export const userKeys = {
  all: ['users'] as const,
  /** The profile's key, shared with src/lib/me.ts. */
  me: () => meQueryKey,
  inviteCodes: () => [...userKeys.all, 'invite-codes'] as const,
  invitedByMe: (userId: User['user_id']) => [...userKeys.all, 'invited-by', String(userId)] as const,
};

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: ProfilePatch) => updateMe(patch),
    onSuccess: async (user) => {
      if (user && typeof user === 'object' && 'user_id' in user) {
        rememberMe(queryClient, user);
      } else {
        await queryClient.invalidateQueries({ queryKey: userKeys.me() });
      }
      toast.success('Profile saved');
    },
  });
}

export function useInviteCodes(enabled = true) {
  return useQuery({ queryKey: userKeys.inviteCodes(), queryFn: getInviteCodes, enabled });
}

export function useInvitedByMe(userId: User['user_id'] | undefined) {
  return useQuery({
    queryKey: userKeys.invitedByMe(userId ?? ''),
    queryFn: () => getInvitedByMe(userId as User['user_id']),
    enabled: userId !== undefined && userId !== null && userId !== '',
  });
}

/**
 * Spec section 4: the switch-role reply's access_token replaces the stored one, then user
 * info is refreshed, then the wallet (whose failure is ignored).
 */
export function useSwitchRole(refreshWallet: () => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (role: Role) => {
      const { access_token } = await switchRole(role);
      if (!access_token) throw new Error('The server answered without an access token');
      useAuthStore.getState().setTokens(access_token);
      const user = await fetchMe();
      queryClient.setQueryData(userKeys.me(), user);
      try {
        await refreshWallet();
      } catch {
        // wallet refresh failures are ignored
      }
      useRoleStore.getState().setRole(role);
      return user;
    },
    onSuccess: (_user, role) => toast.success(`You are now acting as ${role}`),
  });
}

export function useAddRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (role: Role) => {
      await addRole(role);
      const user = await fetchMe();
      queryClient.setQueryData(userKeys.me(), user);
      return user;
    },
    onSuccess: (_user, role) => toast.success(`Role ${role} added to your account`),
  });
}
