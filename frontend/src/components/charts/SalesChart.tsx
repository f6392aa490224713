// Sales per day: copies sold as bars (left axis), money earned from sales and from
// crowd-funding as lines (right axis). Pure: it draws the days it is given.
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '@/lib/money';
import { formatAxisMoney, formatCount, formatDay } from './format';
import { AXIS_TICK, CHART_COLORS, TOOLTIP_LABEL_STYLE, TOOLTIP_STYLE } from './theme';

export interface SalesDay {
  /** "2026-11-05". */
  date: string;
  units: number;
  earned: number;
  campaign: number;
}

export interface SalesChartProps {
  days: SalesDay[];
  label: string;
  height?: number;
  testId?: string;
}

const NAMES = { units: 'Copies sold', earned: 'Earned from sales', campaign: 'Earned from crowd-funding' } as const;

function tooltipValue(value: unknown, name: unknown): [string, string] {
  const n = Number(value);
  return [String(name) === NAMES.units ? formatCount(n) : formatMoney(n), String(name)];
}

export function SalesChart({ days, label, height = 280, testId }: SalesChartProps) {
  return (
    <figure className="chart" aria-label={label} data-testid={testId}>
      <ResponsiveContainer width="100%" height={height} minWidth={0} initialDimension={{ width: 320, height }}>
        <ComposedChart data={days} margin={{ top: 12, right: 4, bottom: 4, left: 0 }}>
          <CartesianGrid stroke={CHART_COLORS.grid} strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="date" tickFormatter={formatDay} tick={AXIS_TICK} stroke={CHART_COLORS.grid} minTickGap={18} />
          <YAxis yAxisId="units" allowDecimals={false} tickFormatter={formatCount} tick={AXIS_TICK} stroke={CHART_COLORS.grid} width={36} />
          <YAxis yAxisId="money" orientation="right" tickFormatter={formatAxisMoney} tick={AXIS_TICK} stroke={CHART_COLORS.grid} width={54} />
          <Tooltip
            contentStyle={TOOLTIP_STYLE}
            labelStyle={TOOLTIP_LABEL_STYLE}
            labelFormatter={(d) => formatDay(String(d))}
            formatter={tooltipValue}
          />
          <Legend wrapperStyle={{ fontSize: 12, color: CHART_COLORS.axis }} />
          <Bar yAxisId="units" dataKey="units" name={NAMES.units} fill={CHART_COLORS.primary} radius={[3, 3, 0, 0]} isAnimationActive={false} />
          <Line yAxisId="money" dataKey="earned" name={NAMES.earned} stroke={CHART_COLORS.profit} strokeWidth={2} dot={false} isAnimationActive={false} />
          <Line yAxisId="money" dataKey="campaign" name={NAMES.campaign} stroke={CHART_COLORS.campaign} strokeWidth={2} dot={false} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
