import { AuthPanel } from '@/components/AuthPanel';
import { OidcCallback } from '@/features/auth';
import { fetchWalletQuietly } from '@/features/wallet';
import { useTitle } from '@/lib/use-title';

const deps = { fetchWallet: fetchWalletQuietly };

/** /login/oidc: the identity provider sends the browser back here. */
export default function LoginOidcRoute() {
  useTitle('Single sign-on');
  return (
    <AuthPanel title="Single sign-on" subtitle="Signing in with your identity provider.">
      <OidcCallback deps={deps} />
    </AuthPanel>
  );
}
