// The logged-in user's profile (GET /users/me/). It is server state: it lives in react-query
// under one key, never in a store. Every fresh copy is also written to local storage as the
// userInfo snapshot of spec section 3, which seeds the cache after a reload so the header
// and the ownership checks need no round trip. Shared here because several features read
// who is logged in and features do not import each other (the users feature re-exports it).
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { api } from './api-client';
import type { User } from './api-types';
import { readJson, STORAGE_KEYS, writeJson } from './storage';

export const meQueryKey = ['users', 'me'] as const;

export const getMe = () => api.get<User>('/users/me/');

/** The last profile this browser saw, or null. */
export function readUserSnapshot(): User | null {
  return readJson<User>(STORAGE_KEYS.userInfo);
}

/** GET /users/me/, keeping the answer as the userInfo snapshot. */
export async function fetchMe(): Promise<User> {
  const user = await getMe();
  writeJson(STORAGE_KEYS.userInfo, user);
  return user;
}

/** A profile the server just gave (login, profile edit): into the cache and the snapshot. */
export function rememberMe(queryClient: QueryClient, user: User | null): void {
  writeJson(STORAGE_KEYS.userInfo, user);
  if (user) queryClient.setQueryData(meQueryKey, user);
  else queryClient.removeQueries({ queryKey: meQueryKey });
}

/** Follows the snapshot after another tab changed it. */
export function syncMeFromSnapshot(queryClient: QueryClient): void {
  const user = readUserSnapshot();
  if (user) queryClient.setQueryData(meQueryKey, user);
  else queryClient.removeQueries({ queryKey: meQueryKey });
}

const meQuery = {
  queryKey: meQueryKey,
  queryFn: fetchMe,
  // The snapshot shows at once but counts as stale, so a screen that asks for a fresh
  // profile (useMe) still fetches it.
  initialData: () => readUserSnapshot() ?? undefined,
  initialDataUpdatedAt: 0,
};

/** The profile, fetched when the screen mounts (profile and role screens). */
export function useMe() {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  return useQuery({ ...meQuery, enabled: loggedIn });
}

/** Who is logged in, from the cache or the snapshot, without a request; null when nobody is. */
export function useCurrentUser(): User | null {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const { data } = useQuery({ ...meQuery, enabled: false });
  return loggedIn ? (data ?? null) : null;
}
