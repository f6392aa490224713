// The session as the browser keeps it (spec section 3): tokens, the admin flag and the
// userInfo snapshot, mirrored to their local-storage keys so a reload or another tab sees
// the same session. Profile data itself is server state and lives in react-query.
import { create } from 'zustand';
import type { User } from '@/lib/api-types';
import {
  clearSessionStorage,
  readItem,
  readJson,
  STORAGE_KEYS,
  writeItem,
  writeJson,
} from '@/lib/storage';

interface AuthState {
  accessToken: string | null;
  refreshToken: string | null;
  user: User | null;
  adminLoggedIn: boolean;
  setTokens: (accessToken: string, refreshToken?: string | null) => void;
  setUser: (user: User | null) => void;
  setAdminLoggedIn: (value: boolean) => void;
  /** Clears storage (isVerified kept) and the in-memory session. */
  clear: () => void;
  /** Re-reads local storage, e.g. after the api client wiped it on a 401. */
  hydrate: () => void;
}

function fromStorage() {
  return {
    accessToken: readItem(STORAGE_KEYS.accessToken),
    refreshToken: readItem(STORAGE_KEYS.refreshToken),
    user: readJson<User>(STORAGE_KEYS.userInfo),
    adminLoggedIn: readItem(STORAGE_KEYS.adminLoggedIn) === 'true',
  };
}

export const useAuthStore = create<AuthState>((set) => ({
  ...fromStorage(),
  setTokens: (accessToken, refreshToken) => {
    writeItem(STORAGE_KEYS.accessToken, accessToken);
    if (refreshToken !== undefined) writeItem(STORAGE_KEYS.refreshToken, refreshToken);
    set((s) => ({ accessToken, refreshToken: refreshToken === undefined ? s.refreshToken : refreshToken }));
  },
  setUser: (user) => {
    writeJson(STORAGE_KEYS.userInfo, user);
    set({ user });
  },
  setAdminLoggedIn: (value) => {
    writeItem(STORAGE_KEYS.adminLoggedIn, value ? 'true' : null);
    set({ adminLoggedIn: value });
  },
  clear: () => {
    clearSessionStorage();
    set({ ...fromStorage() });
  },
  hydrate: () => set({ ...fromStorage() }),
}));

export const selectIsLoggedIn = (s: AuthState) => Boolean(s.accessToken);

/** Admin pages are gated only by the local flag (spec section 6). */
export function isAdminFlagSet(): boolean {
  return readItem(STORAGE_KEYS.adminLoggedIn) === 'true';
}
