// react-query hooks over pricing's calls. Server state stays here (never in zustand). Each
// money-moving mutation keeps one IntentKey: a click starts an intent with a fresh key, a
// retry of the same action (after an answer that was lost) reuses it, a definite answer
// closes it.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { IntentKey } from '@/lib/idempotency';
import { formatMoney } from '@/lib/money';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { toast } from '@/stores/toast';
import {
  closeCampaign,
  createCampaign,
  DEFAULT_K,
  DEFAULT_N,
  getCampaign,
  getRevenueCurve,
  listCampaigns,
  pledge,
  pricingKeys,
} from './api';
import type { Campaign, PledgeReply } from './types';

/** The revenue curve of a book (the caller must be allowed to price it). */
export function useRevenueCurve(bookId: string | null | undefined, k = DEFAULT_K, n = DEFAULT_N, cost = 0) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const input = { bookId: bookId ?? '', k, n, cost };
  return useQuery({
    queryKey: pricingKeys.curve(input),
    queryFn: () => getRevenueCurve(input),
    enabled: Boolean(bookId) && loggedIn,
    // A new cost redraws the curve over the old one instead of blanking the chart.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
  });
}

/** A book's campaigns, newest first (anyone may look). */
export function useCampaigns(bookId: string | null | undefined) {
  return useQuery({
    queryKey: pricingKeys.byBook(bookId ?? ''),
    queryFn: () => listCampaigns(bookId as string),
    enabled: Boolean(bookId),
    select: (reply) => (Array.isArray(reply?.campaigns) ? reply.campaigns : []),
    retry: false,
  });
}

export function useCampaign(id: string | null | undefined) {
  return useQuery({
    queryKey: pricingKeys.campaign(id ?? ''),
    queryFn: () => getCampaign(id as string),
    enabled: Boolean(id),
    retry: false,
  });
}

/** A campaign the server just answered with: into its cache, then its book's list refetched. */
function useCampaignChanged() {
  const queryClient = useQueryClient();
  return async (campaign: Campaign | null | undefined) => {
    if (campaign?.campaign_id) queryClient.setQueryData(pricingKeys.campaign(campaign.campaign_id), campaign);
    await queryClient.invalidateQueries({ queryKey: pricingKeys.campaigns() });
    // A settled campaign changes what the book earned and how it sells.
    await queryClient.invalidateQueries({ queryKey: pricingKeys.curves() });
  };
}

/** Runs `call` with the intent's key, closing the intent on a definite answer. */
async function withIntent<T>(intent: IntentKey, fingerprint: string, call: (key: string) => Promise<T>): Promise<T> {
  const key = intent.keyFor(fingerprint);
  try {
    const reply = await call(key);
    intent.settle();
    return reply;
  } catch (error) {
    intent.settle(error);
    throw error;
  }
}

export function useCreateCampaign(bookId: string) {
  const [intent] = useState(() => new IntentKey());
  const changed = useCampaignChanged();
  const mutation = useMutation({
    mutationFn: ({ goal, days }: { goal: number; days: number }) =>
      withIntent(intent, `campaign:${bookId}:${goal}:${days}`, (key) => createCampaign({ book_id: bookId, goal, days }, key)),
    // Said here, not by the form: the form gives way to the campaign it started.
    onSuccess: async (campaign) => {
      toast.success('Campaign started: readers can pledge from the book page');
      await changed(campaign);
    },
  });
  return { ...mutation, intent };
}

/** A reader's pledge; `onPledged` refreshes what the route knows (the wallet's balance). */
export function usePledge(campaignId: string, onPledged?: (reply: PledgeReply) => unknown) {
  const [intent] = useState(() => new IntentKey());
  const changed = useCampaignChanged();
  const mutation = useMutation({
    mutationFn: (amount: number) => withIntent(intent, `pledge:${campaignId}:${amount}`, (key) => pledge(campaignId, amount, key)),
    onSuccess: async (reply, amount) => {
      toast.success(`Thank you! You pledged ${formatMoney(reply?.amount ?? amount)}`);
      await changed(reply?.campaign);
      await onPledged?.(reply);
    },
  });
  return { ...mutation, intent };
}

export function useCloseCampaign(campaignId: string, onClosed?: (campaign: Campaign) => unknown) {
  const [intent] = useState(() => new IntentKey());
  const changed = useCampaignChanged();
  const mutation = useMutation({
    mutationFn: () => withIntent(intent, `close:${campaignId}`, (key) => closeCampaign(campaignId, key)),
    // Said here, not by the button: the button goes with the open campaign it closed.
    onSuccess: async (campaign) => {
      toast.success(campaign?.status === 'funded' ? 'Campaign closed: funded' : 'Campaign closed: the pledges go back');
      await changed(campaign);
      await onClosed?.(campaign);
    },
  });
  return { ...mutation, intent };
}
