// The wallet area: balance, recharges, statements, rewards, buying books and the admin's
// wallets. Routes compose these; other features never import them (a page that needs to
// buy gets the buy button from its route, see routes/book.tsx and routes/reader.tsx).
import './wallet.css';

export {
  buyBook,
  DEFAULT_PAGE_SIZE,
  fetchWalletQuietly,
  getWalletInfo,
  listAllWallets,
  listRewards,
  listTopUpRecords,
  listTradeRecords,
  loadWallet,
  openWallet,
  rechargeWallet,
  topUp,
  walletKeys,
} from './api';
export { buyFailure, decideBuy, type BuyFacts, type BuyFailure, type BuyStep } from './buy';
export { IntentKey, isUncertain, newIdempotencyKey } from './idempotency';
export { MAX_AMOUNT, parseAmount, PRESET_AMOUNTS, suggestedRecharge } from './money';
export { useAllWallets, useBuyBook, useRecharge, useRefreshWallet, useRewards, useTopUp, useTopUpRecords, useTradeRecords, useWallet } from './hooks';
export { AdminWallets } from './components/AdminWallets';
export { BuyBook, buyLabel, rechargePath, type BuyBookProps } from './components/BuyBook';
export { DEMO_PAYMENT_NOTICE, PROCESSING_TEXT, RechargePanel, type RechargePanelProps } from './components/RechargePanel';
export { TopUpRecords, TradeRecords } from './components/Records';
export { HOW_REWARDS_WORK, rewardText, RewardsPanel } from './components/RewardsPanel';
export { WalletActivity, type ActivityTab } from './components/WalletActivity';
export { WalletSummaryCard } from './components/WalletSummaryCard';
export type * from './types';
