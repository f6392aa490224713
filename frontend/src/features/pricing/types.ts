// Pricing and crowd-funding shapes on the wire (issue 18), from the types generated from the
// gateway's OpenAPI document.
import type { components } from '@/lib/api-schema';

type Schemas = components['schemas'];

/** A book's revenue curve: the prices, what is expected at each, the suggestion and why. */
export type RevenueCurve = Schemas['RevenueCurveOut'];
export type Suggestion = Schemas['SuggestionOut'];
export type CampaignStatus = Schemas['CampaignStatus'];
export type Campaign = Schemas['CampaignOut'];
export type CampaignList = Schemas['CampaignListOut'];
export type PledgeReply = Schemas['PledgeOut'];

/** What the revenue curve is asked for. */
export interface CurveInput {
  bookId: string;
  /** The market's share (0 < k <= 1); the screens use 0.9. */
  k?: number;
  /** How many prices the curve is drawn at (2..500). */
  n?: number;
  /** The writer's cost per copy, if any. */
  cost?: number;
}
