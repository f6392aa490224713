import { useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchWalletQuietly, walletKeys } from './api';

export function useWallet(enabled = true) {
  return useQuery({
    queryKey: walletKeys.info(),
    queryFn: fetchWalletQuietly,
    enabled,
    staleTime: 30_000,
    retry: false,
  });
}

/** For sequences (login, role switch) that must refresh the wallet and move on. */
export function useRefreshWallet() {
  const queryClient = useQueryClient();
  return async () => {
    const wallet = await fetchWalletQuietly();
    queryClient.setQueryData(walletKeys.info(), wallet);
    return wallet;
  };
}
