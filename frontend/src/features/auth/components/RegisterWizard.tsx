import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { TextField } from '@/components/TextField';
import { loginPathWithRedirect } from '@/lib/redirect';
import { STORAGE_KEYS, writeItem } from '@/lib/storage';
import { useForm } from '@/lib/use-form';
import { rules } from '@/lib/validation';
import { toast } from '@/stores/toast';
import { checkVerifyCode, register, sendVerifyEmail } from '../api';
import { CodeActions, CodeField } from './CodeFields';
import { codeRules, emailRules, newPasswordRules, useBusy, useCooldown } from '../code-flow';

type Step = 'email' | 'code' | 'account';
const STEPS: { id: Step; label: string }[] = [
  { id: 'email', label: 'E-mail' },
  { id: 'code', label: 'Verify' },
  { id: 'account', label: 'Account' },
];

const emailSchema = { email: emailRules };
const codeSchema = { code: codeRules };
const accountSchema = {
  username: [rules.required(), rules.minLength(2), rules.maxLength(32)],
  password: newPasswordRules,
  confirm: [rules.required()],
  invite: [rules.maxLength(64)],
};

export interface RegisterWizardProps {
  /** Prefilled from ?invite=. */
  inviteCode?: string;
  /** The path the user goes back to after logging in (spec: the current path). */
  returnPath: string;
}

export function RegisterWizard({ inviteCode = '', returnPath }: RegisterWizardProps) {
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('email');
  const { busy, run } = useBusy();
  const { cooldown, start: startCooldown } = useCooldown();
  const emailForm = useForm({ email: '' }, emailSchema);
  const codeForm = useForm({ code: '' }, codeSchema);
  const accountForm = useForm({ username: '', password: '', confirm: '', invite: inviteCode }, accountSchema);
  const email = emailForm.values.email.trim();

  const sendCode = () =>
    run(async () => {
      await sendVerifyEmail(email);
      toast.success(`We sent a 6-digit code to ${email}`);
      startCooldown();
      setStep('code');
    });

  const onEmail = emailForm.handleSubmit(sendCode);

  const onCode = codeForm.handleSubmit(({ code }) =>
    run(async () => {
      await checkVerifyCode(email, code.trim());
      writeItem(STORAGE_KEYS.isVerified, 'true');
      setStep('account');
    }),
  );

  const onAccount = accountForm.handleSubmit(({ username, password, confirm, invite }) => {
    if (password !== confirm) {
      accountForm.setError('confirm', 'The passwords do not match');
      return;
    }
    return run(async () => {
      await register({
        email,
        password,
        username: username.trim(),
        verify_code: codeForm.values.code.trim(),
        invite_code: invite.trim() || undefined,
      });
      toast.success('Your account is ready. Please log in.');
      navigate(loginPathWithRedirect(returnPath));
    });
  });

  const stepIndex = STEPS.findIndex((s) => s.id === step);

  return (
    <div className="stack">
      <ol className="steps" aria-label="Registration steps">
        {STEPS.map((s, i) => (
          <li key={s.id} className={i < stepIndex ? 'step-done' : i === stepIndex ? 'step-current' : ''} aria-current={i === stepIndex ? 'step' : undefined}>
            <span className="step-dot">{i < stepIndex ? <Icon name="check" size={12} /> : i + 1}</span>
            <span className="step-label">{s.label}</span>
          </li>
        ))}
      </ol>

      {step === 'email' ? (
        <form className="form" onSubmit={onEmail} noValidate aria-label="Enter your e-mail">
          <TextField label="E-mail" type="email" autoComplete="email" placeholder="you@example.com" {...emailForm.field('email')} hint="We will send you a verification code." />
          <Button type="submit" block size="lg" loading={busy}>
            Send code
          </Button>
        </form>
      ) : null}

      {step === 'code' ? (
        <form className="form" onSubmit={onCode} noValidate aria-label="Enter the verification code">
          <p className="muted">
            Enter the 6-digit code we sent to <strong>{email}</strong>.
          </p>
          <CodeField {...codeForm.field('code')} />
          <Button type="submit" block size="lg" loading={busy}>
            Verify
          </Button>
          <CodeActions cooldown={cooldown} busy={busy} onOtherEmail={() => setStep('email')} onResend={sendCode} />
        </form>
      ) : null}

      {step === 'account' ? (
        <form className="form" onSubmit={onAccount} noValidate aria-label="Account details">
          <p className="notice notice-success small">E-mail verified: {email}</p>
          <TextField label="Username" autoComplete="username" placeholder="How other readers see you" {...accountForm.field('username')} />
          <TextField label="Password" type="password" autoComplete="new-password" placeholder="At least 8 characters" {...accountForm.field('password')} />
          <TextField label="Confirm password" type="password" autoComplete="new-password" {...accountForm.field('confirm')} />
          <TextField label="Invite code (optional)" autoComplete="off" {...accountForm.field('invite')} />
          <Button type="submit" block size="lg" loading={busy}>
            Create account
          </Button>
        </form>
      ) : null}
    </div>
  );
}
