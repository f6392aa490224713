import { NavLink } from 'react-router-dom';
import { Icon, type IconName } from '@/components/Icon';
import type { H5Role } from '@/stores/role';

/** The bottom tabs of the mobile pages: home, history, favourite or analytics, profile. */
export function H5TabBar({ role }: { role: H5Role }) {
  const tabs = [
    { to: `/h5/${role}/home`, label: 'Home', icon: 'home' as IconName },
    { to: `/h5/${role}/history`, label: 'History', icon: 'clock' as IconName },
    role === 'reader'
      ? { to: '/h5/reader/favourite', label: 'Favourite', icon: 'heart' as IconName }
      : { to: `/h5/${role}/analytics`, label: 'Analytics', icon: 'chart' as IconName },
    { to: `/h5/${role}/profile`, label: 'Profile', icon: 'user' as IconName },
  ];
  return (
    <nav className="tabbar" aria-label="Mobile">
      {tabs.map((t) => (
        <NavLink key={t.to} to={t.to} className={({ isActive }) => `tab ${isActive ? 'tab-active' : ''}`}>
          <Icon name={t.icon} size={20} className="tab-icon" />
          <span className="tab-label">{t.label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
