// The dashboard's charts (recharts): growth, trades and revenue per day, campaigns by
// status, and each service's outbox and consumer lag. Pure: they draw what they are given.
import { Bar, BarChart, CartesianGrid, Cell, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CHART_COLORS, formatAxisMoney, formatCount, formatDay } from '@/components/charts';
import { AXIS_TICK, TOOLTIP_LABEL_STYLE, TOOLTIP_STYLE } from '@/components/charts/theme';
import { formatMoney } from '@/lib/money';
import type { CampaignBar, GrowthDay, ServiceBar, TradeDay } from '../dashboard-series';

const HEIGHT = 240;
const LEGEND = { fontSize: 12, color: CHART_COLORS.axis };

function Frame({ label, testId, children }: { label: string; testId: string; children: React.ReactElement }) {
  return (
    <figure className="chart" aria-label={label} data-testid={testId}>
      <ResponsiveContainer width="100%" height={HEIGHT} minWidth={0} initialDimension={{ width: 320, height: HEIGHT }}>
        {children}
      </ResponsiveContainer>
    </figure>
  );
}

const countValue = (value: unknown, name: unknown): [string, string] => [formatCount(Number(value)), String(name)];

export function GrowthChart({ days, label }: { days: GrowthDay[]; label: string }) {
  return (
    <Frame label={label} testId="chart-growth">
      <BarChart data={days} margin={{ top: 12, right: 4, bottom: 4, left: 0 }}>
        <CartesianGrid stroke={CHART_COLORS.grid} strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" tickFormatter={formatDay} tick={AXIS_TICK} stroke={CHART_COLORS.grid} minTickGap={18} />
        <YAxis allowDecimals={false} tickFormatter={formatCount} tick={AXIS_TICK} stroke={CHART_COLORS.grid} width={36} />
        <Tooltip contentStyle={TOOLTIP_STYLE} labelStyle={TOOLTIP_LABEL_STYLE} labelFormatter={(d) => formatDay(String(d))} formatter={countValue} />
        <Legend wrapperStyle={LEGEND} />
        <Bar dataKey="signups" name="Sign-ups" fill={CHART_COLORS.primary} radius={[3, 3, 0, 0]} isAnimationActive={false} />
        <Bar dataKey="books" name="Books created" fill={CHART_COLORS.profit} radius={[3, 3, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}

const TRADES = 'Trades';
const REVENUE = 'Revenue';

export function TradesChart({ days, label }: { days: TradeDay[]; label: string }) {
  return (
    <Frame label={label} testId="chart-trades">
      <ComposedChart data={days} margin={{ top: 12, right: 4, bottom: 4, left: 0 }}>
        <CartesianGrid stroke={CHART_COLORS.grid} strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" tickFormatter={formatDay} tick={AXIS_TICK} stroke={CHART_COLORS.grid} minTickGap={18} />
        <YAxis yAxisId="count" allowDecimals={false} tickFormatter={formatCount} tick={AXIS_TICK} stroke={CHART_COLORS.grid} width={36} />
        <YAxis yAxisId="money" orientation="right" tickFormatter={formatAxisMoney} tick={AXIS_TICK} stroke={CHART_COLORS.grid} width={54} />
        <Tooltip
          contentStyle={TOOLTIP_STYLE}
          labelStyle={TOOLTIP_LABEL_STYLE}
          labelFormatter={(d) => formatDay(String(d))}
          formatter={(value: unknown, name: unknown) => [String(name) === REVENUE ? formatMoney(Number(value)) : formatCount(Number(value)), String(name)]}
        />
        <Legend wrapperStyle={LEGEND} />
        <Bar yAxisId="count" dataKey="trades" name={TRADES} fill={CHART_COLORS.primary} radius={[3, 3, 0, 0]} isAnimationActive={false} />
        <Line yAxisId="money" dataKey="revenue" name={REVENUE} stroke={CHART_COLORS.profit} strokeWidth={2} dot={false} isAnimationActive={false} />
      </ComposedChart>
    </Frame>
  );
}

const STATUS_COLORS: Record<CampaignBar['status'], string> = {
  Open: CHART_COLORS.campaign,
  Funded: CHART_COLORS.profit,
  Failed: CHART_COLORS.cost,
};

export function CampaignsChart({ bars, label }: { bars: CampaignBar[]; label: string }) {
  return (
    <Frame label={label} testId="chart-campaigns">
      <BarChart data={bars} margin={{ top: 12, right: 4, bottom: 4, left: 0 }}>
        <CartesianGrid stroke={CHART_COLORS.grid} strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="status" tick={AXIS_TICK} stroke={CHART_COLORS.grid} />
        <YAxis allowDecimals={false} tickFormatter={formatCount} tick={AXIS_TICK} stroke={CHART_COLORS.grid} width={36} />
        <Tooltip contentStyle={TOOLTIP_STYLE} labelStyle={TOOLTIP_LABEL_STYLE} formatter={countValue} cursor={{ fill: CHART_COLORS.grid }} />
        <Bar dataKey="count" name="Campaigns" radius={[3, 3, 0, 0]} isAnimationActive={false}>
          {bars.map((b) => (
            <Cell key={b.status} fill={STATUS_COLORS[b.status]} />
          ))}
        </Bar>
      </BarChart>
    </Frame>
  );
}

/** Outbox events waiting and the largest consumer lag, per service; a service that needs a look is drawn in the warning colour. */
export function ServicesChart({ bars, label }: { bars: ServiceBar[]; label: string }) {
  const tone = (b: ServiceBar, ok: string) => (b.health === 'warning' ? CHART_COLORS.cost : b.health === 'unknown' ? CHART_COLORS.campaign : ok);
  return (
    <Frame label={label} testId="chart-services">
      <BarChart data={bars} margin={{ top: 12, right: 4, bottom: 4, left: 0 }}>
        <CartesianGrid stroke={CHART_COLORS.grid} strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="service" tick={AXIS_TICK} stroke={CHART_COLORS.grid} interval={0} angle={-30} textAnchor="end" height={50} />
        {/* Two scales: a lag in the thousands would flatten a handful of waiting events. */}
        <YAxis yAxisId="outbox" allowDecimals={false} tickFormatter={formatCount} tick={AXIS_TICK} stroke={CHART_COLORS.grid} width={40} />
        <YAxis yAxisId="lag" orientation="right" allowDecimals={false} tickFormatter={formatCount} tick={AXIS_TICK} stroke={CHART_COLORS.grid} width={44} />
        <Tooltip contentStyle={TOOLTIP_STYLE} labelStyle={TOOLTIP_LABEL_STYLE} formatter={countValue} cursor={{ fill: CHART_COLORS.grid }} />
        <Legend wrapperStyle={LEGEND} />
        <Bar yAxisId="outbox" dataKey="outbox" name="Outbox waiting (left)" fill={CHART_COLORS.primary} radius={[3, 3, 0, 0]} isAnimationActive={false}>
          {bars.map((b) => (
            <Cell key={b.service} fill={tone(b, CHART_COLORS.primary)} />
          ))}
        </Bar>
        <Bar yAxisId="lag" dataKey="lag" name="Consumer lag (right)" fill={CHART_COLORS.current} radius={[3, 3, 0, 0]} isAnimationActive={false}>
          {bars.map((b) => (
            <Cell key={b.service} fill={tone(b, CHART_COLORS.current)} />
          ))}
        </Bar>
      </BarChart>
    </Frame>
  );
}
