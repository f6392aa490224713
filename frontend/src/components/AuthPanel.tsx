import type { ReactNode } from 'react';
import { Logo } from './Logo';

/** The centred card of the login, register and admin-login pages. */
export function AuthPanel({ title, subtitle, children, footer, wide }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode; wide?: boolean }) {
  return (
    <div className="auth-page">
      <div className={`auth-card ${wide ? 'auth-card-wide' : ''}`}>
        <div className="auth-brand">
          <Logo size={36} />
        </div>
        <h1 className="auth-title">{title}</h1>
        {subtitle ? <p className="auth-subtitle">{subtitle}</p> : null}
        <div className="auth-body">{children}</div>
        {footer ? <div className="auth-footer">{footer}</div> : null}
      </div>
    </div>
  );
}
