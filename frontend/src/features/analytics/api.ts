// The analytics' REST call: a writer's or a publisher's sales over the last days.
import { api } from '@/lib/api-client';
import type { ReportRole, SalesReport } from './types';

export const analyticsKeys = {
  all: ['analytics'] as const,
  sales: (as: ReportRole, days: number) => ['analytics', 'sales', as, days] as const,
};

export function getSalesReport(as: ReportRole, days: number): Promise<SalesReport> {
  return api.get<SalesReport>('/analytics/sales', { params: { as, days }, notify: false });
}
