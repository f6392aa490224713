// The session as the browser keeps it (spec section 3): the tokens and the admin flag,
// mirrored to their local-storage keys so a reload or another tab sees the same session.
// The profile is server state and lives in react-query (src/lib/me.ts), never here.
import { create } from 'zustand';
import { clearSessionStorage, readItem, STORAGE_KEYS, writeItem } from '@/lib/storage';

interface AuthState {
  accessToken: string | null;
  refreshToken: string | null;
  adminLoggedIn: boolean;
  setTokens: (accessToken: string, refreshToken?: string | null) => void;
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
