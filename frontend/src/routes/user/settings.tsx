import { Card, CardHeader, PageHeader } from '@/components/Card';
import { ButtonLink } from '@/components/Button';
import { PageLoader } from '@/components/Spinner';
import { RoleSettings, useMe } from '@/features/users';
import { useRefreshWallet } from '@/features/wallet';
import { useTitle } from '@/lib/use-title';
import { APPEARANCE_PRESETS, useReaderSettings, type Appearance } from '@/stores/reader-settings';

function ReadingPreferences() {
  const appearance = useReaderSettings((s) => s.appearance);
  const setAppearance = useReaderSettings((s) => s.setAppearance);
  return (
    <Card>
      <CardHeader title="Reading appearance" subtitle="Used by the book viewer on this device." />
      <div className="appearance-grid" role="radiogroup" aria-label="Reading appearance">
        {(Object.keys(APPEARANCE_PRESETS) as Appearance[]).map((key) => {
          const preset = APPEARANCE_PRESETS[key];
          return (
            <button
              key={key}
              type="button"
              role="radio"
              aria-checked={appearance === key}
              className={`appearance ${appearance === key ? 'appearance-active' : ''}`}
              onClick={() => setAppearance(key)}
            >
              <span
                className="appearance-sample"
                style={{ background: preset.styles.background, color: preset.styles.color, fontSize: `${preset.textSize * 0.16}px`, fontWeight: preset.styles.fontWeight }}
              >
                Aa
              </span>
              <span className="appearance-label">{preset.label}</span>
              <span className="muted small">{preset.styles.fontSize}</span>
            </button>
          );
        })}
      </div>
    </Card>
  );
}

export default function UserSettingsRoute() {
  useTitle('Settings');
  const me = useMe();
  const refreshWallet = useRefreshWallet();
  return (
    <div className="page">
      <PageHeader
        eyebrow="Account"
        title="Settings"
        subtitle="Roles and reading preferences."
        actions={
          <ButtonLink to="/user/profile" variant="secondary">
            Profile
          </ButtonLink>
        }
      />
      {me.isLoading ? <PageLoader /> : me.data ? <RoleSettings user={me.data} refreshWallet={refreshWallet} /> : null}
      <ReadingPreferences />
    </div>
  );
}
