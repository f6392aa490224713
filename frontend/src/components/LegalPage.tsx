import type { ReactNode } from 'react';

export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <article className="legal">
      <p className="eyebrow">Legal</p>
      <h1>{title}</h1>
      <p className="muted small">Last updated {updated}</p>
      <div className="legal-body">{children}</div>
    </article>
  );
}
