import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { analyticsKeys, getSalesReport } from './api';
import type { ReportRole } from './types';

/** The caller's sales report (server state; refetched when the window comes back). */
export function useSalesReport(as: ReportRole, days: number) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  return useQuery({
    queryKey: analyticsKeys.sales(as, days),
    queryFn: () => getSalesReport(as, days),
    enabled: loggedIn,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
