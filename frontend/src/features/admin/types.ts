// The admin area's reply shapes (GET /api/admin/dashboard, /api/admin/settings,
// /api/admin/audit). Money arrives as the REST API writes it (a decimal, as a number or a
// string): read it with @/lib/money, never parseFloat and sum.
import type { Role, User } from '@/lib/api-types';

export type Money = number | string;

export interface DayCount {
  day: string;
  count: number;
}
export interface DayAmount extends DayCount {
  amount: Money;
}

export interface UsersPart {
  total: number;
  disabled: number;
  by_role: Partial<Record<Role, number>>;
  signups: DayCount[];
}
export interface BooksPart {
  total: number;
  listed: number;
  taken_down: number;
  created: DayCount[];
}
export interface SalesPart {
  trades: number;
  revenue: Money;
  platform_revenue: Money;
  trades_per_day: DayAmount[];
  top_ups_per_day: DayAmount[];
  campaigns: { open: number; funded: number; failed: number };
  escrow: Money;
}
export interface ChatPart {
  conversations: number;
  turns_per_day: DayCount[];
}
export interface ConsumerLag {
  group: string;
  topic: string;
  /** -1 when the broker could not be asked. */
  lag: number;
}
export interface ServiceStatus {
  service: string;
  outbox_pending: number;
  outbox_oldest_secs: number;
  consumers: ConsumerLag[];
}

/**
 * A part whose service failed is null and named in `unavailable`; a service whose status
 * could not be had is missing from `services` and named there as `services.<name>`.
 */
export interface Dashboard {
  days: number;
  users: UsersPart | null;
  books: BooksPart | null;
  sales: SalesPart | null;
  chat: ChatPart | null;
  services: ServiceStatus[] | null;
  unavailable: string[];
}

export type RateKey = 'login' | 'verify' | 'api' | 'upload' | 'chat' | 'anonymous';
export const RATE_KEYS: readonly RateKey[] = ['login', 'verify', 'api', 'upload', 'chat', 'anonymous'];

export interface AdminSettings {
  trial_percent: number;
  seller_share_percent: number;
  assistant_name: string;
  registration_open: boolean;
  rate_limits: Record<RateKey, number>;
  rate_limit_defaults: Record<RateKey, number>;
}

/** PUT /api/admin/settings: only the fields present change; a rate of null is the default again. */
export interface SettingsPatch {
  trial_percent?: number;
  seller_share_percent?: number;
  assistant_name?: string;
  registration_open?: boolean;
  rate_limits?: Partial<Record<RateKey, number | null>>;
}

export interface AuditEntry {
  id: string;
  at: string;
  service: string;
  actor_id: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

export interface AuditPage {
  entries: AuditEntry[];
  chain_intact: boolean;
  next_before: string | null;
  unavailable: string[];
}

export type AdminUser = User & { disabled?: boolean };
