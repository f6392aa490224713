import { Link } from 'react-router-dom';
import { Logo } from '@/components/Logo';

export function Footer() {
  return (
    <footer className="footer">
      <div className="footer-inner">
        <div className="footer-brand">
          <Logo size={22} />
          <span className="muted small">Read, write and publish, with Quinn by your side.</span>
        </div>
        <nav className="footer-links" aria-label="Footer">
          <Link to="/privacy">Privacy</Link>
          <Link to="/terms">Terms</Link>
          <Link to="/h5">Mobile</Link>
          <Link to="/admin/login">Admin</Link>
        </nav>
        <span className="muted small">© {new Date().getFullYear()} Quire</span>
      </div>
    </footer>
  );
}
