// One look for every chart (the app's dark palette): series colours, axis and grid tones,
// the tooltip box. SVG attributes get plain colours, not CSS variables, so the charts look
// the same in every browser.
import type { CSSProperties } from 'react';

export const CHART_COLORS = {
  primary: '#6d8dff',
  band: '#6d8dff',
  profit: '#3ddc97',
  cost: '#ff6b7a',
  campaign: '#f5b94a',
  current: '#c3c8d6',
  suggested: '#3ddc97',
  selected: '#f5b94a',
  axis: '#969fb3',
  grid: '#2a3142',
} as const;

export const AXIS_TICK = { fill: CHART_COLORS.axis, fontSize: 12 } as const;

export const TOOLTIP_STYLE: CSSProperties = {
  background: '#171b24',
  border: '1px solid #3a4257',
  borderRadius: 8,
  color: '#e8eaf1',
  fontSize: 13,
};

export const TOOLTIP_LABEL_STYLE: CSSProperties = { color: '#c3c8d6', marginBottom: 4 };
