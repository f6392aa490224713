// react-query hooks over the wallet's calls. Server state stays here (never in zustand);
// each money-moving mutation keeps one IntentKey, so its retries reuse the key.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCurrentUser } from '@/lib/me';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import {
  buyBook,
  DEFAULT_PAGE_SIZE,
  fetchWalletQuietly,
  listAllWallets,
  listRewards,
  listTopUpRecords,
  listTradeRecords,
  loadWallet,
  rechargeWallet,
  topUp,
  walletKeys,
} from './api';
import { IntentKey } from './idempotency';
import { fromCents } from '@/lib/money';
import type { Trade, Wallet } from './types';

/** The caller's wallet (opened on first sight, spec section 4); off for visitors. */
export function useWallet(enabled = true) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  return useQuery({
    queryKey: walletKeys.info(),
    queryFn: loadWallet,
    enabled: enabled && loggedIn,
    staleTime: 15_000,
    retry: false,
  });
}

/** For sequences (login, role switch) that must refresh the wallet and move on. */
export function useRefreshWallet() {
  const queryClient = useQueryClient();
  return async () => {
    const wallet = await fetchWalletQuietly();
    if (wallet) queryClient.setQueryData(walletKeys.info(), wallet);
    else await queryClient.invalidateQueries({ queryKey: walletKeys.info() });
    return wallet;
  };
}

/** A wallet reply is the freshest balance there is: put it in the cache as it is. */
function useWalletChanged() {
  const queryClient = useQueryClient();
  return async (wallet: Wallet | null | undefined) => {
    if (wallet) queryClient.setQueryData(walletKeys.info(), wallet);
    await queryClient.invalidateQueries({
      queryKey: walletKeys.all,
      predicate: (q) => !(wallet && q.queryKey[1] === 'info'),
    });
  };
}

export interface RechargeInput {
  cents: number;
}

/**
 * Recharges the wallet. One intent per amount: trying again (the same amount, after a
 * failure whose outcome is unknown) sends the same Idempotency-Key; a success or a definite
 * refusal closes the intent. `key` is what was sent, for the screen and the tests.
 */
export function useRecharge() {
  const [intent] = useState(() => new IntentKey());
  const changed = useWalletChanged();
  const mutation = useMutation({
    mutationFn: async ({ cents }: RechargeInput) => {
      const key = intent.keyFor(`recharge:${cents}`);
      try {
        const reply = await rechargeWallet(fromCents(cents), key);
        intent.settle();
        return reply;
      } catch (error) {
        intent.settle(error);
        throw error;
      }
    },
    onSuccess: (reply) => changed(reply?.wallet),
  });
  return { ...mutation, intent };
}

/** Buys a book; the same book's retries reuse the key until the server answers for sure. */
export function useBuyBook(bookId: string, onBought?: (trade: Trade) => unknown) {
  const user = useCurrentUser();
  const buyer = user?.user_id ? String(user.user_id) : null;
  const [intent] = useState(() => new IntentKey());
  const changed = useWalletChanged();
  const mutation = useMutation({
    mutationFn: async () => {
      if (!buyer) throw new Error('Log in to buy this book');
      const key = intent.keyFor(`trade:${buyer}:${bookId}`);
      try {
        const trade = await buyBook(buyer, bookId, key);
        intent.settle();
        return trade;
      } catch (error) {
        intent.settle(error);
        throw error;
      }
    },
    onSuccess: async (trade) => {
      await changed(null);
      await onBought?.(trade);
    },
    onError: async () => {
      // The balance may have moved elsewhere; the next look should be fresh.
      await changed(null);
    },
  });
  return { ...mutation, intent };
}

export function useTopUpRecords(page: number, pageSize = DEFAULT_PAGE_SIZE, enabled = true) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  return useQuery({
    queryKey: walletKeys.topUps(page, pageSize),
    queryFn: () => listTopUpRecords({ page, page_size: pageSize }),
    placeholderData: keepPreviousData,
    enabled: enabled && loggedIn,
  });
}

export function useTradeRecords(page: number, pageSize = DEFAULT_PAGE_SIZE, enabled = true) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  return useQuery({
    queryKey: walletKeys.trades(page, pageSize),
    queryFn: () => listTradeRecords({ page, page_size: pageSize }),
    placeholderData: keepPreviousData,
    enabled: enabled && loggedIn,
  });
}

export function useRewards(page: number, pageSize = DEFAULT_PAGE_SIZE) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  return useQuery({
    queryKey: walletKeys.rewards(page, pageSize),
    queryFn: () => listRewards(page, pageSize),
    placeholderData: keepPreviousData,
    enabled: loggedIn,
  });
}

export function useAllWallets(page: number, pageSize = DEFAULT_PAGE_SIZE) {
  return useQuery({
    queryKey: walletKeys.adminWallets(page, pageSize),
    queryFn: () => listAllWallets(page, pageSize),
    placeholderData: keepPreviousData,
  });
}

export interface TopUpInput {
  uid: string;
  cents: number;
  note?: string;
}

/** An admin's top-up; like a recharge, one intent per user and amount. */
export function useTopUp() {
  const [intent] = useState(() => new IntentKey());
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: async ({ uid, cents, note }: TopUpInput) => {
      const key = intent.keyFor(`top_up:${uid}:${cents}:${note ?? ''}`);
      try {
        const record = await topUp(uid, fromCents(cents), key, note);
        intent.settle();
        return record;
      } catch (error) {
        intent.settle(error);
        throw error;
      }
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletKeys.all }),
  });
  return { ...mutation, intent };
}
