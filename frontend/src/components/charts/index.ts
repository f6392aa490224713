// Charts for every feature (recharts underneath): the look, the number formats, and the
// two charts the pricing and analytics screens draw.
import './charts.css';

export { CHART_COLORS } from './theme';
export { formatAxisMoney, formatCopies, formatCount, formatDay } from './format';
export { RevenueChart, type CurvePoint, type PriceMarker, type RevenueChartProps } from './RevenueChart';
export { SalesChart, type SalesDay, type SalesChartProps } from './SalesChart';
