// The role the user is acting as (spec section 4): kept in local storage under
// currentRole (default reader) and following the role segment of /h5/{role}/ paths.
import { create } from 'zustand';
import type { Role } from '@/lib/api-types';
import { readItem, STORAGE_KEYS, writeItem } from '@/lib/storage';

export const ROLES: readonly Role[] = ['reader', 'writer', 'publisher', 'admin'];
/** Roles that have an h5 area and that a user may add to themselves. */
export const SELF_SERVICE_ROLES = ['reader', 'writer', 'publisher'] as const;
export type H5Role = (typeof SELF_SERVICE_ROLES)[number];
export const DEFAULT_ROLE: Role = 'reader';

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function isH5Role(value: unknown): value is H5Role {
  return typeof value === 'string' && (SELF_SERVICE_ROLES as readonly string[]).includes(value);
}

/** The role segment after /h5/ (with or without the /platform base), if any. */
export function roleFromPath(pathname: string): H5Role | null {
  const match = /^(?:\/platform)?\/h5\/([^/?#]+)/.exec(pathname);
  return match && isH5Role(match[1]) ? match[1] : null;
}

export function h5ProfilePath(role: H5Role): string {
  return `/h5/${role}/profile`;
}

function storedRole(): Role {
  const value = readItem(STORAGE_KEYS.currentRole);
  return isRole(value) ? value : DEFAULT_ROLE;
}

interface RoleState {
  currentRole: Role;
  setRole: (role: Role) => void;
  /** Adopts the role named by an /h5/{role}/ path; other paths leave it alone. */
  syncFromPath: (pathname: string) => void;
  hydrate: () => void;
}

export const useRoleStore = create<RoleState>((set, get) => ({
  currentRole: storedRole(),
  setRole: (role) => {
    writeItem(STORAGE_KEYS.currentRole, role);
    set({ currentRole: role });
  },
  syncFromPath: (pathname) => {
    const role = roleFromPath(pathname);
    if (role && role !== get().currentRole) get().setRole(role);
  },
  hydrate: () => set({ currentRole: storedRole() }),
}));
