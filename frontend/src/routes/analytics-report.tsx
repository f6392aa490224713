// The sales report of the writer's and publisher's pages: the analytics feature's report,
// with the pricing feature's revenue curve for writers (composed here: features do not
// import each other).
import { SalesReport, type ReportRole } from '@/features/analytics';
import { RevenueChartPanel } from '@/features/pricing';

export function RoleSalesReport({ as, bookHref, compact }: { as: ReportRole; bookHref: (id: string) => string; compact?: boolean }) {
  return (
    <SalesReport
      as={as}
      bookHref={bookHref}
      title={compact ? 'Sales' : 'Sales and earnings'}
      curve={as === 'writer' ? (book) => <RevenueChartPanel key={book.book_id} bookId={book.book_id} height={compact ? 260 : 300} /> : undefined}
    />
  );
}
