// The settings form's checks, mirroring the server's (which enforces them): what a field
// may hold, and which field a server refusal is about.
import { ApiError } from '@/lib/api-client';
import { RATE_KEYS, type AdminSettings, type RateKey, type SettingsPatch } from './types';

export const RATE_MAX = 100_000;
export const NAME_MAX = 40;

/** The form's text fields; a rate left empty means "use the default". */
export interface SettingsDraft {
  trial_percent: string;
  seller_share_percent: string;
  assistant_name: string;
  registration_open: boolean;
  rate_limits: Record<RateKey, string>;
}

export type FieldName = 'trial_percent' | 'seller_share_percent' | 'assistant_name' | 'registration_open' | `rate_limits.${RateKey}`;
export type FieldErrors = Partial<Record<FieldName, string>>;

const WHOLE = /^\d+$/;

function wholeIn(raw: string, min: number, max: number): string | null {
  const v = raw.trim();
  if (!v) return 'This field is required';
  if (!WHOLE.test(v)) return 'Must be a whole number';
  const n = Number(v);
  return n >= min && n <= max ? null : `Must be between ${min} and ${max}`;
}

export function checkTrialPercent(raw: string): string | null {
  return wholeIn(raw, 1, 100);
}

export function checkSellerShare(raw: string): string | null {
  return wholeIn(raw, 0, 100);
}

// Letters (any script), digits, spaces, '-', '.' and apostrophes, a letter first.
const NAME = /^\p{L}[\p{L}\p{N} .'\u2019-]*$/u;

export function checkAssistantName(raw: string): string | null {
  const v = raw.trim();
  if (!v) return 'This field is required';
  if ([...v].length > NAME_MAX) return `Must be at most ${NAME_MAX} characters`;
  if (!/^\p{L}/u.test(v)) return 'Must start with a letter';
  return NAME.test(v) ? null : "Only letters, digits, spaces, '-', '.' and apostrophes";
}

/** Empty is fine: the gateway's default applies. */
export function checkRate(raw: string): string | null {
  return raw.trim() === '' ? null : wholeIn(raw, 1, RATE_MAX);
}

export function draftOf(s: AdminSettings): SettingsDraft {
  const rate_limits = {} as Record<RateKey, string>;
  for (const k of RATE_KEYS) {
    const v = s.rate_limits?.[k];
    const d = s.rate_limit_defaults?.[k];
    // A rate equal to the default shows empty: "use default" is what it means.
    rate_limits[k] = v === undefined || v === null || v === d ? '' : String(v);
  }
  return {
    trial_percent: String(s.trial_percent),
    seller_share_percent: String(s.seller_share_percent),
    assistant_name: s.assistant_name,
    registration_open: s.registration_open,
    rate_limits,
  };
}

export function validateDraft(d: SettingsDraft): FieldErrors {
  const errors: FieldErrors = {};
  const put = (k: FieldName, m: string | null) => {
    if (m) errors[k] = m;
  };
  put('trial_percent', checkTrialPercent(d.trial_percent));
  put('seller_share_percent', checkSellerShare(d.seller_share_percent));
  put('assistant_name', checkAssistantName(d.assistant_name));
  for (const k of RATE_KEYS) put(`rate_limits.${k}`, checkRate(d.rate_limits[k]));
  return errors;
}

/** Only what changed since `saved` (PUT is partial); a rate emptied goes back to the default (null). */
export function patchOf(d: SettingsDraft, saved: SettingsDraft): SettingsPatch {
  const patch: SettingsPatch = {};
  if (d.trial_percent.trim() !== saved.trial_percent) patch.trial_percent = Number(d.trial_percent.trim());
  if (d.seller_share_percent.trim() !== saved.seller_share_percent) patch.seller_share_percent = Number(d.seller_share_percent.trim());
  if (d.assistant_name.trim() !== saved.assistant_name) patch.assistant_name = d.assistant_name.trim();
  if (d.registration_open !== saved.registration_open) patch.registration_open = d.registration_open;
  const rates: Partial<Record<RateKey, number | null>> = {};
  for (const k of RATE_KEYS) {
    const now = d.rate_limits[k].trim();
    if (now !== saved.rate_limits[k]) rates[k] = now === '' ? null : Number(now);
  }
  if (Object.keys(rates).length) patch.rate_limits = rates;
  return patch;
}

const FIELDS: FieldName[] = ['trial_percent', 'seller_share_percent', 'assistant_name', 'registration_open', ...RATE_KEYS.map((k) => `rate_limits.${k}` as const)];

function fieldOfReason(reason: string): FieldName | null {
  const rate = /^rate(?:_limits)?[._]([a-z]+?)(?:_per_min)?$/.exec(reason);
  if (rate && (RATE_KEYS as readonly string[]).includes(rate[1])) return `rate_limits.${rate[1] as RateKey}`;
  return (FIELDS as string[]).includes(reason) ? (reason as FieldName) : null;
}

/**
 * The field a server refusal names: its reason is `invalid_<field>` (the rates as
 * `rate_limits.<key>`, `rate_limits_<key>` or `rate_<key>_per_min`), or its text starts
 * with the field. Null when it names none of the form's fields.
 */
export function fieldOfError(error: unknown): FieldName | null {
  if (!(error instanceof ApiError)) return null;
  const byReason = fieldOfReason((error.code ?? '').replace(/^invalid_/, ''));
  if (byReason) return byReason;
  const lead = /^([a-z_.]+)\s*:/.exec(error.message)?.[1];
  return lead ? fieldOfReason(lead) : null;
}
