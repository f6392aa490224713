// The analytics area (issue 18): a writer's or a publisher's sales and earnings over time.
// Routes compose it with the pricing feature (a book's revenue curve); other features never
// import it.
import './analytics.css';

export { analyticsKeys, getSalesReport } from './api';
export { useSalesReport } from './hooks';
export { chartDays, hasActivity } from './series';
export { REPORT_DAYS, SalesReport, type SalesReportProps } from './components/SalesReport';
export type * from './types';
