// Book settings: theme (the reader's frame, and its pages too when dark), text size, page
// mode and the three appearance presets of the spec.
import {
  APPEARANCE_PRESETS,
  useReaderSettings,
  type Appearance,
  type ReaderMode,
  type ReaderTheme,
  type TextSize,
} from '@/stores/reader-settings';

const SIZES: TextSize[] = [100, 120, 150];
const MODES: { value: ReaderMode; label: string }[] = [
  { value: 'paginated', label: 'Pages' },
  { value: 'scrolled', label: 'Scroll' },
];
const THEMES: { value: ReaderTheme; label: string }[] = [
  { value: 'dark', label: 'Dark' },
  { value: 'light', label: 'Light' },
];

function Segmented<T extends string | number>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (v: T) => void;
}) {
  return (
    <div className="reader-setting" role="radiogroup" aria-label={label}>
      <p className="reader-setting-label">{label}</p>
      <div className="reader-seg">
        {options.map((o) => (
          <button
            key={String(o.value)}
            type="button"
            role="radio"
            aria-checked={o.value === value}
            className={`reader-seg-item ${o.value === value ? 'reader-seg-active' : ''}`}
            onClick={() => onChange(o.value)}
          >
            {o.label}
          </button>
        ))}
      </div>
    </div>
  );
}

export function SettingsPanel() {
  const s = useReaderSettings();
  return (
    <div className="stack reader-settings">
      <div className="reader-setting">
        <p className="reader-setting-label">Appearance</p>
        <div className="preset-grid">
          {(Object.keys(APPEARANCE_PRESETS) as Appearance[]).map((key) => {
            const preset = APPEARANCE_PRESETS[key];
            const active = s.appearance === key;
            return (
              <button
                key={key}
                type="button"
                className={`preset ${active ? 'preset-active' : ''}`}
                aria-pressed={active}
                data-testid={`preset-${key}`}
                onClick={() => s.setAppearance(key)}
              >
                <span
                  className="preset-swatch"
                  style={{ background: preset.styles.background, color: preset.styles.color, fontWeight: preset.styles.fontWeight }}
                  aria-hidden
                >
                  Aa
                </span>
                <span className="preset-name">{preset.label}</span>
                <span className="preset-meta">
                  {preset.textSize}% · {preset.styles.fontWeight}
                </span>
              </button>
            );
          })}
        </div>
      </div>
      <Segmented
        label="Text size"
        value={s.textSize}
        options={SIZES.map((v) => ({ value: v, label: `${v}%` }))}
        onChange={s.setTextSize}
      />
      <Segmented label="Reading mode" value={s.mode} options={MODES} onChange={s.setMode} />
      <Segmented label="Theme" value={s.theme} options={THEMES} onChange={s.setTheme} />
      <p className="muted small">Settings are kept on this device.</p>
    </div>
  );
}
