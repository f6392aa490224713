export interface PublishSwitchProps {
  checked: boolean;
  onChange: (on: boolean) => void;
  /** What the switch turns on, read by screen readers ("Listed in the shop"). */
  label: string;
  busy?: boolean;
  disabled?: boolean;
  /** Show the label next to the switch (otherwise it is only announced). */
  showLabel?: boolean;
}

/** An on/off switch (role="switch") for publish_book_status. */
export function PublishSwitch({ checked, onChange, label, busy, disabled, showLabel = true }: PublishSwitchProps) {
  return (
    <label className={`switch ${busy ? 'switch-busy' : ''}`}>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={showLabel ? undefined : label}
        className={`switch-track ${checked ? 'switch-on' : ''}`}
        disabled={disabled || busy}
        onClick={() => onChange(!checked)}
      >
        <span className="switch-thumb" />
      </button>
      {showLabel ? <span className="switch-label">{label}</span> : null}
    </label>
  );
}
