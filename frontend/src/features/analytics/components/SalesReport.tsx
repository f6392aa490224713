// A writer's or a publisher's sales: totals, copies and earnings per day (all books or one),
// a row per book, and (for writers, from the route) the revenue curve of a chosen book.
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/Button';
import { Card, CardHeader, EmptyState } from '@/components/Card';
import { formatCount, SalesChart } from '@/components/charts';
import { PeriodPicker } from '@/components/PeriodPicker';
import { PageLoader } from '@/components/Spinner';
import { formatMoney, formatPrice } from '@/lib/money';
import { useSalesReport } from '../hooks';
import { chartDays, hasActivity } from '../series';
import type { BookSales, ReportRole, SalesTotals } from '../types';

export const REPORT_DAYS = [30, 90, 365] as const;

export interface SalesReportProps {
  as: ReportRole;
  /** A book's page (desktop or phone). */
  bookHref: (bookId: string) => string;
  /** The revenue curve of a book (the pricing feature's, from the route); writers only. */
  curve?: (book: BookSales) => ReactNode;
  title?: string;
}

export function SalesReport({ as, bookHref, curve, title = 'Sales and earnings' }: SalesReportProps) {
  const [days, setDays] = useState<number>(90);
  const report = useSalesReport(as, days);
  const [picked, setPicked] = useState<string | null>(null);
  const [curveOf, setCurveOf] = useState<string | null>(null);
  const pickerId = useId();
  const data = report.data;
  const books = data?.books ?? [];
  const chart = useMemo(() => chartDays(data?.series ?? [], picked), [data, picked]);
  const curveBook = books.find((b) => b.book_id === curveOf) ?? books[0] ?? null;

  return (
    <section className="analytics stack" aria-labelledby={`${pickerId}-title`} data-testid="sales-report">
      <div className="analytics-head">
        <h2 id={`${pickerId}-title`}>{title}</h2>
        <PeriodPicker options={REPORT_DAYS} value={days} onChange={setDays} className="analytics-range" />
      </div>
      {report.isLoading ? (
        <PageLoader label="Loading your sales…" />
      ) : !data ? (
        <Card>
          <EmptyState icon="alert" title="Your sales could not be loaded">
            <p>{report.error instanceof Error && report.error.message ? report.error.message : 'Please try again.'}</p>
            <Button variant="secondary" size="sm" onClick={() => void report.refetch()}>
              Try again
            </Button>
          </EmptyState>
        </Card>
      ) : (
        <>
          <Totals totals={data.totals} as={as} />
          {books.length === 0 ? (
            <Card>
              <EmptyState icon="chart" title="No sales yet">
                <p>
                  {as === 'writer'
                    ? 'Publish a book: its sales and crowd-funding show up here.'
                    : 'Put books on your shelf: their sales show up here.'}
                </p>
              </EmptyState>
            </Card>
          ) : (
            <>
              <Card>
                <CardHeader
                  title="Per day"
                  actions={
                    <div className="field analytics-picker">
                      <label htmlFor={pickerId} className="field-label">
                        Book
                      </label>
                      <select id={pickerId} value={picked ?? ''} onChange={(e) => setPicked(e.target.value || null)}>
                        <option value="">All books</option>
                        {books.map((b) => (
                          <option key={b.book_id} value={b.book_id}>
                            {b.title}
                          </option>
                        ))}
                      </select>
                    </div>
                  }
                />
                {hasActivity(chart) ? (
                  <SalesChart days={chart} label={`Copies sold and money earned per day, last ${days} days`} testId="sales-chart" />
                ) : (
                  <p className="muted" data-testid="sales-chart-empty">
                    No sales in the last {days} days{picked ? ' for this book' : ''}.
                  </p>
                )}
              </Card>
              <BookTable books={books} bookHref={bookHref} onCurve={curve ? setCurveOf : undefined} curveOf={curveBook?.book_id ?? null} />
              {curve && curveBook ? (
                <Card data-testid="analytics-curve">
                  <CardHeader title={`Revenue curve: ${curveBook.title}`} subtitle="Expected sales and earnings at each price; the current and suggested prices are marked." />
                  {curve(curveBook)}
                </Card>
              ) : null}
            </>
          )}
        </>
      )}
    </section>
  );
}

function Totals({ totals, as }: { totals: SalesTotals; as: ReportRole }) {
  const items = [
    { key: 'units', label: 'Copies sold', value: formatCount(totals.units) },
    { key: 'gross', label: 'Sales', value: formatMoney(totals.gross) },
    { key: 'earned', label: as === 'writer' ? 'You earned from sales' : 'Your share of sales', value: formatMoney(totals.earned) },
    { key: 'campaign', label: 'Crowd-funding', value: formatMoney(totals.campaign) },
  ];
  return (
    <dl className="analytics-totals">
      {items.map((i) => (
        <div key={i.key}>
          <dt>{i.label}</dt>
          <dd data-testid={`total-${i.key}`}>{i.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function BookTable({
  books,
  bookHref,
  onCurve,
  curveOf,
}: {
  books: BookSales[];
  bookHref: (id: string) => string;
  onCurve?: (id: string) => void;
  curveOf: string | null;
}) {
  return (
    <Card>
      <CardHeader title="Per book" />
      <div className="table-wrap">
        <table className="table analytics-table" aria-label="Sales per book">
          <thead>
            <tr>
              <th scope="col">Book</th>
              <th scope="col">Price</th>
              <th scope="col">Copies</th>
              <th scope="col">Sales</th>
              <th scope="col">Earned</th>
              <th scope="col">Crowd-funding</th>
              {onCurve ? <th scope="col">Curve</th> : null}
            </tr>
          </thead>
          <tbody>
            {books.map((b) => (
              <tr key={b.book_id} data-testid="analytics-book-row">
                <td>
                  <Link to={bookHref(b.book_id)}>{b.title || 'Untitled'}</Link>
                  {b.genre ? <span className="muted small"> · {b.genre}</span> : null}
                </td>
                <td>{formatPrice(b.price)}</td>
                <td>{formatCount(b.units)}</td>
                <td>{formatMoney(b.gross)}</td>
                <td>{formatMoney(b.earned)}</td>
                <td data-testid="analytics-book-campaign">{formatMoney(b.campaign)}</td>
                {onCurve ? (
                  <td>
                    <Button
                      variant={curveOf === b.book_id ? 'secondary' : 'ghost'}
                      size="sm"
                      aria-pressed={curveOf === b.book_id}
                      onClick={() => onCurve(b.book_id)}
                    >
                      Show
                    </Button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
