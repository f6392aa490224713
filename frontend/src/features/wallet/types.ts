// The wallet's shapes, written by hand from the REST contract of the wallet routes
// (DESIGN.md section 4; POST /api/wallet/*, /api/top_up*, /api/get_trade_records,
// GET /api/trade, GET /api/rewards). They mirror WalletOut, TopUpRecordOut, TradeOut,
// TradeRecordOut and RewardOut of the gateway's OpenAPI document; once `npm run gen:api`
// has put those routes into src/lib/api-schema.d.ts for good, derive these from it the
// way src/lib/api-types.ts does for the other areas. Money is a decimal number with at
// most two places (12.5 is $12.50).

export interface Wallet {
  user_id: string;
  balance: number;
  /** ISO 4217; one currency for the whole platform. */
  currency: string;
  created_at: string;
  updated_at: string;
  /** Money in since the wallet was opened: recharges and top-ups. */
  recharged: number;
  /** Book sales and invite rewards. */
  earned: number;
  /** Purchases and other spending. */
  spent: number;
}

export type TopUpKind = 'recharge' | 'top_up';
export type TopUpStatus = 'settled' | 'pending' | 'failed';

/** A recharge (paid through the payment provider) or a top-up (credited by an admin). */
export interface TopUpRecord {
  id: string;
  user_id: string;
  amount: number;
  kind: TopUpKind;
  status: TopUpStatus;
  provider: string;
  /** The provider's reference for the payment (recharges only). */
  provider_ref: string;
  note: string;
  created_at: string;
  /** Null until the payment settles. */
  settled_at?: string | null;
  /** The admin who credited a top-up; null for recharges. */
  created_by?: string | null;
}

/** A book bought: the buyer paid `price`; the writer got `seller_amount`, the platform the rest. */
export interface Trade {
  trade_id: string;
  buyer_uid: string;
  book_id: string;
  seller_uid: string;
  /** The title when it was bought. */
  title: string;
  price: number;
  seller_amount: number;
  platform_amount: number;
  created_at: string;
  /** This answer repeats an earlier purchase of the same book: nothing was charged now. */
  replayed: boolean;
}

/** A trade in someone's records, seen from that user. */
export interface TradeRecord extends Trade {
  role?: 'bought' | 'sold' | null;
}

export type RewardReason = 'registered' | 'first_purchase';

export interface Reward {
  reward_id: string;
  /** The inviter, who is paid. */
  user_id: string;
  /** The invited user whose step earned it. */
  invitee_id: string;
  reason: RewardReason;
  amount: number;
  created_at: string;
}

/** The list shape of every paged wallet route. */
export interface Page<T> {
  total: number;
  page: number;
  page_size: number;
  result: T[];
}

export interface RewardPage extends Page<Reward> {
  /** The sum of every reward, not only this page's. */
  total_amount: number;
}

export interface WalletReply {
  wallet: Wallet;
}

export interface RechargeReply {
  wallet: Wallet;
  record: TopUpRecord;
}

export interface ConsumeReply {
  wallet: Wallet;
  transfer_id: string;
  amount: number;
  created_at: string;
}
