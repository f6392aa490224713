// "Sign in with <provider>": shown only when the server has a provider configured. Starts
// the flow, keeps the state for the callback in this tab, and leaves for the provider.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { getOidcConfig, startOidcLogin } from '../api';
import { callbackUri, rememberPending } from '../oidc';

export const oidcConfigKey = ['auth', 'oidc'] as const;

export function OidcButton({ redirect, go = (url) => window.location.assign(url) }: { redirect?: string | null; go?: (url: string) => void }) {
  const config = useQuery({ queryKey: oidcConfigKey, queryFn: getOidcConfig, staleTime: 5 * 60_000 });
  const [busy, setBusy] = useState(false);
  if (!config.data?.enabled) return null;

  const start = async () => {
    setBusy(true);
    try {
      const started = await startOidcLogin(callbackUri());
      if (!started?.authorization_url || !started.state) throw new Error('no authorization address');
      rememberPending({ state: started.state, redirect: redirect ?? null });
      go(started.authorization_url);
    } catch {
      // the request layer has shown the reason
      setBusy(false);
    }
  };

  return (
    <div style={{ marginTop: 16 }}>
      <Button block size="lg" variant="secondary" loading={busy} onClick={() => void start()} data-testid="oidc-signin">
        Sign in with {config.data.display_name}
      </Button>
    </div>
  );
}
