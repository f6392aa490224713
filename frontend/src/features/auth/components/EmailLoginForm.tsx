import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '@/components/Button';
import { TextField } from '@/components/TextField';
import { withSearch } from '@/lib/redirect';
import { useForm } from '@/lib/use-form';
import { rules } from '@/lib/validation';
import { loginWithPassword } from '../api';
import { useFinishLogin } from '../hooks';
import type { LoginDeps } from '../session';

const schema = {
  email: [rules.required(), rules.email(), rules.maxLength(254)],
  password: [rules.required(), rules.maxLength(128)],
};

export function EmailLoginForm({ deps }: { deps: LoginDeps }) {
  const form = useForm({ email: '', password: '' }, schema);
  const [busy, setBusy] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const finishLogin = useFinishLogin(deps);
  const [params] = useSearchParams();
  // The reset screen gets the address typed so far, and the redirect to come back with.
  const resetParams = new URLSearchParams();
  const redirect = params.get('redirect');
  if (redirect) resetParams.set('redirect', redirect);
  if (form.values.email.trim()) resetParams.set('email', form.values.email.trim());

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    setBusy(true);
    try {
      const reply = await loginWithPassword(email.trim(), password);
      await finishLogin(reply);
    } catch {
      // the request layer has shown the reason
    } finally {
      setBusy(false);
    }
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Log in with e-mail">
      <TextField label="E-mail" type="email" autoComplete="email" placeholder="you@example.com" {...form.field('email')} />
      <TextField
        label="Password"
        type={showPassword ? 'text' : 'password'}
        autoComplete="current-password"
        placeholder="Your password"
        {...form.field('password')}
        trailing={
          <button type="button" className="field-toggle" onClick={() => setShowPassword((v) => !v)}>
            {showPassword ? 'Hide' : 'Show'}
          </button>
        }
      />
      <div className="form-actions small">
        <Link to={withSearch('/login/reset', resetParams)}>Forgot password?</Link>
      </div>
      <Button type="submit" block size="lg" loading={busy}>
        Log in
      </Button>
    </form>
  );
}
