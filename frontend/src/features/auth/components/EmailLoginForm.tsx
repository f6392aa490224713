import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '@/components/Button';
import { TextField } from '@/components/TextField';
import { ApiError } from '@/lib/api-client';
import { withSearch } from '@/lib/redirect';
import { useForm } from '@/lib/use-form';
import { rules, validateField } from '@/lib/validation';
import { toast } from '@/stores/toast';
import { loginWithPassword, sendSignInCode } from '../api';
import { codeRules, useBusy, useCooldown } from '../code-flow';
import { useFinishLogin } from '../hooks';
import type { LoginDeps } from '../session';
import { CodeField } from './CodeFields';

const schema = {
  email: [rules.required(), rules.email(), rules.maxLength(254)],
  password: [rules.required(), rules.maxLength(128)],
};
const codeSchema = { code: codeRules };

/**
 * Where the form stands: a plain login; the server has refused more tries for now and a
 * mailed code is offered; the code has been mailed and goes along with the password.
 */
type Step = 'password' | 'locked' | 'code';

export function EmailLoginForm({ deps }: { deps: LoginDeps }) {
  const form = useForm({ email: '', password: '' }, schema);
  const codeForm = useForm({ code: '' }, codeSchema);
  const [step, setStep] = useState<Step>('password');
  const { busy, run } = useBusy();
  const { cooldown, start: startCooldown } = useCooldown();
  const [showPassword, setShowPassword] = useState(false);
  const finishLogin = useFinishLogin(deps);
  const [params] = useSearchParams();
  const email = form.values.email.trim();
  // The reset screen gets the address typed so far, and the redirect to come back with.
  const resetParams = new URLSearchParams();
  const redirect = params.get('redirect');
  if (redirect) resetParams.set('redirect', redirect);
  if (email) resetParams.set('email', email);

  const logIn = (password: string, code?: string) =>
    run(async () => {
      try {
        const reply = await loginWithPassword(email, password, code);
        await finishLogin(reply);
      } catch (e) {
        // Too many failed logins from here or from new places: a mailed code gets past them.
        if (e instanceof ApiError && e.code === 'login_locked' && step === 'password') setStep('locked');
        throw e;
      }
    });

  const sendCode = () =>
    run(async () => {
      await sendSignInCode(email);
      // The server does not say whether an account uses the address, and neither do we.
      toast.success(`If an account uses ${email}, we sent it a 6-digit sign-in code`);
      startCooldown();
      setStep('code');
    });

  const onSubmit = form.handleSubmit(({ password }) => {
    if (step !== 'code') return logIn(password);
    const code = codeForm.values.code.trim();
    const wrong = validateField(code, codeRules);
    codeForm.setError('code', wrong ?? undefined);
    if (!wrong) return logIn(password, code);
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
      {step === 'locked' && (
        <div className="notice" role="status">
          <p>Too many failed logins at this account for now. We can mail you a sign-in code: with it and your password you get in at once.</p>
          <Button type="button" variant="secondary" loading={busy} disabled={!email} onClick={sendCode}>
            Mail me a sign-in code
          </Button>
        </div>
      )}
      {step === 'code' && (
        <>
          <p className="muted">
            Enter the 6-digit code mailed to <strong>{email}</strong> with your password.
          </p>
          <CodeField {...codeForm.field('code')} />
          <div className="row-between small">
            <span />
            <button type="button" className="link-button" disabled={cooldown > 0 || busy} onClick={sendCode}>
              {cooldown > 0 ? `Resend in ${cooldown}s` : 'Resend code'}
            </button>
          </div>
        </>
      )}
      <div className="form-actions small">
        <Link to={withSearch('/login/reset', resetParams)}>Forgot password?</Link>
      </div>
      <Button type="submit" block size="lg" loading={busy}>
        Log in
      </Button>
    </form>
  );
}
