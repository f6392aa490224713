import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { AuthPanel } from '@/components/AuthPanel';
import { RegisterWizard } from '@/features/auth';
import { useTitle } from '@/lib/use-title';

export default function RegisterRoute() {
  useTitle('Create your account');
  const [params] = useSearchParams();
  const location = useLocation();
  // Spec: after registering, /login gets the current path as its redirect; a page that
  // sent the user here with ?redirect= passes its own path through instead.
  const returnPath = params.get('redirect') || location.pathname;
  return (
    <AuthPanel
      title="Create your account"
      subtitle="Join Quire in three short steps."
      footer={
        <>
          Already have an account? <Link to="/login">Log in</Link>
        </>
      }
    >
      <RegisterWizard inviteCode={params.get('invite') ?? ''} returnPath={returnPath} />
    </AuthPanel>
  );
}
