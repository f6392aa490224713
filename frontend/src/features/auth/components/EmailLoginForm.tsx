import { useState } from 'react';
import { Button } from '@/components/Button';
import { TextField } from '@/components/TextField';
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
      <Button type="submit" block size="lg" loading={busy}>
        Log in
      </Button>
    </form>
  );
}
