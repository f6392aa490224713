// /login/oidc: where the provider sends the browser back. The state must be the one this
// tab started with; then the code goes to the server, and the reply is a login like a
// password login's. A refusal is shown here, with the way back to the login page: the
// request layer neither toasts it nor ends the session for it.
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PageLoader } from '@/components/Spinner';
import { ApiError } from '@/lib/api-client';
import { finishOidcLogin } from '../api';
import { useFinishLogin } from '../hooks';
import { checkCallback, finishFailure, takePending } from '../oidc';
import type { LoginDeps } from '../session';

export function OidcCallback({ deps }: { deps: LoginDeps }) {
  const [params] = useSearchParams();
  const finishLogin = useFinishLogin(deps);
  const [failure, setFailure] = useState<string | null>(null);
  // Once per page: the state is single use (and StrictMode runs effects twice).
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const check = checkCallback(params, takePending());
    if (!check.ok) {
      setFailure(check.reason);
      return;
    }
    void (async () => {
      try {
        const reply = await finishOidcLogin(check.state, check.code);
        await finishLogin(reply, check.redirect);
      } catch (error) {
        if (error instanceof ApiError) setFailure(finishFailure(error.status, error.message || null));
        else setFailure(finishFailure(0, error instanceof Error ? error.message : null));
      }
    })();
  }, [params, finishLogin]);

  if (!failure) return <PageLoader label="Signing you in…" />;
  return (
    <div className="stack" data-testid="oidc-failure">
      <div className="notice notice-error" role="alert">
        <p className="notice-title">You are not signed in</p>
        <p data-testid="oidc-failure-reason">{failure}</p>
      </div>
      <Link to="/login" className="btn btn-primary btn-md btn-block">
        Back to log in
      </Link>
    </div>
  );
}
