// The revenue curve as a chart: price along the bottom; expected sales (with its 80% band)
// on the left axis; expected profit and the cost line on the right (money); vertical markers
// for the prices that matter (the current one, the suggestion, the slider's). Pure: it draws
// the points it is given, the pricing feature computes them.
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatMoney } from '@/lib/money';
import { formatAxisMoney, formatCount } from './format';
import { AXIS_TICK, CHART_COLORS, TOOLTIP_LABEL_STYLE, TOOLTIP_STYLE } from './theme';

/** One price of the curve with what is expected there. */
export interface CurvePoint {
  price: number;
  sales: number;
  /** The 80% interval of the sales. */
  low: number;
  high: number;
  profit: number;
  cost: number;
}

export interface PriceMarker {
  price: number;
  label: string;
  color: string;
}

export interface RevenueChartProps {
  points: CurvePoint[];
  markers?: PriceMarker[];
  /** What the chart shows, for screen readers. */
  label: string;
  height?: number;
  testId?: string;
}

const SERIES_NAMES: Record<string, string> = {
  sales: 'Expected sales',
  band: 'Sales, 80% range',
  profit: 'Expected earnings',
  cost: 'Cost',
};

function tooltipValue(value: unknown, name: unknown): [string, string] {
  const key = String(name);
  if (Array.isArray(value)) return [`${formatCount(Number(value[0]))} – ${formatCount(Number(value[1]))}`, key];
  const n = Number(value);
  return [key === SERIES_NAMES.sales ? `${formatCount(n)} copies` : formatMoney(n), key];
}

export function RevenueChart({ points, markers = [], label, height = 300, testId }: RevenueChartProps) {
  const data = points.map((p) => ({ ...p, band: [p.low, p.high] as [number, number] }));
  return (
    <figure className="chart" aria-label={label} data-testid={testId}>
      <ResponsiveContainer width="100%" height={height} minWidth={0} initialDimension={{ width: 320, height }}>
        <ComposedChart data={data} margin={{ top: 16, right: 4, bottom: 4, left: 0 }}>
          <CartesianGrid stroke={CHART_COLORS.grid} strokeDasharray="3 3" />
          <XAxis
            dataKey="price"
            type="number"
            domain={['dataMin', 'dataMax']}
            tickFormatter={formatAxisMoney}
            tick={AXIS_TICK}
            stroke={CHART_COLORS.grid}
            tickCount={6}
          />
          <YAxis yAxisId="sales" tickFormatter={formatCount} tick={AXIS_TICK} stroke={CHART_COLORS.grid} width={44} />
          <YAxis yAxisId="money" orientation="right" tickFormatter={formatAxisMoney} tick={AXIS_TICK} stroke={CHART_COLORS.grid} width={54} />
          <Tooltip
            contentStyle={TOOLTIP_STYLE}
            labelStyle={TOOLTIP_LABEL_STYLE}
            labelFormatter={(price) => `At ${formatMoney(Number(price))}`}
            formatter={tooltipValue}
          />
          <Legend wrapperStyle={{ fontSize: 12, color: CHART_COLORS.axis }} />
          <Area
            yAxisId="sales"
            dataKey="band"
            name={SERIES_NAMES.band}
            stroke="none"
            fill={CHART_COLORS.band}
            fillOpacity={0.18}
            isAnimationActive={false}
          />
          <Line yAxisId="sales" dataKey="sales" name={SERIES_NAMES.sales} stroke={CHART_COLORS.primary} strokeWidth={2} dot={false} isAnimationActive={false} />
          <Line yAxisId="money" dataKey="profit" name={SERIES_NAMES.profit} stroke={CHART_COLORS.profit} strokeWidth={2} dot={false} isAnimationActive={false} />
          <Line
            yAxisId="money"
            dataKey="cost"
            name={SERIES_NAMES.cost}
            stroke={CHART_COLORS.cost}
            strokeDasharray="5 4"
            dot={false}
            isAnimationActive={false}
          />
          {markers.map((m) => (
            <ReferenceLine
              key={m.label}
              yAxisId="sales"
              x={m.price}
              stroke={m.color}
              strokeDasharray="4 3"
              strokeWidth={2}
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
      {markers.length ? (
        // The markers are named here, not on the chart: close prices would print over each other.
        <figcaption className="chart-markers">
          {markers.map((m) => (
            <span key={m.label} className="chart-marker">
              <span className="chart-marker-line" style={{ borderColor: m.color }} aria-hidden />
              {m.label} {formatMoney(m.price)}
            </span>
          ))}
        </figcaption>
      ) : null}
    </figure>
  );
}
