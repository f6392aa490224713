// The sales report's shapes on the wire (issue 18), from the types generated from the
// gateway's OpenAPI document. Narrowed: whose report it is, which the document only
// describes in words.
import type { components } from '@/lib/api-schema';

type Schemas = components['schemas'];

export type ReportRole = 'writer' | 'publisher';
export type SalesTotals = Schemas['SalesTotalsOut'];
export type BookSales = Schemas['BookSalesOut'];
export type SalesDayRow = Schemas['DaySalesOut'];
export type SalesReport = Omit<Schemas['SalesReportOut'], 'as'> & { as: ReportRole };
