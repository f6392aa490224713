import { ButtonLink } from './Button';
import { Icon, type IconName } from './Icon';

export interface ComingSoonProps {
  title: string;
  description: string;
  icon?: IconName;
  /** What the page will offer, shown as a short list. */
  highlights?: string[];
  backTo?: { label: string; to: string };
}

/** The one placeholder for pages of later milestones: a real page, not a blank. */
export function ComingSoon({ title, description, icon = 'sparkles', highlights = [], backTo = { label: 'Back to home', to: '/' } }: ComingSoonProps) {
  return (
    <section className="coming-soon" aria-labelledby="coming-soon-title">
      <div className="coming-soon-art" aria-hidden>
        <Icon name={icon} size={40} />
      </div>
      <p className="eyebrow">Coming soon</p>
      <h1 id="coming-soon-title">{title}</h1>
      <p className="coming-soon-text">{description}</p>
      {highlights.length > 0 ? (
        <ul className="coming-soon-list">
          {highlights.map((h) => (
            <li key={h}>{h}</li>
          ))}
        </ul>
      ) : null}
      <div className="coming-soon-actions">
        <ButtonLink to={backTo.to} variant="secondary">
          {backTo.label}
        </ButtonLink>
      </div>
    </section>
  );
}
