// The "30 days / 90 days / 1 year" switch above a report (the admin's dashboard, a writer's
// sales): one look and one set of words wherever a range of days is chosen.
export interface PeriodPickerProps<D extends number> {
  /** The ranges offered, in days. */
  options: readonly D[];
  value: D;
  onChange: (days: D) => void;
  /** Placement beside the segmented look ("admin-range"). */
  className?: string;
}

/** "90 days", "1 year". */
export const periodLabel = (days: number) => (days === 365 ? '1 year' : `${days} days`);

export function PeriodPicker<D extends number>({ options, value, onChange, className }: PeriodPickerProps<D>) {
  return (
    <nav className={className ? `segmented ${className}` : 'segmented'} aria-label="Period">
      {options.map((d) => (
        <button
          key={d}
          type="button"
          className={`segmented-item ${d === value ? 'segmented-item-active' : ''}`}
          aria-pressed={d === value}
          onClick={() => onChange(d)}
        >
          {periodLabel(d)}
        </button>
      ))}
    </nav>
  );
}
