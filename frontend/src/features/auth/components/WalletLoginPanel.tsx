import { useState } from 'react';
import { Button } from '@/components/Button';
import { toast } from '@/stores/toast';
import { ApiError } from '@/lib/api-client';
import { getLoginNonce, loginWithWallet } from '../api';
import { useFinishLogin } from '../hooks';
import type { LoginDeps } from '../session';
import { getInjectedProvider, signInWithEthereum, walletErrorMessage } from '../siwe';

export function WalletLoginPanel({ deps }: { deps: LoginDeps }) {
  const provider = getInjectedProvider();
  const [busy, setBusy] = useState(false);
  const [address, setAddress] = useState<string | null>(null);
  const finishLogin = useFinishLogin(deps);

  if (!provider) {
    return (
      <div className="notice notice-warning" role="status">
        <p className="notice-title">No Ethereum wallet found</p>
        <p>
          Wallet sign-in needs a browser wallet such as MetaMask, Rabby or Coinbase Wallet. Install one, reload this
          page, or log in with your e-mail instead.
        </p>
      </div>
    );
  }

  const signIn = async () => {
    setBusy(true);
    try {
      const signed = await signInWithEthereum(provider, getLoginNonce);
      setAddress(signed.address);
      const reply = await loginWithWallet(signed.message, signed.signature);
      await finishLogin(reply);
    } catch (error) {
      // API failures were toasted by the request layer; wallet failures are ours to show.
      if (!(error instanceof ApiError)) toast.error(walletErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack">
      <p className="muted">
        Your wallet will ask you to sign a short message. Signing is free and does not send a transaction.
      </p>
      {address ? (
        <p className="mono small" aria-label="Wallet address">
          {address}
        </p>
      ) : null}
      <Button block size="lg" onClick={signIn} loading={busy}>
        Connect wallet and sign in
      </Button>
    </div>
  );
}
