// The wallet's calls and query keys. Every call goes through the api client (timeout,
// bearer header, envelope, 401/403). Calls that move money carry an Idempotency-Key chosen
// by the caller (one per intent, see idempotency.ts) and show their failures in place
// (notify: false) instead of as toasts. Payload kinds follow the contract: wallet/open,
// recharge and consume take JSON; the records, top_up and wallet/all take params.
import { api, type QueryParams } from '@/lib/api-client';
import type {
  ConsumeReply,
  Page,
  RechargeReply,
  Reward,
  RewardPage,
  TopUpRecord,
  Trade,
  TradeRecord,
  Wallet,
  WalletReply,
} from './types';

export const DEFAULT_PAGE_SIZE = 10;

// The cache is cleared on login and logout, so keys need not name the user.
export const walletKeys = {
  all: ['wallet'] as const,
  info: () => [...walletKeys.all, 'info'] as const,
  topUps: (page: number, pageSize: number) => [...walletKeys.all, 'top-ups', page, pageSize] as const,
  trades: (page: number, pageSize: number) => [...walletKeys.all, 'trades', page, pageSize] as const,
  rewards: (page: number, pageSize: number) => [...walletKeys.all, 'rewards', page, pageSize] as const,
  admin: () => [...walletKeys.all, 'admin'] as const,
  adminWallets: (page: number, pageSize: number) => [...walletKeys.admin(), 'wallets', page, pageSize] as const,
};

const idempotent = (key: string) => ({ 'Idempotency-Key': key });

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `{wallet}` as the spec reads it (data.wallet); anything else is no wallet. */
export function unwrapWallet(data: unknown): Wallet | null {
  if (isRecord(data) && isRecord(data.wallet)) return data.wallet as unknown as Wallet;
  return null;
}

/** The paged shape, filled in when a field is missing. */
export function asPage<T>(data: unknown, page: number, pageSize: number): Page<T> {
  const d = isRecord(data) ? data : {};
  const result = Array.isArray(d.result) ? (d.result as T[]) : Array.isArray(data) ? (data as T[]) : [];
  return {
    total: typeof d.total === 'number' ? d.total : result.length,
    page: typeof d.page === 'number' ? d.page : page,
    page_size: typeof d.page_size === 'number' ? d.page_size : pageSize,
    result,
  };
}

// ---------- the caller's wallet ----------

/** POST /wallet/info; its 404 "Wallet not found" is silent (spec section 8). */
export async function getWalletInfo(opts: { quiet?: boolean } = {}): Promise<Wallet | null> {
  return unwrapWallet(await api.post<WalletReply>('/wallet/info', { ignoreErrors: opts.quiet }));
}

/** POST /wallet/open, optionally with a first amount; opening twice answers the same wallet. */
export async function openWallet(opts: { amount?: number; quiet?: boolean } = {}): Promise<Wallet | null> {
  const json = opts.amount !== undefined ? { amount: opts.amount } : {};
  return unwrapWallet(await api.post<WalletReply>('/wallet/open', { json, ignoreErrors: opts.quiet }));
}

/**
 * Spec section 4: if the info call fails, open a wallet and fetch the info again. Quiet (no
 * toast, no session reset): this runs in the background of login, role switches and pages.
 * Rejects when there is still no wallet.
 */
export async function loadWallet(): Promise<Wallet> {
  try {
    const wallet = await getWalletInfo({ quiet: true });
    if (wallet) return wallet;
  } catch {
    // fall through to open
  }
  const opened = await openWallet({ quiet: true }).catch(() => null);
  const wallet = (await getWalletInfo({ quiet: true })) ?? opened;
  if (!wallet) throw new Error('The wallet could not be loaded');
  return wallet;
}

/** loadWallet for sequences that carry on without a wallet: null instead of failing. */
export async function fetchWalletQuietly(): Promise<Wallet | null> {
  try {
    return await loadWallet();
  } catch {
    return null;
  }
}

/** POST /wallet/recharge: money in through the payment provider. */
export function rechargeWallet(amount: number, idempotencyKey: string): Promise<RechargeReply> {
  return api.post<RechargeReply>('/wallet/recharge', {
    json: { amount },
    headers: idempotent(idempotencyKey),
    notify: false,
  });
}

/** POST /wallet/consume: money out for something other than a book. */
export function consumeWallet(amount: number, idempotencyKey: string, memo?: string): Promise<ConsumeReply> {
  const json: { amount: number; memo?: string } = { amount };
  if (memo && memo.trim()) json.memo = memo.trim();
  return api.post<ConsumeReply>('/wallet/consume', { json, headers: idempotent(idempotencyKey), notify: false });
}

/**
 * GET /trade: buys a book. The server decides the price and whether the buyer may buy
 * (402 insufficient balance, 409 not for sale or own book); buying again replays the
 * first trade (`replayed`) and charges nothing.
 */
export function buyBook(buyerUid: string, bookId: string, idempotencyKey: string): Promise<Trade> {
  return api.get<Trade>('/trade', {
    params: { buyer_uid: buyerUid, book_id: bookId },
    headers: idempotent(idempotencyKey),
    notify: false,
  });
}

// ---------- records ----------

export interface RecordsQuery {
  /** Someone else's records (admins); the caller's own when absent. */
  uid?: string;
  page?: number;
  page_size?: number;
}

function recordParams(q: RecordsQuery): QueryParams {
  return { uid: q.uid, page: q.page ?? 1, page_size: q.page_size ?? DEFAULT_PAGE_SIZE };
}

export async function listTopUpRecords(q: RecordsQuery = {}): Promise<Page<TopUpRecord>> {
  const data = await api.post('/top_up_records', { params: recordParams(q) });
  return asPage<TopUpRecord>(data, q.page ?? 1, q.page_size ?? DEFAULT_PAGE_SIZE);
}

export async function listTradeRecords(q: RecordsQuery = {}): Promise<Page<TradeRecord>> {
  const data = await api.post('/get_trade_records', { params: recordParams(q) });
  return asPage<TradeRecord>(data, q.page ?? 1, q.page_size ?? DEFAULT_PAGE_SIZE);
}

export async function listRewards(page = 1, pageSize = DEFAULT_PAGE_SIZE): Promise<RewardPage> {
  const data = await api.get('/rewards', { params: { page, page_size: pageSize } });
  const paged = asPage<Reward>(data, page, pageSize);
  const total = isRecord(data) && typeof data.total_amount === 'number' ? data.total_amount : 0;
  return { ...paged, total_amount: total };
}

// ---------- admin ----------

export async function listAllWallets(page = 1, pageSize = DEFAULT_PAGE_SIZE): Promise<Page<Wallet>> {
  const data = await api.post('/wallet/all', { params: { page, page_size: pageSize } });
  return asPage<Wallet>(data, page, pageSize);
}

/** POST /top_up (admin): credits a user's wallet without a payment. */
export function topUp(uid: string, amount: number, idempotencyKey: string, note?: string): Promise<TopUpRecord> {
  return api.post<TopUpRecord>('/top_up', {
    params: { uid, amount, note: note && note.trim() ? note.trim() : undefined },
    headers: idempotent(idempotencyKey),
    notify: false,
  });
}
