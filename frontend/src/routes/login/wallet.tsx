import { Link, useSearchParams } from 'react-router-dom';
import { AuthPanel } from '@/components/AuthPanel';
import { WalletLoginPanel } from '@/features/auth';
import { fetchWalletQuietly } from '@/features/wallet';
import { withSearch } from '@/lib/redirect';
import { useTitle } from '@/lib/use-title';

const deps = { fetchWallet: fetchWalletQuietly };

export default function LoginWalletRoute() {
  useTitle('Log in with a wallet');
  const [params] = useSearchParams();
  return (
    <AuthPanel
      title="Sign in with Ethereum"
      subtitle="Use your wallet as your Quire account."
      footer={
        <>
          <Link to={withSearch('/login/email', params)}>Use e-mail instead</Link>
          <span className="dot" aria-hidden>
            ·
          </span>
          <Link to="/register">Create an account</Link>
        </>
      }
    >
      <WalletLoginPanel deps={deps} />
    </AuthPanel>
  );
}
