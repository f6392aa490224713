import { Link } from 'react-router-dom';
import { Icon, type IconName } from '@/components/Icon';
import { useTitle } from '@/lib/use-title';
import { SELF_SERVICE_ROLES, useRoleStore } from '@/stores/role';

const TEXT = {
  reader: 'Books, your reading history and favourites.',
  writer: 'Your manuscripts, history and analytics.',
  publisher: 'Your published books and their analytics.',
} as const;

const ICON: Record<string, IconName> = { reader: 'book', writer: 'pen', publisher: 'landmark' };

export default function H5HomeRoute() {
  useTitle('Quire mobile');
  const current = useRoleStore((s) => s.currentRole);
  return (
    <div className="page h5-page">
      <header className="h5-hero">
        <p className="eyebrow">Quire mobile</p>
        <h1>Where to today?</h1>
        <p className="muted">Pick the role you want to use on this phone.</p>
      </header>
      <div className="choice-list">
        {SELF_SERVICE_ROLES.map((role) => (
          <Link key={role} to={`/h5/${role}/profile`} className={`choice ${current === role ? 'choice-active' : ''}`}>
            <span className="choice-icon">
              <Icon name={ICON[role]} size={22} />
            </span>
            <span className="choice-text">
              <strong className="capitalize">{role}</strong>
              <span className="muted small">{TEXT[role]}</span>
            </span>
            <span aria-hidden className="choice-arrow">
              →
            </span>
          </Link>
        ))}
      </div>
    </div>
  );
}
