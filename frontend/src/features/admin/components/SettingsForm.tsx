// /admin/settings: every live setting on one form. Checked here as the server checks them
// (the server decides); only what changed is sent (PUT is partial), and a refusal naming a
// field shows at that field.
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { Card, CardHeader, EmptyState } from '@/components/Card';
import { TextField } from '@/components/TextField';
import { toast } from '@/stores/toast';
import { useAdminSettings, useSaveAdminSettings } from '../queries';
import { draftOf, fieldOfError, patchOf, validateDraft, type FieldErrors, type FieldName, type SettingsDraft } from '../settings-rules';
import { RATE_KEYS, type AdminSettings, type RateKey } from '../types';

export const SAVED_MESSAGE = 'Settings saved';

const RATE_LABELS: Record<RateKey, { label: string; hint: string }> = {
  login: { label: 'Log-in attempts', hint: 'per client, per minute' },
  verify: { label: 'Verification e-mails', hint: 'per client, per minute' },
  api: { label: 'API requests', hint: 'per signed-in user, per minute' },
  upload: { label: 'Uploads', hint: 'per user, per minute' },
  chat: { label: 'Assistant messages', hint: 'per user, per minute' },
  anonymous: { label: 'Anonymous requests', hint: 'per client, per minute' },
};

export function SettingsForm() {
  const settings = useAdminSettings();
  if (settings.isLoading) {
    return (
      <Card aria-busy="true">
        <span className="visually-hidden" role="status">
          Loading the settings
        </span>
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="admin-skeleton admin-skeleton-line" aria-hidden />
        ))}
      </Card>
    );
  }
  if (!settings.data) {
    return (
      <Card>
        <EmptyState icon="alert" title="The settings could not be loaded">
          <Button variant="secondary" size="sm" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        </EmptyState>
      </Card>
    );
  }
  return <SettingsEditor saved={settings.data} />;
}

export function SettingsEditor({ saved }: { saved: AdminSettings }) {
  const save = useSaveAdminSettings();
  const [base, setBase] = useState<SettingsDraft>(() => draftOf(saved));
  const [draft, setDraft] = useState<SettingsDraft>(base);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  // A newer copy from the server (after a save, or a refetch) becomes what edits compare to.
  useEffect(() => {
    const next = draftOf(saved);
    setBase(next);
    setDraft(next);
  }, [saved]);

  const edit = (patch: Partial<SettingsDraft>, field?: FieldName) => {
    setDraft((d) => ({ ...d, ...patch }));
    setDone(false);
    setFormError(null);
    if (field) setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const editRate = (k: RateKey, value: string) => edit({ rate_limits: { ...draft.rate_limits, [k]: value } }, `rate_limits.${k}`);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateDraft(draft);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    const patch = patchOf(draft, base);
    if (Object.keys(patch).length === 0) {
      setDone(true);
      return;
    }
    save.mutate(patch, {
      onSuccess: () => {
        setDone(true);
        toast.success(SAVED_MESSAGE);
      },
      onError: (error) => {
        const field = fieldOfError(error);
        const message = error instanceof Error && error.message ? error.message : 'The settings could not be saved';
        if (field) setErrors((e) => ({ ...e, [field]: message }));
        else setFormError(message);
      },
    });
  };

  const defaults = saved.rate_limit_defaults;

  return (
    <form className="settings-form" onSubmit={onSubmit} noValidate aria-label="Platform settings">
      <Card>
        <CardHeader title="Books and sales" subtitle="Apply to every book at once, and to the next trade." />
        <div className="settings-grid">
          <TextField
            label="Free sample (% of each book)"
            inputMode="numeric"
            name="trial_percent"
            value={draft.trial_percent}
            error={errors.trial_percent}
            hint="1 to 100: how much of an unbought book readers may read."
            onChange={(e) => edit({ trial_percent: e.target.value }, 'trial_percent')}
          />
          <TextField
            label="Writer's share of a sale (%)"
            inputMode="numeric"
            name="seller_share_percent"
            value={draft.seller_share_percent}
            error={errors.seller_share_percent}
            hint="0 to 100 (k): the rest is the platform's. Used by the next trade and campaign settlement."
            onChange={(e) => edit({ seller_share_percent: e.target.value }, 'seller_share_percent')}
          />
        </div>
      </Card>
      <Card>
        <CardHeader title="Assistant and accounts" />
        <div className="settings-grid">
          <TextField
            label="Assistant's name"
            name="assistant_name"
            value={draft.assistant_name}
            error={errors.assistant_name}
            maxLength={60}
            hint="1 to 40 characters: letters, digits, spaces, '-', '.' and apostrophes, starting with a letter. The next reply uses it."
            onChange={(e) => edit({ assistant_name: e.target.value }, 'assistant_name')}
          />
          <div className="settings-toggle">
            <span className="field-label">Registration</span>
            <label className="check admin-check">
              <input
                type="checkbox"
                name="registration_open"
                checked={draft.registration_open}
                onChange={(e) => edit({ registration_open: e.target.checked }, 'registration_open')}
              />
              <span>Open: new people can create accounts</span>
            </label>
            {errors.registration_open ? (
              <p className="field-error" role="alert">
                {errors.registration_open}
              </p>
            ) : (
              <p className="field-hint">{draft.registration_open ? 'Anyone can sign up.' : 'Closed: sign-up (and new single sign-on accounts) are refused.'}</p>
            )}
          </div>
        </div>
      </Card>
      <Card>
        <CardHeader title="Rate limits" subtitle="Requests per minute. Leave a field empty to use the default; the gateway applies a change within seconds." />
        <div className="settings-grid">
          {RATE_KEYS.map((k) => {
            const usesDefault = draft.rate_limits[k].trim() === '';
            return (
              <TextField
                key={k}
                label={RATE_LABELS[k].label}
                inputMode="numeric"
                name={`rate_limits.${k}`}
                value={draft.rate_limits[k]}
                placeholder={defaults?.[k] !== undefined ? `${defaults[k]} (default)` : 'default'}
                error={errors[`rate_limits.${k}`]}
                hint={`${RATE_LABELS[k].hint}; default ${defaults?.[k] ?? '—'}${usesDefault ? ' (in use)' : ''}`}
                onChange={(e) => editRate(k, e.target.value)}
                trailing={
                  usesDefault ? null : (
                    <button type="button" className="field-toggle" onClick={() => editRate(k, '')} aria-label={`Use the default for ${RATE_LABELS[k].label}`}>
                      Use default
                    </button>
                  )
                }
              />
            );
          })}
        </div>
      </Card>
      {formError ? (
        <p className="notice notice-error" role="alert">
          {formError}
        </p>
      ) : null}
      {done ? (
        <p className="notice notice-success" role="status" data-testid="settings-saved">
          {SAVED_MESSAGE}. Every service uses them now.
        </p>
      ) : null}
      <div className="form-actions">
        <Button type="submit" loading={save.isPending}>
          Save settings
        </Button>
      </div>
    </form>
  );
}
