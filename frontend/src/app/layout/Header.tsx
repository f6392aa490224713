import { forwardRef, useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { Button, ButtonLink } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Logo } from '@/components/Logo';
import { useLogout } from '@/features/auth';
import { SearchBox } from '@/features/catalog';
import { Avatar } from '@/features/users';
import { useCurrentUser } from '@/lib/me';
import { loginPathWithRedirect } from '@/lib/redirect';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { useRoleStore } from '@/stores/role';

const NAV = [
  { to: '/', label: 'Discover', end: true },
  { to: '/reader', label: 'Read' },
  { to: '/user/books', label: 'Library' },
  { to: '/user/write', label: 'Write' },
];

const NO_RETURN = /^\/(login|register|admin\/login)?(\/|$)/;

/** The top bar; its element is handed out so toasts can stay clear of it. */
export const Header = forwardRef<HTMLElement>(function Header(_props, ref) {
  const location = useLocation();
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const user = useCurrentUser();
  const role = useRoleStore((s) => s.currentRole);
  const logout = useLogout();
  const [open, setOpen] = useState(false);

  useEffect(() => setOpen(false), [location.pathname]);

  const here = location.pathname + location.search;
  // The shop and the phone pages have their own search box.
  const headerSearch = location.pathname !== '/' && !location.pathname.startsWith('/h5');
  const loginTo = NO_RETURN.test(location.pathname) ? '/login' : loginPathWithRedirect(here);
  const registerTo = NO_RETURN.test(location.pathname) ? '/register' : `/register?redirect=${encodeURIComponent(here)}`;

  return (
    <header className="topbar" ref={ref}>
      <div className="topbar-inner">
        <Link to="/" className="brand" aria-label="Quire home">
          <Logo />
        </Link>
        <nav className={`nav ${open ? 'nav-open' : ''}`} aria-label="Main">
          {NAV.map((n) => (
            <NavLink key={n.to} to={n.to} end={n.end} className={({ isActive }) => `nav-link ${isActive ? 'active' : ''}`}>
              {n.label}
            </NavLink>
          ))}
          <div className="nav-mobile-only">
            {loggedIn ? (
              <>
                <NavLink to="/user" end className="nav-link">
                  Wallet
                </NavLink>
                <NavLink to="/user/profile" className="nav-link">
                  Profile
                </NavLink>
                <NavLink to="/user/settings" className="nav-link">
                  Settings
                </NavLink>
              </>
            ) : (
              <NavLink to={registerTo} className="nav-link">
                Create an account
              </NavLink>
            )}
            <NavLink to={`/h5/${role === 'admin' ? 'reader' : role}/profile`} className="nav-link">
              Mobile pages
            </NavLink>
          </div>
        </nav>
        {headerSearch ? (
          <div className="header-search">
            <SearchBox size="sm" placeholder="Search books" />
          </div>
        ) : null}
        <div className="topbar-actions">
          {headerSearch ? (
            <Link to="/" className="icon-button header-search-icon" aria-label="Search books" title="Search books">
              <Icon name="search" size={18} />
            </Link>
          ) : null}
          {loggedIn ? (
            <>
              <span className="role-pill" title="Current role" data-testid="header-role">
                {role}
              </span>
              <Link to="/user/profile" className="user-chip" aria-label="Your profile">
                <Avatar name={user?.username || user?.email || '?'} url={user?.avatar_url} size={32} />
                <span className="user-chip-name">{user?.username || 'Profile'}</span>
              </Link>
              <Link to="/user" className="icon-button hide-sm" aria-label="Wallet" title="Wallet">
                <Icon name="wallet" size={18} />
              </Link>
              <Link to="/user/settings" className="icon-button hide-sm" aria-label="Settings" title="Settings">
                <Icon name="settings" size={18} />
              </Link>
              <Button variant="ghost" size="sm" onClick={() => logout.mutate()} loading={logout.isPending}>
                Log out
              </Button>
            </>
          ) : (
            <>
              <ButtonLink to={loginTo} variant="ghost" size="sm">
                Log in
              </ButtonLink>
              <ButtonLink to={registerTo} size="sm" className="hide-xs">
                Sign up
              </ButtonLink>
            </>
          )}
          <button
            type="button"
            className="icon-button menu-button"
            aria-label={open ? 'Close menu' : 'Open menu'}
            aria-expanded={open}
            onClick={() => setOpen((v) => !v)}
          >
            <Icon name={open ? 'close' : 'menu'} size={18} />
          </button>
        </div>
      </div>
    </header>
  );
});
