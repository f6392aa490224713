import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { AuthPanel } from '@/components/AuthPanel';
import { PageLoader } from '@/components/Spinner';
import { RegisterWizard } from '@/features/auth';
import { useSettings } from '@/features/catalog';
import { useTitle } from '@/lib/use-title';

export default function RegisterRoute() {
  useTitle('Create your account');
  const [params] = useSearchParams();
  const location = useLocation();
  // An admin may close registration (GET /api/settings says so); the server refuses then too.
  const settings = useSettings();
  const closed = settings.data?.registration_open === false;
  // Spec: after registering, /login gets the current path as its redirect; a page that
  // sent the user here with ?redirect= passes its own path through instead.
  const returnPath = params.get('redirect') || location.pathname;
  return (
    <AuthPanel
      title="Create your account"
      subtitle={closed ? undefined : 'Join Quire in three short steps.'}
      footer={
        <>
          Already have an account? <Link to="/login">Log in</Link>
        </>
      }
    >
      {settings.isLoading ? (
        <PageLoader label="Loading…" />
      ) : closed ? (
        <div className="notice notice-warning" role="status" data-testid="registration-closed">
          <p className="notice-title">Registration is closed</p>
          <p>Quire is not taking new accounts right now. Please come back later; if you already have an account, log in.</p>
        </div>
      ) : (
        <RegisterWizard inviteCode={params.get('invite') ?? ''} returnPath={returnPath} />
      )}
    </AuthPanel>
  );
}
