// The wallet's shapes: the replies of the wallet routes, derived from the types generated
// from the gateway's OpenAPI document (src/lib/api-types.ts); nothing is written by hand.
import type { Paged } from '@/lib/api-types';

export type {
  ConsumeReply,
  RechargeReply,
  Reward,
  RewardPage,
  RewardReason,
  TopUpKind,
  TopUpRecord,
  TopUpStatus,
  Trade,
  TradeRecord,
  Wallet,
  WalletReply,
} from '@/lib/api-types';

/** The list shape of every paged wallet route (TopUpPageOut, TradePageOut, WalletPageOut). */
export type Page<T> = Paged<T>;
