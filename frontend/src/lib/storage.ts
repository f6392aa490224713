// The local-storage keys are part of the product contract (spec section 3): other tabs,
// the h5 pages and later milestones read them, so their names never change.
export const STORAGE_KEYS = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  adminLoggedIn: 'adminLoggedIn',
  isVerified: 'isVerified',
  currentRole: 'currentRole',
  userInfo: 'userInfo',
} as const;

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null; // private mode or blocked storage: behave as logged out
  }
}

export function readItem(key: string): string | null {
  return storage()?.getItem(key) ?? null;
}

export function writeItem(key: string, value: string | null): void {
  const s = storage();
  if (!s) return;
  if (value === null) s.removeItem(key);
  else s.setItem(key, value);
}

export function readJson<T>(key: string): T | null {
  const raw = readItem(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  writeItem(key, value === null || value === undefined ? null : JSON.stringify(value));
}

/** Logout and 401/403 clear everything except isVerified (spec section 4). */
export function clearSessionStorage(): void {
  const s = storage();
  if (!s) return;
  const verified = s.getItem(STORAGE_KEYS.isVerified);
  s.clear();
  if (verified !== null) s.setItem(STORAGE_KEYS.isVerified, verified);
}
