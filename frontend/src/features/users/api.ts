import { api } from '@/lib/api-client';
import type { InviteCode, Role, User } from '@/lib/api-types';

export interface ProfilePatch {
  username?: string;
  avatar_url?: string;
  bio?: string;
}

/** Lists may come plain or in the paged shape; screens want the items. */
function asList<T>(data: unknown): T[] {
  if (Array.isArray(data)) return data as T[];
  if (data && typeof data === 'object' && Array.isArray((data as { result?: unknown }).result)) {
    return (data as { result: T[] }).result;
  }
  return [];
}

export const updateMe = (patch: ProfilePatch) => api.post<User>('/users/me/', { json: patch });

export const switchRole = (newRole: Role) =>
  api.post<{ access_token: string }>('/users/me/switch-role/', { json: { new_role: newRole } });

export const addRole = (role: Role) => api.post<unknown>('/users/add-role/', { json: { role } });

export const getInviteCodes = async () => asList<InviteCode>(await api.get('/get_invite_codes'));

export const getInvitedByMe = async (userId: User['user_id']) =>
  asList<User>(await api.get('/users/get_invited_by_me', { params: { user_id: userId } }));
