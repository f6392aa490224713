import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { TextField } from '@/components/TextField';
import { rules, validateField } from '@/lib/validation';
import { useSaveSettings, useSettings } from '../hooks';
import { LineSkeletons } from './Skeleton';

const PERCENT = [rules.required(), rules.pattern(/^\d+$/, 'a whole number'), rules.range(1, 100)];

export function validateTrialPercent(raw: string): string | null {
  return validateField(raw, PERCENT);
}

/** The admin's trial_percent: how much of a book readers may sample before buying. */
export function TrialSettingsForm() {
  const settings = useSettings();
  const save = useSaveSettings();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (settings.data) setValue(String(settings.data.trial_percent));
  }, [settings.data]);

  if (settings.isLoading) return <LineSkeletons count={2} />;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const message = validateTrialPercent(value);
    setError(message);
    if (!message) save.mutate({ trial_percent: Number(value.trim()) });
  };

  const n = Number(value);
  const preview = Number.isInteger(n) && n >= 1 && n <= 100 ? n : null;

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Trial settings">
      {settings.isError ? <p className="notice notice-error">The current setting could not be loaded.</p> : null}
      <TextField
        label="Free sample size (% of each book)"
        inputMode="numeric"
        name="trial_percent"
        value={value}
        error={error ?? undefined}
        hint="Between 1 and 100. Applies to every book at once, the same in every format: whole chapters after the title page and licence, never less than the first chapter (a few pages of it when it is long)."
        onChange={(e) => {
          setValue(e.target.value);
          setError(null);
        }}
      />
      {preview !== null ? (
        <div className="trial-meter" aria-hidden>
          <span style={{ width: `${preview}%` }} />
        </div>
      ) : null}
      <div className="form-actions">
        <Button type="submit" loading={save.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}
