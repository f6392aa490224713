import { Link, useSearchParams } from 'react-router-dom';
import { AuthPanel } from '@/components/AuthPanel';
import { EmailLoginForm } from '@/features/auth';
import { fetchWalletQuietly } from '@/features/wallet';
import { withSearch } from '@/lib/redirect';
import { useTitle } from '@/lib/use-title';

const deps = { fetchWallet: fetchWalletQuietly };

export default function LoginEmailRoute() {
  useTitle('Log in with e-mail');
  const [params] = useSearchParams();
  return (
    <AuthPanel
      title="Log in with e-mail"
      subtitle="Good to see you again."
      footer={
        <>
          <Link to={withSearch('/login/wallet', params)}>Use a wallet instead</Link>
          <span className="dot" aria-hidden>
            ·
          </span>
          <Link to="/register">Create an account</Link>
        </>
      }
    >
      <EmailLoginForm deps={deps} />
    </AuthPanel>
  );
}
