import { Link, useSearchParams } from 'react-router-dom';
import { AuthPanel } from '@/components/AuthPanel';
import { Icon } from '@/components/Icon';
import { OidcButton } from '@/features/auth';
import { withSearch } from '@/lib/redirect';
import { useTitle } from '@/lib/use-title';

export default function LoginRoute() {
  useTitle('Log in');
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const forward = new URLSearchParams(redirect ? { redirect } : {});
  return (
    <AuthPanel
      title="Welcome back"
      subtitle="Choose how you want to log in."
      footer={
        <>
          New to Quire? <Link to="/register">Create an account</Link>
        </>
      }
    >
      <div className="choice-list">
        <Link to={withSearch('/login/email', forward)} className="choice">
          <span className="choice-icon">
            <Icon name="mail" size={22} />
          </span>
          <span className="choice-text">
            <strong>Log in with e-mail</strong>
            <span className="muted small">Your e-mail address and password</span>
          </span>
          <span aria-hidden className="choice-arrow">
            →
          </span>
        </Link>
        <Link to={withSearch('/login/wallet', forward)} className="choice">
          <span className="choice-icon">
            <Icon name="wallet" size={22} />
          </span>
          <span className="choice-text">
            <strong>Log in with a wallet</strong>
            <span className="muted small">Sign in with Ethereum (MetaMask and others)</span>
          </span>
          <span aria-hidden className="choice-arrow">
            →
          </span>
        </Link>
      </div>
      <OidcButton redirect={redirect} />
    </AuthPanel>
  );
}
