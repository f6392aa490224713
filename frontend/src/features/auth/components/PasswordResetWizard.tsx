import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/Button';
import { TextField } from '@/components/TextField';
import { useForm } from '@/lib/use-form';
import { rules } from '@/lib/validation';
import { toast } from '@/stores/toast';
import { resetPassword, sendPasswordResetCode } from '../api';
import { CodeActions, CodeField } from './CodeFields';
import { codeRules, emailRules, newPasswordRules, useBusy, useCooldown } from '../code-flow';

const emailSchema = { email: emailRules };
const resetSchema = { code: codeRules, password: newPasswordRules, confirm: [rules.required()] };

export const RESET_DONE_MESSAGE = 'Your password is reset. Log in with your new password.';

export interface PasswordResetWizardProps {
  /** Prefilled from the login form. */
  initialEmail?: string;
  /** Where to log in afterwards (a ?redirect= travels along). */
  loginPath: string;
}

/** Forgot password: the e-mail, then the mailed code and a new password. */
export function PasswordResetWizard({ initialEmail = '', loginPath }: PasswordResetWizardProps) {
  const navigate = useNavigate();
  const [step, setStep] = useState<'email' | 'reset'>('email');
  const { busy, run } = useBusy();
  const { cooldown, start: startCooldown } = useCooldown();
  const emailForm = useForm({ email: initialEmail }, emailSchema);
  const resetForm = useForm({ code: '', password: '', confirm: '' }, resetSchema);
  const email = emailForm.values.email.trim();

  const sendCode = () =>
    run(async () => {
      await sendPasswordResetCode(email);
      // The server does not say whether an account uses the address, and neither do we.
      toast.success(`If an account uses ${email}, we sent it a 6-digit code`);
      startCooldown();
      setStep('reset');
    });

  const onEmail = emailForm.handleSubmit(sendCode);

  const onReset = resetForm.handleSubmit(({ code, password, confirm }) => {
    if (password !== confirm) {
      resetForm.setError('confirm', 'The passwords do not match');
      return;
    }
    return run(async () => {
      await resetPassword({ email, verify_code: code.trim(), password });
      toast.success(RESET_DONE_MESSAGE);
      navigate(loginPath);
    });
  });

  if (step === 'email') {
    return (
      <form className="form" onSubmit={onEmail} noValidate aria-label="Reset your password">
        <TextField label="E-mail" type="email" autoComplete="email" placeholder="you@example.com" {...emailForm.field('email')} hint="We will send a code to this address if an account uses it." />
        <Button type="submit" block size="lg" loading={busy}>
          Send code
        </Button>
      </form>
    );
  }

  return (
    <form className="form" onSubmit={onReset} noValidate aria-label="Choose a new password">
      <p className="muted">
        Enter the 6-digit code mailed to <strong>{email}</strong> and choose a new password. Every device signed in to your account will be signed out.
      </p>
      <CodeField {...resetForm.field('code')} />
      <TextField label="New password" type="password" autoComplete="new-password" placeholder="At least 8 characters" {...resetForm.field('password')} />
      <TextField label="Confirm new password" type="password" autoComplete="new-password" {...resetForm.field('confirm')} />
      <Button type="submit" block size="lg" loading={busy}>
        Reset password
      </Button>
      <CodeActions cooldown={cooldown} busy={busy} onOtherEmail={() => setStep('email')} onResend={sendCode} />
    </form>
  );
}
