import { NavLink, useNavigate } from 'react-router-dom';
import { useAuthStore } from '@/stores/auth';

const LINKS = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/content', label: 'Content' },
  { to: '/admin/settings', label: 'Settings' },
];

export function AdminNav() {
  const navigate = useNavigate();
  const leave = () => {
    useAuthStore.getState().setAdminLoggedIn(false);
    navigate('/');
  };
  return (
    <nav className="subnav" aria-label="Admin">
      <span className="subnav-title">Admin</span>
      <div className="subnav-links">
        {LINKS.map((l) => (
          <NavLink key={l.to} to={l.to} end={'end' in l} className={({ isActive }) => `subnav-link ${isActive ? 'active' : ''}`}>
            {l.label}
          </NavLink>
        ))}
      </div>
      <button type="button" className="link-button small" onClick={leave}>
        Leave admin
      </button>
    </nav>
  );
}
