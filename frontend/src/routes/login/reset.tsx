import { Link, useSearchParams } from 'react-router-dom';
import { AuthPanel } from '@/components/AuthPanel';
import { PasswordResetWizard } from '@/features/auth';
import { withSearch } from '@/lib/redirect';
import { useTitle } from '@/lib/use-title';

export default function LoginResetRoute() {
  useTitle('Reset your password');
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const loginPath = withSearch('/login/email', new URLSearchParams(redirect ? { redirect } : {}));
  return (
    <AuthPanel
      title="Reset your password"
      subtitle="We will mail you a code to choose a new one."
      footer={
        <>
          Remembered it? <Link to={loginPath}>Log in</Link>
        </>
      }
    >
      <PasswordResetWizard initialEmail={params.get('email') ?? ''} loginPath={loginPath} />
    </AuthPanel>
  );
}
