import type { Tone } from '../format';

export interface MeterProps {
  /** 0-1. */
  share: number;
  /** What the bar measures, for screen readers ("Pacing"). */
  label: string;
  /** What the bar reads as ("72 / 100"). */
  valueText: string;
  tone?: Tone | 'primary';
  testId?: string;
}

/** A horizontal bar for a score or a probability (role="meter"). */
export function Meter({ share, label, valueText, tone = 'primary', testId }: MeterProps) {
  const pct = Math.round(Math.min(1, Math.max(0, share)) * 100);
  return (
    <span
      className={`ms-meter ms-meter-${tone}`}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      aria-valuetext={valueText}
      data-testid={testId}
    >
      <span style={{ width: `${pct}%` }} />
    </span>
  );
}
