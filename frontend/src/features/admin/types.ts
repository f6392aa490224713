// The admin area's request and reply shapes (/api/admin/dashboard, /api/admin/settings,
// /api/admin/audit, /api/users/ and the account actions), from the types generated from the
// gateway's OpenAPI document (src/lib/api-schema.d.ts). Only what the document cannot say is
// narrowed: the role names. Money is a decimal number: read it with @/lib/money, never sum
// floats.
import type { components } from '@/lib/api-schema';
import type { Role, User } from '@/lib/api-types';

type Schemas = components['schemas'];

export type DayCount = Schemas['DayCountOut'];
export type DayAmount = Schemas['DayAmountOut'];
export type UsersPart = Schemas['UserStatsOut'];
export type BooksPart = Schemas['BookStatsOut'];
export type SalesPart = Schemas['SalesStatsOut'];
export type ChatPart = Schemas['ChatStatsOut'];
/** lag: -1 when the broker could not be asked. */
export type ConsumerLag = Schemas['ConsumerLagOut'];
export type ServiceStatus = Schemas['ServiceStatusOut'];

/**
 * A part whose service failed is null and named in `unavailable`; a service whose status
 * could not be had is missing from `services` and named there as `services.<name>`.
 */
export type Dashboard = Schemas['DashboardOut'];

export type RateKey = keyof Schemas['RateLimitsOut'];
export const RATE_KEYS: readonly RateKey[] = ['login', 'verify', 'api', 'upload', 'chat', 'anonymous'];

export type AdminSettings = Schemas['AdminSettingsOut'];

/** PUT /api/admin/settings: only the fields present change; a rate of null is the default again. */
export type SettingsPatch = Schemas['SettingsBody'];

export type AuditEntry = Schemas['AuditEntryOut'];
export type AuditPage = Schemas['AuditPageOut'];

/** An account as the admin's list shows it (`disabled` included). */
export type AdminUser = User;

/** POST /api/users/ (admin). */
export type NewUser = Omit<Schemas['CreateUserBody'], 'roles'> & { roles: Role[] };

/** PUT /api/admin/users/{id}/roles: every role the account is to hold. */
export type RolesChange = Omit<Schemas['RolesBody'], 'roles'> & { roles: Role[] };
