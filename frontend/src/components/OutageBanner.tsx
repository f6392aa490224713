import { useOutageStore } from '@/stores/outage';
import { Icon } from './Icon';
import './outage-banner.css';

/**
 * Which parts of Quire are down right now, one line each, under the header: unlike a
 * toast it stays while the part is away (the rest of the app works meanwhile, so the
 * person should know what to leave for later), until they dismiss it.
 */
export function OutageBanner() {
  const outages = useOutageStore((s) => s.outages);
  const dismiss = useOutageStore((s) => s.dismiss);
  if (outages.length === 0) return null;
  return (
    <div className="outage-banner" role="status" aria-live="polite" data-testid="outage-banner">
      {outages.map((o) => (
        <div key={o.key} className="outage-line" data-part={o.key}>
          <span className="outage-icon">
            <Icon name="alert" size={14} />
          </span>
          <span className="outage-text">{o.text}</span>
          <button type="button" className="outage-close" aria-label="Dismiss" onClick={() => dismiss(o.key)}>
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
