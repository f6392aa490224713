import { TextField } from '@/components/TextField';

type FieldProps = Omit<Parameters<typeof TextField>[0], 'label'>;

/** The input of a mailed 6-digit code. */
export function CodeField(props: FieldProps) {
  return <TextField label="Verification code" inputMode="numeric" autoComplete="one-time-code" placeholder="123456" maxLength={6} {...props} />;
}

/** Under a code: go back to the e-mail step, or ask for another code once the wait is over. */
export function CodeActions({ cooldown, busy, onOtherEmail, onResend }: { cooldown: number; busy: boolean; onOtherEmail: () => void; onResend: () => void }) {
  return (
    <div className="row-between small">
      <button type="button" className="link-button" onClick={onOtherEmail}>
        Use another e-mail
      </button>
      <button type="button" className="link-button" disabled={cooldown > 0 || busy} onClick={onResend}>
        {cooldown > 0 ? `Resend in ${cooldown}s` : 'Resend code'}
      </button>
    </div>
  );
}
