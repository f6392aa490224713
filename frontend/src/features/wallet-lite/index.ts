export { fetchWalletQuietly, walletKeys } from './api';
export { useRefreshWallet, useWallet } from './hooks';
export { WalletSummaryCard } from './components';
