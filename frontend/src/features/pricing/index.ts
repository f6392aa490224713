// The pricing area (issue 18): a book's revenue curve and AI price, the writer's own price,
// the chart with a price to try, and crowd-funding (campaigns and pledges). Routes compose
// these with the catalog (update_book sets a price) and the wallet (recharges); other
// features never import them.
import './pricing.css';

export { curveForm, DEFAULT_K, DEFAULT_N, getRevenueCurve, listCampaigns, pricingKeys } from './api';
export { acceptsPledges, campaignProgress, openCampaign, STATUS_TEXT, timeLeft } from './campaign';
export { clampToRange, curvePoints, pointAt, priceRange, roundMoney } from './curve';
export { useCampaign, useCampaigns, useCloseCampaign, useCreateCampaign, usePledge, useRevenueCurve } from './hooks';
export { MAX_DAYS, MIN_DAYS, parseDays, parseMoney } from './validate';
export { CampaignOnBook, type CampaignOnBookProps } from './components/CampaignOnBook';
export { CampaignPanel } from './components/CampaignPanel';
export { CampaignProgress } from './components/CampaignProgress';
export { CustomPriceForm, FREE_NOTE } from './components/CustomPriceForm';
export { NOT_ENOUGH_MONEY, PledgeBox } from './components/PledgeBox';
export { PricingNav, pricingPath, type PricingScreen } from './components/PricingNav';
export { RevenueChartPanel } from './components/RevenueChartPanel';
export { horizonText, SuggestedPrice } from './components/SuggestedPrice';
export type * from './types';
