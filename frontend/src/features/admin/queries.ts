// The admin area's server state (react-query): the dashboard per range, the audit log page
// by page, the settings, the users list and the account actions.
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '@/lib/api-types';
import {
  adminKeys,
  AUDIT_PAGE_SIZE,
  DEFAULT_PAGE_SIZE,
  getAdminSettings,
  getAudit,
  getDashboard,
  listUsers,
  saveAdminSettings,
  setUserDisabled,
  setUserRoles,
} from './api';
import type { AdminSettings, AdminUser, SettingsPatch } from './types';

export function useDashboard(days: number) {
  return useQuery({ queryKey: adminKeys.dashboard(days), queryFn: () => getDashboard(days), placeholderData: keepPreviousData });
}

/** The audit log, newest first; fetchNextPage brings the next older page (next_before). */
export function useAuditLog(limit = AUDIT_PAGE_SIZE) {
  return useInfiniteQuery({
    queryKey: adminKeys.audit(limit),
    queryFn: ({ pageParam }) => getAudit(pageParam, limit),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last?.next_before ?? null,
  });
}

export function useAdminSettings() {
  return useQuery({ queryKey: adminKeys.settings(), queryFn: getAdminSettings });
}

export function useSaveAdminSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: SettingsPatch) => saveAdminSettings(patch),
    onSuccess: (saved: AdminSettings) => {
      queryClient.setQueryData(adminKeys.settings(), saved);
      // The public settings (trial size, registration, assistant name) and the log changed.
      void queryClient.invalidateQueries({ queryKey: ['catalog', 'settings'] });
      void queryClient.invalidateQueries({ queryKey: adminKeys.auditAll() });
    },
  });
}

export function useUsers(page: number, query: string, pageSize = DEFAULT_PAGE_SIZE) {
  return useQuery({
    queryKey: adminKeys.users(page, pageSize, query.trim()),
    queryFn: () => listUsers(page, pageSize, query),
    placeholderData: keepPreviousData,
  });
}

/** After an account action: the lists show the new state, the log the new entry. */
function useUserChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: adminKeys.usersAll() });
    void queryClient.invalidateQueries({ queryKey: adminKeys.auditAll() });
  };
}

export function useSetDisabled() {
  const changed = useUserChanged();
  return useMutation({
    mutationFn: ({ user, disabled }: { user: AdminUser; disabled: boolean }) => setUserDisabled(String(user.user_id), disabled),
    onSuccess: changed,
  });
}

export function useSetRoles() {
  const changed = useUserChanged();
  return useMutation({
    mutationFn: ({ user, roles }: { user: AdminUser; roles: Role[] }) => setUserRoles(String(user.user_id), roles),
    onSuccess: changed,
  });
}
