// Pricing's REST calls: the revenue curve, and crowd-funding campaigns and pledges.
// Money-moving calls carry the caller's Idempotency-Key. Failures the screens show in place
// (forms, the pledge box) raise no toast; a 401/403 still ends the session.
import { api } from '@/lib/api-client';
import type { Campaign, CampaignList, CurveInput, PledgeReply, RevenueCurve } from './types';

export const DEFAULT_K = 0.9;
export const DEFAULT_N = 120;

export const pricingKeys = {
  all: ['pricing'] as const,
  curves: () => ['pricing', 'curve'] as const,
  curve: (input: CurveInput) => ['pricing', 'curve', input.bookId, input.k ?? DEFAULT_K, input.n ?? DEFAULT_N, input.cost ?? 0] as const,
  campaigns: () => ['pricing', 'campaigns'] as const,
  byBook: (bookId: string) => ['pricing', 'campaigns', 'book', bookId] as const,
  campaign: (id: string) => ['pricing', 'campaigns', 'one', id] as const,
};

/** The multipart body of POST /revenue_curve. */
export function curveForm(input: CurveInput): FormData {
  const form = new FormData();
  form.append('k', String(input.k ?? DEFAULT_K));
  form.append('n', String(input.n ?? DEFAULT_N));
  form.append('book_id', input.bookId);
  if (input.cost !== undefined && input.cost > 0) form.append('cost', input.cost.toFixed(2));
  return form;
}

export function getRevenueCurve(input: CurveInput): Promise<RevenueCurve> {
  return api.post<RevenueCurve>('/revenue_curve', { multipart: curveForm(input), notify: false });
}

export function listCampaigns(bookId: string): Promise<CampaignList> {
  return api.get<CampaignList>('/crowdfunding', { params: { book_id: bookId }, notify: false });
}

export function getCampaign(id: string): Promise<Campaign> {
  return api.get<Campaign>(`/crowdfunding/${encodeURIComponent(id)}`, { notify: false });
}

const idempotent = (key: string) => ({ 'Idempotency-Key': key });

export function createCampaign(body: { book_id: string; goal: number; days: number }, key: string): Promise<Campaign> {
  return api.post<Campaign>('/crowdfunding', { json: body, headers: idempotent(key), notify: false });
}

export function pledge(campaignId: string, amount: number, key: string): Promise<PledgeReply> {
  return api.post<PledgeReply>(`/crowdfunding/${encodeURIComponent(campaignId)}/pledge`, {
    json: { amount },
    headers: idempotent(key),
    notify: false,
  });
}

export function closeCampaign(campaignId: string, key: string): Promise<Campaign> {
  return api.post<Campaign>(`/crowdfunding/${encodeURIComponent(campaignId)}/close`, { headers: idempotent(key), notify: false });
}
