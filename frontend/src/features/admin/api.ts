import { api } from '@/lib/api-client';
import type { LoginReply, Paged, Role } from '@/lib/api-types';
import type { AdminSettings, AdminUser, AuditPage, Dashboard, NewUser, RolesChange, SettingsPatch } from './types';

export const DEFAULT_PAGE_SIZE = 10;
export const AUDIT_PAGE_SIZE = 50;

export const adminKeys = {
  all: ['admin'] as const,
  usersAll: () => [...adminKeys.all, 'users'] as const,
  users: (page: number, pageSize: number, query = '') => [...adminKeys.usersAll(), page, pageSize, query] as const,
  dashboard: (days: number) => [...adminKeys.all, 'dashboard', days] as const,
  auditAll: () => [...adminKeys.all, 'audit'] as const,
  audit: (limit: number) => [...adminKeys.auditAll(), limit] as const,
  settings: () => [...adminKeys.all, 'settings'] as const,
};

export function adminLogin(email: string, password: string) {
  return api.post<LoginReply>('/login/', { json: { email, password }, skipAuthRedirect: true });
}

export function listUsers(page: number, pageSize = DEFAULT_PAGE_SIZE, query = ''): Promise<Paged<AdminUser>> {
  const q = query.trim();
  return api.get<Paged<AdminUser>>('/users/', { params: { page, page_size: pageSize, query: q || undefined } });
}

export function createUser(input: NewUser) {
  return api.post<AdminUser>('/users/', { json: input });
}

// The actions below show their failure where they were taken (a dialog, a field), so the
// request layer does not toast it as well.
const inPlace = { notify: false } as const;

export function setUserDisabled(userId: string, disabled: boolean) {
  return api.post<AdminUser>(`/admin/users/${encodeURIComponent(userId)}/${disabled ? 'disable' : 'enable'}`, inPlace);
}

export function setUserRoles(userId: string, roles: Role[]) {
  const json: RolesChange = { roles };
  return api.put<AdminUser>(`/admin/users/${encodeURIComponent(userId)}/roles`, { json, ...inPlace });
}

export function getDashboard(days: number) {
  return api.get<Dashboard>('/admin/dashboard', { params: { days } });
}

/** One page of the merged audit log, newest first; `before` is the last page's next_before. */
export function getAudit(before: string | null, limit = AUDIT_PAGE_SIZE) {
  return api.get<AuditPage>('/admin/audit', { params: { before: before ?? undefined, limit } });
}

export function getAdminSettings() {
  return api.get<AdminSettings>('/admin/settings');
}

export function saveAdminSettings(patch: SettingsPatch) {
  return api.put<AdminSettings>('/admin/settings', { json: patch, ...inPlace });
}
