// Just enough wallet for the accounts milestone: the login and role-switch sequences
// refresh it. The wallet service may not be running yet, so nothing here ever toasts.
import { api } from '@/lib/api-client';
import type { Wallet } from '@/lib/api-types';

export const walletKeys = {
  all: ['wallet'] as const,
  info: () => [...walletKeys.all, 'info'] as const,
};

function unwrapWallet(data: unknown): Wallet | null {
  if (data && typeof data === 'object' && 'wallet' in data) {
    const wallet = (data as { wallet: unknown }).wallet;
    return wallet && typeof wallet === 'object' ? (wallet as Wallet) : null;
  }
  return null;
}

export async function getWalletInfo(): Promise<Wallet | null> {
  return unwrapWallet(await api.post('/wallet/info', { ignoreErrors: true }));
}

export async function openWallet(): Promise<void> {
  await api.post('/wallet/open', { ignoreErrors: true });
}

/**
 * Spec section 4: if the info call fails, open a wallet and fetch the info again.
 * Resolves to null instead of failing: callers treat the wallet as optional.
 */
export async function fetchWalletQuietly(): Promise<Wallet | null> {
  try {
    const wallet = await getWalletInfo();
    if (wallet) return wallet;
  } catch {
    // fall through to open
  }
  try {
    await openWallet();
    return await getWalletInfo();
  } catch {
    return null;
  }
}
